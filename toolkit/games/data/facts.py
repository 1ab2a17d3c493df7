"""What every calculator of a ``rules.yaml`` game reads: a unit's numbers and movement class, costs in half
movement points, enemy zones of control, and the hexes a trace (supply, command) may use."""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Mapping, Sequence, TypeVar, Union

from ...game import Position, Unit
from ...game.rulesdata import Blocks, Costs, FeatureMatch, RulesData, Situation
from ...hexgrid import Hex

M = TypeVar("M", bound=FeatureMatch)
E = TypeVar("E")


def rules_of(position: Position) -> RulesData:
    """The position's ``rules.yaml`` (loaded and checked with its game)."""
    return position.game.rules_data


def value(position: Position, u: Unit, key: str, default: float = 0) -> float:
    """A unit's counter value ``key`` on the face it shows (its back while it carries the game's back flag)."""
    flag = position.game.spec.back_flag
    found = u.counter.value(key, back=flag is not None and u.has(flag), default=default)
    return found if isinstance(found, (int, float)) and not isinstance(found, bool) else default


def holds(position: Position, w: Situation, at: Hex | None = None) -> bool:
    """Whether the position is in the situation ``w`` (its parameters, turn, phase and phasing side), ``at`` being
    the hex the entry looks at (its terrain and features; no hex matches no such test)."""
    params = all(k in position.params and _text(position.params[k]) in _values(v) for k, v in w.params.items())
    return (params and (not w.turns or position.turn in w.turns) and (not w.phase or position.phase in w.phase)
            and (not w.sides or position.phasing_side in w.sides) and (not w.looks_at_hex() or _hex_holds(
                position, w, at)))


def _values(given: str | list[str]) -> list[str]:
    return [given] if isinstance(given, str) else given


def _hex_holds(position: Position, w: Situation, at: Hex | None) -> bool:
    """The tests of ``w`` on a hex: one of its terrains, each feature with one of its values (``[]``: any)."""
    info = position.game.map.hexes.get(at) if at is not None else None
    if info is None:
        return False
    return ((not w.terrain or any(t in w.terrain for t in info.terrain))
            and all(f in info.features and (not v or str(info.features[f]) in _values(v))
                    for f, v in w.features.items()))


def pick(entry: Union[E, Sequence[E]], position: Position, at: Hex | None = None) -> E | None:
    """The variant of an entry that applies now: the entry while its ``when`` holds, or the first of a list of
    variants whose ``when`` holds (None: none does)."""
    for variant in (entry if isinstance(entry, list) else [entry]):
        if holds(position, variant.when, at):
            return variant
    return None


def chosen(entries: Mapping[str, Any], position: Position, at: Hex | None = None) -> dict[str, Any]:
    """The entries of a mapping that apply now, each its variant (:func:`pick`)."""
    return {k: v for k, e in entries.items() if (v := pick(e, position, at)) is not None}


def _text(value) -> str:
    """A position parameter as rules.yaml writes it (``true``, ``mud``, ``3``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def movement_class(rules: RulesData, unit_type: str) -> str:
    """The movement class of a unit type (a type no class lists is a class of its own)."""
    for name, types in rules.movement.classes.items():
        if unit_type in types:
            return name
    return unit_type


def matching(entries: Mapping[str, M], features: Mapping[str, Any]) -> list[tuple[str, M]]:
    """The entries of ``movement.hexsides``, ``movement.lines`` or ``combat.hexsides`` that apply to a hexside
    (or hex) carrying ``features`` (feature -> value, docs/map-format.md): each names its feature by its key or
    ``feature``, and matches any value or only its ``value``; of one feature's entries, those naming the value
    the hexside has win over those naming none.

    >>> from toolkit.game.rulesdata import HexsideCost
    >>> rules = {"river": HexsideCost(cost=2), "minor": HexsideCost(feature="river", value="minor", cost=1)}
    >>> [k for k, _ in matching(rules, {"river": "minor"})], [k for k, _ in matching(rules, {"river": "major"})]
    (['minor'], ['river'])
    """
    found = [(k, e) for k, e in entries.items() if e.target(k) in features
             and (e.value is None or str(features[e.target(k)]) == e.value)]
    valued = {e.target(k) for k, e in found if e.value is not None}
    return [(k, e) for k, e in found if e.value is not None or e.target(k) not in valued]


def half_points(costs: Costs, cls: str) -> int | None:
    """A cost for one movement class in half movement points; None when prohibited (``P``)."""
    cost = costs.get(cls) if isinstance(costs, dict) else costs
    return None if cost == "P" else int(cost * 2)


def terrain_cost(position: Position, h: Hex, cls: str) -> tuple[int | None, str, str]:
    """The cost of entering hex ``h`` by its terrain for a class (half MP; None: prohibited), the terrain that
    decides it (the prohibited one, else the highest, or all of them summed) and its rule (a variant's own, else
    ``movement.terrain``'s)."""
    table = rules_of(position).movement.terrain
    costs = []
    for t in position.game.map.hexes[h].terrain:
        entry = table.costs[t]
        variant = pick(entry, position, h) if isinstance(entry, list) else None   # the last has no `when`
        costs.append((half_points(entry if variant is None else variant.cost, cls), t,
                      (variant.rule if variant is not None else "") or table.rule))
    barred = [(t, r) for c, t, r in costs if c is None]
    if barred:
        return None, *barred[0]
    if table.several == "sum":
        return sum(c for c, _, _ in costs), "+".join(t for _, t, _ in costs), table.rule
    return max(costs, key=lambda c: c[:2])


def enemies_of(position: Position, side: str) -> list[Unit]:
    """The units on the map of every other side."""
    return [u for u in position.units if u.hex is not None and u.side != side]


def zoc_of(position: Position, side: str) -> dict[Hex, list[str]]:
    """Each hex in the zone of control of ``side``'s units (``zoc`` section), with the units exerting it."""
    rules, cmap = rules_of(position), position.game.map
    found: dict[Hex, list[str]] = defaultdict(list)
    if rules.zoc is None:
        return found
    z = rules.zoc
    for u in position.units:
        if u.hex is None or u.side != side or u.carried_by is not None or (z.exerted_by and u.type not in z.exerted_by):
            continue
        if not holds(position, z.when, u.hex):   # exerted only while the section's condition holds
            continue
        for n in u.hex.neighbors():
            info = cmap.hexes.get(n)
            if info is None or any(t in z.not_into for t in info.terrain):
                continue
            if any(f in z.not_across for f in cmap.hexside(u.hex, n)):
                continue
            found[n].append(u.id)
    return found


def enemy_zoc(position: Position, side: str) -> dict[Hex, list[str]]:
    """The zones of control of every side but ``side``."""
    out: dict[Hex, list[str]] = defaultdict(list)
    for other in position.game.spec.sides:
        if other.id != side:
            for h, units in zoc_of(position, other.id).items():
                out[h].extend(units)
    return out


class TraceBlocks:
    """Why a trace of ``side`` (``purpose``: supply, command or reinforcements) may not use a hex or hexside
    (``blocked_by``, or the first of its variants whose ``when`` holds at the hex entered)."""

    def __init__(self, position: Position, side: str, blocks: Blocks | list[Blocks], purpose: str):
        self.position, self.blocks = position, blocks
        self.enemy_units = {u.hex for u in enemies_of(position, side)}
        self.zoc = set(enemy_zoc(position, side))
        zoc = rules_of(position).zoc
        if zoc is not None and purpose in zoc.negated_by_friends:   # friendly units negate enemy zones here
            self.zoc -= {u.hex for u in position.units if u.hex is not None and u.side == side}

    def hex(self, h: Hex) -> str | None:
        """Why hex ``h`` blocks the trace, or None."""
        b = pick(self.blocks, self.position, h)
        if b is None:
            return None
        if b.enemy_units and h in self.enemy_units:
            return "enemy units hold it"
        if b.enemy_zoc and h in self.zoc:
            return "an enemy zone of control with no friendly unit in it"
        barred = [t for t in self.position.game.map.hexes[h].terrain if t in b.terrain]
        return f"{barred[0]} terrain" if barred else None

    def side(self, a: Hex, b: Hex) -> str | None:
        """Why the hexside between ``a`` and ``b`` (``b`` the hex entered) blocks the trace, or None."""
        blocks = pick(self.blocks, self.position, b)
        barred = [f for f in self.position.game.map.hexside(a, b) if blocks is not None and f in blocks.hexsides]
        return f"the {barred[0]} hexside" if barred else None
