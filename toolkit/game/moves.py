"""The one legal-move generator behind highlighting, checking and explaining.

A game supplies a :class:`MoveRules` object for a moving unit or stack: its
movement allowance and, for any hex it stands in, the steps it may take (to a
hex, at a cost, perhaps stopping there) or why a step is refused (a
:class:`Reason` with its rule number).  :func:`legal_moves` searches the
cheapest legal paths (Dijkstra over ``(hex, stopped, mode)``) and returns every
destination with its minimum cost, a cheapest path and whether the move must
end there, plus, for hexes it cannot reach, the reason and rule.

Costs are whole numbers of *half* movement points, so ½ MP is exact.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from itertools import count
from typing import Any, Callable, Hashable, Iterable, NamedTuple, Protocol

from ..hexgrid import Hex


@dataclass(frozen=True)
class Reason:
    """Why something is not allowed (or must happen), citing the rule."""

    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})"


class Step(NamedTuple):
    """A legal step into an adjacent (or rule-linked) hex: its cost, and why the move must or may not end there.

    ``mode`` is the game's own state after the step (e.g. "on the rail move",
    "rail move used"); ``None`` for games that need none.
    """

    to: Hex
    cost: int
    stop: Reason | None = None
    no_end: Reason | None = None
    mode: Hashable = None


class Blocked(NamedTuple):
    """A refused step."""

    to: Hex
    reason: Reason


class MoveRules(Protocol):
    """What a game tells the generator about one moving unit or stack."""

    start: Hex
    budget: int | None  # half MP; None for unlimited

    def refusal(self) -> Reason | None:
        """Why the stack may not move at all, or ``None``."""

    def steps(self, at: Hex, cost_so_far: int, mode: Hashable = None) -> Iterable[Step | Blocked]:
        """The steps out of ``at`` in ``mode`` (``at == start`` and mode ``None`` for the first step).

        Rules for a stack entering the map also define ``entries()``: the steps onto it;
        rules for a game where units may leave the map define ``exits(hex)``: the
        names of the off-map exits from a hex; rules whose moving stack is more than
        the units asked for (units bound to move with them) may give ``moving_units``,
        the ids of every unit that moves, and ``bound``, each bound unit's id with the
        rule that binds it.  Rules with an ``expanded`` set have it filled by the search
        with every hex expanded so far (cheapest first): rules for which entering a hex
        ends the move, or not, by that hex alone and in one mode may leave steps into
        those hexes out, as such a step can improve nothing.
        """


@dataclass(frozen=True)
class Destination:
    """A hex the stack may end its move in: minimum cost, a cheapest path, why the move must end there."""

    hex: Hex
    cost: int
    stop: Reason | None = None
    _key: tuple | None = field(default=None, repr=False, compare=False)
    _parents: dict | None = field(default=None, repr=False, compare=False)

    @property
    def path(self) -> tuple[Hex, ...]:
        """A cheapest path, start first (built on demand from the search tree)."""
        steps, k = [], self._key
        while k is not None:
            steps.append(k[0])
            k = self._parents[k]
        return tuple(reversed(steps))

    @property
    def mp(self) -> float:
        """The cost in movement points."""
        return self.cost / 2


def labelled_paths(destinations: Iterable[Destination], label: Callable[[Hex], Any]) -> list[tuple]:
    """Each destination's (of one search) :attr:`Destination.path` with ``label`` applied to every hex, the search
    tree walked once for all of them: a prefix shared by many paths is labelled once, each hex once (a move's
    thousand destinations answered without a thousand walks)."""
    done: dict[tuple, tuple] = {}
    labels: dict[Hex, Any] = {}
    out = []
    for d in destinations:
        chain, key = [], d._key
        while key is not None and key not in done:
            chain.append(key)
            key = d._parents[key]
        path = done[key] if key is not None else ()
        for k in reversed(chain):
            if k[0] not in labels:
                labels[k[0]] = label(k[0])
            path = done[k] = path + (labels[k[0]],)
        out.append(path)
    return out


@dataclass
class MoveResult:
    """Destinations and refusals of one legal-move search."""

    start: Hex
    budget: int | None
    refused: Reason | None = None
    destinations: dict[Hex, Destination] = field(default_factory=dict)
    unreachable: dict[Hex, Reason] = field(default_factory=dict)
    exits: dict[str, Destination] = field(default_factory=dict)  # off-map exits by name: reached from this hex
    moving: tuple[str, ...] = ()  # ids of every unit that moves, when the rules say (``MoveRules.moving_units``)
    bound: dict[str, Reason] = field(default_factory=dict)  # units that must move along, and why (``MoveRules.bound``)

    def why_not(self, h: Hex) -> Reason | None:
        """The reason the stack cannot end its move in ``h`` (``None`` if it can)."""
        if h in self.destinations:
            return None
        if self.refused:
            return self.refused
        return self.unreachable.get(h, Reason("MP", "out of reach: farther than the movement points allow"))


def legal_moves(rules: MoveRules) -> MoveResult:
    """Every legal destination of a stack, with cheapest paths, and why other hexes are not.

    A stack coming onto the map (reinforcements) has no start hex: its rules
    give ``entries()``, the first steps onto the map, and paths begin there.
    """
    result = MoveResult(rules.start, rules.budget, rules.refusal(), moving=tuple(getattr(rules, "moving_units", ())),
                        bound=dict(getattr(rules, "bound", {})))
    if result.refused:
        return result
    budget = rules.budget
    State = tuple[Hex, bool, Hashable]  # hex, move ended there, the game's mode
    best: dict[State, int] = {}
    parent: dict[State, State | None] = {}
    reason_stop: dict[State, Reason | None] = {}
    over_budget: dict[Hex, int] = {}
    ends: dict[Hex, tuple[int, State]] = {}
    tie = count()
    queue: list = []

    limit = budget if budget is not None else float("inf")

    def relax(steps: Iterable[Step | Blocked], cost: int, origin: State | None) -> None:
        unreachable, push = result.unreachable, heapq.heappush
        for step in steps:
            if type(step) is Blocked:
                if step.to not in unreachable:
                    unreachable[step.to] = step.reason
                continue
            to, step_cost, stop, no_end, mode = step
            new = cost + step_cost
            if new > limit:
                if new < over_budget.get(to, new + 1):
                    over_budget[to] = new
                continue
            key = (to, stop is not None, mode)
            old = best.get(key)
            if old is None or new < old:
                best[key], parent[key], reason_stop[key] = new, origin, stop
                if no_end is None:
                    end = ends.get(to)
                    if end is None or new < end[0]:
                        ends[to] = (new, key)
                elif to not in unreachable:
                    unreachable[to] = no_end
                push(queue, (new, next(tie), key))

    expanded = getattr(rules, "expanded", None)
    if expanded is not None:
        expanded.clear()
    entries = getattr(rules, "entries", None)
    if entries is not None:
        relax(entries(), 0, None)
    else:
        root = (rules.start, False, None)
        best[root], parent[root] = 0, None
        queue.append((0, next(tie), root))
    while queue:
        cost, _, state = heapq.heappop(queue)
        if cost > best.get(state, cost):
            continue
        here, stopped, mode = state
        if expanded is not None:
            expanded.add(here)
        if stopped:
            _explain_beyond(rules, result, state, cost, reason_stop[state])
            continue
        relax(rules.steps(here, cost, mode), cost, state)
    for h, (cost, key) in ends.items():
        if h != rules.start or entries is not None:
            result.destinations[h] = Destination(h, cost, reason_stop.get(key), key, parent)
    exits = getattr(rules, "exits", None)
    if exits is not None:
        _collect_exits(rules, result, exits, best, parent, reason_stop)
    for h in result.destinations:
        result.unreachable.pop(h, None)
    for h, need in over_budget.items():
        if h not in result.destinations:
            result.unreachable.setdefault(
                h, Reason("MP", f"needs at least {_mp(need)} MP; the stack has {_mp(budget)}"))
    if entries is None:
        result.unreachable.pop(rules.start, None)
    return result


def _collect_exits(rules: MoveRules, result: MoveResult, exits, best: dict, parent: dict, reason_stop: dict) -> None:
    """The cheapest way to each off-map exit: from a hex where the move may end (or the start) that has one."""
    start = (rules.start, False, None)
    reached = [(d.cost, d.hex, d, names) for d in result.destinations.values() if (names := exits(d.hex))]
    if start in best and (names := exits(rules.start)):
        reached.append((0, rules.start, Destination(rules.start, 0, None, start, parent), names))
    for _, _, dest, names in sorted(reached, key=lambda c: (c[0], c[1])):
        for name in names:
            result.exits.setdefault(name, dest)


def _explain_beyond(rules: MoveRules, result: MoveResult, state: tuple, cost: int, stop: Reason) -> None:
    """Why the hexes beyond a hex where the move must end are not reached from it."""
    for step in rules.steps(state[0], cost, state[2]):
        reason = step.reason if isinstance(step, Blocked) else Reason(
            stop.rule, f"the move must end in the hex before it: {stop.message}")
        result.unreachable.setdefault(step.to, reason)


def _mp(half: int | None) -> str:
    if half is None:
        return "unlimited"
    whole, rest = divmod(half, 2)
    return f"{whole}½" if rest and whole else ("½" if rest else str(whole))
