"""*Jerusalem!* (1948) rules: movement, spotting and fire, combat odds and results (and whole combats applied,
``resolve``), victory road, legality."""
from __future__ import annotations

from typing import Sequence

from ...game import GameSpec, Position
from ...game.moves import MoveResult, legal_moves
from ...game.retreat import retreats_json as retreat_json
from ...game.violations import check_json
from ...hexgrid import Hex
from .combat import KINDS as COMBAT_KINDS, combat, combat_json
from .legality import check
from .resolve import attack_options, resolve
from .retreat import retreat
from .movement import JerusalemMove, map_facts, zoc_units
from .spotting import can_see, fire, fire_json
from .tables import load_tables
from .units import check_counter
from .victory import victory, victory_json

__all__ = ["COMBAT_KINDS", "GAME_ID", "MOVE_OPTIONS", "SPOTTING_RULE", "attack_options", "can_see", "check",
           "check_counter", "check_json", "combat", "combat_json", "fire", "fire_json", "map_facts", "movement_phases",
           "moves", "resolve", "retreat", "retreat_json", "side_zoc", "victory", "victory_json"]

#: The LOS rule and convention of spotting (10.7.1), for ``toolkit los --position``.
SPOTTING_RULE = "10.7.1"

GAME_ID = "jerusalem-1948"

#: The options of :func:`moves` beyond the units (the CLI's ``--pickup``, ``--terrorist``, ``--enter``).
MOVE_OPTIONS = {"flags": ["pickup", "terrorist", "enter"], "kinds": []}


def movement_phases(spec: GameSpec, side: str) -> list[str]:
    """The phases a side moves in: overland and road, each player turn (3.1, 3.2)."""
    return ["overland", "road"]


def side_zoc(position: Position, side: str) -> dict[Hex, list[tuple[str, str]]]:
    """Each hex in the ZOC of ``side``'s units, with each unit exerting it and the rule (4.1)."""
    found = zoc_units(position, map_facts(position.game.map), lambda s: s == side)
    return {h: [(u, "4.1") for u in ids] for h, ids in found.items()}


def moves(position: Position, unit_ids: Sequence[str], pickup: Sequence[str] = (),
          terrorist: bool = False, enter: str | None = None) -> MoveResult:
    """Legal destinations of the named units moving together in the position's phase.

    ``pickup`` names units a transport in the stack picks up first (8.7.2);
    ``terrorist`` asks for an Irgun / Stern Gang terrorist move (13.2);
    ``enter`` is the map-edge hex (or place) where off-map units come on (14.1).
    """
    units = [position.by_id[u] for u in unit_ids]
    on_map = [u for u in units if u.hex is not None]
    if enter is not None and on_map:
        u = on_map[0]
        raise ValueError(f"--enter {enter}: {u.id} is on the map at {position.game.map.name(u.hex)}; only units off "
                         "the map (boxes reinforcements, off_map) enter at a map-edge hex (14.1)")
    entry = None if enter is None else position.game.map.resolve(enter)
    rules = JerusalemMove(position, units, load_tables(), map_facts(position.game.map),
                          [position.by_id[u] for u in pickup], terrorist, entry)
    return legal_moves(rules)
