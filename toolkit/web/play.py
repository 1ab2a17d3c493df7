"""Steps of play on the page, as text a link can carry, and the position after each (``/api/play``).

A step is one of::

    move:UNIT[+UNIT...]>HEX[;pickup=UNIT+UNIT...][;kind=K][;terrorist][;enter=HEX]
    phase:PHASE
    turn:next[;choices=I+J...]
    place:UNIT>HEX

``move`` is made only when the game's legal-move search (the one ``toolkit moves`` and ``/api/moves`` use) lists
``HEX`` as a destination; it is refused otherwise with the search's reason and rule.  ``phase`` enters one of the
game's phases; ``turn:next`` the next phase of the game's sequence of play (:mod:`toolkit.game.sequence`: its player turns,
the phases a turn has, its end), as the action ``end_phase`` (:mod:`toolkit.game.actions`); where the phase's end asks
the player to choose (No Prisoners' overstacked units, 9.2 C) it carries the choices by their number, and without them
it is refused with the question and its options (:class:`ChoiceAsked`).  ``place`` is free placement for setting up: no rule is asked, and its log entry says so.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ..answers import require_units
from ..game import Position
from ..game.actions import Action, ChoiceNeeded, IllegalAction, apply
from ..game.play import enter_phase, place_unit
from .queries import BadQuery

MAX_STEPS = 500   # steps from a source's first position (a permalink's length stays reasonable)
STEP_FORMS = ("move:UNIT[+UNIT...]>HEX[;pickup=UNIT+...][;kind=K][;terrorist][;enter=HEX], phase:PHASE, "
              "turn:next[;choices=I+J...] or place:UNIT>HEX")


class ChoiceAsked(BadQuery):
    """A ``turn:next`` whose phase end needs a player's choice: the answer's ``choice`` says what is asked, the
    ``options`` by their number, the choices ``given`` before it and the ``step`` to send again with one more."""

    def __init__(self, step: "Step", err: ChoiceNeeded):
        super().__init__(f"step {step.text()!r}: {err}")
        self.extra = {"choice": {"what": err.what, "options": err.options, "given": err.given,
                                 "step": step.text()}}


@dataclass(frozen=True)
class Step:
    """One step: ``what`` is ``move``, ``phase``, ``turn`` or ``place``."""

    what: str
    units: tuple[str, ...] = ()
    to: str = ""
    phase: str = ""
    pickup: tuple[str, ...] = ()
    kind: str | None = None
    terrorist: bool = False
    enter: str | None = None
    choices: tuple[int, ...] = ()

    def text(self) -> str:
        """The step as a link carries it (:func:`parse_step` reads it back)."""
        if self.what == "phase":
            return f"phase:{self.phase}"
        if self.what == "turn":
            return "turn:next" + (f";choices={'+'.join(map(str, self.choices))}" if self.choices else "")
        options = [f"pickup={'+'.join(self.pickup)}" if self.pickup else "", f"kind={self.kind}" if self.kind else "",
                   "terrorist" if self.terrorist else "", f"enter={self.enter}" if self.enter else ""]
        return ";".join([f"{self.what}:{'+'.join(self.units)}>{self.to}", *filter(None, options)])


def parse_step(text: str) -> Step:
    """A step's text read; :class:`BadQuery` names what is wrong and the forms."""
    what, sep, rest = text.partition(":")
    if not sep or what not in ("move", "phase", "turn", "place"):
        raise _bad(text, "it starts with none of move:, phase:, turn:, place:")
    if what == "phase":
        return Step("phase", phase=rest)
    if what == "turn":
        head, _, choices = rest.partition(";choices=")
        if head != "next" or (choices and not all(c.isdigit() and len(c) < 5 for c in choices.split("+"))):
            raise _bad(text, "the turn step is turn:next, with the phase end's choices by number: "
                             "turn:next;choices=0+2")
        return Step("turn", choices=tuple(int(c) for c in choices.split("+")) if choices else ())
    head, *options = rest.split(";")
    units, arrow, to = head.partition(">")
    ids = tuple(u for u in units.split("+") if u)
    if not arrow or not ids or not to:
        raise _bad(text, "give the unit (or units joined by +), then > and the hex")
    if what == "place" and (len(ids) > 1 or options):
        raise _bad(text, "place takes one unit and no options")
    extra: dict[str, Any] = {}
    for option in options:
        key, _, value = option.partition("=")
        if key == "terrorist" and not value:
            extra["terrorist"] = True
        elif key in ("pickup", "kind", "enter") and value:
            extra[key] = tuple(value.split("+")) if key == "pickup" else value
        else:
            raise _bad(text, f"option {option[:40]!r} is none of pickup=UNIT+..., kind=K, terrorist, enter=HEX")
    return Step(what, ids, to, **extra)


def _bad(text: str, why: str) -> BadQuery:
    return BadQuery(f"step {text[:80]!r}: {why}; give {STEP_FORMS} (docs/web.md)")


def apply_step(position: Position, step: Step) -> tuple[Position, dict[str, Any]]:
    """The position after ``step`` and its log entry ``{"step", "kind", "text", ...}`` (a move's ``units``,
    ``from``, ``to``, ``cost`` in MP and ``path``); a move the game's rules refuse raises ``ValueError`` with the
    reason and the rule."""
    if step.what == "phase":
        return _phase(position, step)
    if step.what == "turn":
        try:
            outcome = apply(position, Action("end_phase", choices=step.choices))
        except ChoiceNeeded as err:   # the phase's end asks the player (No Prisoners 9.2 C)
            raise ChoiceAsked(step, err) from None
        except IllegalAction as err:   # the game is over (GameOver) or the next phase refused
            raise BadQuery(f"step {step.text()!r}: {err}") from None
        after, entry = _entered(step, outcome.position)
        done = outcome.notes[:-1]   # what the phase's end did (9.2 C), before the note of the phase entered
        if done:
            entry["text"] += "; " + "; ".join(f"{n['text']} ({n['rule']})" for n in done)
        return after, entry
    name, cmap = position.game.map.name, position.game.map
    to = cmap.resolve(step.to)
    if step.what == "place":
        require_units(position, f"step {step.text()[:80]!r}", step.units)
        unit = position.by_id[step.units[0]]
        after = place_unit(position, unit.id, to)
        return after, {"step": step.text(), "kind": "place", "units": [unit.id], "from": _where(position, unit),
                       "to": name(to), "text": f"{unit.id} placed in {name(to)} (free placement: no rule checked)"}
    return _move(position, step, to)


def _phase(position: Position, step: Step) -> tuple[Position, dict[str, Any]]:
    spec = position.game.spec
    if step.phase not in spec.phases:
        raise BadQuery(f"step {step.text()[:80]!r}: {step.phase[:60]!r} is not a phase of {spec.id}; give one of: "
                       f"{', '.join(spec.phases)}")
    return _entered(step, enter_phase(position, step.phase))


def _entered(step: Step, after: Position) -> tuple[Position, dict[str, Any]]:
    """A phase entered (``phase:`` or ``turn:next``) and its log entry, which names the turn too."""
    spec = after.game.spec
    return after, {"step": step.text(), "kind": "phase", "turn": after.turn, "phase": after.phase,
                   "side": after.phasing_side,
                   "text": f"turn {after.turn}: {phase_label(spec, after.phase)} ({after.phasing_side})"}


def phase_label(spec, phase: str) -> str:
    """A phase as a sentence names it: its name, with "phase" added when the name does not say it ("Road Movement
    Phase", "movement phase"), as the page's ``phaseLabel`` does."""
    name = spec.phase_name(phase)
    return name if "phase" in name.lower() else f"{name} phase"


def _move(position: Position, step: Step, to) -> tuple[Position, dict[str, Any]]:
    name = position.game.map.name
    label = f"step {step.text()[:80]!r}"
    require_units(position, label, [*step.units, *step.pickup])
    how = {k: v for k, v in (("pickup", list(step.pickup)), ("terrorist", step.terrorist), ("enter", step.enter),
                             ("kind", step.kind)) if v}
    try:
        out = apply(position, Action("move", tuple(step.units), name(to), how=how))
    except IllegalAction as err:
        raise ValueError(f"{label}: {err}; give one of the destinations /api/moves lists") from None
    after, note = out.position, out.notes[0]
    moved = [u for u in after.by_id if after.by_id[u].hex != position.by_id[u].hex or u in step.units]
    start = _where(position, position.by_id[step.units[0]])
    entry = {"step": step.text(), "kind": "move", "units": moved, "from": start, "to": name(to),
             "cost": note["cost"], "path": note["path"], "phase": position.phase,
             "text": f"{'+'.join(moved)} {start} → {name(to)} ({note['cost']:g} MP)"}
    if note["rule"] is not None:
        entry["stop_rule"] = note["rule"]
    return after, entry


def _where(position: Position, unit) -> str:
    """Where a unit stands, as the log says it: its hex, or its box by the name players read (game.yaml)."""
    if unit.hex is not None:
        return position.game.map.name(unit.hex)
    return "off the map" if unit.box is None else position.game.spec.box_name(unit.box)


def play(position: Position, texts: list[str], done: int = 0) -> tuple[Position, list[dict[str, Any]]]:
    """``position`` after the steps ``texts`` (``done`` steps were made before them) and their log entries."""
    _within_limit(done + len(texts))
    log = []
    for text in texts:
        position, entry = apply_step(position, parse_step(text))
        log.append(entry)
    return position, log


def _within_limit(steps: int) -> None:
    """Refuse more than :data:`MAX_STEPS` steps from a source's first position."""
    if steps > MAX_STEPS:
        raise BadQuery(f"step: at most {MAX_STEPS} steps from a source's first position; open the exported "
                       "position (/api/position.yaml) and go on from there")


def played_states(position: Position, texts: list[str], done: int = 0) -> list[tuple[dict[str, Any], dict[str, Any],
                                                                                    dict[str, Any]]]:
    """:func:`play` as a worker process answers it, one ``(state, log entry, position file)`` per step: the position
    after the step as its fields without the game (little to send back; ``dataclasses.replace`` of the position it
    started from rebuilds it), its log entry, and its position file's data (what the store keeps of it)."""
    _within_limit(done + len(texts))
    out = []
    for text in texts:
        position, [entry] = play(position, [text])
        state = {f.name: getattr(position, f.name) for f in fields(position) if f.init and f.name != "game"}
        out.append((state, entry, position.to_file().model_dump(mode="json", exclude_defaults=True)))
    return out


def moves_among(texts: list[str]) -> int:
    """The move steps among ``texts`` (each a search of the game's legal moves)."""
    return sum(text.startswith("move:") for text in texts)
