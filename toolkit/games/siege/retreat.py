"""*The Siege of Jerusalem* melee results applied (14.x, 15.x, 7.5), through :mod:`toolkit.game.retreat`.

The result codes are the Melee Table's (tables.yaml ``melee_table.codes``).  The named units take them in the
order of the code's letters (``DE``: the Disrupted unit, then the eliminated one); fewer units than letters only
when the hex holds no more, the most severe letters first (11.82), and a DD on a lone unit eliminates it (14.33).

* **B** (14.2): every named unit retreats one or two hexes, whatever the MF; a Jewish unit at Ground level in the
  ZOC of the Roman Heavy Infantry attacking it retreats one hex and is eliminated rather than overstacked (14.21).
* **D** (14.3): the unit is Disrupted (eliminated if it already is) and retreats within its Disrupted MF (15.1),
  except in a Fortress, Testudo or Siege Engine hex (14.31) and Disrupted Jewish Artillery or a Catapult on an
  Armored Tower (14.32), which stay.
* **E** (14.4): the unit is eliminated.

A retreat follows the movement rules of the one move generator (:class:`~.movement.SiegeMove`: terrain, levels,
Gates, Ladders, Infantry and Cavalry apart 6.1-6.2 and 15.2) and never enters an enemy ZOC, even one a friendly
unit holds (7.5, 15.1), nor a hex with a unit in Panic (15.1).  From each hex it goes toward the Refuge (the Temple
District for the Jews, the nearest map edge for the Romans, 15.4) when a step that is no last resort does
(15.1).  Each overstacked hex entered raises the unit's Disruption a level (15.3: Disrupted, Rout, Panic,
eliminated), so such hexes are last resorts (15.1), and a retreat may not end in one (15.1).  Stacking limits
do not apply otherwise (15.2): a full hex costs no double MF (8.13) during a retreat.

Toward the Refuge (15.1, 15.4): a step is toward it when it ends nearer, or moves within the Refuge (the Temple
District; for the Romans the map edge: along it).  From a Ground hex at the map edge a retreat may leave the map
(15.4, 15.5; leaving costs as a Clear hex, 8.14, or counts as one hex of a B retreat): for the Romans that step is
toward their Refuge, so a Roman at the edge never steps back inward while it may leave; the Jews leave only when
no step toward the Temple District is open.  Romans who leave go to the ``off_map`` box and return at the start of
the next Assault Period; Jews to ``escaped`` (18.92), never to return (15.5).  A retreat off the map with fewer
last resorts than any on the map is the only legal one (15.1).

Missile fire (13.5, 14.3): a unit Disrupted by Fire stays in place; a B result needs melee.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Hashable, Iterator, Sequence

from ...game import Position, Unit
from ...game.moves import Blocked, Reason, Step, legal_moves
from ...game.retreat import (Order, RetreatAnswer, RetreatMove, Span, apply_retreats, check_request, retreats,
                             retreats_json)
from ...hexgrid import Hex
from .combat_tables import load_combat_tables
from .movement import REFUGE, SiegeMove, _refuge, facts_for
from .tables import load_tables
from .zoc import FORTRESS, JEWISH, ROMAN, Board, fresh, is_combat, unit_class, zoc

ZOC = Reason("7.5", "a retreat may not enter an enemy ZOC, even one a friendly unit occupies (7.5, 15.1)")
ZOC_RULES = ("16.51", "7.311", "7.31")
PANIC = Reason("15.1", "a retreat may not enter a hex holding a unit in Panic")
TOWARD = Reason("15.1", "each hex of a retreat goes toward the Refuge when it can (15.4: the Temple District for "
                        "the Jews, the nearest map edge for the Romans, and off the map from the edge)")
OFF = "off the map"                                   # the choice of a retreat off the board (15.4, 15.5)
OFF_BOX = {ROMAN: "off_map", JEWISH: "escaped"}       # 15.5: Romans return next Assault Period; Jews escaped (18.92)
FIRE = Reason("13.5", "Disrupted by Fire: it stays in place, no retreat (13.5, 14.3)")
LEVELS = ({"disrupted"}, {"disrupted", "routed"}, {"disrupted", "panicked"})   # 15.3: Disrupted, Rout, Panic


def level(u: Unit) -> int:
    """A unit's Disruption: 0 Fresh, 1 Disrupted, 2 Rout, 3 Panic (15.3)."""
    return 3 if u.has("panicked") else 2 if u.has("routed") else 0 if fresh(u) else 1


class SiegeRetreat:
    """The :class:`~toolkit.game.retreat.RetreatHooks` of the Siege (15.1-15.4, 7.5)."""

    rule = "15.1"

    def __init__(self, position: Position):
        self.position = position
        self.tables = load_tables(position.game.folder)
        self.facts = facts_for(position, self.tables)
        self.board = Board.of(position, self.facts)
        self.zmap = zoc(position, self.board)
        self.one_hex: set[str] = set()        # units under 14.21: never overstacked
        self._moves: dict[str, SiegeMove] = {}
        self._refuge_distance: dict[tuple[str, Hex], int] = {}

    def move(self, unit: Unit) -> SiegeMove:
        """The unit's movement rules (cached), the retreat's terrain, levels and stacking."""
        if unit.id not in self._moves:
            self._moves[unit.id] = SiegeMove(self.position, [unit], self.tables, False, self.board, self.zmap,
                                             retreating=True)
        return self._moves[unit.id]

    def steps(self, unit: Unit, at: Hex, cost_so_far: int, mode: Hashable) -> Iterator[Step | Blocked]:
        """The unit's moves out of ``at``, never into an enemy ZOC or a Panic hex, toward the Refuge (15.1)."""
        yield from self._toward_refuge(unit, at, self._open_steps(unit, at, cost_so_far, mode))

    def _open_steps(self, unit: Unit, at: Hex, cost_so_far: int, mode: Hashable) -> list[Step | Blocked]:
        """The unit's moves out of ``at`` by the movement rules, less enemy ZOC and Panic hexes (7.5, 15.1)."""
        move, out = self.move(unit), []
        for step in move.steps(at, cost_so_far, mode):
            if type(step) is Blocked:
                out.append(Blocked(step.to, ZOC) if step.reason.rule in ZOC_RULES else step)
            elif move._zoc_at(step.to, step.mode[0]):
                out.append(Blocked(step.to, ZOC))
            elif any(u.has("panicked") for u in self.position.at(step.to) if u.id != unit.id):
                out.append(Blocked(step.to, PANIC))
            else:
                out.append(step)
        return out

    def _toward_refuge(self, unit: Unit, at: Hex, found: list[Step | Blocked]) -> Iterator[Step | Blocked]:
        """15.1: when a step toward the Refuge (or, for the Romans, off the map) is open, no other step but a last
        resort."""
        toward = self._toward_steps(unit, at, found)
        leaving = unit.side == ROMAN and self.at_edge(at)
        for s in found:
            keep = (type(s) is Blocked or not (toward or leaving) or s in toward
                    or self.last_resort(unit, at, s.to, False) is not None)
            yield s if keep else Blocked(s.to, TOWARD)

    def _toward_steps(self, unit: Unit, at: Hex, found: list[Step | Blocked]) -> list[Step]:
        """The open steps that end nearer the Refuge or move within it (15.1, 15.4), no last resort."""
        here = self._distance(unit.side, at)
        return [s for s in found if type(s) is Step and self.last_resort(unit, at, s.to, False) is None
                and (self._distance(unit.side, s.to) < here or here == self._distance(unit.side, s.to) == 0)]

    def at_edge(self, h: Hex) -> bool:
        """A Ground hex at the map edge, from which units leave the map (8.14, 15.4)."""
        return h in self.facts.edge and not self.board.elevated(h)

    def may_leave(self, unit: Unit, at: Hex) -> bool:
        """15.4, 15.5: a retreat may leave the map from ``at``: the Romans from any Ground edge hex (their Refuge),
        the Jews only when no step toward the Temple District is open there."""
        if not self.at_edge(at) or unit_class(unit) in ("artillery", "siege_engine"):
            return False
        if unit.side == ROMAN:
            return True
        return not self._toward_steps(unit, at, self._open_steps(unit, at, 1, ("g", False)))

    def _distance(self, side: str, h: Hex) -> int:
        key = (side, h)
        if key not in self._refuge_distance:
            refuge = _refuge(self.facts) if side == JEWISH else self.facts.edge
            self._refuge_distance[key] = 0 if side == JEWISH and self.facts.region[h] == REFUGE else min(
                h.distance(r) for r in refuge)
        return self._refuge_distance[key]

    def last_resort(self, unit: Unit, at: Hex, to: Hex, final: bool) -> Reason | None:
        """An overstacked hex entered: the unit's Disruption rises a level (15.3)."""
        move = self.move(unit)
        over = move._over(to, "g", extra=len(move._counting())) if move._counting() else None
        if over is None or over[0] <= over[1]:
            return None
        return Reason("15.3", f"overstacked ({over[0]} units, limit {over[1]}): entering raises the unit's "
                              "Disruption a level, allowed only when no other retreat exists (15.1)")

    def most_last_resorts(self, unit: Unit) -> int:
        """Levels up to Panic (15.3); none under 14.21."""
        return 0 if unit.id in self.one_hex else 3 - level(unit)

    def settle(self, unit: Unit, last_resorts: int) -> Unit | Reason:
        """The unit's Disruption after its retreat (15.3)."""
        now = level(unit) + last_resorts
        if now == level(unit):
            return unit
        flags = (unit.flags - {"disrupted", "routed", "panicked"}) | LEVELS[now - 1]
        return replace(unit, flags=frozenset(flags))


class _LeavingMove(RetreatMove):
    """A retreat search that also finds the way off the map (15.4, 15.5)."""

    def exits(self, h: Hex) -> list[str]:
        """The map edge, where the retreat may leave the board from ``h``."""
        return [OFF] if self.hooks.may_leave(self.unit, h) else []


@dataclass(frozen=True)
class OffBoard:
    """A retreat off the map (15.5): the path to the edge, the unit after it (or why it is eliminated), its box."""

    path: tuple[Hex, ...]
    last_resorts: int
    after: Unit | Reason
    box: str


@dataclass
class SiegeRetreatAnswer(RetreatAnswer):
    """A result applied, with each unit's retreat off the map when it has one (15.5)."""

    off_board: dict[str, OffBoard] = field(default_factory=dict)


def _off_board(hooks: SiegeRetreat, found, name) -> OffBoard | None:
    """15.4, 15.5: the unit's retreat off the map with the fewest last resorts (never more than its retreats on
    the map take); when it takes fewer, the retreats on the map are dropped (15.1)."""
    span, unit = found.order.retreat, found.unit
    most = hooks.most_last_resorts(unit) if found.eliminated is not None else found.last_resorts
    leave = hooks.tables.movement.leave_map if span.by_mf else 2          # 8.14; a hex of a B retreat (14.2)
    for limit in range(most + 1):
        move = _LeavingMove(hooks, unit, span, limit, name)
        d = legal_moves(move).exits.get(OFF)
        if d is None or d.cost + leave > move.budget:
            continue
        if limit < found.last_resorts or found.eliminated is not None:
            found.destinations, found.after, found.eliminated, found.last_resorts = [], {}, None, limit
        return OffBoard(d.path, limit, hooks.settle(unit, limit), OFF_BOX[unit.side])
    return None


def _with_off_board(hooks: SiegeRetreat, answer: RetreatAnswer) -> SiegeRetreatAnswer:
    """``answer`` with each retreating unit's way off the map (15.5)."""
    name = answer.position.game.map.name
    out = SiegeRetreatAnswer(answer.position, answer.result, answer.units)
    for f in answer.units:
        if f.order.retreat is not None and f.unit.hex is not None and f.order.eliminated is None:
            got = _off_board(hooks, f, name)
            if got is not None:
                out.off_board[f.unit.id] = got
    return out


def options(answer: SiegeRetreatAnswer, unit_id: str) -> list[str]:
    """Where ``unit_id`` may retreat: its hexes' names, then "off the map" when it may leave (15.5); sorted."""
    f = next(x for x in answer.units if x.unit.id == unit_id)
    name = answer.position.game.map.name
    return sorted(name(d.hex) for d in f.destinations) + ([OFF] if unit_id in answer.off_board else [])


def apply_retreat(answer: SiegeRetreatAnswer, choices: dict[str, str]) -> Position:
    """The position after the result: :func:`toolkit.game.retreat.apply_retreats`, and each unit whose choice is
    "off the map" put in its box (15.5), eliminated instead when its retreat there eliminates it (15.3)."""
    gone = {u for u, c in choices.items() if c == OFF}
    for u in gone - answer.off_board.keys():
        raise ValueError(f"{u} may not retreat off the map (15.4, 15.5): choose one of {', '.join(options(answer, u))}")
    rest = replace(answer, units=[f for f in answer.units if f.unit.id not in gone])
    position = apply_retreats(rest, {u: c for u, c in choices.items() if u not in gone})
    box = position.game.spec.eliminated_box
    changes = {}
    for u in gone:
        off = answer.off_board[u]
        unit = off.after if isinstance(off.after, Unit) else position.by_id[u]
        changes[u] = replace(unit, hex=None, box=off.box if isinstance(off.after, Unit) else box)
    return position.moved(changes)


def retreat_json(answer: RetreatAnswer) -> dict[str, Any]:
    """``toolkit retreat --json`` (docs/cli.md) and, per unit, ``off_board``: its retreat off the map (15.5)."""
    data = retreats_json(answer)
    name = answer.position.game.map.name
    off = getattr(answer, "off_board", {})
    for row in data["units"]:
        o = off.get(row["unit"])
        row["off_board"] = None if o is None else {
            "path": [name(h) for h in o.path], "box": o.box, "last_resorts": o.last_resorts, "rule": "15.5",
            "eliminated": {"reason": o.after.message, "rule": o.after.rule} if isinstance(o.after, Reason) else None,
            "flags": sorted(o.after.flags) if isinstance(o.after, Unit) else None}
    return data


def _stays(position: Position, board: Board, u: Unit) -> Reason | None:
    """Why a Disrupted unit need not (14.31) or may not (14.32) retreat."""
    here = position.at(u.hex)
    if board.terrain(u.hex) in FORTRESS or u.has("testudo") or any(unit_class(x) == "siege_engine" for x in here):
        return Reason("14.31", "Disrupted in a Fortress, Testudo or Siege Engine hex: it need not retreat (its "
                               "owner may retreat it, subject to every retreat rule)")
    if unit_class(u) == "artillery" and (u.side == JEWISH and u.type != "cauldron" or u.has("riding")):
        return Reason("14.32", "Disrupted Jewish Artillery and a Catapult on an Armored Tower never retreat")
    return None


def _disrupt(position: Position, board: Board, u: Unit, lone: bool, code: str, fire: bool = False) -> Order:
    """A Disruption (14.3, 14.33): eliminated when already Disrupted or a lone unit under a DD; by Fire it stays
    (13.5)."""
    if lone and code == "DD":
        return Order(u.id, eliminated=Reason("14.33", "a DD against a hex with one defending unit eliminates it"))
    if not fresh(u):
        return Order(u.id, eliminated=Reason("14.3", "a Disruption result eliminates a unit already Disrupted"))
    flipped = Reason("14.3", "Disrupted: turned to its Disrupted face")
    why = FIRE if fire else _stays(position, board, u)
    if why is not None:
        return Order(u.id, flipped=flipped, stays=why)
    mf = u.counter.value("movement", back=True, default=0) or 0
    return Order(u.id, flipped=flipped, retreat=Span(int(2 * float(mf)), 1, "15.1", by_mf=True))


def _heavy_infantry_zoc(hooks: SiegeRetreat, u: Unit, attackers: set[str]) -> bool:
    """14.21: a Jew at Ground level in the Ground-level ZOC of a Roman Heavy Infantry among the attackers."""
    if u.side != JEWISH or hooks.board.elevated(u.hex):
        return False
    return any(s.heavy_infantry_ground and s.unit in attackers for s in hooks.zmap.enemy(JEWISH).get(u.hex, []))


def retreat(position: Position, unit_ids: Sequence[str], enemy_hexes: Sequence[Hex], hexes: int | None = None,
            result: str | None = None, kind: str | None = None) -> SiegeRetreatAnswer:
    """What a Melee or Missile Table result (or a retreat of ``hexes`` hexes, as a B result's) does to the named
    defenders, with their legal retreats, off the map too (14.x, 15.x).  ``kind`` ``melee`` or ``missile``; None:
    missile in a Fire Phase, else melee (13.5: no retreat after Fire)."""
    hooks, orders = result_orders(position, unit_ids, enemy_hexes, hexes, result, kind)
    return _with_off_board(hooks, retreats(position, hooks, orders, result))


def result_orders(position: Position, unit_ids: Sequence[str], enemy_hexes: Sequence[Hex], hexes: int | None = None,
                  result: str | None = None, kind: str | None = None) -> tuple[SiegeRetreat, list[Order]]:
    """The retreat hooks and what the result does to each named unit (see :func:`retreat`)."""
    fire = (kind or ("missile" if position.phase == "fire" else "melee")) == "missile"
    codes = load_combat_tables(position.game.folder).melee_table.codes
    check_request(result, hexes, list(codes), "the Melee Table (tables.yaml melee_table.codes)")
    hooks = SiegeRetreat(position)
    units = [position.by_id[u] for u in unit_ids]
    attackers = {u.id for h in enemy_hexes for u in position.at(h) if u.side == ROMAN}
    if fire and (result is None or codes[result].retreat):
        raise ValueError("13.5: Fire results make no unit retreat; a retreat (B) is a melee result")
    if result is None or codes[result].retreat:
        return hooks, [_fall_back(hooks, u, attackers, hexes) for u in units]
    if not (codes[result].disrupt or codes[result].eliminate):
        return hooks, [Order(u.id, stays=Reason("14.1", f"{result}: no effect")) for u in units]
    defenders = [x for x in position.at(units[0].hex) if x.side == units[0].side and is_combat(x)]
    letters = list(result)                       # DE: the first unit named is Disrupted, the second eliminated
    if len(defenders) < len(letters):
        letters = sorted(letters, key="ED".index)[:len(defenders)]     # the most severe first (11.82)
    if len(units) != len(letters):
        raise ValueError(f"--units: {result} takes {len(letters)} unit(s) of the defender's choice in the hex "
                         "(14.3, 14.33, 14.4, 11.82); name that many, in the order of the code's letters")
    return hooks, [Order(u.id, eliminated=Reason("14.4", "an E result eliminates it")) if letter == "E"
                   else _disrupt(position, hooks.board, u, len(defenders) == 1, result, fire)
                   for u, letter in zip(units, letters)]


def _fall_back(hooks: SiegeRetreat, u: Unit, attackers: set[str], hexes: int | None) -> Order:
    """A B result (14.2): one or two hexes (``hexes``: exactly that many); one under 14.21, never overstacked."""
    if _heavy_infantry_zoc(hooks, u, attackers):
        hooks.one_hex.add(u.id)
        return Order(u.id, retreat=Span(1, 1, "14.21"))
    return Order(u.id, retreat=Span(hexes or 2, hexes or 1, "14.2"))
