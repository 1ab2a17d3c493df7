"""Issue 33: conditions wherever rules.yaml gives a number or an effect (a `when`, or a list of variants of which
the first whose `when` holds applies), with the hex tests `terrain` and `features`.

The positions are the example game examples/steppe (tests/test_rules_data.py describes its map: flat-top, CCRR,
odd columns shifted down; the river between columns 5 and 6, forest 0303 0304 0403, swamp 0206 0207 0306, cities
0102 Poltava, 0705 Kharkov, 1004 Belgorod, the road 0104-0704-0705, the railway along row 2).  Each rule edited
in is written here with a rule number of its own; every expected answer is worked out by hand.
"""
from __future__ import annotations

import pytest

from toolkit.answers import supply_answer
from toolkit.game import GameDataError, load_game
from tests.test_rules_data import dest, moves, odds, position, refused, steppe, u  # noqa: F401  (steppe: a fixture)
from tests.test_rules_data_keys import edit

MUD = {"params": {"weather": "mud"}}


def weather(folder, units, w, phase="axis_movement", **more):
    return position(folder, units, phase, params={"weather": w}, **more)


# -- movement ----------------------------------------------------------------------------------------------------

def test_a_terrain_cost_by_weather_and_its_rule_where_it_prohibits(steppe):
    edit(steppe, "rules.yaml", lambda r: r["movement"]["terrain"]["costs"].update(
        forest=[{"rule": "6.9", "cost": {"foot": 3, "mech": "P"}, "when": MUD}, {"cost": {"foot": 2, "mech": 3}}]))
    units = [u("g", "ger-inf", "0203"), u("pz", "ger-pz", "0202")]
    # 6.2: 0203 -> forest 0303 costs infantry 2; 6.9: 3 in mud
    assert dest(moves(weather(steppe, units, "clear"), "g"))["0303"]["cost"] == 2
    assert dest(moves(weather(steppe, units, "mud"), "g"))["0303"]["cost"] == 3
    # 6.9: no armour in a forest in mud; no road leads into 0303, so it is out of reach, citing 6.9
    assert refused(moves(weather(steppe, units, "mud"), "pz"))["0303"] == {
        "hex": "0303", "reason": "forest is prohibited to mech units", "rule": "6.9"}


def test_a_hexside_cost_by_weather_and_the_road_bridge_around_it(steppe):
    edit(steppe, "rules.yaml", lambda r: r["movement"]["hexsides"].update(
        river=[{"rule": "6.9", "cost": {"foot": 2, "mech": "P"}, "when": MUD}, {"rule": "6.3", "cost": {"foot": 1,
                                                                                                       "mech": 2}}]))
    units = [u("g", "ger-inf", "0502"), u("pz", "ger-pz", "0502")]
    # 6.3: 0502 -> 0602 across the river: clear 1 + 1 (infantry), 1 + 2 (armour)
    assert dest(moves(weather(steppe, units, "clear"), "g"))["0602"]["cost"] == 2
    assert dest(moves(weather(steppe, units, "clear"), "pz"))["0602"]["cost"] == 3
    # 6.9 in mud: infantry 1 + 2; armour may not cross, but goes round by the road's bridge (6.5): 0503 and 0504
    # (1 each), along the road into 0604 (½), 0603 and 0602 (1 each): 4½
    assert dest(moves(weather(steppe, units, "mud"), "g"))["0602"]["cost"] == 3
    d = dest(moves(weather(steppe, units, "mud"), "pz"))["0602"]
    assert (d["cost"], d["path"]) == (4.5, ["0502", "0503", "0504", "0604", "0603", "0602"])


def test_a_cap_on_units_standing_in_forest_or_swamp(steppe):
    edit(steppe, "rules.yaml", lambda r: r["movement"].update(
        caps=[{"rule": "6.10", "max": 1, "when": {"terrain": ["forest", "swamp"]}}]))
    # 6.10: a unit starting in forest (0303) has 1 MP; one in the open (0203) its 4
    pos = position(steppe, [u("a", "ger-inf", "0303"), u("b", "ger-inf", "0203")])
    assert (moves(pos, "a")["mp"], moves(pos, "b")["mp"]) == (1, 4)


def test_rail_movement_of_any_length(steppe):
    edit(steppe, "rules.yaml", lambda r: r["movement"]["kinds"]["rail"].update(allowance="any"))
    pos = position(steppe, [u("g", "ger-inf", "0202")])
    ans = moves(pos, "g", kind="rail")
    # 8.1: along the railway 0202 -> 1002, eight hexes at 1 MP each, as far as the rail goes: no allowance (mp null,
    # "unlimited" in words)
    assert (ans["mp"], dest(ans)["1002"]["cost"]) == (None, 8)
    assert set(dest(ans)) == {"0102", "0302", "0402", "0502", "0602", "0702", "0802", "0902", "1002"}


def test_rail_of_any_length_stops_short_of_an_enemy_zone(steppe):
    edit(steppe, "rules.yaml", lambda r: r["movement"]["kinds"]["rail"].update(allowance="any"))
    # a Soviet unit at 0803 controls 0702, 0802 and 0902 (7.0): rail movement may not enter them (8.1)
    pos = position(steppe, [u("g", "ger-inf", "0202"), u("s", "sov-inf", "0803")])
    ans = moves(pos, "g", kind="rail")
    assert max(dest(ans), key=lambda h: dest(ans)[h]["cost"]) == "0602"
    assert refused(ans)["0702"]["rule"] == "8.1"


# -- zones of control --------------------------------------------------------------------------------------------

def test_a_unit_in_swamp_exerts_no_zone_of_control(steppe):
    edit(steppe, "rules.yaml", lambda r: r["zoc"].update(when={"terrain": ["clear", "forest", "city"]}))
    # 0405 is next to 0306 (swamp) and to 0406: a Soviet unit in 0306 does not stop the move (7.0), one in 0406 does
    in_swamp = position(steppe, [u("g", "ger-inf", "0404"), u("s", "sov-inf", "0306")])
    in_open = position(steppe, [u("g", "ger-inf", "0404"), u("s", "sov-inf", "0406")])
    assert dest(moves(in_swamp, "g"))["0405"]["stop"] is False
    assert dest(moves(in_open, "g"))["0405"]["stop"] is True


def test_no_leaving_an_enemy_zone_in_mud(steppe):
    edit(steppe, "rules.yaml", lambda r: r["zoc"].update(
        leave=[{"rule": "7.4", "cost": "P", "when": MUD}, {"rule": "7.2", "cost": 1}]))
    units = [u("g", "ger-inf", "0504"), u("r", "sov-inf", "0604")]
    # 7.2: leaving r's zone costs 1: along the road to 0404 ½ + 1
    assert dest(moves(weather(steppe, units, "clear"), "g"))["0404"]["cost"] == 1.5
    # 7.4 in mud: g may not leave at all
    ans = moves(weather(steppe, units, "mud"), "g")
    assert ans["destinations"] == [] and refused(ans)["0404"] == {
        "hex": "0404", "reason": "a unit may not leave an enemy zone of control", "rule": "7.4"}


# -- combat ------------------------------------------------------------------------------------------------------

def test_a_city_triples_its_defence_in_frost_and_the_attack_falls_below_the_table(steppe):
    edit(steppe, "rules.yaml", lambda r: (r["combat"]["terrain"].update(
        city=[{"rule": "9.8", "multiply": 3, "when": {"params": {"weather": "frost"}}}, {"multiply": 2}]),
        r["combat"].pop("out_of_supply")))   # gc, 6 hexes from the west edge, is out of supply
    units = [u("gc", "ger-inf", "0706"), u("c", "sov-inf", "0705")]
    clear = odds(weather(steppe, units, "clear", "axis_combat"), ["gc"], ["c"])
    frost = odds(weather(steppe, units, "frost", "axis_combat"), ["gc"], ["c"])
    # 9.3: 4 against 4 x2 in the city, 1-2; 9.8: x3 in frost, 4 against 12, 1-3: below the table, AE (9.2)
    assert (clear["defence"], clear["odds"]) == (8, "1-2")
    assert (frost["defence"], frost["odds"], frost["defenders"][0]["how"]) == (12, "below 1-2",
                                                                               "defence 4 x3 in city (9.8)")
    assert {r["result"] for r in frost["results"]} == {"AE"}


def test_a_frozen_river_gives_no_shift(steppe):
    edit(steppe, "rules.yaml", lambda r: r["combat"]["hexsides"].update(
        river=[{"rule": "9.9", "shift": 0, "when": {"params": {"weather": "frost"}}}, {"rule": "9.4", "shift": -1}]))
    units = [u("g", "ger-inf", "0504"), u("r", "sov-inf", "0604")]
    # 4 against 4, 1-1; across the river -1 (9.4): 1-2; frozen (9.9): no shift, 1-1
    assert odds(weather(steppe, units, "clear", "axis_combat"), ["g"], ["r"])["odds"] == "1-2"
    assert odds(weather(steppe, units, "frost", "axis_combat"), ["g"], ["r"])["odds"] == "1-1"


def test_a_modifier_reading_a_feature_of_the_defenders_hex(steppe):
    edit(steppe, "rules.yaml", lambda r: (r["combat"]["modifiers"].append(
        {"id": "station", "rule": "9.10", "shift": -1, "why": "a railway station", "when": {"features": {"rail": []}}}),
        r["combat"].pop("out_of_supply")))   # g, in column 7, is out of supply
    # 4 against 4, 1-1; the defender on the railway (0702) -1 (9.10): 1-2; off it (0703): 1-1
    on_rail = position(steppe, [u("g", "ger-inf", "0703"), u("r", "sov-inf", "0702")], "axis_combat")
    off_rail = position(steppe, [u("g", "ger-inf", "0704"), u("r", "sov-inf", "0703")], "axis_combat")
    ans = odds(on_rail, ["g"], ["r"])
    assert (ans["odds"], ans["shifts"][-1]["rule"]) == ("1-2", "9.10")
    assert odds(off_rail, ["g"], ["r"])["odds"] == "1-1"


def test_the_older_spelling_when_all_is_read_as_across(steppe):
    edit(steppe, "rules.yaml", lambda r: r["combat"]["hexsides"].update(river={"rule": "9.4", "shift": -1,
                                                                              "when": "any"}))
    assert load_game(str(steppe)).rules_data.combat.hexsides["river"].across == "any"


# -- supply ------------------------------------------------------------------------------------------------------

def _supplied(pos) -> dict[str, dict]:
    return {ln["unit"]: ln for ln in supply_answer(pos)["units"]}


def test_a_shorter_supply_line_in_mud_cites_its_rule(steppe):
    edit(steppe, "rules.yaml", lambda r: r["supply"].update(hexes=[{"rule": "12.4", "hexes": 3, "when": MUD},
                                                                   {"hexes": 5}]))
    units = [u("g", "ger-inf", "0504")]
    # 12.0: 0504 is 4 hexes from the west edge (0404 0304 0204 0104): within 5; 12.4: not within 3 in mud
    assert _supplied(weather(steppe, units, "clear"))["g"]["supplied"] is True
    cut = _supplied(weather(steppe, units, "mud"))["g"]
    assert (cut["supplied"], cut["cut"]["reason"], cut["cut"]["rule"]) == (
        False, "no supply source within 3 hexes on an open line", "12.4")


def test_supply_hexes_null_is_a_line_of_any_length(steppe):
    units = [u("g", "ger-inf", "0903")]
    # 12.0: 0903 is 8 hexes from the west edge, beyond 5; with `hexes: null`, in supply
    assert _supplied(position(steppe, units))["g"]["supplied"] is False
    edit(steppe, "rules.yaml", lambda r: r["supply"].update(hexes=None))
    line = _supplied(position(steppe, units))["g"]
    assert (line["supplied"], len(line["path"])) == (True, 9)


def test_enemy_zones_block_supply_except_in_a_forest(steppe):
    def blocks(given):
        edit(steppe, "rules.yaml", lambda r: r["supply"].update(sources={"axis": {"hexes": ["0203"]}}, hexes=2,
                                                                 blocked_by=given))
        return _supplied(position(steppe, [u("g", "ger-inf", "0404"), u("s", "sov-inf", "0403")]))["g"]

    # g's one line of 2 hexes to its source 0203 runs through forest 0303, which s (0403) controls: 12.5, an enemy
    # zone does not block a line in a forest
    line = blocks([{"enemy_units": True, "enemy_zoc": False, "when": {"terrain": ["forest"]}},
                   {"enemy_units": True, "enemy_zoc": True}])
    assert (line["supplied"], line["path"]) == (True, ["0404", "0303", "0203"])
    cut = blocks({"enemy_units": True, "enemy_zoc": True})
    assert (cut["supplied"], cut["cut"]["reason"]) == (
        False, "the line is cut at 0303: an enemy zone of control with no friendly unit in it")


# -- refused when the game loads ---------------------------------------------------------------------------------

@pytest.mark.parametrize("change, key", [
    (lambda r: r["movement"]["terrain"]["costs"].update(forest=[{"cost": 3, "when": MUD}]),
     "movement.terrain.costs.forest[0].when"),
    (lambda r: r["victory"]["levels"][0].update(when={"terrain": ["city"]}), "victory.levels[0].when.terrain"),
    (lambda r: r["zoc"].update(when={"terrain": ["jungle"]}), "zoc.when.terrain[0]"),
    (lambda r: r["combat"]["terrain"].update(city={"multiply": 2, "when": {"features": {"road": "minor"}}}),
     "combat.terrain.city.when.features.road"),     # the road's value on the map is true
    (lambda r: r["combat"]["terrain"].update(city={"multiply": 2, "when": {"features": {"river": []}}}),
     "combat.terrain.city.when.features.river"),    # a hexside feature: no hex has it
    (lambda r: r["supply"].update(hexes=[{"hexes": 2, "when": MUD}]), "supply.hexes[0].when"),
    (lambda r: r["combat"]["modifiers"][0]["when"].update(terrain=["clear"]), "combat.modifiers[0].when"),
])
def test_a_condition_the_game_cannot_read_is_refused(steppe, change, key):
    edit(steppe, "rules.yaml", change)
    with pytest.raises(GameDataError) as err:
        load_game(str(steppe)).rules_data
    assert key in str(err.value) and "rules.yaml" in str(err.value)
