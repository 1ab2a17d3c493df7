"""What the viewer can show: bundled maps, bundled positions, files the user opened or uploaded, and the
positions of the games played (kept in the store, :mod:`.store`).

A source is looked up by its id only (``map:<id>``, ``bundled:<game>/<file>``, ``upload:<id>``,
``play:<game>/<step>.<tag>``): the ids of bundled data come from listing the bundled folders, those of files and games
are random ids of the store, so no request ever names a file.  Each source is opened once (maps compiled once,
through the compiled-map cache) and keeps its answers that take time (reach, ZOC) in memory; a file or a game's
position is read again from the store when it was dropped from memory (or the server restarted).  Uploads are
untrusted: at most :data:`MAX_UPLOAD_BYTES`, a ``.vsav`` read through the untrusted-archive guards, YAML through
the safe loader with its limits -- from the bytes, kept in the store, never written as a file.
"""
from __future__ import annotations

import os
import re
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterator
from urllib.parse import unquote

from ..datafile import parse_yaml, read_regular
from ..game import GameDataError, Position, modules_dir
from ..game.module import Game, load_bundled_game, load_game, open_user_map
from ..game.position import PositionFile, position_from_file
from ..games import game_position_from_save, game_position_from_yaml, load_position_or_save
from ..mapdata import CompiledMap, list_maps, open_map
from .queries import NotFound, TooLarge, WebError
from .store import MEMORY, GameRow, SqliteStore, StepRow, Store, tag
from .workers import POLL_SECONDS, Unavailable, Workers

MAX_UPLOAD_BYTES = 5 << 20   # an uploaded position or save
MAX_UPLOADS = 16             # uploads kept in memory (the oldest is dropped first; the store keeps them all)
UPLOADS_AT_ONCE = 1          # uploads read at a time: reading is the interpreter's work, two at once go no faster
UPLOAD_WAIT_SECONDS = 120    # ... the others wait for their turn, at most this long
MAX_POSITION_UNITS = 10_000  # units of a position the viewer opens
MAX_PLAYED = 256             # played positions kept in memory (the oldest is dropped first; the store keeps them all)
KEPT_MB = 64                 # unit clicks' answers kept, encoded (the least recently asked dropped first) ...
KEPT_MB_VARIABLE = "TOOLKIT_KEPT_MB"   # ... or as many megabytes as this says; 0: every click computed
POSITION_FOLDERS = ("scenarios", "examples")
_PLAYED_ID = re.compile(r"play:([A-Za-z0-9_-]{1,40})/(0|[1-9][0-9]{0,5})(?:\.([0-9a-f]{1,16}))?")
_UNSAFE_NAME = re.compile(r"[\x00-\x1f\x7f/\\:]")


@dataclass
class Source:
    """One thing the page can show: a map, or a position on its game's map."""

    id: str
    title: str
    map_id: str
    game: str | None = None
    open_map: Callable[[], CompiledMap] | None = None                 # a map source
    open_position: Callable[[], tuple[Position, list]] | None = None   # a position source
    answers: dict[Any, Any] = field(default_factory=dict)   # answers kept: (endpoint, parameters) -> JSON
    base: str | None = None          # a played position: the source its steps start from (``/api/play``)
    steps: tuple[str, ...] = ()      # ... the steps made since, and their log entries
    log: tuple[dict, ...] = ()
    table: tuple[str, int] | None = None   # ... its game in the store and its step there (0: the game's base)

    @property
    def kind(self) -> str:
        """``map`` or ``position``."""
        return "map" if self.open_position is None else "position"

    def entry(self) -> dict[str, Any]:
        """``{"id", "kind", "title", "map", "game"}``: the source in the listing (a bundled position is listed
        without being opened)."""
        return {"id": self.id, "kind": self.kind, "title": self.title, "map": self.map_id, "game": self.game}

    def remember(self, key: Any, compute: Callable[[], Any]) -> Any:
        """The answer kept under ``key``, computed the first time."""
        if key not in self.answers:
            self.answers[key] = compute()
        return self.answers[key]

    @property
    def map(self) -> CompiledMap:
        """The compiled map (compiled or loaded once): the map's, or the position's game's."""
        if self.open_position is not None:
            return self.position.game.map
        return self.remember("map", self.open_map)

    @property
    def opened(self) -> tuple[Position, list]:
        """The position and the save's pieces it could not place (opened once)."""
        if self.open_position is None:
            raise WebError(f"source {self.id!r} is a map, not a position; give a position's id (kind 'position' in "
                           "/api/sources) or open a position file")
        return self.remember("position", self.open_position)

    @property
    def position(self) -> Position:
        """The position (:class:`WebError` for a map source)."""
        return self.opened[0]


class SourceBook:
    """Every source by id: the bundled ones (listed once), the user's own game (``game``: ``toolkit serve --game
    DIR``, its map and scenarios; files opened or uploaded are then read as that game's, as the CLI's ``--game``
    does), those the user opened and the games played, kept in ``store`` (by default one in memory: ``toolkit
    serve`` gives the user's file, :func:`.store.open_store`); ``seats_only``: a game is changed only from its
    seats (a server for other machines, :mod:`.seats`); ``lock`` serialises the calculators."""

    def __init__(self, game: str | None = None, store: Store | None = None, seats_only: bool = False) -> None:
        self.lock = threading.RLock()
        self.store = store or SqliteStore(MEMORY)
        self.seats_only = seats_only
        self.workers = Workers()
        self.upload_slots = threading.BoundedSemaphore(UPLOADS_AT_ONCE)
        self.current: str | None = None
        self.game = game
        self.maps = {map_id: Source(f"map:{map_id}", title, map_id, open_map=_bundled_map(map_id))
                     for map_id, title, _ in list_maps()}
        self.sources: dict[str, Source] = {s.id: s for s in self.maps.values()}
        self.bundled_files: dict[Path, str] = {}
        for game_yaml in sorted(modules_dir().glob("*/game.yaml")):
            self._add_scenarios(load_bundled_game(game_yaml.parent.name), "bundled")
        if game is not None:
            own = load_game(game)
            if not own.folder.resolve().is_relative_to(modules_dir().resolve()):
                self._add_map(own.map)
                self._add_scenarios(own, "game", game)
        self.uploads: OrderedDict[str, Source] = OrderedDict()   # the files opened lately, by id
        self.played: OrderedDict[str, Source] = OrderedDict()    # the games' positions asked lately, by id
        self.pictures: dict[tuple, Any] = {}   # per compiled map: its SVG and geometry
        self.kept = KeptAnswers(kept_bytes())   # (source id, endpoint, parameters) -> the encoded answer
        self.prepared: set[str] = set()   # position sources whose unit clicks were answered ahead (app.prepare_clicks)
        self.warmed: set[tuple] = set()   # (game, map, source hash) worked out in the server (app.warm_up)

    def _add_map(self, cmap: CompiledMap) -> Source:
        """A map the user named (a map file, a game folder's map), listed under its id unless a bundled map has it."""
        source = self.maps.get(cmap.id)
        if source is None or source.map.source_hash != cmap.source_hash:
            sid = f"map:{cmap.id}" if cmap.id not in self.maps else f"file:{cmap.id}"
            source = Source(sid, cmap.title or cmap.id, cmap.id, open_map=lambda: cmap)
            self.maps.setdefault(cmap.id, source)
            self.sources[sid] = source
        return source

    def _add_scenarios(self, game: Game, prefix: str, game_arg: str | None = None) -> None:
        """The position files of a game folder's ``scenarios/`` and ``examples/``, listed without being opened."""
        for folder in POSITION_FOLDERS:
            for path in sorted((game.folder / folder).glob("*.yaml")):
                sid = f"{prefix}:{game.spec.id}/{path.name}"
                self.sources[sid] = Source(sid, f"{game.spec.title}: {path.stem}", game.map.id, game.spec.id,
                                           open_position=_file_position(str(path), game_arg))
                self.bundled_files[path.resolve()] = sid

    def per_map(self, cmap: CompiledMap, what: str, compute: Callable[[], Any]) -> Any:
        """What is drawn or measured once per compiled map (``map.svg``, ``geometry``), shared by its sources."""
        key = (cmap.id, cmap.source_hash, what)
        if key not in self.pictures:
            self.pictures[key] = compute()
        return self.pictures[key]

    def get(self, source_id: str) -> Source:
        """The source of an id (a file or a game's position read again from the store when it is not in memory);
        :class:`NotFound` lists where the ids are."""
        found = self.sources.get(source_id) or _recent(self.uploads, source_id) or _recent(self.played, source_id)
        if found is None and source_id.startswith("upload:"):
            found = self._stored_file(source_id)
        elif found is None and source_id.startswith("play:"):
            found = self._stored_position(source_id)
        if found is None:
            raise NotFound(f"source {source_id[:80]!r}: no such source; give an id from /api/sources or "
                           "/api/games (or open a file)")
        return found

    def map_source(self, map_id: str) -> Source:
        """The source of a bundled map id; :class:`NotFound` lists the ids."""
        if map_id not in self.maps:
            raise NotFound(f"map {map_id[:80]!r}: not a bundled map; give one of: {', '.join(self.maps)}")
        return self.maps[map_id]

    def listing(self) -> dict[str, Any]:
        """``{"sources": [{"id", "kind", "title", "map", "game"}], "current"}``."""
        return {"sources": [s.entry() for s in [*self.sources.values(), *self.uploads.values()]],
                "current": self.current}

    def open_command_line(self, text: str) -> Source:
        """What ``toolkit serve`` was given: a bundled map id, a game folder (its first scenario, else its map), a
        map file (its map), or a position file or save (a listed position file is its source); it becomes
        ``current``."""
        first = self.first_scenario(text)
        if text in self.maps:
            source = self.maps[text]
        elif first is not None:
            source = first
        elif Path(text).resolve() in self.bundled_files:
            source = self.sources[self.bundled_files[Path(text).resolve()]]
        elif os.path.isdir(text) or _is_map_file(text):
            source = self._add_map(open_user_map(text))
        else:   # opened now: a bad file is refused on the command line, not later in the page
            opened = load_position_or_save(text, self.game)
            source = self._add(os.path.basename(text), opened, Path(text).read_bytes())
        self.current = source.id
        return source

    def first_scenario(self, text: str) -> Source | None:
        """The first position listed of the game folder ``text`` (its ``scenarios/`` before its ``examples/``),
        or None when ``text`` is no such folder or it has none."""
        if not os.path.isdir(text):
            return None
        folders = [(Path(text) / folder).resolve() for folder in POSITION_FOLDERS]
        listed = sorted((folders.index(path.parent), path.name, sid) for path, sid in self.bundled_files.items()
                        if path.parent in folders)
        return self.sources[listed[0][2]] if listed else None

    def upload(self, raw: bytes, filename: str | None) -> Source:
        """A file the user dropped on the page: ``filename`` (header ``X-Filename``) only chooses the format and
        names it in messages; it is never a path."""
        if len(raw) > MAX_UPLOAD_BYTES:
            raise too_large(len(raw))
        name = upload_name(filename)
        with self.reading(name):
            opened = _read_upload(raw, name, self.game)
        return self._add(name, opened, raw)

    @contextmanager
    def reading(self, name: str) -> Iterator[None]:
        """A turn to read an upload: at most :data:`UPLOADS_AT_ONCE` are read together (each may take a few
        hundred MB, and each shares the interpreter with the other requests, which wait the less the fewer are
        read at once); the others wait for their turn (:class:`~.workers.Unavailable` after
        :data:`UPLOAD_WAIT_SECONDS`, or when the server is stopping)."""
        deadline = time.monotonic() + UPLOAD_WAIT_SECONDS
        while not self.upload_slots.acquire(timeout=POLL_SECONDS):
            if self.workers.stopped or time.monotonic() >= deadline:
                raise Unavailable(f"{name}: not read: the viewer was reading other uploads for "
                                  f"{UPLOAD_WAIT_SECONDS} s (or is stopping); send it again in a moment")
        try:
            yield
        finally:
            self.upload_slots.release()

    def _add(self, title: str, opened: tuple[Position, list], raw: bytes) -> Source:
        units = len(opened[0].units)
        if units > MAX_POSITION_UNITS:
            raise TooLarge(f"{title}: {units:,} units, over the viewer's limit of {MAX_POSITION_UNITS:,} units a "
                           "position (docs/web.md); check it with `toolkit check` instead")
        with self.lock:
            sid = f"upload:{self.store.put_file(title, _stable(self.game), raw)}"
            return self._keep(sid, title, opened)

    def _keep(self, sid: str, title: str, opened: tuple[Position, list]) -> Source:
        """An opened file in memory (the last :data:`MAX_UPLOADS`; the store keeps them all)."""
        game = opened[0].game
        source = self.uploads.get(sid) or Source(sid, title, game.map.id, game.spec.id, open_position=lambda: opened)
        self.uploads[sid] = source
        self.uploads.move_to_end(sid)
        _forget_oldest(self, self.uploads, MAX_UPLOADS)
        return source

    def _stored_file(self, sid: str) -> Source | None:
        """A file opened before (maybe by a server since stopped), read again from the store, or None."""
        found = self.store.file(sid.removeprefix("upload:"))
        if found is None:
            return None
        name, game, raw = found
        return self._keep(sid, name, _read_upload(raw, name, game))

    # ---------------------------------------------------------------- games

    def start_game(self, source: Source) -> tuple[GameRow, int]:
        """The game ``source`` is a position of, and its step there; a new game from it when it is none's."""
        if source.table is not None:
            gid, n = source.table
            return self.game_row(gid), n
        position = source.position
        spec = position.game.spec
        row = self.store.new_game(source.title, source.id, spec.id, _own_folder(position.game), _file_data(position),
                                  [s.id for s in spec.sides])
        return row, 0

    def game_row(self, gid: str) -> GameRow:
        """A saved game; :class:`NotFound` says where the ids are."""
        row = self.store.game(gid)
        if row is None:
            raise NotFound(f"game {gid[:80]!r}: no such game in the store; give an id from /api/games")
        return row

    def keep_played(self, source: Source, position: Position, made: list[tuple[dict, dict, dict]],
                    allowed: Callable[[GameRow, list[StepRow]], None] = lambda row, steps: None) -> Source:
        """``source`` (``position``) after steps (``made`` by :func:`.play.played_states`: each step's state, log
        entry and position file), written to its game in the store (a new game when ``source`` is none's) once
        ``allowed(game, steps)`` has not refused them: the new position's source, ``play:<game>/<step>.<tag>``."""
        row, after = self.start_game(source)
        steps, side = [], position.phasing_side
        for i, (state, entry, data) in enumerate(made):
            steps.append(StepRow(after + i + 1, tag(), entry["step"], side, entry, data))
            side = state["phasing_side"]
        allowed(row, steps)
        last = replace(position, **made[-1][0])
        self.store.add_steps(row.id, after, steps)
        for cut in [sid for sid, s in self.played.items() if s.table and s.table[0] == row.id and s.table[1] > after]:
            del self.played[cut]   # the redo branch cut: its positions are no longer the game's
        return self._remember(Source(played_id(row.id, steps[-1]), row.title, source.map_id, source.game,
                                     open_position=lambda: (last, []), base=row.source,
                                     steps=(*source.steps, *(s.step for s in steps)),
                                     log=(*source.log, *(s.log for s in steps)), table=(row.id, steps[-1].n)))

    def replayed(self, source: Source, texts: list[str]) -> Source | None:
        """The position after ``texts`` when the game of ``source`` already has them next (a double click, a step
        asked twice, a step of the redo branch made again: then the cursor moves there, as a redo), else None."""
        if source.table is None:
            return None
        gid, n = source.table
        steps = self.store.steps(gid)
        if [s.step for s in steps[n:n + len(texts)]] != list(texts):
            return None
        row = self.game_row(gid)
        if row.at == n:
            self.store.set_at(gid, n + len(texts))
        return self.game_position(row, n + len(texts), steps)

    def game_position(self, row: GameRow, n: int, steps: list[StepRow] | None = None) -> Source:
        """The source of step ``n`` of a saved game (0: its base)."""
        steps = self.store.steps(row.id, n) if steps is None else steps[:n]
        sid = f"play:{row.id}/0" if n == 0 else played_id(row.id, steps[n - 1])
        return self.played.get(sid) or self._remember(self._position_of(row, steps, sid))

    def _stored_position(self, sid: str) -> Source | None:
        """A game's position named by its id (``play:<game>/<step>.<tag>``), read from the store, or None."""
        parts = _PLAYED_ID.fullmatch(sid)
        row = parts and self.store.game(parts[1])
        if not row:
            return None
        n = int(parts[2])
        steps = self.store.steps(row.id, n)
        if n > len(steps) or (n and steps[n - 1].id != parts[3]) or (n == 0 and parts[3]):
            raise NotFound(f"source {sid[:80]!r}: game {row.id} no longer has this position (it was undone and "
                           f"other steps made there); open the game as it is now: /?game={row.id}")
        return self._remember(self._position_of(row, steps, sid))

    def _position_of(self, row: GameRow, steps: list[StepRow], sid: str) -> Source:
        """The source ``sid`` of a game's position after ``steps``, rebuilt from the position file kept."""
        data = steps[-1].position if steps else row.base
        try:
            game = None if row.game_dir is None else load_game(row.game_dir)
            position = position_from_file(PositionFile.model_validate(data), row.title, game)
        except (GameDataError, OSError, ValueError) as err:
            raise WebError(f"game {row.id}: its position cannot be read again ({err}); was it played with a game "
                           "folder that has changed or moved? serve with --game at that folder") from None
        return Source(sid, row.title, position.game.map.id, row.game, open_position=lambda: (position, []),
                      base=row.source, steps=tuple(s.step for s in steps), log=tuple(s.log for s in steps),
                      table=(row.id, len(steps)))

    def _remember(self, source: Source) -> Source:
        """A game's position in memory (the last :data:`MAX_PLAYED` asked; the store keeps them all)."""
        self.played[source.id] = source
        self.played.move_to_end(source.id)
        _forget_oldest(self, self.played, MAX_PLAYED)
        return source


def _recent(kept: OrderedDict[str, Source], sid: str) -> Source | None:
    """A source kept in memory, now the most recently asked, or None."""
    found = kept.get(sid)
    if found is not None:
        kept.move_to_end(sid)
    return found


def _forget_oldest(book: SourceBook, kept: OrderedDict[str, Source], limit: int) -> None:
    """Drop the least recently asked sources over ``limit`` from memory (never the one the command line opened)."""
    while len(kept) > limit:
        oldest = next(k for k in kept if k != book.current)
        del kept[oldest]
        book.prepared.discard(oldest)


def played_id(gid: str, step: StepRow) -> str:
    """The source id of the position after ``step`` of game ``gid``."""
    return f"play:{gid}/{step.n}.{step.id}"


def _file_data(position: Position) -> dict:
    """A position as the store keeps it: its position file's data."""
    return position.to_file().model_dump(mode="json", exclude_defaults=True)


def _own_folder(game: Game) -> str | None:
    """The folder of the user's own game (to read its positions again), None for a bundled game."""
    folder = game.folder.resolve()
    return None if folder.is_relative_to(modules_dir().resolve()) else str(folder)


def _stable(game: str | None) -> str | None:
    """``--game`` as the store keeps it: a folder as an absolute path (a later server may start elsewhere)."""
    return str(Path(game).resolve()) if game is not None and os.path.isdir(game) else game


def _read_upload(raw: bytes, name: str, game: str | None) -> tuple[Position, list]:
    """An uploaded file's position (and a save's pieces it could not place), read as ``game``'s when given."""
    if name.lower().endswith(".vsav"):
        return game_position_from_save(raw, name, game)
    return game_position_from_yaml(raw, name, game), []


class KeptAnswers:
    """Encoded answers by key, the least recently asked dropped first once they weigh over ``limit`` bytes.

    A source's position never changes (a move makes a new source), so an answer kept under its source id and
    parameters stays right: a unit clicked again is answered without searching again.

    >>> kept = KeptAnswers(10)
    >>> kept.put("a", b"123456"), kept.put("b", b"7890"), kept.find("a"), kept.find("z")
    (b'123456', b'7890', b'123456', None)
    >>> kept.put("c", b"xyz"), list(kept.answers)   # 13 bytes: "b", the least recently asked, goes
    (b'xyz', ['a', 'c'])
    """

    def __init__(self, limit: int) -> None:
        self.limit, self.size = limit, 0
        self.answers: OrderedDict[Any, bytes] = OrderedDict()

    def find(self, key: Any) -> bytes | None:
        """The answer kept under ``key`` (now the most recently asked), or None."""
        found = self.answers.get(key)
        if found is not None:
            self.answers.move_to_end(key)
        return found

    def put(self, key: Any, answer: bytes) -> bytes:
        """Keep ``answer`` under ``key`` (the answer computed ahead of the question, or again)."""
        self.size += len(answer) - len(self.answers.pop(key, b""))
        self.answers[key] = answer
        while self.size > self.limit and self.answers:
            _, dropped = self.answers.popitem(last=False)
            self.size -= len(dropped)
        return answer

    def clear(self) -> None:
        """Forget every answer (the benchmark's first clicks)."""
        self.answers.clear()
        self.size = 0


def kept_bytes() -> int:
    """The bytes of answers kept: :data:`KEPT_MB` megabytes, or the whole number ``TOOLKIT_KEPT_MB`` says."""
    text = os.environ.get(KEPT_MB_VARIABLE, "").strip()
    if not text:
        return KEPT_MB << 20
    if not text.isdigit():
        raise ValueError(f"{KEPT_MB_VARIABLE}={text[:40]!r}: give a whole number of megabytes (0: keep no answers)")
    return int(text) << 20


def too_large(size: int | None = None) -> TooLarge:
    """The refusal of an upload over :data:`MAX_UPLOAD_BYTES` (of ``size`` bytes, when known)."""
    return TooLarge(f"the file is {'' if size is None else f'{size} bytes, '}over the limit of {MAX_UPLOAD_BYTES} "
                    "bytes for an upload; open a smaller position or save")


def upload_name(filename: str | None) -> str:
    """The name an upload is shown by: ``X-Filename`` percent-decoded (a header carries no other non-ASCII
    name: ``encodeURIComponent`` in the page), its last part with control characters, slashes and colons replaced;
    it must end in ``.yaml``, ``.yml`` or ``.vsav`` (the format)."""
    if not filename:
        raise WebError("header X-Filename is missing: send the file's name (ending .yaml, .yml or .vsav) with it")
    name = _UNSAFE_NAME.sub("_", re.split(r"[/\\]", unquote(filename))[-1])[:120] or "_"
    if not name.lower().endswith((".yaml", ".yml", ".vsav")):
        raise WebError(f"X-Filename {name!r}: open a position file (.yaml or .yml) or a VASSAL save (.vsav)")
    return name


def _bundled_map(map_id: str) -> Callable[[], CompiledMap]:
    return lambda: open_map(map_id)


def _file_position(path: str, game: str | None = None) -> Callable[[], tuple[Position, list]]:
    return lambda: load_position_or_save(path, game)


def _is_map_file(path: str) -> bool:
    """A YAML file with a ``grid``: a map file, not a position (the user's file, read with the safe loader)."""
    if not path.lower().endswith((".yaml", ".yml")) or not os.path.isfile(path):
        return False
    data = parse_yaml(read_regular(path, path, GameDataError), path, GameDataError)
    return isinstance(data, dict) and "grid" in data and "units" not in data
