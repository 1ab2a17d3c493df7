"""The installed package: where the bundled maps and games are found, and the version the command prints."""
import re
from importlib import metadata
from pathlib import Path

import pytest

from toolkit import bundled
from toolkit.cli import DISTRIBUTION, main
from toolkit.game.module import modules_dir
from toolkit.mapdata import maps_dir

REPO = Path(__file__).resolve().parent.parent
GAMES = {"jerusalem-1948", "siege-of-jerusalem", "no-prisoners"}
MAPS = GAMES | {"example"}


def test_bundled_folders_hold_the_games_and_maps(monkeypatch):
    monkeypatch.delenv("TOOLKIT_MODULES_DIR", raising=False)
    monkeypatch.delenv("TOOLKIT_MAPS_DIR", raising=False)
    assert {p.parent.name for p in modules_dir().glob("*/game.yaml")} >= GAMES
    assert {p.parent.name for p in maps_dir().glob("*/map.yaml")} >= MAPS


def test_the_environment_names_other_folders(monkeypatch, tmp_path):
    monkeypatch.setenv("TOOLKIT_MODULES_DIR", str(tmp_path / "games"))
    monkeypatch.setenv("TOOLKIT_MAPS_DIR", str(tmp_path / "maps"))
    assert (modules_dir(), maps_dir()) == (tmp_path / "games", tmp_path / "maps")


def test_the_copy_inside_the_package_comes_first(monkeypatch, tmp_path):
    package = tmp_path / "site-packages" / "toolkit"
    monkeypatch.setattr(bundled, "PACKAGE", package)
    monkeypatch.delenv("TOOLKIT_MAPS_DIR", raising=False)
    assert bundled.bundled_dir("maps", "TOOLKIT_MAPS_DIR") == tmp_path / "site-packages" / "maps"   # a checkout
    (package / "data" / "maps").mkdir(parents=True)
    assert bundled.bundled_dir("maps", "TOOLKIT_MAPS_DIR") == package / "data" / "maps"            # a wheel


def test_version_is_the_installed_metadata(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"toolkit {metadata.version(DISTRIBUTION)}\n"


def test_the_distribution_name_is_pyprojects():
    name = re.search(r'^name = "([^"]+)"', (REPO / "pyproject.toml").read_text(), re.MULTILINE).group(1)
    assert name == DISTRIBUTION
