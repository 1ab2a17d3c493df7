"""The turn tracker's state in saves: ``TURN<id>\\t<state>`` for a tracker of turns with phases nested.

VASSAL's ``TurnTracker`` state is ``currentLevel|<level state>`` (``|``); a
``ListTurnLevel``'s state is ``current;currentSubLevel;first;active...;<sub-level
states>`` (``;``, the active flags comma-joined).  The toolkit's modules have
one tracker, ``TurnTracker0``: turns, with the phases as its one sub-level.

>>> cmd = turn_command(["T1", "T2"], ["move", "fight"], "T2", "fight")
>>> cmd
'TURNTurnTracker0\\t0|1;0;0;true,true;1\\\\;0\\\\;0\\\\;true,true'
>>> read_turn([cmd], ["T1", "T2"], ["move", "fight"])
('T2', 'fight')
"""
from __future__ import annotations

from .pieces import fast_decode, java_int
from .seqenc import encode

TRACKER_ID = "TurnTracker0"
PREFIX = "TURN" + TRACKER_ID


def _level(values: list[str], current: int, sub: list[str]) -> str:
    return encode([current, 0, 0, encode(["true"] * len(values), ","), *sub], ";")


def turn_command(turns: list[str], phases: list[str], turn: str, phase: str) -> str:
    """The command that sets the tracker to ``turn`` and ``phase``."""
    state = encode([0, _level(turns, turns.index(turn), [_level(phases, phases.index(phase), [])])], "|")
    return encode([PREFIX, state], "\t")


def read_turn(commands: list[str], turns: list[str], phases: list[str]) -> tuple[str, str] | None:
    """The turn and phase the last tracker command of ``commands`` sets, or None (no command, or out of range)."""
    for cmd in reversed(commands):
        if not cmd.startswith(PREFIX + "\t"):
            continue
        parts = fast_decode(cmd, "\t")
        levels = fast_decode(parts[1], "|") if len(parts) > 1 else []
        top = fast_decode(levels[1], ";") if len(levels) > 1 else []
        sub = fast_decode(top[4], ";") if len(top) > 4 else []
        t = java_int(top[0], -1) if top else -1
        p = java_int(sub[0], -1) if sub else -1
        if 0 <= t < len(turns) and 0 <= p < len(phases):
            return turns[t], phases[p]
        return None
    return None
