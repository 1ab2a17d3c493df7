"""Each game's rules, keyed by game id; they read positions and maps, never files."""
from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from ..game import GameDataError, Position, load_position

RULES = {"jerusalem-1948": "toolkit.games.jerusalem"}


def rules_for(game_id: str) -> ModuleType:
    """The rules package of a game; ``ValueError`` when the toolkit has none yet."""
    if game_id not in RULES:
        raise ValueError(f"no rules assistant for game {game_id!r} yet; available: {', '.join(RULES)}")
    return importlib.import_module(RULES[game_id])


def load_game_position(path: str | Path) -> Position:
    """A position, with its game's counter values checked by the game's rules package.

    Raises :class:`GameDataError` naming ``counters.yaml`` and the counter when a value is wrong.
    """
    position = load_position(path)
    rules = rules_for(position.game.spec.id)
    for i, counter in enumerate(position.game.manifest.counters):
        problems = rules.check_counter(counter)
        if problems:
            raise GameDataError(str(position.game.folder / "counters.yaml"), f"counters[{i}].values",
                                "; ".join(problems))
    return position
