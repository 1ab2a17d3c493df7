"""*No Prisoners* chart values the rules code reads (``modules/no-prisoners/tables.yaml``), as a model.

Only the sections the calculators use are modelled; the file holds more
(movement, stacking, combat tables) for the rules still to come.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from ...datafile import load_yaml_model
from ...game.module import DOC, GameDataError


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class SupplyTable(_Model):
    """Supply line lengths in hexes."""

    allied_line: int   # 15.2 A
    cp_line: int       # 15.3 A
    fsd_trace: int     # 15.8 B


class RailTable(_Model):
    """Which printed railway lines belong to which net."""

    allied_lines: frozenset[str]  # 16.1 A: the red net; every other railway line is the CP's
    built_lines: frozenset[str]   # 16.1 B: Allied lines in play only behind the railhead marker


class Tables(_Model):
    """``tables.yaml`` (the modelled sections)."""

    supply: SupplyTable
    rail: RailTable


@lru_cache(maxsize=8)
def load_tables(folder: Path) -> Tables:
    """The tables of the game module in ``folder`` (cached); raises :class:`GameDataError` on a bad file."""
    return load_yaml_model(folder / "tables.yaml", Tables, DOC, GameDataError)
