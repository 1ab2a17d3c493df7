"""*The Siege of Jerusalem* between and around the Assault Periods: the printed tables of 18.6-18.9x and 19.1-19.5
as calculators.

Every number comes from ``modules/siege-of-jerusalem/tables.yaml`` (sections ``levy``,
``reserve_activation``, ``reserve_limits``, ``external_influence``, ``victory``, ``preparation``), read
here as plain data; every answer is a JSON-ready dict naming its rule.  Dice are never rolled: the caller
gives the rolls, the functions say what they mean.

* :func:`levy` -- the Levy value each side controls (18.6; areas from ``roman_areas`` or a position).
* :func:`jewish_replacements` -- 18.6: the share of the dead pile that returns (fractions dropped); Flight
  allowed at 25 % or less (18.92).
* :func:`reserve_activation` -- 18.611, 18.612: dice, drm, the Reserves an Activation roll releases and the
  unit each further roll gives, within the Area's limit.
* :func:`external_influence` -- 18.7: whether the siege is lifted at the start of an Assault Period.
* :func:`casualty_vp`, :func:`flight_vp`, :func:`redoubt_vp`, :func:`victory_points` -- 18.9-18.94 and the
  Preparation Table's Jewish VP (19.1).
* :func:`preparation` -- one week's column of the Preparation Table (19.1); :func:`armored_towers` (19.5);
  :func:`mining` (19.2) and :func:`roman_replacements` (19.3) wrap :mod:`.combat`'s.

Readings (ours): the 18.611 "not razed" +1 applies when activating in the New City or Tyropoeon City while
that Area is unrazed (as the "Upper and Lower Cities or City of David" +1 applies to activating there); Redoubt points (18.93) count each Fort or Fortress hex with a Jewish unit in it and no Roman;
an Area missing from ``levy.areas`` is worth 0; the Levy share the Romans control (18.7) is 100 less the
Jewish share.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence


from ...datafile import read_yaml
from ...game import GameDataError, Position, Unit
from ...game.module import modules_dir

GAME_ID = "siege-of-jerusalem"
PERIODS = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5}
FORTRESS = ("fort", "fortress")


@lru_cache(maxsize=4)
def _load(path: str, mtime: float) -> dict[str, Any]:
    return read_yaml(path, GameDataError) or {}


def tables(folder: str | Path | None = None) -> dict[str, Any]:
    """The raw ``tables.yaml`` of the game folder (default: the bundled module)."""
    path = Path(folder or modules_dir() / GAME_ID) / "tables.yaml"
    return _load(str(path), path.stat().st_mtime)


def _areas(roman_areas: Iterable[str] | str | Position | None) -> list[str]:
    if roman_areas is None:
        return []
    if isinstance(roman_areas, Position):
        roman_areas = roman_areas.params.get("roman_areas") or ""
    if isinstance(roman_areas, str):
        return [a.strip() for a in roman_areas.split(",") if a.strip()]
    return list(roman_areas)


# -- 18.6 Levy and Jewish replacements ----------------------------------------------------------------------------
def levy(roman_areas: Iterable[str] | str | Position | None = None, *, folder=None) -> dict[str, Any]:
    """The city's Levy value by side (18.6): each Area's value to whoever controls it (the Romans: ``roman_areas``,
    a list, a comma-separated string or a position's parameter; the Jews the rest)."""
    t = tables(folder)["levy"]
    values: dict[str, int] = {str(k): int(v) for k, v in t["areas"].items()}
    roman = _areas(roman_areas)
    unknown = [a for a in roman if a not in values]
    if unknown:
        raise ValueError(f"unknown Area(s) {', '.join(map(repr, unknown))}; Areas: {', '.join(values)}")
    rp = sum(values[a] for a in roman)
    jp = sum(values.values()) - rp
    return {"rule": "18.6", "jewish_pct": jp, "roman_pct": rp, "roman_areas": roman,
            "areas": {a: {"value": v, "controller": "roman" if a in roman else "jewish"} for a, v in values.items()}}


def jewish_replacements(eliminated: int, roman_areas: Iterable[str] | str | Position | None = None, *,
                        folder=None) -> dict[str, Any]:
    """18.6: the units drawn back from a dead pile of ``eliminated`` (HQ and Garrisons of Roman Areas left out by
    the caller): the Jewish Levy share of it, fractions dropped.  18.6 example: 38 units, New City lost: 34."""
    if eliminated < 0:
        raise ValueError("eliminated: a count of units, 0 or more")
    lv = levy(roman_areas, folder=folder)
    t = tables(folder)["levy"]
    pct = lv["jewish_pct"]
    return {"rule": "18.6", "eliminated": eliminated, "pct": pct, "replacements": int(Fraction(eliminated * pct, 100)),
            "exact": float(Fraction(eliminated * pct, 100)), "flight_allowed": pct <= int(t["flight_threshold"]),
            "flight_rule": "18.92", "roman_areas": lv["roman_areas"]}


# -- 18.611, 18.612 Reserves --------------------------------------------------------------------------------------
def reserve_activation(area: str, *, entered: bool = False, night: bool = False, temple: str = "jewish_clear",
                       razed: Iterable[str] = (), roll: int | None = None, unit_rolls: Sequence[int] = (),
                       activated_before: int = 0, folder=None) -> dict[str, Any]:
    """18.611: the Activation dice of ``area`` (one die if attacked, two if Romans are inside it: ``entered``), its
    drm and, given ``roll`` (the dice total), the Reserves released; each of ``unit_rolls`` names one unit.
    ``temple``: ``jewish_clear`` (the Jews hold it, no Romans inside its outer walls), ``jewish`` (held, Romans
    inside) or ``roman``.  ``razed``: the razed Areas (18.37).  18.612: no more than the Area's limit, less
    ``activated_before``."""
    t = tables(folder)
    ra, limits = t["reserve_activation"], t["reserve_limits"]
    if area not in limits:
        raise ValueError(f"{area!r} has no Reserves (18.612); Areas: {', '.join(limits)}")
    if temple not in ("jewish_clear", "jewish", "roman"):
        raise ValueError("temple: jewish_clear, jewish or roman")
    d = ra["drm"]
    drm = []
    if night:
        drm.append({"id": "night", "value": d["night"], "rule": "18.611"})
    if area in ("Upper City", "Lower City", "City of David"):
        drm.append({"id": "upper_lower_city_david", "value": d["upper_lower_city_david"], "rule": "18.611"})
    if temple == "jewish_clear":
        drm.append({"id": "temple_held_clear", "value": d["temple_held_clear"], "rule": "18.611"})
    if temple == "roman":
        drm.append({"id": "romans_hold_temple", "value": d["romans_hold_temple"], "rule": "18.611"})
    if area in ("New City", "Tyropoeon City") and area not in set(razed):
        drm.append({"id": "not_razed", "value": d["not_razed"], "rule": "18.611", "why": f"{area} is not razed"})
    total = sum(m["value"] for m in drm)
    left = max(0, int(limits[area]) - activated_before)
    out: dict[str, Any] = {"rule": "18.611", "area": area, "dice": int(ra["dice_entered" if entered else "dice_attacked"]),
                           "modifiers": drm, "total_modifier": total, "limit": int(limits[area]), "left": left}
    if roll is not None:
        released = max(0, roll + total)
        out.update({"roll": roll, "final": roll + total, "released": min(released, left),
                    "lost_to_limit": max(0, released - left)})
    units = []
    for r in unit_rolls:
        row = next((x for x in ra["units"] if r in x["rolls"]), None)
        if row is None:
            raise ValueError(f"unit roll {r}: one die, 1-6")
        units.append({"roll": r, "type": row["type"], "factors": row["factors"]})
    if unit_rolls:
        out["units"] = units
    return out


# -- 18.7 External Influences -------------------------------------------------------------------------------------
def external_influence(assault_period: str | int, roman_areas: Iterable[str] | str | Position | None = None,
                       weeks: int = 0, *, folder=None) -> dict[str, Any]:
    """18.7: at the start of Assault Period ``assault_period`` (II-V, or ``end``) the Romans must control the
    table's share of the Levy value; a siege longer than 25 weeks (19.1) is lifted too.  ``lifted``: a Jewish
    victory."""
    t = tables(folder)["external_influence"]
    key = str(assault_period).upper()
    if key.isdigit():
        key = next((k for k, v in PERIODS.items() if v == int(key)), key)
    key = "end" if key == "END" else key
    if key == "I":
        required = 0
    elif key not in t or key == "max_weeks":
        raise ValueError(f"assault period {assault_period!r}: I-V or end")
    else:
        required = int(t[key])
    lv = levy(roman_areas, folder=folder)
    short = lv["roman_pct"] < required
    too_long = weeks > int(t["max_weeks"])
    reasons = []
    if short:
        reasons.append(f"the Romans control {lv['roman_pct']} % of the Levy value, less than {required} % (18.7)")
    if too_long:
        reasons.append(f"the siege has lasted {weeks} weeks, more than {t['max_weeks']} (18.7, 19.1)")
    return {"rule": "18.7", "assault_period": key, "required_pct": required, "roman_pct": lv["roman_pct"],
            "weeks": weeks, "max_weeks": int(t["max_weeks"]), "lifted": short or too_long,
            "winner": "jewish" if short or too_long else None, "reasons": reasons}


# -- 18.9x Victory Points -----------------------------------------------------------------------------------------
def _value(u: Unit | Any, key: str):
    c = getattr(u, "counter", u)
    return c.value(key)


def _type(u) -> str:
    return getattr(u, "type", None) or getattr(getattr(u, "counter", u), "type", "")


def _id(u) -> str:
    c = getattr(u, "counter", u)
    return getattr(c, "id", "")


def casualty_vp(eliminated: Iterable[Unit | Any], *, folder=None) -> dict[str, Any]:
    """18.91: Casualty VP for Roman units eliminated in one Assault Period (units or counters): 1 per Fresh Melee
    factor of Infantry/Cavalry, 10 an Artillery unit, 20 a Siege Engine, 50 a Leader, 200 Titus; 18.94: 400 or
    more in one Assault Period is a mutiny (the Jews win)."""
    v = tables(folder)["victory"]
    c = v["casualties"]
    rows, total = [], 0
    for u in eliminated:
        cls = str(_value(u, "unit_class") or "")
        if _id(u) == "titus":
            pts, why = c["titus"], "Titus (18.91)"
        elif cls == "hq":
            pts, why = c["leader"], "a Leader (18.91)"
        elif cls == "artillery":
            pts, why = c["artillery"], "an Artillery unit (18.91)"
        elif cls == "siege_engine":
            pts, why = c["siege_engine"], "a Siege Engine (18.91)"
        elif _value(u, "melee") is not None:
            m = _value(u, "melee")
            pts, why = int(m) * c["per_fresh_melee_factor"], f"{m} Fresh Melee factors (18.91)"
        else:
            pts, why = 0, "no Casualty VP"
        rows.append({"unit": getattr(u, "id", _id(u)), "vp": pts, "why": why})
        total += pts
    return {"rule": "18.91", "units": rows, "total": total, "mutiny": total >= int(v["mutiny_casualty_vp"]),
            "mutiny_rule": "18.94", "mutiny_at": int(v["mutiny_casualty_vp"])}


def flight_vp(escaped: Iterable[Unit | Any], *, folder=None) -> dict[str, Any]:
    """18.922 (Flight Points): twice the printed Melee Strength of each Jewish unit moved off the map, +100 a
    Leader, +250 Eliezer ben Yair."""
    f = tables(folder)["victory"]["flight"]
    rows, total = [], 0
    for u in escaped:
        m = int(_value(u, "melee") or 0)
        pts, why = m * f["per_printed_melee_factor"], [f"{m} printed Melee x{f['per_printed_melee_factor']}"]
        if _id(u) == "eliezer-ben-yair":
            pts += f["eliezer_ben_yair_bonus"]
            why.append(f"Eliezer ben Yair +{f['eliezer_ben_yair_bonus']}")
        elif str(_value(u, "unit_class") or "") == "hq":
            pts += f["leader_bonus"]
            why.append(f"a Leader +{f['leader_bonus']}")
        rows.append({"unit": getattr(u, "id", _id(u)), "vp": pts, "why": "; ".join(why) + " (18.922)"})
        total += pts
    return {"rule": "18.922", "units": rows, "total": total}


def redoubt_vp(position: Position, *, folder=None) -> dict[str, Any]:
    """18.93 at the end of the 5th Assault Period: 10 for each Fort or Fortress hex held by Jewish units (no Roman
    in it; our reading of "occupied Jewish Fortress"), 50 if Eliezer ben Yair is on the map."""
    r = tables(folder)["victory"]["redoubt"]
    cmap = position.game.map
    held = []
    for h in sorted(position.occupied(), key=cmap.name):
        units = position.at(h)
        info = cmap.hexes.get(h)
        if info is None or not info.terrain or info.terrain[0] not in FORTRESS:
            continue
        if position.markers_at(h, "breach"):
            continue
        if any(u.side == "jewish" for u in units) and not any(u.side == "roman" for u in units):
            held.append(cmap.name(h))
    eliezer = any(_id(u) == "eliezer-ben-yair" and u.hex is not None for u in position.units)
    total = len(held) * r["per_occupied_jewish_fortress"] + (r["eliezer_ben_yair_on_map"] if eliezer else 0)
    return {"rule": "18.93", "fortress_hexes": held, "eliezer_on_map": eliezer, "total": total}


def victory_points(*, casualty: int = 0, flight: int = 0, redoubt: int = 0, preparation: int = 0,
                   folder=None) -> dict[str, Any]:
    """18.9: the Jewish VP total (Casualty 18.91, Flight 18.922, Redoubt 18.93, delay 19.1); 1,500 wins."""
    v = tables(folder)["victory"]
    total = casualty + flight + redoubt + preparation
    return {"rule": "18.9", "casualty": casualty, "flight": flight, "redoubt": redoubt, "preparation": preparation,
            "total": total, "jewish_win_at": int(v["jewish_win"]), "jewish_win": total >= int(v["jewish_win"])}


# -- 19.1-19.5 the Preparation Table ------------------------------------------------------------------------------
def preparation(week: int, *, folder=None) -> dict[str, Any]:
    """One week's column of the Preparation Table (19.1): Roman replacement %, Armored Tower drm (19.5), Jewish
    VP, Ramp hexes (19.4), Mining drm (19.2; null: no mining), Jewish Repair drm (19.6)."""
    p = tables(folder)["preparation"]
    if week not in p["weeks"]:
        raise ValueError(f"week {week}: the Preparation Table runs {p['weeks'][0]}-{p['weeks'][-1]}")
    i = p["weeks"].index(week)
    return {"rule": "19.1", "week": week,
            "roman_replacements_pct": p["roman_replacements_pct"][i], "armored_tower_drm": p["armored_tower_drm"][i],
            "jewish_vp": p["jewish_vp"][i], "ramps": p["ramps"][i], "mining_drm": p["mining_drm"][i],
            "repair_drm": p["repair_drm"][i]}


def delay_vp(week: int, *, folder=None) -> int:
    """19.1: the Jewish VP for the week the assault is launched (the Preparation Table's column; each postponed
    week moves to the next column, 19.2)."""
    return int(preparation(week, folder=folder)["jewish_vp"] or 0)


def armored_towers(week: int, roll: int, *, folder=None) -> dict[str, Any]:
    """19.5: a Construction roll plus the week's drm: >= 7 one new Armored Tower, >= 12 two."""
    p = tables(folder)["preparation"]
    drm = preparation(week, folder=folder)["armored_tower_drm"] or 0
    final = roll + drm
    n = 2 if final >= p["armored_tower_two"] else 1 if final >= p["armored_tower_one"] else 0
    return {"rule": "19.5", "week": week, "roll": roll, "drm": drm, "final": final, "armored_towers": n}


def mining(week: int, roll: int, completed: int = 0) -> dict[str, Any]:
    """19.2: the new shafts of a Mining roll in ``week`` (roll + drm, less those already completed, at most 4)."""
    from .combat import mining_shafts
    drm = preparation(week)["mining_drm"]
    if drm is None:
        return {"rule": "19.2", "week": week, "roll": roll, "drm": None, "shafts": 0,
                "why": "no mining before two weeks of preparation (19.2)"}
    return {"rule": "19.2", "week": week, "roll": roll, "drm": drm, "final": roll + drm, "completed": completed,
            "shafts": mining_shafts(week, roll, completed)}


def roman_replacements(weeks: int, eliminated: int, drawn_weeks: int | None = None) -> dict[str, Any]:
    """19.3, 18.5: the Roman units drawn back after ``weeks`` (only the difference after a draw at ``drawn_weeks``)."""
    from .combat import replacements
    pct = preparation(weeks)["roman_replacements_pct"]
    before = 0 if drawn_weeks is None else preparation(drawn_weeks)["roman_replacements_pct"]
    return {"rule": "19.3", "weeks": weeks, "pct": pct - before, "eliminated": eliminated,
            "replacements": replacements(weeks, eliminated, drawn_weeks)}
