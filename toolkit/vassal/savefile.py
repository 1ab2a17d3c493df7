"""VASSAL saved games (``.vsav``): read any save, map it to a position, and write a position as a save.

A ``.vsav`` is a zip with ``savedGame`` (the command string, obfuscated as
``!VCSK`` + key + hex bytes XOR key), ``savedata`` and ``moduledata`` (small
XML documents).  The command string is ESC-separated commands:
``begin_save``, AddPiece commands (``+/id/type/state``, see
:mod:`toolkit.vassal.pieces`), ``<map>BoardPicker TAB board TAB col TAB row``,
other components' commands, ``end_save`` (tests/engine/README.md).

* :func:`read_save` → :class:`SaveContents` (every piece with its map and map
  coordinates, stacks, board placements), archive and XML read through
  :mod:`toolkit.vassal.safezip` (untrusted input).
* :func:`save_to_position` → a :class:`~toolkit.game.PositionFile` and the
  pieces it could not place (listed, never dropped).
* :func:`position_to_save` / :func:`write_save` → a deterministic ``.vsav``.

Map coordinates are board pixels plus the board's offset in the map: the map's
edge buffer (``edgeWidth``, ``edgeHeight``) plus the widths of the boards left
of it in its row and the heights of the boards above it in its column
(``Map.setBoardBoundaries``/``Map.getLocation``).
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Protocol

from ..fileio import write_atomic
from ..game import Game, Position, PositionFile, position_from_file
from ..game.position import MarkerAt, Unit
from ..game.schema import MarkerPlacement, UnitPlacement
from ..hexgrid import HexNameError
from .board import BoardLayout, vassal_location
from .pieces import (SavePiece, SaveStack, basic_state, basic_type, encode_add_piece, encode_stack, fast_decode,
                     java_int, marker_trait, parse_add_piece, parse_stack)
from .safezip import ArchiveError, open_archive, xml_fields
from .seqenc import encode

__all__ = ["ESC", "BoardPlacement", "SaveContents", "SaveError", "Unplaced", "deobfuscate", "obfuscate",
           "parse_saved_game", "read_save", "save_to_position", "SaveLayout", "SimpleLayout", "encode_save",
           "encode_position", "position_to_save", "write_save", "POSITION_TAG", "ArchiveError"]

ESC = "\x1b"
HEADER = b"!VCSK"
POSITION_TAG = "toolkit-position "  # savedata <description> prefix carrying turn/phase/side/params
MAX_SAVED_GAME_BYTES = 64 << 20


class SaveError(ValueError):
    """A saved game that cannot be read (names the file and the problem)."""


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


def _leaf_commands(text: str, out: list[str], depth: int = 0) -> None:
    """Split a compound command at ESC, recursively (``GameModule.decode``)."""
    parts = fast_decode(text, ESC)
    if len(parts) == 1 or depth > 50:
        out.append(text)
        return
    for part in parts:
        if ESC in part:
            _leaf_commands(part, out, depth + 1)
        else:
            out.append(part)


def _board_command(cmd: str) -> list[BoardPlacement] | None:
    if "BoardPicker\t" not in cmd:
        return None
    toks = fast_decode(cmd, "\t")
    if not toks[0].endswith("BoardPicker"):
        return None
    map_name = toks[0][: -len("BoardPicker")]
    out = []
    for i in range(1, len(toks) - 2, 3):
        nt = fast_decode(toks[i], "/")
        out.append(BoardPlacement(map_name, nt[0], java_int(toks[i + 1]), java_int(toks[i + 2]),
                                  len(nt) > 1 and nt[1] == "rev"))
    return out


def parse_saved_game(text: str, source: str = "<savedGame>") -> SaveContents:
    """Decode a (de-obfuscated) command string."""
    save = SaveContents(source)
    _leaf_commands(text, save.commands)
    for cmd in save.commands:
        if not cmd:
            continue  # NullCommand
        if cmd == "begin_save" or cmd == "end_save":
            save.setup.append(cmd == "end_save")
        elif cmd.startswith("+/"):
            parts = fast_decode(cmd, "/")
            if len(parts) >= 3 and parts[2] == "stack":
                pid = None if parts[1] in ("", "null") else parts[1]
                save.stacks.append(parse_stack(pid, "/".join(parts[3:]) if len(parts) > 3 else ""))
            else:
                try:
                    save.pieces.append(parse_add_piece(cmd))
                except ValueError:
                    save.other.append(cmd)
        else:
            boards = _board_command(cmd)
            if boards is None:
                save.other.append(cmd)
            else:
                save.boards = [b for b in save.boards if b.map != (boards[0].map if boards else None)] + boards
    by_id = {p.id: p for p in save.pieces if p.id}
    for st in save.stacks:
        for pid in st.pieces:
            p = by_id.get(pid)
            if p is not None:
                p.stack = st.id
                if p.map is None and st.map is not None:
                    p.map, p.x, p.y = st.map, st.x, st.y
    return save


def read_save(path: str | os.PathLike[str], max_entry_bytes: int = MAX_SAVED_GAME_BYTES) -> SaveContents:
    """Read a ``.vsav`` (an untrusted archive): the decoded commands, pieces, stacks and boards.

    Raises :class:`~toolkit.vassal.safezip.ArchiveError` (bad archive or XML)
    or :class:`SaveError` (no ``savedGame``, bad obfuscation), naming the file.
    """
    text, savedata, moduledata = read_saved_game_entries(path, str(path), max_entry_bytes, 4 * max_entry_bytes,
                                                         SaveError, "a VASSAL saved game")
    save = parse_saved_game(text, str(path))
    save.savedata, save.moduledata = savedata, moduledata
    return save


def read_saved_game_entries(path, label: str, max_entry_bytes: int, max_total_bytes: int,
                            error: type[Exception], what: str) -> tuple[str, dict[str, str], dict[str, str]]:
    """The de-obfuscated ``savedGame`` text and the ``savedata``/``moduledata`` fields of a save or log archive
    (untrusted: read through :mod:`.safezip`); problems raise ``error`` naming ``label``."""
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
        where = f"{self.map}@({self.x},{self.y})" if self.map else "off-map"
        return f"piece {self.id or '?'} {self.name!r} at {where}: {self.reason}"


def _size(spec: BoardLayout | tuple[int, int]) -> tuple[int, int]:
    return (spec.width, spec.height) if isinstance(spec, BoardLayout) else (int(spec[0]), int(spec[1]))


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
    desc = save.savedata.get("description", "")
    if desc.startswith(POSITION_TAG):
        try:
            meta = json.loads(desc[len(POSITION_TAG):])
            return meta if isinstance(meta, dict) else {}
        except ValueError:
            return {}
    return {}


def save_to_position(save: SaveContents, game: Game, module_pieces: Mapping[str, str] | None = None, *,
                     boards: Mapping[str, BoardLayout | tuple[int, int]] | None = None,
                     edge: tuple[int, int] | Mapping[str, tuple[int, int]] = (0, 0),
                     map_name: str | None = None, turn: str | None = None, phase: str | None = None,
                     phasing_side: str | None = None,
                     zones: Callable[[str, int, int], tuple[str, str] | None] | None = None
                     ) -> tuple[PositionFile, list[Unplaced]]:
    """The position a save shows, and the pieces it could not place.

    * ``module_pieces``: the module's PieceSlot ``gpid`` -> counter id.  Without
      it (or for gpids it does not know) a piece's counter is its Marker
      property ``counter``, else the counter whose name (or id) is the
      BasicPiece name (Marker properties ``side``/``type`` break ties).
    * ``boards``: board name -> :class:`BoardLayout` of the game's map (or a
      ``(width, height)`` for a foreign board, to compute the offsets of the
      boards after it).  Default: the game's board layout for every board of a
      map with a single board, and for boards named after the game's map.
    * ``edge``: the map's edge buffer ``(edgeWidth, edgeHeight)``, or per map name.
    * ``map_name``: the map whose pieces count when the save places no board
      (then the game's board is assumed in slot 0,0).
    * ``zones``: ``zones(map, x, y)`` names the zone of a point on a map of
      boxes and tracks, as ``("box", box)``, ``("turn", turn)`` or
      ``("markers", "")``; None for points of other maps.

    A counter's back face (its flip layer past the first level) gives the
    game's ``back_flag``, a face-down piece (masked) its ``hidden_flag``.

    Turn, phase and phasing side come from the arguments, else from the save's
    ``savedata`` (written by :func:`position_to_save`), else the game's first.
    Pieces on unknown maps or boards, off the map's hexes, or of unknown
    counters are returned in the list.
    """
    from .board import board_layout

    cmap = game.map
    own_layout = board_layout(cmap)
    if boards is None:
        boards = {}
        by_map: dict[str, list[BoardPlacement]] = {}
        for b in save.boards:
            by_map.setdefault(b.map, []).append(b)
        for m, bl in by_map.items():
            for b in bl:
                if len(bl) == 1 or b.board in (cmap.id, cmap.title, game.spec.map, game.spec.title):
                    boards[b.board] = own_layout
    edges = edge if isinstance(edge, Mapping) else None
    meta = _read_meta(save)

    def edge_of(m: str) -> tuple[int, int]:
        return tuple(edges.get(m, (0, 0))) if edges is not None else tuple(edge)  # type: ignore[return-value]

    placed_boards: dict[str, list] = {}
    for m in {b.map for b in save.boards}:
        placed_boards[m] = _board_offsets(save.boards_of(m), boards, edge_of(m))
    if map_name is not None and map_name not in placed_boards:
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
            return None, f"map {p.map!r} has no board the save places (unknown map)"
        for b, bx, by, size in placements:
            if size is None:
                continue
            px, py = p.x - bx, p.y - by
            if 0 <= px < size[0] and 0 <= py < size[1]:
                spec = boards.get(b.board)
                if not isinstance(spec, BoardLayout):
                    return None, f"on board {b.board!r}, which is not the game's map"
                if b.reversed:
                    px, py = size[0] - px, size[1] - py
                name = vassal_location(spec, px, py)
                try:
                    h = cmap.grid.parse(name)
                except HexNameError:
                    return None, f"board pixel ({px},{py}) of {b.board!r} is {name!r}, not a hex of the map"
                return cmap.name(h), ""
        unknown = [b.board for b, _, _, size in placements if size is None]
        if unknown:
            return None, f"off the known boards of map {p.map!r} (boards of unknown size: {unknown})"
        return None, f"off every board of map {p.map!r}"

    for p in save.pieces:
        props = p.properties
        hexname, why = locate(p)
        zone = zones(p.map, p.x, p.y) if zones is not None and p.map is not None else None
        marker = props.get("marker") or (marker_by_name.get(p.name) if "counter" not in props else None)
        cid = None
        if module_pieces and p.gpid in module_pieces:
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
                lost(p, f"name {p.name!r} matches several counters {cands}")
                continue
        if cid is None or cid not in counters:
            lost(p, f"unknown counter (gpid {p.gpid!r}, name {p.name!r}"
                    + (f", counter property {props['counter']!r}" if "counter" in props else "") + ")")
            continue
        box = zone[1] if zone is not None and zone[0] == "box" else None
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
        try:
            spent = max(0.0, float(props.get("spent") or 0))
        except ValueError:
            spent = 0.0
        units.append(dict(id=uid, counter=cid, hex=hexname, box=box, flags=sorted(flags),
                          carried_by=props.get("carried_by") or None, spent=spent))
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

    pf = PositionFile(
        game=spec.id, scenario=meta.get("scenario") if isinstance(meta.get("scenario"), str) else None,
        turn=pick(turn, "turn", spec.turns, spec.turns[0]),
        phase=pick(phase, "phase", spec.phases, spec.phases[0]),
        phasing_side=pick(phasing_side, "phasing_side", [s.id for s in spec.sides], spec.sides[0].id),
        params=meta.get("params") if isinstance(meta.get("params"), dict) else {},
        units=[UnitPlacement(**u) for u in units], markers=markers)
    return pf, unplaced


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

    def game_commands(self, position: Position) -> list[str]:
        """The board placement."""
        return [encode([f"{self.map_name}BoardPicker", self.board_name, 0, 0], "\t")]


def _stacking_order(pos: Position) -> list[Unit]:
    """The units, each carrier followed by what it carries, the position's order otherwise (no unit dropped)."""
    order: list[Unit] = []
    placed: set[str] = set()
    carried: dict[str, list[Unit]] = {}
    for u in pos.units:
        if u.carried_by is not None and u.carried_by in pos.by_id:
            carried.setdefault(u.carried_by, []).append(u)

    def visit(u: Unit) -> None:
        if u.id in placed:
            return
        placed.add(u.id)
        order.append(u)
        for c in carried.get(u.id, []):
            visit(c)

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

    Pieces at the same point form one stack (carriers followed by what they
    carry, then markers).  Turn, phase, side, scenario and parameters also go
    in ``savedata``.  The same input always gives the same bytes.
    """
    game = position.game
    omitted: list[str] = []
    cmds: list[str] = ["begin_save", ""]
    stacks: dict[tuple[str, int, int], list[str]] = {}
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
        stacks.setdefault(where, []).append(pid)
    for (map_name, x, y), ids in stacks.items():
        cmds.append(encode_stack(str(next_id), map_name, x, y, ids))
        next_id += 1
    cmds += layout.game_commands(position)
    cmds.append("end_save")
    text = encode(cmds, ESC)
    key = hashlib.sha256(text.encode("utf-8")).digest()[0]
    meta = {"turn": position.turn, "phase": position.phase, "phasing_side": position.phasing_side,
            "scenario": position.scenario, "params": position.params}
    savedata = _savedata(module_version, vassal_version, POSITION_TAG + json.dumps(meta, sort_keys=True))
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
