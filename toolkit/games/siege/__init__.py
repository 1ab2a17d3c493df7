"""*The Siege of Jerusalem* (70 AD) rules package: counter values (issue 6), legal moves (6.x, 7.3x, 8.x, 12.4,
16.5x, 17.21, 18.8, 18.92x), Zones of Control (7.x), Command Control (5.x) and the position checker.

What is and is not yet done, rule by rule: docs/games/siege-of-jerusalem.md.
"""
from ...game.violations import check_json
from .command import command, command_json, out_of_command
from .legality import check
from .movement import moves
from .units import check_counter
from .zoc import zoc, zoc_json

__all__ = ["check", "check_counter", "check_json", "command", "command_json", "moves", "out_of_command", "zoc",
           "zoc_json"]
