"""A game module on disk (``modules/<game>/``): its spec, counters and map, checked together."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..bundled import bundled_dir
from ..datafile import DataFileError, brief, expected, load_yaml_model, read_yaml, safe_loader
from ..lazy import lazy_module
from ..mapdata import list_maps, open_map

if TYPE_CHECKING:
    from ..mapdata import CompiledMap
    from .rulesdata import RulesData
    from .schema import Counter, CounterManifest, GameSpec, Marker

yaml = lazy_module("yaml")   # only an error's line number needs it (yaml_line)

DOC = "docs/game-files.md"


class GameDataError(DataFileError):
    """A problem in a game module's files or in a position file."""


def modules_dir() -> Path:
    """The directory of bundled game modules (``$TOOLKIT_MODULES_DIR`` if set; see :mod:`toolkit.bundled`)."""
    return bundled_dir("modules", "TOOLKIT_MODULES_DIR")


@dataclass(frozen=True)
class Game:
    """A game's vocabulary, counters and compiled map."""

    spec: GameSpec
    manifest: CounterManifest
    folder: Path

    @property
    def map_file(self) -> str | Path:
        """What :func:`open_map` opens for the game's map (``game.yaml`` ``map``: a bundled map id, or for a game
        folder of the user's a path inside the folder, e.g. ``map.yaml``)."""
        if self.bundled:   # bundled data: a map id (or, for test modules, any path)
            return self.spec.map
        return game_map_path(self.spec.map, self.folder)

    @cached_property
    def map(self) -> CompiledMap:
        """The compiled map the game is played on (:attr:`map_file`)."""
        return open_map(self.map_file)

    @cached_property
    def rules_data(self) -> RulesData | None:
        """The game's ``rules.yaml`` (docs/rules-data.md), checked against its vocabulary, counters and map; None
        when the folder has none."""
        file = self.folder / "rules.yaml"
        if not os.path.lexists(file):
            return None
        from .rulesdata import RulesData, check_rules   # its models are built only for a game with rules.yaml

        try:
            rules = load_yaml_model(file, RulesData, "docs/rules-data.md", GameDataError)
            check_rules(rules, self.spec, self.manifest, self.map, str(file), GameDataError)
        except GameDataError as err:
            raise with_line(err) from None
        return rules

    @cached_property
    def rule_topics(self) -> dict[str, str]:
        """What each rule number the rules cite is about, a few words each: ``rule_topics.yaml`` in the game's
        folder (a mapping of rule number to topic), over those worked out from where ``rules.yaml`` cites each
        rule (:func:`~toolkit.game.rulesdata.cited_topics`); empty when the folder has neither."""
        from .rulesdata import cited_topics

        cited = cited_topics(self.rules_data) if self.rules_data is not None else {}
        file = self.folder / "rule_topics.yaml"
        data = read_yaml(file, GameDataError, optional=True)
        if data is None:
            return cited
        for key, topic in data.items():
            if not isinstance(topic, str):
                raise with_line(GameDataError(str(file), str(key), f"expected a topic (a few words) for rule {key}, "
                                                                    f"got {brief(topic)}; see {DOC}"))
        return {**cited, **{str(k): v for k, v in data.items()}}

    @property
    def bundled(self) -> bool:
        """Whether this is one of the bundled games (``modules/<id>/``), not a folder the user named."""
        return self.folder == (modules_dir() / self.spec.id).resolve()

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
        for key in ("image", "back_image"):
            if getattr(c, key) is not None:
                folder_file(Path(file).parent, getattr(c, key), file, f"{where}.{key}", "counter image",
                            f"`{key}: images/{c.id}.png`")
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
    _check_counter_factors(spec, manifest, file.replace("counters.yaml", "game.yaml"))
    marker_ids = [m.id for m in manifest.markers]
    for i, m in enumerate(marker_ids):
        if m in marker_ids[:i] or m in seen:
            raise GameDataError(file, f"markers[{i}].id", f"duplicate id {m!r}")


def _check_counter_factors(spec: GameSpec, manifest: CounterManifest, file: str) -> None:
    """Refuse a ``counter_factors`` key no counter has among its values (a misspelt key prints nothing)."""
    keys = {k for c in manifest.counters for k in (*c.values, *(c.back or {}))}
    for i, key in enumerate(spec.counter_factors):
        if key not in keys:
            raise GameDataError(file, f"counter_factors[{i}]",
                                f"{key!r} is not among any counter's values in counters.yaml "
                                f"({', '.join(sorted(keys)) or 'none'}); fix the spelling here or give the "
                                f"counters a `{key}` value")


_KEY = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def yaml_line(file: str | Path, key_path: str, raw: bytes | None = None) -> int | None:
    """The line (1-based) of a key path such as ``counters[3].values`` in a YAML file (or in its bytes ``raw``,
    when given: an upload is never looked up on disk by its name), or None.

    Used on the error path only, on a file that has already passed the data-file limits (``toolkit.datafile``):
    the document is composed (aliases are not expanded) and walked along the path, one step per key.
    """
    try:
        if raw is None:
            with open(file, "rb") as f:
                raw = f.read()
        node = yaml.compose(raw, Loader=safe_loader())
    except (OSError, yaml.YAMLError, RecursionError):
        return None
    line = None
    for name, index in _KEY.findall(key_path):
        if node is None:
            return line
        if index and isinstance(node, yaml.SequenceNode) and int(index) < len(node.value):
            node = node.value[int(index)]
        elif name and isinstance(node, yaml.MappingNode):
            hit = next(((k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == name), None)
            if hit is None:
                return line
            line = hit[0].start_mark.line + 1
            node = hit[1]
            continue
        else:
            return line
        line = node.start_mark.line + 1
    return line


def with_line(err: GameDataError, raw: bytes | None = None) -> GameDataError:
    """``err`` with the line of its key path in its file (or in the file's bytes ``raw``) added at the end
    (``file: key: problem (line N)``: the ``file: key: `` start stays as it was), when found."""
    if not err.path or err.path.startswith("line ") or err.problem.endswith(")") and " (line " in err.problem \
            or not err.file.endswith((".yaml", ".yml")):
        return err
    line = yaml_line(err.file, err.path, raw)
    if line is None:
        return err
    return GameDataError(err.file, err.path, f"{err.problem} (line {line})", err.details)


#: ``game.yaml`` ``map`` values read as a path (relative to the game folder) rather than a bundled map id.
def _is_path(value: str) -> bool:
    return "/" in value or "\\" in value or value.endswith((".yaml", ".yml"))


def game_map_path(value: str, folder: Path) -> str | Path:
    """What ``open_map`` opens for ``game.yaml``'s ``map``: a bundled map id as it is, or a path (anything with
    a ``/`` or ending ``.yaml``) relative to the game folder, which must stay inside the folder."""
    file = str(folder / "game.yaml")
    if not _is_path(value):
        if value not in {i for i, _, _ in list_maps()}:
            raise with_line(GameDataError(file, "map", f"{value!r} is not a bundled map id (one of: "
                                          f"{', '.join(i for i, _, _ in list_maps())}); for your own map give its "
                                          "path relative to the game folder, e.g. `map: map.yaml`"))
        return value
    try:
        return folder_file(folder, value, file, "map", "map file", "`map: map.yaml`", "or a bundled map id")
    except GameDataError as err:
        raise with_line(err) from None


def folder_file(folder: Path, value: str, file: str, key: str, what: str, example: str, other: str = "") -> Path:
    """The file ``value`` names relative to the game ``folder`` (``key`` of ``file``), which must be in the folder:
    refused, naming the key and the fix, when it leads out of the folder or is not there."""
    path = (folder / value).resolve()
    if not path.is_relative_to(folder.resolve()):
        raise GameDataError(file, key, f"{value!r} leads out of the game folder {str(folder)!r}; keep the {what} "
                                       f"inside it (e.g. {example})")
    if not path.is_file():
        raise GameDataError(file, key, f"no {what} {value!r} in the game folder {str(folder)!r}; give a {what}'s "
                                       f"path relative to the folder (e.g. {example}){' ' + other if other else ''}")
    return path


def _stamp(folder: Path) -> tuple:
    """The size and modification time of a game folder's files (its map as `toolkit new` names it, too): a
    user's game is reloaded when they change."""
    out = []
    for name in ("game.yaml", "counters.yaml", "rules.yaml", "map.yaml"):
        try:
            st = (folder / name).stat()
            out.append((st.st_size, st.st_mtime_ns))
        except OSError:
            out.append(None)
    return tuple(out)


@lru_cache(maxsize=8)
def _load(folder: Path, stamp: tuple | None = None) -> Game:
    from .schema import CounterManifest, GameSpec   # the game's models, built when a game is loaded

    try:
        spec = load_yaml_model(folder / "game.yaml", GameSpec, DOC, GameDataError)
        manifest = load_yaml_model(folder / "counters.yaml", CounterManifest, DOC, GameDataError)
        if manifest.game != spec.id:
            raise GameDataError(str(folder / "counters.yaml"), "game",
                                f"is {manifest.game!r} but game.yaml says {spec.id!r}")
        _check_manifest(spec, manifest, str(folder / "counters.yaml"))
    except GameDataError as err:
        raise with_line(err) from None
    return Game(spec, manifest, folder)


def _bundled_ids() -> list[str]:
    return sorted(p.parent.name for p in modules_dir().glob("*/game.yaml"))


def load_bundled_game(game_id: str) -> Game:
    """The bundled game ``game_id`` only (never a folder: for ids read from files)."""
    bundled = modules_dir() / game_id
    if not (_GAME_ID.fullmatch(game_id) and (bundled / "game.yaml").is_file()):
        raise GameDataError(str(bundled), "", expected("game", game_id, _bundled_ids()))
    return _load(bundled.resolve())


def load_game(game: str | os.PathLike[str]) -> Game:
    """A game (cached): a bundled game id (``jerusalem-1948``), or the path of a game folder the *user* named
    (``./my-game``, or its ``game.yaml``) -- never a path read from inside a file (issue 11: positions name
    bundled ids only).  A bundled id wins over a folder of the same name (write ``./NAME`` for the folder).
    Raises :class:`GameDataError` naming the file, line and key."""
    text = os.fspath(game)
    bundled = modules_dir() / text
    if _GAME_ID.fullmatch(text) and (bundled / "game.yaml").is_file():
        return _load(bundled.resolve())
    path = Path(text)
    if path.name == "game.yaml" and path.is_file():
        path = path.parent
    if not path.is_dir():
        if _GAME_ID.fullmatch(text):
            raise GameDataError(text, "", expected("game", text, _bundled_ids()) + " (or the path of a game folder)")
        raise GameDataError(text, "", "no such game folder; give a folder holding game.yaml and counters.yaml "
                                      "(`toolkit new GAME_DIR` writes one) or a bundled game id: "
                                      + ", ".join(_bundled_ids()))
    if not (path / "game.yaml").is_file():
        raise GameDataError(str(path / "game.yaml"), "", "missing: a game folder holds game.yaml and counters.yaml "
                                                         "(`toolkit new GAME_DIR` writes one)")
    loaded = _load(path.resolve(), _stamp(path))
    if loaded.spec.id in _bundled_ids() and not loaded.bundled:
        raise with_line(GameDataError(str(path / "game.yaml"), "id",
                                      f"{loaded.spec.id!r} is a bundled game's id; give your game its own id "
                                      "(the rules assistants and saves know games by id)"))
    return loaded


#: A bundled game id (a position's ``game``; never a path).
_GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


def is_game_folder(text: str) -> bool:
    """Whether the user's argument names a game folder (a folder holding ``game.yaml``)."""
    return os.path.isfile(os.path.join(text, "game.yaml"))


def user_map_file(text: str) -> str | Path:
    """What the user's MAP argument names, as :func:`open_map` opens it: a bundled map id, a map file, a game
    folder's map (its ``game.yaml`` ``map``), or a folder's ``map.yaml``.  A bundled id wins over a folder of the
    same name (``./NAME`` names the folder)."""
    if text in {m for m, _, _ in list_maps()}:
        return text
    if is_game_folder(text):
        return load_game(text).map_file
    folder_map = os.path.join(text, "map.yaml")
    return folder_map if os.path.isdir(text) and os.path.isfile(folder_map) else text


def open_user_map(text: str) -> CompiledMap:
    """The map the user names on the command line (:func:`user_map_file`), compiled."""
    return open_map(user_map_file(text))
