"""Where the Allied railhead marker may be placed or moved (16.2 A-C).

* **Placing** (16.2 A): once the marker has arrived (``tables.yaml``
  ``rail.railhead.arrives``, 1916-I) and while it is not on the map, it may go
  in any rail hex of an Allied (red) line west of the Suez Canal that holds no
  CP unit and lies in no CP ZOC.
* **Moving** (16.2 B/C): along rail hexes, as many hexes as ``tables.yaml``
  ``movement.railhead_move`` allows: 2 when the marker is in supply, none when
  it is not.  Any railway will do, the CP lines included: that is how the
  Allies take CP rail over (16.1 B, 16.3 B), e.g. on from Ramlah, where the
  British line ends, along the Jaffa-Jerusalem or Beersheba lines.  It never
  enters a CP-occupied hex or a hex in a CP ZOC, so it never moves through
  one either.

Readings of our own:

* the marker is "in supply" when a land unit of the Allies standing in its hex
  would be (15.x, traced in the sector of that hex); the answer carries that
  supply line, or where it is cut;
* "west of the Suez Canal" is ``game.yaml`` ``place_lists.west_of_suez_canal``
  (the data tests check it against the map's canal hexsides);
* the marker's move is counted in rail hexes entered; it may run back toward
  Egypt as well as forward;
* it stays in the Western Sector (8.9 A: it limits Western rail movement; 17.1):
  never across the sector boundary, nor into Damascus.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from ...game import Position
from ...game.moves import Reason
from ...hexgrid import Hex
from .mapfacts import WESTERN, MapFacts, map_facts
from .places import place_hexes
from .railnet import railhead_hex
from .supply import UnitSupply, allied_side, enemy_zoc, hex_supply, is_unit
from .tables import load_tables

WEST_OF_CANAL = "west_of_suez_canal"        # game.yaml place_lists (16.2 A, 25.4.1)


@dataclass(frozen=True)
class RailheadOptions:
    """The hexes the railhead may be placed in or moved to now, with the rule behind the answer."""

    action: str                                   # place | move | none
    start: Hex | None
    allowance: int
    reason: Reason
    supply: UnitSupply | None = None
    paths: dict[Hex, tuple[Hex, ...]] = field(default_factory=dict)   # destination -> rail hexes from start
    blocked: dict[Hex, Reason] = field(default_factory=dict)         # rail hexes it may not enter, and why


def _enemy(position: Position, facts: MapFacts) -> tuple[set[Hex], set[Hex]]:
    """Hexes holding CP units, and hexes in CP ZOC (16.2 A/C)."""
    allies = allied_side(position)
    occupied = {u.hex for u in position.units if u.side != allies and is_unit(u)}
    zoc = enemy_zoc(position, facts, allies)
    return occupied, zoc


def _refusal(h: Hex, occupied: set[Hex], zoc: set[Hex], name, rule: str) -> Reason | None:
    if h in occupied:
        return Reason(rule, f"{name(h)} holds CP units")
    if h in zoc:
        return Reason(rule, f"{name(h)} is in a CP ZOC")
    return None


def railhead_options(position: Position) -> RailheadOptions:
    """Where the Allied railhead marker may be placed (16.2 A) or moved (16.2 B/C) in this position.

    In the bundled Scenario 1 the marker stands at Qantara (0409), in supply: it may run two hexes along the
    Egyptian lines or one onto the British line (0508), since 0609 beyond lies in a CP ZOC::

        opts = railhead_options(load_game_position("modules/no-prisoners/scenarios/scenario-1.yaml"))
        opts.action, opts.allowance          # ('move', 2)
        sorted(map(name, opts.paths))        # ['0309', '0408', '0410', '0411', '0508']
    """
    tables = load_tables(position.game.folder)
    facts = map_facts(position.game.map, tables.rail)
    name = position.game.map.name
    occupied, zoc = _enemy(position, facts)
    head = railhead_hex(position)
    if head is None:
        return _placing(position, facts, tables.rail.railhead.arrives, occupied, zoc)
    allied = allied_side(position)
    supplied = hex_supply(position, allied, head, "railhead")
    spec = tables.movement.railhead_move
    allowance = spec.supplied if supplied.supplied else spec.out_of_supply
    state = "in supply" if supplied.supplied else "out of supply"
    reason = Reason("16.2 B", f"the railhead in {name(head)} is {state}: it may move {allowance} rail hexes")
    paths: dict[Hex, tuple[Hex, ...]] = {head: (head,)}
    blocked: dict[Hex, Reason] = {}
    queue = deque([head])
    while queue:
        h = queue.popleft()
        if len(paths[h]) > allowance:
            continue
        for n, line in sorted(facts.rail_links(h).items()):
            if n in paths:
                continue
            if facts.crosses_boundary(h, n) or facts.sector(n) not in (None, WESTERN):
                blocked.setdefault(n, Reason("8.9 A", f"{name(n)} is beyond the Western Sector: the railhead "
                                                      "serves the Western Allied rail net (8.9 A, 17.1)"))
                continue
            why = _refusal(n, occupied, zoc, name, "16.2 C")
            if why is not None:
                blocked[n] = why
                continue
            paths[n] = paths[h] + (n,)
            queue.append(n)
    del paths[head]
    return RailheadOptions("move", head, allowance, reason, supplied, paths, blocked)


def _placing(position: Position, facts: MapFacts, arrives: str | None, occupied: set[Hex],
             zoc: set[Hex]) -> RailheadOptions:
    turns = position.game.spec.turns
    if arrives in turns and position.turn in turns and turns.index(position.turn) < turns.index(arrives):
        return RailheadOptions("none", None, 0, Reason("16.2 A", f"the railhead arrives in {arrives}; "
                                                                 f"it is now {position.turn}"))
    name = position.game.map.name
    zone = facts.allied_line_hexes & set(place_hexes(position, WEST_OF_CANAL, "game.yaml",
                                                     f"place_lists.{WEST_OF_CANAL}"))
    paths, blocked = {}, {}
    for h in sorted(zone):
        why = _refusal(h, occupied, zoc, name, "16.2 A")
        if why is None:
            paths[h] = (h,)
        else:
            blocked[h] = why
    return RailheadOptions("place", None, 0, Reason("16.2 A", "the railhead is placed on an Allied rail hex west "
                                                              "of the Suez Canal, free of CP units and ZOC"),
                           None, paths, blocked)


def railhead_json(opts: RailheadOptions, position: Position) -> dict[str, Any]:
    """The options as JSON-ready data (hex names, every reason with its rule)."""
    name = position.game.map.name
    sup = opts.supply
    return {
        "action": opts.action,
        "hex": None if opts.start is None else name(opts.start),
        "allowance": opts.allowance,
        "reason": opts.reason.message, "rule": opts.reason.rule,
        "supply": None if sup is None else {
            "supplied": sup.supplied, "path": [name(h) for h in sup.path], "rule": sup.rule,
            "source": None if sup.source is None else {"kind": sup.source.kind, "hex": name(sup.source.hex)},
            "cut": None if sup.cut is None else {"hex": None if sup.cut.hex is None else name(sup.cut.hex),
                                                 "reason": sup.cut.reason.message, "rule": sup.cut.reason.rule}},
        "hexes": {name(h): [name(x) for x in p] for h, p in sorted(opts.paths.items())},
        "blocked": {name(h): {"reason": r.message, "rule": r.rule} for h, r in sorted(opts.blocked.items())},
    }
