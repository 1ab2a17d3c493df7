"""*The Siege of Jerusalem*'s sequence of play (4.1-4.3) against a position: what its phase allows (``game.yaml``
``phases[].allows``) and what the position shows was done in it.

* :func:`sequence_check` -- for ``toolkit check``: a unit flagged as having moved, fired or attacked (``moved``,
  ``fleeing``, ``stepped_off``, ``fired``, ``attacked``, ``multiple_attack_*``) in a phase that does not allow it,
  or of the side that may not do it now (only the phasing side moves and attacks in melee, 4.13, 4.14, 4.23,
  4.24; both sides fire in each Fire Phase, 4.12, 4.22); a Sally recorded outside a Melee Phase (11.14).
* :func:`phase_notes` -- for ``toolkit phase``: what the phasing player may do now, and in what order.
* :func:`phase_allows` -- what the position's phase allows its phasing side: ``game.yaml``'s words, less Reserves
  for the Romans (4.11, 4.21, 18.61: only the Jews activate Reserves, in their own Recovery Phase).
* :func:`game_over` -- for a position at the end of its phase: whether the game, or the scenario, ends after it,
  and why (18.1 through :func:`.control.period_end`; the scenario's last Assault Period is the position parameter
  ``final_assault_period``, else the Campaign Game's fifth, 18).
* :func:`next_turn` -- the game turn after the position's: the next of the Assault Period, or turn 1 of the next
  Assault Period once this one ends (18.1, 19).

A position shows only flags and parameters; what happened earlier in the phase is not recorded (docs/games).
"""
from __future__ import annotations

from typing import Any

from ...game import Position
from ...game.violations import Violation, violation
from .control import assault_period, period_end

#: A flag, the activity it records (schema ALLOWS), whether only the phasing side may do it, and the rule.
FLAG_ACTIVITY = {
    "moved": ("movement", True, "4.13, 4.23, 8.2"),
    "fleeing": ("movement", True, "4.23, 18.92"),
    "stepped_off": ("movement", True, "8.61"),
    "fired": ("fire", False, "4.12, 4.22, 9.1"),
    "attacked": ("melee", True, "4.14, 4.24, 11.8"),
    "multiple_attack_a": ("melee", True, "4.14, 4.24, 11.9"),
    "multiple_attack_b": ("melee", True, "4.14, 4.24, 11.9"),
    "multiple_attack_c": ("melee", True, "4.14, 4.24, 11.9"),
}

#: What the phasing player does in each phase, in order, with the rule (4.11-4.24).
NOTES = {
    "recovery": {"roman": [("4.11, 17.1", "roll for Recovery of each Disrupted non-Artillery unit, the HQ first, "
                                          "then by row and number (toolkit siege recovery)")],
                 "jewish": [("4.21, 18.611", "roll to activate Reserves in each eligible Area first "
                                             "(toolkit siege reserves)"),
                            ("4.21, 17.1", "then roll for Recovery of each Disrupted non-Artillery unit "
                                           "(toolkit siege recovery)")]},
    "fire": {"roman": [("4.12", "the Jews fire first; then Roman Rams and Armored Towers make Breach attacks and "
                                "Roman missile units fire (toolkit odds --kind breach / missile)")],
             "jewish": [("4.22", "the Romans fire and make Breach attacks first; then Jewish missile, Artillery and "
                                 "rock units fire (toolkit odds --kind missile)")]},
    "movement": {side: [(rule, "move units not in Panic (toolkit moves); Routed units toward the Refuge; Panicked "
                               "units last, toward the Refuge")]
                 for side, rule in (("roman", "4.13, 17.21"), ("jewish", "4.23, 17.21"))},
    "melee": {side: [(rule, "attack adjacent enemy units with eligible Fresh units (toolkit odds --kind melee); "
                            "units under Multiple Attack markers attack as 11.9 says (toolkit siege "
                            "multiple-attacks); counterattacks after a Sally at the end (toolkit siege sally)")]
              for side, rule in (("roman", "4.14, 11.9, 11.14"), ("jewish", "4.24, 11.9, 11.14"))},
}


def sequence_check(position: Position) -> list[Violation]:
    """What the position shows done out of its phase (see the module docstring); ``[]`` when nothing."""
    spec = position.game.spec
    allowed = set(spec.phase_allows(position.phase))
    phase = spec.phase_name(position.phase)
    out = []
    for u in position.units:
        for flag in sorted(u.flags & FLAG_ACTIVITY.keys()):
            activity, phasing_only, rule = FLAG_ACTIVITY[flag]
            if activity not in allowed:
                out.append(violation(rule, f"{u.id} is flagged {flag} in the {phase}, which allows no {activity}",
                                     position, [u.hex] if u.hex else [], [u]))
            elif phasing_only and u.side != position.phasing_side:
                out.append(violation(rule, f"{u.id} is flagged {flag}, but only the phasing side "
                                           f"({position.phasing_side}) does {activity} in its {phase}",
                                     position, [u.hex] if u.hex else [], [u]))
    if str(position.params.get("period_end") or "") == "roman" and position.phase == "melee" \
            and position.phasing_side == "jewish" and period_end(position) is None:
        out.append(violation("18.1", "period_end: roman, but the Roman may end the Assault Period alone only the turn "
                                     "he first controls a city area or on a Jewish concession (18.1, 18.11)", position))
    if position.params.get("sallies") and "melee" not in allowed:
        out.append(violation("11.14", f"a Sally (parameter sallies) recorded in the {phase}: Gates open only for a "
                                      "melee attack", position))
    return out


def phase_notes(position: Position) -> list[dict[str, Any]]:
    """What the phasing player may do now, in order, each with its rule (4.11-4.24)."""
    return [{"rule": rule, "text": text}
            for rule, text in NOTES.get(position.phase, {}).get(position.phasing_side, [])]


def phase_allows(position: Position) -> list[str]:
    """What the position's phase allows its phasing side (game.yaml ``allows``): the Romans never activate
    Reserves (4.11, 4.21, 18.61)."""
    allowed = position.game.spec.phase_allows(position.phase)
    return [a for a in allowed if not (a == "reserves" and position.phasing_side != "jewish")]


def _last_period(position: Position) -> str:
    """The scenario's last Assault Period: parameter ``final_assault_period``, else the Campaign Game's last (18)."""
    periods = position.game.spec.place_lists.get("assault_periods", [])
    return str(position.params.get("final_assault_period") or (periods[-1] if periods else ""))


def game_over(position: Position) -> str | None:
    """For a position at the end of its phase: why the game (or the scenario) ends after it, with the rule, or
    None.  The scenario ends with its last Assault Period (:func:`_last_period`) when that period ends (18.1)."""
    ended = period_end(position)
    if ended is None:
        return None
    period = assault_period(position, control=[])["period"]
    last = _last_period(position)
    if period != last:
        return None
    what = "the scenario" if position.params.get("final_assault_period") else "the Campaign Game (18)"
    return f"{ended}; Assault Period {period} is the last of {what}, so it ends"


def next_turn(position: Position) -> str | None:
    """The turn after the position's (its Jewish Melee Phase ended): the Assault Period's next turn, or once the
    period ends (18.1) turn 1 of the next one, after the interphase (19); None after the last."""
    turns = position.game.spec.turns
    if period_end(position) is None:
        i = turns.index(position.turn)
        return turns[i + 1] if i + 1 < len(turns) else None
    period = assault_period(position, control=[])["period"]
    return next((t for t in turns if t.startswith("AP ") and t.split("/")[0][3:] != period
                 and turns.index(t) > turns.index(position.turn)), None)
