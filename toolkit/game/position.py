"""Positions: where every unit and marker is, at which turn and phase.

:func:`load_position` reads a position file (YAML, :class:`PositionFile`),
checks it against its game (counters, hexes of the map, flags, boxes,
carrying) and returns an immutable :class:`Position`.  Rules code only ever
sees :class:`Position` objects; it never parses files.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Callable, Hashable, Iterable, TypeVar

from ..datafile import expected, read_regular, yaml_model
from ..hexgrid import Hex, HexNameError
from .module import DOC, Game, GameDataError, _bundled_ids, load_bundled_game, with_line
from .schema import Counter, MarkerPlacement, PositionFile, UnitPlacement, Value

T = TypeVar("T")


@dataclass(frozen=True)
class Unit:
    """A unit in a position."""

    id: str
    counter: Counter
    hex: Hex | None
    box: str | None = None
    flags: frozenset[str] = frozenset()
    carried_by: str | None = None
    spent: float = 0.0
    arrives: str | None = None       # the turn a reinforcement arrives
    entry: tuple[Hex, ...] = ()      # where this reinforcement comes on (else its side's entry hexes)

    @property
    def side(self) -> str:
        """The unit's side."""
        return self.counter.side

    @property
    def type(self) -> str:
        """The unit's type (the game's vocabulary)."""
        return self.counter.type

    def has(self, flag: str) -> bool:
        """Whether the unit carries a flag (stopped, demobilized ...)."""
        return flag in self.flags


@dataclass(frozen=True)
class MarkerAt:
    """A marker in a position."""

    marker: str
    hex: Hex | None
    box: str | None = None
    turn: str | None = None
    value: Value = None
    toward: Hex | None = None


@dataclass(frozen=True)
class Position:
    """An immutable game situation."""

    game: Game
    turn: str
    phase: str
    phasing_side: str
    units: tuple[Unit, ...]
    markers: tuple[MarkerAt, ...] = ()
    params: dict[str, Value] = field(default_factory=dict)
    scenario: str | None = None
    source: str = "<position>"
    memo: dict = field(default_factory=dict, init=False, compare=False, repr=False)   # see :meth:`remembered`

    def remembered(self, key: Hashable, compute: Callable[[], T]) -> T:
        """What ``compute()`` works out from this position, kept under ``key`` for the next calculator that asks
        (a position never changes; ``dataclasses.replace`` makes a new one with nothing kept)."""
        if key not in self.memo:
            self.memo[key] = compute()
        return self.memo[key]

    @cached_property
    def by_id(self) -> dict[str, Unit]:
        """Units by id."""
        return {u.id: u for u in self.units}

    @cached_property
    def _by_hex(self) -> dict[Hex, list[Unit]]:
        out: dict[Hex, list[Unit]] = defaultdict(list)
        for u in self.units:
            if u.hex is not None:
                out[u.hex].append(u)
        return out

    def at(self, h: Hex) -> list[Unit]:
        """The units in a hex."""
        return self._by_hex.get(h, [])

    def occupied(self) -> Iterable[Hex]:
        """Every hex holding at least one unit."""
        return self._by_hex.keys()

    def markers_at(self, h: Hex, marker: str | None = None) -> list[MarkerAt]:
        """The markers in a hex (of one kind, if given)."""
        return [m for m in self.markers if m.hex == h and (marker is None or m.marker == marker)]

    def carried(self, carrier: Unit) -> list[Unit]:
        """The units a transport is carrying."""
        return [u for u in self.units if u.carried_by == carrier.id]

    def moved(self, changes: dict[str, Unit]) -> "Position":
        """A new position with some units replaced (by id)."""
        return replace(self, units=tuple(changes.get(u.id, u) for u in self.units))

    def to_file(self) -> PositionFile:
        """The file form of this position (hexes by name)."""
        name = self.game.map.name
        return PositionFile(
            game=self.game.spec.id, scenario=self.scenario, turn=self.turn, phase=self.phase,
            phasing_side=self.phasing_side, params=self.params,
            units=[UnitPlacement(id=u.id, counter=u.counter.id, hex=None if u.hex is None else name(u.hex),
                                 box=u.box, flags=sorted(u.flags), carried_by=u.carried_by, spent=u.spent,
                                 turn=u.arrives, entry=[name(h) for h in u.entry])
                   for u in self.units],
            markers=[MarkerPlacement(marker=m.marker, hex=None if m.hex is None else name(m.hex), box=m.box,
                                     turn=m.turn, value=m.value, toward=None if m.toward is None else name(m.toward))
                     for m in self.markers],
        )


def _hex(game: Game, text: str, file: str, where: str) -> Hex:
    try:
        return game.map.resolve(text)
    except HexNameError as err:
        raise GameDataError(file, where, f"{err}; give a hex name of map {game.spec.map!r} or one of its places") \
            from None


def _check_choice(value: str, choices: list[str], what: str, file: str, where: str) -> None:
    if value not in choices:
        raise GameDataError(file, where, expected(what, value, choices))


#: A unit id: 1 to 64 characters, none a control character (ESC, TAB, newline ...) or a backslash -- so every
#: id survives a VASSAL save (whose SequenceEncoder cannot carry a token ending in ``\`` or holding ESC).
UNIT_ID = re.compile(r"[^\x00-\x1f\x7f\\]{1,64}")
#: A game named by a position: a bundled game id (never a path).
GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
MAX_CARRY_DEPTH = 8  # a carrier may itself be carried, this many levels in all


def _check_carrying(units: dict[str, Unit], file: str) -> None:
    depth: dict[str, int] = {}  # unit id -> carriers above it (done)
    for uid, u in units.items():
        if u.carried_by is None:
            continue
        carrier = units.get(u.carried_by)
        if carrier is None:
            raise GameDataError(file, f"units[{uid}].carried_by", expected("unit id", u.carried_by, list(units)))
        if carrier.hex != u.hex or carrier.box != u.box:
            raise GameDataError(file, f"units[{uid}].carried_by",
                                f"unit {uid!r} is carried by {carrier.id!r} but is not in the same place; "
                                "put both in the same hex or box")
    for uid, u in units.items():  # iteratively, each unit's chain walked once
        chain: list[str] = []
        seen: set[str] = set()
        cur: Unit | None = u
        while cur is not None and cur.id not in depth:
            if cur.id in seen:
                raise GameDataError(file, f"units[{uid}].carried_by",
                                    f"carrying cycle through {sorted(seen)[:10]}; "
                                    "a unit cannot carry its own carrier")
            seen.add(cur.id)
            chain.append(cur.id)
            cur = units.get(cur.carried_by) if cur.carried_by else None
        d = -1 if cur is None else depth[cur.id]
        for cid in reversed(chain):
            d += 1
            depth[cid] = d
            if d > MAX_CARRY_DEPTH:
                raise GameDataError(file, f"units[{cid}].carried_by",
                                    f"unit {cid!r} is carried {d} levels deep; at most {MAX_CARRY_DEPTH} "
                                    "carriers may be stacked one in another")


def position_game(pf: PositionFile, file: str, game: Game | None = None) -> Game:
    """The game of a position: the one the *user* gave (``--game DIR``, already loaded), whose id the position's
    ``game`` must name; else the bundled game the position names.  A position never names a folder (issue 11:
    a file from a stranger cannot load a game from anywhere)."""
    if game is not None:
        if pf.game != game.spec.id:
            raise GameDataError(file, "game", f"is {pf.game[:80]!r} but the game given ({str(game.folder)!r}) is "
                                          f"{game.spec.id!r}; give the position's own game")
        return game
    if not GAME_ID.fullmatch(pf.game):
        raise GameDataError(file, "game", f"{pf.game[:80]!r} is not a game id; a position names its game by id "
                                          "(lower-case letters, digits, '-', '_'), never a folder: for your own game "
                                          "write its id and give the folder on the command line (--game ./my-game)")
    if pf.game not in _bundled_ids():
        raise GameDataError(file, "game", f"{pf.game!r} is not a bundled game ({', '.join(_bundled_ids())}); for "
                                          "your own game give its folder on the command line (--game ./my-game)")
    return load_bundled_game(pf.game)


def position_from_file(pf: PositionFile, file: str = "<position>", game: Game | None = None) -> Position:
    """Check a parsed position file against its game (``game``, given by the user, or the bundled game the file
    names: :func:`position_game`) and resolve it."""
    game = position_game(pf, file, game)
    spec = game.spec
    _check_choice(pf.turn, spec.turns, "turn", file, "turn")
    _check_choice(pf.phase, spec.phases, "phase", file, "phase")
    _check_choice(pf.phasing_side, [s.id for s in spec.sides], "side", file, "phasing_side")
    if spec.params is not None:   # the game declares its parameters: a misspelt one is an error
        for key in pf.params:   # the sequence of play keeps the phases done of a player turn (3.2)
            _check_choice(key, [*spec.params, "phases_done"], "parameter", file, f"params.{key}")
    units: dict[str, Unit] = {}
    for i, up in enumerate(pf.units):
        where = f"units[{i}]"
        if not UNIT_ID.fullmatch(up.id):
            raise GameDataError(file, f"{where}.id", f"unit id {up.id[:80]!r} is not 1 to 64 characters free of "
                                                     "control characters and backslashes")
        if up.id in units:
            raise GameDataError(file, f"{where}.id", f"duplicate unit id {up.id!r}; give each unit its own id")
        if up.counter not in game.counters:
            raise GameDataError(file, f"{where}.counter", expected("counter", up.counter, game.counters))
        for flag in up.flags:
            _check_choice(flag, spec.flags, "flag", file, f"{where}.flags")
        if up.box is not None:
            _check_choice(up.box, spec.boxes, "box", file, f"{where}.box")
        h = None if up.hex is None else _hex(game, up.hex, file, f"{where}.hex")
        if up.turn is not None:
            _check_choice(up.turn, spec.turns, "turn", file, f"{where}.turn")
        entry = tuple(_hex(game, e, file, f"{where}.entry[{j}]") for j, e in enumerate(up.entry))
        units[up.id] = Unit(up.id, game.counters[up.counter], h, up.box, frozenset(up.flags), up.carried_by,
                            up.spent, up.turn, entry)
    _check_carrying(units, file)
    markers = []
    for i, mp in enumerate(pf.markers):
        where = f"markers[{i}]"
        if mp.marker not in game.markers:
            raise GameDataError(file, f"{where}.marker", expected("marker", mp.marker, game.markers))
        if mp.turn is not None:
            _check_choice(mp.turn, spec.turns, "turn", file, f"{where}.turn")
        markers.append(MarkerAt(mp.marker, None if mp.hex is None else _hex(game, mp.hex, file, f"{where}.hex"),
                                mp.box, mp.turn, mp.value,
                                None if mp.toward is None else _hex(game, mp.toward, file, f"{where}.toward")))
    return Position(game, pf.turn, pf.phase, pf.phasing_side, tuple(units.values()), tuple(markers),
                    dict(pf.params), pf.scenario, file)


def load_position(path: str | Path, game: Game | None = None) -> Position:
    """Read and check a position file (of ``game`` when the user gave one: :func:`position_game`); raises
    :class:`GameDataError` naming the file, key and fix."""
    return position_from_yaml(read_regular(path, str(path), GameDataError), str(path), game)


def position_from_yaml(raw: bytes, file: str, game: Game | None = None) -> Position:
    """A position from the bytes of a position file (named ``file`` in errors), checked as :func:`load_position`
    checks a file."""
    pf = yaml_model(raw, file, PositionFile, DOC, GameDataError)
    try:
        return position_from_file(pf, file, game)
    except GameDataError as err:
        raise (with_line(err, raw) if err.file == file else err) from None
