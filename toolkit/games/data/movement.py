"""Legal moves of a ``rules.yaml`` game (``movement`` and ``zoc`` sections), through the one move generator.

A stack moves at the cost of its costliest unit and with the smallest allowance; each step into a hex costs
the hex's terrain plus the hexside features crossed, or the rate of a road or rail followed along the hexside
(which replaces both).  Enemy units bar a hex; an enemy zone of control stops the move, costs extra to leave,
and may bar moving from one such hex to the next, as the ``zoc`` section says.  A unit off the map enters at
one of its entry hexes (``reinforcements``), paying that hex's cost.
"""
from __future__ import annotations

from typing import Hashable, Iterator, Sequence

from ...game import GameSpec, Position, Unit
from ...game.moves import Blocked, MoveResult, Reason, Step, legal_moves
from ...game.rulesdata import RulesData
from ...hexgrid import Hex
from .facts import chosen, enemy_zoc, half_points, holds, matching, movement_class, pick, rules_of, terrain_cost, value

def movement_phases(rules: RulesData, spec: GameSpec, side: str) -> list[str]:
    """The phases units move in (``movement.phases``; every phase when it names none)."""
    return list(rules.movement.phases) or list(spec.phases)


class DataMove:
    """The :class:`~toolkit.game.moves.MoveRules` of a stack in a ``rules.yaml`` game."""

    def __init__(self, position: Position, units: Sequence[Unit], kind: str | None, entry: list[Hex] | None):
        self.position, self.units, self.kind_name = position, list(units), kind
        self.rules = rules_of(position)
        m = self.rules.movement
        self.m, self.kind = m, (m.kinds[kind] if kind else None)
        self.cmap = position.game.map
        self.start = units[0].hex
        self.classes = sorted({movement_class(self.rules, u.type) for u in units})
        self.side = units[0].side
        self.enemy_hexes = {u.hex for u in position.units if u.hex is not None and u.side != self.side}
        self.ezoc = set(enemy_zoc(position, self.side)) if self.rules.zoc else set()
        self.entry = entry
        self.budget = self._budget()
        self._cost: dict[Hex, tuple[int | None, str]] = {}

    def _budget(self) -> int | None:
        """Half MP the stack may spend: the least of its units' (less ``spent``), or None for a kind of movement of
        any length (``allowance: any``)."""
        allowance = self.kind.allowance if self.kind is not None and self.kind.allowance is not None else None
        if allowance == "any":
            return None
        per_unit = []
        for u in self.units:
            mp = (allowance if isinstance(allowance, (int, float)) else
                  value(self.position, u, allowance if isinstance(allowance, str) else self.m.allowance))
            caps = [c.max for c in self.m.caps if allowance is None and (not c.types or u.type in c.types)
                    and holds(self.position, c.when, u.hex)]   # a kind of movement with its own allowance keeps it
            per_unit.append(int(min([mp, *caps]) * 2) - int(u.spent * 2))
        return max(0, min(per_unit))

    def refusal(self) -> Reason | None:
        """Why the stack may not move now (phase, side, place, kind), or None."""
        m, phase, spec = self.m, self.position.phase, self.position.game.spec
        if m.phases and phase not in m.phases:
            names = ", ".join(spec.phase_name(p) for p in m.phases)
            return Reason(m.rule, f"units move only in the movement phases ({names}), not in {spec.phase_name(phase)}")
        allowed = m.phases.get(phase, "all")
        barred = [u.id for u in self.units if allowed != "all" and u.type not in allowed]
        if barred:
            return Reason(m.rule, f"{', '.join(barred)} may not move in {spec.phase_name(phase)} (units of type "
                                  f"{', '.join(allowed)} move in it)")
        phasing = spec.phase_side(phase) or self.position.phasing_side
        if self.side != phasing or any(u.side != self.side for u in self.units):
            return Reason(m.rule, f"only the phasing side ({phasing}) moves in {spec.phase_name(phase)}")
        if len({(u.hex, u.box) for u in self.units}) > 1:
            return Reason(m.rule, "the units are not in one hex: a stack moves from one hex")
        if self.kind is not None and self.kind.phases and phase not in self.kind.phases:
            return Reason(self.kind.rule, f"{self.kind_name} movement is used only in "
                                          f"{', '.join(spec.phase_name(p) for p in self.kind.phases)}")
        if self.budget is not None and self.budget <= 0:
            return Reason(m.rule, "no movement points left")
        return None

    def steps(self, at: Hex, cost_so_far: int, mode: Hashable = None) -> Iterator[Step | Blocked]:
        """The steps out of ``at`` (see the module doc)."""
        for n in at.neighbors():
            if n in self.cmap.hexes:
                yield from self._into(at, n, cost_so_far)

    def _into(self, at: Hex | None, n: Hex, cost_so_far: int) -> Iterator[Step | Blocked]:
        if n in self.enemy_hexes:
            yield Blocked(n, Reason(self.m.enemy_units.rule or self.m.rule, "enemy units hold the hex"))
            return
        cost, why = self.step_cost(at, n)
        if cost is None:
            yield Blocked(n, why)
            return
        zoc, pos = self.rules.zoc, self.position
        stop = None
        if zoc is not None and at is not None and at in self.ezoc:
            leave, to_zoc = pick(zoc.leave, pos, at), pick(zoc.zoc_to_zoc, pos, n)   # none holding: no cost, allowed
            leave_cost = 0 if leave is None else half_points(leave.cost, "")
            if leave_cost is None:
                yield Blocked(n, Reason(leave.rule or zoc.rule, "a unit may not leave an enemy zone of control"))
                return
            if n in self.ezoc and to_zoc is not None and not to_zoc.allowed:
                yield Blocked(n, Reason(to_zoc.rule or zoc.rule,
                                        "no move directly from one enemy zone of control to another"))
                return
            cost += leave_cost
        if n in self.ezoc:
            enter = pick(zoc.enter, pos, n) if zoc is not None else None   # none holding: no effect
            own = self.kind is not None and self.kind.enemy_zoc != "normal"
            effect = self.kind.enemy_zoc if own else enter.effect if enter is not None else "none"
            rule = self.kind.rule if own else (enter.rule if enter is not None else "") or zoc.rule
            if effect == "prohibited":
                yield Blocked(n, Reason(rule, f"{self.kind_name} movement may not enter an enemy zone of control"))
                return
            if effect == "stop":
                stop = Reason(rule, "entering an enemy zone of control ends the move")
        minimum = self.m.minimum_move
        if minimum is not None and at == self.start and cost_so_far == 0 and self.budget is not None \
                and cost > self.budget:
            cost, stop = self.budget, Reason(minimum.rule or self.m.rule,
                                             "the one-hex minimum move: it takes the whole allowance")
        yield Step(n, cost, stop)

    def step_cost(self, at: Hex | None, n: Hex) -> tuple[int | None, Reason | None]:
        """The cost of the step (half MP) or None with the reason it is refused."""
        m, side = self.m, {} if at is None else self.cmap.hexside(at, n)
        along = matching(chosen(m.lines, self.position, n), side)
        if self.kind is None:   # normal movement: the lines no kind of movement keeps to itself
            lines = [rate for _, rate in along if rate.kind is None]
        else:                   # a kind of movement: its own lines, at their rate (1 MP where none is given)
            lines = [next((rate for k, rate in along if rate.target(k) == f), None) for f in self.kind.along
                     if f in side]
        costs = [max(rates) for rate in lines if None not in (rates := [self._line(rate, c) for c in self.classes])]
        if self.kind is not None and not costs:
            return None, Reason(self.kind.rule, f"{self.kind_name} movement goes only along "
                                                f"{', '.join(self.kind.along)}")
        if costs:   # along a road or rail its rate, instead of the terrain and hexsides (a class it bars, P: none)
            return min(costs), None
        total = 0
        for cls in self.classes:
            cost, terrain, rule = self._terrain(n, cls)
            if cost is None:
                return None, Reason(rule or m.rule, f"{terrain} is prohibited to {cls} units")
            extra = 0
            for f, hs in matching(chosen(m.hexsides, self.position, n), side):
                c = half_points(hs.cost, cls)
                if c is None:
                    return None, Reason(hs.rule or m.rule, f"{cls} units may not cross the {hs.label(f)} hexside")
                extra += c
            total = max(total, cost + extra)
        return total, None

    @staticmethod
    def _line(rate, cls: str) -> int | None:
        return 2 if rate is None else half_points(rate.cost, cls)

    def _terrain(self, h: Hex, cls: str) -> tuple[int | None, str, str]:
        key = (h, cls)
        if key not in self._cost:
            self._cost[key] = terrain_cost(self.position, h, cls)
        return self._cost[key]


class DataEntry(DataMove):
    """A stack coming onto the map at its entry hex (``reinforcements``)."""

    def entries(self) -> Iterator[Step | Blocked]:
        """The steps onto the map: into each entry hex, paying its cost."""
        for h in self.entry:
            yield from self._into(None, h, 0)


def moves(position: Position, unit_ids: Sequence[str], pickup: Sequence[str] = (), terrorist: bool = False,
          enter: str | None = None, kind: str | None = None) -> MoveResult:
    """Legal destinations of the named units moving together in the position's phase (``kind``: one of the
    game's kinds of movement; ``enter``: the entry hex of units coming onto the map)."""
    rules = rules_of(position)
    if pickup or terrorist:
        raise ValueError("this game's rules.yaml declares no pick-up or terrorist moves; drop those options")
    units = [position.by_id[u] for u in unit_ids]
    only = [k for k, spec in rules.movement.kinds.items() if spec.only and position.phase in spec.phases]
    if only and kind not in (None, only[0]):
        raise ValueError(f"kind {kind!r}: {position.game.spec.phase_name(position.phase)} allows {only[0]} "
                         f"movement only ({rules.movement.kinds[only[0]].rule or rules.movement.rule})")
    kind = kind or (only[0] if only else None)
    entry = None
    if units[0].hex is None:
        entry = _entry(position, units, enter)
    elif enter is not None:
        raise ValueError(f"--enter {enter}: {units[0].id} is on the map already; only units off the map enter")
    return legal_moves((DataMove if entry is None else DataEntry)(position, units, kind, entry))


def _entry(position: Position, units: list[Unit], enter: str | None) -> list[Hex]:
    """The entry hex of units coming onto the map, checked against where they may be placed."""
    from .reinforcements import placement
    if enter is None:
        raise ValueError(f"{units[0].id} is off the map: give the hex it enters by (--enter HEX; `toolkit place` "
                         "lists where it may come on)")
    h = position.game.map.resolve(enter)
    for u in units:
        p = placement(position, u.id)
        if p.refused is not None:
            raise ValueError(f"{u.id} may not enter now: {p.refused}")
        if h not in p.hexes:
            why = p.blocked.get(h)
            raise ValueError(f"{u.id} may not enter at {enter}: "
                             + (str(why) if why else f"not one of its entry hexes ({p.rule})"))
    return [h]
