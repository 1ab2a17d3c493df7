"""Victory in a ``rules.yaml`` game (``victory`` section): who holds each objective hex (the side whose units
stand in it; else the side whose control marker lies there; else its ``owner``), the victory points each side
scores (objectives counted while their ``when`` holds; at the game's end, ``end``'s objectives and eliminated
enemy units too), the first victory level reached, and a sudden-death victory, which ends the game at the end of
the turn (or phase) it is reached in (:func:`game_over`, the sequence of play's hook)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...game import Position
from ...game.rulesdata import Objective, SuddenDeath
from ...game.sequence import GameOver, successors
from ...hexgrid import Hex
from .facts import holds, rules_of


@dataclass(frozen=True)
class Held:
    """One objective: its hex, who holds it and why, and the points it gives."""

    hex: Hex
    holder: str | None
    how: str
    vp: int
    side: str
    rule: str


@dataclass(frozen=True)
class VictoryResult:
    """The objectives, each side's points and the result."""

    position: Position
    objectives: tuple[Held, ...]
    vp: dict[str, int]
    result: str
    rule: str
    final: bool = False                   # the game's last phase: end-of-game points counted
    eliminated: dict[str, int] | None = None   # end-of-game points for eliminated enemy units, by side
    sudden: SuddenDeath | None = None     # a sudden-death victory reached


def holder(position: Position, h: Hex, owner: str | None) -> tuple[str | None, str]:
    """Who holds a hex and why: its units' side, else a control marker's side, else its owner."""
    sides = {u.side for u in position.at(h)}
    if len(sides) == 1:
        return next(iter(sides)), "its units stand there"
    markers = rules_of(position).victory.control_markers
    marked = [side for side, m in markers.items() if position.markers_at(h, m)]
    if len(marked) == 1:
        return marked[0], "its control marker lies there"
    return owner, "it held the hex at the start" if owner else "nobody holds it"


def final(position: Position) -> bool:
    """Whether the position's phase is the game's last (its sequence of play ends after it)."""
    try:
        successors(position)
    except GameOver:
        return True
    return False


def _score(position: Position, objectives: list[Objective], rule: str, vp: dict[str, int]) -> list[Held]:
    """The objectives counted now (their ``when`` holding at their hex), each side's points added to ``vp``."""
    cmap, held = position.game.map, []
    for o in objectives:
        h = cmap.resolve(o.hex)
        if not holds(position, o.when, h):
            continue
        who, how = holder(position, h, o.owner)
        held.append(Held(h, who, how, o.vp, o.side, o.rule or rule))
        if who == o.side:
            vp[o.side] += o.vp
    return held


def _eliminated(position: Position, per_unit: dict[str, int]) -> dict[str, int]:
    """End-of-game points of each side of ``per_unit``: so many for each enemy unit in the eliminated box."""
    box = position.game.spec.eliminated_box
    return {side: n * sum(1 for u in position.units if u.box == box and u.side != side)
            for side, n in per_unit.items()}


def sudden_death(position: Position, vp: dict[str, int]) -> SuddenDeath | None:
    """The first sudden-death victory whose tests hold in the position (whatever the moment), or None."""
    cmap = position.game.map
    for sd in rules_of(position).victory.sudden_death:
        if (holds(position, sd.when) and (sd.vp is None or vp.get(sd.side, 0) >= sd.vp)
                and all(holder(position, h, None)[0] == sd.side for h in map(cmap.resolve, sd.hexes))):
            return sd
    return None


def victory(position: Position, **_options: Any) -> VictoryResult:
    """Each objective's holder and the victory points and level of each side (with the end-of-game points in the
    game's last phase), or the sudden-death victory reached."""
    v = rules_of(position).victory
    vp = {s.id: 0 for s in position.game.spec.sides}
    held = _score(position, v.objectives, v.rule, vp)
    last, extra = final(position), None
    if last and v.end is not None:
        held += _score(position, v.end.objectives, v.end.rule or v.rule, vp)
        extra = _eliminated(position, v.end.eliminated)
        for side, n in extra.items():
            vp[side] += n
    sudden = sudden_death(position, vp)
    result = sudden.result if sudden is not None else next(
        (lv.result for lv in v.levels if vp.get(lv.side, 0) >= lv.vp and holds(position, lv.when)), v.otherwise)
    return VictoryResult(position, tuple(held), vp, result, v.rule, last, extra, sudden)


def game_over(position: Position) -> str | None:
    """The sequence of play's hook: a sudden-death victory ends the game at the end of the turn (``at: turn``) or
    phase (``at: phase``) it holds in, as ``"rule: result"``."""
    v = rules_of(position).victory
    if not v.sudden_death:
        return None
    r = victory(position)
    if r.sudden is None or (r.sudden.at == "turn" and not _turn_ends(position)):
        return None
    return f"{r.sudden.rule or v.rule}: sudden death, {r.sudden.result}"


def _turn_ends(position: Position) -> bool:
    """Whether the position's phase is the last of its turn."""
    try:
        return successors(position)[0].turn != position.turn
    except GameOver:
        return True


def _label(position: Position, h: Hex) -> str:
    place = position.game.map.hexes[h].place
    return f"{place} ({position.game.map.name(h)})" if place else position.game.map.name(h)


def victory_json(r: VictoryResult) -> dict[str, Any]:
    """``toolkit victory --json``: objectives, points by side, the result and an explanation."""
    name = r.position.game.map.name
    lines = [f"{_label(r.position, o.hex)}: held by {o.holder or 'nobody'} ({o.how}); {o.vp} VP to {o.side} ({o.rule})"
             for o in r.objectives]
    points = ", ".join(f"{side} {n}" for side, n in r.vp.items())
    end = rules_of(r.position).victory.end
    if r.eliminated:
        lines += [f"{side}: {n} VP for eliminated enemy units at the game's end ({end.rule or r.rule})"
                  for side, n in r.eliminated.items()]
    rule = (r.sudden.rule or r.rule) if r.sudden else r.rule
    how = f" (sudden death: {r.sudden.side}, checked at the end of each {r.sudden.at})" if r.sudden else ""
    return {"objectives": [{"hex": name(o.hex), "holder": o.holder, "how": o.how, "vp": o.vp, "side": o.side,
                            "rule": o.rule} for o in r.objectives],
            "vp": r.vp, "result": r.result, "rule": rule, "final": r.final, "sudden_death": r.sudden is not None,
            "held": [name(o.hex) for o in r.objectives if o.holder == o.side],
            "explanation": "\n".join([f"{r.result}{how} ({rule}): victory points {points}", *lines])}
