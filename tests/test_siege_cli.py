"""The Siege of Jerusalem's own commands (`actions`, `advance`), run as a user would, on position files."""
from __future__ import annotations

import json

import yaml

from toolkit.cli import main
from toolkit.games import load_game_position
from toolkit.games.siege import actions, actions_json
from toolkit.games.siege.combat import advances

DEMO = "modules/siege-of-jerusalem/scenarios/demonstration.yaml"


def write(tmp_path, units, phase="melee", side="roman"):
    path = tmp_path / "p.yaml"
    path.write_text(yaml.safe_dump({"game": "siege-of-jerusalem", "turn": "AP I/1", "phase": phase,
                                    "phasing_side": side, "units": [
                                        {"id": i, "counter": c, "hex": h} for i, c, h in units]}), encoding="utf-8")
    return path


def test_actions_command_lists_each_action_with_its_rule(capsys):
    testudo = ["r-x-3-7-8", "r-x-3-6-8", "r-x-3-5-8"]
    assert main(["actions", DEMO, *testudo, "--json"]) in (0, None)
    data = json.loads(capsys.readouterr().out)
    position = load_game_position(DEMO)
    assert data == actions_json(position, actions(position, testudo))
    legal = {a["action"]: a["legal"] for a in data["actions"]}
    assert legal == {"form_testudo": False, "disband_testudo": True, "place_ladder": False, "withdraw_ladder": False}
    assert data["hex"] == "BB19" and data["actions"][1]["mf"] == 6
    main(["actions", DEMO, "r-v-1-7-8"])
    text = capsys.readouterr().out
    assert "withdraw_ladder  4 MF (8.7): no: a Ladder is withdrawn only when no unit is atop it (8.7)" in text
    assert main(["actions", DEMO, "nobody"]) == 2 and "no unit 'nobody'" in capsys.readouterr().err


def test_advance_command_is_the_11_86_calculator(capsys, tmp_path):
    path = write(tmp_path, [("j", "y-regulars-5-7", "DD14"), ("a", "v-1-7-8", "EE14"), ("hq", "v-hq", "EE16"),
                            ("k", "y-regulars-5-7", "BB14")])
    argv = ["advance", str(path), "--attackers", "a", "--hex", "DD14", "--excess", "2", "--defenders", "j"]
    assert main([*argv, "--json", "--svg", str(tmp_path / "a.svg")]) in (0, None)
    data = json.loads(capsys.readouterr().out)
    assert data == advances(load_game_position(path), ["a"], "DD14", 2, ["j"])
    steps = {d["hex"]: d["steps"] for d in data["units"]["a"]["destinations"]}
    assert steps["DD14"] == 0 and steps["DD12"] == 2 and "BB14" not in steps
    assert (tmp_path / "a.svg").exists()
    main(argv[:-2])
    assert "no advance into DD14" in capsys.readouterr().out                    # j still holds it (11.9)
