"""``toolkit check`` for a ``rules.yaml`` game: the stacking limits of ``game.yaml``, no unit in a hex its
movement class may not enter, no hex holding two sides' units (``placement`` section)."""
from __future__ import annotations

from typing import Any

from ...game import Position, stacking
from ...game.violations import Violation, violation
from . import replacements
from .facts import movement_class, rules_of, terrain_cost


def check(position: Position, turn_end: bool | None = None, **_options: Any) -> list[Violation]:
    """Every rule the position breaks."""
    rules, name = rules_of(position), position.game.map.name
    out = stacking.check(position) if position.game.spec.stacking is not None else []
    for h in sorted(position.occupied(), key=name):
        units = position.at(h)
        if len({u.side for u in units}) > 1:
            rule = rules.placement.both_sides.rule or rules.placement.rule or "placement"
            out.append(violation(rule, f"units of two sides in {name(h)}", position, [h], units))
        if rules.movement is None:
            continue
        for u in units:
            cost, terrain, terrain_rule = terrain_cost(position, h, movement_class(rules, u.type))
            if cost is None and u.carried_by is None:
                rule = (rules.placement.prohibited_terrain.rule or rules.placement.rule or terrain_rule
                        or "placement")
                out.append(violation(rule, f"{u.id} stands in {terrain}, prohibited to its units", position, [h],
                                     [u]))
    return out + replacements.check(position)
