"""Issue 21, your own counters and board: every declared factor printed and fitted (A-D-M), a misspelt
``counter_factors`` key refused, ``symbols`` in game.yaml, counter pictures (``image``/``back_image``) and a
board picture (``map.yaml`` ``board``) used by ``toolkit vmod``."""
from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
import yaml
from PIL import Image

from toolkit.cli import main as toolkit_main
from toolkit.game.module import load_game
from toolkit.scaffold import new_game
from toolkit.vassal.design.board import board_layout
from toolkit.game.schema import SYMBOLS
from toolkit.vassal.design.counters import (counter_image_name, counter_images, counter_layout, draw_counter,
                                           game_counter_size)

from test_vassal_counters import check_texts


def run(capsys, *argv) -> tuple[int, str, str]:
    code = toolkit_main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def folder(tmp_path) -> Path:
    game = tmp_path / "own"
    new_game(game, 8, 6)
    return game


def edit(path: Path, change) -> None:
    """Rewrite a YAML file of the game through ``change(data)``."""
    data = yaml.safe_load(path.read_text())
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def test_every_declared_factor_is_printed_and_fits(folder):
    game = load_game(folder)
    assert game.spec.counter_factors == ["attack", "defence", "movement"]
    for counter in game.manifest.counters:
        layout = counter_layout(game, counter)
        values = counter.values
        assert layout.text("factors").startswith(f"{values['attack']}-{values['defence']}-{values['movement']}")
        check_texts(layout, 1, counter.id)
    inf = game.counters["blue-inf"]
    assert counter_layout(game, inf).text("factors") == "4-4-4"
    assert counter_layout(game, inf, back=True).text("factors") == "2-2-4"


def test_factors_that_cannot_fit_are_refused_not_cut(folder, capsys, tmp_path):
    keys = [f"f{i}" for i in range(8)]
    edit(folder / "game.yaml", lambda d: d.update(counter_factors=keys))
    edit(folder / "counters.yaml", lambda d: [c["values"].update({k: 10 + i for i, k in enumerate(keys)})
                                              for c in d["counters"]])
    code, _, err = run(capsys, "vmod", folder, "-o", tmp_path / "x.vmod")
    assert code == 2
    assert "counters.yaml: counter 'blue-inf': its factors '10-11-12-13-14-15-16-17' do not fit its 56 px face " \
           "even at 7 px; print fewer values (game.yaml counter_factors: ['f0', 'f1', " in err


def test_a_misspelt_factor_key_is_refused_naming_it(folder, capsys, tmp_path):
    edit(folder / "game.yaml", lambda d: d.update(counter_factors=["attack", "defense", "movement"]))
    code, _, err = run(capsys, "vmod", folder, "-o", tmp_path / "x.vmod")
    assert code == 2
    assert "game.yaml: counter_factors[1]: 'defense' is not among any counter's values in counters.yaml " \
           "(attack, command, defence, movement); fix the spelling here or give the counters a `defense` value" \
           in err


def test_symbols_map_unit_types_to_named_symbols(folder, capsys, tmp_path):
    def panzer(d):
        d["unit_types"].append("panzer")
        d["symbols"] = {"panzer": "armour", "infantry": "airborne"}
    edit(folder / "game.yaml", panzer)
    edit(folder / "counters.yaml", lambda d: d["counters"][1].update(type="panzer"))
    game = load_game(folder)
    assert counter_layout(game, game.counters["blue-armour"]).symbol_kind == "armour"
    assert counter_layout(game, game.counters["blue-inf"]).symbol_kind == "airborne"
    assert counter_layout(game, game.counters["red-hq"]).symbol_kind == "hq"
    edit(folder / "game.yaml", lambda d: d.update(symbols={"panzer": "tank"}))
    code, _, err = run(capsys, "vmod", folder, "-o", tmp_path / "x.vmod")
    assert code == 2 and "symbols[panzer]: 'tank' is not a symbol; use one of infantry, armour, mechanized" in err
    edit(folder / "game.yaml", lambda d: d.update(symbols={"panzr": "armour"}))
    code, _, err = run(capsys, "vmod", folder, "-o", tmp_path / "x.vmod")
    assert code == 2 and "symbols names unit type 'panzr', which is not among `unit_types`" in err


def test_every_documented_symbol_draws_its_own_picture(folder):
    pictures = {}
    for symbol in SYMBOLS:
        edit(folder / "game.yaml", lambda d: d.update(symbols={"armour": symbol}))
        game = load_game(folder)
        layout = counter_layout(game, game.counters["blue-armour"])
        assert layout.symbol_kind == symbol
        check_texts(layout, 1, symbol)
        pictures[symbol] = draw_counter(game, game.counters["blue-armour"]).tobytes()
    assert len(set(pictures.values())) == len(SYMBOLS)


def test_counter_pictures_replace_the_drawn_art(folder):
    (folder / "art").mkdir()
    Image.new("RGB", (120, 120), (10, 200, 30)).save(folder / "art/inf.png")
    Image.new("RGB", (120, 120), (200, 10, 30)).save(folder / "art/inf-back.png")
    edit(folder / "counters.yaml",
         lambda d: d["counters"][0].update(image="art/inf.png", back_image="art/inf-back.png"))
    game = load_game(folder)
    images = counter_images(game)
    for name, colour in ((counter_image_name("blue-inf"), (10, 200, 30)),
                         (counter_image_name("blue-inf", back=True), (200, 10, 30))):
        img = Image.open(io.BytesIO(images[name]))
        assert img.size == (56, 56) and img.getpixel((28, 28)) == colour


@pytest.mark.parametrize("value, says", [
    ("../outside.png", "'../outside.png' leads out of the game folder"),
    ("art/none.png", "no counter image 'art/none.png' in the game folder")])
def test_counter_picture_paths_are_checked(folder, capsys, tmp_path, value, says):
    edit(folder / "counters.yaml", lambda d: d["counters"][2].update(image=value))
    code, _, err = run(capsys, "vmod", folder, "-o", tmp_path / "x.vmod")
    assert code == 2 and "counters.yaml: counters[2].image: " + says in err


def own_board(folder, scale: int) -> tuple[int, int]:
    """Give the new game's map.yaml a ``board`` section: a plain picture of its whole grid at ``scale`` pixels to
    the unit; the picture's size."""
    text = (folder / "map.yaml").read_text()
    width, height = (float(v) for v in re.search(r"whole grid is ([\d.]+) x ([\d]+(?:\.\d+)?)", text).groups())
    size = (round(width * scale), round(height * scale))
    Image.new("RGB", size, (90, 140, 200)).save(folder / "board.png")
    (folder / "map.yaml").write_text(text + f"board: {{image: board.png, size: [{size[0]}, {size[1]}], "
                                            f"scale: [{scale}, {scale}]}}\n")
    return size


def test_vmod_lays_the_grid_on_your_own_board_picture(folder, tmp_path, capsys):
    """A ``board`` section in a new game's map.yaml: the module's board is that picture, the grid at its scale."""
    size = own_board(folder, 4)
    out = tmp_path / "own.vmod"
    code, _, err = run(capsys, "vmod", folder, "-o", out)
    assert code == 0, err
    with zipfile.ZipFile(out) as z:
        board = Image.open(io.BytesIO(z.read("images/board.png")))
        assert board.size == size and board.getpixel((5, 5)) == (90, 140, 200)
        xml = z.read("buildFile.xml").decode()
    game = load_game(folder)
    grid = board_layout(game.map).hexgrid
    assert grid.dy == pytest.approx(4 * game.map.grid.layout.width)
    assert f'dy="{grid.dy}"' in xml and f'x0="{grid.x0}"' in xml


def test_counters_grow_with_the_hexes_of_your_own_board_picture(folder, tmp_path, capsys):
    """Issue 35: on a picture at scale 8 (hexes 8 x 17.32 = 138.56 px apart) counters are 100 px, the largest
    even square inside such a hex, not the drawn board's 56 px; palette, images and Eliminated box follow."""
    own_board(folder, 8)
    out = tmp_path / "own.vmod"
    code, _, err = run(capsys, "vmod", folder, "-o", out)
    assert code == 0, err
    with zipfile.ZipFile(out) as z:
        assert Image.open(io.BytesIO(z.read("images/c_blue-inf.png"))).size == (100, 100)
        assert Image.open(io.BytesIO(z.read("images/m_objective.png"))).size == (100, 100)
        xml = z.read("buildFile.xml").decode()
    assert re.search(r'<VASSAL.build.widget.PieceSlot entryName="Blue Infantry" gpid="\d+" height="100" '
                     r'width="100"', xml)
    assert game_counter_size(load_game(folder)) == 100
