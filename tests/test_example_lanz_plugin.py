"""What docs/plugins.md says a plugin meets when it overrides one calculator ("What overriding one calculator
means", issue 33), shown on the example game Lanz 1916 (examples/lanz) with a small plugin written here: it reads
a file of its own from ``position.game.folder``, adds a note to each combat, and its ``moves`` either passes the
kind of movement on or drops it.  Each answer is the command line's, run in a child process with the plugin on
its ``PYTHONPATH`` (as tests/test_rules_plugin.py installs the Steppe's)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
LANZ = ROOT / "examples" / "lanz"
SCENARIO = LANZ / "scenarios" / "1-the-crossing.yaml"

PLUGIN = '''
"""A plugin for Lanz: a note read from the game folder on every combat; moves with or without the kind."""
import os
from dataclasses import replace

from toolkit.datafile import read_yaml
from toolkit.games.data.combat import combat as data_combat
from toolkit.games.data.movement import moves as data_moves

__all__ = ["check"] if os.environ.get("LANZ_PLUGIN") == "alone" else ["combat", "moves"]


def check(position, turn_end=None, **options):
    return []


def combat(position, attack, defend, kind=None, protected=(), fired=(), **options):
    note = read_yaml(position.game.folder / "plugin-note.yaml")
    result = data_combat(position, attack, defend, kind, protected, fired, **options)
    return replace(result, notes=[*result.notes, note])


def moves(position, unit_ids, pickup=(), terrorist=False, enter=None, kind=None):
    if os.environ.get("LANZ_PLUGIN") == "drops-kind":
        return data_moves(position, unit_ids, pickup, terrorist, enter)
    return data_moves(position, unit_ids, pickup, terrorist, enter, kind)
'''


@pytest.fixture(scope="module")
def plugin(tmp_path_factory) -> Path:
    """The plugin as an installed distribution (its module and entry point ``lanz``) in a folder of its own."""
    site = tmp_path_factory.mktemp("site")
    (site / "lanz_rules_test").mkdir()
    (site / "lanz_rules_test" / "__init__.py").write_text(PLUGIN, encoding="utf-8")
    info = site / "lanz_rules_test-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lanz-rules-test\nVersion: 0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[toolkit.rules]\nlanz = lanz_rules_test\n", encoding="utf-8")
    return site


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    """A copy of the game with the plugin's own file in its folder."""
    folder = tmp_path_factory.mktemp("games") / "lanz"
    shutil.copytree(LANZ, folder)
    (folder / "plugin-note.yaml").write_text('rule: "99.1"\ntext: "a note read from the game folder"\n',
                                             encoding="utf-8")
    return folder


def toolkit(plugin: Path, mode: str, *args: str) -> subprocess.CompletedProcess:
    """``python -m toolkit ARGS`` with the plugin installed (``mode``: how it behaves, LANZ_PLUGIN)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(plugin),
                                                                          "LANZ_PLUGIN": mode}
    return subprocess.run([sys.executable, "-m", "toolkit", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def answer(plugin: Path, mode: str, *args: str) -> dict:
    done = toolkit(plugin, mode, *args, "--json")
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def test_a_plugins_moves_gets_the_datas_kinds(plugin, game):
    """``--kind rail`` reaches the plugin's ``moves`` (the kinds still come from rules.yaml): passed on, it is the
    data's rail movement (5.1: along row 3, 0603 to 0103-0903); dropped, the unit moves as by road and field."""
    args = ("moves", str(SCENARIO), "r-inf-3", "--kind", "rail", "--game", str(game))
    passed = answer(plugin, "passes-kind", *args)
    assert sorted(d["hex"] for d in passed["destinations"]) == ["0103", "0203", "0303", "0403", "0503", "0703",
                                                                "0803", "0903"]
    dropped = answer(plugin, "drops-kind", *args)
    assert dropped["mp"] == 4 and "0604" in {d["hex"] for d in dropped["destinations"]}    # no word said


def test_a_plugins_note_shows_in_the_text_even_when_the_combat_is_refused(plugin, game, tmp_path):
    """The note comes from the plugin's own file in the game folder (``position.game.folder``)."""
    position = tmp_path / "bridge.yaml"
    units = [("i", "red-inf", "0904"), ("j", "red-inf", "1104"), ("far", "red-inf", "0804"), ("b", "blue-inf", "1005")]
    position.write_text(yaml.safe_dump({
        "game": "lanz", "turn": "1", "phase": "red_combat", "phasing_side": "red", "params": {"weather": "clear"},
        "units": [{"id": i, "counter": c, "hex": h} for i, c, h in units]}), encoding="utf-8")
    odds = ("odds", str(position), "--game", str(game), "--defend", "b", "--attack")
    made = toolkit(plugin, "passes-kind", *odds, "i", "j")      # 3 (across the Lanz) + 6 against 10: 1-2
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith("9 against 10: odds 1-2")
    assert "  note: [99.1] a note read from the game folder" in made.stdout.splitlines()
    refused = toolkit(plugin, "passes-kind", *odds, "far")            # 0804 is not next to 1005 (7.1)
    assert refused.stdout.startswith("not allowed (7.1)")
    assert "  note: [99.1] a note read from the game folder" in refused.stdout.splitlines()
    assert answer(plugin, "passes-kind", *odds, "far")["notes"] == [{"rule": "99.1",
                                                                      "text": "a note read from the game folder"}]


def test_a_plugin_alone_has_no_line_of_sight_but_the_map_has(plugin, game, tmp_path):
    alone = tmp_path / "lanz"
    shutil.copytree(game, alone)
    (alone / "rules.yaml").unlink()
    done = toolkit(plugin, "alone", "los", "--position", str(SCENARIO), "0904", "1104", "--game", str(alone))
    assert done.returncode == 2
    assert "the toolkit has no 'can_see' for 'lanz' yet: a plugin may add it" in done.stderr
    # the map alone: 0904 -> 1104 runs along sides of the hills 1004 and of Lanzbrück (13.1: both block)
    seen = answer(plugin, "alone", "los", str(alone), "0904", "1104")
    assert seen["visible"] is False
