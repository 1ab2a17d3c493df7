"""*No Prisoners* (1915-18) rules: supply and rail nets (15.x, 16.x, 17.2), command radius (7.x),
movement (8.x, 10.x, 16.x, 19.4, 21.3), the railhead marker (16.2), reinforcement placement (6.x, 18.4), combat (11.x, 21.2) and the position checker.

What is and is not yet done, rule by rule: docs/games/no-prisoners.md.
"""
from ...game.violations import check_json
from .combat import combat, combat_json
from .command import attack_bonus, command, command_json
from .legality import check
from .movement import moves
from .railhead import railhead_json, railhead_options
from .reinforcements import placement, placement_json
from .supply import supply, supply_json
from .units import check_counter

__all__ = ["attack_bonus", "check", "check_counter", "check_json", "combat", "combat_json", "command",
           "command_json", "moves", "placement", "placement_json", "railhead_json", "railhead_options", "supply",
           "supply_json"]
