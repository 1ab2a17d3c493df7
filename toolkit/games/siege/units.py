"""*The Siege of Jerusalem* counter values: their keys, types and meaning (``counters.yaml`` ``values``).

Rule numbers are those of the third-edition rulebook.  A counter's front is its Fresh face and
its back its Disrupted face (2.3); for Siege Engines the back is the uncrewed face (2.45).

>>> UnitValues.model_validate({"unit_class": "heavy_infantry", "melee": 7, "movement": 8}).missile is None
True
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict

from ...game import Counter
from ...game.values import check_values

UnitClass = Literal["heavy_infantry", "light_infantry", "cavalry", "hq", "siege_engine", "artillery"]


class UnitValues(BaseModel):
    """One face of a counter.  Rule numbers say where each value comes from."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    unit_class: UnitClass                          # the six classes (2.4); HQ fight as infantry (2.4)
    grade: Optional[Literal["veteran", "line", "recruit"]] = None   # Heavy Infantry types (2.41, 11.841)
    combat_unit: bool = True                       # every class but Siege Engines (2.4)
    melee: Optional[float] = None                  # Melee Strength (2.53); None: Siege Engines have none
    melee_defense_only: bool = False               # white-dot factor (Artillery) or a Disrupted face: defence only (2.46, 2.53)
    missile: Optional[float] = None                # Missile Attack Factor; white stripe (2.52, 2.522); by range on the Weapons Effects Table (9.2)
    range: Optional[int] = None                    # longest missile range in hexes, counting the target hex (9.2)
    # ``missile`` applies from 1 hex to ``primary_range`` (or to ``range`` when there is no primary band)
    primary_range: Optional[int] = None            # Artillery: the last hex of the primary band; Jewish Artillery -1 drm beyond it (9.3, 13.2, 13.3)
    missile_secondary: Optional[float] = None      # Artillery: Attack Factor beyond primary_range up to range (9.2, 13.2: an Onager 3); None: one band
    rocks: bool = False                            # rocks / boiling oil from Elevated Hexes (2.523, 10.2)
    breach: Optional[float] = None                 # Breach Attack Factor, the "1" of Rams and Armored Towers (2.521, 2.53, 10.1)
    movement: Optional[float] = None               # Movement Factors (2.54); back: the reduced Disrupted MF (16.5); None: may not move
    recovery: Optional[int] = None                 # Recovery Number, printed on the Disrupted face (2.55, 17.1); None: Siege Engines
    command_radius: Optional[int] = None           # HQ Command Control range in hexes: 10, 2 less when not Fresh (5.1, 5.11, 16.1)
    commander: bool = False                        # controls every unit of its side (2.44, 5.5)
    formation: Optional[str] = None                # printed Legion / Faction / Garrison ID: V X XII XV, Y J E S, AF HP TQ (2.51, 5.4, 18.4)
    cohort: Optional[int] = None                   # Cohort ID of Legionaries for Cohort Integrity (11.841)
    garrison_area: Optional[Literal["AF", "HP", "TQ"]] = None   # Garrison's assigned Area (18.4)
    pushers: Optional[int] = None                  # Siege Engine: Heavy Infantry / Velites that may push it, plus one HQ (6.4)
    riders: Optional[int] = None                   # Tower: Infantry units that may ride atop, plus one HQ (6.42, 6.43)
    carries_catapult: bool = False                 # Armored Tower may carry a Catapult (6.3, 6.43)
    artillery_moves: Optional[Literal["disrupted", "between_periods", "free"]] = None
    # Artillery movement: Roman only when Disrupted (2.46, 8.4), Jewish between Assault Periods (2.46, 8.4),
    # Cauldrons freely between Elevated Hexes (8.5)
    casualty_vp: Optional[int] = None              # Jewish Victory Points for eliminating this Roman unit (18.91)
    flight_vp: Optional[int] = None                # Jewish Victory Points for exiting the map: 2x Melee, +100 Leader, +250 Yair (18.922)


def check_counter(counter: Counter) -> list[str]:
    """Problems with a counter's values, front and back (empty when valid)."""
    return check_values(counter, UnitValues)
