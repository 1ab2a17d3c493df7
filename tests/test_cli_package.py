"""The command line as a package (issue 31): its rooms, what starting it loads, the catalogue of bundled maps, and
``toolkit retreat --hexes N`` in every game."""
import argparse
import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import yaml

import toolkit.cli as cli
from toolkit.cli import DISTRIBUTION, build_parser, installed_version, main
from toolkit.mapdata import catalog, list_maps

ROOT = Path(__file__).resolve().parent.parent
STEPPE = ROOT / "examples" / "steppe"


def run_json(capsys, *argv):
    """``toolkit ARGV --json``: the exit status and the JSON printed."""
    code = main([*argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_every_room_is_under_400_lines():
    rooms = sorted((ROOT / "toolkit" / "cli").glob("*.py"))
    assert {p.name for p in rooms} >= {"__init__.py", "common.py", "maps.py", "positions.py", "rules.py", "siege.py",
                                       "vassal.py", "owngame.py", "viewer.py", "siege_tables.py"}
    assert {p.name: n for p in rooms if (n := len(p.read_text().splitlines())) >= 400} == {}


def test_no_room_imports_another_room():
    # each family of commands imports only the shared helpers (common) -- never another family
    for family in cli.FAMILIES:
        text = Path(family.__file__).read_text()
        others = [f.__name__.rsplit(".", 1)[1] for f in cli.FAMILIES if f is not family]
        assert not [o for o in others if f"from .{o} import" in text or f"from . import {o}" in text], family


def _funcs(parser: argparse.ArgumentParser) -> list[str]:
    """The command functions a parser and its sub-parsers name (``func``)."""
    out = [parser.get_default("func")]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            out += [f for sub in action.choices.values() for f in _funcs(sub)]
    return [f for f in out if f]


def test_every_command_is_defined_once_and_found_by_name():
    names = [n for family in cli.FAMILIES for n in family.PARSERS]
    assert sorted(names) == sorted(cli.COMMANDS) and len(set(names)) == len(names)
    funcs = _funcs(build_parser())
    assert len(funcs) == len(set(funcs)) == 28 - 2 + 13 + 2    # siege and vsav: 13 and 2 sub-commands
    assert all(callable(getattr(cli, f)) for f in funcs)
    assert _funcs(build_parser("hex")) == ["cmd_hex"]


def test_building_the_parser_imports_nothing_heavy():
    """``toolkit --help`` and ``toolkit COMMAND --help`` load neither numpy, pydantic, networkx, shapely, PIL, lxml
    nor the games."""
    code = ("import sys; from toolkit.cli import build_parser; build_parser().format_help(); "
            "[build_parser(c) for c in ('los', 'moves', 'siege')]; "
            "print(sorted(m for m in ('numpy', 'pydantic', 'networkx', 'shapely', 'PIL', 'lxml', 'yaml', "
            "'toolkit.games', 'toolkit.answers', 'importlib.metadata') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.stdout.strip() == "[]"

#: Modules a command may load only when it uses them: the compiler, the pictures, the LOS engine, the models of
#: rules.yaml and the libraries under them.
HEAVY = ("numpy", "pydantic", "yaml", "networkx", "shapely", "PIL", "lxml", "toolkit.mapdata.compiler",
         "toolkit.render", "toolkit.los.engine", "toolkit.game.rulesdata", "toolkit.games.data")


def _heavy_loaded(*argv: str) -> list[str]:
    """The :data:`HEAVY` modules loaded by running ``toolkit ARGV`` (a second time: its map is in the cache)."""
    code = (f"import sys; from toolkit.cli import main; main({list(argv)!r}); "
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)")
    run = [sys.executable, "-c", code]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run(run, capture_output=True, check=True, env=env)
    return json.loads(subprocess.run(run, capture_output=True, check=True, env=env).stderr.replace(b"'", b'"'))


def test_a_hex_loads_nothing_heavy():
    """``toolkit hex`` of a cached map: neither numpy, pydantic, YAML, the compiler nor the games (issue 31)."""
    assert _heavy_loaded("hex", "example", "0101", "--json") == []


def test_moves_load_the_game_and_no_more():
    """``toolkit moves`` of a bundled game: its models (pydantic), its position file (YAML) and its rules, never the
    compiler, the pictures, the LOS engine nor the models of a rules.yaml."""
    scenario = str(ROOT / "modules/jerusalem-1948/scenarios/scenario-ii.yaml")
    assert _heavy_loaded("moves", scenario, "j-plm-1") == ["pydantic", "yaml"]



def test_version_without_importlib_metadata_agrees_with_it():
    assert installed_version() == metadata.version(DISTRIBUTION)


def test_catalogue_titles_refresh_when_a_map_file_changes(tmp_path, monkeypatch):
    maps = tmp_path / "maps"
    (maps / "one").mkdir(parents=True)
    one = maps / "one" / "map.yaml"
    one.write_text("title: First\n")
    monkeypatch.setenv("TOOLKIT_MAPS_DIR", str(maps))
    monkeypatch.setenv("TOOLKIT_CACHE_DIR", str(tmp_path / "cache"))
    assert list_maps() == [("one", "First", one)]
    stored = json.loads((tmp_path / "cache" / catalog.CATALOG_FILE).read_text())
    assert stored["dir"] == str(maps) and stored["maps"]["one"][2] == "First"

    def no_parse(path):
        raise AssertionError(f"{path} parsed although unchanged")
    monkeypatch.setattr(catalog, "read_title", no_parse)
    assert list_maps() == [("one", "First", one)]       # from the catalogue, no map file read
    monkeypatch.undo()
    monkeypatch.setenv("TOOLKIT_MAPS_DIR", str(maps))
    monkeypatch.setenv("TOOLKIT_CACHE_DIR", str(tmp_path / "cache"))
    one.write_text("title: Second, longer\n")           # another size: read again
    (maps / "two").mkdir()
    (maps / "two" / "map.yaml").write_text("- not a mapping\n")
    assert list_maps() == [("one", "Second, longer", one), ("two", catalog.UNREADABLE, maps / "two" / "map.yaml")]


def test_catalogue_in_an_unwritable_cache_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("TOOLKIT_CACHE_DIR", str(blocker / "cache"))   # under a file: cannot be made
    assert "example" in [m for m, _, _ in list_maps()]


# --- toolkit retreat --hexes N (docs/cli.md), in every game: a traceback before issue 31 ------------------------

def test_retreat_hexes_jerusalem_units_stay(capsys):
    code, data = run_json(capsys, "retreat", str(ROOT / "modules/jerusalem-1948/scenarios/scenario-ii.yaml"),
                          "--units", "j-gar12-1", "--from-attack-hex", "6224", "--hexes", "1")
    [unit] = data["units"]
    assert code == 0 and data["result"] is None
    assert (unit["unit"], unit["from"], unit["stays"]["rule"], unit["destinations"]) == ("j-gar12-1", "6123", "9.4.5",
                                                                                         [])


def test_retreat_hexes_no_prisoners_avoids_enemy_and_zoc(capsys):
    # c-syr-camel in 0711, attacked from 0611: of 0711's neighbours, 0611 holds the enemy (9.3) and 0612, 0710 are
    # in its ZOC (10.7 B): 0712, 0811, 0812 are left (12.1 A)
    code, data = run_json(capsys, "retreat", str(ROOT / "modules/no-prisoners/scenarios/scenario-1.yaml"),
                          "--units", "c-syr-camel", "--from-attack-hex", "0611", "--hexes", "1")
    [unit] = data["units"]
    assert code == 0 and unit["retreat"]["most"] == 1 and unit["retreat"]["unit_of_length"] == "hexes"
    assert sorted(d["hex"] for d in unit["destinations"]) == ["0712", "0811", "0812"]
    assert {x["hex"] for x in unit["refused"]} == {"0611", "0612", "0710"}


def test_retreat_hexes_siege_one_hex_off_the_elevated_ground(capsys):
    # j-y-regulars-5-7-1 in CC20 attacked from CC19: a retreat of one hex (14.2); DD19 is the one way down
    code, data = run_json(capsys, "retreat", str(ROOT / "modules/siege-of-jerusalem/scenarios/demonstration.yaml"),
                          "--units", "j-y-regulars-5-7-1", "--from-attack-hex", "CC19", "--hexes", "1")
    [unit] = data["units"]
    assert code == 0 and unit["from"] == "CC20"
    assert [d["hex"] for d in unit["destinations"]] == ["DD19"]
    assert {x["hex"]: x["rule"] for x in unit["refused"]}["CC19"] == "8.11"


def test_retreat_hexes_own_game_in_words(capsys, tmp_path):
    # no result code: the retreat rule of rules.yaml (10.0); every hex one farther from 0404, none in its ZOC
    pos = tmp_path / "p.yaml"
    pos.write_text(yaml.safe_dump({"game": "steppe", "turn": "1", "phase": "axis_combat", "phasing_side": "axis",
                                   "units": [{"id": "g", "counter": "ger-inf", "hex": "0404"},
                                             {"id": "s", "counter": "sov-inf", "hex": "0405"}]}))
    code = main(["retreat", str(pos), "--game", str(STEPPE), "--units", "s", "--from-attack-hex", "0404",
                 "--hexes", "1"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[:5] == ["a retreat of 1 hex(es):", "  s in 0405: retreats 1 hex(es) (10.0):",
                       "    0305  via -", "    0406  via -", "    0505  via -"]


@pytest.mark.parametrize("argv", [["maps"], ["schema", "map"]])
def test_a_command_replaced_by_name_is_the_one_run(capsys, monkeypatch, argv):
    """``main`` finds a command's function by name in :mod:`toolkit.cli` (a test may replace one there)."""
    seen = []
    monkeypatch.setattr(cli, f"cmd_{argv[0]}", lambda args: seen.append(args.command) or 7, raising=False)
    assert main(argv) == 7 and seen == [argv[0]]
