"""Siege of Jerusalem control of the city areas and walls, the Assault Period's end, 19.7 Breaches and the 3.3
HQ-distance check, on hand-built positions of the bundled map."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from siege_positions import pos
from toolkit.cli import main
from toolkit.games import load_game_position
from toolkit.games.siege import check
from toolkit.games.siege.control import area_control, assault_period, breach_sites, control, control_json, elevated_control

LOWER_CITY = ["DD46", "DD47", "DD48", "DD49", "DD50", "DD51", "DD52", "DD53", "DD54", "DD55",   # Built-up
              "DD56", "DD57", "DD58", "DD59", "DD60", "DD61", "DD62"]
ANTONIA_TOWERS = ["II33", "II36", "LL31", "LL34"]                                             # 18.33
HERODS_BUILDINGS = ["Q56", "Q60", "R56", "R57", "R60", "R61"]
HERODS_CLEAR = ["Q57", "Q58", "Q59", "Q61", "Q62", "R55", "R58", "R59", "S54", "S55", "S56"]


def cohorts(hexes, disrupted=()):
    """Roman Heavy Infantry, one on each hex (distinct counters of Legio V and X)."""
    ids = [f"{legion}-{c}-{s}-8" for legion in ("v", "x") for c in range(1, 11) for s in (7, 6, 5)]
    return [(f"c{k}", ids[k], h, *(["disrupted"] if k in disrupted else [])) for k, h in enumerate(hexes)]


def holder(position, area):
    (got,) = [a for a in area_control(position) if a.area == area]
    return got


def test_18_31_ten_fresh_heavy_infantry_and_fifteen_built_up_hexes():
    occupied = LOWER_CITY[:10]
    held = " ".join(LOWER_CITY[10:15])                                      # last occupant: five more (18.31)
    p = pos(cohorts(occupied), side="jewish", phase="melee", params={"roman_hexes": held})
    a = holder(p, "Lower City")
    assert (a.held_by, a.holder, a.rule) == ("jewish", "roman", "18.31")
    assert len(a.roman.hexes) == 15 and len(a.roman.units) == 10 and a.roman.met
    short = pos(cohorts(occupied), side="jewish", phase="melee", params={"roman_hexes": " ".join(LOWER_CITY[10:14])})
    assert holder(short, "Lower City").roman.lacking == ("control of 15 non-Building Built-up hexes (has 14)",)
    tired = pos(cohorts(occupied, disrupted={3}), side="jewish", phase="melee", params={"roman_hexes": held})
    a = holder(tired, "Lower City")
    assert a.holder == "jewish"                                               # only Fresh ones count
    assert a.roman.lacking == ("10 Fresh Heavy Infantry off its Elevated Hexes (has 9)",)


def test_18_32_four_buildings_and_units_on_elevated_hexes_not_counted():
    p = pos(cohorts(HERODS_BUILDINGS[:4] + HERODS_CLEAR[:6]), side="jewish", phase="melee")
    assert (holder(p, "Herod's Palace").holder, holder(p, "Herod's Palace").rule) == ("roman", "18.32")
    three = pos(cohorts(HERODS_BUILDINGS[:3] + HERODS_CLEAR[:7]), side="jewish", phase="melee")
    assert holder(three, "Herod's Palace").roman.lacking == ("control of 4 Building hexes (has 3)",)
    # The Temple District's walls are of its area, but units on them do not count (18.31, 18.32).
    temple = ["JJ36", "JJ37", "JJ38", "JJ39", "JJ40", "II37", "II38", "II40", "II41", "II42"]
    t = holder(pos(cohorts(temple), side="jewish", phase="melee"), "Temple District")
    assert len(t.roman.units) == 5 and t.holder == "jewish"


def test_18_33_every_fortress_of_the_area_at_once():
    p = pos(cohorts(ANTONIA_TOWERS), side="jewish", phase="melee")
    a = holder(p, "Antonia Fortress")
    assert (a.holder, a.rule, sorted(p.game.map.name(h) for h in a.roman.hexes)) == ("roman", "18.33", ANTONIA_TOWERS)
    three = holder(pos(cohorts(ANTONIA_TOWERS[:3]), side="jewish", phase="melee"), "Antonia Fortress")
    assert three.holder == "jewish"
    assert three.roman.lacking == ("every Fortress of the area occupied (missing LL34)",)


def test_18_36_the_jews_win_an_area_back_with_light_infantry_and_razed_hexes():
    jews = [(f"j{k}", "y-regulars-5-7", h) for k, h in enumerate(LOWER_CITY[:10])]
    params = {"roman_areas": "Lower City", "razed_areas": "Lower City", "jewish_hexes": " ".join(LOWER_CITY[10:15])}
    a = holder(pos(jews, side="jewish", phase="melee", params=params), "Lower City")
    assert (a.held_by, a.holder, a.rule) == ("roman", "jewish", "18.36")     # razed Built-up hexes count (18.37)
    nine = holder(pos(jews[:9], side="jewish", phase="melee", params=params), "Lower City")
    assert (nine.holder, nine.rule) == ("roman", "18.31")                    # the Romans keep it
    assert nine.jewish.lacking == ("10 Fresh Light Infantry off its Elevated Hexes (has 9)",
                                   "control of 15 non-Building Built-up hexes (has 14)")   # nine hexes + five


def test_18_11_a_conceded_area_is_roman_and_lets_the_roman_end_the_period():
    p = pos(cohorts(["DD46"]), side="jewish", phase="melee", turn="AP II/4", params={"conceded_areas": "Lower City"})
    a = holder(p, "Lower City")
    assert (a.holder, a.rule, a.conceded) == ("roman", "18.11", True)
    ap = assault_period(p)
    assert ap["roman_may_end"] and ap["roman_may_end_because"] == ["the Jews conceded Lower City (18.11)"]


@pytest.mark.parametrize("turn, night, may_extend, must_end", [
    ("AP II/1", False, False, False), ("AP II/7", False, True, False),
    ("AP II/8", True, False, False), ("AP II/10", True, False, True)])
def test_18_1_seven_daylight_turns_up_to_three_night_turns(turn, night, may_extend, must_end):
    ap = assault_period(pos([], turn=turn, side="jewish", phase="melee"))
    assert (ap["period"], ap["night"], ap["may_extend"], ap["must_end"]) == ("II", night, may_extend, must_end)
    assert ap["at_jewish_melee"] and not ap["roman_may_end"]


def test_18_1_the_roman_may_end_the_period_the_turn_he_first_controls_an_area():
    p = pos(cohorts(ANTONIA_TOWERS), turn="AP III/5", side="jewish", phase="melee")
    ap = assault_period(p)
    assert ap["roman_may_end"] and ap["roman_may_end_because"] == [
        "the Romans first control Antonia Fortress this turn (18.1)"]
    kept = pos(cohorts(ANTONIA_TOWERS), turn="AP III/6", side="jewish", phase="melee",
               params={"roman_areas": "Antonia Fortress"})
    assert not assault_period(kept)["roman_may_end"]                         # held before: not a first control
    assert "as if the Jewish Melee Phase ended now" in assault_period(pos([]))["judged"]


def test_18_35_walls_follow_the_areas_beside_them_and_18_34_fortresses_with_jews_stay_jewish():
    p = pos([], params={"roman_areas": "New City"})
    name, held = p.game.map.resolve, elevated_control(p)
    assert held[name("CC20")] == "roman" and held[name("DD19")] == "roman"    # the Third Wall: New City only
    assert held[name("V37")] == "jewish"                                      # beside New City and Tyropoeon City
    assert elevated_control(p, frozenset({"New City", "Tyropoeon City"}))[name("V37")] == "roman"
    bypassed = pos([("j", "y-regulars-5-7", "NN13")], params={"roman_areas": "New City"})
    assert elevated_control(bypassed)[name("NN13")] == "jewish"


def test_19_7_no_breach_within_two_hexes_of_a_jewish_elevated_hex():
    p = pos([("j", "y-regulars-5-7", "NN13")], side="jewish", params={"roman_areas": "New City"})
    m = p.game.map
    sites = breach_sites(p)
    assert sites[m.resolve("DD19")] is None                                  # a Roman wall far from any Jew
    empty = breach_sites(pos([], side="jewish", params={"roman_areas": "New City"}))
    near = sorted(m.name(h) for h, why in sites.items() if why and not empty[h])
    assert near == ["LL14", "MM14", "OO13", "PP12"]                          # the Third Wall beside Fort NN13
    assert sites[m.resolve("MM14")] == "within 2 hexes of the Jewish-held NN13 (19.7)"
    held = elevated_control(p)
    for h, why in sites.items():                                              # property: exactly the rule
        close = any(side == "jewish" and h.distance(j) <= 2 for j, side in held.items())
        assert (why is not None) == close
    out = control_json(control(p))
    assert "DD19" in out["breach_sites"] and set(near) <= set(out["breach_refused"])
    assert set(out["breach_refused"]) - set(near) == {"P46", "P47", "QQ29", "QQ30"}   # by Jaffa Gate, the Temple


def test_3_3_a_legion_ends_its_first_movement_phase_within_ten_hexes_of_its_hq():
    params = {"off_map_entry": "V:west:1"}
    ok = pos([("hq", "v-hq", "H30"), ("a", "v-1-7-8", "R30")], params=params)   # ten hexes along the row
    assert [v.rule for v in check(ok)] == []
    far = pos([("hq", "v-hq", "H30"), ("a", "v-1-7-8", "S30")], params=params)
    (v,) = check(far)
    assert v.rule == "3.3" and v.units == ("a", "hq") and "11 hexes from its HQ hq" in v.message
    assert check(pos([("hq", "v-hq", "H30"), ("a", "v-1-7-8", "S30")], params=params, phase="melee")) == []
    assert check(pos([("hq", "v-hq", "H30"), ("a", "v-1-7-8", "S30")], params={"off_map_entry": "V:west:2"})) == []
    (alone,) = check(pos([("a", "v-1-7-8", "S30")], params=params))
    assert alone.rule == "3.3" and "without its HQ" in alone.message


def test_control_command(capsys, tmp_path):
    demo = Path("modules/siege-of-jerusalem/scenarios/demonstration.yaml").read_text(encoding="utf-8")
    path = tmp_path / "nc.yaml"
    path.write_text(demo.replace("params: {", 'params: {roman_areas: "New City", ', 1), encoding="utf-8")
    assert main(["control", str(path), "--json", "--svg", str(tmp_path / "c.svg")]) in (0, None)
    data = json.loads(capsys.readouterr().out)
    assert data == control_json(control(load_game_position(path)))
    assert "DD19" not in data["breach_sites"] and "BB21" in data["breach_refused"]   # Fort DD19 holds Jews (18.34)
    assert (tmp_path / "c.svg").read_text(encoding="utf-8").count(">B<") == len(data["breach_sites"])
    main(["control", str(path)])
    text = capsys.readouterr().out
    assert "New City: the Romans (18.31; the Romans held it before)" in text
    assert f"a Breach may be opened in {len(data['breach_sites'])} Roman wall hexes" in text
    assert main(["control", "modules/jerusalem-1948/scenarios/scenario-ii.yaml"]) == 2
    assert "no 'control' for 'jerusalem-1948'" in capsys.readouterr().err
