"""Numbers in rules.yaml and counters.yaml (issue 30): infinities, NaN, 1e308, negative multipliers, dice of a
billion outcomes, retreats of a billion hexes are refused when the game loads, the error naming the file and the
key in words (never pydantic's names for its validators); a half-given option (``supply.mp`` without
``movement_class``) is refused at load, not when a command uses it."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from test_hostile_support import ROOT, assert_refused, run
from toolkit.game import GameDataError, load_game
from toolkit.game.rulesdata import MAX_RETREAT

STEPPE = ROOT / "examples" / "steppe"
SCENARIO = "scenarios/scenario-1.yaml"


@pytest.fixture
def steppe(tmp_path) -> Path:
    """A copy of the example game, so a test may change its files."""
    shutil.copytree(STEPPE, tmp_path / "g")
    return tmp_path / "g"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def refusal(folder: Path) -> str:
    """The message of the game's refusal when its rules.yaml is loaded."""
    with pytest.raises(GameDataError) as err:
        load_game(str(folder)).rules_data
    return str(err.value)


CLEAR, DIE = "      clear: 1\n", "    die: [1, 6]\n"


@pytest.mark.parametrize("old, new, key, words", [
    (CLEAR, "      clear: .inf\n", "movement.terrain.costs.clear", "cost inf: give a number from 0 to 1000 in steps of ½"),
    (CLEAR, "      clear: 1.0e+308\n", "movement.terrain.costs.clear", "give a number from 0 to 1000"),
    (CLEAR, "      clear: .nan\n", "movement.terrain.costs.clear", "cost nan"),
    (CLEAR, "      clear: -1\n", "movement.terrain.costs.clear", "cost -1"),
    (CLEAR, "      clear: 1.3\n", "movement.terrain.costs.clear", "in steps of ½"),
    (CLEAR, "      clear: X\n", "movement.terrain.costs.clear", "cost 'X': give a number of movement points"),
    ("forest: {foot: 2, mech: 3}", "forest: {foot: 2, mech: .inf}", "movement.terrain.costs.forest",
     "class 'mech': cost inf"),
    ('leave: {cost: 1, rule: "7.2"}', 'leave: {cost: 1.0e+308, rule: "7.2"}', "zoc.leave.cost", "cost 1e+308"),
    ("allowance: 10, enemy_zoc", "allowance: .inf, enemy_zoc", "movement.kinds.rail.allowance",
     "movement points inf"),
    (DIE, "    die: [1000, 1000000]\n", "combat.table.die[0]", "less than or equal to 5"),
    (DIE, "    die: [1, 0]\n", "combat.table.die[1]", "greater than or equal to 2"),
    (DIE, "    die: [5, 100]\n", "combat.table.die", "5d100 has 10,000,000,000 outcomes, over the limit of 10,000"),
    ("    city: {multiply: 2}\n", "    city: {multiply: -3}\n", "combat.terrain.city.multiply", "greater than 0"),
    ("    city: {multiply: 2}\n", "    city: {multiply: .inf}\n", "combat.terrain.city.multiply", "finite number"),
    ("out_of_supply: {rule: \"12.3\", attack: 0.5", "out_of_supply: {rule: \"12.3\", attack: .nan",
     "combat.out_of_supply.attack", "finite number"),
    ("shift: -1}\n    swamp", "shift: 1000000}\n    swamp", "combat.terrain.forest.shift", "less than or equal to 20"),
    ('defender: {retreat: 1}}', 'defender: {retreat: 1000000000}}', "retreat.results.DR.defender.retreat",
     f"less than or equal to {MAX_RETREAT}"),
    ("  hexes: 5\n", "  hexes: 1000000000\n", "supply.hexes", "less than or equal to 1000"),
    ("{hex: Kharkov, vp: 10,", "{hex: Kharkov, vp: 1.0e+300,", "victory.objectives[0].vp", "got 1e+300"),
])
def test_numbers_out_of_bounds_are_refused_naming_file_and_key(steppe, old, new, key, words):
    edit(steppe / "rules.yaml", old, new)
    message = refusal(steppe)
    assert message.startswith(f"{steppe / 'rules.yaml'}: {key}: "), message
    assert words in message
    assert "function-" not in message and "union[" not in message and "literal[" not in message


def test_a_half_given_supply_option_is_refused_at_load(steppe):
    # the doc's alternative `mp: 7, movement_class: foot` with only its first half
    edit(steppe / "rules.yaml", "\n  hexes: 5\n", "\n  mp: 7\n")
    assert "supply.movement_class: a trace in movement points gives both mp and movement_class" in refusal(steppe)
    edit(steppe / "rules.yaml", "\n  mp: 7\n", "\n  movement_class: foot\n")
    assert "supply.mp: a trace in movement points gives both" in refusal(steppe)


def test_both_halves_of_the_supply_option_load(steppe):
    edit(steppe / "rules.yaml", "\n  hexes: 5\n", "\n  mp: 7\n  movement_class: foot\n")
    supply = load_game(str(steppe)).rules_data.supply
    assert (supply.mp, supply.movement_class) == (7.0, "foot")


@pytest.mark.parametrize("value, words", [(".inf", "finite number; got inf"), ("1.0e+300", "less than or equal to"),
                                          ("-.inf", "finite number")])
def test_counter_values_are_finite_and_bounded(steppe, value, words):
    edit(steppe / "counters.yaml", "movement: 6, size: 2}", f"movement: {value}, size: 2}}")
    with pytest.raises(GameDataError) as err:
        load_game(str(steppe))
    assert "counters.yaml: counters[1].values.movement: input should be " in str(err.value)
    assert words in str(err.value) and "constrained-" not in str(err.value)


def test_the_commands_refuse_in_one_line(steppe):
    edit(steppe / "rules.yaml", DIE, "    die: [1000, 6]\n")
    assert_refused(run(["moves", str(steppe / SCENARIO), "g-pz-1", "--game", str(steppe)]), "rules.yaml",
                   "combat.table.die[0]")


def test_the_longest_retreat_allowed_ends_quickly(steppe):
    # 10.1 with a retreat of MAX_RETREAT hexes and no "away" restriction (10.2 dropped): the search stays small.
    edit(steppe / "rules.yaml", "defender: {retreat: 1}}", f"defender: {{retreat: {MAX_RETREAT}}}}}")
    edit(steppe / "rules.yaml", 'away: {rule: "10.2"}', "away: null")
    start = time.monotonic()
    r = run(["retreat", str(steppe / SCENARIO), "--game", str(steppe), "--units", "s-inf-3", "--attackers",
             "g-inf-2", "--result", "DR"], timeout=60)
    assert r.status == 0 and f"s-inf-3 in 0603: retreats {MAX_RETREAT} hex(es) (10.1)" in r.out, r.err
    assert time.monotonic() - start < 20
