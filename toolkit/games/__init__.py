"""Each game's rules, keyed by game id (the rules read positions and maps, never files); the loaders that check a
position against its game's rules package; the enemy-reach layer in each game's own movement phases."""
from __future__ import annotations

import importlib
import io
from pathlib import Path
from types import ModuleType

from ..game import Game, GameDataError, Position, load_game, load_position, position_from_file
from ..game.position import position_from_yaml
from ..game.reach import reach
from ..hexgrid import Hex
from ..vassal.positions import read_position_save
from ..vassal.savefile import Unplaced

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
    return _counters_checked(load_position(path, game), game)


def game_position_from_yaml(raw: bytes, file: str, game: str | None = None) -> Position:
    """A position from the bytes of a position file (an upload, named ``file`` in errors), checked as
    :func:`load_game_position` checks a file; ``game`` is the user's ``--game`` (else the bundled game it names)."""
    own = None if game is None else load_game(game)
    return _counters_checked(position_from_yaml(raw, file, own), own)


def _counters_checked(position: Position, game: Game | None) -> Position:
    if game is not None and position.game.spec.id not in RULES:
        return position  # a user's own game: no rules package checks its values
    rules = rules_for(position.game.spec.id)
    for i, counter in enumerate(position.game.manifest.counters):
        problems = rules.check_counter(counter)
        if problems:
            raise GameDataError(str(position.game.folder / "counters.yaml"), f"counters[{i}].values",
                                "; ".join(problems))
    return position


def load_position_or_save(path: str, game: str | None = None) -> tuple[Position, list[Unplaced]]:
    """A position file, or the position a VASSAL save shows (``.vsav``, read as an untrusted archive) with the
    pieces it could not place; ``game`` is the user's ``--game`` (a bundled id or a game folder)."""
    if path.lower().endswith(".vsav"):
        pf, unplaced = read_position_save(path, game)
        return position_from_file(pf, path, None if game is None else load_game(game)), unplaced
    return load_game_position(path, None if game is None else load_game(game)), []


def side_reach(position: Position, side: str) -> dict[Hex, tuple[str, ...]]:
    """Every hex some unit of ``side`` can reach or attack next turn, with those units
    (:func:`toolkit.game.reach.reach`, in the game's own movement phases)."""
    rules = rules_for(position.game.spec.id)
    return reach(position, side, rules.moves, rules.movement_phases(position.game.spec, side))


def game_position_from_save(raw: bytes, file: str, game: str | None = None) -> tuple[Position, list[Unplaced]]:
    """The position the bytes of a VASSAL save show (an upload named ``file`` in errors; read through the
    untrusted-archive guards), with the pieces it could not place; ``game`` as for :func:`load_position_or_save`."""
    stream = io.BytesIO(raw)
    stream.name = file
    pf, unplaced = read_position_save(stream, game)
    return position_from_file(pf, file, None if game is None else load_game(game)), unplaced
