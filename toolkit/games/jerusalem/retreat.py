"""*Jerusalem!* combat results applied (9.4.5): a K eliminates the units attacked; there are no retreats.

Through :mod:`toolkit.game.retreat`, as every game's results: the answer has the same form, with no retreat
search (the game has none).
"""
from __future__ import annotations

from typing import Sequence

from ...game import Position
from ...game.moves import Reason
from ...game.retreat import Order, RetreatAnswer, check_request, retreats
from ...hexgrid import Hex

#: The CRT's results (9.4.5): K kills, anything else leaves the target in place.
RESULTS = {"K": Reason("9.4.5", "a K eliminates the units attacked"),
           "-": Reason("9.4.5", "the attack failed: the units attacked stay (and the attackers are stopped, 9.8.2)")}
NO_RETREATS = Reason("9.4.5", "Jerusalem! has no retreats or advances: the units stay where they are")


def retreat(position: Position, unit_ids: Sequence[str], enemy_hexes: Sequence[Hex], hexes: int | None = None,
            result: str | None = None) -> RetreatAnswer:
    """What the CRT's result (``K`` or ``-``) does to each named unit; a retreat of ``hexes`` is answered with
    9.4.5, no retreats."""
    check_request(result, hexes, list(RESULTS), "the CRT (9.4.5)")
    if result == "K":
        orders = [Order(uid, eliminated=RESULTS["K"]) for uid in unit_ids]
    else:
        orders = [Order(uid, stays=NO_RETREATS if result is None else RESULTS[result]) for uid in unit_ids]
    return retreats(position, None, orders, result)
