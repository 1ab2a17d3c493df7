"""Applying combat results: retreats and eliminations, one mechanism for every game.

A game turns a combat result into one :class:`Order` per affected unit (eliminated, turned to its back face,
retreated, or left in place, each with its rule) and gives :class:`RetreatHooks`: the hexes a retreat may enter
from a hex (or why not, with the rule), the hexes it may enter only as a last resort (overstacking …), and
what those last resorts do to the unit.  :func:`retreats` searches each retreat through the one move generator
(:func:`toolkit.game.moves.legal_moves`) and :func:`apply_retreats` gives the position after the result.

What is generic here:

* the length: ``most`` hexes (each hex costs 2, the generator counting half points) or, for games that count a
  retreat in movement points, the game's own step costs within a budget; at least ``least`` hexes (a hex
  reached sooner may not end the retreat there);
* ``away``: each hex farther from the hex the unit retreats from (so ``most`` hexes end exactly ``most`` away);
* ``not_toward``: no hex closer to the enemy units of the combat than the hex before;
* last resorts: a retreat takes the fewest last-resort hexes it can (searched again allowing one more each
  time), and the game says what each does (``settle``);
* no legal retreat: the unit is eliminated, citing the game's retreat rule and why each first hex is refused.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Hashable, Iterable, Protocol, Sequence

from ..hexgrid import Hex
from .moves import Blocked, Destination, MoveResult, Reason, Step, legal_moves
from .position import Position, Unit

@dataclass(frozen=True)
class Span:
    """How far a unit retreats: ``most`` hexes (or, ``by_mf``, half movement points), at least ``least`` hexes."""

    most: int
    least: int
    rule: str                                 # the rule that sets the length
    away: str | None = None                   # the rule: each hex farther from the start (None: not required)
    not_toward: frozenset[Hex] = frozenset()  # no hex closer to these (the enemy units' hexes) …
    not_toward_rule: str = ""                 # … by this rule
    by_mf: bool = False


@dataclass(frozen=True)
class Order:
    """What a combat result does to one unit, each part with its rule."""

    unit: str
    eliminated: Reason | None = None   # eliminated outright
    flipped: Reason | None = None      # turned to its back face first (a step loss, Disrupted …)
    retreat: Span | None = None
    stays: Reason | None = None        # why it stays where it is (need not, or may not, retreat)
    note: Reason | None = None         # what the owner still decides (which units an exchange costs …)


class RetreatHooks(Protocol):
    """What a game tells the retreat search (see the module doc)."""

    rule: str   # the retreat rule cited when a unit cannot retreat and is eliminated

    def steps(self, unit: Unit, at: Hex, cost_so_far: int, mode: Hashable) -> Iterable[Step | Blocked]:
        """The hexes a retreat may enter from ``at`` (Step: cost, no_end, the game's mode) or why not."""

    def last_resort(self, unit: Unit, at: Hex, to: Hex, final: bool) -> Reason | None:
        """Why entering ``to`` is allowed only when no other retreat exists (``final``: the last hex)."""

    def most_last_resorts(self, unit: Unit) -> int:
        """How many last-resort hexes a retreat may take at all."""

    def settle(self, unit: Unit, last_resorts: int) -> Unit | Reason:
        """The unit after a retreat through that many last-resort hexes, or why it is eliminated."""


@dataclass
class UnitRetreat:
    """One unit's answer: its order, and where it may go (each destination with the unit it leaves there)."""

    order: Order
    unit: Unit                                        # as the result leaves it before retreating
    destinations: list[Destination] = field(default_factory=list)
    after: dict[Hex, Unit | Reason] = field(default_factory=dict)
    refused: dict[Hex, Reason] = field(default_factory=dict)
    last_resorts: int = 0
    eliminated: Reason | None = None


class RetreatMove:
    """The :class:`~toolkit.game.moves.MoveRules` of one retreat, allowing ``limit`` last-resort hexes."""

    def __init__(self, hooks: RetreatHooks, unit: Unit, span: Span, limit: int, name):
        self.hooks, self.unit, self.span, self.limit, self.name = hooks, unit, span, limit, name
        self.start = unit.hex
        self.budget = span.most if span.by_mf else 2 * span.most

    def refusal(self) -> Reason | None:
        """A retreat is never refused as a move is; no retreat at all is an elimination (:func:`retreats`)."""
        return None

    def steps(self, at: Hex, cost_so_far: int, mode: Hashable = None) -> Iterable[Step | Blocked]:
        """The game's retreat steps, held to the span, with the last resorts counted in the mode."""
        inner, hexes, used = mode if mode is not None else (None, 0, 0)
        span = self.span
        for step in self.hooks.steps(self.unit, at, cost_so_far, inner):
            if type(step) is Blocked:
                yield step
                continue
            to = step.to
            why = self._direction(at, to)
            if why is None:
                why = self.hooks.last_resort(self.unit, at, to, not span.by_mf and hexes + 1 == span.most)
                if why is None or used + 1 <= self.limit:
                    short = None if hexes + 1 >= span.least else Reason(span.rule, f"a retreat of at least "
                                                                                   f"{span.least} hexes")
                    yield Step(to, step.cost if span.by_mf else 2, step.stop, step.no_end or short,
                               (step.mode, hexes + 1, used + (why is not None)))
                    continue
            yield Blocked(to, why)

    def _direction(self, at: Hex, to: Hex) -> Reason | None:
        span, start = self.span, self.start
        if span.away is not None and to.distance(start) <= at.distance(start):
            return Reason(span.away, f"each hex of the retreat must be farther from {self.name(start)}, the hex "
                                     "the unit retreats from")
        if span.not_toward and _nearest(to, span.not_toward) < _nearest(at, span.not_toward):
            return Reason(span.not_toward_rule, "a retreat may not move closer to the enemy units of the combat")
        return None


def _within(result: MoveResult, unit: Unit, span: Span) -> dict[Hex, Reason]:
    """The refusals of hexes within the retreat's length (not those merely too far, nor, for a retreat counted in
    hexes, those farther from the unit than it may go, whatever else refuses them)."""
    return {h: r for h, r in result.unreachable.items()
            if r.rule != "MP" and (span.by_mf or h.distance(unit.hex) <= span.most)}


def _nearest(h: Hex, hexes: frozenset[Hex]) -> int:
    return min(h.distance(x) for x in hexes)


def search(hooks: RetreatHooks, unit: Unit, span: Span, name) -> UnitRetreat:
    """The legal retreats of one unit: those with the fewest last-resort hexes (or why it is eliminated)."""
    found = UnitRetreat(Order(unit.id, retreat=span), unit)
    first: MoveResult | None = None
    for limit in range(hooks.most_last_resorts(unit) + 1):
        result = legal_moves(RetreatMove(hooks, unit, span, limit, name))
        first = first or result
        ends = list(result.destinations.values())
        if ends:
            found.destinations = sorted(ends, key=lambda d: (d.cost, name(d.hex)))
            found.after = {d.hex: hooks.settle(unit, limit) for d in found.destinations}
            found.refused, found.last_resorts = _within(result, unit, span), limit
            return found
    found.refused = _within(first, unit, span)
    around = [f"{name(h)}: {r}" for h, r in sorted(first.unreachable.items(), key=lambda kv: name(kv[0]))
              if h.distance(unit.hex) == 1]
    found.eliminated = Reason(hooks.rule, "no legal retreat" + (f" ({'; '.join(around)})" if around else ""))
    return found


def flip(position: Position, unit: Unit) -> Unit:
    """The unit turned to its back face (the game's ``back_flag``)."""
    flag = position.game.spec.back_flag
    if flag is None:
        raise ValueError(f"{position.game.spec.id} has no back face (game.yaml back_flag): a result cannot flip "
                         f"{unit.id}; give the result as an elimination")
    return replace(unit, flags=unit.flags | {flag})


@dataclass
class RetreatAnswer:
    """A combat result applied: every affected unit's answer."""

    position: Position
    result: str | None
    units: list[UnitRetreat]


def check_request(result: str | None, hexes: int | None, codes: Sequence[str], where: str) -> None:
    """Refuse a request giving both or neither of a result code and a number of hexes, or a code not among
    ``codes`` (named by ``where``, the file or table that lists them)."""
    if (result is None) == (hexes is None):
        raise ValueError("give a combat result (--result CODE) or a number of hexes to retreat (--hexes N), "
                         "not both")
    if result is not None and result not in codes:
        raise ValueError(f"result {result!r}: {where} has {', '.join(codes)}; give one of them")
    if hexes is not None and hexes < 1:
        raise ValueError(f"--hexes {hexes}: give 1 or more hexes to retreat")


def attacking_side(position: Position) -> str:
    """The attacker of the position's combat phase: the side the phase belongs to, else the phasing side."""
    return position.game.spec.phase_side(position.phase) or position.phasing_side


def step_loss(position: Position, unit: Unit, rule: str) -> dict[str, Reason]:
    """The :class:`Order` fields of a step loss: the unit turned to its back face, or eliminated when it shows it
    already or has none."""
    flag = position.game.spec.back_flag
    if flag is None or unit.counter.back is None or unit.has(flag):
        return {"eliminated": Reason(rule, "a step loss eliminates a unit already on its back face (or with none)")}
    return {"flipped": Reason(rule, "a step loss turns the unit to its back face")}


def retreats(position: Position, hooks: RetreatHooks | None, orders: Sequence[Order],
             result: str | None = None) -> RetreatAnswer:
    """Every affected unit's answer: eliminated, left in place, or its legal retreats (:func:`search`); ``hooks``
    may be None for a game without retreats."""
    name, out = position.game.map.name, []
    for order in orders:
        unit = position.by_id[order.unit]
        if order.flipped is not None and order.eliminated is None:
            unit = flip(position, unit)
        if order.eliminated is not None or order.retreat is None or unit.hex is None:
            out.append(UnitRetreat(order, unit, eliminated=order.eliminated))
            continue
        found = search(hooks, unit, order.retreat, name)
        found.order = order
        out.append(found)
    return RetreatAnswer(position, result, out)


def apply_retreats(answer: RetreatAnswer, choices: dict[str, str]) -> Position:
    """The position after the result: each unit eliminated (to the game's eliminated box), flipped, or retreated
    to its chosen hex (``choices``: unit id -> hex name; a unit with one destination needs none).  Raises
    ``ValueError`` naming the unit and its choices when one is missing or not legal."""
    position = answer.position
    cmap, box = position.game.map, position.game.spec.eliminated_box
    changes: dict[str, Unit] = {}
    for f in answer.units:
        gone = replace(f.unit, hex=None, box=box)
        if f.eliminated is not None or f.order.retreat is None or f.unit.hex is None:
            changes[f.unit.id] = gone if f.eliminated is not None else f.unit
            continue
        options = [cmap.name(d.hex) for d in f.destinations]
        chosen = choices.get(f.unit.id) or (options[0] if len(options) == 1 else None)
        if chosen not in options:
            raise ValueError(f"--apply: give the hex {f.unit.id} retreats to: one of {', '.join(options)}"
                             + (f", not {chosen!r}" if chosen else ""))
        after = f.after[cmap.resolve(chosen)]
        changes[f.unit.id] = replace(after, hex=cmap.resolve(chosen)) if isinstance(after, Unit) else gone
    return position.moved(changes)


def _reason(r: Reason | None) -> dict[str, str] | None:
    return None if r is None else {"reason": r.message, "rule": r.rule}


def retreats_json(answer: RetreatAnswer) -> dict[str, Any]:
    """The stable JSON of ``toolkit retreat --json`` (docs/cli.md)."""
    name = answer.position.game.map.name
    units = []
    for f in answer.units:
        o, span = f.order, f.order.retreat
        units.append({
            "unit": o.unit, "from": None if f.unit.hex is None else name(f.unit.hex),
            "eliminated": _reason(f.eliminated), "flipped": _reason(o.flipped), "stays": _reason(o.stays),
            "note": _reason(o.note),
            "retreat": None if span is None else {"most": span.most / 2 if span.by_mf else span.most,
                                                  "unit_of_length": "mf" if span.by_mf else "hexes",
                                                  "least": span.least, "rule": span.rule},
            "last_resorts": f.last_resorts,
            "destinations": [_destination(d, f.after[d.hex], name) for d in f.destinations],
            "refused": [{"hex": name(h), "reason": r.message, "rule": r.rule}
                        for h, r in sorted(f.refused.items(), key=lambda kv: name(kv[0]))],
        })
    return {"result": answer.result, "units": units}


def _destination(d: Destination, after: Unit | Reason, name) -> dict[str, Any]:
    return {"hex": name(d.hex), "path": [name(h) for h in d.path], "cost": d.mp,
            "eliminated": _reason(after) if isinstance(after, Reason) else None,
            "flags": sorted(after.flags) if isinstance(after, Unit) else None}
