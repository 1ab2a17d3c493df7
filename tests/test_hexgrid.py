"""Hex coordinates, layouts and naming schemes, including the Siege rulebook's geometry (2.14)."""
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolkit.hexgrid import (CCRR, DIRECTIONS, Diagonal, Grid, Hex, HexNameError, Layout, column_index,
                             column_letters, hexside, lattice_centre, lattice_corners)
from toolkit.los import LosEngine

hexes = st.builds(Hex, st.integers(-60, 60), st.integers(-60, 60))


def test_neighbors_are_at_distance_one_and_in_edge_order():
    h = Hex(3, -2)
    assert [n - h for n in h.neighbors()] == list(DIRECTIONS)
    assert all(h.distance(n) == 1 for n in h.neighbors())
    assert [h.direction_to(n) for n in h.neighbors()] == [0, 1, 2, 3, 4, 5]
    assert h.direction_to(Hex(5, -2)) is None


@given(hexes, hexes)
def test_distance_is_a_metric(a, b):
    assert a.distance(b) == b.distance(a) >= 0
    assert (a.distance(b) == 0) == (a == b)


@pytest.mark.parametrize("radius", [0, 1, 2, 5])
def test_rings_and_spirals(radius):
    c = Hex(1, 1)
    ring = c.ring(radius)
    assert len(ring) == (6 * radius or 1) == len(set(ring))
    assert all(c.distance(h) == radius for h in ring)
    assert len(list(c.spiral(radius))) == 3 * radius * (radius + 1) + 1


def test_hexside_is_canonical_and_only_between_neighbours():
    a, b = Hex(0, 0), Hex(1, -1)
    assert hexside(a, b) == hexside(b, a)
    assert hexside(a, b).other(a) == b
    with pytest.raises(ValueError, match="not adjacent"):
        hexside(a, Hex(2, 0))


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_layout_geometry(orientation):
    lay = Layout(orientation, 12.0, (5.0, 7.0))
    c = lay.centre(Hex(0, 0))
    assert c == (5.0, 7.0)
    for corner in lay.corners(Hex(0, 0)):
        assert math.dist(corner, c) == pytest.approx(12.0)
    for n in Hex(0, 0).neighbors():
        assert math.dist(lay.centre(n), c) == pytest.approx(12.0 * math.sqrt(3))
    # Edge i of hex (0, 0) is the shared edge with neighbour i: its midpoint is halfway between the centres.
    corners = lay.corners(Hex(0, 0))
    for i, n in enumerate(Hex(0, 0).neighbors()):
        mid = [(p + q) / 2 for p, q in zip(corners[i], corners[(i + 1) % 6])]
        half = [(p + q) / 2 for p, q in zip(c, lay.centre(n))]
        assert mid == pytest.approx(half)


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@given(h=hexes)
def test_point_to_hex_inverts_centre(orientation, h):
    lay = Layout(orientation, 9.0, (1.0, 2.0))
    assert lay.hex_at(*lay.centre(h)) == h


def test_lattice_is_an_affine_image_of_the_layout():
    lay = Layout("flat", 10.0)
    h = Hex(2, -3)
    assert lattice_centre(h) == (6, -9)
    for (lx, ly), real in zip(lattice_corners(h), lay.corners(h)):
        assert lay.lattice_to_point(lx, ly) == pytest.approx(real)


def test_flat_top_ccrr_neighbours_follow_the_shifted_columns():
    odd = CCRR("flat", "odd")
    names = lambda s, n: sorted(s.name(x) for x in s.parse(n).neighbors())  # noqa: E731
    # Odd columns sit half a hex lower: 0505 touches rows 5 and 6 of columns 4 and 6.
    assert names(odd, "0505") == ["0405", "0406", "0504", "0506", "0605", "0606"]
    assert names(odd, "0605") == ["0504", "0505", "0604", "0606", "0704", "0705"]
    even = CCRR("flat", "even")
    assert names(even, "0505") == ["0404", "0405", "0504", "0506", "0604", "0605"]


def test_pointy_top_ccrr_neighbours_follow_the_shifted_rows():
    odd = CCRR("pointy", "odd")
    assert sorted(odd.name(x) for x in odd.parse("0505").neighbors()) == [
        "0405", "0504", "0506", "0604", "0605", "0606"]


@pytest.mark.parametrize("scheme", [CCRR("flat", "odd"), CCRR("flat", "even"), CCRR("pointy", "odd"),
                                    CCRR("pointy", "even", digits=3)])
def test_ccrr_round_trip(scheme):
    for col in range(0, 40, 3):
        for row in range(0, 40, 7):
            h = scheme.from_offset(col, row)
            assert scheme.to_offset(h) == (col, row)
            assert scheme.parse(scheme.name(h)) == h


@pytest.mark.parametrize("bad", ["507", "05071", "AB07", ""])
def test_ccrr_rejects_malformed_names(bad):
    with pytest.raises(HexNameError, match="expected 4 digits"):
        CCRR().parse(bad)


def test_column_letters_double_after_z():
    assert [column_letters(i) for i in (0, 25, 26, 27, 51)] == ["A", "Z", "AA", "BB", "ZZ"]
    assert all(column_index(column_letters(i)) == i for i in range(52))
    with pytest.raises(HexNameError):
        column_index("AB")  # spreadsheet style is not the rulebook's


# --- Siege of Jerusalem, rule 2.14 and the examples that depend on it ---------------------------
siege = Diagonal()
S = siege.parse
siege_grid = Grid(Layout("flat", 10.0), siege, columns=(0, 51), rows=(0, 90))


def test_siege_names_round_trip():
    for name in ["W36", "P51", "QQ36", "P55", "LL27", "A0", "ZZ90"]:
        assert siege.name(S(name)) == name
    with pytest.raises(HexNameError):
        S("36W")


def test_siege_gate_of_susa_neighbours_8_91():
    assert S("QQ35").distance(S("QQ36")) == S("QQ36").distance(S("QQ37")) == 1
    assert S("QQ35").distance(S("QQ37")) == 2
    d1, d2 = S("QQ36").direction_to(S("RR35")), S("QQ36").direction_to(S("PP37"))
    assert d1 is not None and d2 is not None and (d1 - d2) % 6 == 3  # opposite hexsides


def test_siege_chain_19_22():
    chain = [S(n) for n in ["FF18", "EE19", "DD19", "CC20", "BB21"]]
    assert all(a.distance(b) == 1 for a, b in zip(chain, chain[1:]))


def _runs_along(a, b, x, y):
    """The segment a-b runs along the x|y hexside (and meets nothing else's inside)."""
    eng = LosEngine(siege_grid)
    contacts = {siege.name(c.hex): (c.how, c.partner and siege.name(c.partner)) for c in eng.contacts(S(a), S(b))}
    return contacts == {x: ("hexside", y), y: ("hexside", x)}


def test_siege_line_of_fire_examples_9_5():
    assert S("LL27").distance(S("KK29")) == 2
    assert _runs_along("LL27", "KK29", "KK28", "LL28")
    assert _runs_along("LL30", "KK29", "KK30", "LL29")
    assert _runs_along("DD19", "BB20", "CC19", "CC20")


def test_siege_hexside_geometry_in_map_units():
    lay = siege_grid.layout
    a, b = lay.centre(S("LL27")), lay.centre(S("KK29"))
    side = hexside(S("KK28"), S("LL28"))
    d = side.a.direction_to(side.b)
    e0, e1 = lay.corners(side.a)[d], lay.corners(side.a)[(d + 1) % 6]
    # The shared edge lies on the segment and is exactly its middle third.
    thirds = [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) for t in (1 / 3, 2 / 3)]
    assert all(math.dist(p, q) < 1e-9 for p, q in zip(sorted(thirds), sorted([e0, e1])))


def test_grid_extent_and_parse():
    g = Grid(Layout("flat", 10.0), CCRR(), columns=(1, 4), rows=(1, 3))
    assert len(g) == 12 and g.parse("0403") in g
    with pytest.raises(HexNameError, match="outside the map"):
        g.parse("0504")
    assert sorted(g.name(n) for n in g.neighbors(g.parse("0101"))) == ["0102", "0201", "0202"]
