"""The VASSAL grid laid on the board image names every hex as the map does."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.mapdata import compile_source, open_map
from toolkit.vassal.design.board import board_image, board_layout, vassal_location


def small_map(scheme: dict, columns, rows):
    return compile_source({
        "id": "t", "title": "t",
        "grid": {"orientation": "flat", "size": 7.5, "naming": scheme, "columns": list(columns), "rows": list(rows)},
        "terrain": {"clear": {"color": "#eeeeee"}},
    })


def names_agree(cmap, pixels_per_hex):
    board = board_layout(cmap, pixels_per_hex)
    lay = cmap.grid.layout
    wrong = []
    for h in cmap.grid.hex_list:
        px, py = board.pixel(*lay.centre(h))
        assert 0 <= px < board.width and 0 <= py < board.height
        if vassal_location(board, round(px), round(py)) != cmap.name(h):
            wrong.append(cmap.name(h))
    return wrong


@settings(max_examples=25, deadline=None)
@given(shifted=st.sampled_from(["odd", "even"]), c0=st.integers(0, 3), r0=st.integers(0, 3),
       ncol=st.integers(1, 9), nrow=st.integers(1, 9), ppx=st.sampled_from([40, 64, 80, 96]))
def test_hexgrid_numbering_names_every_ccrr_hex(shifted, c0, r0, ncol, nrow, ppx):
    cmap = small_map({"scheme": "ccrr", "shifted": shifted}, (c0, c0 + ncol - 1), (r0, r0 + nrow - 1))
    assert names_agree(cmap, ppx) == []


def test_origin_is_an_unshifted_column_and_whole_pixels():
    board = board_layout(open_map("example"), 80)
    g = board.hexgrid
    # Odd columns are shifted on the example map, so the origin is column 2, row 1.
    assert (g.h_off, g.v_off, g.leading, g.dy) == (2, 1, 1, 80.0)
    assert g.dx == pytest.approx(80 * 3 ** 0.5 / 2)
    assert isinstance(g.x0, int) and isinstance(g.y0, int)


def test_region_grid_names_every_diagonal_hex():
    cmap = small_map({"scheme": "diagonal"}, (30, 44), (40, 52))
    board = board_layout(cmap, 64)
    assert board.hexgrid is None and len(board.regions) == len(cmap.grid.hex_list)
    assert names_agree(cmap, 64) == []
    # Points inside a hex but off its centre snap to that hex too.
    lay = cmap.grid.layout
    h = cmap.grid.parse("KK28")
    cx, cy = lay.centre(h)
    for dx, dy in ((2.0, 1.0), (-2.5, 0.5), (0.0, -3.0)):
        px, py = board.pixel(cx + dx, cy + dy)
        assert vassal_location(board, round(px), round(py)) == "KK28"


def test_board_image_size_matches_layout():
    cmap = open_map("example")
    board = board_layout(cmap, 64)
    assert board_image(cmap, board).size == (board.width, board.height)


@pytest.mark.parametrize("ppx", [63, 4])
def test_pixels_per_hex_must_be_even(ppx):
    with pytest.raises(ValueError, match="even"):
        board_layout(open_map("example"), ppx)
