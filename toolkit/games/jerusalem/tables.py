"""*Jerusalem!* chart values (``modules/jerusalem-1948/tables.yaml``), as data.

Movement costs are in *half* movement points so ½ MP is exact.  The printed
Terrain Effects Chart is not available: values come from the rulebook's text
(1.3, 9.5, 9.6); anything the text does not give is marked reconstructed in
the file.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict

from ...datafile import load_yaml_model
from ...game.module import DOC, GameDataError, modules_dir

GAME_ID = "jerusalem-1948"


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class RoadCosts(_Model):
    """Cost of following a road through a connected hexside (1.3)."""

    level: int
    uphill: int
    downhill: int


class CityCosts(_Model):
    """Cost of entering a Jerusalem city hex by how it is entered (1.3)."""

    primary: int
    secondary: int
    none: int


class MovementCosts(_Model):
    """1.3 movement costs in half MP."""

    clear: int
    uphill: int
    level_or_downhill: int
    stream_mechanized: int
    stream_other: int
    primary_road: RoadCosts
    secondary_road: RoadCosts
    city: CityCosts
    bevingrad: int
    railroad_bridge_mechanized: int
    pickup: int
    city_road_links: Literal["adjacent", "all_pairs"] = "adjacent"   # the reading of 1.3 / 8.1 (tables.yaml)


class Modifier(_Model):
    """A combat die-roll modifier (+ favours the defender)."""

    id: str
    value: int
    rule: str
    max_units: Optional[int] = None
    note: str = ""


class StrengthModifier(_Model):
    """A multiplier of combat strength (a number, or the name of a counter value such as ``leader_multiplier``)."""

    id: str
    value: float | str
    rule: str
    note: str = ""


class SpecialHexes(_Model):
    """Map terrain or places that carry a rule (``special_hexes``)."""

    terrain: list[str] = []
    places: list[str] = []
    rule: str = ""


class DieRoll(_Model):
    """A die roll of a special rule (``die_rolls``): the natural rolls that trigger it, whose fire or loss calls for
    it (counter ids or nationalities) and which units it is made for or removes (nationalities)."""

    rolls: list[int]
    rule: str
    units: list[str] = []
    affects: list[str] = []
    note: str = ""

    def hit(self, die: int) -> bool:
        """Whether a natural roll triggers the effect."""
        return die in self.rolls

    def names(self, unit) -> bool:
        """Whether a unit's counter id or nationality is among ``units``."""
        return unit.counter.id in self.units or unit.counter.nationality in self.units


class Limits(_Model):
    """Numbers the rules state outright."""

    victory_city_hexes: int             # 2.0
    artillery_fires_per_player_turn: int  # 10.1
    convoy_arrows: int                  # 6.2.2
    eef_min_attack_odds: str            # 14.7.1
    reinforcement_entry_shift: int      # 14.3


class Tables(_Model):
    """``tables.yaml``."""

    game: str
    movement: MovementCosts
    limits: Limits
    special_hexes: dict[str, SpecialHexes] = {}
    strength_modifiers: list[StrengthModifier] = []
    combat_modifiers: list[Modifier] = []
    odds_columns: list[str] = []
    crt: dict[str, Optional[int]] = {}
    die_rolls: dict[str, DieRoll] = {}

    def modifier(self, mod_id: str) -> Modifier:
        """A combat modifier by id."""
        for m in self.combat_modifiers:
            if m.id == mod_id:
                return m
        raise KeyError(mod_id)

    def strength_modifier(self, mod_id: str) -> StrengthModifier:
        """A strength multiplier by id."""
        for m in self.strength_modifiers:
            if m.id == mod_id:
                return m
        raise KeyError(mod_id)


@lru_cache(maxsize=2)
def load_tables() -> Tables:
    """The game's tables (cached); raises :class:`GameDataError` on a bad file."""
    return load_yaml_model(modules_dir() / GAME_ID / "tables.yaml", Tables, DOC, GameDataError)
