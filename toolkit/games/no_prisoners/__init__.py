"""*No Prisoners* (1915-18) rules: supply and rail nets (15.x, 16.x, 17.2), command radius (7.x).

Movement, combat and the position checker are not yet done (docs/games/no-prisoners.md).
"""
from .command import attack_bonus, command, command_json
from .supply import supply, supply_json
from .units import check_counter

__all__ = ["attack_bonus", "check_counter", "command", "command_json", "supply", "supply_json"]
