"""Where a unit may be placed or come on (reinforcements): the answer every game's ``toolkit place`` gives."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ..hexgrid import Hex
from .moves import Reason
from .position import Position


@dataclass(frozen=True)
class Placement:
    """Where one unit may be placed now, or why it may not be; ``blocked``: hexes refused, each with its reason."""

    unit: str
    hexes: tuple[Hex, ...] = ()
    rule: str = ""
    refused: Reason | None = None
    blocked: dict[Hex, Reason] = field(default_factory=dict)


def placement_json(placements: Sequence[Placement], position: Position) -> dict[str, Any]:
    """Placements as JSON-ready data (hex names, rules cited): ``toolkit place --json``."""
    name = position.game.map.name
    return {"units": [{
        "unit": p.unit, "hexes": [name(h) for h in p.hexes], "rule": p.rule,
        "refused": None if p.refused is None else {"reason": p.refused.message, "rule": p.refused.rule},
        "blocked": {name(h): {"reason": r.message, "rule": r.rule} for h, r in sorted(p.blocked.items())},
    } for p in placements]}
