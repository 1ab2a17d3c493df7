"""*No Prisoners* combat results applied (11.3, 12.x), through :mod:`toolkit.game.retreat`.

A result code (tables.yaml ``results``) gives each side a loss (``all``: every unit eliminated; ``half`` (rounded
up) or ``one``: the owner chooses which, 11.3, so the answer says how many of the units named) and a retreat of a
number of hexes (12.1 A-C), each hex farther from the combat position so that it ends exactly that far away
(12.2 A).  A retreat never enters enemy
units (9.3), prohibited terrain or hexsides (8.4), the other sector (17.1) or, for the Central Powers, Damascus
(21.3 A); entering an enemy ZOC eliminates the unit (10.7 B, 12.2 A), so no retreat goes there; ending over the
stacking limit is a last resort whose excess is eliminated (9.2 C, 12.2 A).
"""
from __future__ import annotations

from typing import Hashable, Iterator, Sequence

from ...game import Position, Unit
from ...game.moves import Blocked, Reason, Step
from ...game.retreat import Order, RetreatAnswer, Span, attacking_side, check_request, retreats
from ...hexgrid import Hex
from .mapfacts import map_facts
from .movement import NoPrisonersMove
from .tables import load_tables

EZOC = Reason("12.2 A", "a unit that retreats into an enemy ZOC is eliminated (10.7 B)")
LOSSES = {"half": "half the units (rounded up)", "one": "one unit"}


class NoPrisonersRetreat:
    """The :class:`~toolkit.game.retreat.RetreatHooks` of No Prisoners (12.2 A)."""

    rule = "12.2 A"

    def __init__(self, position: Position):
        self.position = position
        self.tables = load_tables(position.game.folder)
        self.facts = map_facts(position.game.map, self.tables.rail)
        self._moves: dict[str, NoPrisonersMove] = {}

    def _move(self, unit: Unit) -> NoPrisonersMove:
        if unit.id not in self._moves:
            self._moves[unit.id] = NoPrisonersMove(self.position, [unit], facts=self.facts, tables=self.tables)
        return self._moves[unit.id]

    def steps(self, unit: Unit, at: Hex, cost_so_far: int, mode: Hashable) -> Iterator[Step | Blocked]:
        """Into each neighbour a unit could enter by normal movement (12.2 A), never an enemy ZOC (10.7 B)."""
        move = self._move(unit)
        for b in self.facts.neighbors[at]:
            why = move.entry_refusal(at, b, False)
            if why is None and move.step_cost(at, b) is None:
                why = Reason("8.4", f"{move.mf.base[b]} is prohibited terrain for the unit (8.4, 12.2 A)")
            if why is None and b in move.ezoc:
                why = EZOC
            yield Blocked(b, why) if why else Step(b, 2)

    def last_resort(self, unit: Unit, at: Hex, to: Hex, final: bool) -> Reason | None:
        """Ending over the stacking limit: only when no other retreat exists (12.2 A, 9.1)."""
        over = self._move(unit).end_refusal(to) if final else None
        return None if over is None else Reason("12.2 A", f"overstacked, allowed only when no other retreat "
                                                          f"exists: {over.message}")

    def most_last_resorts(self, unit: Unit) -> int:
        """The one overstacked end hex."""
        return 1

    def settle(self, unit: Unit, last_resorts: int) -> Unit | Reason:
        """An overstacked end: the excess is eliminated (9.2 C; the owner may pick another unit of the hex)."""
        return Reason("9.2 C", "it ends the retreat overstacked: the excess is eliminated") if last_resorts else unit


def retreat(position: Position, unit_ids: Sequence[str], enemy_hexes: Sequence[Hex], hexes: int | None = None,
            result: str | None = None) -> RetreatAnswer:
    """What a result code of the CRTs (or a retreat of ``hexes`` hexes) does to each named unit (11.3, 12.x);
    the attacker is the phasing side."""
    codes = load_tables(position.game.folder).results.codes
    check_request(result, hexes, list(codes), "the CRTs (tables.yaml results)")
    attacker = attacking_side(position)
    orders = []
    for uid in unit_ids:
        side = position.by_id[uid].side
        if result is None:
            loss, hexes_back = 0, hexes
        else:
            code, mine = codes[result], side == attacker
            loss = code.attacker_loss if mine else code.defender_loss
            hexes_back = code.attacker_retreat if mine else code.defender_retreat
        orders.append(_order(uid, loss, hexes_back, sum(1 for u in unit_ids if position.by_id[u].side == side)))
    return retreats(position, NoPrisonersRetreat(position), orders, result)


def loss_count(loss, units: int) -> int:
    """How many of a side's ``units`` in a combat a loss eliminates: ``all``, ``half`` rounded up, ``one`` (11.3)."""
    if loss == "all":
        return units
    if loss == "half":
        return (units + 1) // 2
    return min(1, units) if loss == "one" else 0


def _order(uid: str, loss, hexes: int, units: int) -> Order:
    """One unit's order: eliminated (``all``), a loss its owner chooses among the side's ``units`` named, a retreat
    (12.1), or nothing."""
    if loss == "all":
        return Order(uid, eliminated=Reason("11.3", "the result eliminates every unit of its side"))
    rest = f"; the others retreat {hexes} hex(es)" if hexes else ""
    note = Reason("11.3", f"the owner eliminates {loss_count(loss, units)} of these {units} unit(s) ({LOSSES[loss]}),"
                          f" of his choice{rest}") if loss in LOSSES else None
    if not hexes:
        return Order(uid, stays=None if note else Reason("11.3", "the result does not move it"), note=note)
    return Order(uid, retreat=Span(hexes, hexes, "12.1 A", away="12.2 A"), note=note)
