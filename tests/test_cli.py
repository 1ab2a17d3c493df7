"""The command line, through ``main()`` as a user would call it."""
import json

import pytest
from lxml import etree
from PIL import Image

from toolkit.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_maps_lists_the_example(capsys):
    code, out, _ = run(capsys, "maps", "--json")
    assert code == 0 and "example" in [m["id"] for m in json.loads(out)]


def test_hex_by_place_name_json(capsys):
    code, out, _ = run(capsys, "hex", "example", "nebi samuel", "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) >= {"map", "hex", "terrain", "elevation", "place", "neighbors", "hexsides"}
    assert (data["hex"], data["terrain"], data["elevation"], data["place"]) == ("0505", ["hill"], 2, "Nebi Samuel")
    assert sorted(data["neighbors"]) == ["0405", "0406", "0504", "0506", "0605", "0606"]
    assert data["hexsides"]["0405"] == {"wall": "true"}


def test_los_json_and_picture(capsys, tmp_path):
    out_png = tmp_path / "pics" / "los.png"
    code, out, err = run(capsys, "los", "example", "Emmaus", "0908", "--json", "--svg", str(out_png))
    data = json.loads(out)
    assert code == 0 and str(out_png) in err
    assert set(data) >= {"map", "from", "to", "visible", "convention", "rule", "range", "blocked_by", "touched",
                         "block_point"}
    assert (data["from"], data["to"], data["visible"], data["range"]) == ("0303", "0908", False, 8)
    assert data["convention"] == "touch" and data["rule"] == "10.7.1"
    assert data["blocked_by"] == ["0504", "0505"]  # the hill, in order from the viewer
    assert [t["hex"] for t in data["touched"]][:3] == ["0404", "0405", "0504"]
    assert Image.open(out_png).size[0] > 100


def test_los_text_cites_convention_and_rule(capsys):
    code, out, _ = run(capsys, "los", "example", "0106", "0508", "--convention", "cross")
    assert code == 0 and out.startswith("0106 -> 0508, range 4: CLEAR (rule 10.7.1, cross convention)")


def test_render_svg_with_labelled_highlight(capsys, tmp_path):
    target = tmp_path / "map.svg"
    code, out, _ = run(capsys, "render", "example", "-o", str(target), "--highlight", "0505=3½", "Latrun")
    assert code == 0 and out.strip() == str(target)
    text = target.read_text(encoding="utf-8")
    etree.fromstring(text.encode())
    assert "3½" in text


def test_schema_map(capsys):
    code, out, _ = run(capsys, "schema", "map")
    schema = json.loads(out)
    assert code == 0 and "grid" in schema["properties"]


@pytest.mark.parametrize("argv, message", [
    (("hex", "example", "Atlantis"), "'Atlantis' is neither a hex nor a place"),
    (("hex", "nowhere", "0101"), "no such map file or bundled map"),
    (("render", "example", "-o", "out.gif"), ".svg"),
])
def test_errors_are_clear_and_exit_2(capsys, argv, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


SCENARIO = "modules/jerusalem-1948/scenarios/scenario-ii.yaml"


def test_moves_json_lists_destinations_and_refusals(capsys):
    code, out, _ = run(capsys, "moves", SCENARIO, "j-plm-1", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) >= {"unit", "from", "phase", "mp", "destinations", "unreachable"}
    assert data["unit"] == "j-plm-1" and data["phase"] == "overland" and data["mp"] == 8
    assert all(d["cost"] <= 8 and d["path"][0] == data["from"] and d["path"][-1] == d["hex"]
               for d in data["destinations"])
    assert all({"hex", "reason", "rule"} <= set(u) for u in data["unreachable"])
    code, out, _ = run(capsys, "moves", SCENARIO, "j-gar6-1", "--json")
    assert json.loads(out)["refused"]["rule"] == "7.1"  # garrisons never move


def test_check_and_victory(capsys, tmp_path):
    code, out, _ = run(capsys, "check", SCENARIO, "--json")
    assert code == 0 and json.loads(out) == {"legal": True, "violations": []}
    bad = tmp_path / "bad.yaml"
    bad.write_text(open(SCENARIO).read().replace("turn: \"May IV\"", "turn: \"May I\""))
    code, out, _ = run(capsys, "check", str(bad), "--json")
    data = json.loads(out)
    assert code == 1 and not data["legal"] and {v["rule"] for v in data["violations"]} >= {"1.3"}
    code, out, _ = run(capsys, "victory", SCENARIO, "--json")
    data = json.loads(out)
    assert code == 0 and data["rule"] == "2.0" and data["jewish_wins"] is False and data["cut_by"] == ["1914"]


def test_fire_odds_and_spotting_los(capsys):
    code, out, _ = run(capsys, "fire", SCENARIO, "j-art-1", "a-mufti-1", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) >= {"firer", "target", "range", "in_range", "sees", "spotters", "verdict", "rule"}
    code, out, _ = run(capsys, "los", "--position", SCENARIO, "Hebrew University", "Greek Monastery", "--json")
    data = json.loads(out)
    assert code == 0 and data["visible"] is False and data["rule"] == "10.7.1" and data["convention"] == "touch"


def test_odds_on_the_rule_9_7_1_example_position(capsys):
    example = "modules/jerusalem-1948/examples/rule-9-7-1.yaml"
    code, out, _ = run(capsys, "odds", example, "--attack", "h1", "h2", "h3", "--defend", "m1", "m2", "--json")
    data = json.loads(out)
    assert (code, data["attack"], data["defence"], data["odds"], data["total_modifier"]) == (0, 12, 4, "3-1", 0)
    code, out, _ = run(capsys, "odds", example, "--kind", "first_fire", "--attack", "g", "m1", "m2",
                       "--defend", "h1", "--json")
    data = json.loads(out)
    assert (data["attack"], data["defence"], data["odds"], data["kills_on"]) == (10, 4, "2-1", 3)


def test_vmod_and_vsav_round_trip(capsys, tmp_path):
    vmod, vsav, back = tmp_path / "j.vmod", tmp_path / "s.vsav", tmp_path / "back.yaml"
    code, out, _ = run(capsys, "vmod", "jerusalem-1948", "-o", str(vmod))
    assert code == 0 and vmod.stat().st_size > 100_000
    code, out, _ = run(capsys, "vsav", "write", SCENARIO, "-o", str(vsav))
    assert code == 0 and "not in the save" not in out  # boxes included
    code, out, _ = run(capsys, "vsav", "read", str(vsav), "-o", str(back))
    assert code == 0 and "117 units" in out
    import yaml
    units = {u["id"]: (u.get("hex"), u.get("box")) for u in yaml.safe_load(back.read_text())["units"]}
    original = {u["id"]: (u.get("hex"), u.get("box")) for u in yaml.safe_load(open(SCENARIO).read())["units"]}
    assert units == original
    code, out, _ = run(capsys, "check", str(vsav))
    assert code == 0 and "legal" in out
    code, _, err = run(capsys, "vsav", "read", str(vsav), "-o", str(vsav))
    assert code == 2 and "refusing to write over the input" in err


NP_SCENARIO = "modules/no-prisoners/scenarios/scenario-1.yaml"


def test_supply_and_command(capsys, tmp_path):
    code, out, _ = run(capsys, "supply", NP_SCENARIO, "--json", "--svg", str(tmp_path / "s.png"))
    data = json.loads(out)
    assert code == 0 and data["units"] and (tmp_path / "s.png").exists()
    for u in data["units"]:
        assert u["supplied"] == (u["source"] is not None) and (u["path"][0] == u["hex"] if u["path"] else True)
    code, out, _ = run(capsys, "command", NP_SCENARIO, "--json")
    assert code == 0 and any(h["radius"] >= 2 and h["hex"] in h["hexes"] for h in json.loads(out)["hqs"])
    code, out, _ = run(capsys, "moves", NP_SCENARIO, "a-42-div", "--json")
    assert code == 0 and json.loads(out)["refused"]["rule"] == "8.3 A"   # the scenario opens with random events
    code, out, _ = run(capsys, "railhead", NP_SCENARIO, "--json", "--svg", str(tmp_path / "r.svg"))
    data = json.loads(out)
    assert code == 0 and (data["action"], data["hex"], data["rule"]) == ("move", "0409", "16.2 B")
    assert data["hexes"]["0508"] == ["0409", "0508"] and (tmp_path / "r.svg").exists()
    code, out, _ = run(capsys, "place", NP_SCENARIO, "c-3-div")
    assert code == 0 and out.startswith("c-3-div: may not be placed:") and "(6.1)" in out
    code, out, _ = run(capsys, "railhead", NP_SCENARIO)
    assert code == 0 and out.startswith("the railhead in 0409 is in supply") and "0508  via 0409 0508" in out
    code, out, _ = run(capsys, "check", NP_SCENARIO, "--json")
    assert code == 0 and json.loads(out) == {"legal": True, "violations": []}


def test_check_help_says_it_reads_logs(capsys):
    """`toolkit check --help` names the .vlog it also reads (issue 21)."""
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "log (.vlog)" in out and "LOG.vlog" in out
