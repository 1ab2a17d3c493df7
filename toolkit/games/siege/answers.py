"""*The Siege of Jerusalem*'s table answers for ``toolkit siege …`` (docs/cli.md): JSON-ready dicts, each naming
its rule, built on the calculators of :mod:`.combat` and :mod:`.assault`.  Dice are never rolled here: the
caller gives every roll (the command line draws them with ``--seed`` or takes ``--roll``).

* :func:`missile_shot` -- the Missile Table column of a shot (13.2) and the 13.4 drm beyond column 7.
* :func:`shafts` -- the hexes a completed mine shaft undermines (19.21) and the damage of each (19.22).
* :func:`recovery_rolls` -- the Recovery order of a side (17.1) and each unit's roll (17.2, 17.3).
* :func:`dead_pile` / :func:`draw_replacements` -- the units Replacements are drawn from (18.5, 18.6) and a
  draw of a given count from them, by a caller's random generator.
* :func:`vp` -- a position's Jewish Victory Points (18.9: Casualty 18.91 from the Roman dead pile, Flight
  18.922 from the ``escaped`` box, Redoubt 18.93 when asked, the week's delay points 19.1).
"""
from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ...game import Position, Unit
from . import assault
from .combat import recovery, recovery_order, shaft_damage, shaft_hexes
from .combat_tables import load_combat_tables, missile_column
from .command import out_of_command

DEAD_PILE, ESCAPED = "dead_pile", "escaped"     # game.yaml boxes (18.5, 18.6; 18.922)


def missile_shot(row: str, af: float) -> dict[str, Any]:
    """``{"rule", "row", "af", "column", "multiples_drm"}``: the Missile Table column ``af`` Attack Factors reach on
    ``row`` (13.2; None below the first column) and the +1 per full multiple beyond column 7 (13.4)."""
    t = load_combat_tables()
    rows = t.missile_table.rows
    if row not in rows:
        raise ValueError(f"row {row!r}: the Missile Table has the rows {', '.join(rows)}; give one")
    if af < 0:
        raise ValueError(f"af {af}: Attack Factors are 0 or more")
    column, extra = missile_column(t, row, af)
    return {"rule": "13.2, 13.4", "row": row, "af": af, "column": column, "multiples_drm": extra,
            "first_column_af": float(rows[row].columns[0]), "multiple": float(rows[row].multiple)}


def shafts(position: Position, target: str, engineering_roll: int, damage_rolls: Sequence[int]) -> dict[str, Any]:
    """A completed shaft at ``target``: the Elevated Hexes it undermines and the Damage drm of the Engineering roll
    (19.21), then each hex's two-dice damage roll (one per hex, in the order of ``hexes``) against its Breach
    Defence less the damage it had (19.22)."""
    cmap = position.game.map
    if not 1 <= engineering_roll <= 6:
        raise ValueError(f"engineering roll {engineering_roll}: one die, 1-6 (19.21)")
    hexes, drm = shaft_hexes(cmap, cmap.resolve(target), engineering_roll)
    if len(damage_rolls) != len(hexes):
        raise ValueError(f"damage rolls: the shaft undermines {len(hexes)} hexes "
                         f"({', '.join(cmap.name(h) for h in hexes)}); give one two-dice roll (2-12) each")
    bad = [r for r in damage_rolls if not 2 <= r <= 12]
    if bad:
        raise ValueError(f"damage roll {bad[0]}: two dice, 2-12 (19.22)")
    return {"rule": "19.21, 19.22", "target": cmap.name(hexes[0]), "engineering_roll": engineering_roll,
            "hexes": [cmap.name(h) for h in hexes], "damage_drm": drm,
            "damage": shaft_damage(position, hexes, damage_rolls, drm)}


def recovery_rolls(position: Position, side: str, rolls: Mapping[str, int]) -> dict[str, Any]:
    """``side``'s units that must roll for Recovery in their order (17.1: the HQ first, then by row and number),
    each with its roll from ``rolls`` (by unit id) resolved (17.2, 17.3); a unit without a roll is listed only."""
    order = recovery_order(position, side)
    unknown = sorted(set(rolls) - {u.id for u in order})
    if unknown:
        raise ValueError(f"roll for {', '.join(map(repr, unknown))}: not among the units that roll for Recovery "
                         f"({', '.join(u.id for u in order) or 'none'})")
    bad = [(k, v) for k, v in rolls.items() if not 1 <= v <= 6]
    if bad:
        raise ValueError(f"roll {bad[0][0]}={bad[0][1]}: one die, 1-6 (17.1)")
    name = position.game.map.name
    out_of_cc = out_of_command(position, [u.id for u in order])                                        # 5.12
    return {"rule": "17.1", "side": side, "order": [u.id for u in order],
            "units": [{"unit": u.id, "hex": name(u.hex),
                       **(recovery(position, u.id, rolls[u.id], out_of_cc=u.id in out_of_cc) if u.id in rolls
                          else {"roll": None})}
                      for u in order]}


def dead_pile(position: Position, side: str) -> list[Unit]:
    """The units of ``side`` Replacements are drawn from: the ``dead_pile`` box less the HQ (18.52, 18.6); for the
    Romans only Combat units (18.5), for the Jews less the Garrisons of Areas the Romans control (``roman_areas``,
    18.6)."""
    roman_areas = set(assault._areas(position))
    garrisons = assault.tables()["garrisons"]
    lost = {k for k, g in garrisons.items() if isinstance(g, dict) and g["area"] in roman_areas}
    return [u for u in position.units if u.box == DEAD_PILE and u.side == side
            and u.counter.value("unit_class") != "hq" and (side == "jewish" or u.counter.value("combat_unit"))
            and not (side == "jewish" and u.counter.value("garrison_area") in lost)]


def draw_replacements(position: Position, side: str, count: int, rng: random.Random) -> list[str]:
    """``count`` unit ids drawn at random from ``side``'s dead pile (18.5, 18.6), in the pile's order."""
    pile = dead_pile(position, side)
    drawn = set(rng.sample(range(len(pile)), min(count, len(pile))))
    return [u.id for i, u in enumerate(pile) if i in drawn]


def vp(position: Position, week: int | None = None, redoubt: bool = False) -> dict[str, Any]:
    """The Jewish VP a position shows (18.9): Casualty points of the Roman units in the dead pile (18.91, mutiny
    18.94), Flight points of the Jewish units in the ``escaped`` box (18.922), Redoubt points when ``redoubt``
    (the end of the 5th Assault Period, 18.93) and the delay points of preparation ``week`` (19.1)."""
    casualty = assault.casualty_vp([u for u in position.units if u.box == DEAD_PILE and u.side == "roman"])
    flight = assault.flight_vp([u for u in position.units if u.box == ESCAPED and u.side == "jewish"])
    held = assault.redoubt_vp(position) if redoubt else None
    delay = 0 if week is None else assault.delay_vp(week)
    total = assault.victory_points(casualty=casualty["total"], flight=flight["total"],
                                   redoubt=held["total"] if held else 0, preparation=delay)
    return {**total, "casualty_units": casualty["units"], "mutiny": casualty["mutiny"],
            "mutiny_at": casualty["mutiny_at"], "flight_units": flight["units"], "redoubt_hexes":
            held["fortress_hexes"] if held else None, "week": week}
