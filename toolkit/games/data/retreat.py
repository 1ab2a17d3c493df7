"""Applying combat results in a ``rules.yaml`` game (``retreat`` section), through :mod:`toolkit.game.retreat`.

A result code eliminates, turns to the back face (a step loss) or retreats each unit of the side it names; a
retreat counts hexes, never enters enemy units, a terrain or hexside the movement section prohibits, nor
(``enemy_zoc: prohibited``) an enemy zone of control, which a friendly unit negates when
``zoc.negated_by_friends`` lists ``retreat``; ending over the stacking limit is allowed, prohibited or a last
resort whose excess is eliminated (``overstack``).
"""
from __future__ import annotations

from typing import Hashable, Iterator, Sequence

from ...game import Position, Unit
from ...game.moves import Blocked, Reason, Step
from ...game.retreat import (Order, RetreatAnswer, Span, attacking_side, check_request, retreats, retreats_json,
                             step_loss)
from ...game.rulesdata import Exchange, SideEffect
from ...game.stacking import limit_at, stacking_points
from ...hexgrid import Hex
from .facts import enemy_zoc, rules_of
from .movement import DataMove

retreat_json = retreats_json   # the JSON every game's retreat answer shares


class DataRetreat:
    """The :class:`~toolkit.game.retreat.RetreatHooks` of a ``rules.yaml`` game."""

    def __init__(self, position: Position):
        self.position, self.rules = position, rules_of(position)
        self.r = self.rules.retreat
        self.rule = self.r.rule
        self._moves: dict[str, DataMove] = {}
        self._zoc: dict[str, set[Hex]] = {}

    def _move(self, unit: Unit) -> DataMove:
        if unit.id not in self._moves:
            self._moves[unit.id] = DataMove(self.position, [unit], None, None)
        return self._moves[unit.id]

    def _enemy_zoc(self, side: str) -> set[Hex]:
        if side not in self._zoc:
            zoc = set(enemy_zoc(self.position, side)) if self.r.enemy_zoc.effect == "prohibited" else set()
            if zoc and "retreat" in self.rules.zoc.negated_by_friends:   # zoc checked with rules.yaml
                zoc -= {u.hex for u in self.position.units if u.side == side}
            self._zoc[side] = zoc
        return self._zoc[side]

    def steps(self, unit: Unit, at: Hex, cost_so_far: int, mode: Hashable) -> Iterator[Step | Blocked]:
        """Into each neighbour on the map, unless enemy units, the terrain or hexside, or an enemy zone bar it."""
        move, m = self._move(unit), self.rules.movement
        for n in at.neighbors():
            if n not in move.cmap.hexes:
                continue
            if n in move.enemy_hexes:
                yield Blocked(n, Reason(m.enemy_units.rule or m.rule, "enemy units hold the hex"))
                continue
            cost, why = move.step_cost(at, n)
            if cost is None:
                yield Blocked(n, why)
            elif n in self._enemy_zoc(unit.side):
                negated = "retreat" in self.rules.zoc.negated_by_friends
                yield Blocked(n, Reason(self.r.enemy_zoc.rule or self.rule, "a retreat may not enter an enemy zone "
                                        "of control" + (" with no friendly unit in it" if negated else "")))
            else:
                yield Step(n, 2)

    def last_resort(self, unit: Unit, at: Hex, to: Hex, final: bool) -> Reason | None:
        """Ending the retreat over the stacking limit (``overstack``)."""
        if not final or self.r.overstack.effect == "allowed":
            return None
        pos = self.position
        free = set(pos.game.spec.stacking.free_types)
        held = sum(stacking_points(pos, u) for u in pos.at(to) if u.side == unit.side and u.type not in free
                   and u.carried_by is None and u.id != unit.id)
        held += 0 if unit.type in free else stacking_points(pos, unit)
        limit = limit_at(pos, to)
        if held <= limit:
            return None
        return Reason(self.r.overstack.rule or self.rule, f"it would end the retreat with {held:g} stacking points in "
                                                          f"{pos.game.map.name(to)}, over its limit of {limit}")

    def most_last_resorts(self, unit: Unit) -> int:
        """One overstacked end, where ``overstack`` is a last resort."""
        return 1 if self.r.overstack.effect == "last_resort" else 0

    def settle(self, unit: Unit, last_resorts: int) -> Unit | Reason:
        """An overstacked end eliminates the excess: the unit that retreated (``overstack``)."""
        if last_resorts:
            return Reason(self.r.overstack.rule or self.rule, "it ends its retreat overstacked: the excess is "
                                                              "eliminated")
        return unit


def steps_left(position: Position, unit: Unit) -> int:
    """A unit's steps: two while it shows a front with a back face (game.yaml ``back_flag``), else one."""
    return 1 if "eliminated" in step_loss(position, unit, "") else 2


def exchange_losses(position: Position, units: list[Unit], exchange: Exchange | None) -> dict[str, int]:
    """The steps an exchange costs each named unit of one side: ``steps`` each (``per: unit``), or ``steps`` in
    all (``per: side``), taken from the units in the order named (the owner's choice) until it is paid."""
    if exchange is None:
        return {}
    if exchange.per == "unit":
        return {u.id: exchange.steps for u in units}
    out, owed = {}, exchange.steps
    for u in units:
        out[u.id] = min(owed, steps_left(position, u))
        owed -= out[u.id]
    return {uid: n for uid, n in out.items() if n}


def _exchanged(position: Position, unit: Unit, steps: int, rule: str) -> dict[str, Reason]:
    """The :class:`Order` fields of ``steps`` lost in an exchange."""
    if steps >= steps_left(position, unit):
        return {"eliminated": Reason(rule, f"the exchange costs it {steps} step{'s' if steps > 1 else ''}, all it "
                                           "has")}
    return {"flipped": Reason(rule, "the exchange costs it a step: it turns to its back face")}


def _order(position: Position, unit: Unit, effect: SideEffect, rule: str, span: Span | None,
           exchanged: int = 0) -> Order:
    """One unit's order from its side's effect and the steps an exchange costs it (a retreat only when it
    survives)."""
    if effect.eliminate:
        return Order(unit.id, eliminated=Reason(rule, "the result eliminates it"))
    lost = (_exchanged(position, unit, exchanged + effect.step_loss, rule) if exchanged else
            step_loss(position, unit, rule) if effect.step_loss else {})
    note = Reason(rule, effect.note) if effect.note else None
    if "eliminated" in lost or span is None:
        still = None if lost or note else Reason(rule, "the result does not move it")
        return Order(unit.id, **lost, stays=still, note=note)
    return Order(unit.id, **lost, retreat=span, note=note)


def retreat(position: Position, unit_ids: Sequence[str], enemy_hexes: Sequence[Hex], hexes: int | None = None,
            result: str | None = None) -> RetreatAnswer:
    """What combat result ``result`` (a code of ``combat.results``), or a retreat of ``hexes`` hexes, does to
    each named unit, with its legal retreats; the attacker is the phasing side."""
    r = rules_of(position).retreat
    check_request(result, hexes, list(r.results), "rules.yaml retreat.results")
    attacker = attacking_side(position)
    orders = []
    code = r.results.get(result) if result is not None else None
    exchanged = exchange_losses(position, [position.by_id[uid] for uid in unit_ids], code and code.exchange)
    for uid in unit_ids:
        u = position.by_id[uid]
        if result is None:
            effect, rule = SideEffect(retreat=hexes), r.rule
        else:
            code = r.results[result]
            effect, rule = (code.attacker if u.side == attacker else code.defender), code.rule or r.rule
        span = None if not effect.retreat else Span(
            effect.retreat, effect.retreat, rule, away=None if r.away is None else r.away.rule or r.rule,
            not_toward=frozenset(enemy_hexes) if r.not_toward_enemy else frozenset(),
            not_toward_rule=r.not_toward_enemy.rule if r.not_toward_enemy else "")
        orders.append(_order(position, u, effect, rule, span, exchanged.get(uid, 0)))
    return retreats(position, DataRetreat(position), orders, result)
