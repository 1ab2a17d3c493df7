"""Outputs over the files a command reads through its inputs, and ``toolkit new``'s names (issue 20): a map's
board image and a game folder's own files are inputs too; a bundled game's id or a control character in a new
game's name is refused before anything is written."""
from __future__ import annotations

import hashlib

import pytest
import yaml

import vassal_modules as vm
from test_hostile_support import assert_refused, listing, run
from toolkit.cli import main
from toolkit.vassal.published.importer import import_module


def _digests(folder):
    return {p: hashlib.sha256((folder / p).read_bytes()).hexdigest() for p in listing(folder)
            if (folder / p).is_file()}


def test_render_never_replaces_the_board_image_its_map_names(tmp_path):
    game = tmp_path / "g"
    import_module(vm.write_vmod(tmp_path / "m.vmod", vm.lettered()), game)
    image = game / yaml.safe_load((game / "map.yaml").read_text())["board"]["image"]
    before = _digests(game)
    line = assert_refused(run(["render", str(game / "map.yaml"), "-o", str(image)]), str(image), "map.yaml")
    assert "refusing to write over" in line and _digests(game) == before


@pytest.mark.parametrize("target", ["game.yaml", "counters.yaml", "map.yaml"])
def test_outputs_never_replace_a_game_folders_own_files(tmp_path, target):
    game = tmp_path / "g"
    assert main(["new", str(game), "--cols", "6", "--rows", "6"]) == 0
    before = _digests(game)
    r = run(["vsav", "write", str(game / "scenarios/scenario-1.yaml"), "--game", str(game), "-o",
             str(game / target)])
    assert_refused(r, str(game / target), "refusing to write over")
    assert _digests(game) == before
    assert main(["vsav", "write", str(game / "scenarios/scenario-1.yaml"), "--game", str(game), "-o",
                 str(game / "scenarios/s.vsav")]) == 0   # a new file in the folder is fine


@pytest.mark.parametrize("name, needle", [("jerusalem-1948", "bundled game"), ("a\u202eb\x1b[31m", "control")])
def test_new_refuses_a_bundled_id_or_a_control_character_before_writing(tmp_path, monkeypatch, name, needle):
    monkeypatch.chdir(tmp_path)
    assert_refused(run(["new", name, "--cols", "5", "--rows", "5"]), needle)
    assert listing(tmp_path) == []
    assert_refused(run(["new", "ok", "--cols", "5", "--rows", "5", "--title", "x\x1by"]), "--title", "control")
    assert listing(tmp_path) == []
