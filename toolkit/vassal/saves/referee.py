"""The referee of a replayed log for what is not a move: the turn tracker, and each unit's counter, flags and spent.

:func:`toolkit.vassal.saves.replay.check_log` judges the moves; a :class:`Referee` judges every other change the log
makes to a unit or to the turn, and keeps, besides the log's own positions, what the rules say the log got wrong:

* the turn tracker must go to the next phase of the sequence of play, exactly
  :func:`toolkit.game.play.next_phase` of the position before (turn, phase, phasing side); after the game's end no
  phase follows.  Anything else is illegal by the sequence of play's rule (the phase's ``rule`` in ``game.yaml``);
* no rule turns one counter into another (a flip of a two-sided counter is the game's ``back_flag``, a flag, not
  another counter): a unit whose counter changes is illegal;
* ``spent`` (movement points used this phase) never goes down within a phase (only a new phase resets it); it may
  grow in a step where the unit moved, to no less than the cheapest cost of its move from where it began the
  phase plus what it had spent then (a log that does not write ``spent`` is not judged by it: the move is judged
  from the phase start all the same); grown without a move it is not proven;
* a flag the game takes off only at a moment of the sequence of play (``game.yaml`` ``flags_cleared``) and that
  disappears at another time is illegal; a flag the phase change clears and that the log keeps is illegal; the
  flag a phase gives the units that move in it (``moved_flag``) is set by the move; any other flag set or cleared
  with no recorded action is not proven.

What the referee finds illegal does not become the truth: the position it judges later moves with
(:meth:`Referee.effective`) keeps the counter, flags and spent the rules say the unit has (a disrupted unit whose
flag a log cleared still may not move), and the moved flag of a unit whose move the log did not mark.
"""
from __future__ import annotations

from collections import Counter as Multiset
from dataclasses import dataclass, replace
from typing import Any

from ...game import Game, Position
from ...game.position import Unit
from ...game.sequence import PHASES_DONE

SEQUENCE = "sequence of play"   # the rule cited when a game's phase names no rule of its own
COUNTER = "counter"             # no rule number: no rule turns one counter into another


@dataclass
class Ruling:
    """A change other than a move that the referee could not accept: ``illegal`` (with the rule) or not proven."""

    step: int
    what: str
    units: list[str]
    rule: str | None
    reason: str
    illegal: bool = True

    def json(self) -> dict[str, Any]:
        return {"step": self.step, "what": self.what, "units": self.units, "rule": self.rule, "reason": self.reason}


class Referee:
    """Judges the tracker and the units' counters, flags and spent step by step; keeps the rules' version of what
    the log changed illegally (see the module doc)."""

    def __init__(self, game: Game, start: Position):
        self.spec = game.spec
        self.rulings: list[Ruling] = []
        self.replayed = 0   # recorded actions made again, each as the log records it
        self.last: dict[str, Unit] = {u.id: u for u in start.units}   # each unit as the log last showed it
        self.extra: dict[str, dict[str, Any]] = {}   # uid -> what the rules keep: flags (added), spent, counter
        self.in_any_order = bool(game.spec.phases_in_any_order)
        self.done = start.params.get(PHASES_DONE)      # the phases of this player turn played (3.2), as we count

    # -- the position the rules say the log shows
    def effective(self, pos: Position) -> Position:
        """``pos`` with what the referee keeps put back: flags the log cleared illegally (or never set), spent it
        lowered, the counter it swapped; the phases of the player turn played (a log does not say them)."""
        if self.in_any_order and pos.params.get(PHASES_DONE) != self.done:
            params = {k: v for k, v in pos.params.items() if k != PHASES_DONE}
            pos = replace(pos, params={**params, PHASES_DONE: self.done} if self.done else params)
        if not self.extra:
            return pos
        changes = {}
        for uid, ov in self.extra.items():
            u = pos.by_id.get(uid)
            if u is not None:
                changes[uid] = replace(u, flags=u.flags | ov.get("flags", frozenset()),
                                       spent=ov.get("spent", u.spent), counter=ov.get("counter", u.counter))
        return pos.moved(changes) if changes else pos

    def _keep(self, uid: str, **what: Any) -> None:
        ov = self.extra.setdefault(uid, {})
        if "flags" in what:
            ov["flags"] = ov.get("flags", frozenset()) | what.pop("flags")
        for k, v in what.items():
            ov.setdefault(k, v)

    # -- the sequence of play
    def describe(self, pos: Position) -> str:
        """A position's turn, phase and phasing side in words."""
        return f"{pos.turn}, {self.spec.phase_name(pos.phase)} ({pos.phasing_side})"

    def side_tracked(self, phase: str) -> bool:
        """Whether the turn tracker says the phasing side in a phase: it has a player-turn level, or the phase
        is a side's (No Prisoners' Turn Advancement Phase is neither's: the side stays the last one's)."""
        return bool(self.spec.player_turns) or self.spec.phase_side(phase) is not None

    def phase_rule(self, phase: str) -> str:
        """The rule of the sequence of play a phase belongs to (``game.yaml`` phase ``rule``)."""
        info = self.spec.phase_info.get(phase)
        return info.rule if info is not None and info.rule else SEQUENCE

    def phase_change(self, step: int, before: Position,
                     after: Position) -> tuple[Position, Position] | tuple[None, None]:
        """Judge a change of the turn tracker: it must go to one of the places the sequence of play allows after
        the referee's position before (:func:`toolkit.game.sequence.successors`, more than one only where the
        phases come in any order); returns the log's position before and the referee's moved there
        (:func:`toolkit.game.sequence.enter`; None, None after the game's end)."""
        from ...game.sequence import enter, next_phase, slot, successors
        ours = self.effective(before)
        try:
            next_phase(ours)            # the game's own end first (a scenario's last period)
            options = successors(ours)
        except ValueError as err:       # GameOver: no phase follows
            self.rulings.append(Ruling(step, "turn tracker", [], getattr(err, "rule", None)
                                       or self.phase_rule(before.phase),
                                       f"the turn tracker went from {self.describe(before)} to "
                                       f"{self.describe(after)}, but no phase follows: {err}"))
            return None, None
        to = slot(after)
        if not self.side_tracked(after.phase):   # the tracker does not say the side: the sequence of play does
            to = next((o for o in options if (o.turn, o.phase) == (to.turn, to.phase)), to)
        if to not in options:
            follows = " or ".join(self.describe(replace(before, turn=o.turn, phasing_side=o.side, phase=o.phase))
                                  for o in options)
            self.rulings.append(Ruling(step, "turn tracker", [], self.phase_rule(options[0].phase),
                                       f"the turn tracker went from {self.describe(before)} to "
                                       f"{self.describe(after)}; the next phase is {follows}"))
            to = options[0]
        ours = enter(ours, to)
        self.done = ours.params.get(PHASES_DONE)
        return enter(before, to), ours

    # -- the units
    def units(self, step: int, after: Position, moved: dict[str, float | None],
              boundary: Position | None = None) -> None:
        """Judge every unit's counter, flags and spent in ``after`` against the log's last state of it (a unit
        hidden or removed meanwhile included) -- at a change of phase, against ``boundary``, the next phase's
        position ``next_phase`` gives.  ``moved``: the units that moved in the step, each with the least
        ``spent`` its move allows (None when the move was not judged legal)."""
        phase = self.spec.phase_info.get(after.phase)
        moved_flag = getattr(phase, "moved_flag", None) if phase is not None else None
        expected = boundary.by_id if boundary is not None else None
        for a in after.units:
            b = self.last.get(a.id)
            self.last[a.id] = a
            if b is None:
                continue
            e = expected.get(a.id, b) if expected is not None else b
            self._counter(step, a, b)
            self._spent(step, a, e, moved, expected is not None)
            self._flags(step, a, b, e, moved_flag if a.id in moved else None, after.phase, expected is not None)

    def actions(self, step: int, actions: list, before: Position, after: Position) -> None:
        """Judge a step by the actions it records: made one after the other on the referee's position before the
        step (:func:`toolkit.game.actions.apply`, the dice and choices as recorded), they must give the log's
        position after it; an action the rules refuse is illegal by its rule."""
        from ...game.actions import IllegalAction, apply
        pos, rule = self.effective(before), None
        for act in actions:
            try:
                out = apply(pos, act)
            except IllegalAction as err:
                self.rulings.append(Ruling(step, "action", list(act.units), err.rule, f"{act.text()}: {err.reason}"))
                break
            except Exception as err:  # noqa: BLE001 -- a hostile log must not crash the referee
                self.rulings.append(Ruling(step, "action", list(act.units), None, f"{act.text()}: the action could "
                                           f"not be replayed: {type(err).__name__}: {err}", illegal=False))
                break
            pos = out.position
            self.replayed += 1
            rule = rule or next((n.get("rule") for n in out.notes if n.get("rule")), None)
        else:
            diffs = differences(pos, self.effective(after))
            if diffs:
                units = sorted({u for act in actions for u in (*act.units, *act.targets)})
                self.rulings.append(Ruling(step, "action", units, rule, "the log's state is not what the recorded "
                                           f"action{'s give' if len(actions) > 1 else ' gives'}: "
                                           + "; ".join(diffs)))
        self.last.update((u.id, u) for u in after.units)

    def _counter(self, step: int, a: Unit, b: Unit) -> None:
        if a.counter.id != b.counter.id:
            self.rulings.append(Ruling(step, "counter", [a.id], COUNTER,
                                       f"{a.id}'s counter changed from {b.counter.id} to {a.counter.id}: no rule "
                                       f"turns one counter into another"))
            self._keep(a.id, counter=b.counter)

    def _spent(self, step: int, a: Unit, e: Unit, moved: dict[str, float | None], boundary: bool) -> None:
        """``spent``: never down within a phase; up only by a move, to no less than its cost."""
        if a.spent < e.spent:
            self.rulings.append(Ruling(step, "spent", [a.id], "MP",
                                       f"{a.id}'s movement points spent this phase went from {_mp(e.spent)} to "
                                       f"{_mp(a.spent)}: they never go down within a phase (only a new phase "
                                       f"starts afresh)"))
            self._keep(a.id, spent=self.effective_spent(a.id, e.spent))
        elif a.spent > e.spent:
            if a.id not in moved:
                when = "at the change of phase (a new phase starts with none spent)" if boundary else \
                    "with no move or recorded action"
                self.rulings.append(Ruling(step, "spent", [a.id], None, f"{a.id}'s movement points spent went from "
                                           f"{_mp(e.spent)} to {_mp(a.spent)} {when}", illegal=False))
            elif moved[a.id] is not None and a.spent < moved[a.id]:
                self.rulings.append(Ruling(step, "spent", [a.id], "MP",
                                           f"{a.id}'s movement points spent this phase are {_mp(a.spent)} after "
                                           f"its move, less than the {_mp(moved[a.id])} the cheapest way there "
                                           f"costs with what it had spent when the phase began"))
                self._keep(a.id, spent=moved[a.id])

    def effective_spent(self, uid: str, spent: float) -> float:
        """The spent the referee keeps for a unit (its own if it keeps one, else ``spent``)."""
        return self.extra.get(uid, {}).get("spent", spent)

    def _flags(self, step: int, a: Unit, b: Unit, e: Unit, moved_flag: str | None, phase: str,
               boundary: bool) -> None:
        """Flags cleared or set (see the module doc); ``b`` the log's last state of the unit, ``e`` what it should
        be now (``b``, or at a change of phase what ``next_phase`` gives)."""
        cleared_at = getattr(self.spec, "flags_cleared", {}) or {}
        for f in sorted(e.flags - a.flags):
            when = cleared_at.get(f)
            if when is None:
                self.rulings.append(Ruling(step, "flag", [a.id], None, f"{a.id}'s flag {f} was cleared with no "
                                           f"recorded action", illegal=False))
                continue
            where = "at a change of phase that does not clear it" if boundary else "within a phase"
            self.rulings.append(Ruling(step, "flag", [a.id], self.phase_rule(phase),
                                       f"{a.id}'s flag {f} was cleared {where} ({self.spec.phase_name(phase)}); "
                                       f"the game clears it only at {_moment(when)}"))
            self._keep(a.id, flags=frozenset({f}))
        for f in sorted(a.flags - e.flags):
            if f == moved_flag and not boundary:
                continue
            if boundary and f in b.flags:
                self.rulings.append(Ruling(step, "flag", [a.id], self.phase_rule(phase),
                                           f"{a.id} keeps its flag {f} past the change of phase; it comes off at "
                                           f"{_moment(cleared_at.get(f, 'phase_end'))}"))
                continue
            self.rulings.append(Ruling(step, "flag", [a.id], None, f"{a.id}'s flag {f} was set with no recorded "
                                       f"action", illegal=False))
        if moved_flag and moved_flag not in a.flags and not boundary:
            self._keep(a.id, flags=frozenset({moved_flag}))   # the log did not mark the move: the rules do

    def new_phase(self, expected: Position | None, after: Position) -> None:
        """Entering a phase: what the referee keeps is what the next phase's position (``expected``, computed from
        the referee's own position) has and the log's does not -- among what it kept before."""
        if expected is None:
            return
        kept: dict[str, dict[str, Any]] = {}
        for uid, ov in self.extra.items():
            e, a = expected.by_id.get(uid), after.by_id.get(uid)
            if e is None or a is None:
                kept[uid] = ov
                continue
            new: dict[str, Any] = {}
            flags = (e.flags - a.flags) & ov.get("flags", frozenset())
            if flags:
                new["flags"] = flags
            if e.spent > a.spent:
                new["spent"] = e.spent
            if "counter" in ov and e.counter.id != a.counter.id:
                new["counter"] = ov["counter"]
            if new:
                kept[uid] = new
        self.extra = kept


def differences(want: Position, got: Position) -> list[str]:
    """What ``got`` (the log's position) shows otherwise than ``want`` (what the rules give): the turn, each unit's
    place, counter, flags and spent, the markers; in words."""
    name = want.game.map.name
    out = []
    if (want.turn, want.phase, want.phasing_side) != (got.turn, got.phase, got.phasing_side):
        out.append(f"turn {got.turn}, {got.phase} ({got.phasing_side}) instead of {want.turn}, {want.phase} "
                   f"({want.phasing_side})")

    def place(u: Unit) -> str:
        return name(u.hex) if u.hex is not None else (u.box or "off the map")

    for uid in sorted(set(want.by_id) | set(got.by_id)):
        w, g = want.by_id.get(uid), got.by_id.get(uid)
        if w is None or g is None:
            out.append(f"{uid} {'is not in the log' if g is None else 'is in the log but not in the result'}")
            continue
        if (w.hex, w.box) != (g.hex, g.box):
            out.append(f"{uid} in {place(g)} instead of {place(w)}")
        if w.counter.id != g.counter.id:
            out.append(f"{uid} shows counter {g.counter.id} instead of {w.counter.id}")
        if w.flags != g.flags:
            out.append(f"{uid} flags {sorted(g.flags)} instead of {sorted(w.flags)}")
        if abs(w.spent - g.spent) > 1e-9:
            out.append(f"{uid} spent {_mp(g.spent)} instead of {_mp(w.spent)}")
    mw, mg = _markers(want), _markers(got)
    if mw != mg:
        out.append(f"markers {sorted(mg - mw)} instead of {sorted(mw - mg)}")
    return out


def _markers(pos: Position) -> "Multiset":
    """The markers of a position, counted: (marker, where, value)."""
    name = pos.game.map.name
    return Multiset((m.marker, name(m.hex) if m.hex is not None else (m.box or m.turn or ""), repr(m.value))
                    for m in pos.markers)


def _mp(x: float) -> str:
    return f"{x:g}"


def _moment(when: str) -> str:
    """A ``flags_cleared`` moment in words."""
    words = {"phase_end": "the end of a phase", "player_turn_end": "the end of a player turn",
             "turn_end": "the end of a turn"}
    if when in words:
        return words[when]
    return f"the start of the {when.removesuffix('_player_turn_start')} player turn"
