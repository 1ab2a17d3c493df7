"""Issue 15, "Your own game": `toolkit new` writes a valid game; commands take its folder and map path;
`toolkit vmod GAME_DIR` builds a module that passes `vmod check` and loads in the real engine; positions of
your own game need its folder on the command line (never a path from inside the file, issue 11)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from toolkit.cli import main as toolkit_main
from toolkit.game.module import load_game
from toolkit.game.position import load_position
from toolkit.scaffold import new_game
from toolkit.vassal.design.piecedefs import MAIN_MAP

from vassal_engine import vengine  # noqa: E402  (the real-VASSAL driver)


def run(capsys, *argv) -> tuple[int, str, str]:
    code = toolkit_main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def game_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("new") / "my-game"
    new_game(folder, 12, 10)
    return folder


@pytest.fixture(scope="module")
def module(game_dir, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("vmod") / "my-game.vmod"
    assert toolkit_main(["vmod", str(game_dir), "-o", str(out)]) == 0
    return out


def test_new_writes_a_commented_valid_game(tmp_path, capsys):
    code, out, err = run(capsys, "new", tmp_path / "skirmish", "--cols", 8, "--rows", 6)
    assert code == 0, err
    folder = tmp_path / "skirmish"
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) == [
        "charts.yaml", "counters.yaml", "game.yaml", "map.yaml", "rules.yaml", "scenarios/scenario-1.yaml"]
    for f in folder.rglob("*.yaml"):
        assert f.read_text().startswith("#")   # commented
    game = load_game(str(folder))
    assert game.spec.id == "skirmish" and game.spec.map == "map.yaml"
    cmap = game.map
    assert len(cmap.hexes) == 48
    kinds = {t for info in cmap.hexes.values() for t in info.terrain}
    assert kinds == {"clear", "woods", "hill", "town"}
    assert set(cmap.places) == {"Dark Wood", "Millbrook"}
    assert any(info.region == "North" for info in cmap.hexes.values())
    assert any(info.features.get("road") == "primary" for info in cmap.hexes.values())
    assert sum(1 for attrs in cmap.hexsides.values() if attrs.get("river")) == 4   # 3 along the hill + override
    assert any(c.back for c in game.manifest.counters)
    assert {c.side for c in game.manifest.counters} == {"blue", "red"}
    position = load_position(folder / "scenarios/scenario-1.yaml", game)
    assert position.by_id["b-inf-3"].hex == cmap.places["Millbrook"]


def test_new_refuses_a_non_empty_folder_and_bad_sizes(tmp_path, capsys):
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "notes.txt").write_text("mine")
    code, _, err = run(capsys, "new", tmp_path / "g", "--cols", 8, "--rows", 6)
    assert code == 2 and "not empty" in err and len(err.strip().splitlines()) == 1
    assert (tmp_path / "g" / "notes.txt").read_text() == "mine" and len(list((tmp_path / "g").iterdir())) == 1
    code, _, err = run(capsys, "new", tmp_path / "h", "--cols", 2, "--rows", 6)
    assert code == 2 and "--cols 2" in err and not (tmp_path / "h").exists()


def test_new_game_id_never_a_bundled_one(tmp_path, capsys):
    assert run(capsys, "new", tmp_path / "no-prisoners", "--cols", 5, "--rows", 5)[0] == 0
    assert load_game(str(tmp_path / "no-prisoners")).spec.id == "no-prisoners-own"


def test_vmod_builds_from_the_folder_and_check_passes(module, capsys):
    code, out, err = run(capsys, "vmod", "check", module, "--json")
    assert code == 0, out
    assert json.loads(out)["ok"]


def test_map_commands_take_a_map_path_or_the_game_folder(game_dir, capsys, tmp_path):
    code, out, _ = run(capsys, "los", game_dir / "map.yaml", "0101", "0505", "--json")
    assert code == 0 and json.loads(out)["map"] == "my-game"
    code, out2, _ = run(capsys, "los", game_dir, "0101", "0505", "--json")
    assert code == 0 and json.loads(out2) == json.loads(out)
    code, out, _ = run(capsys, "hex", game_dir, "Millbrook", "--json")
    assert code == 0 and json.loads(out)["terrain"] == ["clear", "town"]
    code, out, _ = run(capsys, "render", game_dir, "-o", tmp_path / "m.svg")
    assert code == 0 and (tmp_path / "m.svg").stat().st_size > 1000


def test_scenario_round_trips_through_vsav(game_dir, tmp_path, capsys):
    scenario = game_dir / "scenarios/scenario-1.yaml"
    save, back = tmp_path / "s.vsav", tmp_path / "back.yaml"
    assert run(capsys, "vsav", "write", scenario, "--game", game_dir, "-o", save)[0] == 0
    code, out, err = run(capsys, "vsav", "read", save, "--game", game_dir, "-o", back)
    assert code == 0, err
    game = load_game(str(game_dir))
    a = load_position(scenario, game).to_file()
    b = load_position(back, game).to_file()
    assert a.model_dump(exclude={"scenario"}) == b.model_dump(exclude={"scenario"})


def _one_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("toolkit: error: "), err
    return lines[0]


def test_missing_game_yaml(tmp_path, capsys):
    (tmp_path / "g").mkdir()
    code, _, err = run(capsys, "vmod", tmp_path / "g", "-o", tmp_path / "x.vmod")
    line = _one_error(err)
    assert code == 2 and str(tmp_path / "g" / "game.yaml") in line and "missing" in line


@pytest.mark.parametrize("value, says", [("mpa.yaml", "no map file 'mpa.yaml'"),
                                         ("../elsewhere/map.yaml", "leads out of the game folder"),
                                         ("nomap", "not a bundled map id")])
def test_bad_map_path(game_dir, tmp_path, capsys, value, says):
    folder = tmp_path / "g"
    new_game(folder, 5, 5)
    text = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(re.sub(r"(?m)^map: .*$", f"map: {value}", text))
    line_no = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("map:"))
    code, _, err = run(capsys, "vmod", folder, "-o", tmp_path / "x.vmod")
    line = _one_error(err)
    assert code == 2 and says in line
    assert "game.yaml: map: " in line and line.endswith(f"(line {line_no})")


def test_a_position_naming_a_folder_is_refused(game_dir, tmp_path, capsys):
    text = (game_dir / "scenarios/scenario-1.yaml").read_text()
    pos = tmp_path / "p.yaml"
    pos.write_text(text.replace("game: my-game", f"game: {game_dir}"))
    for extra in ([], ["--game", game_dir]):
        code, _, err = run(capsys, "vsav", "write", pos, "-o", tmp_path / "s.vsav", *extra)
        line = _one_error(err)
        assert code == 2 and "p.yaml: game: " in line and line.endswith("(line 5)")
    assert not (tmp_path / "s.vsav").exists()


def test_own_game_position_needs_the_folder_on_the_command_line(game_dir, tmp_path, capsys, monkeypatch):
    """`game: my-game` with a folder `my-game` in the working directory: still refused without --game."""
    monkeypatch.chdir(game_dir.parent)
    code, _, err = run(capsys, "vsav", "write", "my-game/scenarios/scenario-1.yaml", "-o", tmp_path / "s.vsav")
    line = _one_error(err)
    assert code == 2 and "game: 'my-game' is not a bundled game" in line and line.endswith("(line 5)")


def _scenario_with(game_dir, tmp_path, *units: str, text: str | None = None) -> Path:
    """The scaffold's scenario with more units (``COUNTER@HEX``)."""
    text = text or (game_dir / "scenarios/scenario-1.yaml").read_text()
    extra = "".join(f"  - {{id: x{k}, counter: {c}, hex: \"{h}\"}}\n" for k, (c, h) in
                    enumerate(u.split("@") for u in units))
    pos = tmp_path / "stack.yaml"
    pos.write_text(text.replace("markers:", extra + "markers:"))
    return pos


def test_check_applies_the_stacking_limits_game_yaml_declares(tmp_path, capsys):
    """`stacking: {limit: 2, terrain: {town: 3}, free_types: [hq]}` (the scaffold's): on the 8 x 6 scaffold
    0701 is Clear, Millbrook (0205) Clear and Town, so its limit is the Town's 3; the HQ does not count."""
    game_dir = tmp_path / "g"
    new_game(game_dir, 8, 6)
    code, out, _ = run(capsys, "check", game_dir / "scenarios/scenario-1.yaml", "--game", game_dir)
    assert code == 0 and out.endswith(": legal\n")                       # two in Millbrook
    hq_moved = (game_dir / "scenarios/scenario-1.yaml").read_text().replace('hex: "0806"', 'hex: "0701"')
    pos = _scenario_with(game_dir, tmp_path, "red-inf@0701", "blue-armour@0205", text=hq_moved)
    assert run(capsys, "check", pos, "--game", game_dir)[0] == 0         # 2 + the HQ in 0701, 3 in the Town
    pos = _scenario_with(game_dir, tmp_path, "red-inf@0701", "red-inf@0701", "blue-armour@0205", "blue-inf@0205")
    code, out, _ = run(capsys, "check", pos, "--game", game_dir, "--json")
    got = [(v["hexes"], v["units"], v["message"]) for v in json.loads(out)["violations"]]
    assert code == 1 and got == [
        (["0205"], ["b-inf-2", "b-inf-3", "x2", "x3"], "4 blue units in 0205, over its limit of 3 (game.yaml stacking)"),
        (["0701"], ["r-inf-2", "x0", "x1"], "3 red units in 0701, over its limit of 2 (game.yaml stacking)")]


def test_stacking_declaration_errors(tmp_path, capsys):
    folder = tmp_path / "g"
    new_game(folder, 6, 5)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text()
    game_yaml.write_text(text.replace("terrain: {town: 3}", "terrain: {castle: 3}"))
    code, _, err = run(capsys, "check", folder / "scenarios/scenario-1.yaml", "--game", folder)
    assert code == 2 and "game.yaml: stacking.terrain.castle: is not a terrain of the map" in _one_error(err)
    game_yaml.write_text(text.replace("free_types: [hq]", "free_types: [hq, dragon]"))
    code, _, err = run(capsys, "check", folder / "scenarios/scenario-1.yaml", "--game", folder)
    assert code == 2 and "stacking.free_types names unit types ['dragon']" in _one_error(err)
    game_yaml.write_text(re.sub(r"\nstacking: .*\n", "\n", text))
    (folder / "rules.yaml").unlink()
    code, _, err = run(capsys, "check", folder / "scenarios/scenario-1.yaml", "--game", folder)
    assert code == 2 and "declare `stacking` in its game.yaml" in _one_error(err)


def test_the_scaffolds_scenario_gets_moves_at_once(tmp_path, capsys):
    """The scaffold's rules.yaml: b-inf-1 (4 MP, foot) in 0103 on the road along row 3 pays ½ a hex (6.3) to
    0603 (2½); 0703 lies beside the Red infantry in 0803, whose ZOC ends the move there (7.1)."""
    folder = tmp_path / "g"
    new_game(folder, 8, 6)
    code, out, err = run(capsys, "moves", folder / "scenarios/scenario-1.yaml", "b-inf-1", "--game", folder, "--json")
    assert code == 0, err
    found = {d["hex"]: d for d in json.loads(out)["destinations"]}
    assert found["0603"]["cost"] == 2.5 and found["0603"]["path"] == ["0103", "0203", "0303", "0403", "0503", "0603"]
    assert (found["0703"]["cost"], found["0703"]["stop_rule"]) == (3, "7.1")


def test_pointy_games_load_but_vmod_refuses_them(tmp_path, capsys):
    folder = tmp_path / "pointy"
    code, out, _ = run(capsys, "new", folder, "--cols", 6, "--rows", 5, "--orientation", "pointy")
    assert code == 0 and "flat-top grids only" in out
    assert run(capsys, "los", folder, "0101", "0605")[0] == 0
    code, _, err = run(capsys, "vmod", folder, "-o", tmp_path / "p.vmod")
    assert code == 2 and "flat-top grids only" in _one_error(err) and not (tmp_path / "p.vmod").exists()


def test_bundled_ids_unchanged(tmp_path, capsys, monkeypatch):
    """A folder named like a bundled game does not shadow it; ./NAME is the folder."""
    monkeypatch.chdir(tmp_path)
    new_game(tmp_path / "example", 5, 5)
    code, out, _ = run(capsys, "hex", "example", "Nebi Samuel", "--json")
    assert code == 0 and json.loads(out)["map"] == "example"    # the bundled map
    code, out, _ = run(capsys, "hex", "./example", "Millbrook", "--json")
    assert code == 0 and json.loads(out)["map"] == "example"    # the folder's map (its id is the folder name)


def test_real_engine_loads_the_new_game(game_dir, module):
    reason = vengine.engine_available()
    if reason is not None:
        pytest.skip(f"VASSAL engine unavailable: {reason}")
    game = load_game(str(game_dir))
    position = load_position(game_dir / "scenarios/scenario-1.yaml", game)
    steps = [{"op": "side", "name": "Blue"}, {"op": "new", "setup": "Scenario 1"}, {"op": "windows"},
             {"op": "pieces", "map": MAIN_MAP, "props": ["unit"]}]
    r = vengine.play(module, steps)
    failed = [s for s in r["steps"] if not s["ok"]]
    assert r["ok"] and not failed, json.dumps({"errors": r["errors"], "failed": failed}, indent=1)[:4000]
    _, new, windows, pieces = r["steps"]
    assert new["gameStarted"]
    main = next(m for m in windows["windows"]["maps"] if m["name"] == MAIN_MAP)
    assert main["showing"] and main["docked"], main
    name = game.map.name
    on_map = {u.id: name(u.hex) for u in position.units if u.hex is not None}
    got = {p["properties"]["unit"]: p["locationName"] for p in pieces["pieces"] if p["properties"].get("unit")}
    assert got == on_map
    markers = [p for p in pieces["pieces"] if not p["properties"].get("unit")]
    assert [p["locationName"] for p in markers] == [name(m.hex) for m in position.markers if m.hex is not None]


def test_the_scaffolds_module_shows_what_a_game_can_have(game_dir):
    """Issue 35: the turn tracker reads the phases' names, the turn-2 reinforcement waits in turn 2's box of the
    turn record track, the charts name the HQ type as players write it."""
    from lxml import etree

    from toolkit.vassal.build.charts import chart_pages
    from toolkit.vassal.build.module import module_files
    from toolkit.vassal.saves.positions import ModuleLayout

    game = load_game(str(game_dir))
    files = module_files(game)
    root = etree.fromstring(files["buildFile.xml"])
    levels = root.findall(".//VASSAL.build.module.turn.ListTurnLevel")
    assert [(lv.get("property"), lv.get("list")) for lv in levels] == [
        ("Turn", "1,2,3,4,5,6"), ("Player", "Blue,Red"), ("Phase", "Movement Phase,Combat Phase")]
    assert game.spec.arrivals_box == "reinforcements"
    unit = load_position(game_dir / "scenarios/scenario-1.yaml", game).by_id["b-arm-2"]
    layout = ModuleLayout.of(game)
    _, x, y = layout.place(unit)
    assert layout.boxes.zone("turn", "2").contains(x, y)
    terrain = chart_pages(game)["Terrain"].decode()
    assert "Movement classes: Foot: Infantry, HQ; Mech: Armour." in terrain and "Hq" not in terrain
