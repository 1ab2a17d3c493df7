"""Rules plugins (docs/plugins.md): the example package examples/steppe-plugin installed with pip and found by its
entry point, its rules over the Steppe game's rules.yaml; and the registry's merge of a plugin over the data."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path
from types import ModuleType

import pytest
import yaml

import toolkit.games as games
from toolkit.game import load_game
from toolkit.game.violations import check_json
from toolkit.games.data import combat as data_combat
from toolkit.games.data import movement as data_movement

ROOT = Path(__file__).resolve().parents[1]
STEPPE = ROOT / "examples" / "steppe"
PLUGIN = ROOT / "examples" / "steppe-plugin"

# 15.1: Soviet rifles in 0706, next to the city of Kharkov (0705).
PANZER_ALONE = [("g-pz-1", "ger-pz", "0705"), ("s-inf-1", "sov-inf", "0706")]
# 15.2: the defender in 0405 (clear); 0404 and 0406 are opposite neighbours of it, and the zones of control of
# the units there cover its other four neighbours (0304, 0504 from 0404; 0305, 0505 from 0406).
ENCIRCLED = [("g-pz-1", "ger-pz", "0404"), ("g-inf-1", "ger-inf", "0406"), ("s-inf-1", "sov-inf", "0405")]


@pytest.fixture(scope="module")
def plugin_dir(tmp_path_factory) -> Path:
    """The example plugin installed with pip into a folder of its own (built from a copy: no build files left in
    the repository), for ``PYTHONPATH``."""
    source, target = tmp_path_factory.mktemp("src") / "steppe-plugin", tmp_path_factory.mktemp("site")
    shutil.copytree(PLUGIN, source)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "--target", str(target), str(source)], check=True, capture_output=True)
    return target


def position(folder: Path, units, phase: str = "axis_movement") -> Path:
    """A Steppe position file with ``units`` as ``(id, counter, hex)``, in scenario 1's turn."""
    path = folder / "position.yaml"
    path.write_text(yaml.safe_dump({"game": "steppe", "turn": "1", "phase": phase, "phasing_side": "axis",
                                    "units": [{"id": i, "counter": c, "hex": h} for i, c, h in units]}))
    return path


def answer(plugin: Path | None, *args: str) -> dict:
    """What ``toolkit ARGS --game examples/steppe --json`` prints, run in a child process with the plugin on its
    ``PYTHONPATH`` (None: without it)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if plugin is not None:
        env["PYTHONPATH"] = str(plugin)
    done = subprocess.run([sys.executable, "-m", "toolkit", *args, "--game", str(STEPPE), "--json"], cwd=ROOT,
                          env=env, capture_output=True, text=True)
    return json.loads(done.stdout)


def odds(plugin: Path | None, path: Path, attack: list[str], defend: list[str]) -> dict:
    return answer(plugin, "odds", str(path), "--attack", *attack, "--defend", *defend)


# -- the example plugin, installed -----------------------------------------------------------------------------------
def test_check_adds_the_plugins_rule(plugin_dir, tmp_path):
    # 15.1: the Panzer alone in Kharkov with Soviet rifles next to it; rules.yaml alone finds nothing wrong.
    path = position(tmp_path, PANZER_ALONE)
    assert answer(plugin_dir, "check", str(path)) == {"legal": False, "violations": [{
        "rule": "15.1", "message": "g-pz-1 in the city 0705 next to the enemy without infantry (15.1)",
        "hexes": ["0705"], "units": ["g-pz-1"]}]}
    assert answer(None, "check", str(path)) == {"legal": True, "violations": []}


@pytest.mark.parametrize("units", [
    PANZER_ALONE + [("g-inf-1", "ger-inf", "0705")],          # infantry with it (3 stacking points: the limit)
    [("g-pz-1", "ger-pz", "0705"), ("s-inf-1", "sov-inf", "0708")],   # no enemy next to the city
], ids=["with-infantry", "no-enemy-next-to-it"])
def test_check_passes_what_the_rule_allows(plugin_dir, tmp_path, units):
    assert answer(plugin_dir, "check", str(position(tmp_path, units))) == {"legal": True, "violations": []}


def test_check_keeps_the_data_rules(plugin_dir, tmp_path):
    # rules.yaml's placement.both_sides (6.7): two sides' units in one hex (0203); the plugin's check calls it.
    path = position(tmp_path, [("g-inf-1", "ger-inf", "0203"), ("s-inf-1", "sov-inf", "0203")])
    assert [v["rule"] for v in answer(plugin_dir, "check", str(path))["violations"]] == ["6.7"]


def test_combat_shifts_against_an_encircled_defender(plugin_dir, tmp_path):
    # 8 + 4 attack against 4 defence: 3-1; armour in the open +1 (9.5), encircled +1 (15.2): the 5-1 column.
    data = odds(plugin_dir, position(tmp_path, ENCIRCLED, "axis_combat"), ["g-pz-1", "g-inf-1"], ["s-inf-1"])
    assert (data["ratio"], data["odds"]) == ("3-1", "5-1")
    assert [(s["id"], s["columns"], s["rule"]) for s in data["shifts"]] == [("armour", 1, "9.5"),
                                                                             ("encircled", 1, "15.2")]
    assert [r["result"] for r in data["results"]] == ["DE", "DE", "DE", "DE", "DR", "EX"]   # 9.2, 5-1 column


def test_combat_without_the_plugin_or_the_encirclement(plugin_dir, tmp_path):
    # The same 12 against 4 at 4-1 (armour only): by rules.yaml alone, or with 0505 open (inf in 0305, not 0406).
    encircled = position(tmp_path, ENCIRCLED, "axis_combat")
    assert odds(None, encircled, ["g-pz-1", "g-inf-1"], ["s-inf-1"])["odds"] == "4-1"
    open_side = position(tmp_path, [*ENCIRCLED[::2], ("g-inf-1", "ger-inf", "0305")], "axis_combat")
    data = odds(plugin_dir, open_side, ["g-pz-1", "g-inf-1"], ["s-inf-1"])
    assert (data["odds"], [s["id"] for s in data["shifts"]]) == ("4-1", ["armour"])


def test_what_the_plugin_does_not_define_comes_from_rules_yaml(plugin_dir, tmp_path):
    # 12.0: Axis supply from the west edge within 5 hexes (g-pz-1 in column 4: 3 hexes); the Soviet east edge is
    # 6 columns from 0405.
    path = position(tmp_path, ENCIRCLED)
    data = answer(plugin_dir, "supply", str(path))
    assert data == answer(None, "supply", str(path))
    lines = {u["unit"]: u for u in data["units"]}
    assert [len(lines[u]["path"]) for u in ("g-inf-1", "g-pz-1")] == [4, 4]
    assert lines["s-inf-1"]["cut"] == {"hex": "0405", "reason": "no supply source within 5 hexes on an open line",
                                       "rule": "12.0"}


# -- the registry's merge --------------------------------------------------------------------------------------------
def fake_supply(position, side=None, unit=None):
    """A plugin's supply calculator."""


@pytest.fixture
def fake_plugin(monkeypatch):
    """A plugin module for the game ``steppe`` (``supply`` and ``MOVE_OPTIONS`` in its ``__all__``; a ``combat``
    outside it), installed as an entry point."""
    module = ModuleType("fake_steppe_rules")
    module.__all__ = ["supply", "MOVE_OPTIONS"]
    module.supply, module.MOVE_OPTIONS, module.combat = fake_supply, {"flags": [], "kinds": []}, data_combat
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setattr(games, "entry_points", lambda group: [EntryPoint("steppe", module.__name__, group)])
    games.plugins.cache_clear()
    yield module
    games.plugins.cache_clear()


def test_the_plugin_wins_over_the_data(fake_plugin):
    rules = games.rules_for(load_game(str(STEPPE)))
    assert (rules.supply.__wrapped__, rules.MOVE_OPTIONS) == (fake_supply, fake_plugin.MOVE_OPTIONS)
    assert rules.combat is data_combat.combat             # the module outside __all__ hides nothing
    assert rules.moves is data_movement.moves             # the rest from rules.yaml


def test_a_plugin_alone_is_the_rules(fake_plugin, tmp_path):
    shutil.copytree(STEPPE, tmp_path / "steppe", ignore=shutil.ignore_patterns("rules.yaml"))
    game = load_game(str(tmp_path / "steppe"))
    rules = games.rules_for(game)
    assert games.has_rules(game) and (rules.supply.__wrapped__, rules.MOVE_OPTIONS) == (fake_supply, fake_plugin.MOVE_OPTIONS)
    assert not hasattr(rules, "moves") and not hasattr(rules, "combat")   # nothing from data, nothing outside __all__
    assert rules.check_json is check_json                  # the shared JSON forms, unless the plugin gives its own
