"""A game module on disk (``modules/<game>/``): its spec, counters and map, checked together."""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import toolkit

from ..datafile import DataFileError, expected, load_yaml_model
from ..mapdata import CompiledMap, open_map
from .schema import Counter, CounterManifest, GameSpec, Marker

DOC = "docs/game-files.md"


class GameDataError(DataFileError):
    """A problem in a game module's files or in a position file."""


def modules_dir() -> Path:
    """The directory of bundled game modules (``$TOOLKIT_MODULES_DIR`` or ``modules/`` by the package)."""
    env = os.environ.get("TOOLKIT_MODULES_DIR")
    return Path(env) if env else Path(toolkit.__file__).resolve().parent.parent / "modules"


@dataclass(frozen=True)
class Game:
    """A game's vocabulary, counters and compiled map."""

    spec: GameSpec
    manifest: CounterManifest
    folder: Path

    @cached_property
    def map(self) -> CompiledMap:
        """The compiled map the game is played on."""
        return open_map(self.spec.map)

    @cached_property
    def counters(self) -> dict[str, Counter]:
        """Counters by id."""
        return {c.id: c for c in self.manifest.counters}

    @cached_property
    def markers(self) -> dict[str, Marker]:
        """Markers by id."""
        return {m.id: m for m in self.manifest.markers}

    def turn_index(self, turn: str) -> int:
        """Position of a turn in the game's turn list."""
        return self.spec.turns.index(turn)


def _check_manifest(spec: GameSpec, manifest: CounterManifest, file: str) -> None:
    sides = [s.id for s in spec.sides]
    nationalities = {n.id: n for n in spec.nationalities}
    seen: set[str] = set()
    for i, n in enumerate(spec.nationalities):
        if n.side not in sides:
            raise GameDataError(file.replace("counters.yaml", "game.yaml"), f"nationalities[{i}].side",
                                expected("side", n.side, sides))
    for i, c in enumerate(manifest.counters):
        where = f"counters[{i}]"
        if c.id in seen:
            raise GameDataError(file, f"{where}.id", f"duplicate counter id {c.id!r}; give each counter its own id")
        seen.add(c.id)
        if c.side not in sides:
            raise GameDataError(file, f"{where}.side", expected("side", c.side, sides))
        if c.nationality not in nationalities:
            raise GameDataError(file, f"{where}.nationality", expected("nationality", c.nationality, nationalities))
        if nationalities[c.nationality].side != c.side:
            raise GameDataError(file, f"{where}.nationality",
                                f"nationality {c.nationality!r} belongs to side {nationalities[c.nationality].side!r}, "
                                f"not {c.side!r}")
        if c.type not in spec.unit_types:
            raise GameDataError(file, f"{where}.type", expected("unit type", c.type, spec.unit_types))
    marker_ids = [m.id for m in manifest.markers]
    for i, m in enumerate(marker_ids):
        if m in marker_ids[:i] or m in seen:
            raise GameDataError(file, f"markers[{i}].id", f"duplicate id {m!r}")


@lru_cache(maxsize=8)
def _load(folder: Path) -> Game:
    spec = load_yaml_model(folder / "game.yaml", GameSpec, DOC, GameDataError)
    manifest = load_yaml_model(folder / "counters.yaml", CounterManifest, DOC, GameDataError)
    if manifest.game != spec.id:
        raise GameDataError(str(folder / "counters.yaml"), "game", f"is {manifest.game!r} but game.yaml says {spec.id!r}")
    _check_manifest(spec, manifest, str(folder / "counters.yaml"))
    return Game(spec, manifest, folder)


def load_game(game_id: str) -> Game:
    """The bundled game module ``game_id`` (cached); raises :class:`GameDataError` on bad files."""
    folder = modules_dir() / game_id
    if not (folder / "game.yaml").is_file():
        known = sorted(p.parent.name for p in modules_dir().glob("*/game.yaml"))
        raise GameDataError(str(folder), "", expected("game", game_id, known))
    return _load(folder.resolve())
