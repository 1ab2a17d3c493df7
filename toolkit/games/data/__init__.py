"""The rules assistant of any game that describes its rules in ``rules.yaml`` (docs/rules-data.md).

:func:`calculators` gives the calculators of the sections a game declares, under the names every rules
assistant uses (docs/plugins.md), so the command line, the viewer and a plugin call them as they call a bundled
game's.  Each reads the position's ``game.rules_data``; none parses a file.
"""
from __future__ import annotations

from functools import partial
from typing import Any

from ...game import Position
from ...game.placement import placement_json
from ...game.rulesdata import RulesData
from ...game.violations import check_json
from ...hexgrid import Hex
from ...los import Convention, LosEngine, LosResult
from ...los.explain import map_obstacles
from . import combat, legality, movement, reinforcements, replacements, resolve, retreat, trace, victory
from .facts import zoc_of

#: The ``rules.yaml`` section each calculator needs (for the message naming what to declare).
SECTION_OF = {"moves": "movement", "movement_phases": "movement", "side_zoc": "zoc", "combat": "combat",
              "retreat": "retreat", "supply": "supply", "command": "command", "placement": "reinforcements",
              "victory": "victory"}


def can_see(position: Position, a: Hex, b: Hex) -> LosResult:
    """Line of sight in a position: the map's own rule and obstacles (``los`` of the map file)."""
    cmap = position.game.map
    return LosEngine(cmap.grid).check(a, b, Convention(cmap.los.convention), map_obstacles(cmap), rule=cmap.los.rule)


def side_zoc(position: Position, side: str) -> dict[Hex, list[tuple[str, str]]]:
    """Each hex in the zone of control of ``side``'s units, with each unit exerting it and the rule."""
    rule = position.game.rules_data.zoc.rule
    return {h: [(u, rule) for u in units] for h, units in zoc_of(position, side).items()}


def calculators(rules: RulesData) -> dict[str, Any]:
    """The calculators of the sections ``rules`` declares, by name."""
    out: dict[str, Any] = {"check": legality.check, "check_json": check_json, "can_see": can_see}
    if rules.movement is not None:
        kinds = list(rules.movement.kinds)
        out |= {"moves": movement.moves, "MOVE_OPTIONS": {"flags": ["enter", "kind"] if kinds else ["enter"],
                                                          "kinds": kinds},
                "movement_phases": partial(movement.movement_phases, rules)}
    if rules.zoc is not None:
        out["side_zoc"] = side_zoc
    if rules.combat is not None:
        out |= {"combat": combat.combat, "combat_json": combat.combat_json}
    if rules.retreat is not None:
        out |= {"retreat": retreat.retreat, "retreat_json": retreat.retreat_json}
    if rules.combat is not None:   # a whole attack as one action; its result applied when retreat gives it
        out["resolve"] = resolve.resolve
    if rules.supply is not None:
        out |= {"supply": trace.supply, "supply_json": trace.supply_json}
    if rules.command is not None:
        out |= {"command": trace.command, "command_json": trace.command_json}
    if rules.reinforcements is not None or rules.replacements is not None:
        out |= {"placement": reinforcements.placement, "placement_json": placement_json}
    if rules.replacements is not None:   # a replacement carries its flag (and turns face) once placed
        out["after_place"] = replacements.after_place
    if rules.victory is not None:
        out |= {"victory": victory.victory, "victory_json": victory.victory_json}
        if rules.victory.sudden_death:   # the sequence of play asks it whether the game ends (sudden death)
            out["game_over"] = victory.game_over
    return out
