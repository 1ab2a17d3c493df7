"""Pictures (issue 30): a counter face or board image is sized from its header before a pixel is decoded, held to
a pixel budget, and drawn from a reduced image; a board image is the game folder's own file, never one a link
leads to outside it."""
from __future__ import annotations

import base64
import io
import shutil
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

import vassal_modules as vm
from test_hostile_support import ROOT, assert_refused, run
from toolkit.game.module import GameDataError, load_game
from toolkit.picture import MAX_FACE_PIXELS, PictureError, open_picture, picture_at, reduced
from toolkit.render import onboard
from toolkit.vassal.published.importer import import_module
from toolkit.web.pictures import map_svg, with_board_image

STEPPE = ROOT / "examples" / "steppe"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_header(width: int, height: int, rows: bool = False) -> bytes:
    """An RGB PNG declaring ``width`` x ``height``: every row present (zeros, compressed ~1000:1) or none."""
    pack = zlib.compressobj(9)
    data = b"".join(pack.compress(b"\0" * (3 * width + 1)) for _ in range(height if rows else 0)) + pack.flush()
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + _chunk(b"IDAT", data) + _chunk(b"IEND", b""))


def jpeg(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, "JPEG")
    return out.getvalue()


@pytest.fixture
def steppe(tmp_path) -> Path:
    shutil.copytree(STEPPE, tmp_path / "g")
    (tmp_path / "g" / "images").mkdir()
    return tmp_path / "g"


def with_face(folder: Path, data: bytes) -> None:
    """The German infantry's face is ``images/x.png`` holding ``data``."""
    (folder / "images" / "x.png").write_bytes(data)
    path = folder / "counters.yaml"
    path.write_text(path.read_text().replace("type: infantry, count: 6,", "type: infantry, count: 6, image: images/x.png,", 1))


# -- the header first --------------------------------------------------------------------------------------------

def test_a_65_byte_png_declaring_10_gigapixels_is_refused_from_its_header(tmp_path):
    path = tmp_path / "x.png"
    path.write_bytes(png_header(100_000, 100_000))
    with pytest.raises(PictureError, match="its header declares more than .* pixels"):
        open_picture(path, "a counter picture", MAX_FACE_PIXELS)


def test_a_picture_over_the_budget_is_refused_before_decoding(tmp_path):
    path = tmp_path / "x.png"
    path.write_bytes(png_header(5000, 4000))   # no rows at all: decoding it would fail
    with pytest.raises(PictureError, match="a counter picture: 5000 x 4000 pixels, over the limit of 16,000,000"):
        open_picture(path, "a counter picture", MAX_FACE_PIXELS)


@pytest.mark.parametrize("data, words", [(b"not a picture", "not a picture the toolkit reads"),
                                         (png_header(40, 30), "cannot be decoded")])
def test_what_is_not_a_picture_is_refused_naming_the_file(tmp_path, data, words):
    path = tmp_path / "x.png"
    path.write_bytes(data)
    with pytest.raises(PictureError) as err:
        picture_at(path, "a counter picture", (60, 60))
    assert str(err.value).startswith(f"{path}: ") and words in str(err.value)


def test_a_jpeg_is_decoded_reduced_for_a_small_drawing(tmp_path):
    # 4000 x 4000 is over a 2 Mpx budget at full size, within it once JPEG's draft mode decodes it at 1/8.
    path = tmp_path / "x.jpg"
    path.write_bytes(jpeg(4000, 4000))
    with pytest.raises(PictureError, match="4000 x 4000 pixels"):
        open_picture(path, "a face", 2_000_000)
    assert open_picture(path, "a face", 2_000_000, draft=(60, 60)).size == (500, 500)
    face = picture_at(path, "a face", (60, 60), max_pixels=2_000_000)
    assert face.size == (60, 60) and face.getpixel((30, 30))[0] > 150


def test_a_board_over_the_drawing_budget_is_reduced_by_a_whole_factor(tmp_path):
    path = tmp_path / "b.png"
    Image.new("RGB", (400, 300), (10, 20, 30)).save(path)
    assert reduced(open_picture(path, "the board", 10**6), 40_000, "RGB", str(path)).size == (200, 150)  # 120,000 px
    assert reduced(open_picture(path, "the board", 10**6), 120_000, "RGB", str(path)).size == (400, 300)


# -- counter faces in a module build -----------------------------------------------------------------------------

def test_vmod_refuses_a_counter_face_bomb_in_one_line(steppe):
    with_face(steppe, png_header(100_000, 100_000))
    line = assert_refused(run(["vmod", str(steppe), "-o", str(steppe.parent / "g.vmod")]), "images/x.png",
                          "the counter picture of ger-inf")
    assert "DecompressionBomb" not in line and not (steppe.parent / "g.vmod").exists()


def test_vmod_refuses_a_144_mpx_counter_face_without_decoding_it(steppe):
    with_face(steppe, png_header(12_000, 12_000, rows=True))
    r = run(["vmod", str(steppe), "-o", str(steppe.parent / "g.vmod")], timeout=60)
    assert_refused(r, "12000 x 12000 pixels, over the limit of 16,000,000")
    assert "Warning" not in r.err


def test_vmod_draws_a_face_within_the_budget(steppe):
    with_face(steppe, jpeg(1200, 1200))
    r = run(["vmod", str(steppe), "-o", str(steppe.parent / "g.vmod")], timeout=120)
    assert r.status == 0 and "Warning" not in r.err, r.err


def test_a_face_linked_out_of_the_folder_is_refused(steppe, tmp_path):
    (tmp_path / "outside.png").write_bytes(jpeg(60, 60))
    with_face(steppe, b"")
    (steppe / "images" / "x.png").unlink()
    (steppe / "images" / "x.png").symlink_to(tmp_path / "outside.png")
    with pytest.raises(GameDataError, match="leads out of the game folder"):
        load_game(str(steppe))


# -- an imported board --------------------------------------------------------------------------------------------

@pytest.fixture
def imported(tmp_path) -> Path:
    """A game imported from a module with one hex board (``images/sector.png``, 380 x 300)."""
    vmod = vm.write_vmod(tmp_path / "m.vmod", vm.lettered())
    import_module(vmod, tmp_path / "game")
    return tmp_path / "game"


def board_file(folder: Path) -> Path:
    cmap = load_game(str(folder)).map
    return folder / cmap.board.image


def test_render_draws_a_board_over_the_budget_reduced(imported, monkeypatch):
    cmap = load_game(str(imported)).map
    monkeypatch.setattr(onboard, "ON_BOARD_MAX_PIXELS", 30_000)   # 380 x 300 = 114,000 px: a factor of 2
    image = onboard.render_on_board(cmap, board_file(imported))
    assert image.size == (190, 150)
    assert len(image.getcolors(1 << 24)) > 2   # the grid and its names are drawn over it


def test_render_checks_a_board_from_its_header(imported):
    # 169 Mpx (13,000 x 13,000, as a 6.5 KB module may declare it): refused before decoding; a header of another
    # size than the map's board: refused naming both
    cmap = load_game(str(imported)).map
    board_file(imported).write_bytes(png_header(13_000, 13_000))
    with pytest.raises(PictureError, match="the board image: 13000 x 13000 pixels, over the limit of 64,000,000"):
        onboard.render_on_board(cmap, board_file(imported))
    board_file(imported).write_bytes(png_header(500, 400))
    with pytest.raises(ValueError, match="the image is 500 x 400 pixels, the map's board.size says 380 x 300"):
        onboard.render_on_board(cmap, board_file(imported))


def test_a_board_image_linked_out_of_the_folder_is_never_read(imported, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET OUTSIDE THE GAME FOLDER")
    image = board_file(imported)
    image.unlink()
    image.symlink_to(secret)
    game = load_game(str(imported))
    with pytest.raises(GameDataError, match="leads out of the game folder"):
        onboard.board_image_path(game.map, imported / "map.yaml")
    svg = with_board_image(map_svg(game.map), game.map, imported)
    assert base64.b64encode(secret.read_bytes())[:20] not in svg and b"class=\"board\"" not in svg
    assert_refused(run(["render", str(imported / "map.yaml"), "-o", str(tmp_path / "out.png")]),
                   "board.image", "leads out of the game folder")
