"""Counter art for the VASSAL modules: size that fits a hex, text that fits the face, backs, hidden faces."""
from __future__ import annotations

import io
import itertools
import math

import pytest
from PIL import Image
from shapely.geometry import Polygon, box

from toolkit.game.module import load_game
from toolkit.mapdata import open_map
from toolkit.vassal.design.board import DEFAULT_PIXELS_PER_HEX, board_layout
from toolkit.vassal.design.counters import (COUNTER_SIZE, MIN_FONT_PX, abbreviations, counter_images, counter_layout,
                                            counter_size, draw_counter, face_texts, face_values, factors_text,
                                            hidden_image_name, marker_layout, name_tag, short_name)

GAMES = ["jerusalem-1948", "siege-of-jerusalem", "no-prisoners"]


@pytest.fixture(scope="module", params=GAMES)
def game(request):
    return load_game(request.param)


# ----------------------------------------------------------------- size

def flat_hex(h: float, cx: float = 0.0, cy: float = 0.0) -> Polygon:
    """A flat-top hexagon of flat-to-flat height ``h`` centred on (cx, cy)."""
    r = h / math.sqrt(3)
    return Polygon([(cx + r * math.cos(math.pi / 3 * i), cy + r * math.sin(math.pi / 3 * i)) for i in range(6)])


def square(s: float, cx: float, cy: float):
    return box(cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2)


@pytest.mark.parametrize("h", [40, 64, 80, 96, 120, 200])
def test_counter_fits_inside_its_hex_even_when_vassal_rounds_the_centre(h):
    s = counter_size(h)
    assert s % 2 == 0
    hexagon = flat_hex(h)
    offsets = list(itertools.product((-0.5, 0.0, 0.5), repeat=2))
    assert all(hexagon.covers(square(s, dx, dy)) for dx, dy in offsets)
    # and it is the largest even size that does
    assert not all(hexagon.covers(square(s + 2, dx, dy)) for dx, dy in offsets)
    assert s <= (math.sqrt(3) - 1) * h  # the exact bound for a centred square


def test_default_counter_size():
    assert COUNTER_SIZE == counter_size(DEFAULT_PIXELS_PER_HEX) == 56
    assert counter_size(80) < 75  # the old 75 px squares covered the neighbours' numbers


@pytest.mark.parametrize("map_id", ["example", "jerusalem-1948", "no-prisoners", "siege-of-jerusalem"])
def test_counter_at_a_vassal_hex_centre_stays_in_the_hex_on_the_board(map_id):
    cmap = open_map(map_id)
    board = board_layout(cmap)
    lay, s = cmap.grid.layout, COUNTER_SIZE
    for h in cmap.grid.hex_list[:: max(1, len(cmap.grid.hex_list) // 400)]:
        px, py = board.pixel(*lay.centre(h))
        cx, cy = round(px), round(py)  # VASSAL snaps to whole pixels; the image spans [c - s/2, c + s/2)
        hexagon = Polygon([board.pixel(*p) for p in lay.corners(h)])
        assert hexagon.covers(square(s, cx, cy)), cmap.name(h)


# ----------------------------------------------------------------- text fits

def faces(game):
    for c in game.manifest.counters:
        yield c, False, counter_layout(game, c, False)
        if c.back is not None:
            yield c, True, counter_layout(game, c, True)


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def check_texts(layout, inset: int, where: str) -> None:
    size = layout.size
    for t in layout.texts:
        assert t.size >= MIN_FONT_PX, f"{where}: {t.text!r} at {t.size} px"
        # measured again from the font, not trusted from the layout
        x0, y0, x1, y1 = t.font().getbbox(t.text, anchor="ms")
        ink = (t.pos[0] + x0, t.pos[1] + y0, t.pos[0] + x1, t.pos[1] + y1)
        assert inset <= ink[0] and ink[2] <= size - inset and inset <= ink[1] and ink[3] <= size - inset, \
            f"{where}: {t.role} {t.text!r} {ink} outside the {size} px face"
    for a, b in itertools.combinations(layout.texts, 2):
        assert not overlaps(a.bbox, b.bbox), f"{where}: {a.text!r} overlaps {b.text!r}"
    if layout.symbol is not None:
        for t in layout.texts:
            if t.role == "symbol":
                assert t.bbox[0] >= layout.symbol[0] - 1 and t.bbox[2] <= layout.symbol[2] + 1, where
            else:
                assert not overlaps(t.bbox, layout.symbol), f"{where}: {t.text!r} over the symbol"
        assert layout.symbol[3] - layout.symbol[1] >= 8, f"{where}: symbol squeezed"
    for band in layout.bands:
        for t in layout.texts:
            if t.role != "status":
                assert not overlaps(t.bbox, (band[0], band[1], band[2] + 1, band[3] + 1)), where


def test_every_counter_text_fits_its_face_and_is_readable(game):
    for c, back, layout in faces(game):
        where = f"{game.spec.id} {c.id}{' back' if back else ''}"
        check_texts(layout, 1, where)
        said = face_texts(game, c, back)
        # the name is the whole name or one of its sensible abbreviations, never cut mid-word at random
        assert layout.text("name") in abbreviations(said["name"]), where
        assert layout.text("factors") == said["factors"], where


def test_every_marker_text_fits(game):
    for m in game.manifest.markers:
        layout = marker_layout(m)
        check_texts(layout, 2, f"{game.spec.id} marker {m.id}")
        plain = name_tag(m.name) and m.name[: m.name.rindex("(")].strip()
        assert layout.text("marker") in abbreviations(m.name) + abbreviations(plain or m.name)


def test_long_names_are_abbreviated_or_wrapped_not_clipped():
    siege = load_game("siege-of-jerusalem")
    cat = next(c for c in siege.manifest.counters if c.id == "xv-catapult")
    assert counter_layout(siege, cat).text("name") == "XV Catapult"
    jer = load_game("jerusalem-1948")
    khader = next(c for c in jer.manifest.counters if c.id == "khader")
    assert counter_layout(jer, khader).text("name") in ("Abdul Khader Husseini", "A. Khader Husseini",
                                                       "A. K. Husseini")


def test_abbreviations():
    assert abbreviations("Abdul Khader Husseini")[:3] == ["Abdul Khader Husseini", "A. Khader Husseini",
                                                          "A. K. Husseini"]
    assert "10th Irish Inf Div" in abbreviations("10th (Irish) Infantry Div")
    assert abbreviations("Haganah") == ["Haganah", "Haga."]


# ----------------------------------------------------------------- backs

def test_back_faces_show_the_back_name_and_values(game):
    for c in game.manifest.counters:
        if c.back is None:
            continue
        layout = counter_layout(game, c, back=True)
        said = face_texts(game, c, back=True)
        expected_name = short_name(c.back_name) if c.back_name else short_name(c.name)
        assert said["name"] == expected_name
        assert layout.text("name") in abbreviations(expected_name)
        assert layout.text("factors") == said["factors"]
        assert said["factors"].startswith(factors_text(face_values(c, True), game.spec.counter_factors))
        if said["name"] == short_name(c.name):  # same name: the state tells the back
            assert layout.text("status") and layout.bands, c.id
        assert _png(draw_counter(game, c, True)) != _png(draw_counter(game, c, False)), c.id


def test_murray_back_is_allenby():
    np = load_game("no-prisoners")
    murray = next(c for c in np.manifest.counters if c.id == "a-hq-murray")
    front, back = counter_layout(np, murray), counter_layout(np, murray, back=True)
    assert front.text("name") == "Murray HQ" and front.text("factors") == "1-6 r2"
    assert back.text("name") == "Allenby HQ" and back.text("factors") == "2-6 r3"
    assert "Murray" not in " ".join(t.text for t in back.texts)


def test_disrupted_back_says_so():
    siege = load_game("siege-of-jerusalem")
    c = next(c for c in siege.manifest.counters if c.id == "v-1-7-8")
    back = counter_layout(siege, c, back=True)
    assert back.text("status") == "Disrupted" and back.text("factors") == "(7)-4"
    jer = load_game("jerusalem-1948")
    hgh = next(c for c in jer.manifest.counters if c.id == "hgh-4-6")
    assert counter_layout(jer, hgh, back=True).text("status") in abbreviations("demobilized")


# ----------------------------------------------------------------- hidden faces, images

def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def test_hidden_face_per_side_shows_only_the_side_colour_and_a_mark(game):
    images = counter_images(game)
    for side in game.spec.sides:
        name = hidden_image_name(side.id)
        assert (name in images) == (side.id in game.spec.hideable)  # only sides that may hide counters (12.1)
        if name not in images:
            continue
        img = Image.open(io.BytesIO(images[name])).convert("RGB")
        assert img.size == (COUNTER_SIZE, COUNTER_SIZE)
        colours = {c for _, c in img.getcolors(COUNTER_SIZE ** 2)}
        rgb = lambda h: tuple(int(h.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4))  # noqa: E731
        assert colours <= {rgb(side.color), rgb(side.text), (0, 0, 0)}
        # the most common colour is the side's: the face says which side, nothing more
        assert max(img.getcolors(COUNTER_SIZE ** 2))[1] == rgb(side.color)


def test_images_are_deterministic_and_sized():
    g = load_game("jerusalem-1948")
    a, b = counter_images(g), counter_images(g)
    assert a == b
    assert all(Image.open(io.BytesIO(v)).size == (COUNTER_SIZE, COUNTER_SIZE) for v in a.values())


@pytest.mark.parametrize("map_id", ["example", "siege-of-jerusalem"])
def test_counters_on_every_hex_leave_every_hex_name_visible(map_id):
    """The name of a hex (with its halo) is clear of a counter on it and of counters on its neighbours."""
    from toolkit.render.png import text_font
    from toolkit.render.scene import build_scene
    cmap = open_map(map_id)
    board = board_layout(cmap)
    lay, s = cmap.grid.layout, COUNTER_SIZE
    centres = {h: tuple(round(v) for v in board.pixel(*lay.centre(h))) for h in cmap.grid.hex_list}
    names = [i for i in build_scene(cmap, show_title=False).items if i.tag == "hexname"]
    assert len(names) == len(cmap.grid.hex_list)
    for item in names[:: max(1, len(names) // 300)]:
        px, py = board.pixel(*item.pos)
        halo = item.halo_width * board.scale / 2
        x0, y0, x1, y1 = text_font(round(item.size * board.scale), item.bold).getbbox(item.text, anchor="mm")
        ink = box(px + x0 - halo, py + y0 - halo, px + x1 + halo, py + y1 + halo)
        h = lay.hex_at(*item.pos)
        for n in [h, *h.neighbors()]:
            if n in centres:
                assert not ink.intersects(square(s, *centres[n]).buffer(-0.01)), (item.text, cmap.name(n))


@pytest.mark.parametrize("frame", [(0, 0, 18, 12), (0, 0, 21, 14), (0, 0, 28, 19)])
def test_airborne_symbol_differs_from_infantry_at_counter_sizes(frame):
    """Issue 35: the airborne canopy shows at the symbol sizes of a 56 px counter: in the gap under the X's
    crossing, which the infantry symbol leaves empty."""
    from PIL import ImageDraw
    from toolkit.vassal.design.counters import _draw_symbol

    def lit(kind: str) -> int:
        im = Image.new("L", (frame[2] + 1, frame[3] + 1), 0)
        _draw_symbol(ImageDraw.Draw(im), kind, kind, frame, 255)
        w, h = frame[2], frame[3]
        gap = im.crop((round(w * 0.4), round(h * 0.75), round(w * 0.6) + 1, h - 2))   # under the crossing
        return sum(n for n, v in gap.getcolors() if v == 255)

    assert lit("infantry") == 0
    assert lit("airborne") >= 3
