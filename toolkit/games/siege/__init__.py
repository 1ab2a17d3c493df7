"""*The Siege of Jerusalem* (70 AD) rules package: counter values (issue 6), legal moves (6.x, 7.3x, 8.x, 12.4,
16.5x, 17.21, 18.8, 18.92x), Zones of Control (7.x), Command Control (5.x) and the position checker.

What is and is not yet done, rule by rule: docs/games/siege-of-jerusalem.md.
"""
from ...game import GameSpec, Position
from ...game.violations import check_json
from ...hexgrid import Hex
from .combat import KINDS
from .command import command, command_json, out_of_command
from .legality import check
from .movement import Action, actions, actions_json, after_move, apply_action, moves
from .units import check_counter
from .zoc import zoc, zoc_json

__all__ = ["Action", "COMBAT_KINDS", "MOVE_OPTIONS", "actions", "actions_json", "after_move", "apply_action", "check", "check_counter", "check_json", "command",
           "command_json", "movement_phases", "moves", "out_of_command", "side_zoc", "zoc", "zoc_json"]

#: The options of :func:`moves` beyond the units: the edge hex an off-map Legion enters by (3.3).
MOVE_OPTIONS = {"flags": ["enter"], "kinds": []}

#: The kinds of combat (the odds' ``kind``): melee (11.x; ``attack`` is its other name), missile fire (9.x), a
#: breach (10.1).
COMBAT_KINDS = tuple(k for k in KINDS if k != "attack")


def movement_phases(spec: GameSpec, side: str) -> list[str]:
    """The phase a side moves in: its Movement Phase (4.13)."""
    return ["movement"]


def side_zoc(position: Position, side: str) -> dict[Hex, list[tuple[str, str]]]:
    """Each hex in the ZOC of ``side``'s units, with each unit exerting it and the rule (7.11-7.13; none at
    night, 18.2)."""
    return {h: [(src.unit, src.rule) for src in sources] for h, sources in zoc(position).by_side[side].items()}

# Line of fire, fire and melee (9.x, 10.x, 11.x, 12.x, 13.x, 17.1, 19.2-19.3): toolkit/games/siege/{lof,combat}.py
from .combat import (breach_damage, combat, combat_json, fire, fire_json, mandatory_targets,  # noqa: E402
                     mining_shafts, recovery, recovery_order, replacements, shaft_damage, shaft_hexes)
from .combat_tables import load_combat_tables, melee_column, missile_column  # noqa: E402
from .lof import can_see, lof, lof_json, sight_json  # noqa: E402

#: The LOF rule of ``toolkit los --position`` (9.5); the viewer draws lines by it by default.
SPOTTING_RULE = "9.5"
__all__ += ["SPOTTING_RULE", "breach_damage", "can_see", "combat", "combat_json", "fire", "fire_json", "load_combat_tables", "lof",
            "lof_json", "mandatory_targets", "melee_column", "mining_shafts", "missile_column", "recovery",
            "recovery_order", "replacements", "shaft_damage", "shaft_hexes", "sight_json"]

# Flank Attacks, facing, advances (11.85, 10.11, 11.86-11.9); the Assault Period tables (18.6-18.9x, 19.1-19.5)
from .combat import advances, engine_facing, flank_attack  # noqa: E402
from . import assault  # noqa: E402
__all__ += ["advances", "assault", "engine_facing", "flank_attack"]

# Control of the city areas and walls, the end of an Assault Period, 19.7 Breaches (18.1, 18.11, 18.3x)
from .control import control, control_json  # noqa: E402
__all__ += ["control", "control_json"]

# Melee and Fire results applied: Disruption, elimination and retreats, off the map too (13.5, 14.x, 15.x, 7.5)
from .retreat import apply_retreat, retreat, retreat_json  # noqa: E402
__all__ += ["apply_retreat", "retreat", "retreat_json"]

# The table answers of `toolkit siege` (13.2, 13.4, 17.1-17.3, 18.5, 18.6, 18.9x, 19.21, 19.22)
from .answers import dead_pile, draw_replacements, missile_shot, recovery_rolls, shafts, vp  # noqa: E402
__all__ += ["dead_pile", "draw_replacements", "missile_shot", "recovery_rolls", "shafts", "vp"]

# The Melee Phase procedures: Multiple Attacks (11.9), Sallies and counterattacks (11.14)
from .procedures import multiple_attack_markers, multiple_attacks, sally  # noqa: E402
__all__ += ["multiple_attack_markers", "multiple_attacks", "sally"]

# The sequence of play (4.1-4.3): what the phase allows and what the phasing player does now
from .sequence import game_over, next_turn, phase_notes, sequence_check  # noqa: E402
__all__ += ["game_over", "next_turn", "phase_notes", "sequence_check"]

# Between Assault Periods: Ramps (18.8, 18.81, 19.4), repairs (19.6), the withdrawal (18.3-18.37), Stairways (18.36)
from .interphase import ramps, repairs, stairways, withdrawal  # noqa: E402
__all__ += ["ramps", "repairs", "stairways", "withdrawal"]

# One combat as one action, every consequence applied, and the candidates of random playouts (docs/plugins.md)
from .resolve import attack_options, resolve  # noqa: E402
__all__ += ["attack_options", "resolve"]
