"""*No Prisoners* chart values (``modules/no-prisoners/tables.yaml``), as one model.

Every calculator reads its sections from :func:`load_tables`: supply line
lengths and rail nets (15.x, 16.x), movement costs (8.x, 22.2), stacking
(9.x), the combat tables (11.x) and the scenario set-up zones.  Values the
rulebook does not print are reconstructions, marked in the file.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...datafile import load_yaml_model
from ...game.module import DOC, GameDataError


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class SupplyTable(_Model):
    """Supply line lengths in hexes."""

    allied_line: int   # 15.2 A
    cp_line: int       # 15.3 A
    fsd_trace: int     # 15.8 B


class RailheadSpec(_Model):
    arrives: Optional[str] = None         # 16.2 A


class RailTable(_Model):
    """Which printed railway lines belong to which net, rail capacity, the railhead."""

    allied_lines: frozenset[str]  # 16.1 A: the red net; every other railway line is the CP's
    built_lines: frozenset[str]   # 16.1 B: Allied lines in play only behind the railhead marker
    capacity: dict[str, Any] = {}                      # 8.10: <allied|cp>_<west|east>: {year: moves}
    railhead: RailheadSpec = RailheadSpec()


class RailheadMoveSpec(_Model):
    """How many rail hexes the railhead marker may move in a phase (16.2 B)."""

    supplied: int
    out_of_supply: int


class MovementTable(_Model):
    """``movement``: half-MP costs (None: prohibited)."""

    terrain: dict[str, Optional[int]]                 # 8.6 A: cost to enter, by base terrain
    type_costs: dict[str, Any] = {}                    # 8.2 B: per unit type {terrain: cost}
    hexside: dict[str, Optional[int]] = {}             # 8.6 B: added to the hex cost
    road: int                                          # 8.7 A
    strategic_multiplier: int                          # 8.1 C
    disengage_fraction: float                          # 10.6 B
    minimum_move_hexes: int                            # 8.4
    railhead_move: RailheadMoveSpec                    # 16.2 B


class ScenarioRule(_Model):
    """A scenario special rule that lets some units do what the standard rules forbid (26.5 B)."""

    allows: Literal["strategic_into_ezoc"]
    scenario: str
    turn: str
    phase: str
    side: str
    sector: Optional[str] = None
    places: Union[str, tuple[str, ...]]
    radius: int = 0
    rule: str


class StackingTable(_Model):
    """``stacking``: most non-support units of a side in a hex, by terrain (9.1)."""

    reconstructed: bool = False
    limit: dict[str, int]                 # 9.1: by terrain; city / town replace the base terrain
    free_types: tuple[str, ...] = ()      # 9.4 B
    free_markers: tuple[str, ...] = ()    # 9.4 B


class WinterTable(_Model):
    movement: dict[str, Optional[int]] = {}            # 22.2
    stacking: dict[str, int] = {}                      # 22.2


class WeatherTable(_Model):
    seasons: dict[str, str] = {}                       # 22.1: turn numeral -> season
    winter: WinterTable = WinterTable()


class Zone(_Model):
    """One line of a scenario's set-up (25.x, 26.x)."""

    units: tuple[str, ...] = ()
    markers: tuple[str, ...] = ()
    places: Union[str, tuple[str, ...], None] = None
    radius: int = 0
    terrain: Optional[str] = None
    sector: Optional[str] = None
    each_place_one: bool = False
    max_per_hex: Optional[int] = None
    boxes: dict[str, tuple[str, ...]] = {}
    rule: str


class BaseColumns(_Model):
    lowest: str                    # 11.3, 11.14: ½:1
    highest: str                   # 11.14: 6:1
    rule: str = "11.14"


class ShiftSpec(_Model):
    shift: int = 1
    max: int = 1                   # 11.11 A
    rule: str
    range_to_friendly_city_or_town: Optional[int] = None   # 11.8 A


class PursuitTable(_Model):
    """``pursuit``: the in-command bonus (13.5); each unit's own length (13.3) is its counter value ``pursuit``."""

    command_bonus: int                     # 13.5


class InfiltrationSpec(_Model):
    """``infiltration``: from which turn units with the counter value ``infiltration`` advance how far (19.3)."""

    from_: str = Field(alias="from")
    hexes: int
    rule: str


class ResultCode(_Model):
    attacker_loss: Union[int, str] = 0     # all | half | one | 0
    defender_loss: Union[int, str] = 0
    attacker_retreat: int = 0
    defender_retreat: int = 0
    pursuit: Optional[str] = None


def _split_reconstructed(value: Any, key: str) -> Any:
    if isinstance(value, dict) and key not in value:
        rest = {k: v for k, v in value.items() if k != "reconstructed"}
        return {"reconstructed": bool(value.get("reconstructed", False)), key: rest}
    return value


class CrtGrid(_Model):
    reconstructed: bool = False
    rows: dict[str, tuple[str, ...]]

    @model_validator(mode="before")
    @classmethod
    def _split(cls, v: Any) -> Any:
        return _split_reconstructed(v, "rows")


class ResultTable(_Model):
    reconstructed: bool = False
    codes: dict[str, ResultCode]

    @model_validator(mode="before")
    @classmethod
    def _split(cls, v: Any) -> Any:
        return _split_reconstructed(v, "codes")


class DefenceTable(_Model):
    reconstructed: bool = False
    terrain: dict[str, float] = {}
    hexside: dict[str, float] = {}


class ArabRevoltDeploy(_Model):
    """How far from the south edge or another Allied Eastern unit tribal units may deploy (18.4)."""

    south_edge_hexes: int
    near_allied_east_unit_hexes: int


class ArabRevoltTable(_Model):
    """``arab_revolt``: only what the deployment rules need."""

    deploy: ArabRevoltDeploy


class LeaderUpgrade(_Model):
    """``leader_upgrades``: the turn and phase in which a leader counter is flipped for good (19.2 A/B)."""

    turn: str
    phase: str
    rule: str


class Tables(_Model):
    """``tables.yaml``."""

    supply: SupplyTable
    rail: RailTable
    movement: MovementTable
    stacking: StackingTable
    scenario_rules: tuple[ScenarioRule, ...] = ()
    weather: WeatherTable = WeatherTable()
    setup_zones: dict[str, tuple[Zone, ...]] = {}
    arab_revolt: ArabRevoltTable
    leader_upgrades: dict[str, LeaderUpgrade] = {}     # counter id -> when it flips (19.2 A/B)
    # 11.x, 21.2: the combat tables

    odds_columns: tuple[str, ...]
    base_columns: BaseColumns
    column_shifts: dict[str, ShiftSpec]
    no_mocrt_into: tuple[str, ...] = ()
    results: ResultTable
    rcrt: CrtGrid
    mocrt: CrtGrid
    defence: DefenceTable
    pursuit: PursuitTable                  # 13.3, 13.5
    infiltration: InfiltrationSpec         # 19.3

    @model_validator(mode="after")
    def _columns(self) -> "Tables":
        for name, grid in (("rcrt", self.rcrt), ("mocrt", self.mocrt)):
            for col, row in grid.rows.items():
                if col not in self.odds_columns:
                    raise ValueError(f"{name} column {col!r} is not in odds_columns")
                if len(row) != 6:
                    raise ValueError(f"{name} column {col!r}: six results, one per die roll")
                bad = [c for c in row if c not in self.results.codes]
                if bad:
                    raise ValueError(f"{name} column {col!r}: unknown result code(s) {bad}")
        for c in (self.base_columns.lowest, self.base_columns.highest):
            if c not in self.odds_columns:
                raise ValueError(f"base column {c!r} is not in odds_columns")
        return self


@lru_cache(maxsize=8)
def load_tables(folder: Path) -> Tables:
    """The tables of the game module in ``folder`` (cached); raises :class:`GameDataError` on a bad file."""
    return load_yaml_model(folder / "tables.yaml", Tables, DOC, GameDataError)
