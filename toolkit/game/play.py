"""A position after one step of play: a legal move made, a phase entered, a unit placed freely (setting up); the
next phase of the sequence of play is :func:`toolkit.game.sequence.next_phase` (re-exported here).

Nothing here judges a move: :func:`make_move` takes the destination the game's own legal-move search found
(:func:`toolkit.answers.search_moves`) and only moves the pieces there, as the search said they move.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from ..hexgrid import Hex
from .moves import Destination, MoveResult
from .position import Position, Unit
from .sequence import GameOver, next_phase  # noqa: F401  (the sequence of play, re-exported)


def make_move(position: Position, result: MoveResult, dest: Destination, unit_ids: Sequence[str],
              pickup: Sequence[str] = ()) -> Position:
    """``position`` with the move to ``dest`` made: every unit the search says moves (``result.moving``: the named
    units, those bound to move along, the picked-up and carried ones) and whatever they carry go to the hex; the
    units that moved on their own spend the move's cost (``spent``, movement points used this phase) and every moving
    unit gets the phase's ``moved_flag`` when the game has one (*Jerusalem!* 3.2, 7.2); picked-up units ride with
    the first named unit (``carried_by``)."""
    moving = _with_cargo(position, [*(result.moving or unit_ids), *pickup])
    riders = set(pickup) | {u for u in moving if position.by_id[u].carried_by in moving}
    info = position.game.spec.phase_info.get(position.phase)
    marked = frozenset([info.moved_flag]) if info is not None and info.moved_flag else frozenset()
    changes: dict[str, Unit] = {}
    for uid in moving:
        u = position.by_id[uid]
        carrier = unit_ids[0] if uid in pickup else u.carried_by
        spent = u.spent if uid in riders else u.spent + dest.mp
        changes[uid] = replace(u, hex=dest.hex, box=None, carried_by=carrier, spent=spent, flags=u.flags | marked)
    return position.moved(changes)


def _with_cargo(position: Position, ids: Sequence[str]) -> list[str]:
    """``ids`` and every unit they carry, however deep, each once (in that order)."""
    out = list(dict.fromkeys(ids))
    for uid in out:   # grows while it is read: the cargo's cargo is added too
        out.extend(c.id for c in position.carried(position.by_id[uid]) if c.id not in out)
    return out


def enter_phase(position: Position, phase: str) -> Position:
    """``position`` in ``phase`` (one of the game's), its phasing side the phase's side when it names one; no
    movement points are spent yet in the new phase (``spent`` is per phase)."""
    side = position.game.spec.phase_side(phase) or position.phasing_side
    return replace(position, phase=phase, phasing_side=side,
                   units=tuple(replace(u, spent=0.0) if u.spent else u for u in position.units))


def place_unit(position: Position, unit_id: str, hex_: Hex) -> Position:
    """``position`` with one unit put in ``hex_`` by hand, no rule asked (setting up); what it carries goes
    with it."""
    moving = _with_cargo(position, [unit_id])
    return position.moved({uid: replace(position.by_id[uid], hex=hex_, box=None) for uid in moving})
