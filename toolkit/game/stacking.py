"""Stacking limits a game declares in ``game.yaml`` (``stacking``), for games without a rules assistant.

A hex may hold at most ``limit`` units of one side (or stacking points: each unit's ``points`` counter value),
or the lowest ``terrain`` limit among the hex's terrains; units of the ``free_types`` and carried units do not
count.  Units in boxes are off the map and never count.

>>> from toolkit.game.schema import Stacking
>>> Stacking(limit=3, terrain={"town": 4}).terrain["town"]
4
"""
from __future__ import annotations

from typing import Any

from ..hexgrid import Hex
from .module import GameDataError
from .position import Position
from .violations import Violation, violation


def limit_at(position: Position, h: Hex) -> int:
    """The most units of one side hex ``h`` may hold (the lowest limit of its terrains, else the game's)."""
    stacking = position.game.spec.stacking
    terrain = position.game.map.hexes[h].terrain
    own = [stacking.terrain[t] for t in terrain if t in stacking.terrain]
    return min(own) if own else stacking.limit


def stacking_points(position: Position, u) -> float:
    """What a unit counts for stacking: its ``stacking.points`` counter value (a missing value counts 1), else 1."""
    key = position.game.spec.stacking.points
    value = 1 if key is None else u.counter.value(key, default=1)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 1


def _check_terrain(position: Position) -> None:
    known = position.game.map.terrain_types
    unknown = sorted(set(position.game.spec.stacking.terrain) - set(known))
    if unknown:
        raise GameDataError(str(position.game.folder / "game.yaml"), f"stacking.terrain.{unknown[0]}",
                            f"is not a terrain of the map; give one of: {', '.join(known)}")


def check(position: Position, turn_end: bool | None = None, **_ignored: Any) -> list[Violation]:
    """Every hex holding more units of one side than ``game.yaml`` ``stacking`` allows there."""
    _check_terrain(position)
    free = set(position.game.spec.stacking.free_types)
    points = position.game.spec.stacking.points
    name, out = position.game.map.name, []
    for h in sorted(position.occupied(), key=name):
        counting = [u for u in position.at(h) if u.type not in free and u.carried_by is None]
        for side in sorted({u.side for u in counting}):
            mine = [u for u in counting if u.side == side]
            most, held = limit_at(position, h), sum(stacking_points(position, u) for u in mine)
            if held > most:
                what = f"{held:g} stacking points of {side} units" if points else f"{held} {side} units"
                out.append(violation("game.yaml stacking", f"{what} in {name(h)}, over its limit of {most}",
                                     position, [h], mine))
    return out
