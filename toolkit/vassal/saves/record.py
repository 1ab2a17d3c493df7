"""A game played through actions, written as a VASSAL log of the game's module (``.vlog``).

The log starts from the save of the first position; each step is what the engine would log for one action:
a MovePiece for every piece that changed place, a ChangePiece for every piece whose traits changed (flags,
``spent``, its face: only the levels that changed, as the engine merges them), an AddPiece or RemovePiece for a
marker that came or went, the turn tracker's command when the phase changed, and -- for every action but a change
of phase (a move, a combat with its dice and choices) -- a chat line ``*** toolkit action: {json}``
(:data:`ACTION_CHAT`) that the log referee replays and compares with the state the step leaves (docs/vassal.md).
"""
from __future__ import annotations

import io
import json
from collections import Counter as Multiset
from typing import Iterable, Sequence

from ...game import Position
from ...game.actions import Action
from ...game.position import MarkerAt, Unit
from ..design.turns import position_turn_command
from ..engine.pieces import fast_decode, parse_add_piece
from ..engine.seqenc import encode
from ..engine.safezip import open_archive
from .logfile import change_piece_command, chat_command, log_bytes, move_piece_command, remove_piece_command
from .positions import ModuleLayout, position_save
from .replay import _join_levels, _state_levels
from .savefile import deobfuscate, parse_saved_game

#: The chat line that carries an action in a log: this prefix, then the action's JSON.
ACTION_CHAT = "*** toolkit action: "
#: Actions written as their state changes alone: a change of phase that chose nothing (the referee judges the
#: tracker).
PLAIN = ("end_phase",)


def action_chat(action: Action) -> str:
    """The chat line of an action (:data:`ACTION_CHAT`)."""
    return ACTION_CHAT + json.dumps(action.to_json(), separators=(",", ":"), sort_keys=True)


class _Pieces:
    """The pieces of the log's module as the log has left them: unit id -> (piece id, map, x, y, state)."""

    def __init__(self, start: Position):
        vsav, _ = position_save(start)
        with open_archive(io.BytesIO(vsav)) as arc:
            save = parse_saved_game(deobfuscate(arc.read("savedGame")))
        self.vsav = vsav
        self.units = {p.properties["unit"]: [p.id, p.map, p.x, p.y, p.state, len(p.traits) + 1]
                      for p in save.pieces if p.properties.get("unit")}
        unit_ids = {p.id for p in save.pieces if p.properties.get("unit")}
        self.markers = [(m, p) for m, p in zip(start.markers, [p for p in save.pieces if p.id not in unit_ids])]
        ids = [p.id for p in save.pieces] + [st.id for st in save.stacks]
        self.next_id = 1 + max((int(i) for i in ids if i and i.isdigit()), default=1000)
        self.slot = (start.turn, start.phasing_side, start.phase)
        self.shown = start

    def step(self, after: Position) -> list[str]:
        """The commands that take the pieces to ``after``."""
        layout = ModuleLayout.of(after.game)
        cmds: list[str] = []
        for unit in after.units:
            if unit is not self.shown.by_id.get(unit.id):   # a position shares the units an action left alone
                cmds += self._unit(layout, unit)
        self.shown = after
        cmds += self._markers(layout, after.markers)
        slot = (after.turn, after.phasing_side, after.phase)
        if slot != self.slot:
            cmds.append(position_turn_command(after.game.spec, *slot))
            self.slot = slot
        return cmds

    def _unit(self, layout: ModuleLayout, unit: Unit) -> list[str]:
        known = self.units.get(unit.id)
        where = layout.place(unit)
        if known is None or where is None:
            return []
        pid, old_map, old_x, old_y, old_state, levels = known
        new = parse_add_piece(layout.unit_piece(unit, pid, *where))
        cmds = []
        if (old_map, old_x, old_y) != where:
            cmds.append(move_piece_command(pid, where[0], where[1], where[2], None, old_map, old_x, old_y, None,
                                           "toolkit"))
        old_levels = _state_levels(old_state, levels)
        new_levels = _state_levels(new.state, levels)[:-1] + [_with_gpid(old_levels[-1], new.gpid)]
        state = _join_levels(new_levels)
        if state != old_state:
            cmds.append(change_piece_command(pid, state, old_state))
        self.units[unit.id] = [pid, *where, state, levels]
        return cmds

    def _markers(self, layout: ModuleLayout, markers: Sequence[MarkerAt]) -> list[str]:
        """Markers that went are removed, markers that came are added (matched as a multiset)."""
        want = Multiset(_key(m) for m in markers)
        kept, cmds = [], []
        for marker, piece in self.markers:
            if want[_key(marker)] > 0:
                want[_key(marker)] -= 1
                kept.append((marker, piece))
            else:
                cmds.append(remove_piece_command(piece.id))
        for marker in markers:
            if want[_key(marker)] > 0:
                want[_key(marker)] -= 1
                where = layout.place(marker)
                if where is None:
                    continue
                text = layout.marker_piece(marker, str(self.next_id), *where)
                self.next_id += 1
                kept.append((marker, parse_add_piece(text)))
                cmds.append(text)
        self.markers = kept
        return cmds


def _with_gpid(basic: str, gpid: str) -> str:
    """A BasicPiece state (``map;x;y;gpid;...``) with another gpid, its place kept: the place changes by
    MovePiece, the gpid (the piece's type) only where a unit's counter changed."""
    fields = fast_decode(basic, ";")
    if len(fields) > 3 and fields[3] != gpid:
        fields[3] = gpid
        return encode(fields, ";")
    return basic


def _key(marker: MarkerAt) -> tuple:
    """A marker as something a multiset can count (its value may be a list)."""
    return marker.marker, marker.hex, marker.box, marker.turn, repr(marker.value), marker.toward


def log_of_game(start: Position, steps: Iterable[tuple[Action, Position]]) -> bytes:
    """The ``.vlog`` of a game: ``start``'s save, then one step per action with the position it made."""
    pieces = _Pieces(start)
    out = []
    for action, after in steps:
        plain = action.kind in PLAIN and not action.choices    # an end of phase that chose nothing
        chat = [] if plain else [chat_command(action_chat(action))]
        out.append(chat + pieces.step(after))
    return log_bytes(pieces.vsav, out)
