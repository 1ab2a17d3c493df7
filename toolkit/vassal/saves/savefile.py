"""VASSAL saved games (``.vsav``): read any save, map it to a position, and write a position as a save.

A ``.vsav`` is a zip with ``savedGame`` (the command string, obfuscated as
``!VCSK`` + key + hex bytes XOR key), ``savedata`` and ``moduledata`` (small
XML documents).  The command string is ESC-separated commands:
``begin_save``, AddPiece commands (``+/id/type/state``, see
:mod:`toolkit.vassal.engine.pieces`), ``<map>BoardPicker TAB board TAB col TAB row``,
other components' commands, ``end_save`` (tests/engine/README.md).

* :func:`read_save` → :class:`SaveContents` (every piece with its map and map
  coordinates, stacks, board placements), archive and XML read through
  :mod:`toolkit.vassal.engine.safezip` (untrusted input).
* :func:`save_to_position` → a :class:`~toolkit.game.PositionFile` and the
  pieces it could not place (listed, never dropped).
* :func:`position_to_save` / :func:`write_save` → a deterministic ``.vsav``.

Map coordinates are board pixels plus the board's offset in the map: the map's
edge buffer (``edgeWidth``, ``edgeHeight``) plus the widths of the boards left
of it in its row and the heights of the boards above it in its column
(``Map.setBoardBoundaries``/``Map.getLocation``).

A save from a stranger gets bounded work (:class:`SaveLimits`, the same
approach as :class:`toolkit.vassal.saves.logfile.LogLimits`): the de-obfuscated text
is at most 8 MiB (so a file over 64 KB never decodes to more than 128 times
its size), nesting, leaf commands, one command's size, pieces, trait levels,
board placements and their slots are capped, each refusal a
:class:`SaveError` naming the file and the limit.  Counts read from the file
(a piece's property count, a board's column) are bounded by what the file
actually holds.  A save with no game state (no ``begin_save`` and no pieces:
junk, or a wrong obfuscation key) is an error, not an empty position.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Callable, Mapping, Protocol

from ...fileio import write_atomic
from ...game import Game, Position, PositionFile, position_from_file
from ...game.position import MarkerAt, Unit
from ...game.schema import Counter, GameSpec, MarkerPlacement, UnitPlacement
from ...hexgrid import HexNameError
from ..engine.pieces import (SavePiece, SaveStack, TraitLimitError, basic_state, basic_type, encode_add_piece,
                             encode_stack, fast_decode, java_int, marker_trait, parse_add_piece, parse_stack)
from ..engine.safezip import ArchiveError, open_archive, xml_fields
from ..engine.seqenc import encode

if TYPE_CHECKING:   # annotations only: the board's module loads PIL and the renderer (issue 31: start-up)
    from ..design.board import BoardLayout

__all__ = ["ESC", "BoardPlacement", "SaveContents", "SaveError", "SaveLimits", "Unplaced", "check_game_state", "deobfuscate", "obfuscate",
           "parse_saved_game", "read_save", "save_to_position", "SaveLayout", "SimpleLayout", "encode_save",
           "encode_position", "position_to_save", "write_save", "POSITION_TAG", "ArchiveError"]

ESC = "\x1b"
HEADER = b"!VCSK"
POSITION_TAG = "toolkit-position "  # savedata <description> prefix carrying turn/phase/side/params
MAX_SAVED_GAME_BYTES = 8 << 20  # the de-obfuscated command string of a save (or a log)


class SaveError(ValueError):
    """A saved game that cannot be read (names the file and the problem)."""


@dataclass(frozen=True)
class SaveLimits:
    """Bounds on what a (possibly hostile) save may hold; the defaults are far above any real game."""

    max_chars: int = MAX_SAVED_GAME_BYTES     # the de-obfuscated command string
    max_depth: int = 16                       # nesting of compound commands
    max_commands: int = 100_000               # leaf commands
    max_command_chars: int = 1 << 20          # one leaf command
    max_pieces: int = 20_000                  # AddPiece commands (pieces and stacks)
    max_traits: int = 64                      # trait levels of one piece (a toolkit counter has 12)
    max_boards: int = 64                      # board placements of one map; columns and rows below this
    max_board_commands: int = 1000            # BoardPicker commands (one per map in a real save)
    max_description_chars: int = 1 << 16      # savedata's description (the toolkit's JSON)
    skip_bad_pieces: bool = False             # a piece over max_traits or unreadable: skipped with a note (a
    #                                           module's own setups), not the save refused


# ---------------------------------------------------------------- obfuscation


def obfuscate(text: str, key: int) -> bytes:
    """VASSAL's ``ObfuscatingOutputStream``: ``!VCSK``, the key and each UTF-8 byte XOR key, lower-case hex."""
    if not 0 <= key <= 255:
        raise ValueError(f"key must be 0..255, got {key}")
    data = text.encode("utf-8")
    return HEADER + f"{key:02x}".encode() + data.translate(_xor_table(key)).hex().encode()


def _xor_table(key: int) -> bytes:
    """A ``bytes.translate`` table that XORs every byte with ``key``."""
    return bytes(b ^ key for b in range(256))


def deobfuscate(raw: bytes) -> str:
    """The text of a ``savedGame`` entry: de-obfuscated (upper- or lower-case hex) or, without ``!VCSK``, as is."""
    if not raw.startswith(HEADER):
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise SaveError(f"savedGame is neither obfuscated nor UTF-8 text ({err})") from None
    body = raw[len(HEADER):].strip()
    try:
        key = int(body[:2], 16)
        data = bytes.fromhex(body[2:].decode("ascii"))
    except (ValueError, UnicodeDecodeError) as err:
        raise SaveError(f"savedGame: bad obfuscated data ({err})") from None
    if key:
        data = data.translate(_xor_table(key))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise SaveError(f"savedGame: de-obfuscated data is not UTF-8 ({err})") from None


# ---------------------------------------------------------------- reading


@dataclass(frozen=True)
class BoardPlacement:
    """A board put on a map by the BoardPicker command: its slot (column, row) in the picker."""

    map: str
    board: str
    col: int
    row: int
    reversed: bool = False


@dataclass
class SaveContents:
    """A decoded saved game."""

    source: str
    commands: list[str] = field(default_factory=list)  # every leaf command, in order
    pieces: list[SavePiece] = field(default_factory=list)
    stacks: list[SaveStack] = field(default_factory=list)
    boards: list[BoardPlacement] = field(default_factory=list)
    other: list[str] = field(default_factory=list)  # commands of other components, kept verbatim
    setup: list[bool] = field(default_factory=list)  # begin_save (False) / end_save (True), in order
    savedata: dict[str, str] = field(default_factory=dict)
    moduledata: dict[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)  # pieces skipped (SaveLimits.skip_bad_pieces), each named

    def maps(self) -> list[str]:
        """Every map named by a board placement or a piece, in order of appearance."""
        seen: dict[str, None] = {}
        for b in self.boards:
            seen.setdefault(b.map)
        for p in self.pieces:
            if p.map:
                seen.setdefault(p.map)
        return list(seen)

    def boards_of(self, map_name: str) -> list[BoardPlacement]:
        """The board placements of a map."""
        return [b for b in self.boards if b.map == map_name]


def _leaf_commands(text: str, out: list[str], limits: "SaveLimits", source: str) -> None:
    """Split a compound command at ESC, nested tokens too (``GameModule.decode``), iteratively and in order.

    Nesting is capped, and so are the characters decoded over all levels (each level re-reads its
    token), so the work stays linear in the text.
    """
    work = 0
    stack: list[tuple[str, int]] = [(text, 0)]
    while stack:
        cmd, depth = stack.pop()
        parts = None
        if ESC in cmd:
            if depth >= limits.max_depth:
                raise SaveError(f"{source}: commands nested more than {limits.max_depth} deep (limit)")
            work += len(cmd)
            if work > 4 * limits.max_chars:
                raise SaveError(f"{source}: nested commands decode to more than {4 * limits.max_chars} "
                                "characters (limit)")
            parts = fast_decode(cmd, ESC)
        if parts is None or len(parts) == 1:
            if len(out) >= limits.max_commands:
                raise SaveError(f"{source}: more than {limits.max_commands} commands (limit)")
            if len(cmd) > limits.max_command_chars:
                raise SaveError(f"{source}: a command of {len(cmd)} characters, over the limit of "
                                f"{limits.max_command_chars}")
            out.append(cmd)
            continue
        stack.extend((part, depth + 1) for part in reversed(parts))


def _board_command(cmd: str, limits: "SaveLimits", source: str) -> list[BoardPlacement] | None:
    if "BoardPicker\t" not in cmd:
        return None
    toks = fast_decode(cmd, "\t")
    if not toks[0].endswith("BoardPicker"):
        return None
    map_name = toks[0][: -len("BoardPicker")]
    if (len(toks) - 1) // 3 > limits.max_boards:
        raise SaveError(f"{source}: map {_shown(map_name)}: more than {limits.max_boards} boards (limit)")
    out = []
    for i in range(1, len(toks) - 2, 3):
        nt = fast_decode(toks[i], "/")
        col, row = java_int(toks[i + 1]), java_int(toks[i + 2])
        if not (0 <= col < limits.max_boards and 0 <= row < limits.max_boards):
            raise SaveError(f"{source}: map {_shown(map_name)}: board {_shown(nt[0])} in slot ({_shown(toks[i + 1])}, "
                            f"{_shown(toks[i + 2])}): a column and row must be 0 to {limits.max_boards - 1}")
        out.append(BoardPlacement(map_name, nt[0], col, row, len(nt) > 1 and nt[1] == "rev"))
    return out


def _shown(text: str, limit: int = 60) -> str:
    """A string from a file as it may be echoed: control characters escaped, shortened."""
    text = str(text)
    r = repr(text[:limit])
    return r + ("…" if len(text) > limit else "")


def parse_saved_game(text: str, source: str = "<savedGame>", limits: SaveLimits | None = None) -> SaveContents:
    """Decode a (de-obfuscated) command string (within ``limits``; a refusal is a :class:`SaveError`)."""
    limits = limits or SaveLimits()
    if len(text) > limits.max_chars:
        raise SaveError(f"{source}: the saved game is {len(text)} characters, over the limit of {limits.max_chars}")
    save = SaveContents(source)
    _leaf_commands(text, save.commands, limits, source)
    boards: dict[str, list[BoardPlacement]] = {}
    added = board_commands = 0
    for cmd in save.commands:
        if not cmd:
            continue  # NullCommand
        if cmd == "begin_save" or cmd == "end_save":
            save.setup.append(cmd == "end_save")
        elif cmd.startswith("+/"):
            added += 1
            if added > limits.max_pieces:
                raise SaveError(f"{source}: more than {limits.max_pieces} pieces and stacks (limit)")
            parts = fast_decode(cmd, "/")
            if len(parts) >= 3 and parts[2] == "stack":
                pid = None if parts[1] in ("", "null") else parts[1]
                save.stacks.append(parse_stack(pid, "/".join(parts[3:]) if len(parts) > 3 else ""))
            else:
                try:
                    save.pieces.append(parse_add_piece(cmd, limits.max_traits))
                except TraitLimitError as err:
                    if not limits.skip_bad_pieces:
                        raise SaveError(f"{source}: {err}") from None
                    save.skipped.append(f"piece {_shown(parts[1] if len(parts) > 1 else '')}: {err}; skipped")
                except ValueError:
                    save.other.append(cmd)
        else:
            placed = _board_command(cmd, limits, source)
            if placed is None:
                save.other.append(cmd)
                continue
            board_commands += 1
            if board_commands > limits.max_board_commands:
                raise SaveError(f"{source}: more than {limits.max_board_commands} BoardPicker commands (limit)")
            if placed:
                boards.pop(placed[0].map, None)  # a later BoardPicker command replaces the map's boards
                boards[placed[0].map] = placed
    save.boards = [b for bl in boards.values() for b in bl]
    by_id = {p.id: p for p in save.pieces if p.id}
    for st in save.stacks:
        for pid in st.pieces:
            p = by_id.get(pid)
            if p is not None:
                p.stack = st.id
                if p.map is None and st.map is not None:
                    p.map, p.x, p.y = st.map, st.x, st.y
    return save


def check_game_state(save: SaveContents, label: str, error: type[Exception] = SaveError) -> None:
    """Refuse a save with no recognisable game state (no ``begin_save``/``end_save``, no pieces, no boards):
    junk, or a payload de-obfuscated with the wrong key, is not an empty position."""
    if not save.setup and not save.pieces and not save.stacks and not save.boards:
        raise error(f"{label}: no recognisable game state (no begin_save/end_save, pieces or boards) -- not a "
                    "VASSAL saved game, or a corrupt or wrongly obfuscated one")


def source_label(path) -> str:
    """How errors name a save: its path, or the ``name`` of a file object (an upload's bytes)."""
    return os.fspath(path) if isinstance(path, (str, os.PathLike)) else str(getattr(path, "name", "<save>"))


def read_save(path: str | os.PathLike[str] | IO[bytes], limits: SaveLimits | None = None) -> SaveContents:
    """Read a ``.vsav`` (an untrusted archive): the decoded commands, pieces, stacks and boards.

    Raises :class:`~toolkit.vassal.engine.safezip.ArchiveError` (bad archive or XML)
    or :class:`SaveError` (no ``savedGame``, bad obfuscation, no game state, over a
    limit of ``limits``), naming the file.
    """
    limits = limits or SaveLimits()
    label = source_label(path)
    entry = 2 * limits.max_chars + 16  # the hex of the obfuscated entry is twice the text
    text, savedata, moduledata = read_saved_game_entries(path, label, entry, entry + (8 << 20),
                                                         SaveError, "a VASSAL saved game")
    save = parse_saved_game(text, label, limits)
    check_game_state(save, label)
    save.savedata, save.moduledata = savedata, moduledata
    if len(savedata.get("description", "")) > limits.max_description_chars:
        raise SaveError(f"{label}: savedata description of {len(savedata['description'])} characters, over the "
                        f"limit of {limits.max_description_chars}")
    _read_meta(save)  # refuse a description the toolkit wrote but that does not parse within bounds
    return save


#: Why a VASSAL 2.9 plain-text save (the command text, obfuscated or not, without the zip archive) is refused.
PLAIN_TEXT_SAVE = ("a VASSAL 2.9 plain-text save, not a zip archive; VASSAL 3 refuses it too (\"Invalid saveFile "
                   "format\"): load it in VASSAL 2.9, or in a VASSAL version that reads it, and save it again")


def is_plain_text_save(head: bytes) -> bool:
    """Whether a file's first bytes are a VASSAL 2.9 plain-text save: ``!VCSK`` or ``begin_save``, not a zip."""
    head = head[:64].lstrip()
    return head.startswith(b"!VCSK") or head.startswith(b"begin_save")


def _head_bytes(path) -> bytes:
    """The first bytes of a save given as a path or a seekable file object (nothing when unreadable)."""
    try:
        if isinstance(path, (str, os.PathLike)):
            with open(path, "rb") as f:
                return f.read(64)
        pos = path.tell()
        head = path.read(64)
        path.seek(pos)
        return head
    except (OSError, AttributeError, ValueError):
        return b""


def read_saved_game_entries(path, label: str, max_entry_bytes: int, max_total_bytes: int,
                            error: type[Exception], what: str) -> tuple[str, dict[str, str], dict[str, str]]:
    """The de-obfuscated ``savedGame`` text and the ``savedata``/``moduledata`` fields of a save or log archive
    (untrusted: read through :mod:`toolkit.vassal.engine.safezip`); problems raise ``error`` naming ``label``
    (a VASSAL 2.9 plain-text save: :data:`PLAIN_TEXT_SAVE`)."""
    if is_plain_text_save(_head_bytes(path)):
        raise error(f"{label}: {PLAIN_TEXT_SAVE}")
    with open_archive(path, max_entries=1000, max_total_bytes=max_total_bytes,
                      max_entry_bytes=max_entry_bytes) as arc:
        if "savedGame" not in arc:
            raise error(f"{label}: no 'savedGame' entry -- not {what} "
                        f"(entries: {', '.join(arc.names()[:10]) or 'none'})")
        raw = arc.read("savedGame")
        extra = {name: xml_fields(arc.read(name, 1 << 20), f"{label}: entry {name!r}")
                 for name in ("savedata", "moduledata") if name in arc}
    try:
        text = deobfuscate(raw)
    except SaveError as err:
        raise error(f"{label}: {err}") from None
    return text, extra.get("savedata", {}), extra.get("moduledata", {})


# ---------------------------------------------------------------- save -> position


def _entry_names(game: Game, text: str) -> list[str]:
    """The entry hexes a save gives a reinforcement (``|``-joined names), those of the game's map only."""
    names = []
    for name in filter(None, text.split("|")):
        try:
            game.map.resolve(name)
        except HexNameError:
            continue
        names.append(name)
    return names


@dataclass(frozen=True)
class Unplaced:
    """A piece that could not be mapped to a unit in a hex, and why."""

    id: str | None
    name: str
    map: str | None
    x: int
    y: int
    reason: str
    gpid: str = ""

    def __str__(self) -> str:
        where = f"{_shown(self.map)}@({self.x},{self.y})" if self.map else "off-map"
        return f"piece {_shown(self.id) if self.id else '?'} {_shown(self.name)} at {where}: {self.reason}"


class NamedBoard(Protocol):
    """A board of the game's map in a save: its size and the location name the engine gives a board pixel
    (:class:`~toolkit.vassal.design.board.BoardLayout`, or an imported board,
    :class:`toolkit.vassal.engine.vgrid.Board`)."""

    width: int
    height: int

    def location_name(self, px: int, py: int) -> str | None:
        """The engine's name of a board pixel."""


def _size(spec: NamedBoard | tuple[int, int]) -> tuple[int, int]:
    return (spec.width, spec.height) if hasattr(spec, "location_name") else (int(spec[0]), int(spec[1]))


def _board_offsets(placements: list[BoardPlacement], boards: Mapping[str, object],
                   edge: tuple[int, int]) -> list[tuple[BoardPlacement, int, int, tuple[int, int] | None]]:
    """Each board's top-left in map coordinates (``Map.setBoardBoundaries``); size ``None`` if unknown."""
    widths: dict[tuple[int, int], int] = {}
    heights: dict[tuple[int, int], int] = {}
    sizes = {}
    for b in placements:
        spec = boards.get(b.board)
        size = _size(spec) if spec is not None else None
        sizes[b] = size
        if size:
            widths[(b.col, b.row)], heights[(b.col, b.row)] = size
    out = []
    for b in placements:
        x = edge[0] + sum(widths.get((c, b.row), 0) for c in range(b.col))
        y = edge[1] + sum(heights.get((b.col, r), 0) for r in range(b.row))
        out.append((b, x, y, sizes[b]))
    return out


def _read_meta(save: SaveContents) -> dict:
    """Turn, phase, phasing side, scenario and params from the description's line the toolkit wrote (after the
    players' line: :func:`_description`; first, in saves written before it had one)."""
    line = next((ln for ln in save.savedata.get("description", "").splitlines() if ln.startswith(POSITION_TAG)), "")
    if not line:
        return {}
    try:
        meta = json.loads(line[len(POSITION_TAG):])
    except ValueError:
        return {}
    except RecursionError:
        raise SaveError(f"{save.source}: savedata description: the position's JSON is nested too deeply") from None
    return meta if isinstance(meta, dict) else {}


def _description(position: Position) -> str:
    """A save's description: a line for players (the game, its scenario, the turn, the phase and its side, as
    VASSAL shows it when the save is opened), then the toolkit's line (:data:`POSITION_TAG` and JSON)."""
    spec = position.game.spec
    sides = {side.id: side.name for side in spec.sides}
    where = f"{spec.title}" + (f", scenario {position.scenario}" if position.scenario else "")
    when = ", ".join(part for part in (
        f"turn {position.turn}" if position.turn else "",
        spec.phase_name(position.phase) if position.phase else "",
        sides.get(position.phasing_side, position.phasing_side or "")) if part)
    meta = {"turn": position.turn, "phase": position.phase, "phasing_side": position.phasing_side,
            "scenario": position.scenario, "params": position.params}
    return f"{where}: {when}\n{POSITION_TAG}{json.dumps(meta, sort_keys=True)}"


def save_to_position(save: SaveContents, game: Game, module_pieces: Mapping[str, str] | None = None, *,
                     boards: Mapping[str, NamedBoard | tuple[int, int]] | None = None,
                     edge: tuple[int, int] | Mapping[str, tuple[int, int]] = (0, 0),
                     map_name: str | None = None, turn: str | None = None, phase: str | None = None,
                     phasing_side: str | None = None, scenario: str | None = None, params: dict | None = None,
                     zones: Callable[[str, int, int], tuple[str, str] | None] | None = None,
                     names: Mapping[str, str] | None = None) -> tuple[PositionFile, list[Unplaced]]:
    """The position a save shows, and the pieces it could not place.

    * ``module_pieces``: the module's PieceSlot ``gpid`` -> counter id.  Without
      it (or for gpids it does not know) a piece's counter is its Marker
      property ``counter``, else the counter whose name (or id) is the
      BasicPiece name (Marker properties ``side``/``type`` break ties).
    * ``boards``: board name -> the board of the game's map (a :class:`BoardLayout`,
      or any :class:`NamedBoard`), or a ``(width, height)`` for a foreign board, to
      compute the offsets of the boards after it.  Default: the game's board layout for every board of a
      map with a single board, and for boards named after the game's map.
    * ``edge``: the map's edge buffer ``(edgeWidth, edgeHeight)``, or per map name.
    * ``map_name``: the map whose pieces count when the save places no board
      (then the game's board is assumed in slot 0,0).
    * ``zones``: ``zones(map, x, y)`` names the zone of a point on a map of
      boxes and tracks, as ``("box", box)``, ``("turn", turn)`` or
      ``("markers", "")``; None for points of other maps.
    * ``names``: a piece name -> counter id mapping that wins over every other
      way of finding the counter (a module whose pieces are named otherwise).

    A counter's back face (its flip layer past the first level) gives the
    game's ``back_flag``, a face-down piece (masked) its ``hidden_flag``.

    Turn, phase, phasing side, scenario and parameters come from the arguments, else from the save's
    ``savedata`` (written by :func:`position_to_save`), else the game's first (no scenario, no parameters).
    A unit in a turn's zone waits in the game's ``arrivals_box`` with that arrival turn; a piece turned by
    its rotation trait carries the facing flag of its angle (``game.yaml`` ``facing``).
    Pieces on unknown maps or boards, off the map's hexes, or of unknown
    counters are returned in the list.
    """
    from ..design.board import board_layout

    cmap = game.map
    if boards is None:
        boards = {}
        by_map: dict[str, list[BoardPlacement]] = {}
        for b in save.boards:
            by_map.setdefault(b.map, []).append(b)
        for m, bl in by_map.items():
            for b in bl:
                if len(bl) == 1 or b.board in (cmap.id, cmap.title, game.spec.map, game.spec.title):
                    boards[b.board] = board_layout(cmap)
    edges = edge if isinstance(edge, Mapping) else None
    meta = _read_meta(save)

    def edge_of(m: str) -> tuple[int, int]:
        return tuple(edges.get(m, (0, 0))) if edges is not None else tuple(edge)  # type: ignore[return-value]

    placed_boards: dict[str, list] = {}
    for m in {b.map for b in save.boards}:
        placed_boards[m] = _board_offsets(save.boards_of(m), boards, edge_of(m))
    if map_name is not None and map_name not in placed_boards:
        own_layout = board_layout(cmap)
        placed_boards[map_name] = [(BoardPlacement(map_name, cmap.id, 0, 0), *edge_of(map_name),
                                    (own_layout.width, own_layout.height))]
        boards = dict(boards)
        boards.setdefault(cmap.id, own_layout)

    counters = game.counters
    by_name: dict[str, list[str]] = {}
    for c in counters.values():
        by_name.setdefault(c.name, []).append(c.id)
        if c.id != c.name:
            by_name.setdefault(c.id, []).append(c.id)
    marker_by_name = {m.name: m.id for m in game.markers.values()} | {m: m for m in game.markers}

    unplaced: list[Unplaced] = []
    units: list[dict] = []
    markers: list[MarkerPlacement] = []
    used_ids: set[str] = set()
    seq: dict[str, int] = {}

    def lost(p: SavePiece, reason: str) -> None:
        unplaced.append(Unplaced(p.id, p.name, p.map, p.x, p.y, reason, p.gpid))

    def locate(p: SavePiece) -> tuple[str | None, str]:
        if p.map is None:
            return None, "not on a map"
        zone = zones(p.map, p.x, p.y) if zones is not None else None
        if zone is not None:
            return None, f"in the {zone[0]} zone {zone[1]!r}"
        placements = placed_boards.get(p.map)
        if not placements:
            return None, f"map {_shown(p.map)} has no board the save places (unknown map)"
        for b, bx, by, size in placements:
            if size is None:
                continue
            px, py = p.x - bx, p.y - by
            if 0 <= px < size[0] and 0 <= py < size[1]:
                spec = boards.get(b.board)
                if not hasattr(spec, "location_name"):
                    return None, f"on board {_shown(b.board)}, which is not the game's map"
                if b.reversed:
                    px, py = size[0] - px, size[1] - py
                name = spec.location_name(px, py) or ""
                try:
                    h = cmap.grid.parse(name)
                except HexNameError:
                    return None, f"board pixel ({px},{py}) of {_shown(b.board)} is {name!r}, not a hex of the map"
                return cmap.name(h), ""
        unknown = [b.board for b, _, _, size in placements if size is None]
        if unknown:
            return None, f"off the known boards of map {_shown(p.map)} (boards of unknown size: {unknown})"
        return None, f"off every board of map {_shown(p.map)}"

    for p in save.pieces:
        props = p.properties
        hexname, why = locate(p)
        zone = zones(p.map, p.x, p.y) if zones is not None and p.map is not None else None
        marker = props.get("marker") or (marker_by_name.get(p.name) if "counter" not in props else None)
        cid = None
        if names and names.get(p.name) in counters:
            cid = names[p.name]
        elif module_pieces and p.gpid in module_pieces:
            cid = module_pieces[p.gpid]
        elif props.get("counter") in counters:
            cid = props["counter"]
        elif marker and marker in game.markers:
            val = p.trait_state("label") or props.get("value") or None
            toward = props.get("toward") or None
            if zone is not None:
                kind, key = zone
                markers.append(MarkerPlacement(marker=marker, box=key if kind == "box" else None,
                                               turn=key if kind == "turn" else None, value=val, toward=toward))
            elif hexname is None:
                lost(p, f"marker {marker!r}: {why}")
            else:
                markers.append(MarkerPlacement(marker=marker, hex=hexname, value=val, toward=toward))
            continue
        else:
            cands = by_name.get(p.name, [])
            if len(cands) > 1:
                cands = [c for c in cands if counters[c].side == props.get("side", counters[c].side)
                         and counters[c].type == props.get("type", counters[c].type)]
            if len(cands) == 1:
                cid = cands[0]
            elif cands:
                lost(p, f"name {_shown(p.name)} matches several counters {cands}")
                continue
        if cid is None or cid not in counters:
            lost(p, f"unknown counter (gpid {_shown(p.gpid)}, name {_shown(p.name)}"
                    + (f", counter property {_shown(props['counter'])}" if "counter" in props else "") + ")")
            continue
        box, arrives = _box_of(zone, game.spec, props.get("arrives"))
        if hexname is None and box is None:
            lost(p, why)
            continue
        uid = props.get("unit") or ""
        if not uid or uid in used_ids:
            n = seq.get(cid, 0)
            while True:
                n += 1
                uid = f"{cid}-{n}"
                if uid not in used_ids:
                    break
            seq[cid] = n
        used_ids.add(uid)
        flags = {f for f in props.get("flags", "").split("|") if f in game.spec.flags}
        if p.shows_back and game.spec.back_flag and counters[cid].back is not None:
            flags.add(game.spec.back_flag)
        if p.masked_by and game.spec.hidden_flag:
            flags.add(game.spec.hidden_flag)
        flags.update(_facing(p, game.spec, counters[cid]))
        try:
            spent = max(0.0, float(props.get("spent") or 0))
        except ValueError:
            spent = 0.0
        units.append(dict(id=uid, counter=cid, hex=hexname, box=box, flags=sorted(flags),
                          carried_by=props.get("carried_by") or None, spent=spent,
                          turn=arrives,
                          entry=_entry_names(game, props.get("entry", ""))))
    place_of = {u["id"]: (u["hex"], u["box"]) for u in units}
    for u in units:
        if u["carried_by"] is not None and place_of.get(u["carried_by"]) != (u["hex"], u["box"]):
            u["carried_by"] = None
    spec = game.spec

    def pick(arg, key, choices, default):
        for v in (arg, meta.get(key)):
            if v is not None and v in choices:
                return v
        return default

    if scenario is None and isinstance(meta.get("scenario"), str):
        scenario = meta["scenario"]
    if params is None:
        params = meta.get("params") if isinstance(meta.get("params"), dict) else {}
    pf = PositionFile(
        game=spec.id, scenario=scenario,
        turn=pick(turn, "turn", spec.turns, spec.turns[0]),
        phase=pick(phase, "phase", spec.phases, spec.phases[0]),
        phasing_side=pick(phasing_side, "phasing_side", [s.id for s in spec.sides], spec.sides[0].id),
        params=params,
        units=[UnitPlacement(**u) for u in units], markers=markers)
    return pf, unplaced


def _box_of(zone: tuple[str, str] | None, spec: GameSpec, arrives: str | None) -> tuple[str | None, str | None]:
    """The box of a unit in a zone of the boxes map and its arrival turn: a turn's zone is the game's
    ``arrivals_box`` with that turn; elsewhere the turn is the unit's ``arrives`` property, if a turn."""
    arrives = arrives if arrives in spec.turns else None
    if zone is None:
        return None, arrives
    kind, key = zone
    if kind == "turn" and spec.arrivals_box is not None:
        return spec.arrivals_box, key
    return (key if kind == "box" else None), arrives


def _facing(p: SavePiece, spec: GameSpec, counter: Counter) -> set[str]:
    """The facing flag a piece's rotation shows (``rotate`` state: the angle's index, clockwise from the top), for
    counters whose type has a facing; empty otherwise."""
    state = p.trait_state("rotate")
    if state is None or spec.facing is None or counter.type not in spec.facing.unit_types:
        return set()
    return {spec.facing.flags[java_int(state, 0) % len(spec.facing.flags)]}


# ---------------------------------------------------------------- position -> save


def _xml_escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _savedata(version: str, vassal_version: str, description: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
            f"  <version>{_xml_escape(version)}</version>\n  <VassalVersion>{_xml_escape(vassal_version)}</VassalVersion>\n"
            f"  <dateSaved>0</dateSaved>\n  <description>{_xml_escape(description)}</description>\n</data>\n")


def _moduledata(name: str, version: str, vassal_version: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
            f"  <version>{_xml_escape(version)}</version>\n  <VassalVersion>{_xml_escape(vassal_version)}</VassalVersion>\n"
            f"  <dateSaved>0</dateSaved>\n  <description/>\n  <name>{_xml_escape(name)}</name>\n</data>\n")


class SaveLayout(Protocol):
    """How a position is laid out in a module's save: where each unit and marker goes and what piece it is."""

    def place(self, thing: Unit | MarkerAt) -> tuple[str, int, int] | None:
        """The map and map coordinates of a unit or marker, or None to leave it out."""

    def unit_piece(self, unit: Unit, pid: str, map_name: str, x: int, y: int) -> str:
        """The AddPiece command of a unit."""

    def marker_piece(self, marker: MarkerAt, pid: str, map_name: str, x: int, y: int) -> str:
        """The AddPiece command of a marker."""

    def stack_layer(self, thing: Unit | MarkerAt) -> int | None:
        """The layer of the stack a unit or marker joins, or None for a piece that never stacks."""

    def game_commands(self, position: Position) -> list[str]:
        """The commands after the pieces: board placements, the turn tracker's state ..."""


@dataclass(frozen=True)
class SimpleLayout:
    """A save for any module with one hex board: units in hexes as Marker-trait pieces, boxes left out.

    Each unit is a BasicPiece named after its counter (image ``images[counter]``,
    default ``<counter>.png``; gpid ``gpids[counter]``) inside a Marker trait with
    the properties ``counter``, ``unit``, ``side``, ``type``, ``flags``
    (``|``-joined), ``carried_by`` and ``spent``, at the hex centre pixel plus ``edge``.
    """

    position: Position
    board: BoardLayout
    map_name: str
    gpids: Mapping[str, str]
    board_name: str
    edge: tuple[int, int] = (0, 0)
    images: Mapping[str, str] | None = None

    def place(self, thing: Unit | MarkerAt) -> tuple[str, int, int] | None:
        """The hex centre pixel of a unit or marker in a hex; None for boxes."""
        if thing.hex is None:
            return None
        px, py = self.board.pixel(*self.position.game.map.grid.layout.centre(thing.hex))
        return self.map_name, int(round(px)) + self.edge[0], int(round(py)) + self.edge[1]

    def _piece(self, key: str, name: str, props: dict[str, str], pid: str, map_name: str, x: int, y: int) -> str:
        image = (self.images or {}).get(key, f"{key}.png")
        return encode_add_piece(pid, [marker_trait(props)], basic_type(image, name),
                                basic_state(map_name, x, y, str(self.gpids.get(key, ""))))

    def unit_piece(self, unit: Unit, pid: str, map_name: str, x: int, y: int) -> str:
        """A Marker-trait piece with the unit's properties."""
        c = unit.counter
        props = {"counter": c.id, "unit": unit.id, "side": c.side, "type": c.type,
                 "flags": "|".join(sorted(unit.flags)), "carried_by": unit.carried_by or "", "spent": f"{unit.spent:g}"}
        return self._piece(c.id, c.name, props, pid, map_name, x, y)

    def marker_piece(self, marker: MarkerAt, pid: str, map_name: str, x: int, y: int) -> str:
        """A Marker-trait piece with the marker's id and value."""
        props = {"marker": marker.marker, "value": "" if marker.value is None else str(marker.value)}
        return self._piece(marker.marker, self.position.game.markers[marker.marker].name, props, pid, map_name, x, y)

    def stack_layer(self, thing: Unit | MarkerAt) -> int | None:
        """Everything stacks, in the map's one layer."""
        return 0

    def game_commands(self, position: Position) -> list[str]:
        """The board placement."""
        return [encode([f"{self.map_name}BoardPicker", self.board_name, 0, 0], "\t")]


def _stacking_order(pos: Position) -> list[Unit]:
    """The units, each carrier followed by what it carries, the position's order otherwise (no unit dropped).

    Walked iteratively: a long carrying chain costs no recursion.
    """
    order: list[Unit] = []
    placed: set[str] = set()
    carried: dict[str, list[Unit]] = {}
    for u in pos.units:
        if u.carried_by is not None and u.carried_by in pos.by_id:
            carried.setdefault(u.carried_by, []).append(u)

    def visit(root: Unit) -> None:
        stack = [root]
        while stack:
            u = stack.pop()
            if u.id in placed:
                continue
            placed.add(u.id)
            order.append(u)
            stack.extend(reversed(carried.get(u.id, [])))

    for u in pos.units:
        if u.carried_by is None or u.carried_by not in pos.by_id:
            visit(u)
    for u in pos.units:  # carrying cycles cannot load, but never drop a unit
        visit(u)
    return order


def encode_save(position: Position, layout: SaveLayout, *, module_name: str | None = None,
                module_version: str = "1.0", vassal_version: str = "3.6.0", moduledata: bytes | str | None = None,
                first_id: int = 1000) -> tuple[bytes, list[str]]:
    """The ``.vsav`` bytes of a position laid out by ``layout``, and the ids of what it leaves out.

    Pieces at the same point form one stack per layer (carriers followed by what they
    carry, then markers), pieces that never stack stand alone.  Turn, phase, side, scenario and parameters also go
    in ``savedata``.  The same input always gives the same bytes.
    """
    game = position.game
    omitted: list[str] = []
    cmds: list[str] = ["begin_save", ""]
    stacks: dict[tuple[str, int, int, int], list[str]] = {}
    next_id = first_id
    things: list[Unit | MarkerAt] = [*_stacking_order(position), *position.markers]
    for thing in things:
        where = layout.place(thing)
        if where is None:
            omitted.append(thing.id if isinstance(thing, Unit) else f"marker:{thing.marker}")
            continue
        pid = str(next_id)
        next_id += 1
        piece = layout.unit_piece if isinstance(thing, Unit) else layout.marker_piece
        cmds.append(piece(thing, pid, *where))
        layer = layout.stack_layer(thing)
        if layer is not None:
            stacks.setdefault((*where, layer), []).append(pid)
    for (map_name, x, y, layer), ids in stacks.items():
        cmds.append(encode_stack(str(next_id), map_name, x, y, ids, layer))
        next_id += 1
    cmds += layout.game_commands(position)
    cmds.append("end_save")
    text = encode(cmds, ESC)
    key = hashlib.sha256(text.encode("utf-8")).digest()[0]
    savedata = _savedata(module_version, vassal_version, _description(position))
    if moduledata is None:
        moduledata = _moduledata(module_name or game.spec.title, module_version, vassal_version)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in (("savedGame", obfuscate(text, key)), ("savedata", savedata), ("moduledata", moduledata)):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    return buf.getvalue(), omitted


def encode_position(position: Position | PositionFile, board: BoardLayout, map_name: str,
                    gpids: Mapping[str, str], *, board_name: str | None = None,
                    edge: tuple[int, int] = (0, 0), images: Mapping[str, str] | None = None,
                    **options) -> tuple[bytes, list[str]]:
    """The ``.vsav`` bytes of a position for a module with one hex board (:class:`SimpleLayout`), and what
    it leaves out (units in boxes, markers without a hex); ``options`` as for :func:`encode_save`."""
    pos = position if isinstance(position, Position) else position_from_file(position)
    layout = SimpleLayout(pos, board, map_name, gpids, board_name or map_name, edge, images)
    return encode_save(pos, layout, **options)


def position_to_save(position: Position | PositionFile, board_layout: BoardLayout, map_name: str,
                     gpids: Mapping[str, str], **options) -> bytes:
    """The ``.vsav`` bytes of a position (see :func:`encode_position` for ``options`` and what is left out)."""
    return encode_position(position, board_layout, map_name, gpids, **options)[0]


def write_save(path: str | os.PathLike[str], position: Position | PositionFile, board_layout: BoardLayout,
               map_name: str, gpids: Mapping[str, str], **options) -> list[str]:
    """Write a position as a ``.vsav`` (atomically); returns the ids of the units left out (off-map)."""
    data, omitted = encode_position(position, board_layout, map_name, gpids, **options)
    write_atomic(Path(path), data)
    return omitted
