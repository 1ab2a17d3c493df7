"""The *Jerusalem!* counter values: their keys, types and meaning (``counters.yaml`` ``values``).

>>> UnitValues.model_validate({"strength": 4, "strength_use": "attack", "mp": 6, "mp_class": "both"}).zoc
True
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict

from ...game import Counter
from ...game.values import check_values


class UnitValues(BaseModel):
    """One face of a counter.  Rule numbers say where each value comes from."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    strength: Optional[float] = None            # combat strength (1.2.1)
    strength_use: Literal["attack", "first_fire", "none"] = "none"  # colour of the strength (1.2.1)
    mp: Optional[float] = None                  # movement points; None: unlimited or special (6.1, 12.9.3)
    mp_class: Literal["both", "one", "road", "garrison"] = "both"   # colour of the MP (1.2.1, 7.x, 8.x)
    range: Optional[int] = None                 # artillery range (1.2.1)
    capacity: Optional[int] = None              # carrying capacity (8.7.1)
    zoc: bool = True                            # False: the no-ZOC band (4.1, 4.6)
    mechanized: bool = False                    # 1.2.1
    transport: bool = False                     # 1.2.1, 8.7
    transportable: bool = True                  # 8.6, 13.2.2
    leader_multiplier: Optional[float] = None   # 12.6
    command_radius: Optional[int] = None        # hexes within which Mufti units may move (7.4, 12.9.1.1)
    jeep: bool = False                          # moves alone in the road phase (12.5 note)
    max_city_distance: Optional[int] = None     # Shaltiel (12.9.4)
    needs_leader: bool = False                  # Mufti 'L' (1.2.1, 7.4)
    city_only: bool = False                     # Haj Amin's 'J' (12.9.3)
    moves_through_enemy: bool = False           # Haj Amin, El Kutub (12.5)
    bomber: bool = False                        # El Kutub (13.1)
    targeted_strength: Optional[float] = None   # the 12 in a target (10.9.2, 11.0)
    targeted_vs: Optional[Literal["any", "vehicles"]] = None
    formation: Optional[str] = None             # 12.9.2 and set-ups
    multiplier_excludes: Optional[str] = None   # a nationality this leader's multiplier skips (12.9.1.3)
    terrorist: bool = False                     # Irgun, Stern Gang (13.2)
    must_stack: bool = False                    # never without another Arab unit: Kaukji (12.6 note)


def check_counter(counter: Counter) -> list[str]:
    """Problems with a counter's values, front and back (empty when valid)."""
    return check_values(counter, UnitValues)


def is_legion_leader(u) -> bool:
    """A leader who may stack with Arab Legion units: the Legion's own (Tell, 5.2, 12.9.2)."""
    return u.type == "leader" and u.counter.nationality == "arab_legion"


def is_city_bound_commander(u) -> bool:
    """A leader tied to the city by a maximum distance (Shaltiel, 12.9.4)."""
    return u.counter.value("max_city_distance") is not None
