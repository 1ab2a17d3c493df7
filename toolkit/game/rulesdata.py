"""``rules.yaml``: a game's common rules as data (docs/rules-data.md), for any game folder.

Movement (allowance, classes, terrain, hexside and line costs, kinds of movement, phases), zones of control,
combat (odds or differential tables, terrain, hexsides, modifiers), combat results and retreats, supply,
command, reinforcements and victory, each citing the rule number the game's maker gives.  This module only
reads and checks the file (the pydantic models below, then :func:`check_rules` against the game's vocabulary,
counters and map); the calculators are in :mod:`toolkit.games.data`, and never parse files.

Costs are movement points, multiples of ½ (the move generator counts half points); ``P`` marks a prohibited
entry.  A cost is one number for every movement class, or a mapping ``class -> cost``:

>>> TerrainCosts(costs={"clear": 1, "swamp": {"foot": 3, "wheel": "P"}}).costs["swamp"]
{'foot': 3.0, 'wheel': 'P'}
"""
from __future__ import annotations

import math
import re

from functools import cache, partial

from typing import Annotated, Any, ClassVar, Literal, Optional, Union

from pydantic import (BaseModel, ConfigDict, Field, PlainValidator, TypeAdapter, WithJsonSchema, WrapValidator,
                      model_validator)

from ..datafile import expected

DOC = "docs/rules-data.md"

# Bounds of the numbers in rules.yaml: far beyond any board game's, small enough that every calculation stays
# quick and exact (the move search counts half points; a combat lists every roll of its dice; a retreat's
# search grows with its length).
MAX_POINTS = 1000        # movement points: a cost, an allowance, a supply trace
MAX_HEXES = 1000         # a supply trace or command radius in hexes
MAX_RETREAT = 20         # hexes of one retreat
MAX_SHIFT = 20           # columns shifted, or added to a die roll
MAX_FACTOR = 100         # a multiplier of strength
MAX_DICE, MAX_SIDES, MAX_ROLLS = 5, 100, 10_000   # dice of a combat roll, sides of a die, outcomes listed
MAX_VP = 1_000_000


def _points(value: Any, what: str = "movement points") -> float:
    """A number of movement points: 0 to :data:`MAX_POINTS`, in steps of ½."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 <= value <= MAX_POINTS or value * 2 != int(value * 2):
        raise ValueError(f"{what} {value!r}: give a number from 0 to {MAX_POINTS} in steps of ½")
    return float(value)


def _cost(value: Any) -> float | str:
    """A cost: movement points (:func:`_points`) or ``P`` (prohibited)."""
    if value == "P":
        return "P"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"cost {str(value)[:40]!r}: give a number of movement points (steps of ½) or P (prohibited)")
    return _points(value, "cost")


def _costs(value: Any) -> float | str | dict[str, float | str]:
    """One cost for every movement class, or a mapping class -> cost."""
    if not isinstance(value, dict):
        return _cost(value)
    out = {}
    for cls, cost in value.items():
        try:
            out[str(cls)] = _cost(cost)
        except ValueError as err:
            raise ValueError(f"class {str(cls)[:40]!r}: {err}") from None
    return out


_POINTS_SCHEMA = {"type": "number", "minimum": 0, "maximum": MAX_POINTS, "multipleOf": 0.5}
_COST_SCHEMA = {"anyOf": [_POINTS_SCHEMA, {"const": "P"}]}
Points = Annotated[float, PlainValidator(_points), WithJsonSchema(_POINTS_SCHEMA)]
Cost = Annotated[Union[float, Literal["P"]], PlainValidator(_cost), WithJsonSchema(_COST_SCHEMA)]
Costs = Annotated[Union[float, Literal["P"], dict[str, Union[float, Literal["P"]]]], PlainValidator(_costs),
                  WithJsonSchema({"anyOf": [_COST_SCHEMA, {"type": "object", "additionalProperties": _COST_SCHEMA}]})]
Factor = Annotated[float, Field(ge=0, le=MAX_FACTOR, allow_inf_nan=False)]
Shift = Annotated[int, Field(ge=-MAX_SHIFT, le=MAX_SHIFT)]
VP = Annotated[int, Field(ge=-MAX_VP, le=MAX_VP)]


Multiplier = Annotated[float, Field(gt=0, le=MAX_FACTOR, allow_inf_nan=False)]


class OneOrList:
    """``OneOrList[M]``: an entry, or a list of its variants (Conditions), each validated as ``M`` so that an error
    names the key where it is (``zoc.leave.cost``, ``zoc.leave[1].cost``)."""

    def __class_getitem__(cls, model: type) -> Any:
        return Annotated[Union[model, list[model]], WrapValidator(partial(_one_or_list, model))]


def _one_or_list(model: type, value: Any, handler) -> Any:
    """Validate an entry (a mapping) or a list of its variants (at least one)."""
    return model.model_validate(value) if not isinstance(value, list) else _list(model, value)


def _value_or_list(model: type, value: Any, handler) -> Any:
    """Validate a value (a cost, a length) or a list of its variants (at least one)."""
    return handler(value) if not isinstance(value, list) else _list(model, value)


def _list(model: type, value: list) -> list:
    if not value:
        raise ValueError("give at least one variant, or the entry itself")
    return _variants(model).validate_python(value)


@cache
def _variants(model: type) -> TypeAdapter:
    return TypeAdapter(list[model])



class _Model(BaseModel):
    """A part of ``rules.yaml``: an unknown key is refused; ``REFUSED`` names keys of a neighbouring part that
    are not read here (no key is ever accepted and ignored), each with the fix."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    REFUSED: ClassVar[dict[str, str]] = {}

    @model_validator(mode="before")
    @classmethod
    def _refused(cls, data: Any) -> Any:
        for key, fix in cls.REFUSED.items():
            if isinstance(data, dict) and key in data:
                raise ValueError(f"`{key}` has no effect here: {fix}")
        return data


class Rule(_Model):
    """Anything that cites the game's own rule number (``rule: "6.2"``), shown in every answer."""

    rule: str = ""


class Situation(_Model):
    """When an entry applies, read from the position only (no code is evaluated): every test given must hold.
    ``params``: position parameters, each a value or a list of values (``{weather: [mud, snow]}``; a parameter
    the position does not give matches none); ``turns``: the turn is one of these; ``phase``: the phase is one of
    these; ``sides``: the phasing side is one of these; ``terrain``: the hex the entry looks at (docs/rules-data.md,
    Conditions: the hex entered, the unit's, the defender's …) has one of these terrains; ``features``: that hex
    carries each feature named, with one of the values given (``{river: minor}``; ``[]``: any value)."""

    params: dict[str, Union[str, list[str]]] = {}
    turns: list[str] = []
    phase: list[str] = []
    sides: list[str] = []
    terrain: list[str] = []
    features: dict[str, Union[str, list[str]]] = {}

    def looks_at_hex(self) -> bool:
        """Whether a test reads the hex the entry looks at (``terrain``, ``features``)."""
        return bool(self.terrain or self.features)


class Conditional(Rule):
    """An entry that holds only while its ``when`` does; a mapping's entry may instead be a list of such variants,
    the first whose ``when`` holds applying (``[{cost: 3, when: {params: {weather: mud}}}, {cost: 2}]``)."""

    when: Situation = Situation()


class CostVariant(Conditional):
    """One variant of a terrain's cost: ``cost`` while ``when`` holds (Conditions)."""

    cost: Costs


TerrainCost = Annotated[Union[Costs, list[CostVariant]], WrapValidator(partial(_value_or_list, CostVariant))]


class TerrainCosts(Rule):
    """The cost of entering a hex by its terrain, per movement class (or a list of variants by situation); a hex
    with several terrains costs the highest of them (``several: highest``) or their sum (``several: sum``)."""

    costs: dict[str, TerrainCost]
    several: Literal["highest", "sum"] = "highest"


class FeatureMatch(Conditional):
    """A map feature an entry of rules.yaml applies to: its key names the feature, or ``feature`` does (so that
    several entries can match one feature's values); ``value`` limits it to hexsides or hexes whose feature has
    that value (docs/map-format.md: feature values), else any value matches.  Of the entries matching one
    feature, those naming its value win over those naming none."""

    feature: Optional[str] = None
    value: Optional[str] = None

    def target(self, key: str) -> str:
        """The map feature the entry under ``key`` applies to."""
        return self.feature or key

    def label(self, key: str) -> str:
        """The feature in words, with its value when the entry names one (``river (minor)``)."""
        return self.target(key) + (f" ({self.value})" if self.value is not None else "")


class HexsideCost(FeatureMatch):
    """A hexside feature's cost, added to the hex entered across it (``P``: it may not be crossed)."""

    cost: Costs


class LineRate(FeatureMatch):
    """A path feature (road, rail) moved along: the cost of each hex entered along it, instead of the terrain and
    hexside costs; ``kind`` limits it to one kind of movement (``toolkit moves --kind``)."""

    cost: Costs
    kind: Optional[str] = None


class MovementKind(Rule):
    """Another kind of movement (rail, strategic, a road phase): only along ``along``, with its own allowance (a
    counter value or a number of MP, ``any``: as far as its lines go; else the unit's own) and its own way with
    enemy zones of control; ``only``: in its ``phases`` it is the one kind of movement (a road movement phase)."""

    along: list[str] = []
    allowance: Union[str, Points, None] = None
    enemy_zoc: Literal["normal", "stop", "prohibited"] = "normal"
    phases: list[str] = []     # the phases it may be used in (empty: every movement phase)
    only: bool = False


class MovementCap(Conditional):
    """At most ``max`` movement points for each unit (of ``types``: every type when empty) while ``when`` holds
    (its hex: the unit's; every unit's allowance capped at 2 in mud)."""

    max: Points
    types: list[str] = []


class MinimumMove(Rule):
    """A unit may always move one hex, whatever it costs (never into a prohibited hex or across a prohibited
    hexside, never where zones of control forbid it)."""


class Movement(Rule):
    """Movement: allowance, classes, costs, kinds and the phases units move in."""

    allowance: str                                  # the counter value holding the movement allowance
    classes: dict[str, list[str]] = {}              # movement class -> unit types (a type not listed: its own class)
    terrain: TerrainCosts
    hexsides: dict[str, OneOrList[HexsideCost]] = {}   # -> cost
    lines: dict[str, OneOrList[LineRate]] = {}   # -> rate along it
    kinds: dict[str, MovementKind] = {}
    minimum_move: Optional[MinimumMove] = None
    phases: dict[str, Union[Literal["all"], list[str]]] = {}   # movement phase -> unit types that move in it
    enemy_units: Rule = Rule()                      # the rule barring entry into a hex enemy units hold
    caps: list[MovementCap] = []                    # allowances capped while a situation holds (weather …)


class ZocEnter(Conditional):
    """What entering an enemy zone of control does: ``stop`` the move there, or ``none``."""

    effect: Literal["stop", "none"] = "stop"


class ZocLeave(Conditional):
    """The extra cost of leaving a hex in an enemy zone of control (``P``: a unit may not leave it)."""

    cost: Cost = 0.0


class ZocToZoc(Conditional):
    """Whether a unit may move directly from one enemy-controlled hex to another."""

    allowed: bool = True


class Zoc(Conditional):
    """Zones of control: the six hexes around a unit of ``exerted_by`` (every type when empty), except across
    ``not_across`` hexside features and into ``not_into`` terrain, exerted only while ``when`` holds (its hex: the
    exerting unit's); friendly units in a hex negate enemy zones there for what ``negated_by_friends`` lists.
    ``enter``, ``leave`` and ``zoc_to_zoc`` may each be a list of variants (the first whose ``when`` holds; none:
    no stop, no cost, allowed)."""

    exerted_by: list[str] = []
    not_across: list[str] = []
    not_into: list[str] = []
    enter: OneOrList[ZocEnter] = ZocEnter()
    leave: OneOrList[ZocLeave] = ZocLeave()
    zoc_to_zoc: OneOrList[ZocToZoc] = ZocToZoc()
    negated_by_friends: list[Literal["supply", "command", "reinforcements", "retreat"]] = []


class CombatTable(Rule):
    """A combat results table: ``odds`` (columns ``1-2``, ``1-1``, ``3-1`` …) or ``differential`` (``-2``, ``0``,
    ``+3`` …), ascending; a row of results per die roll; odds beyond either end use the end column."""

    kind: Literal["odds", "differential"] = "odds"
    columns: list[str] = Field(min_length=1)
    die: tuple[Annotated[int, Field(ge=1, le=MAX_DICE)], Annotated[int, Field(ge=2, le=MAX_SIDES)]] = (1, 6)
    # the roll: (number of dice, sides)
    rows: dict[int, list[str]]
    below: Optional[str] = None   # the result below the first column (else the first column's; refused: no attack)


class TerrainEffect(Conditional):
    """The defender's terrain in combat: a column ``shift`` (+ to the attacker) and a ``multiply`` of the
    defence."""

    REFUSED = {"drm": "a terrain gives a column shift or multiplies the defence; for a die-roll modifier give "
                      "combat.modifiers an entry with `drm` and `when: {defender_terrain: [...]}`"}
    shift: Shift = 0
    multiply: Optional[Multiplier] = None


class HexsideEffect(FeatureMatch):
    """An effect of attacking across a hexside feature: a column ``shift`` and a die-roll modifier ``drm`` when
    every attacker attacks across it (``across: all``) or any does (``any``); ``attack`` multiplies the attack
    strength of each attacker attacking across it.  ``when: all`` / ``when: any`` is the older spelling of
    ``across`` (a ``when`` mapping is a condition)."""

    REFUSED = {"multiply": "write `attack: 0.5` to multiply the strength of each attacker attacking across it "
                           "(a defence multiplier belongs to the defender's terrain, combat.terrain)"}
    shift: Shift = 0
    drm: Shift = 0
    attack: Optional[Multiplier] = None
    across: Literal["all", "any"] = "all"

    @model_validator(mode="before")
    @classmethod
    def _across(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("when"), str) and "across" not in data:
            data = {**data, "across": data["when"]}
            del data["when"]
        return data


class Condition(Situation):
    """When a modifier applies: every given test must hold (the tests of :class:`Situation`, its hex the
    defender's, and these)."""

    REFUSED = {"terrain": "the defender's terrain is `defender_terrain: [...]` (or `defender_terrain_not`)"}

    attacker_types: list[str] = []        # some attacker is of one of these types
    defender_types: list[str] = []        # some defender is of one of these types
    defender_terrain: list[str] = []      # the defender's hex has one of these terrains
    defender_terrain_not: list[str] = []  # … none of these


class Modifier(Rule):
    """A modifier with its condition: a column ``shift`` (+ to the attacker) and/or a die-roll modifier ``drm``."""

    REFUSED = {"multiply": "a modifier shifts the column or modifies the roll; multiply the defence by its terrain "
                           "(combat.terrain) or the attackers across a hexside (combat.hexsides: attack)"}
    id: str
    shift: Shift = 0
    drm: Shift = 0
    why: str = ""
    when: Condition = Condition()


class SupplyEffect(Rule):
    """What being out of supply does to a unit's strength in combat."""

    attack: Factor = 1
    defence: Factor = 1


class Combat(Rule):
    """Combat: strengths from counter values, the table, the result codes and what changes the odds."""

    attack: str                                   # counter value: attack strength
    defence: str                                  # counter value: defence strength
    table: CombatTable
    results: dict[str, str]                       # result code -> its meaning
    # defender's terrain (the best for the defender of its terrains), each one effect or a list of variants
    terrain: dict[str, OneOrList[TerrainEffect]] = {}
    terrain_rule: str = ""
    hexsides: dict[str, OneOrList[HexsideEffect]] = {}
    modifiers: list[Modifier] = []
    out_of_supply: Optional[SupplyEffect] = None
    adjacent: Rule = Rule()                       # the rule: attackers must be next to every defender


class Exchange(_Model):
    """An exchange by steps: ``steps`` lost by each side of the combat (``per: side``: by its units in the order
    named, the owner's choice) or by each of its units (``per: unit``)."""

    per: Literal["side", "unit"] = "side"
    steps: int = Field(1, ge=1, le=MAX_RETREAT)


class SideEffect(_Model):
    """What a combat result does to each unit of one side of the combat."""

    retreat: int = Field(0, ge=0, le=MAX_RETREAT)   # hexes to retreat
    eliminate: bool = False
    step_loss: bool = False              # turned to its back face (eliminated when it shows it, or has none)
    note: str = ""                       # what the owner still decides (which units an exchange costs …)


class ResultEffect(Rule):
    """A result code's effect on the attacker's and the defender's units; ``exchange``: steps each side loses
    (besides its own effect)."""

    attacker: SideEffect = SideEffect()
    defender: SideEffect = SideEffect()
    exchange: Optional[Exchange] = None


class RetreatZoc(Rule):
    """Whether a retreat may enter an enemy zone of control (``zoc.negated_by_friends`` with ``retreat``: a
    friendly unit there negates it)."""

    effect: Literal["allowed", "prohibited"] = "prohibited"


class RetreatStacking(Rule):
    """Ending a retreat over the stacking limit (game.yaml ``stacking``): ``allowed``, ``prohibited`` (no such
    retreat), or ``last_resort`` (only when no other retreat exists; the excess is then eliminated)."""

    effect: Literal["allowed", "prohibited", "last_resort"] = "last_resort"


class Retreat(Rule):
    """Applying combat results: what each result code does, and the retreat's restrictions (besides the
    movement section's prohibited terrain and hexsides and the hexes enemy units hold)."""

    results: dict[str, ResultEffect]
    away: Optional[Rule] = Rule()          # each hex farther from the hex retreated from (null: not required)
    not_toward_enemy: Optional[Rule] = None   # no hex closer to the enemy units of the combat
    enemy_zoc: RetreatZoc = RetreatZoc()
    overstack: RetreatStacking = RetreatStacking()


class Sources(Rule):
    """Where a side's supply comes from: hexes, places, path features (a rail net) and map edges."""

    hexes: list[str] = []
    places: list[str] = []
    features: list[str] = []
    edges: list[Literal["north", "south", "east", "west"]] = []


class Blocks(_Model):
    """What a supply or command trace may not enter; a list of variants picks, for each hex the trace enters, the
    first whose ``when`` holds there (none: nothing blocks it)."""

    enemy_units: bool = True
    enemy_zoc: bool = False        # unless a friendly unit is there (zoc.negated_by_friends)
    terrain: list[str] = []
    hexsides: list[str] = []
    when: Situation = Situation()


Hexes = Annotated[int, Field(ge=0, le=MAX_HEXES)]


class SupplyHexes(Conditional):
    """One variant of a supply line's length in hexes (``null``: unlimited) while ``when`` holds (its hex: the
    unit's)."""

    hexes: Optional[Hexes]


class SupplyMP(Conditional):
    """One variant of a supply line's length in movement points while ``when`` holds (its hex: the unit's)."""

    mp: Points


class Supply(Rule):
    """Supply lines: from each unit to a source of its side, at most ``hexes`` long (``null``: unlimited; or
    within ``mp`` movement points of the unit's ``movement_class``), avoiding what ``blocked_by`` lists; each may
    be a list of variants."""

    sources: dict[str, Sources]                   # side -> its sources
    hexes: Annotated[Union[Hexes, None, list[SupplyHexes]], WrapValidator(partial(_value_or_list, SupplyHexes))] = None
    mp: Annotated[Union[Points, None, list[SupplyMP]], WrapValidator(partial(_value_or_list, SupplyMP))] = None
    movement_class: Optional[str] = None
    blocked_by: OneOrList[Blocks] = Blocks()


class Command(Rule):
    """Command radius: units of ``applies_to`` (every type but the HQs when empty) are in command within
    ``radius`` hexes (a counter value or a number) of a friendly HQ, traced around what ``blocked_by`` lists."""

    hq_types: list[str] = Field(min_length=1)
    radius: Union[str, Annotated[int, Field(ge=0, le=MAX_HEXES)]]
    applies_to: list[str] = []
    blocked_by: OneOrList[Blocks] = Blocks(enemy_units=True)


class Entry(Rule):
    """Where a side's reinforcements come on: hexes, places, a ``place_lists`` entry of game.yaml, map regions,
    map edges."""

    hexes: list[str] = []
    places: list[str] = []
    place_list: Optional[str] = None
    regions: list[str] = []
    edges: list[Literal["north", "south", "east", "west"]] = []


class Reinforcements(Rule):
    """Reinforcements: units in ``box`` with an arrival ``turn`` come on at their side's entry hexes (or their
    own ``entry``), not into enemy units nor (``enemy_zoc: prohibited``) enemy zones of control."""

    box: str = "reinforcements"
    entry: dict[str, Entry] = {}
    enemy_zoc: Literal["allowed", "prohibited"] = "prohibited"


class Objective(Conditional):
    """An objective hex: ``vp`` to ``side`` while it holds the hex (``owner`` holds it until someone enters it),
    counted while ``when`` holds (its hex: the objective)."""

    hex: str
    vp: VP
    side: str
    owner: Optional[str] = None


class Level(_Model):
    """A victory level: ``side`` achieves ``result`` with at least ``vp`` victory points, while ``when`` holds."""

    side: str
    vp: VP
    result: str
    when: Situation = Situation()


class SuddenDeath(Conditional):
    """A sudden-death victory, checked at the end of each turn (``at: turn``) or phase (``phase``) while ``when``
    holds: ``side`` wins with ``result`` when it has at least ``vp`` victory points and holds every hex of
    ``hexes`` (each test given must hold); the game ends there."""

    side: str
    vp: Optional[VP] = None
    hexes: list[str] = []
    result: str
    at: Literal["turn", "phase"] = "turn"


class EndScoring(Rule):
    """Victory points scored only at the game's end (after its last phase): ``objectives`` held then, and
    ``eliminated`` points to each side for every enemy unit in game.yaml's eliminated box."""

    objectives: list[Objective] = []
    eliminated: dict[str, VP] = {}              # side -> VP for each enemy unit eliminated


class Victory(Rule):
    """Objectives, control markers and victory levels (checked in order; else ``otherwise``), sudden death and
    end-of-game scoring."""

    objectives: list[Objective] = []
    control_markers: dict[str, str] = {}          # side -> the marker showing it controls a hex
    levels: list[Level] = []
    otherwise: str = "no side has won yet"
    sudden_death: list[SuddenDeath] = []
    end: Optional[EndScoring] = None


class Replacements(Rule):
    """Replacements: in its ``phase`` each side may return up to ``per_side`` steps or units (``returns``) from
    ``from_box`` to the map at its ``entry`` (else the reinforcements' entry), or, by steps, turn a reduced unit
    back to its front; each unit so replaced carries game.yaml's ``flag`` until the flag comes off."""

    phase: list[str] = Field(min_length=1)     # one phase may be written alone: `phase: axis_replacements`
    per_side: dict[str, Annotated[int, Field(ge=0, le=MAX_HEXES)]]
    returns: Literal["step", "unit"] = "unit"
    from_box: str = "eliminated"
    flag: str
    entry: dict[str, Entry] = {}

    @model_validator(mode="before")
    @classmethod
    def _one_phase(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("phase"), str):
            data = {**data, "phase": [data["phase"]]}
        return data


class Placement(Rule):
    """The rules ``toolkit check`` applies to where units stand: no unit in a hex its class may not enter, no
    two sides in one hex."""

    prohibited_terrain: Rule = Rule()
    both_sides: Rule = Rule()


class RulesData(_Model):
    """A whole ``rules.yaml``: every section is optional."""

    game: str
    movement: Optional[Movement] = None
    zoc: Optional[Zoc] = None
    combat: Optional[Combat] = None
    retreat: Optional[Retreat] = None
    supply: Optional[Supply] = None
    command: Optional[Command] = None
    reinforcements: Optional[Reinforcements] = None
    victory: Optional[Victory] = None
    replacements: Optional[Replacements] = None
    placement: Placement = Placement()


def cited_topics(rules: RulesData) -> dict[str, str]:
    """What each rule number a ``rules.yaml`` cites is about, from where it is cited (the first place wins): the
    page's rule topics for a game whose folder has no ``rule_topics.yaml`` entry for it.

    >>> data = RulesData(game="g", zoc=Zoc(rule="7.0", enter=ZocEnter(effect="stop", rule="7.1")))
    >>> cited_topics(data)
    {'7.0': 'ZOC', '7.1': 'ZOC: enter'}
    """
    topics: dict[str, str] = {}

    def walk(value, path: tuple[str, ...]) -> None:
        if isinstance(value, BaseModel):
            if getattr(value, "rule", ""):
                topics.setdefault(value.rule, ": ".join(path))
            for name in type(value).model_fields:
                field = getattr(value, name)
                if name.endswith("_rule") and field:
                    topics.setdefault(field, ": ".join((*path, name.removesuffix("_rule"))))
                elif name != "rule":
                    walk(field, (*path, name) if path else (name,))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*path[:-1], f"{path[-1]} ({key})") if path else (str(key),))
        elif isinstance(value, (list, tuple)):
            for item in value:
                label = getattr(item, "id", None) or getattr(item, "hex", None)
                walk(item, (*path[:-1], f"{path[-1]} ({label})") if label and path else path)

    walk(rules, ())
    return {rule: re.sub(r"\b(zoc|mp|vp)\b", lambda m: m.group(1).upper(), topic.replace("_", " "))
            for rule, topic in topics.items()}


def rules_json_schema() -> dict:
    """The JSON Schema of ``rules.yaml`` (``toolkit schema rules``)."""
    return RulesData.model_json_schema()


class RulesCheck:
    """Cross-checks of a ``rules.yaml`` against its game (:func:`check_rules`): every name it uses must exist."""

    def __init__(self, rules: RulesData, spec, manifest, cmap, file: str, error):
        self.rules, self.spec, self.cmap, self.file, self.error = rules, spec, cmap, file, error
        self.counters, self.markers = manifest.counters, [m.id for m in manifest.markers]

    def fail(self, key: str, problem: str):
        """Raise the game's data error at ``key`` of ``rules.yaml``."""
        raise self.error(self.file, key, problem)

    def names(self, key: str, given, known, what: str) -> None:
        """Every name of ``given`` (a list or mapping) must be among ``known``."""
        for i, name in enumerate(given):
            if name not in known:
                self.fail(f"{key}[{i}]" if isinstance(given, list) else f"{key}.{name}", expected(what, name, known))

    def features(self, key: str, given, kind: str) -> None:
        """Feature names of the map, of ``kind`` (``path`` or ``hexside``); a mapping's entries may name their
        feature (``feature``) and one of its values on the map (``value``)."""
        if isinstance(given, dict):
            for name, entries in given.items():
                for at, entry in self.each(f"{key}.{name}", entries):
                    where = at + (".feature" if entry.feature else "")
                    if entry.target(name) not in self.cmap.feature_types:
                        self.fail(where, expected("feature", entry.target(name), list(self.cmap.feature_types)))
                    self.features(where, [entry.target(name)], kind)
                    if entry.value is not None:
                        self.feature_value(f"{at}.value", entry.target(name), entry.value)
                    self.situation(f"{at}.when", entry.when)
            return
        self.names(key, given, list(self.cmap.feature_types), "feature")
        for name in given:
            if self.cmap.feature_types[name].kind != kind:
                other = "movement.lines" if kind == "hexside" else "movement.hexsides"
                self.fail(key, f"{name!r} is a {self.cmap.feature_types[name].kind} feature of the map, not a {kind} "
                               f"feature; move it to {other}" if key.startswith("movement.") else
                               f"{name!r} is not a {kind} feature of the map")

    @staticmethod
    def each(key: str, entry) -> list[tuple[str, Any]]:
        """An entry, or each variant of a list of them, with its key."""
        return [(f"{key}[{i}]", v) for i, v in enumerate(entry)] if isinstance(entry, list) else [(key, entry)]

    def last_unconditional(self, key: str, entry) -> None:
        """A list of variants giving a value that must always exist ends with one with no ``when``."""
        if isinstance(entry, list) and entry[-1].when != Situation():
            self.fail(f"{key}[{len(entry) - 1}].when", "the last variant applies whenever no other does: give it "
                                                      "no `when`")

    def feature_value(self, key: str, feature: str, value: str) -> None:
        """A value some hex or hexside of the map gives ``feature`` (a misspelt value would match nothing)."""
        found = {str(attrs[feature]) for attrs in (*self.cmap.hexsides.values(),
                                                   *(i.features for i in self.cmap.hexes.values()))
                 if feature in attrs}
        if value not in found:
            self.fail(key, f"no hex or hexside of the map has {feature} = {value!r}; its values on the map: "
                           f"{', '.join(sorted(found)) or 'none'} (docs/map-format.md: feature values)")

    def hexes(self, key: str, names: list[str]) -> None:
        """Hex or place names of the map."""
        for i, text in enumerate(names):
            try:
                self.cmap.resolve(text)
            except ValueError as err:
                self.fail(f"{key}[{i}]", str(err))

    def values(self, key: str, value_key: str, types: set[str] | None = None) -> None:
        """Every counter (of ``types``) has a number under ``value_key``."""
        for i, c in enumerate(self.counters):
            if types is not None and c.type not in types:
                continue
            for face in (c.values, {**c.values, **(c.back or {})}):
                v = face.get(value_key)
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    self.fail(key, f"counter {c.id!r} (counters.yaml counters[{i}]) has no number under "
                                   f"values.{value_key}; add it, or name another value here")

    def run(self) -> None:
        """Every check, section by section."""
        r, spec = self.rules, self.spec
        sides, types, phases = [s.id for s in spec.sides], spec.unit_types, spec.phases
        classes = self.movement(types, phases) if r.movement else set()
        if r.zoc:
            self.names("zoc.exerted_by", r.zoc.exerted_by, types, "unit type")
            self.features("zoc.not_across", r.zoc.not_across, "hexside")
            self.names("zoc.not_into", r.zoc.not_into, list(self.cmap.terrain_types), "terrain")
            self.situation("zoc.when", r.zoc.when)
            for part in ("enter", "leave", "zoc_to_zoc"):
                for at, v in self.each(f"zoc.{part}", getattr(r.zoc, part)):
                    self.situation(f"{at}.when", v.when)
        if r.combat:
            self.combat(types, phases)
        if r.retreat:
            self.retreat()
        for key, blocks in (("supply", r.supply and r.supply.blocked_by),
                            ("command", r.command and r.command.blocked_by)):
            for at, b in (self.each(f"{key}.blocked_by", blocks) if blocks else []):
                self.names(f"{at}.terrain", b.terrain, list(self.cmap.terrain_types), "terrain")
                self.features(f"{at}.hexsides", b.hexsides, "hexside")
                self.situation(f"{at}.when", b.when)
        if r.supply:
            self.names("supply.sources", r.supply.sources, sides, "side")
            for side, src in r.supply.sources.items():
                self.hexes(f"supply.sources.{side}.hexes", src.hexes)
                self.hexes(f"supply.sources.{side}.places", src.places)
                self.features(f"supply.sources.{side}.features", src.features, "path")
            if r.supply.mp is not None and r.movement is None:
                self.fail("supply.mp", "a trace in movement points needs a movement section; give hexes instead")
            if (r.supply.mp is None) != (r.supply.movement_class is None):
                self.fail("supply.movement_class" if r.supply.mp is not None else "supply.mp",
                          "a trace in movement points gives both mp and movement_class (whose costs it pays), "
                          "e.g. `mp: 7, movement_class: foot`; or give hexes instead")
            if r.supply.movement_class is not None:
                self.names("supply", [r.supply.movement_class], sorted(classes), "movement class")
            if r.supply.mp is not None and r.supply.hexes is not None:
                self.fail("supply.hexes", "a line is counted in hexes or in movement points (mp), not both")
            for part in ("hexes", "mp"):
                length = getattr(r.supply, part)
                if isinstance(length, list):
                    self.last_unconditional(f"supply.{part}", length)
                    for at, v in self.each(f"supply.{part}", length):
                        self.situation(f"{at}.when", v.when)
        if r.command:
            self.names("command.hq_types", r.command.hq_types, types, "unit type")
            self.names("command.applies_to", r.command.applies_to, types, "unit type")
            if isinstance(r.command.radius, str):
                self.values("command.radius", r.command.radius, set(r.command.hq_types))
        if r.reinforcements:
            self.names("reinforcements.box", [r.reinforcements.box], spec.boxes, "box")
            self.names("reinforcements.entry", r.reinforcements.entry, sides, "side")
            for side, e in r.reinforcements.entry.items():
                self.entry(f"reinforcements.entry.{side}", e)
        if r.victory:
            self.objectives("victory.objectives", r.victory.objectives, sides)
            self.names("victory.control_markers", r.victory.control_markers, sides, "side")
            for side, m in r.victory.control_markers.items():
                self.names(f"victory.control_markers.{side}", [m], self.markers, "marker")
            for i, lv in enumerate(r.victory.levels):
                self.names(f"victory.levels[{i}].side", [lv.side], sides, "side")
                self.situation(f"victory.levels[{i}].when", lv.when, hex_test=False)
            self.victory(sides)
        if r.replacements:
            self.replacements(sides, phases)

    def movement(self, types: list[str], phases: list[str]) -> set[str]:
        """The movement section; returns the movement classes."""
        m = self.rules.movement
        self.names("movement.classes", [t for ts in m.classes.values() for t in ts], types, "unit type")
        seen: dict[str, str] = {}
        for cls, ts in m.classes.items():
            for t in ts:
                if t in seen:
                    self.fail(f"movement.classes.{cls}", f"unit type {t!r} is also in class {seen[t]!r}; "
                                                         "give each type one class")
                seen[t] = cls
        classes = set(m.classes) | {t for t in types if t not in seen}
        terrains = list(self.cmap.terrain_types)
        self.names("movement.terrain.costs", m.terrain.costs, terrains, "terrain")
        missing = [t for t in terrains if t not in m.terrain.costs]
        if missing:
            self.fail("movement.terrain.costs", f"no cost for the map's terrain {', '.join(map(repr, missing))}; "
                                                "give every terrain of the map a cost (P for prohibited)")
        costs = []   # (key, cost) of every cost given: a terrain's (or each of its variants'), a hexside's, a line's
        for name, entry in m.terrain.costs.items():
            if not isinstance(entry, list):
                costs.append((f"movement.terrain.costs.{name}", entry))
                continue
            self.last_unconditional(f"movement.terrain.costs.{name}", entry)
            for at, v in self.each(f"movement.terrain.costs.{name}", entry):
                self.situation(f"{at}.when", v.when)
                costs.append((f"{at}.cost", v.cost))
        costs += [(f"{at}.cost", v.cost) for part in ("hexsides", "lines") for k, e in getattr(m, part).items()
                  for at, v in self.each(f"movement.{part}.{k}", e)]
        for where, cost in costs:
            if isinstance(cost, dict):
                self.names(where, cost, sorted(classes), "movement class")
                gaps = sorted(classes - set(cost))
                if gaps:
                    self.fail(where, f"no cost for the movement class {', '.join(map(repr, gaps))}; give one "
                                     "cost for every class (or one number for all)")
        self.features("movement.hexsides", m.hexsides, "hexside")
        self.features("movement.lines", m.lines, "path")
        self.names("movement.phases", m.phases, phases, "phase")
        for phase, ts in m.phases.items():
            if ts != "all":
                self.names(f"movement.phases.{phase}", ts, types, "unit type")
        for name, kind in m.kinds.items():
            self.features(f"movement.kinds.{name}.along", kind.along, "path")
            if kind.only and not kind.phases:
                self.fail(f"movement.kinds.{name}.only", "give the phases in which it is the only kind of movement "
                                                         "(phases: [...])")
            self.names(f"movement.kinds.{name}.phases", kind.phases, phases, "phase")
            if isinstance(kind.allowance, str) and kind.allowance != "any":
                self.values(f"movement.kinds.{name}.allowance", kind.allowance)
        for name, entry in m.lines.items():
            for at, line in self.each(f"movement.lines.{name}", entry):
                if line.kind is not None and line.kind not in m.kinds:
                    self.fail(f"{at}.kind", expected("kind of movement", line.kind, list(m.kinds)))
        self.values("movement.allowance", m.allowance)
        for i, cap in enumerate(m.caps):
            self.names(f"movement.caps[{i}].types", cap.types, types, "unit type")
            self.situation(f"movement.caps[{i}].when", cap.when)
        return classes

    def situation(self, key: str, w: Situation, hex_test: bool = True) -> None:
        """A condition's names: the game's parameters (game.yaml ``params``, when it lists them), turns, phases,
        sides, terrain and feature values of the map (``hex_test``: where the entry looks at a hex)."""
        spec = self.spec
        if w.looks_at_hex() and not hex_test:
            self.fail(f"{key}.{'terrain' if w.terrain else 'features'}", "this entry looks at no hex: test the "
                                                                         "params, turns, phase or sides only")
        self.names(f"{key}.terrain", w.terrain, list(self.cmap.terrain_types), "terrain")
        self.names(f"{key}.features", w.features, list(self.cmap.feature_types), "feature of the map")
        for name, given in w.features.items():
            if self.cmap.feature_types[name].kind == "hexside":
                self.fail(f"{key}.features.{name}", f"a condition reads the features of a hex, and {name!r} is a "
                                                    "hexside feature: match it by the entry's feature and value")
            for v in [given] if isinstance(given, str) else given:
                self.feature_value(f"{key}.features.{name}", name, v)
        if spec.params is not None:
            self.names(f"{key}.params", w.params, spec.params, "position parameter (game.yaml params)")
        for name, given in w.params.items():
            if given == [] or given == "":
                self.fail(f"{key}.params.{name}", "give the value (or values) the parameter must have")
        self.names(f"{key}.turns", w.turns, spec.turns, "turn")
        self.names(f"{key}.phase", w.phase, spec.phases, "phase")
        self.names(f"{key}.sides", w.sides, [sd.id for sd in spec.sides], "side")

    def combat(self, types: list[str], phases: list[str]) -> None:
        """The combat section."""
        c = self.rules.combat
        self.values("combat.attack", c.attack)
        self.values("combat.defence", c.defence)
        t = c.table
        if t.kind == "odds":
            for i, col in enumerate(t.columns):
                a, _, d = col.partition("-")
                if not (a.isdigit() and d.isdigit() and (a == "1" or d == "1") and int(a) > 0 and int(d) > 0):
                    self.fail(f"combat.table.columns[{i}]", f"{col!r} is not odds like 1-2, 1-1 or 3-1")
        else:
            for i, col in enumerate(t.columns):
                if not col.lstrip("+-").isdigit():
                    self.fail(f"combat.table.columns[{i}]", f"{col!r} is not a differential like -2, 0 or +3")
        n, sides = t.die
        if sides ** n > MAX_ROLLS:
            self.fail("combat.table.die", f"{n}d{sides} has {sides ** n:,} outcomes, over the limit of {MAX_ROLLS:,}; "
                                          "give fewer dice or sides")
        want = list(range(n, n * sides + 1))
        if sorted(t.rows) != want:
            self.fail("combat.table.rows", f"rows for rolls {sorted(t.rows)}; a roll of {n}d{sides} gives "
                                           f"{want[0]} to {want[-1]}: give one row for each")
        codes = list(c.results)
        for roll, row in t.rows.items():
            if len(row) != len(t.columns):
                self.fail(f"combat.table.rows.{roll}", f"{len(row)} results for {len(t.columns)} columns")
            self.names(f"combat.table.rows.{roll}", row, codes, "result code (combat.results)")
        if t.below is not None and t.below != "refused":
            self.names("combat.table.below", [t.below], codes + ["refused"], "result code (combat.results)")
        self.names("combat.terrain", c.terrain, list(self.cmap.terrain_types), "terrain")
        for name, entry in c.terrain.items():
            for at, v in self.each(f"combat.terrain.{name}", entry):
                self.situation(f"{at}.when", v.when)
        self.features("combat.hexsides", c.hexsides, "hexside")
        for i, m in enumerate(c.modifiers):
            w = m.when
            self.names(f"combat.modifiers[{i}].when.attacker_types", w.attacker_types, types, "unit type")
            self.names(f"combat.modifiers[{i}].when.defender_types", w.defender_types, types, "unit type")
            for key in ("defender_terrain", "defender_terrain_not"):
                self.names(f"combat.modifiers[{i}].when.{key}", getattr(w, key), list(self.cmap.terrain_types),
                           "terrain")
            self.situation(f"combat.modifiers[{i}].when", w)


    def entry(self, key: str, e: Entry) -> None:
        """Entry hexes: hexes and places of the map, its regions, a place list of game.yaml."""
        self.hexes(f"{key}.hexes", e.hexes)
        self.hexes(f"{key}.places", e.places)
        regions = sorted({i.region for i in self.cmap.hexes.values() if i.region})
        self.names(f"{key}.regions", e.regions, regions, "region of the map")
        if e.place_list is not None:
            self.names(f"{key}.place_list", [e.place_list], list(self.spec.place_lists), "place list of game.yaml")

    def objectives(self, key: str, objectives: list[Objective], sides: list[str]) -> None:
        """Objective hexes, their sides and conditions."""
        for i, o in enumerate(objectives):
            self.hexes(f"{key}[{i}].hex", [o.hex])
            self.names(f"{key}[{i}].side", [o.side] + ([o.owner] if o.owner else []), sides, "side")
            self.situation(f"{key}[{i}].when", o.when)

    def victory(self, sides: list[str]) -> None:
        """Sudden death and end-of-game scoring."""
        v = self.rules.victory
        for i, sd in enumerate(v.sudden_death):
            key = f"victory.sudden_death[{i}]"
            self.names(f"{key}.side", [sd.side], sides, "side")
            self.hexes(f"{key}.hexes", sd.hexes)
            self.situation(f"{key}.when", sd.when, hex_test=False)
            if sd.vp is None and not sd.hexes:
                self.fail(key, "say what wins: `vp: N` (at least N victory points), `hexes: [...]` (every one held), "
                               "or both")
        if v.end is not None:
            self.objectives("victory.end.objectives", v.end.objectives, sides)
            self.names("victory.end.eliminated", v.end.eliminated, sides, "side")

    def replacements(self, sides: list[str], phases: list[str]) -> None:
        """The replacements section: its phases, sides, box, flag and entry hexes."""
        r, spec = self.rules.replacements, self.spec
        self.names("replacements.phase", r.phase, phases, "phase")
        self.names("replacements.per_side", r.per_side, sides, "side")
        self.names("replacements.from_box", [r.from_box], spec.boxes, "box")
        self.names("replacements.flag", [r.flag], spec.flags, "flag of game.yaml")
        self.names("replacements.entry", r.entry, sides, "side")
        for side, e in r.entry.items():
            self.entry(f"replacements.entry.{side}", e)
        if not r.entry and (self.rules.reinforcements is None or not self.rules.reinforcements.entry):
            self.fail("replacements.entry", "say where replaced units come back: give entry hexes here or in "
                                            "reinforcements.entry")
        if r.returns == "step" and spec.back_flag is None:
            self.fail("replacements.returns", "a step turns a unit between its faces, but game.yaml declares no "
                                              "back_flag; declare one, or give `returns: unit`")

    def retreat(self) -> None:
        """The retreat section: result codes of the combat table, and what its restrictions need."""
        r = self.rules.retreat
        if self.rules.combat is None or self.rules.movement is None:
            self.fail("retreat", "a retreat needs the combat section (its result codes) and the movement section "
                                 "(the terrain a retreat may not enter); declare them")
        self.names("retreat.results", r.results, list(self.rules.combat.results), "result code (combat.results)")
        if r.enemy_zoc.effect == "prohibited" and self.rules.zoc is None:
            self.fail("retreat.enemy_zoc", "no zoc section says where enemy zones of control are; declare zoc, "
                                           "or give effect: allowed")
        if r.overstack.effect != "allowed" and self.spec.stacking is None:
            self.fail("retreat.overstack", "game.yaml declares no stacking limits; declare stacking there, or "
                                           "give effect: allowed")
        for code, effect in r.results.items():
            if (effect.attacker.step_loss or effect.defender.step_loss) and self.spec.back_flag is None:
                self.fail(f"retreat.results.{code}", "a step loss turns a unit to its back face, but game.yaml "
                                                     "declares no back_flag; declare one, or eliminate instead")


def check_rules(rules: RulesData, spec, manifest, cmap, file: str, error) -> None:
    """Refuse a ``rules.yaml`` naming what its game does not have (unit types, terrain, features, phases, sides,
    hexes, counter values, result codes), raising ``error`` at the key with the fix."""
    if rules.game != spec.id:
        raise error(file, "game", f"is {rules.game!r} but game.yaml says {spec.id!r}")
    RulesCheck(rules, spec, manifest, cmap, file, error).run()
