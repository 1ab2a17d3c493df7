"""The turn tracker's state in saves: ``TURN<id>\\t<state>`` for a tracker of nested list levels.

VASSAL's ``TurnTracker`` state is ``currentLevel|<level state>`` (``|``); a
``ListTurnLevel``'s state is ``current;currentSubLevel;first;active...;<sub-level
states>`` (``;``, the active flags comma-joined).  The toolkit's modules have
one tracker, ``TurnTracker0``: the game's turns, then (for games whose phases
repeat in each player turn, ``game.yaml`` ``player_turns``) the player turns,
then the phases, each level the one child of the level above.

>>> cmd = turn_command([["T1", "T2"], ["move", "fight"]], ["T2", "fight"])
>>> cmd
'TURNTurnTracker0\\t0|1;0;0;true,true;1\\\\;0\\\\;0\\\\;true,true'
>>> read_turn([cmd], [["T1", "T2"], ["move", "fight"]])
['T2', 'fight']
"""
from __future__ import annotations

from ...game.schema import GameSpec
from ..engine.pieces import fast_decode, java_int
from ..engine.seqenc import encode

TRACKER_ID = "TurnTracker0"
TURN_PROPERTY = "Turn"  # the turn level's property: ``$Turn$`` is the current turn
PREFIX = "TURN" + TRACKER_ID


def _level_state(levels: list[list[str]], values: list[str]) -> str:
    sub = [_level_state(levels[1:], values[1:])] if len(levels) > 1 else []
    return encode([levels[0].index(values[0]), 0, 0, encode(["true"] * len(levels[0]), ","), *sub], ";")


def turn_command(levels: list[list[str]], values: list[str]) -> str:
    """The command that sets the tracker's nested ``levels`` to ``values`` (one value per level)."""
    return encode([PREFIX, encode([0, _level_state(levels, values)], "|")], "\t")


def read_turn(commands: list[str], levels: list[list[str]]) -> list[str] | None:
    """The value of each level that the last tracker command of ``commands`` sets, or None (no command, or a
    state that does not fit the levels)."""
    for cmd in reversed(commands):
        if not cmd.startswith(PREFIX + "\t"):
            continue
        parts = fast_decode(cmd, "\t")
        top = fast_decode(parts[1], "|") if len(parts) > 1 else []
        state = top[1] if len(top) > 1 else ""
        out = []
        for values in levels:
            fields = fast_decode(state, ";")
            i = java_int(fields[0], -1)
            if not 0 <= i < len(values):
                return None
            out.append(values[i])
            state = fields[4] if len(fields) > 4 else ""
        return out
    return None


def tracker_levels(spec: GameSpec) -> list[tuple[str, list[str]]]:
    """The tracker's levels for a game, outermost first, as (property name, values): turns, player turns
    (side names, in ``player_turns`` order) when the game has them, phases."""
    names = {s.id: s.name for s in spec.sides}
    levels = [(TURN_PROPERTY, list(spec.turns))]
    if spec.player_turns:
        levels.append(("Player", [names[s] for s in spec.player_turns]))
    return levels + [("Phase", list(spec.phases))]


def position_turn_command(spec: GameSpec, turn: str, phasing_side: str, phase: str) -> str:
    """The tracker command for a position's turn, phasing side (if tracked) and phase."""
    names = {s.id: s.name for s in spec.sides}
    values = [turn, *([names[phasing_side]] if spec.player_turns else []), phase]
    return turn_command([v for _, v in tracker_levels(spec)], values)


def read_position_turn(spec: GameSpec, commands: list[str]) -> dict[str, str]:
    """``turn``, ``phase`` and the phasing side from the last tracker command, or {}.

    The phasing side is the player-turn level's where the game has one, else
    the side whose id is a word of the phase's id (No Prisoners' ``west_cp_movement``); for a phase of no side
    (No Prisoners' interphase, 4.2.5) the side of the last phase before it that has one, as the sequence of play
    keeps it (:mod:`toolkit.game.sequence`).
    """
    values = read_turn(commands, [v for _, v in tracker_levels(spec)])
    if values is None:
        return {}
    out = {"turn": values[0], "phase": values[-1]}
    if spec.player_turns:
        out["phasing_side"] = next(s.id for s in spec.sides if s.name == values[1])
    elif values[-1] in spec.phases:   # a phase's own side; a phase of no side's (an interphase) the last one's
        named = [spec.phase_side(p) for p in spec.phases[:spec.phases.index(values[-1]) + 1]]
        side = next((sd for sd in reversed(named) if sd is not None), None)
        if side is not None:
            out["phasing_side"] = side
    return out
