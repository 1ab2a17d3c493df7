"""Victory in a ``rules.yaml`` game (``victory`` section): who holds each objective hex (the side whose units
stand in it; else the side whose control marker lies there; else its ``owner``), the victory points each side
scores, and the first victory level reached."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...game import Position
from ...hexgrid import Hex
from .facts import rules_of


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


def victory(position: Position, **_options: Any) -> VictoryResult:
    """Each objective's holder and the victory points and level of each side."""
    v = rules_of(position).victory
    cmap = position.game.map
    held, vp = [], {s.id: 0 for s in position.game.spec.sides}
    for o in v.objectives:
        h = cmap.resolve(o.hex)
        who, how = holder(position, h, o.owner)
        held.append(Held(h, who, how, o.vp, o.side, o.rule or v.rule))
        if who == o.side:
            vp[o.side] += o.vp
    result = next((lv.result for lv in v.levels if vp.get(lv.side, 0) >= lv.vp), v.otherwise)
    return VictoryResult(position, tuple(held), vp, result, v.rule)


def _label(position: Position, h: Hex) -> str:
    place = position.game.map.hexes[h].place
    return f"{place} ({position.game.map.name(h)})" if place else position.game.map.name(h)


def victory_json(r: VictoryResult) -> dict[str, Any]:
    """``toolkit victory --json``: objectives, points by side, the result and an explanation."""
    name = r.position.game.map.name
    lines = [f"{_label(r.position, o.hex)}: held by {o.holder or 'nobody'} ({o.how}); {o.vp} VP to {o.side} ({o.rule})"
             for o in r.objectives]
    points = ", ".join(f"{side} {n}" for side, n in r.vp.items())
    return {"objectives": [{"hex": name(o.hex), "holder": o.holder, "how": o.how, "vp": o.vp, "side": o.side,
                            "rule": o.rule} for o in r.objectives],
            "vp": r.vp, "result": r.result, "rule": r.rule,
            "held": [name(o.hex) for o in r.objectives if o.holder == o.side],
            "explanation": "\n".join([f"{r.result} ({r.rule}): victory points {points}", *lines])}
