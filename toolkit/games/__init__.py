"""Each game's rules, keyed by game id; they read positions and maps, never files."""
from __future__ import annotations

import importlib
from types import ModuleType

RULES = {"jerusalem-1948": "toolkit.games.jerusalem"}


def rules_for(game_id: str) -> ModuleType:
    """The rules package of a game; ``ValueError`` when the toolkit has none yet."""
    if game_id not in RULES:
        raise ValueError(f"no rules assistant for game {game_id!r} yet; available: {', '.join(RULES)}")
    return importlib.import_module(RULES[game_id])
