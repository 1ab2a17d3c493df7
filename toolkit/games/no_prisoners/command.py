"""*No Prisoners* command (7.x) and the command bonus in an attack (11.10).

An HQ's command radius is counted in hexes from the HQ outward, its own hex
being 0 (7.2 A).  It passes through any terrain, friendly and enemy units and
ZOCs (7.2 C) but never across the sector boundary (7.2 D, 17.5); Damascus,
on the boundary (21.3 A), is reached from either side but not crossed.  Every
friendly unit of the HQ's sector within the radius is in command (7.1 A, 7.2 B);
the HQ's supply does not matter (7.3 A).

An attack gets the command bonus when all its attackers are in command of the
same HQ (11.10 A), at most once per HQ per combat phase (11.10 B, 11.11 C).

Readings of our own:

* an HQ shows its back (stronger) face from the phase in which it is flipped
  on (19.2 A/B: Murray in the 1917-III Western Allied Reinforcement Phase, SXF
  in the 1917-III Western CP Reinforcement Phase; ``tables.yaml``
  ``leader_upgrades``; the game's turn and phase lists decide what comes
  before), or whenever it carries the flag ``flipped``;
* an HQ commands only units of its own sector (17.1; 21.3 E keeps Western and
  Eastern CP bonuses apart at Damascus);
* HQs that already gave their bonus this combat phase carry the unit flag
  ``command_bonus_used`` (the game's flag; ``command_used`` works too) or are
  listed in the position parameter ``command_used`` (HQ ids separated by
  spaces or commas); the caller clears them at the next combat phase.
"""
from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Sequence

from ...game import Position, Unit
from ...game.moves import Reason
from ...hexgrid import Hex
from .mapfacts import MapFacts, map_facts
from .supply import is_unit, unit_sector
from .tables import load_tables

USED_PARAM = "command_used"
USED_FLAGS = ("command_bonus_used", "command_used")
FLIPPED_FLAGS = ("flipped", "back")


def shows_back(position: Position, u: Unit) -> bool:
    """Whether an HQ shows its stronger back face: a ``flipped`` flag, or from its upgrade phase on (19.2 A-C)."""
    if any(u.has(f) for f in FLIPPED_FLAGS):
        return True
    up = load_tables(position.game.folder).leader_upgrades.get(u.counter.id)
    if up is None or not u.counter.back:
        return False
    turns, phases = position.game.spec.turns, position.game.spec.phases
    if up.turn not in turns or position.turn not in turns:
        return False
    now, then = turns.index(position.turn), turns.index(up.turn)
    if now != then:
        return now > then
    return (up.phase in phases and position.phase in phases
            and phases.index(position.phase) >= phases.index(up.phase))


def command_radius(u: Unit, position: Position | None = None) -> int | None:
    """The command radius on the unit's showing face (2.4.2 C, 19.1), or ``None`` for non-HQs."""
    back = any(u.has(f) for f in FLIPPED_FLAGS) if position is None else shows_back(position, u)
    r = u.counter.value("command_radius", back=back)
    return None if r is None else int(r)


def radius_hexes(facts: MapFacts, start: Hex, radius: int, sector: str | None) -> dict[Hex, int]:
    """Hexes within ``radius`` of ``start`` and their distance (7.2 A, C, D)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        x = queue.popleft()
        if dist[x] == radius:
            continue
        for y in facts.neighbors[x]:
            if y in dist or facts.crosses_boundary(x, y) or not facts.in_sector(y, sector):
                continue
            dist[y] = dist[x] + 1
            queue.append(y)
    return dist


@dataclass(frozen=True)
class HqCommand:
    """One HQ's radius and the units it commands."""

    hq: str
    hex: Hex
    radius: int
    sector: str | None
    hexes: dict[Hex, int]
    units: tuple[str, ...]
    used: bool = False


@dataclass
class CommandReport:
    """Every HQ on the map with its command, and each unit's commanding HQs."""

    hqs: list[HqCommand]
    in_command: dict[str, tuple[str, ...]]
    position: Position = field(repr=False)

    def hq(self, hq_id: str) -> HqCommand:
        """The entry of one HQ."""
        for c in self.hqs:
            if c.hq == hq_id:
                return c
        raise KeyError(hq_id)


def used_hqs(position: Position) -> set[str]:
    """HQs that already gave a command bonus this combat phase (11.10 B)."""
    raw = position.params.get(USED_PARAM)
    out = {u.id for u in position.units if any(u.has(f) for f in USED_FLAGS)}
    if isinstance(raw, str):
        out.update(x for x in re.split(r"[\s,;]+", raw.strip()) if x)
    return out


def command(position: Position) -> CommandReport:
    """The command radius of every HQ on the map and the units in command (7.1, 7.2)."""
    facts = map_facts(position.game.map, load_tables(position.game.folder).rail)
    used = used_hqs(position)
    hqs, in_command = [], {}
    for u in position.units:
        r = command_radius(u, position)
        if r is None or u.hex is None:
            continue
        sector = unit_sector(u, facts)
        hexes = radius_hexes(facts, u.hex, r, sector)
        units = tuple(v.id for v in position.units
                      if v.side == u.side and v.hex in hexes and is_unit(v)
                      and (sector is None or unit_sector(v, facts) in (None, sector)))
        hqs.append(HqCommand(u.id, u.hex, r, sector, hexes, units, u.id in used))
    for c in hqs:
        for v in c.units:
            in_command[v] = in_command.get(v, ()) + (c.hq,)
    return CommandReport(hqs, in_command, position)


def command_json(report: CommandReport) -> dict[str, Any]:
    """The report as JSON-ready data (hex names)."""
    name = report.position.game.map.name
    return {
        "hqs": [{"hq": c.hq, "hex": name(c.hex), "radius": c.radius, "sector": c.sector, "used": c.used,
                 "hexes": sorted(name(h) for h in c.hexes), "units": list(c.units), "rule": "7.2"}
                for c in report.hqs],
        "in_command": {u: list(h) for u, h in sorted(report.in_command.items())},
    }


def attack_bonus(position: Position, attacker_ids: Sequence[str]) -> tuple[bool, str | None, Reason]:
    """Whether an attack by these units gets the command bonus, from which HQ, and why (11.10, 7.x)."""
    if not attacker_ids:
        return False, None, Reason("11.10 A", "no attacking units named")
    attackers = [position.by_id[a] for a in attacker_ids]
    sides = {a.side for a in attackers}
    if len(sides) > 1:
        return False, None, Reason("11.3", "the attackers belong to different sides")
    report = command(position)
    facts = map_facts(position.game.map, load_tables(position.game.folder).rail)
    sectors = {unit_sector(a, facts) for a in attackers} - {None}
    if len(sectors) > 1:
        return False, None, Reason("21.3 E", "Western and Eastern units may not combine HQ bonuses")
    common: set[str] | None = None
    for a in attackers:
        hqs = set(report.in_command.get(a.id, ()))
        if not hqs:
            return False, None, Reason("7.1 A", f"{a.id} is not within the command radius of any friendly HQ")
        common = hqs if common is None else common & hqs
    if not common:
        return False, None, Reason("11.10 A", "no single HQ has every attacker within its command radius")
    free = sorted(h for h in common if not report.hq(h).used)
    if not free:
        return False, None, Reason("11.10 B", f"{', '.join(sorted(common))} already gave a command bonus "
                                              "this combat phase")
    return True, free[0], Reason("11.10 A", f"every attacker is within the command radius of {free[0]}: "
                                            "one column right")
