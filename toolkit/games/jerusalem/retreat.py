"""*Jerusalem!* combat results applied (9.4.5): a K eliminates the units attacked; there are no retreats.

Through :mod:`toolkit.game.retreat`, as every game's results: the answer has the same form, with no retreat
search (the game has none).  Besides the units named, a result reaches:

* on a K, a leader left without other units in his hex (12.7, 12.9.4; never when artillery fired alone, 10.3)
  and a transport whose whole load artillery destroyed (10.8.1), as :func:`.resolve.aftermath` says;
* on a K from artillery alone, a leader named among the units is not eliminated (10.3);
* on ``-``, the attackers are ``stopped`` (3.4, 7.7, 9.8.2) and the units attacked ``attacked`` (9.9); but a
  lone leader or convoy attacked by other than artillery alone is eliminated whatever the roll (9.10, 6.7.1).

The attackers are ``attackers`` when given, else every unit of the other side in ``enemy_hexes``.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ...game import Position, Unit
from ...game.moves import Reason
from ...game.retreat import Order, RetreatAnswer, check_request, retreats
from ...hexgrid import Hex
from .combat import LEADERS
from .resolve import aftermath, loads

#: The CRT's results (9.4.5): K kills, anything else leaves the target in place.
RESULTS = {"K": Reason("9.4.5", "a K eliminates the units attacked"),
           "-": Reason("9.4.5", "the attack failed: the units attacked stay (no retreats) and may not be attacked "
                                "again this player turn (9.9)")}
NO_RETREATS = Reason("9.4.5", "Jerusalem! has no retreats or advances: the units stay where they are")
STOPPED = Reason("9.8.2", "failed to eliminate the units it attacked: stopped for the rest of the player turn "
                          "(3.4, 7.7)")
AUTOMATIC = Reason("9.10", "a lone leader or convoy attacked is eliminated automatically (9.10, 6.7.1)")
NO_ARTILLERY_KILL = Reason("10.3", "artillery alone never eliminates a leader")


def _automatic(position: Position, units: list[Unit], artillery_alone: bool) -> bool:
    """9.10, 6.7.1: the units attacked are a leader or the convoy alone in its hex, attacked by other than
    artillery alone (10.3, 10.8.2)."""
    h = units[0].hex
    alone = h is not None and all(u.type in (*LEADERS, "convoy") for u in position.at(h))
    return alone and not artillery_alone and all(u.hex == h for u in units)


def _flagged(position: Position, ids: Sequence[str], flag: str) -> Position:
    by_id = position.by_id
    return position.moved({i: replace(by_id[i], flags=by_id[i].flags | {flag}) for i in ids})


def retreat(position: Position, unit_ids: Sequence[str], enemy_hexes: Sequence[Hex], hexes: int | None = None,
            result: str | None = None, attackers: Sequence[str] = ()) -> RetreatAnswer:
    """What the CRT's result (``K`` or ``-``) does to each named unit and to the units it reaches besides (the
    module doc); a retreat of ``hexes`` is answered with 9.4.5, no retreats."""
    check_request(result, hexes, list(RESULTS), "the CRT (9.4.5)")
    units = [position.by_id[u] for u in unit_ids]
    side = units[0].side if units else None
    firing = [position.by_id[a] for a in attackers] or [u for h in enemy_hexes for u in position.at(h)
                                                        if u.side != side]
    real = [u for u in firing if u.type not in LEADERS]
    artillery_alone = bool(real) and all(u.type == "artillery" for u in real)
    if result is None:
        return retreats(position, None, [Order(u, stays=NO_RETREATS) for u in unit_ids], result)
    if result == "-" and units and _automatic(position, units, artillery_alone):
        result_units = [Order(u, eliminated=AUTOMATIC) for u in unit_ids]
        return retreats(position, None, result_units, result)
    if result == "-":
        after = _flagged(_flagged(position, unit_ids, "attacked"), [u.id for u in firing], "stopped")
        orders = [Order(u, stays=RESULTS["-"]) for u in unit_ids] + [Order(u.id, stays=STOPPED) for u in firing]
        return retreats(after, None, orders, result)
    return retreats(position, None, _k_orders(position, units, artillery_alone), result)


def _k_orders(position: Position, units: list[Unit], artillery_alone: bool) -> list[Order]:
    """A K: the named units eliminated (not a leader under artillery alone, 10.3), then what that brings down."""
    orders = [Order(u.id, stays=NO_ARTILLERY_KILL) if artillery_alone and u.type in LEADERS
              else Order(u.id, eliminated=RESULTS["K"]) for u in units]
    dead = [u for u in units if not (artillery_alone and u.type in LEADERS)]
    for h in sorted({u.hex for u in dead if u.hex is not None}, key=position.game.map.name):
        before = loads(position, h)
        gone = position.moved({u.id: replace(u, hex=None) for u in dead})
        for uid, rule, why in aftermath(gone, h, dead[0].side, artillery_alone, before):
            orders.append(Order(uid, eliminated=Reason(rule, why)))
    return orders
