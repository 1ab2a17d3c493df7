"""Each game's rules, keyed by game id; they read positions and maps, never files."""
from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from ..game import Game, GameDataError, Position, load_position

RULES = {"jerusalem-1948": "toolkit.games.jerusalem", "no-prisoners": "toolkit.games.no_prisoners",
         "siege-of-jerusalem": "toolkit.games.siege"}


def rules_for(game_id: str) -> ModuleType:
    """The rules package of a game; ``ValueError`` when the toolkit has none yet."""
    if game_id not in RULES:
        raise ValueError(f"no rules assistant for game {game_id!r} yet; available: {', '.join(RULES)}")
    return importlib.import_module(RULES[game_id])


def rule(game_id: str, name: str):
    """One calculator of a game's rules (``moves``, ``check``, ``supply`` ...), or a clear ``ValueError``."""
    found = getattr(rules_for(game_id), name, None)
    if found is None:
        raise ValueError(f"the toolkit has no {name!r} for {game_id!r} yet (see docs/games/{game_id}.md)")
    return found


def load_game_position(path: str | Path, game: Game | None = None) -> Position:
    """A position (of ``game`` when the user gave one, see :func:`toolkit.game.load_position`), with its game's
    counter values checked by the game's rules package when the toolkit has one.

    Raises :class:`GameDataError` naming ``counters.yaml`` and the counter when a value is wrong.
    """
    position = load_position(path, game)
    if game is not None and position.game.spec.id not in RULES:
        return position  # a user's own game: no rules package checks its values
    rules = rules_for(position.game.spec.id)
    for i, counter in enumerate(position.game.manifest.counters):
        problems = rules.check_counter(counter)
        if problems:
            raise GameDataError(str(position.game.folder / "counters.yaml"), f"counters[{i}].values",
                                "; ".join(problems))
    return position
