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
