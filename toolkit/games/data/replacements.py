"""Replacements of a ``rules.yaml`` game (``replacements`` section): in a replacement phase each side may return up
to its number of units or steps from the box of eliminated units to the map (at its replacement entry hexes, else
its reinforcements'), or, by steps, turn a reduced unit on the map back to its front.  Each unit replaced carries
the section's flag, which is how ``toolkit check`` counts them (the flag comes off as game.yaml's
``flags_cleared`` says)."""
from __future__ import annotations

from dataclasses import replace

from ...game import Position, Unit
from ...game.moves import Reason
from ...game.placement import Placement
from ...game.violations import Violation, violation
from .facts import rules_of


def applies(position: Position, u: Unit) -> bool:
    """Whether ``u`` is one the phase's replacements may return: in the box of eliminated units, or (by steps) a
    reduced unit on the map."""
    r = rules_of(position).replacements
    if r is None or position.phase not in r.phase:
        return False
    return u.box == r.from_box or (u.hex is not None and r.returns == "step" and _reduced(position, u))


def not_now(position: Position, u: Unit) -> Placement | None:
    """Why a unit in the replacements' box may not come back in this phase (not a replacement phase), or None."""
    r = rules_of(position).replacements
    if r is None or u.box != r.from_box or position.phase in r.phase:
        return None
    names = ", ".join(position.game.spec.phase_name(p) for p in r.phase)
    return Placement(u.id, rule=r.rule, refused=Reason(r.rule, f"{u.id} may come back only as a replacement, in "
                                                               f"{names}"))


def _reduced(position: Position, u: Unit) -> bool:
    flag = position.game.spec.back_flag
    return flag is not None and u.has(flag)


def used(position: Position, side: str) -> int:
    """The replacements a side has taken this phase: its units carrying the section's flag."""
    flag = rules_of(position).replacements.flag
    return sum(1 for u in position.units if u.side == side and u.has(flag))


def replacement(position: Position, u: Unit) -> Placement:
    """Where a unit :func:`applies` to may come back now (its own hex for a reduced unit turned to its front), or
    why not (the side's replacements used up)."""
    from .reinforcements import entry_hexes, open_hexes   # which imports this module
    r = rules_of(position).replacements
    allowed, done = r.per_side.get(u.side, 0), used(position, u.side)
    if done >= allowed:
        return Placement(u.id, rule=r.rule, refused=Reason(r.rule, f"{u.side} has taken {done} of its {allowed} "
                                                                   f"replacement {r.returns}s this phase"))
    if u.hex is not None:
        return Placement(u.id, (u.hex,), r.rule)
    entry = r.entry.get(u.side)
    rule = (entry.rule if entry is not None else "") or r.rule
    hexes, blocked = open_hexes(position, u.side, entry_hexes(position, u.side, r.entry or None), rule)
    if not hexes and not blocked:
        return Placement(u.id, rule=rule, refused=Reason(r.rule, f"no entry hexes for side {u.side}"))
    return Placement(u.id, hexes, rule, None, blocked)


def after_place(position: Position, after: Position, unit_id: str) -> Position:
    """The position after a unit is placed: a replacement carries the section's flag; by steps, a unit back from
    the box comes on reduced (one step) and a reduced unit on the map turns to its front."""
    u = position.by_id[unit_id]
    if not applies(position, u):
        return after
    r, back = rules_of(position).replacements, position.game.spec.back_flag
    placed = after.by_id[unit_id]
    flags = placed.flags | {r.flag}
    if r.returns == "step" and back is not None and u.counter.back is not None:
        flags = flags - {back} if u.hex is not None else flags | {back}
    return after.moved({unit_id: replace(placed, flags=flags)})


def check(position: Position) -> list[Violation]:
    """In a replacement phase, each side that has taken more replacements than it may."""
    r = rules_of(position).replacements
    if r is None or position.phase not in r.phase:
        return []
    out = []
    for side in (s.id for s in position.game.spec.sides):
        n, allowed = used(position, side), r.per_side.get(side, 0)
        if n > allowed:
            units = [u for u in position.units if u.side == side and u.has(r.flag)]
            out.append(violation(r.rule, f"{side} has taken {n} replacement {r.returns}s; it may take {allowed}",
                                 position, [], units))
    return out
