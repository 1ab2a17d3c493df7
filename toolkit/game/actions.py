"""A game as a sequence of actions: each one judged by the game's rules and applied to the position.

An :class:`Action` is what a player does: ``move`` units to a hex, ``place`` a reinforcement (where the game's
``placement`` allows it now), ``combat`` (attackers against defenders, with the dice and the choices the result
gives), or ``end_phase`` (on to the next phase of the sequence of play,
:mod:`toolkit.game.sequence`).  :func:`apply` is the one place where an action becomes a new position; the
viewer's steps, the random playouts (``scripts/playout.py``) and the log referee all go through it, so they agree.

An action is plain data (:meth:`Action.to_json` / :meth:`Action.from_json`): a combat carries the rolls and the
choices it used, so applying the same action to the same position always gives the same position (a log is
replayed exactly).  An action the rules refuse raises :class:`IllegalAction` with the rule.

>>> Action.from_json({"kind": "move", "units": ["j-plm-1"], "to": "3820"}).text()
'move j-plm-1 to 3820'
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from .play import make_move, place_unit
from .position import Position
from .sequence import Slot, next_phase, successors

#: The kinds of action.
KINDS = ("move", "place", "combat", "end_phase")
#: The options of a move a game's ``moves`` takes (a kind of movement, a terrorist attack, an entry hex).
MOVE_OPTIONS = ("kind", "terrorist", "enter", "pickup")
#: At most this many rolls or choices in one action (a hostile log cannot make a combat roll for ever).
MAX_DRAWS = 1000


class IllegalAction(ValueError):
    """An action the game's rules refuse: ``reason`` in words, by ``rule``."""

    def __init__(self, rule: str | None, reason: str):
        super().__init__(f"{reason} ({rule})" if rule else reason)
        self.rule, self.reason = rule, reason


class ChoiceNeeded(IllegalAction):
    """An action that needs a player's choice it was not given: ``what`` is asked, ``options`` (shown as text) are
    the answers by their number, after the ``given`` choices."""

    def __init__(self, what: str, options: Sequence[Any], given: Sequence[int]):
        listed = ", ".join(f"{i}={o}" for i, o in enumerate(options[:20]))
        super().__init__(None, f"{what}: it needs more choices than the {len(given)} given (choice {len(given) + 1}, "
                               f"by its number: {listed})")
        self.what, self.options, self.given = what, [str(o) for o in options], list(given)

    def __reduce__(self):
        return ChoiceNeeded, (self.what, self.options, self.given)


@dataclass(frozen=True)
class Action:
    """One action of a player (see the module doc); ``how`` holds a move's options (``MOVE_OPTIONS``) or a
    combat's ``kind``."""

    kind: str
    units: tuple[str, ...] = ()
    to: str | None = None
    targets: tuple[str, ...] = ()
    how: dict[str, Any] = field(default_factory=dict, hash=False)
    rolls: tuple[int, ...] = ()
    choices: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The action as JSON (empty fields left out)."""
        out: dict[str, Any] = {"kind": self.kind}
        for key in ("units", "to", "targets", "how", "rolls", "choices"):
            value = getattr(self, key)
            if value:
                out[key] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, data: Any) -> "Action":
        """An action from its JSON form; ``ValueError`` saying what is wrong (the data may come from a stranger's
        log)."""
        if not isinstance(data, dict) or data.get("kind") not in KINDS:
            raise ValueError(f"an action is a mapping whose kind is one of {', '.join(KINDS)}")
        unknown = set(data) - {"kind", "units", "to", "targets", "how", "rolls", "choices"}
        if unknown:
            raise ValueError(f"an action has no {', '.join(sorted(unknown))}")
        words = {k: data.get(k) or [] for k in ("units", "targets")}
        numbers = {k: data.get(k) or [] for k in ("rolls", "choices")}
        how = data.get("how") or {}
        if not all(isinstance(v, list) and all(isinstance(x, str) for x in v) for v in words.values()) \
                or not all(isinstance(v, list) and len(v) <= MAX_DRAWS
                           and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
                           for v in numbers.values()) \
                or not isinstance(how, dict) or not isinstance(data.get("to"), (str, type(None))):
            raise ValueError("an action's units and targets are lists of ids, its rolls and choices lists of at "
                             f"most {MAX_DRAWS} whole numbers, its to a hex or phase name, its how a mapping")
        return cls(data["kind"], tuple(words["units"]), data.get("to"), tuple(words["targets"]), dict(how),
                   tuple(numbers["rolls"]), tuple(numbers["choices"]))

    def text(self) -> str:
        """The action in words."""
        if self.kind == "move":
            options = "".join(f" {k}={v}" for k, v in sorted(self.how.items()))
            return f"move {'+'.join(self.units)} to {self.to}{options}"
        if self.kind == "place":
            return f"place {'+'.join(self.units)} in {self.to}"
        if self.kind == "combat":
            kind = f" ({self.how['kind']})" if self.how.get("kind") else ""
            rolls = f", rolls {' '.join(map(str, self.rolls))}" if self.rolls else ""
            return f"combat{kind}: {'+'.join(self.units)} against {'+'.join(self.targets)}{rolls}"
        return "end of phase" + (f", on to {self.to}" if self.to else "")


@dataclass
class Outcome:
    """What :func:`apply` gives: the position after the action, the action as made (its rolls and choices
    filled in) and notes on what happened, each ``{"rule", "text"}``."""

    position: Position
    action: Action
    notes: list[dict[str, Any]]


def apply(position: Position, action: Action, rng: random.Random | None = None) -> Outcome:
    """The action made in the position (see the module doc).  A combat's dice and choices come from the action
    when it has them (a replay), else from ``rng`` (a new combat); :class:`IllegalAction` when the rules refuse
    it, naming the rule."""
    if action.kind == "move":
        return _move(position, action)
    if action.kind == "place":
        return _place(position, action)
    if action.kind == "combat":
        return _combat(position, action, rng)
    return _end_phase(position, action, rng)


def _rules(position: Position):
    from ..games import rules_for   # rules know positions and actions, not the other way round
    return rules_for(position.game)


def _move(position: Position, action: Action) -> Outcome:
    cmap = position.game.map
    if not action.units or action.to is None:
        raise IllegalAction(None, "a move names its units and its hex")
    unknown = set(action.how) - set(MOVE_OPTIONS)
    if unknown:
        raise IllegalAction(None, f"a move has no option {', '.join(sorted(unknown))}")
    to = cmap.resolve(action.to)
    from ..games import search_moves   # rules know positions and actions, not the other way round
    how = action.how
    pickup = list(how.get("pickup", ()))
    try:
        result = search_moves(position, "the move", action.units, pickup, bool(how.get("terrorist")),
                              how.get("enter"), how.get("kind"))
    except ValueError as err:
        raise IllegalAction(None, str(err)) from None
    dest = result.destinations.get(to)
    if dest is None:
        why = result.why_not(to)
        raise IllegalAction(why.rule, f"{'+'.join(action.units)} may not move to {cmap.name(to)}: {why.message}")
    after = make_move(position, result, dest, action.units, pickup)
    marks = getattr(_rules(position), "after_move", None)   # what a move leaves for later moves (No Prisoners 8.1 C)
    if marks is not None:
        after = marks(position, after, list(action.units), how.get("kind") or "normal", dest)
    start = position.by_id[action.units[0]]
    origin = cmap.name(start.hex) if start.hex is not None else (start.box or "off the map")
    note = {"rule": dest.stop.rule if dest.stop else None,
            "text": f"{'+'.join(action.units)} {origin} → {cmap.name(to)} ({dest.mp:g} MP)",
            "cost": dest.mp, "path": [cmap.name(h) for h in dest.path]}
    return Outcome(after, action, [note])


def _place(position: Position, action: Action) -> Outcome:
    """A reinforcement (or a replacement) placed where the game's ``placement`` says it may be now (No Prisoners 6.x,
    18.4), with what the game's ``after_place`` leaves on it."""
    placement = getattr(_rules(position), "placement", None)
    if placement is None:
        raise IllegalAction(None, f"{position.game.spec.id} places no reinforcements by rule (its units enter by "
                                  "moving: a move with its entry hex)")
    if len(action.units) != 1 or action.to is None or action.units[0] not in position.by_id:
        raise IllegalAction(None, "a placement names one unit of the position and its hex")
    uid, cmap = action.units[0], position.game.map
    found = placement(position, uid)
    if found.refused is not None:
        raise IllegalAction(found.refused.rule, f"{uid} may not be placed now: {found.refused.message}")
    to = cmap.resolve(action.to)
    if to not in found.hexes:
        why = found.blocked.get(to)
        raise IllegalAction(why.rule if why else found.rule, f"{uid} may not be placed in {cmap.name(to)}"
                            + (f": {why.message}" if why else ": not among the hexes it may be placed in"))
    after = place_unit(position, uid, to)
    marks = getattr(_rules(position), "after_place", None)   # what a placement leaves (a replacement's flag, face)
    return Outcome(after if marks is None else marks(position, after, uid), action,
                   [{"rule": found.rule, "text": f"{uid} placed in {cmap.name(to)}"}])


def _combat(position: Position, action: Action, rng: random.Random | None) -> Outcome:
    resolve = getattr(_rules(position), "resolve", None)
    if resolve is None:
        raise IllegalAction(None, f"the toolkit cannot resolve a combat of {position.game.spec.id} as one action yet")
    draws = _Draws(action, rng)
    try:
        after, notes = resolve(position, list(action.units), list(action.targets), kind=action.how.get("kind"),
                               roll=draws.roll, choose=draws.choose)
    except IllegalAction:
        raise
    except (ValueError, KeyError) as err:
        rule = getattr(err, "rule", None)
        raise IllegalAction(rule, str(getattr(err, "message", None) or err)) from None
    return Outcome(after, replace(action, rolls=tuple(draws.rolls), choices=tuple(draws.choices)), list(notes))


class _Draws:
    """The dice and choices of one combat: replayed from the action's when it has them, else drawn from the
    random generator and recorded."""

    def __init__(self, action: Action, rng: random.Random | None):
        self.given_rolls, self.given_choices = list(action.rolls), list(action.choices)
        self.replay = bool(action.rolls or action.choices) or rng is None
        self.rng = rng
        self.rolls: list[int] = []
        self.choices: list[int] = []

    def roll(self, sides: int) -> int:
        """One die of ``sides`` sides."""
        if self.replay:
            if len(self.rolls) >= len(self.given_rolls):
                raise IllegalAction(None, f"the combat needs more rolls than the {len(self.given_rolls)} given "
                                          f"(roll {len(self.rolls) + 1}: a die of {sides} sides)")
            value = self.given_rolls[len(self.rolls)]
            if not 1 <= value <= sides:
                raise IllegalAction(None, f"a roll of {value} on a die of {sides} sides")
        else:
            value = self.rng.randint(1, sides)
        self.rolls.append(value)
        return value

    def choose(self, what: str, options: Sequence[Any]) -> Any:
        """One of ``options`` for the choice ``what``."""
        if not options:
            raise IllegalAction(None, f"{what}: nothing to choose from")
        if self.replay:
            if len(self.choices) >= len(self.given_choices):
                raise ChoiceNeeded(what, options, self.choices)
            index = self.given_choices[len(self.choices)]
            if not 0 <= index < len(options):
                raise IllegalAction(None, f"{what}: choice {index} of {len(options)} options")
        else:
            index = self.rng.randrange(len(options))
        self.choices.append(index)
        return options[index]


def _end_phase(position: Position, action: Action, rng: random.Random | None) -> Outcome:
    to = None if action.to is None else Slot(position.turn, position.phasing_side, action.to)
    try:
        after = next_phase(position, to) if to is None else _chosen(position, action.to)
    except ValueError as err:
        raise IllegalAction(getattr(err, "rule", None) or _phase_rule(position), str(err)) from None
    spec = position.game.spec
    notes = [{"rule": _phase_rule(after), "text": f"turn {after.turn}: {spec.phase_name(after.phase)} "
                                                  f"({after.phasing_side})"}]
    tidy = getattr(_rules(position), "phase_end", None)
    if tidy is None:
        return Outcome(after, action, notes)
    draws = _Draws(action, rng)
    after, done = tidy(after, choose=draws.choose)
    return Outcome(after, replace(action, choices=tuple(draws.choices)), [*done, *notes])


def _chosen(position: Position, phase: str) -> Position:
    """The next phase where the player chooses it (``phases_in_any_order``): one of the successors named."""
    for option in successors(position):
        if option.phase == phase:
            return next_phase(position, option)
    return next_phase(position, Slot(position.turn, position.phasing_side, phase))   # refused, saying why


def _phase_rule(position: Position) -> str | None:
    info = position.game.spec.phase_info.get(position.phase)
    return info.rule if info is not None else None
