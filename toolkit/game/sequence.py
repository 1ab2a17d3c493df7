"""The sequence of play of every game, from its ``game.yaml``: which phases a turn has, whose they are, where a
player turn and a turn end, which flags come off then, and when the game ends.

``game.yaml`` says it as data (docs/game-files.md, "The sequence of play"):

* ``phases`` in order, each with its ``side`` or ``player_turn`` when it has one, ``turns`` / ``skip_turns``
  (No Prisoners: no Second Combat Phase in summer, 22.4; the Victory Point Check after IV turns only, 4.2.5.1)
  and the ``moved_flag`` a unit that moves in it gets;
* ``player_turns``: the sides whose player turns each hold every phase (*Jerusalem!* 3.1, the Siege 4.1);
* ``phases_in_any_order``: the rule letting a player turn's phases come in any order (*Jerusalem!* 3.2); the
  phases done are the position's parameter ``phases_done`` and those whose ``moved_flag`` a phasing unit bears;
* ``flags_cleared``: when each flag comes off (the end of a phase, a player turn, a turn, or the start of a
  side's player turn);
* ``end``: after which turn (and which side's player turn) the game ends (*Jerusalem!* 3.5).

A game's rules may add ``game_over(position) -> str | None``: whether the game or the scenario ends after the
position's phase, and why (the Siege's Assault Period, 18.1); and ``next_turn(position) -> str | None``: the turn
after the position's last player turn, where it is not simply the next of ``turns`` (the Siege: turn 1 of the next
Assault Period once one ends, 18.1, 19).

:func:`next_phase` is the one way from a phase to the next: the viewer's Next, the playouts, the log referee
and ``toolkit phase`` all use it; :func:`sequence_problems` is what ``toolkit check`` says of a position in a
phase its turn does not have.
"""
from __future__ import annotations

from dataclasses import replace
from fnmatch import fnmatchcase
from typing import NamedTuple

from .position import Position
from .schema import GameSpec
from .violations import Violation, violation

#: The position parameter holding the phases of the current player turn already played (``phases_in_any_order``),
#: joined by commas.
PHASES_DONE = "phases_done"


class GameOver(ValueError):
    """The game has ended after the position's phase: ``reason`` in words, with its ``rule``."""

    def __init__(self, reason: str, rule: str | None = None):
        super().__init__(f"{reason} ({rule})" if rule else reason)
        self.reason, self.rule = reason, rule


class Slot(NamedTuple):
    """A place in the sequence of play: turn, phasing side, phase."""

    turn: str
    side: str
    phase: str


def slot(position: Position) -> Slot:
    """Where a position stands in the sequence of play."""
    return Slot(position.turn, position.phasing_side, position.phase)


def in_turn(spec: GameSpec, phase: str, turn: str) -> bool:
    """Whether turn ``turn`` has the phase (its ``turns`` / ``skip_turns``)."""
    info = spec.phase_info.get(phase)
    if info is None:
        return True
    if info.turns and not any(fnmatchcase(turn, t) for t in info.turns):
        return False
    return not any(fnmatchcase(turn, t) for t in info.skip_turns)


def player_turn(spec: GameSpec, phase: str, side: str) -> str:
    """The player turn a phase belongs to: its ``player_turn``, else the phasing side."""
    info = spec.phase_info.get(phase)
    return info.player_turn if info is not None and info.player_turn else side


def phases_done(position: Position) -> set[str]:
    """The phases of the current player turn already played, the current one included (``phases_in_any_order``
    games: the ``phases_done`` parameter, and each phase whose ``moved_flag`` a phasing unit bears)."""
    spec = position.game.spec
    done = {position.phase, *_done_param(position)}
    flags = {p: i.moved_flag for p, i in spec.phase_info.items() if i.moved_flag}
    for u in position.units:
        if u.side == position.phasing_side:
            done |= {p for p, f in flags.items() if f in u.flags}
    return done


def _done_param(position: Position) -> set[str]:
    """The ``phases_done`` parameter: phase ids joined by commas (a parameter is one word or number)."""
    value = position.params.get(PHASES_DONE)
    return {p for p in value.split(",") if p} if isinstance(value, str) else set()


def successors(position: Position) -> list[Slot]:
    """The places the game may go to after the position's phase, the usual one first (more than one only where
    the phases come in any order); ``GameOver`` when the game ends there."""
    spec = position.game.spec
    if spec.phases_in_any_order:
        rest = [p for p in spec.phases if p not in phases_done(position) and in_turn(spec, p, position.turn)]
        if rest:
            return [Slot(position.turn, position.phasing_side, p) for p in rest]
    else:
        at = spec.phases.index(position.phase)
        for p in spec.phases[at + 1:]:
            if in_turn(spec, p, position.turn):
                return [Slot(position.turn, spec.phase_side(p) or position.phasing_side, p)]
    turn, side = _next_player_turn(position)
    firsts = [p for p in spec.phases if in_turn(spec, p, turn)]
    if not spec.phases_in_any_order:
        firsts = firsts[:1]
    return [Slot(turn, spec.phase_side(p) or side, p) for p in firsts]


def _next_player_turn(position: Position) -> tuple[str, str]:
    """The turn and side of the player turn after the position's; ``GameOver`` after the game's last."""
    spec = position.game.spec
    sides = spec.player_turns
    end = spec.end
    last = end.turn if end is not None and end.turn is not None else spec.turns[-1]
    rule = end.rule if end is not None else None
    if position.phasing_side in sides[:-1]:
        if end is not None and end.side == position.phasing_side and position.turn == last:
            raise GameOver(f"the game ends after the {_side_name(spec, end.side)} player turn of {last}", rule)
        return position.turn, sides[sides.index(position.phasing_side) + 1]
    if position.turn == last or position.turn == spec.turns[-1]:
        raise GameOver(f"the game ends after turn {position.turn}, its last", rule)
    hook = _hook(position, "next_turn")
    turn = hook(position) if hook is not None else spec.turns[spec.turns.index(position.turn) + 1]
    if turn is None:
        raise GameOver(f"the game ends after turn {position.turn}, its last", rule)
    return turn, sides[0] if sides else position.phasing_side


def _side_name(spec: GameSpec, side: str) -> str:
    return next((s.name for s in spec.sides if s.id == side), side)


def game_over(position: Position) -> GameOver | None:
    """Whether the game ends after the position's phase: its own rules' ``game_over`` first (a scenario's end),
    then the sequence of play (:func:`successors`)."""
    ended = _rules_game_over(position)
    if ended is not None:
        return ended
    try:
        successors(position)
    except GameOver as over:
        return over
    return None


def _hook(position: Position, name: str):
    """The game's own ``name`` of the sequence of play (``game_over``, ``next_turn``), or None."""
    from ..games import has_rules, rules_for   # rules know positions, not the other way round
    return getattr(rules_for(position.game), name, None) if has_rules(position.game) else None


def _rules_game_over(position: Position) -> GameOver | None:
    hook = _hook(position, "game_over")
    said = hook(position) if hook is not None else None
    if not said:
        return None
    rule, _, reason = said.partition(": ") if ": " in said[:16] else ("", "", said)
    return GameOver(reason, rule or None)


def next_phase(position: Position, to: Slot | None = None) -> Position:
    """``position`` in the next phase of its game's sequence of play (``to``: one of :func:`successors` chosen
    by the player, where the phases come in any order), with ``spent`` reset and the flags ``flags_cleared`` takes
    off at the boundaries crossed; ``GameOver`` when the game has ended after the position's phase."""
    ended = _rules_game_over(position)
    if ended is not None:
        raise ended
    options = successors(position)
    if to is not None and to not in options:
        spec = position.game.spec
        raise ValueError(f"turn {to.turn}, {spec.phase_name(to.phase)} ({to.side}) does not follow "
                         f"{spec.phase_name(position.phase)}: the next phase is "
                         f"{' or '.join(spec.phase_name(o.phase) for o in options)}")
    return enter(position, to or options[0])


def enter(position: Position, to: Slot) -> Position:
    """``position`` moved to ``to`` in the sequence of play: ``spent`` reset (it is per phase), the flags that come
    off and the parameters dropped at each boundary crossed (``flags_cleared``, ``params_cleared``) taken off, the phases done of a player turn kept (``phases_in_any_order``)."""
    spec = position.game.spec
    old = slot(position)
    another = new_player_turn(position, to)
    moments = {"phase_end"}
    if another:
        moments |= {"player_turn_end", f"{to.side}_player_turn_start"}
    if to.turn != old.turn:
        moments.add("turn_end")
    off = frozenset(f for f, when in spec.flags_cleared.items() if when in moments)
    units = tuple(replace(u, spent=0.0, flags=u.flags - off) if u.spent or u.flags & off else u
                  for u in position.units)
    dropped = {p for p, when in spec.params_cleared.items() if when in moments} | {PHASES_DONE}
    params = {k: v for k, v in position.params.items() if k not in dropped}
    if spec.phases_in_any_order and not another:
        params[PHASES_DONE] = ",".join(sorted((_done_param(position) | {old.phase}) - {to.phase}))
    return replace(position, turn=to.turn, phasing_side=to.side, phase=to.phase, units=units, params=params)


def new_player_turn(before: Position, after: Slot) -> bool:
    """Whether going from ``before``'s phase to ``after`` begins another player turn (No Prisoners' four a turn,
    4.1 B; each side's in *Jerusalem!* and the Siege)."""
    spec = before.game.spec
    return after.turn != before.turn or player_turn(spec, after.phase, after.side) != player_turn(
        spec, before.phase, before.phasing_side)


def sequence_problems(position: Position) -> list[Violation]:
    """A position in a phase its turn does not have, or past the game's end (``toolkit check``)."""
    spec = position.game.spec
    info = spec.phase_info.get(position.phase)
    rule = (info.rule if info is not None else None) or "sequence of play"
    out = []
    if not in_turn(spec, position.phase, position.turn):
        out.append(violation(rule, f"turn {position.turn} has no {spec.phase_name(position.phase)}", position))
    end = spec.end
    if end is not None and end.side is not None and end.side in spec.player_turns \
            and position.phasing_side in spec.player_turns:
        last = end.turn or spec.turns[-1]
        late = spec.turns.index(position.turn) > spec.turns.index(last) or (
            position.turn == last
            and spec.player_turns.index(position.phasing_side) > spec.player_turns.index(end.side))
        if late:
            out.append(violation(end.rule or "game end",
                                 f"the game ended after the {_side_name(spec, end.side)} player turn of {last}: "
                                 f"there is no {_side_name(spec, position.phasing_side)} player turn in "
                                 f"{position.turn}", position))
    return out
