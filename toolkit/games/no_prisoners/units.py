"""The *No Prisoners!* counter values: their keys, types and meaning (``counters.yaml`` ``values``).

Rule numbers refer to the rulebook (``/work/shared/rules/no-prisoners.txt``); values the
rulebook does not print are listed per counter in ``reconstructed``
(``modules/no-prisoners/README.md``).

>>> UnitValues.model_validate({"sector": "W", "combat": 4, "ma": 5, "pursuit": 1}).zoc
True
"""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, model_validator

from ...game import Counter
from ...game.values import counter_faces

#: Sizes of 2.6.1 (the counter's size symbol); ``None`` for HQs, air and naval counters.
Size = Literal["division", "brigade", "group", "regiment", "battalion", "squadron", "company", "battery"]


class UnitValues(BaseModel):
    """One face of a counter.  Rule numbers say where each value comes from."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    sector: Optional[Literal["W", "E"]] = None  # sector letter printed on the counter (6.2C, 17.1); None: none
    combat: Optional[int] = None                # combat factor, lower left (2.4.2C); None: air / naval
    ma: Optional[int] = None                    # movement allowance (8.1C); None: air / naval (19.2B)
    size: Optional[Size] = None                 # size symbol (2.6)
    command_radius: Optional[int] = None        # HQs only: hexes of command (2.4.2C, 7.2)
    pursuit: int = 0                            # pursuit hexes by unit type (13.3); HQ bonus +1 is not included (13.5)
    support: bool = False                       # asterisk: stacks free, no ZOC (2.4.2B, 9.4A, 10.2A)
    zoc: bool = True                            # exerts a ZOC (10.2A); False for support, air, naval (19.2C)
    stacks_free: bool = False                   # does not count for stacking (9.4A support; 9.4B air, naval)
    always_supplied: bool = False               # 15.5: Lawrence HQ, air groups, naval squadrons
    supplies_stacked_tribal: bool = False       # 15.5: tribal units with Lawrence at the start of a phase are supplied
    rail_only: bool = False                     # armoured trains move only along the friendly rail net (19.4A)
    ignores_ezoc: bool = False                  # armoured trains (19.4A)
    advances: bool = True                       # may pursue / advance after combat; armoured trains never (19.4A)
    uses_rail_capacity: bool = True             # a rail move counts against 8.10 capacity; not armoured trains (19.4B)
    tribal: bool = False                        # "Tribal" on the reverse: drawn from the pool (18.1B, 18.5, 22.3)
    amphibious: bool = False                    # may make the 20.2 amphibious move (Allied land units; never tribal, 20.4)
    infiltration: bool = False                  # from 1918-I, advances two hexes after a won attack (19.3)
    column_shift: int = 0                       # air group / naval squadron: columns right (11.8A, 11.9A)
    arrival: Optional[str] = None               # turn on the counter's back: "1916-II", "AR+2", "start" (6.1, 18.2B)
    optional: bool = False                      # OPT on the reverse (19.5)
    optional_vp: Optional[int] = None           # VPs the opponent gets when the optional unit enters (19.6, 19.7)

    @model_validator(mode="after")
    def _consistent(self) -> "UnitValues":
        if self.support and self.zoc:
            raise ValueError("a support unit (asterisk) has no ZOC (2.4.2B, 10.2A): set zoc: false")
        if self.support and not self.stacks_free:
            raise ValueError("a support unit stacks free (9.4A): set stacks_free: true")
        if self.rail_only and (self.advances or self.uses_rail_capacity or not self.ignores_ezoc):
            raise ValueError("an armoured train ignores EZOCs, never advances and uses no rail capacity (19.4)")
        if self.column_shift and (self.zoc or not self.stacks_free or not self.always_supplied):
            raise ValueError("air and naval counters have no ZOC, stack free and are always supplied (19.2A, 19.2C)")
        if self.optional != (self.optional_vp is not None):
            raise ValueError("optional units, and only they, give the opponent VPs (19.5-19.7): set both or neither")
        if self.tribal and self.amphibious:
            raise ValueError("tribal units may never move by sea (20.4): set amphibious: false")
        return self


def check_counter(counter: Counter) -> list[str]:
    """Problems with a counter's values, front and back (empty when valid)."""
    problems = []
    for face, v in counter_faces(counter, UnitValues):
        if isinstance(v, str):
            problems.append(f"{counter.id}.{face}: {v}")
            continue
        if counter.type == "hq" and v.command_radius is None:
            problems.append(f"{counter.id}.{face}: an HQ needs a command_radius (2.4.2C, 7.2)")
        if counter.type != "hq" and v.command_radius is not None:
            problems.append(f"{counter.id}.{face}: only HQs have a command_radius (7.1)")
        if counter.type in ("air_group", "naval_squadron") and v.column_shift != 1:
            problems.append(f"{counter.id}.{face}: air groups and naval squadrons shift one column (11.8A, 11.9A)")
        if counter.type not in ("air_group", "naval_squadron") and (v.combat is None or v.ma is None):
            problems.append(f"{counter.id}.{face}: a land unit needs combat and ma (2.4)")
    return problems
