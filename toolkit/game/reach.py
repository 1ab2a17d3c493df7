"""The enemy-reach layer: every hex some unit of a side can reach or attack next turn, and how many units can.

Built on the one legal-move generator only (:mod:`toolkit.game.moves`, through the game's own ``moves``): each
unit of the side is searched *alone*, from its hex, in each movement phase the game gives that side (the
position is taken as it stands -- units' flags and spent movement points included -- with the side made the
phasing side and the phase set to that movement phase).  A unit reaches:

* its own hex (it may stay where it is) and every destination of those searches; a search the rules refuse
  (e.g. a unit that may not move in that phase) adds nothing;
* by attack, every on-map hex adjacent to a hex it reaches: the three bundled games attack adjacent hexes
  (*Jerusalem!* 9.1, *No Prisoners* 11.5 B, *The Siege of Jerusalem* melee 11.1, 11.11).  This is a threat
  map, not a combat check: the attacker's own eligibility (a Garrison never attacks, 9.4.1; Fresh units only,
  Siege 11.1) and hexside restrictions are not applied, and fire at range (*Jerusalem!* artillery 10.x, Siege
  missile fire 9.x) is not included.

Units off the map (reinforcements, boxes) are not searched: where they come on is the player's choice
(``toolkit moves --enter``, ``toolkit place``).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from ..hexgrid import Hex
from .moves import MoveResult
from .position import Position

MovesFn = Callable[[Position, list[str]], MoveResult]


def reach(position: Position, side: str, moves: MovesFn, phases: Sequence[str]) -> dict[Hex, tuple[str, ...]]:
    """Each hex some unit of ``side`` can reach or attack next turn, with the ids of those units (position
    order); ``moves`` is the game's legal-move search, ``phases`` the movement phases the side moves in."""
    on_map = position.game.map.hexes
    in_phase = [replace(position, phase=p, phasing_side=side) for p in phases]
    units: dict[Hex, list[str]] = {}
    for unit in position.units:
        if unit.side != side or unit.hex is None:
            continue
        reached = {unit.hex}
        for moving in in_phase:
            reached.update(moves(moving, [unit.id]).destinations)
        attacked = {n for h in reached for n in h.neighbors() if n in on_map}
        for h in reached | attacked:
            units.setdefault(h, []).append(unit.id)
    return {h: tuple(ids) for h, ids in units.items()}
