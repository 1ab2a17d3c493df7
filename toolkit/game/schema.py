"""The file formats of a game module (``modules/<game>/``), as pydantic models.

* ``game.yaml`` -- :class:`GameSpec`: sides, nationalities, unit types, unit
  flags, turns, phases, and the bundled map it is played on;
* ``counters.yaml`` -- :class:`CounterManifest`: every counter and marker;
* a position (a scenario set-up or a saved situation) -- :class:`PositionFile`.

Game-specific counter values (strengths, MP, ranges ...) are a flat mapping
here; each game's rules package checks their keys and types.  Documented in
``docs/game-files.md``.
"""
from __future__ import annotations

from typing import Annotated, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

#: The largest counter value (a strength, MP, a range): far beyond any game's, and finite, so that everything
#: computed from one (half movement points, strengths times multipliers) stays a finite number.
MAX_VALUE = 10**9
Value = Optional[Union[bool, Annotated[int, Field(ge=-MAX_VALUE, le=MAX_VALUE)],
                       Annotated[float, Field(ge=-MAX_VALUE, le=MAX_VALUE, allow_inf_nan=False)], str]]
Ident = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Side(_Model):
    """A player's side and its counter colours."""

    id: str = Ident
    name: str
    color: str = "#ffffff"
    text: str = "#000000"


class Nationality(_Model):
    """A nationality (or force) of a side, with its counter colours."""

    id: str = Ident
    name: str
    side: str
    color: str = "#ffffff"
    text: str = "#000000"


class Stacking(_Model):
    """``game.yaml`` ``stacking``: a game's own stacking limits, checked by ``toolkit check`` for a game the toolkit
    has no rules assistant for (the bundled games check theirs in their rules packages)."""

    limit: int = Field(ge=1)                       # units (or stacking points) of one side in a hex
    points: Optional[str] = None                   # the counter value giving a unit's stacking points (else 1)
    terrain: dict[str, int] = {}                   # a terrain's own limit (the lowest of a hex's terrains wins)
    free_types: list[str] = []                     # unit types that do not count (HQ, leaders ...)


class Facing(_Model):
    """``game.yaml`` ``facing``: the unit types whose counters point across a hexside, and the flags naming the
    hexsides, clockwise from the one the counter's top points across (the VASSAL module turns those counters)."""

    unit_types: list[str] = Field(min_length=1)
    flags: list[str] = Field(min_length=2)


#: What a phase may allow (``game.yaml`` ``phases[].allows``): each word and what it lets the phasing player do.
ALLOWS = {
    "movement": "move units",
    "combat": "attack (combat resolved on the odds)",
    "fire": "fire missile units and Artillery",
    "breach": "make Breach attacks against Elevated Hexes",
    "melee": "attack in melee",
    "recovery": "roll to recover Disrupted units",
    "reserves": "activate Reserves",
    "reinforcements": "bring on reinforcements",
    "replacements": "bring back eliminated units as replacements",
    "random_events": "roll for a random event",
    "victory": "total the victory points",
    "turn_end": "advance the turn marker",
}


#: The unit-type symbols a counter can show (``game.yaml`` ``symbols``: unit type -> one of these) and what each
#: draws in the symbol box (docs/game-files.md).
SYMBOLS = {
    "infantry": "a box with a cross (X)",
    "armour": "a box with an oval (tracks)",
    "mechanized": "a box with a cross and an oval",
    "artillery": "a box with a dot",
    "cavalry": "a box with one diagonal",
    "recon": "a box with one diagonal and an oval",
    "airborne": "a box with a cross and a canopy arc",
    "hq": "a box with a flag",
    "engineer": "a box with a bridge (E)",
    "transport": "a box with a line and wheels",
    "garrison": "a box with a cross over a filled base",
    "leader": "a star, no box",
    "dummy": "a question mark, no box",
    "letters": "a box with the type's initials",
}


class Phase(_Model):
    """A phase's display name, the side it belongs to, what it allows (words of :data:`ALLOWS`) and its rule
    (``game.yaml`` ``phases`` entries may be mappings)."""

    id: str = Ident
    name: Optional[str] = None
    side: Optional[str] = None
    allows: list[str] = []
    rule: Optional[str] = None
    player_turn: Optional[str] = None      # the player turn it belongs to (No Prisoners' four a turn, 4.1 B)
    turns: list[str] = []                  # only in the turns matching one of these (fnmatch: "*-IV"); [] every turn
    skip_turns: list[str] = []             # never in the turns matching one of these ("*-III": 22.4)
    moved_flag: Optional[str] = None       # the flag a unit that moves in this phase gets (Jerusalem! 3.2, 7.2)
    allows_only: dict[str, str] = {}       # an activity of `allows` -> the only side that may do it here (18.61)

    @field_validator("allows")
    @classmethod
    def _known_activities(cls, v: list[str]) -> list[str]:
        unknown = [a for a in v if a not in ALLOWS]
        if unknown:
            raise ValueError(f"allows: {', '.join(map(repr, unknown))} unknown; use the words "
                             f"{', '.join(ALLOWS)} (toolkit/game/schema.py ALLOWS)")
        return v


class Box(_Model):
    """An off-map box's name as its rulebook prints it and the rule naming it (``game.yaml`` ``boxes`` entries may
    be mappings: ``{id: air_naval, name: Air Groups and Naval Squadrons, rule: "19.2"}``)."""

    id: str = Ident
    name: str = Field(min_length=1, max_length=60)
    rule: Optional[str] = None


class EntryAreaSpec(_Model):
    """Hexes where a side's reinforcements come on, which the VASSAL module marks on its map (``game.yaml``
    ``entry_areas``: ``{side, hexes, name, rule}``; ``hexes``: a ``place_lists`` name or hex and place names)."""

    side: str
    hexes: Union[str, list[str]]
    name: str = Field(min_length=1, max_length=60)
    rule: Optional[str] = None


#: When a flag comes off a unit (``game.yaml`` ``flags_cleared``), besides ``SIDE_player_turn_start``.
FLAG_CLEARED_AT = ("phase_end", "player_turn_end", "turn_end")


class GameEnd(_Model):
    """When the game ends (``game.yaml`` ``end``): after the player turn of ``side`` in ``turn`` (``side`` None:
    after the whole turn; ``turn`` None: the last turn), by ``rule``."""

    turn: Optional[str] = None
    side: Optional[str] = None
    rule: Optional[str] = None


class GameSpec(_Model):
    """``game.yaml``: the vocabulary a game's other files use.

    ``phases`` lists phase ids, each a plain id or ``{id, name, side, allows, rule}``; the details go to
    ``phase_info``:

    >>> spec = GameSpec.model_validate({"id": "g", "title": "G", "map": "example", "sides": [{"id": "red", "name": "R"}],
    ...     "nationalities": [], "unit_types": [], "turns": ["1"],
    ...     "phases": ["setup", {"id": "red_move", "name": "Red Movement", "side": "red", "allows": ["movement"]}]})
    >>> spec.phases, spec.phase_name("red_move"), spec.phase_side("red_move"), spec.phase_name("setup")
    (['setup', 'red_move'], 'Red Movement', 'red', 'setup')
    >>> spec.phase_allows("red_move"), spec.phase_allows("setup")
    (['movement'], [])
    """

    id: str = Ident
    title: str
    map: str
    sides: list[Side]
    nationalities: list[Nationality]
    unit_types: list[str]
    flags: list[str] = []
    turns: list[str]
    phases: list[str]
    boxes: list[str] = ["reinforcements", "eliminated", "off_map"]
    place_lists: dict[str, list[str]] = {}
    counter_factors: list[str] = []       # value keys printed on counters, in order ("A-D-M"; a missing key is refused)
    symbols: dict[str, str] = {}          # unit type -> a symbol of SYMBOLS (else guessed from the type's name)
    counter_white_types: list[str] = []   # unit types printed on white with the nationality colour as figure
    dice: list[tuple[int, int]] = [(1, 6)]  # the rolls the rules use, as (number of dice, sides)
    back_flag: Optional[str] = None        # the unit flag a counter carries while it shows its back face
    hidden_flag: Optional[str] = None      # the unit flag of a piece placed face down (masked from the opponent)
    hideable: dict[str, list[str]] = {}    # side id -> unit types whose counters may be placed face down
    player_turns: list[str] = []           # side ids in player-turn order, when every player turn has the phases
    eliminated_box: str = "eliminated"     # the box eliminated units go to (VASSAL's Eliminate action)
    params: Optional[list[str]] = None     # the position parameters the rules read; None: any name is accepted
    stacking: Optional[Stacking] = None    # your own game's stacking limits (toolkit check)
    arrivals_box: Optional[str] = None     # the box whose units wait on the turn record track by arrival turn
    facing: Optional[Facing] = None        # counters that show a facing (VASSAL: a rotation of one hexside a step)
    turn_markers: list[str] = []           # markers that stand on the turn record track at the current turn
    phase_info: dict[str, Phase] = {}      # filled from the mapping entries of `phases`
    box_info: dict[str, Box] = {}          # filled from the mapping entries of `boxes`
    entry_areas: list[EntryAreaSpec] = []  # where reinforcements come on, marked on the VASSAL map
    phases_in_any_order: Optional[str] = None  # the rule letting a player turn's phases come in any order (3.2)
    flags_cleared: dict[str, str] = {}     # flag -> when it comes off: phase_end, player_turn_end, turn_end, SIDE_player_turn_start
    params_cleared: dict[str, str] = {}    # position parameter -> when it is dropped (the same moments)
    end: Optional[GameEnd] = None          # when the game ends (else after the last turn's last phase)

    @model_validator(mode="before")
    @classmethod
    def _phase_entries(cls, data):
        """Mapping entries of ``phases`` (``boxes``) give their id to ``phases`` (``boxes``) and their details to
        ``phase_info`` (``box_info``)."""
        for key, info_key in (("phases", "phase_info"), ("boxes", "box_info")):
            if isinstance(data, dict) and isinstance(data.get(key), list):
                entries = data[key]
                info = {e["id"]: e for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)}
                if info:
                    data = {**data, key: [e["id"] if isinstance(e, dict) and "id" in e else e for e in entries],
                            info_key: {**data.get(info_key, {}), **info}}
        return data

    def box_name(self, box: str) -> str:
        """An off-map box's name as players read it: its ``name`` in ``game.yaml``, else its id in words
        (``off_map`` -> ``Off map``)."""
        info = self.box_info.get(box)
        return info.name if info is not None else box.replace("_", " ").capitalize()

    def _check_box_names(self) -> None:
        """Every ``box_info`` names a box of ``boxes``, and no two boxes read alike (a VASSAL module finds a box's
        zone by its name)."""
        for bid in self.box_info:
            if bid not in self.boxes:
                raise ValueError(f"box_info names box {bid!r}, which is not among `boxes` {self.boxes}")
        names = [self.box_name(b).casefold() for b in self.boxes]
        same = sorted({b for b, n in zip(self.boxes, names) if names.count(n) > 1})
        if same:
            raise ValueError(f"boxes {same} have the same name; give each its own `name`")

    def phase_name(self, phase: str) -> str:
        """A phase's display name (its id when the game gives none)."""
        info = self.phase_info.get(phase)
        return info.name if info is not None and info.name else phase

    def phase_allows(self, phase: str, side: str | None = None) -> list[str]:
        """What a phase allows (words of :data:`ALLOWS`; empty when ``game.yaml`` does not say); with ``side``,
        less what ``allows_only`` keeps for the other side."""
        info = self.phase_info.get(phase)
        if info is None:
            return []
        return [a for a in info.allows if side is None or info.allows_only.get(a, side) == side]

    def phase_side(self, phase: str) -> str | None:
        """The side a phase belongs to: the side ``game.yaml`` gives it, else the side whose id its id names as a
        word (No Prisoners' ``west_cp_movement`` is ``cp``'s); else None."""
        info = self.phase_info.get(phase)
        if info is not None and info.side is not None:
            return info.side
        named = [s.id for s in self.sides if s.id in phase.split("_")]
        return named[0] if len(named) == 1 else None

    @model_validator(mode="after")
    def _vassal_keys_named(self) -> "GameSpec":
        for key in ("back_flag", "hidden_flag"):
            flag = getattr(self, key)
            if flag is not None and flag not in self.flags:
                raise ValueError(f"{key} {flag!r} is not among `flags` {self.flags}; add it there or fix the name")
        sides = {s.id for s in self.sides}
        for side, types in self.hideable.items():
            if side not in sides:
                raise ValueError(f"hideable names side {side!r}, which is not among `sides` {sorted(sides)}")
            unknown = [t for t in types if t not in self.unit_types]
            if unknown:
                raise ValueError(f"hideable[{side}] names unit types {unknown} that are not among `unit_types`")
        if self.boxes and self.eliminated_box not in self.boxes:
            raise ValueError(f"eliminated_box {self.eliminated_box!r} is not among `boxes` {self.boxes}")
        if self.arrivals_box is not None and self.arrivals_box not in self.boxes:
            raise ValueError(f"arrivals_box {self.arrivals_box!r} is not among `boxes` {self.boxes}")
        if self.facing is not None:
            unknown = [t for t in self.facing.unit_types if t not in self.unit_types] + \
                      [f for f in self.facing.flags if f not in self.flags]
            if unknown:
                raise ValueError(f"facing names {unknown}, which are not among `unit_types` and `flags`")
        unknown = [sd for sd in self.player_turns if sd not in sides]
        if unknown:
            raise ValueError(f"player_turns names sides {unknown} that are not among `sides` {sorted(sides)}")
        self._check_symbols()
        if self.hideable and self.hidden_flag is None:
            raise ValueError("hideable needs hidden_flag: the flag a face-down unit carries")
        self._check_box_names()
        for area in self.entry_areas:
            if area.side not in sides:
                raise ValueError(f"entry_areas: side {area.side!r} is not among `sides` {sorted(sides)}")
            if isinstance(area.hexes, str) and area.hexes not in self.place_lists:
                raise ValueError(f"entry_areas: hexes {area.hexes!r} is not among `place_lists`; name a list there "
                                 "or give the hexes")
        for pid, info in self.phase_info.items():
            if pid not in self.phases:
                raise ValueError(f"phase_info names phase {pid!r}, which is not among `phases`")
            if info.side is not None and info.side not in sides:
                raise ValueError(f"phase {pid!r}: side {info.side!r} is not among `sides` {sorted(sides)}")
            if info.moved_flag is not None and info.moved_flag not in self.flags:
                raise ValueError(f"phase {pid!r}: moved_flag {info.moved_flag!r} is not among `flags`")
            bad = {a: sd for a, sd in info.allows_only.items() if a not in info.allows or sd not in sides}
            if bad:
                raise ValueError(f"phase {pid!r}: allows_only {bad} must name activities of its `allows` and sides")
        self._check_sequence(sides)
        if self.stacking is not None:
            unknown = [t for t in self.stacking.free_types if t not in self.unit_types]
            if unknown:
                raise ValueError(f"stacking.free_types names unit types {unknown} that are not among `unit_types`")
            low = {t: n for t, n in self.stacking.terrain.items() if n < 0}
            if low:
                raise ValueError(f"stacking.terrain: limits must be 0 or more, not {low}")
        return self


    def _check_sequence(self, sides: set[str]) -> None:
        """``flags_cleared`` and ``params_cleared`` name known flags, parameters and moments; ``end`` a known turn
        and side."""
        moments = [*FLAG_CLEARED_AT, *(f"{sd}_player_turn_start" for sd in sorted(sides))]
        for key, names, known in (("flags_cleared", "flags", self.flags), ("params_cleared", "params", self.params)):
            for name, when in getattr(self, key).items():
                if known is not None and name not in known:
                    raise ValueError(f"{key} names {name!r}, which is not among `{names}`")
                if when not in moments:
                    raise ValueError(f"{key}[{name}]: {when!r} is not one of {', '.join(moments)}")
        if self.end is not None:
            if self.end.turn is not None and self.end.turn not in self.turns:
                raise ValueError(f"end.turn {self.end.turn!r} is not among `turns`")
            if self.end.side is not None and self.end.side not in sides:
                raise ValueError(f"end.side {self.end.side!r} is not among `sides` {sorted(sides)}")

    def _check_symbols(self) -> None:
        """``symbols`` maps known unit types to known symbol names."""
        for unit_type, symbol in self.symbols.items():
            if unit_type not in self.unit_types:
                raise ValueError(f"symbols names unit type {unit_type!r}, which is not among `unit_types` "
                                 f"{self.unit_types}; fix the name or add the type there")
            if symbol not in SYMBOLS:
                raise ValueError(f"symbols[{unit_type}]: {symbol!r} is not a symbol; use one of "
                                 f"{', '.join(SYMBOLS)} (docs/game-files.md)")


class Counter(_Model):
    """One counter of the manifest (``count`` copies in the game)."""

    id: str = Ident
    name: str
    side: str
    nationality: str
    type: str
    count: int = Field(1, ge=0)
    values: dict[str, Value] = {}
    back: Optional[dict[str, Value]] = None
    back_name: Optional[str] = None
    image: Optional[str] = None            # a picture of the front (a path inside the game folder), not drawn art
    back_image: Optional[str] = None       # a picture of the back face (a counter with `back`)
    reconstructed: list[str] = []
    rules: list[str] = []

    @model_validator(mode="after")
    def _reconstructed_keys_exist(self) -> "Counter":
        unknown = [k for k in self.reconstructed if k not in self.values and k != "count"]
        if unknown:
            raise ValueError(f"reconstructed lists {unknown} which are not among this counter's values")
        return self

    def value(self, key: str, back: bool = False, default: Value = None) -> Value:
        """A value of the front (or, if it has one, the back) face."""
        if back and self.back and key in self.back:
            return self.back[key]
        return self.values.get(key, default)


class Marker(_Model):
    """A marker (no side, does not count for stacking)."""

    id: str = Ident
    name: str
    rules: list[str] = []
    color: str = "#ffffff"
    text: str = "#000000"


class CounterManifest(_Model):
    """``counters.yaml``."""

    game: str
    counters: list[Counter]
    markers: list[Marker] = []


class UnitPlacement(_Model):
    """A unit of a position: on a hex, or in an off-map box."""

    id: str
    counter: str
    hex: Optional[str] = None
    box: Optional[str] = None
    flags: list[str] = []
    carried_by: Optional[str] = None
    spent: float = Field(0, ge=0, le=MAX_VALUE, allow_inf_nan=False)  # MP already used this phase
    turn: Optional[str] = None     # the turn a reinforcement arrives (rules.yaml reinforcements)
    entry: list[str] = []          # where this reinforcement comes on (hexes or places; else its side's entry)

    @model_validator(mode="after")
    def _one_place(self) -> "UnitPlacement":
        if (self.hex is None) == (self.box is None):
            raise ValueError("give exactly one of `hex` (a hex or place name) and `box` (an off-map box)")
        return self


class MarkerPlacement(_Model):
    """A marker of a position."""

    marker: str
    hex: Optional[str] = None
    box: Optional[str] = None
    turn: Optional[str] = None
    value: Value = None
    toward: Optional[str] = None


class PositionFile(_Model):
    """A position: turn, phase, phasing side, units and markers."""

    game: str
    scenario: Optional[str] = None
    turn: str
    phase: str
    phasing_side: str
    params: dict[str, Value] = {}
    units: list[UnitPlacement]
    markers: list[MarkerPlacement] = []
