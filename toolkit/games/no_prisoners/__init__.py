"""*No Prisoners* (1915-18) rules: supply and rail nets (15.x, 16.x, 17.2), command radius (7.x),
movement (8.x, 10.x, 16.x, 19.4, 21.3), the railhead marker (16.2), reinforcement placement (6.x, 18.4), combat
(11.x, 21.2), combat results and retreats (11.3, 12.x), one whole combat with its losses, retreats and pursuit
(:func:`resolve`, 11.3, 12.x, 13.x, 19.3) and the position checker.

What is and is not yet done, rule by rule: docs/games/no-prisoners.md.
"""
from ...game import GameSpec, Position
from ...game.retreat import retreats_json as retreat_json
from ...game.violations import check_json
from ...hexgrid import Hex
from .combat import combat, combat_json
from .command import attack_bonus, command, command_json
from .legality import check
from .mapfacts import map_facts
from .movement import KINDS, after_move, moves
from .railhead import railhead_json, railhead_options
from .reinforcements import placement, placement_json
from .resolve import attack_options, phase_end, pursuit_ends, pursuit_length, resolve
from .retreat import loss_count, retreat
from .supply import supply, supply_json, zoc_units
from .tables import load_tables
from .units import check_counter

__all__ = ["after_move", "attack_bonus", "attack_options", "check", "check_counter", "check_json", "combat",
           "combat_json", "command", "command_json", "loss_count", "MOVE_OPTIONS", "movement_phases", "moves",
           "placement", "placement_json", "pursuit_ends", "pursuit_length", "railhead_json", "railhead_options",
           "phase_end", "resolve", "retreat", "retreat_json", "side_zoc", "supply", "supply_json"]

#: The options of :func:`moves` beyond the units: the kind of movement (8.1, 8.8, 20.x).
MOVE_OPTIONS = {"flags": ["kind"], "kinds": list(KINDS)}


def movement_phases(spec: GameSpec, side: str) -> list[str]:
    """The Movement Phases of a side: one per sector in each game turn (4.2.1.3, 4.2.2)."""
    return [p for p in spec.phases if p.endswith(f"_{side}_movement")]


def side_zoc(position: Position, side: str) -> dict[Hex, list[tuple[str, str]]]:
    """Each hex in the ZOC of ``side``'s units, with each unit exerting it and the rule (10.1 A)."""
    found = zoc_units(position, map_facts(position.game.map, load_tables(position.game.folder).rail), side)
    return {h: [(u, "10.1 A") for u in ids] for h, ids in found.items()}
