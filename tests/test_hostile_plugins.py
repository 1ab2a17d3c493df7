"""Rules plugins that fail (issue 30): one that fails to import, or whose calculator raises anything but a
refusal, is refused naming its package and entry point; the other games keep working; a refusal (ValueError)
passes through as the plugin worded it; the toolkit's own games keep their tracebacks (their bugs are ours)."""
from __future__ import annotations

import shutil
import sys
from importlib.metadata import EntryPoint
from pathlib import Path
from types import ModuleType

import pytest

import toolkit.games as games
from test_hostile_support import ROOT, assert_refused, run
from toolkit.game import load_game
from toolkit.games.plugin import PluginError, calculators

STEPPE = ROOT / "examples" / "steppe"
SCENARIO = STEPPE / "scenarios" / "scenario-1.yaml"


def _check_divides(position, turn_end=None, **extra):
    return 1 / 0


def _moves_refuses(position, unit_ids, *args, **kw):
    raise ValueError("7.3: no move from one enemy zone to another")


@pytest.fixture
def plugin(monkeypatch):
    """Installs a module ``name`` (made up of ``attrs`` here, or none: not importable) as the steppe game's
    plugin, beside the bundled games'."""
    def install(name: str, **attrs) -> None:
        if attrs:
            module = ModuleType(name)
            module.__all__ = list(attrs)
            for key, value in attrs.items():
                setattr(module, key, value)
            monkeypatch.setitem(sys.modules, name, module)
        installed = games.entry_points(group=games.ENTRY_POINT_GROUP)   # the bundled games' too
        monkeypatch.setattr(games, "entry_points", lambda group: [*installed, EntryPoint("steppe", name, group)])
        games.plugins.cache_clear()
    yield install
    games.plugins.cache_clear()


def test_a_plugin_that_fails_to_import_is_named(plugin):
    plugin("no_such_rules_package_xyz")
    with pytest.raises(PluginError) as err:
        games.rules_for(load_game(str(STEPPE)))
    assert str(err.value).startswith("the rules plugin for 'steppe' (no_such_rules_package_xyz) failed to load: "
                                     "ModuleNotFoundError: No module named 'no_such_rules_package_xyz'")


def test_a_calculator_that_raises_is_named_and_the_other_games_work(plugin):
    plugin("broken_steppe_rules", check=_check_divides, moves=_moves_refuses)
    game = load_game(str(STEPPE))
    rules = games.rules_for(game)
    with pytest.raises(PluginError, match=r"^the rules plugin for 'steppe' \(broken_steppe_rules\): check failed: "
                                          r"ZeroDivisionError: division by zero"):
        rules.check(None)
    with pytest.raises(ValueError, match="^7.3: no move from one enemy zone to another$") as refused:
        rules.moves(None, ["g-pz-1"])
    assert not isinstance(refused.value, PluginError)
    assert games.rule(load_game("jerusalem-1948"), "check") is not None   # another game's rules: untouched
    assert rules.supply.__module__ == "toolkit.games.data.trace"          # and this game's data: untouched


def test_the_toolkits_own_games_are_not_wrapped():
    own = next(ep for ep in games.plugins().values() if ep.name == "jerusalem-1948")
    found = calculators(own)
    assert all(getattr(f, "__wrapped__", None) is None for f in found.values() if callable(f))


def _installed(root: Path):
    """In the child: the plugin folder ``root`` (a module and its .dist-info) on the path."""
    def child() -> None:
        sys.path.insert(0, str(root))
        games.plugins.cache_clear()
    return child


def _plugin_folder(tmp_path: Path, source: str) -> Path:
    root = tmp_path / "plugin"
    info = root / "evil_rules-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: evil-rules\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[toolkit.rules]\nsteppe = evil_rules\n")
    (root / "evil_rules.py").write_text(source)
    return root


@pytest.mark.parametrize("source, words", [
    ("import nonexistent_module_xyz\n", "failed to load: ModuleNotFoundError"),
    ("__all__ = ['check']\ndef check(position, turn_end=None, **kw):\n    raise ZeroDivisionError('bug')\n",
     "check failed: ZeroDivisionError: bug"),
])
def test_the_command_line_names_the_package_in_one_line(tmp_path, source, words):
    game = tmp_path / "g"
    shutil.copytree(STEPPE, game)
    r = run(["check", str(game / "scenarios" / "scenario-1.yaml"), "--game", str(game)],
            child=_installed(_plugin_folder(tmp_path, source)))
    assert_refused(r, "the rules plugin for 'steppe' (package 'evil-rules', evil_rules)", words)
