"""The Siege of Jerusalem printed tables of rules 18 and 19 in tables.yaml, checked against the rulebook's examples."""
from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "modules" / "siege-of-jerusalem" / "tables.yaml"
AREAS = {"Temple District", "Upper City", "Lower City", "Tyropoeon City", "New City", "City of David",
         "Antonia Fortress", "Herod's Palace", "Fortress Triangle", "Jaffa Gate"}


@pytest.fixture(scope="module")
def t():
    data = yaml.safe_load(TABLES.read_text(encoding="utf-8"))
    assert data["game"] == "siege-of-jerusalem"
    return data


def test_garrisons_18_4(t):
    g = t["garrisons"]
    assert (g["AF"]["regulars"], g["HP"]["regulars"], g["TQ"]["regulars"], g["TQ"]["zealots"]) == (4, 6, 8, 2)
    assert g["shared_hexes"] == 4


def test_levy_18_6_and_its_example(t):
    levy = t["levy"]["areas"]
    assert set(levy) == AREAS and sum(levy.values()) == 100
    assert levy["Temple District"] == 30 and levy["Herod's Palace"] == 5
    # 18.6 example: 38 units lost and the New City lost: 38 x .9 = 34.2, 34 back
    held = sum(v for a, v in levy.items() if a != "New City")
    assert math.floor(38 * held / 100) == 34


def test_reserve_activation_18_611(t):
    ra = t["reserve_activation"]
    assert ra["drm"] == {"night": 1, "upper_lower_city_david": 1, "temple_held_clear": 1, "not_razed": 1,
                         "romans_hold_temple": -2}
    by_roll = {r: row["type"] for row in ra["units"] for r in row["rolls"]}
    assert by_roll == {1: "militia", 2: "militia", 3: "militia", 4: "regulars", 5: "regulars", 6: "zealots"}
    assert (ra["dice_attacked"], ra["dice_entered"]) == (1, 2)


def test_reserve_limits_18_612(t):
    assert t["reserve_limits"] == {"New City": 24, "Tyropoeon City": 28, "City of David": 35,
                                   "Lower City": 40, "Upper City": 40}


def test_external_influence_18_7(t):
    assert t["external_influence"] == {"II": 10, "III": 20, "IV": 45, "V": 70, "end": 85, "max_weeks": 25}


def test_victory_18_9(t):
    v = t["victory"]
    assert v["jewish_win"] == 1500 and v["mutiny_casualty_vp"] == 400
    assert v["casualties"] == {"per_fresh_melee_factor": 1, "artillery": 10, "siege_engine": 20, "leader": 50,
                               "titus": 200}
    assert v["flight"] == {"per_printed_melee_factor": 2, "leader_bonus": 100, "eliezer_ben_yair_bonus": 250}
    assert v["redoubt"] == {"per_occupied_jewish_fortress": 10, "eliezer_ben_yair_on_map": 50}


def test_preparation_19_1_and_the_19_2_example(t):
    p = t["preparation"]
    col = {w: i for i, w in enumerate(p["weeks"])}
    assert all(len(p[k]) == 9 for k in ("roman_replacements_pct", "armored_tower_drm", "jewish_vp", "ramps",
                                         "mining_drm", "repair_drm"))
    # 19.2 example: week 3, roll 4 - 4 = 0 (no shaft); week 4, 4 - 3 = 1 shaft; week 5, 4 - 2 = 2: one more
    assert 4 + p["mining_drm"][col[3]] == 0 and 5 + p["mining_drm"][col[3]] == 1
    assert 4 + p["mining_drm"][col[4]] == 1 and 4 + p["mining_drm"][col[5]] - 1 == 1
    assert p["mining_drm"][col[1]] is None                   # 19.2: at least two weeks
    assert p["roman_replacements_pct"][col[5]] == 35          # 19.3 example
    assert p["max_shafts"] == 4 and p["ramp_hexes_per_game"] == 5


def test_engineering_19_2_1_and_its_example(t):
    eng = {r: row for row in t["engineering"] for r in row["rolls"]}
    assert sorted(eng) == [1, 2, 3, 4, 5, 6]
    # 19.22 example: QQ36, roll 1: three hexes, damage rolls 7, 8, 9 become 8, 9, 10
    assert eng[1]["hexes"] == 3 and [d + eng[1]["damage_drm"] for d in (7, 8, 9)] == [8, 9, 10]
    assert eng[4]["hexes"] == 5 and eng[4]["damage_drm"] == 0   # DD19: five hexes, no drm
    st = t["shaft_targets"]
    assert (st["max_distance"], st["min_distance"], st["per_legion_hq"]) == (11, 6, 1)
