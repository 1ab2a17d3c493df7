"""*The Siege of Jerusalem* Command Control (5.x, 16.1, 17.3, 18.4, 18.24, 18.52).

An HQ's CC range is ``tables.yaml`` ``command.range`` (10, 5.1), two hexes less when it is not Fresh (5.11,
16.1), two less on a night turn (5.11, 18.24), one less for each time a Leader was replaced (18.52, 18.6; the
position parameter ``leader_replacements`` gives ``unit:count`` pairs).  CC is traced from the HQ, its own hex
not counted, to the unit, its hex counted, only through hexes the HQ itself could enter along the path (5.2):
the movement rules' steps for the HQ (:mod:`.movement`) -- levels, Stairways, Gates closed to the enemy,
enemy-occupied hexes -- but not its MF or ZOC (the HQ's ZOC is soft, 7.32).

Leaders command their own Legion / Faction (5.4; ``formation``); Zealots, Cauldrons and Jewish Artillery
answer to any Jewish HQ, Armored Towers to any Roman HQ (5.4); Commanders command every unit of their side
(5.5).  Automatic CC (5.6, 5.5, 17.3, 18.4): Garrisons; HQ (Leaders need no CC to their Commander, Disrupted
HQ are always in CC); Jews anywhere in the Temple District, its outer walls included, or in an unbreached
Fortress; Jews on an Elevated Hex joined by connected Elevated Hexes free of Roman units and Roman ZOC to a
Fortress their side controls.

Readings of our own: the unit must be reached at its own level (on the wall for a unit on the wall); a Fort
is a Fortress (2.11); a Gate passed at Ground level does not reach a unit standing on it.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from ...game import Position, Unit
from ...game.moves import Reason
from ...hexgrid import Hex
from .tables import load_tables
from .zoc import FORTRESS, JEWISH, ROMAN, Board, board_and_zoc, formation, fresh, unit_class, zoc

ANY_JEWISH_HQ = ("zealots", "cauldron", "ballista", "onager", "catapult")   # 5.4 (Jewish Artillery and Zealots)


def replacements(position: Position) -> dict[str, int]:
    """Leader replacements so far (18.52, 18.6): ``params.leader_replacements`` ``unit:count`` pairs."""
    from .movement import param_pairs
    out = {}
    for k, v in param_pairs(position, "leader_replacements").items():
        try:
            out[k] = int(v)
        except ValueError:
            continue
    return out


def is_hq(u: Unit) -> bool:
    return unit_class(u) == "hq"


def radius(position: Position, hq: Unit, board: Board | None = None) -> tuple[int, list[dict]]:
    """The HQ's CC range and each reduction with its rule (5.1, 5.11, 18.24, 18.52)."""
    t = load_tables(position.game.folder).command
    base = hq.counter.value("command_radius", default=None)
    r = int(base) if isinstance(base, (int, float)) and not isinstance(base, bool) else t.range
    why = []
    if not fresh(hq):
        r -= t.not_fresh
        why.append({"rule": "5.11", "hexes": -t.not_fresh, "why": "the HQ is not Fresh"})
    night = position.turn in position.game.spec.place_lists.get("night_turns", [])
    if night:
        r -= t.night
        why.append({"rule": "18.24", "hexes": -t.night, "why": "night turn"})
    n = replacements(position).get(hq.id, 0)
    if n:
        r -= n * t.per_replacement
        why.append({"rule": "18.52", "hexes": -n * t.per_replacement, "why": f"replaced {n} time(s)"})
    return max(0, r), why


def controls(hq: Unit, u: Unit) -> bool:
    """Whether this HQ may control this unit (5.4, 5.5)."""
    if hq.side != u.side:
        return False
    if hq.counter.value("commander", default=False):
        return True
    if u.side == JEWISH and (u.type in ANY_JEWISH_HQ and formation(u) in (None, "")):
        return True
    if u.type == "armored_tower":
        return True
    return formation(u) is not None and formation(u) == formation(hq)


def _level(board: Board, u: Unit) -> str:
    if u.has("on_ladder"):
        return "ladder"
    if u.has("riding"):
        return "tower"
    return "e" if board.elevated(u.hex) else "g"


def trace(position: Position, hq: Unit, r: int, board: Board | None = None, zmap=None,
          edges: dict | None = None) -> dict[tuple[Hex, str], int]:
    """Every (hex, level) the HQ reaches within ``r`` hexes through hexes it could enter (5.2).

    ``edges`` (one dict for every HQ of a report) shares the steps out of each (hex, level) between HQs
    whose steps are the same: same side, Fresh or not, Flight or not.  Steps next to a Siege Tower (6.42:
    its own Legion only) are not shared.
    """
    from .movement import TOWERS, SiegeMove
    mover = SiegeMove(position, [hq], out_of_cc=False, board=board, zmap=zmap)
    bd, f = mover.board, mover.facts
    if edges is None:
        edges = {}
    shared = edges.setdefault((hq.side, mover.disrupted, hq.has("panicked"), mover.fleeing_ok), {})
    towers = edges.get("towers")
    if towers is None:
        towers = edges["towers"] = frozenset(u.hex for u in position.units if u.type in TOWERS and u.hex is not None)
    occupied = edges.get("occupied")
    if occupied is None:
        occupied = edges["occupied"] = frozenset(position.occupied())
    closed = shared.setdefault("closed", {})
    start = (hq.hex, mover.level0)
    dist = {start: 0}
    queue = deque([start])
    neighbors, elevated, ladders, blocked = f.neighbors, bd.elevated, bd.ladders, f.blocked
    plain = not bd.ramps
    ground_nbrs, wall_nbrs, low_nbrs, updown = _static_steps(f)
    if bd.temporary_stairways:                                      # the second 18.36: Stairways in all respects
        updown = updown | both_ways(bd.temporary_stairways)
    near = edges.get("near")
    if near is None:
        near = edges["near"] = (frozenset(x for h in bd.breaches for x in (h, *neighbors[h])),
                                frozenset(x for h in towers for x in (h, *neighbors[h])))
    near_breach, near_tower = near
    connected_sides = f.connected_sides if f.has_connected else None
    flee = mover.fleeing_ok
    while queue:
        here = queue.popleft()
        d = dist[here]
        if d == r:
            continue
        outs = shared.get(here)
        if outs is None:
            h, lvl = here
            outs = []
            if lvl == "g" and plain and h not in near_breach:
                # Ground level, no game state about: plain steps at once, the rest through the movement rules
                slow = []
                for b in ground_nbrs[h]:
                    if b in occupied or b in ladders:
                        slow.append(b)
                    else:
                        outs.append((b, "g"))
                for b in wall_nbrs[h]:
                    if (h, b) in updown:
                        slow.append(b)          # a Stairway or Entry hexside; other walls and blocked sides: no step
            elif lvl == "e" and plain and not flee and h not in near_breach:
                # on a standing wall: along connected walls at once; down only by a Stairway, Entry, Ladder, Tower
                slow = []
                for b in wall_nbrs[h]:
                    if b in occupied or b in ladders:
                        slow.append(b)
                    elif connected_sides is None or frozenset((h, b)) in connected_sides:
                        outs.append((b, "e"))
                for b in low_nbrs[h]:
                    if (h, b) in updown or b in occupied or b in ladders:
                        slow.append(b)
            else:
                slow = neighbors[h]
            for b in slow:
                shut = closed.get(b)
                if shut is None:
                    shut = closed[b] = b in occupied and mover._occupied(b) is not None
                if shut:
                    continue
                if lvl == "g" and plain and not elevated(b) and frozenset((h, b)) not in blocked:
                    outs.append((b, "g"))                       # plain Ground / Built-up step (fast path)
                    if b not in ladders and b not in occupied:
                        continue
                opts = mover._level_options(h, lvl, b, False)
                if isinstance(opts, Reason):
                    continue
                outs.extend((b, o[1]) for o in opts)
            if h not in near_tower:
                shared[here] = outs
        nd = d + 1
        for k in outs:
            if k not in dist:
                dist[k] = nd
                queue.append(k)
    return dist


def _static_steps(f) -> tuple[dict, dict, dict, frozenset]:
    """Per map: each hex's Ground-level neighbours across open hexsides, its wall neighbours, all its Ground-level
    neighbours, and the ordered pairs joined by a Stairway or an Entry hexside (8.91, 8.92, 8.93)."""
    got = getattr(f, "_cc_static", None)
    if got is None:
        from .zoc import ELEVATED
        ground, walls, low = {}, {}, {}
        for h, ns in f.neighbors.items():
            ground[h] = tuple(b for b in ns if f.base[b] not in ELEVATED and frozenset((h, b)) not in f.blocked)
            walls[h] = tuple(b for b in ns if f.base[b] in ELEVATED)
            low[h] = tuple(b for b in ns if f.base[b] not in ELEVATED)
        got = f._cc_static = (ground, walls, low, both_ways(f.stairway | f.entry))
    return got


def both_ways(pairs) -> frozenset:
    """The ordered ``(a, b)`` and ``(b, a)`` of each two-hex hexside in ``pairs``."""
    return frozenset(x for pair in pairs if len(pair) == 2 for x in (tuple(pair), tuple(reversed(tuple(pair)))))


@dataclass(frozen=True)
class HqCommand:
    hq: str
    hex: Hex
    radius: int
    reductions: tuple
    hexes: dict
    units: tuple[str, ...]


@dataclass
class CommandReport:
    hqs: list[HqCommand]
    in_command: dict[str, tuple[str, ...]]
    automatic: dict[str, Reason]
    out_of_command: dict[str, Reason]
    position: Position = field(repr=False)


def automatic(position: Position, board: Board, units: Iterable[Unit], zmap=None) -> dict[str, Reason]:
    """Units in CC whatever the HQ (5.5, 5.6, 17.3, 18.4)."""
    out: dict[str, Reason] = {}
    reach: set[Hex] | None = None
    for u in units:
        if u.hex is None:
            continue
        if u.counter.value("garrison_area", default=None):
            out[u.id] = Reason("5.6", "Garrisons are always in CC (5.6, 18.4)")
        elif is_hq(u):
            out[u.id] = Reason("17.3" if not fresh(u) else "5.5",
                               "Disrupted HQ are always in CC" if not fresh(u)
                               else "an HQ needs no CC (Leaders need not trace CC to their Commander)")
        elif u.side == JEWISH:
            f = board.facts
            if f.region[u.hex] == "Temple District":
                out[u.id] = Reason("5.6", "Jews anywhere in the Temple District (its outer walls included) are "
                                          "always in CC")
            elif f.base[u.hex] in FORTRESS and u.hex not in board.breaches:
                out[u.id] = Reason("5.6", "Jews in an unbreached Fortress are always in CC")
            elif board.elevated(u.hex):
                if reach is None:
                    reach = _fortress_reach(position, board, zmap)
                if u.hex in reach or any(board.connected(u.hex, n) and n in reach for n in f.neighbors[u.hex]):
                    out[u.id] = Reason("5.6", "joined to a Jewish Fortress by connected Elevated Hexes free of Roman "
                                              "units and their ZOC")
    return out


def _fortress_reach(position: Position, board: Board, zmap=None) -> set[Hex]:
    """Elevated Hexes joined to a Jewish-controlled Fortress by connected walls free of Romans and their ZOC."""
    f = board.facts
    roman = {u.hex for u in position.units if u.side == ROMAN and u.hex is not None}
    rzoc = set((zmap if zmap is not None else zoc(position, board)).by_side.get(ROMAN, {}))
    seeds = [h for h, t in f.base.items() if t in FORTRESS and h not in board.breaches and h not in roman
             and board.controller(h) == JEWISH]
    seen = set(seeds)
    queue = deque(seeds)
    walls = _static_steps(f)[1]
    out = roman | rzoc | board.breaches
    sides = f.connected_sides if f.has_connected else None
    while queue:
        h = queue.popleft()
        for n in walls[h]:                                   # standing, connected Elevated Hexes (7.12)
            if n in seen or n in out or (sides is not None and frozenset((h, n)) not in sides):
                continue
            seen.add(n)
            queue.append(n)
    return seen


def command(position: Position, only: Sequence[str] | None = None) -> CommandReport:
    """Every HQ's CC range and the units it commands, automatic CC, and who is out of CC and why (5.x).

    ``only`` limits the report to some units (and the HQs that may command them).
    """
    board, zmap = board_and_zoc(position)
    subjects = [u for u in position.units if u.hex is not None]
    if only is not None:
        wanted = set(only)
        subjects = [u for u in subjects if u.id in wanted]
    auto = automatic(position, board, subjects, zmap)
    need = [u for u in subjects if u.id not in auto]
    hqs, in_command = [], {}
    edges: dict = {}                                   # steps shared between the HQs' traces
    nearest: dict[str, tuple[int, str]] = {}
    for hq in position.units:
        if hq.hex is None or not is_hq(hq):
            continue
        mine = [u for u in need if controls(hq, u) and u.id != hq.id]
        r, why = radius(position, hq, board)
        if only is not None and not any(hq.hex.distance(u.hex) <= r for u in mine):
            if mine:
                for u in mine:
                    d = hq.hex.distance(u.hex)
                    if d < nearest.get(u.id, (10 ** 9, ""))[0]:
                        nearest[u.id] = (d, hq.id)
            continue
        dist = trace(position, hq, r, board, zmap, edges)
        got = []
        for u in mine:
            d = dist.get((u.hex, _level(board, u)))
            if d is None and _level(board, u) in ("ladder", "tower"):
                d = dist.get((u.hex, "g"))
            if d is not None and d <= r:
                got.append(u.id)
            else:
                k = hq.hex.distance(u.hex)
                if k < nearest.get(u.id, (10 ** 9, ""))[0]:
                    nearest[u.id] = (k, hq.id)
        hexes = {}
        for (h, _), d in dist.items():
            if h != hq.hex and d < hexes.get(h, 10 ** 9):
                hexes[h] = d
        hqs.append(HqCommand(hq.id, hq.hex, r, tuple(why), hexes, tuple(got)))
        for v in got:
            in_command[v] = in_command.get(v, ()) + (hq.id,)
    out: dict[str, Reason] = {}
    for u in need:
        if u.id in in_command:
            continue
        if u.id in nearest:
            d, h = nearest[u.id]
            out[u.id] = Reason("5.2", f"no HQ that may control it (5.4, 5.5) traces CC to it within range; the "
                                      f"nearest, {h}, is {d} hex(es) away as the crow flies")
        else:
            out[u.id] = Reason("5.4", "no HQ of its side that may control it is on the map (5.4, 5.5)")
    return CommandReport(hqs, in_command, auto, out, position)


def out_of_command(position: Position, unit_ids: Sequence[str] | None = None) -> dict[str, Reason]:
    """The units (of ``unit_ids``, or all) that cannot trace CC now, with the reason (5.1-5.6)."""
    return command(position, unit_ids).out_of_command


def command_json(report: CommandReport) -> dict[str, Any]:
    """No Prisoners' keys plus ``reductions`` per HQ, ``automatic`` and ``out_of_command`` (docs/cli.md)."""
    pos = report.position
    name = pos.game.map.name
    return {
        "hqs": [{"hq": c.hq, "hex": name(c.hex), "radius": c.radius, "sector": None, "used": False,
                 "hexes": sorted(name(h) for h in c.hexes), "units": list(c.units), "rule": "5.2",
                 "reductions": list(c.reductions)} for c in report.hqs],
        "in_command": {u: list(h) for u, h in sorted(report.in_command.items())},
        "automatic": {u: {"rule": r.rule, "reason": r.message} for u, r in sorted(report.automatic.items())},
        "out_of_command": [{"unit": u, "hex": name(pos.by_id[u].hex), "reason": r.message, "rule": r.rule}
                           for u, r in sorted(report.out_of_command.items())],
    }
