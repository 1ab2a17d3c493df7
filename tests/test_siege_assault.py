"""Siege of Jerusalem Assault Period tables as calculators: 18.6, 18.611-18.612, 18.7, 18.9x, 19.1-19.5."""
import json

import pytest

from siege_positions import pos
from toolkit.game.module import load_game
from toolkit.games.siege.assault import (armored_towers, casualty_vp, delay_vp, external_influence, flight_vp,
                                         jewish_replacements, levy, mining, preparation, redoubt_vp,
                                         reserve_activation, roman_replacements, victory_points)


@pytest.fixture(scope="module")
def counters():
    return {c.id: c for c in load_game("siege-of-jerusalem").manifest.counters}


def test_18_6_levy_example():
    assert levy()["jewish_pct"] == 100 and levy(["New City"])["jewish_pct"] == 90
    r = jewish_replacements(38, ["New City"])          # 18.6 example: 38 x .9 = 34.2 -> 34
    assert (r["pct"], r["replacements"], r["flight_allowed"]) == (90, 34, False)
    p = pos([], params={"roman_areas": "New City, Tyropoeon City, Lower City, Upper City, City of David"})
    r = jewish_replacements(10, p)
    assert (r["pct"], r["replacements"], r["flight_allowed"]) == (40, 4, False)
    assert not jewish_replacements(10, [*r["roman_areas"], "Antonia Fortress", "Herod's Palace"])["flight_allowed"]
    held = ["Upper City", "Antonia Fortress"]                       # 20 % left: Flight allowed (18.92)
    lost = [a for a in levy()["areas"] if a not in held]
    assert jewish_replacements(10, lost)["flight_allowed"] and jewish_replacements(10, lost)["replacements"] == 2
    with pytest.raises(ValueError):
        levy(["Rome"])
    json.dumps(levy(["New City"]))


def test_18_611_reserve_activation_and_18_612_limits():
    r = reserve_activation("Upper City", entered=True, night=True, roll=7, unit_rolls=[1, 4, 6])
    assert r["dice"] == 2 and r["total_modifier"] == 3          # night, Upper City, Temple held and clear
    assert r["released"] == 10 and [u["type"] for u in r["units"]] == ["militia", "regulars", "zealots"]
    r = reserve_activation("New City", temple="roman", roll=3, activated_before=23)
    assert r["dice"] == 1 and r["total_modifier"] == -1          # not razed +1, Romans hold the Temple -2
    assert (r["released"], r["lost_to_limit"], r["limit"]) == (1, 1, 24)
    assert reserve_activation("New City", razed=["New City"], temple="jewish")["total_modifier"] == 0
    with pytest.raises(ValueError):
        reserve_activation("Temple District")


def test_18_7_external_influence():
    assert not external_influence("II", ["New City"])["lifted"]                     # 10 % of 10 %
    r = external_influence("III", ["New City"])
    assert r["lifted"] and r["required_pct"] == 20 and r["winner"] == "jewish"
    assert external_influence(3, ["New City", "Tyropoeon City"])["lifted"] is False
    assert external_influence("II", ["New City"], weeks=26)["lifted"]               # more than 25 weeks (19.1)
    assert external_influence("end", ["New City"])["required_pct"] == 85


def test_18_91_casualties_and_18_94_mutiny(counters):
    r = casualty_vp([counters["titus"], counters["x-hq"], counters["x-ram"], counters["x-ballista"],
                     counters["x-1-7-8"]])
    assert [u["vp"] for u in r["units"]] == [200, 50, 20, 10, 7] and r["total"] == 287 and not r["mutiny"]
    for c in counters.values():                                    # agrees with every counter's casualty_vp
        if c.side == "roman" and c.value("casualty_vp") is not None:
            assert casualty_vp([c])["total"] == c.value("casualty_vp"), c.id
    assert casualty_vp([counters["titus"], counters["x-hq"]] * 3)["mutiny"]         # 750 >= 400 (18.94)


def test_18_922_flight_and_18_93_redoubt(counters):
    r = flight_vp([counters["eliezer-ben-yair"], counters["zealots-7-7"]])
    assert [u["vp"] for u in r["units"]] == [256, 14]                                # 2 x 3 + 250; 2 x 7
    for c in counters.values():
        if c.side == "jewish" and c.value("flight_vp") is not None:
            assert flight_vp([c])["total"] == c.value("flight_vp"), c.id
    p = pos([("z", "zealots-7-7", "DD19"), ("e", "eliezer-ben-yair", "KK30"), ("y", "y-regulars-5-7", "CC20")])
    r = redoubt_vp(p)
    assert r["fortress_hexes"] == ["DD19"] and r["eliezer_on_map"] and r["total"] == 60
    assert victory_points(casualty=1200, flight=270, redoubt=60)["jewish_win"]
    assert not victory_points(casualty=1200, preparation=delay_vp(5), redoubt=60)["jewish_win"]   # 1310


def test_19_1_preparation_table():
    assert preparation(5)["roman_replacements_pct"] == 35 and preparation(3)["mining_drm"] == -4
    assert preparation(1)["mining_drm"] is None and delay_vp(2) == 10 and delay_vp(1) == 0
    with pytest.raises(ValueError):
        preparation(10)


def test_19_2_example_and_19_3():
    assert mining(3, 4)["shafts"] == 0                 # 19.2 example: week 3, 4 - 4 = 0
    assert mining(4, 4)["shafts"] == 1                 # week 4: 4 - 3 = 1
    assert mining(5, 4, completed=1)["shafts"] == 1    # week 5: 4 - 2 = 2, one already dug
    assert mining(1, 6)["shafts"] == 0
    r = roman_replacements(5, 20)
    assert (r["pct"], r["replacements"]) == (35, 7)    # 19.3: five weeks, 35 %
    assert roman_replacements(6, 20, drawn_weeks=5)["replacements"] == 1   # only the 5 % difference


def test_19_5_armored_towers():
    assert armored_towers(3, 6)["armored_towers"] == 1 and armored_towers(2, 6)["armored_towers"] == 0
    assert armored_towers(9, 5)["armored_towers"] == 2
