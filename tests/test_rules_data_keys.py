"""Issue 33: no key of rules.yaml is accepted and ignored, and rules match a map feature's values.

The positions are the example game examples/steppe (tests/test_rules_data.py describes its map); every expected
answer is worked out by hand and commented with the game's rule.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from toolkit.game import GameDataError, load_game
from tests.test_rules_data import dest, moves, odds, position, steppe, u  # noqa: F401  (steppe: a fixture)

MINOR = [["0501", "0601"], ["0501", "0602"], ["0502", "0602"], ["0502", "0603"], ["0503", "0603"],
         ["0503", "0604"], ["0504", "0604"], ["0504", "0605"]]
MAJOR = [["0505", "0605"], ["0505", "0606"], ["0506", "0606"], ["0506", "0607"], ["0507", "0607"],
         ["0507", "0608"], ["0508", "0608"]]


def edit(folder: Path, name: str, change) -> None:
    """Change one YAML file of the game folder."""
    doc = yaml.safe_load((folder / name).read_text())
    change(doc)
    (folder / name).write_text(yaml.safe_dump(doc, sort_keys=False))   # a map's order matters


def river_values(doc: dict) -> None:
    """The Steppe river between columns 5 and 6 as one `river` feature: minor in rows 1-4, major in rows 5-8."""
    lines = [ln for ln in doc["lines"] if ln["feature"] != "river"]
    doc["lines"] = lines + [{"feature": "river", "value": "minor", "hexsides": MINOR},
                            {"feature": "river", "value": "major", "hexsides": MAJOR}]


# -- a map feature's values ------------------------------------------------------------------------------------------

def test_a_feature_value_picks_its_own_cost_and_the_valueless_entry_covers_the_rest(steppe):
    edit(steppe, "map.yaml", river_values)
    edit(steppe, "rules.yaml", lambda r: r["movement"]["hexsides"].update(
        river={"rule": "6.3", "cost": {"foot": 3, "mech": "P"}},
        minor_river={"rule": "6.3", "feature": "river", "value": "minor", "cost": {"foot": 1, "mech": 2}}))
    pos = position(steppe, [u("g", "ger-inf", "0502"), u("h", "ger-inf", "0506")])
    # 6.3: 0502 -> 0602 across the minor river: clear 1 + 1 (the minor entry wins over the valueless one)
    assert dest(moves(pos, "g"))["0602"]["cost"] == 2
    # 0506 -> 0606 across the major river: clear 1 + 3 (the valueless entry); round by the minor river costs 5
    assert dest(moves(pos, "h"))["0606"]["cost"] == 4
    tank = position(steppe, [u("pz", "ger-pz", "0506")])
    # armour may not cross the major river (P): 0606 only round by the road's bridge over the minor river (6.5):
    # 0505 0504 (2), along the road into 0604 (½), 0605 and 0606 (1 each): 4½
    d = dest(moves(tank, "pz"))
    assert (d["0606"]["cost"], d["0606"]["path"]) == (4.5, ["0506", "0505", "0504", "0604", "0605", "0606"])


def test_a_combat_hexside_entry_applies_to_its_value_only(steppe):
    edit(steppe, "map.yaml", river_values)
    edit(steppe, "rules.yaml", lambda r: r["combat"]["hexsides"].update(
        river={"rule": "9.4", "value": "major", "shift": -1, "when": "all"}))
    across_minor = position(steppe, [u("g", "ger-inf", "0504"), u("pz", "ger-pz", "0503"), u("r", "sov-inf", "0604")],
                            "axis_combat")
    # 12 against 4, 3-1; no -1 (9.4 is the major river's), armour +1 (9.5): 4-1
    assert odds(across_minor, ["g", "pz"], ["r"])["odds"] == "4-1"
    across_major = position(steppe, [u("g", "ger-inf", "0506"), u("r", "sov-inf", "0606")], "axis_combat")
    # 4 against 4, 1-1; across the major river -1 (9.4): 1-2
    assert [s["why"] for s in odds(across_major, ["g"], ["r"])["shifts"]] == ["every attacker attacks across the "
                                                                               "river (major)"]


def test_a_value_no_hexside_has_is_refused_naming_the_values_on_the_map(steppe):
    edit(steppe, "map.yaml", river_values)
    edit(steppe, "rules.yaml", lambda r: r["movement"]["hexsides"]["river"].update(value="mnior"))
    with pytest.raises(GameDataError) as err:
        load_game(str(steppe)).rules_data
    assert "movement.hexsides.river.value" in str(err.value) and "major, minor" in str(err.value)


# -- hexside effects: attack halved, die-roll modifier ---------------------------------------------------------------

def test_attackers_across_a_river_are_halved_and_the_roll_modified(steppe):
    edit(steppe, "rules.yaml", lambda r: r["combat"]["hexsides"]["river"].update(attack=0.5, drm=1))
    pos = position(steppe, [u("g", "ger-inf", "0504"), u("pz", "ger-pz", "0503"), u("r", "sov-inf", "0604")],
                   "axis_combat")
    ans = odds(pos, ["g", "pz"], ["r"])
    # 9.4: 4 x½ + 8 x½ = 6 against 4, 1-1 (3-2 rounded for the defender); river -1, armour +1 (9.5): 1-1
    assert (ans["attack"], ans["ratio"], ans["odds"]) == (6, "1-1", "1-1")
    assert ans["attackers"][0]["how"] == "attack 4 x0.5 across the river (9.4)"
    # +1 to the roll (9.4): rolls 1-6 read rows 2-6, 6 again, of the 1-1 column (DR AR AR AR AE AE)
    assert [m["value"] for m in ans["modifiers"]] == [1]
    assert [r["result"] for r in ans["results"]] == ["AR", "AR", "AR", "AE", "AE", "AE"]
    assert [(r["die"], r["final"]) for r in ans["results"]] == [(1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 6)]


# -- keys refused, with the fix --------------------------------------------------------------------------------------

@pytest.mark.parametrize("change, key, fix", [
    (lambda r: r["combat"]["hexsides"]["river"].update(multiply=0.5), "combat.hexsides.river", "attack: 0.5"),
    (lambda r: r["combat"]["modifiers"][0].update(multiply=2), "combat.modifiers[0]", "combat.terrain"),
    (lambda r: r["combat"]["terrain"]["forest"].update(drm=1), "combat.terrain.forest", "defender_terrain"),
])
def test_a_key_the_calculators_would_not_read_is_refused_with_the_fix(steppe, change, key, fix):
    edit(steppe, "rules.yaml", change)
    with pytest.raises(GameDataError) as err:
        load_game(str(steppe)).rules_data
    text = str(err.value)
    assert "rules.yaml" in text and key in text and "has no effect here" in text and fix in text


def test_the_modules_chart_prints_the_attackers_halved_across_the_river_not_the_defence(steppe):
    from toolkit.vassal.build.charts import charts_from_rules
    edit(steppe, "rules.yaml", lambda r: r["combat"]["hexsides"]["river"].update(attack=0.5))
    [chart] = charts_from_rules(load_game(str(steppe)))["Terrain"]
    row = next(r for r in chart.grid.rows if r[0].startswith("River"))
    assert row[-1] == "each attacker across it ×½, -1 column"   # 9.4; no "defence ×½"


# -- conditions: weather, turn, side ---------------------------------------------------------------------------------

WEATHER = [{"id": "mud", "rule": "9.6", "shift": -1, "why": "mud", "when": {"params": {"weather": "mud"}}},
           {"id": "frost", "rule": "9.6", "shift": 1, "why": "frozen ground", "when": {"params": {"weather": "frost"}}}]


def test_every_units_allowance_is_capped_in_mud_but_not_its_rail_movement(steppe):
    edit(steppe, "rules.yaml", lambda r: r["movement"].update(
        caps=[{"rule": "6.8", "max": 2, "when": {"params": {"weather": ["mud", "thaw"]}}}]))
    units = [u("pz", "ger-pz", "0305"), u("rail", "ger-inf", "0202")]
    # 6.8: the Panzer's 6 MP are 2 in mud or thaw, 6 on a clear day or when the position gives no weather
    assert [moves(position(steppe, units, params={"weather": w}), "pz")["mp"] for w in ("mud", "thaw", "clear")] \
        == [2, 2, 6]
    assert moves(position(steppe, units), "pz")["mp"] == 6
    # 8.1: rail movement has its own allowance (10), which mud does not cap
    assert moves(position(steppe, units, params={"weather": "mud"}), "rail", kind="rail")["mp"] == 10


def test_a_column_shift_in_mud_and_in_frost(steppe):
    edit(steppe, "rules.yaml", lambda r: r["combat"]["modifiers"].extend(WEATHER))
    units = [u("g", "ger-inf", "0504"), u("pz", "ger-pz", "0503"), u("r", "sov-inf", "0604")]
    # 12 against 4, 3-1; river -1 (9.4), armour +1 (9.5); mud -1 (9.6): 2-1; frost +1 (9.6): 4-1; else 3-1
    found = {w: odds(position(steppe, units, "axis_combat", params={"weather": w}), ["g", "pz"], ["r"])
             for w in ("mud", "frost", "clear")}
    assert {w: a["odds"] for w, a in found.items()} == {"mud": "2-1", "frost": "4-1", "clear": "3-1"}
    assert [(s["columns"], s["rule"], s["why"]) for s in found["mud"]["shifts"]][-1] == (-1, "9.6", "mud")


def test_a_modifier_of_one_turn_and_side(steppe):
    edit(steppe, "rules.yaml", lambda r: r["combat"]["modifiers"].append(
        {"id": "surprise", "rule": "9.7", "shift": 2, "when": {"turns": ["1"], "sides": ["axis"]}}))
    units = [u("g", "ger-inf", "0504"), u("r", "sov-inf", "0604")]
    # 4 against 4, 1-1, river -1 (9.4): 1-2; the Axis surprise on turn 1, +2 (9.7): 2-1; not on turn 2
    assert odds(position(steppe, units, "axis_combat"), ["g"], ["r"])["odds"] == "2-1"
    assert odds(position(steppe, units, "axis_combat", turn="2"), ["g"], ["r"])["odds"] == "1-2"


@pytest.mark.parametrize("when, key", [
    ({"turns": ["9"]}, "combat.modifiers[1].when.turns[0]"),
    ({"phase": ["axis_supper"]}, "combat.modifiers[1].when.phase[0]"),
    ({"sides": ["allies"]}, "combat.modifiers[1].when.sides[0]"),
    ({"params": {"wether": "mud"}}, "combat.modifiers[1].when.params.wether"),
    ({"params": {"weather": []}}, "combat.modifiers[1].when.params.weather"),
])
def test_a_condition_naming_what_the_game_has_not_is_refused(steppe, when, key):
    edit(steppe, "game.yaml", lambda g: g.update(params=["weather"]))
    edit(steppe, "rules.yaml", lambda r: r["combat"]["modifiers"].append({"id": "x", "shift": 1, "when": when}))
    with pytest.raises(GameDataError) as err:
        load_game(str(steppe)).rules_data
    assert key in str(err.value) and "rules.yaml" in str(err.value)
