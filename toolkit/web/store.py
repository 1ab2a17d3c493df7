"""The viewer's saved games and opened files, kept in a database (``toolkit serve --store``, docs/web.md "Saved
games"): an SQLite file in the user's data folder by default, or PostgreSQL given a ``postgresql://`` URL.

One interface (:class:`Store`: the SQL, the same for both) over two small backends that differ only in how they
connect, their parameter marks, column types and how a game is locked for a write.  Every write is one
transaction: a server killed at any moment (SIGKILL) leaves each game as it was before or after a step, never
half-written.  A file that is not a toolkit store is refused, naming the file and the fix, and never overwritten.

A game keeps its base position (the position file form, ``Position.to_file``), every step made since (its text,
its log entry and the position after it), its cursor ``at`` (undo and redo move it: the steps after it are the
redo branch, cut when another step is made there), a title, when it was made and last played, and one secret
token per side (its seats).  Ids are random (:mod:`secrets`), never sequential, and survive restarts.
"""
from __future__ import annotations

import hashlib
import json
import os
import secrets
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from .queries import WebError

SCHEMA = "toolkit-store 1"   # toolkit_meta's "schema": what this code reads and writes
DATA_FOLDER_VARIABLE = "XDG_DATA_HOME"
STORE_FILE = "games.sqlite"
MEMORY = ":memory:"          # a store that lasts as long as the process (the tests' SourceBook)
BUSY_MS = 10_000             # SQLite: how long a write waits for another process's


class StoreError(WebError):
    """The store cannot be opened or used: its message names the file (or URL) and the fix."""

    status = 500


class Conflict(WebError):
    """A step asked of a position that is no longer the game's current one (another page or seat played)."""

    status = 409


@dataclass(frozen=True)
class GameRow:
    """A saved game: ``at`` is its cursor (steps in effect), ``length`` its steps, redo branch included."""

    id: str
    title: str
    source: str
    game: str
    game_dir: str | None
    base: dict
    created: float
    played: float
    at: int
    length: int
    version: int
    turn: str
    phase: str
    seats: dict[str, str]
    seated: bool

    def entry(self) -> dict[str, Any]:
        """The game in ``/api/games``: no token."""
        return {"id": self.id, "title": self.title, "source": self.source, "game": self.game, "turn": self.turn,
                "phase": self.phase, "at": self.at, "steps": self.length, "created": self.created,
                "last_played": self.played, "seated": self.seated}


@dataclass(frozen=True)
class StepRow:
    """One step of a game: its number ``n`` (1 is the first), ``id`` (a random tag: the position's source id
    changes when a cut redo branch is played again differently), its text, the side that made it, its log entry and
    the position after it."""

    n: int
    id: str
    step: str
    side: str
    log: dict
    position: dict


_TABLES = (
    "CREATE TABLE IF NOT EXISTS toolkit_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS toolkit_files (id TEXT PRIMARY KEY, digest TEXT NOT NULL UNIQUE, name TEXT NOT NULL, "
    "game_dir TEXT, data {blob} NOT NULL, created {real} NOT NULL)",
    "CREATE TABLE IF NOT EXISTS toolkit_games (id TEXT PRIMARY KEY, title TEXT NOT NULL, source TEXT NOT NULL, "
    "game TEXT NOT NULL, game_dir TEXT, base TEXT NOT NULL, created {real} NOT NULL, played {real} NOT NULL, "
    "at INTEGER NOT NULL, length INTEGER NOT NULL, version INTEGER NOT NULL, turn TEXT NOT NULL, "
    "phase TEXT NOT NULL, seats TEXT NOT NULL, seated INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS toolkit_steps (game TEXT NOT NULL, n INTEGER NOT NULL, id TEXT NOT NULL, "
    "step TEXT NOT NULL, side TEXT NOT NULL, log TEXT NOT NULL, position TEXT NOT NULL, PRIMARY KEY (game, n))",
)
_GAME_COLUMNS = ("id, title, source, game, game_dir, base, created, played, at, length, version, turn, phase, seats, "
                 "seated")


def new_id() -> str:
    """A random id (96 bits, URL-safe): nobody guesses another's game from their own."""
    return secrets.token_urlsafe(12)


def tag() -> str:
    """A step's tag: which of the steps ever made at its number it is (a cut redo branch played again
    differently gets new tags, so a position's id never names another position)."""
    return secrets.token_hex(4)


def token() -> str:
    """A seat's secret token (128 bits)."""
    return secrets.token_urlsafe(16)


class Store:
    """Games and files in a database; a backend gives :meth:`_connect`, :attr:`MARK`, :attr:`TYPES` and
    :attr:`FOR_UPDATE`.  Thread-safe: one connection, used under ``lock``."""

    MARK = "?"                       # the parameter mark of the driver
    TYPES = {"blob": "BLOB", "real": "REAL"}
    FOR_UPDATE = ""                  # how a game row is locked for a write (PostgreSQL: FOR UPDATE)
    SETUP_LOCK = ""                  # what serializes two servers creating the tables at once (SQLite: the write
    #                                  transaction itself)

    def __init__(self, where: str) -> None:
        self.where = where
        self.lock = threading.RLock()
        self.conn = self._connect()
        self._setup()
        self._ready()

    # ---------------------------------------------------------------- the backend's part

    def _connect(self):
        raise NotImplementedError

    def _ready(self) -> None:
        """Settings for a store found to be the toolkit's (nothing is changed in a file refused)."""

    @contextmanager
    def transaction(self, write: bool = False) -> Iterator[Any]:
        """A cursor in one transaction (``write``: one that writes, taking the write lock at once): committed at
        the end, rolled back on an error."""
        raise NotImplementedError

    def _foreign_tables(self, cur) -> list[str]:
        """Tables of something else in a database that has no ``toolkit_meta`` (SQLite: a file is one store)."""
        return []

    def _sql(self, text: str) -> str:
        return text.replace("?", self.MARK).format(**self.TYPES)

    def _run(self, cur, text: str, args: tuple = ()) -> Any:
        cur.execute(self._sql(text), args)
        return cur

    # ---------------------------------------------------------------- the schema

    def _setup(self) -> None:
        """Create the tables in an empty database; refuse one whose ``toolkit_meta`` says another schema, or (SQLite)
        a database of something else."""
        with self.transaction(write=True) as cur:
            if self.SETUP_LOCK:
                self._run(cur, self.SETUP_LOCK)
            names = self._tables(cur)
            if "toolkit_meta" not in names:
                foreign = self._foreign_tables(cur)
                if foreign:
                    raise self.refused(f"it is a database of something else (tables {', '.join(foreign[:8])}), "
                                       "not a toolkit store")
                for ddl in _TABLES:
                    self._run(cur, ddl)
                self._run(cur, "INSERT INTO toolkit_meta (key, value) VALUES (?, ?)", ("schema", SCHEMA))
                return
            found = self._run(cur, "SELECT value FROM toolkit_meta WHERE key = ?", ("schema",)).fetchone()
            if found is None or found[0] != SCHEMA:
                raise self.refused(f"its schema is {found[0] if found else 'not written'!r}, not {SCHEMA!r} (another "
                                   "version of the toolkit, or another program)")

    def _tables(self, cur) -> set[str]:
        raise NotImplementedError

    def refused(self, why: str) -> StoreError:
        """The store at :attr:`where` refused: why, and the fix (it is never overwritten)."""
        return StoreError(f"store {_safe_url(self.where)}: {why}; it is left as it is: give another file (or "
                          "PostgreSQL URL) with `toolkit serve --store …`, or move the file away")

    # ---------------------------------------------------------------- files

    def put_file(self, name: str, game_dir: str | None, data: bytes) -> str:
        """Keep a file opened or dropped on the page; the same file (name, game, bytes) keeps its first id."""
        digest = hashlib.sha256(json.dumps([name, game_dir]).encode() + b"\0" + data).hexdigest()
        with self.transaction(write=True) as cur:
            found = self._run(cur, "SELECT id FROM toolkit_files WHERE digest = ?", (digest,)).fetchone()
            if found is not None:
                return found[0]
            fid = new_id()
            self._run(cur, "INSERT INTO toolkit_files (id, digest, name, game_dir, data, created) VALUES "
                           "(?, ?, ?, ?, ?, ?)", (fid, digest, name, game_dir, data, time.time()))
            return fid

    def file(self, fid: str) -> tuple[str, str | None, bytes] | None:
        """``(name, game_dir, bytes)`` of a kept file, or None."""
        with self.transaction() as cur:
            found = self._run(cur, "SELECT name, game_dir, data FROM toolkit_files WHERE id = ?", (fid,)).fetchone()
        return None if found is None else (found[0], found[1], bytes(found[2]))

    # ---------------------------------------------------------------- games

    def new_game(self, title: str, source: str, game: str, game_dir: str | None, base: dict, sides: list[str]) \
            -> GameRow:
        """A new game from ``base`` (a position file's data) with no step yet."""
        now, gid = time.time(), new_id()
        seats = json.dumps({side: token() for side in sides})
        with self.transaction(write=True) as cur:
            self._run(cur, f"INSERT INTO toolkit_games ({_GAME_COLUMNS}) VALUES ({', '.join('?' * 15)})",
                      (gid, title, source, game, game_dir, json.dumps(base), now, now, 0, 0, 0, base["turn"],
                       base["phase"], seats, 0))
        return self.game(gid)

    def game(self, gid: str) -> GameRow | None:
        """A saved game, or None."""
        with self.transaction() as cur:
            found = self._run(cur, f"SELECT {_GAME_COLUMNS} FROM toolkit_games WHERE id = ?", (gid,)).fetchone()
        return None if found is None else _game_row(found)

    def games(self) -> list[GameRow]:
        """Every saved game, the last played first."""
        with self.transaction() as cur:
            rows = self._run(cur, f"SELECT {_GAME_COLUMNS} FROM toolkit_games ORDER BY played DESC").fetchall()
        return [_game_row(r) for r in rows]

    def steps(self, gid: str, upto: int | None = None) -> list[StepRow]:
        """The steps of a game in order (the first ``upto``, by default all: the redo branch too)."""
        with self.transaction() as cur:
            rows = self._run(cur, "SELECT n, id, step, side, log, position FROM toolkit_steps "
                                  "WHERE game = ? AND n <= ? ORDER BY n", (gid, 1 << 30 if upto is None else upto)).fetchall()
        return [StepRow(n, sid, step, side, json.loads(log), json.loads(position))
                for n, sid, step, side, log, position in rows]

    def version(self, gid: str) -> int | None:
        """How many times the game changed (steps made, undone, redone; seats opened), or None."""
        with self.transaction() as cur:
            found = self._run(cur, "SELECT version FROM toolkit_games WHERE id = ?", (gid,)).fetchone()
        return None if found is None else found[0]

    def add_steps(self, gid: str, after: int, made: list[StepRow]) -> None:
        """``made`` (steps ``after + 1`` ...) after step ``after``, in one transaction: the redo branch after it
        is cut and the cursor is the last made; :class:`Conflict` when the game has moved on from ``after`` since."""
        with self.transaction(write=True) as cur:
            at, length = self._locked(cur, gid)
            if at != after:
                raise Conflict(f"game {gid}: its current position is after step {at}, not {after} (another page or "
                               "seat played meanwhile); the page shows it now: make the step again there")
            self._run(cur, "DELETE FROM toolkit_steps WHERE game = ? AND n > ?", (gid, after))
            for s in made:
                self._run(cur, "INSERT INTO toolkit_steps (game, n, id, step, side, log, position) VALUES "
                               "(?, ?, ?, ?, ?, ?, ?)", (gid, s.n, s.id, s.step, s.side, json.dumps(s.log),
                                                         json.dumps(s.position)))
            end = after + len(made)
            self._moved(cur, gid, end, end)

    def set_at(self, gid: str, at: int) -> None:
        """The game's cursor moved to step ``at`` (undo, redo), in one transaction."""
        with self.transaction(write=True) as cur:
            _, length = self._locked(cur, gid)
            self._moved(cur, gid, at, length)

    def set_seated(self, gid: str) -> None:
        """The game opened for two players: from now on each side plays with its seat's token."""
        with self.transaction(write=True) as cur:
            self._locked(cur, gid)
            self._run(cur, "UPDATE toolkit_games SET seated = 1, version = version + 1 WHERE id = ?", (gid,))

    def _locked(self, cur, gid: str) -> tuple[int, int]:
        found = self._run(cur, f"SELECT at, length FROM toolkit_games WHERE id = ?{self.FOR_UPDATE}", (gid,)).fetchone()
        if found is None:
            raise Conflict(f"game {gid}: no such game in store {self.where}")
        return found[0], found[1]

    def _moved(self, cur, gid: str, at: int, length: int) -> None:
        """The cursor at step ``at`` of ``length``: the turn and phase listed are that position's."""
        if at:
            data = self._run(cur, "SELECT position FROM toolkit_steps WHERE game = ? AND n = ?", (gid, at)).fetchone()
        else:
            data = self._run(cur, "SELECT base FROM toolkit_games WHERE id = ?", (gid,)).fetchone()
        position = json.loads(data[0])
        self._run(cur, "UPDATE toolkit_games SET at = ?, length = ?, turn = ?, phase = ?, played = ?, "
                       "version = version + 1 WHERE id = ?",
                  (at, length, position["turn"], position["phase"], time.time(), gid))

    def close(self) -> None:
        """Close the connection."""
        with self.lock:
            self.conn.close()


def _game_row(r) -> GameRow:
    (gid, title, source, game, game_dir, base, created, played, at, length, version, turn, phase, seats,
     seated) = r
    return GameRow(gid, title, source, game, game_dir, json.loads(base), created, played, at, length, version, turn,
                   phase, json.loads(seats), bool(seated))


class SqliteStore(Store):
    """A store in an SQLite file (or in memory: :data:`MEMORY`); WAL journal, each write ``BEGIN IMMEDIATE``."""

    def _connect(self):
        if self.where != MEMORY:
            path = Path(self.where)
            if path.is_dir():
                raise self.refused("it is a folder; give a file (it is made when missing)")
            path.parent.mkdir(parents=True, exist_ok=True)
        return sqlite3.connect(self.where, isolation_level=None, check_same_thread=False, timeout=BUSY_MS / 1e3)

    def _ready(self) -> None:
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")   # WAL: a killed server loses nothing committed

    def _tables(self, cur) -> set[str]:
        try:
            return {r[0] for r in cur.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as err:
            raise self.refused(f"it is not an SQLite database, or it is damaged ({err})") from None

    def _foreign_tables(self, cur) -> list[str]:
        return sorted(self._tables(cur))

    @contextmanager
    def transaction(self, write: bool = False) -> Iterator[Any]:
        with self.lock:
            cur = self.conn.cursor()
            try:
                cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            except sqlite3.DatabaseError as err:
                raise self.refused(f"it is not an SQLite database, or it is damaged ({err})") from None
            try:
                yield cur
            except BaseException:
                self.conn.rollback()
                raise
            else:
                self.conn.commit()
            finally:
                cur.close()


class PostgresStore(Store):
    """A store in a PostgreSQL database (psycopg 3, the ``postgresql`` extra): several servers may share it; a
    game's row is locked (``FOR UPDATE``) while a step is written."""

    MARK = "%s"
    TYPES = {"blob": "BYTEA", "real": "DOUBLE PRECISION"}
    FOR_UPDATE = " FOR UPDATE"
    SETUP_LOCK = "SELECT pg_advisory_xact_lock(7294116)"   # CREATE TABLE IF NOT EXISTS is not safe run at once

    def _connect(self):
        try:
            import psycopg
        except ImportError:
            raise StoreError(f"store {_safe_url(self.where)}: PostgreSQL needs psycopg 3; install it with "
                             "`pip install 'hex-wargame-toolkit[postgresql]'`") from None
        try:
            return psycopg.connect(self.where, autocommit=True)
        except psycopg.Error as err:
            raise StoreError(f"store {_safe_url(self.where)}: cannot connect ({str(err).strip()[:300]}); check the "
                             "URL given to --store (postgresql://USER@HOST/DATABASE) and that the server runs") \
                from None

    def _tables(self, cur) -> set[str]:
        rows = self._run(cur, "SELECT table_name FROM information_schema.tables WHERE table_schema = "
                              "current_schema()").fetchall()
        return {r[0] for r in rows}

    @contextmanager
    def transaction(self, write: bool = False) -> Iterator[Any]:
        with self.lock:
            if self.conn.broken or self.conn.closed:   # the database server restarted: connect again
                self.conn = self._connect()
            with self.conn.transaction(), self.conn.cursor() as cur:
                yield cur


def _safe_url(url: str) -> str:
    """A URL as messages show it: its password left out."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def default_store_path() -> Path:
    """The store file in the user's data folder: ``$XDG_DATA_HOME/toolkit/games.sqlite``, by default
    ``~/.local/share/toolkit/games.sqlite``."""
    base = os.environ.get(DATA_FOLDER_VARIABLE) or str(Path.home() / ".local" / "share")
    return Path(base) / "toolkit" / STORE_FILE


def open_store(where: str | None = None) -> Store:
    """The store ``--store`` names: a ``postgresql://`` (or ``postgres://``) URL, a file path, :data:`MEMORY`;
    by default the file in the user's data folder (:func:`default_store_path`)."""
    if where is None:
        return SqliteStore(str(default_store_path()))
    if where.startswith(("postgresql://", "postgres://")):
        return PostgresStore(where)
    return SqliteStore(where)
