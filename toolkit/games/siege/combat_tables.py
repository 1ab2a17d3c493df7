"""*The Siege of Jerusalem* fire and melee charts (``modules/siege-of-jerusalem/tables.yaml``), as one model.

Reads the sections ``line_of_fire``, ``weapons_effects``, ``missile_table``, ``missile_drm``,
``melee_table``, ``melee_drm``, ``breach_table``, ``breach_defence`` and ``recovery_table`` (the
fire/melee part of the rules package), plus ``engineering`` and ``preparation`` (19.1-19.3) read
leniently.  Other sections are ignored (``toolkit/games/siege/tables.py`` reads movement, stacking and
command).  Values the rulebook does not print are reconstructions, marked in the file.

>>> t = load_combat_tables()
>>> missile_column(t, "clear", 6), missile_column(t, "artillery", 6), missile_column(t, "testudo", 24)
((6, 0), (2, 0), (7, 1))
>>> melee_column(t, "10-1"), melee_column(t, "1-6"), melee_column(t, "16-9")
(('7-1', 3), ('1-4', -2), ('1-1', 0))
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict

from ...datafile import load_yaml_model
from ...game.module import DOC, GameDataError, modules_dir
from ...game.odds import ratio, ratio_value

GAME_ID = "siege-of-jerusalem"


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class Reading(_Model):
    choices: tuple[str, ...]
    rule: str


class LineOfFire(_Model):
    """``line_of_fire``: the LOF Determination Table as readings (9.5-9.52, 9.9, 9.13, 10.3)."""

    convention: str
    rule: str
    heights: dict[str, int]
    temple_outer_walls: str
    elevated: tuple[str, ...]
    built_up: tuple[str, ...]
    buildings: tuple[str, ...]
    slope: tuple[str, ...]
    level_ground: tuple[str, ...]
    readings: dict[str, Reading]


class WeaponsEffects(_Model):
    """``weapons_effects``: AF by range band per unit type (9.2), rock AF (10.2)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    rocks: dict[str, float]

    def bands(self, unit_type: str) -> list[tuple[int, float]] | None:
        entry = (self.model_extra or {}).get(unit_type)
        if not isinstance(entry, dict) or "bands" not in entry:
            return None
        return [(int(r), float(af)) for r, af in entry["bands"]]


class MissileRow(_Model):
    columns: tuple[int, ...]
    multiple: int


class MissileTable(_Model):
    columns: tuple[int, ...]
    rows: dict[str, MissileRow]
    terrain_rows: dict[str, str]
    rolls: tuple[int, ...]
    results: dict[str, tuple[str, ...]]


class Drm(_Model):
    value: int
    rule: str


class Multiplier(_Model):
    factor: float
    rule: str


class MissileDrm(_Model):
    model_config = ConfigDict(extra="allow", frozen=True)
    wall_bonus_factor: int = 2

    def get(self, key: str) -> Drm:
        return Drm.model_validate((self.model_extra or {})[key])


class ResultCode(_Model):
    disrupt: int
    eliminate: int
    retreat: bool


class MeleeTable(_Model):
    columns: tuple[str, ...]
    rolls: tuple[int, ...]
    results: dict[str, tuple[str, ...]]
    codes: dict[str, ResultCode]
    continuous_combat: int = 6


class MeleeDrm(_Model):
    model_config = ConfigDict(extra="allow", frozen=True)
    multipliers: dict[str, Multiplier]

    def get(self, key: str) -> Drm:
        return Drm.model_validate((self.model_extra or {})[key])


class BreachTable(_Model):
    columns: tuple[int, ...]
    damage: dict[str, tuple[int, ...]]
    gate_entry_factor: int = 2


class RecoveryTable(_Model):
    model_config = ConfigDict(extra="allow", frozen=True)
    rout_on: int = 7
    panic_on: int = 8
    eliminated_on: int = 9
    order: str = "map"

    def get(self, key: str) -> Drm:
        return Drm.model_validate((self.model_extra or {})[key])


class CombatTables(_Model):
    """The fire and melee sections of ``tables.yaml``."""

    line_of_fire: LineOfFire
    weapons_effects: WeaponsEffects
    missile_table: MissileTable
    missile_drm: MissileDrm
    melee_table: MeleeTable
    melee_drm: MeleeDrm
    breach_table: BreachTable
    breach_defence: dict[str, Any]
    recovery_table: RecoveryTable
    engineering: Optional[list[dict[str, Any]]] = None
    preparation: Optional[dict[str, Any]] = None

    def defence(self, kind: str) -> int:
        """The Breach Defence of an Elevated Hex kind (12.2)."""
        return int(self.breach_defence[kind])


@lru_cache(maxsize=4)
def _load(path: Path, mtime: float) -> CombatTables:
    return load_yaml_model(path, CombatTables, DOC, GameDataError)


def load_combat_tables(folder: str | Path | None = None) -> CombatTables:
    """The fire and melee charts of the game folder (default: the bundled module)."""
    path = Path(folder or modules_dir() / GAME_ID) / "tables.yaml"
    return _load(path, path.stat().st_mtime if path.exists() else 0.0)


# -- lookups ------------------------------------------------------------------------------------------------------
def missile_column(tables: CombatTables, row: str, af: float | Fraction) -> tuple[int | None, int]:
    """The Missile Table column (1-7) of ``af`` Attack Factors on ``row``, and the 13.4 drm beyond column 7.

    ``None`` when ``af`` is below the row's first column (the attack has no column).  Each column's value is
    the fewest AF for it (13.2); beyond column 7, +1 per full ``multiple`` (13.4: 24 AF vs a Testudo +1).
    """
    r = tables.missile_table.rows[row]
    a = Fraction(str(af)) if not isinstance(af, Fraction) else af
    fitting = [i for i, need in enumerate(r.columns) if a >= need]
    if not fitting:
        return None, 0
    col = tables.missile_table.columns[max(fitting)]
    extra = 0
    if max(fitting) == len(r.columns) - 1:
        extra = int((a - r.columns[-1]) // r.multiple)
    return col, extra


def melee_column(tables: CombatTables, odds: str) -> tuple[str, int]:
    """The Melee Table column of odds already rounded for the defender, and the 11.83 drm.

    Worse than 1-4: the 1-4 column, -1 per multiple below it (1-6: -2); better than 7-1: the 7-1 column, +1
    per multiple above it (10-1: +3).  ``odds`` may be ``"16-9"``: it is rounded first (11.81).
    """
    a, d = (int(x) for x in odds.split("-"))
    text = ratio(a, d)
    cols = tables.melee_table.columns
    v = ratio_value(text)
    lo, hi = ratio_value(cols[0]), ratio_value(cols[-1])
    if v < lo:
        return cols[0], -(int(text.split("-")[1]) - int(cols[0].split("-")[1]))
    if v > hi:
        return cols[-1], int(text.split("-")[0]) - int(cols[-1].split("-")[0])
    fitting = [c for c in cols if ratio_value(c) <= v]
    return max(fitting, key=ratio_value), 0


def table_result(rolls: tuple[int, ...], results: tuple[str, ...], final: int) -> str:
    """The result of a final roll, the lowest and highest rolls standing for 'or less' / 'or more'."""
    i = min(max(final, rolls[0]), rolls[-1]) - rolls[0]
    return results[i]
