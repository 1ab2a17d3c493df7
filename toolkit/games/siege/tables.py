"""*The Siege of Jerusalem* chart values (``modules/siege-of-jerusalem/tables.yaml``), as one model.

Each part of the rules package reads its own section: ``movement`` (the TEC: 8.x, 12.4, 18.8, 18.92x),
``stacking`` (6, 6.3-6.7, 8.95), ``command`` (5.1, 5.11, 18.52), ``control`` (18.1, 18.31-18.33, 19.7) and
``garrisons`` (18.4).
Costs are half Movement Factors.  Values the rulebook does not print are reconstructions, marked in the file.  Sections this model does not
know are ignored, so each part of the package adds its own.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Optional, Union

from pydantic import BaseModel, ConfigDict

from ...datafile import load_yaml_model
from ...game.module import DOC, GameDataError


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class SideCost(_Model):
    roman: Optional[int] = None
    jewish: Optional[int] = None


class MovementTable(_Model):
    """``movement``: the TEC's costs in half MF (8.x)."""

    terrain: dict[str, Union[int, SideCost, None]]   # cost to enter a hex at its own level
    level_change: int                                 # 8.93
    road: int                                         # 12.4
    leave_map: int                                    # 8.14
    ladder_climb: int                                 # 8.7
    ladder_to_elevated: int                           # 8.7
    tower_to_elevated: int                            # 8.61
    ramp_to_elevated: int                             # 18.8 (reconstructed)
    rider_loss_per_mf: int                            # 8.61
    soft_zoc_leave: int                               # 7.32
    full_stack_multiplier: int                        # 8.13
    panic_leave_multiplier: int                       # 17.21
    flight_slope: int                                 # 18.922
    escape_to_ground: int                             # 18.92
    testudo_mf: int                                   # 8.8
    testudo_join: int                                 # 8.8
    ladder_place: int                                 # 6.5, 8.7
    entry_hq_distance: int                            # 3.3 (hexes, not half MF)
    blocked_hexsides: tuple[str, ...] = ()            # 8.92
    entry_hexsides: tuple[str, ...] = ("gate_entry",)  # 8.91
    reconstructed: tuple[str, ...] = ()

    def cost(self, terrain: str, side: str) -> int | None:
        """The half-MF cost for ``side`` to enter ``terrain`` at its own level (``None``: not that way)."""
        c = self.terrain.get(terrain, self.terrain.get("clear"))
        if isinstance(c, SideCost):
            return getattr(c, side, None)
        return c


class StackingTable(_Model):
    """``stacking``: Infantry / Cavalry of a side per hex by terrain, and the make-up limits (6, 6.3-6.6, 8.95)."""

    limit: dict[str, int]
    free_classes: tuple[str, ...] = ("artillery", "hq", "siege_engine")
    engine_pushers: int = 2
    tower_riders: int = 1
    ladder_base: int = 1
    ladder_climbers: int = 2
    testudo_min: int = 2
    testudo_max: int = 3
    reconstructed: tuple[str, ...] = ()


class CommandTable(_Model):
    """``command``: the CC range and its reductions (5.1, 5.11, 18.24, 18.52)."""

    range: int
    not_fresh: int
    night: int
    per_replacement: int


class ControlTable(_Model):
    """``control``: the Assault Period's length and what controlling a city area takes (18.1, 18.31-18.33, 19.7)."""

    built_up_areas: tuple[str, ...]       # 18.31
    building_areas: tuple[str, ...]       # 18.32
    fortress_areas: tuple[str, ...]       # 18.33
    heavy_infantry: int                   # 18.31, 18.32
    built_up_hexes: int                   # 18.31
    building_hexes: int                   # 18.32
    daylight_turns: int                   # 18.1
    last_turn: int                        # 18.1
    breach_clearance: int                 # 19.7


class Tables(_Model):
    """Every section of ``tables.yaml`` the rules package reads."""

    game: str
    movement: MovementTable
    stacking: StackingTable
    command: CommandTable
    control: ControlTable
    garrisons: dict[str, Any] = {}        # 18.4: each Garrison's Area (``area``, ``also``) and ``shared_walls``


@lru_cache(maxsize=4)
def _load(path: Path) -> Tables:
    return load_yaml_model(path, Tables, DOC, GameDataError)


_BY_FOLDER: dict = {}


def load_tables(folder: str | Path | None = None) -> Tables:
    """The game's tables (cached); ``folder`` is the game module folder (default: the bundled one)."""
    got = _BY_FOLDER.get(folder)
    if got is not None:
        return got
    key = folder
    if folder is None:
        from ...game import load_game
        folder = load_game("siege-of-jerusalem").folder
    got = _load((Path(folder) / "tables.yaml").resolve())
    if len(_BY_FOLDER) < 16:
        _BY_FOLDER[key] = got
    return got
