"""Rule violations found in a position, shared by every game's checker, and their stable JSON."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ..hexgrid import Hex
from .position import Position, Unit


@dataclass(frozen=True)
class Violation:
    """One broken rule: its number, what is wrong (the rule cited), where and who."""

    rule: str
    message: str
    hexes: tuple[str, ...] = ()
    units: tuple[str, ...] = ()


def violation(rule: str, message: str, position: Position, hexes: Iterable[Hex] = (),
              units: Iterable[Unit | str] = ()) -> Violation:
    """A violation whose message ends with its rule, hexes by map name, units by id."""
    name = position.game.map.name
    return Violation(rule, f"{message} ({rule})", tuple(name(h) for h in hexes),
                     tuple(u if isinstance(u, str) else u.id for u in units))


def check_json(violations: list[Violation]) -> dict[str, Any]:
    """The stable JSON form of a checker's result: ``{"legal", "violations": [{"rule", "message", "hexes", "units"}]}``."""
    return {
        "legal": not violations,
        "violations": [{"rule": v.rule, "message": v.message, "hexes": list(v.hexes), "units": list(v.units)}
                       for v in violations],
    }
