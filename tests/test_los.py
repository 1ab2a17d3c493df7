"""Line of sight: exact contacts, the three conventions, elevation, hexside obstacles, one-to-all."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from los_reference import reference_contacts
from toolkit.hexgrid import CCRR, Grid, Hex, Layout, hexside
from toolkit.los import Convention, LosEngine, Obstacles, classify_offsets

# A small hand-drawn map: flat-top, odd columns half a hex lower, 10 map units per hex.
GRID = Grid(Layout("flat", 10.0), CCRR(), columns=(1, 9), rows=(1, 7))
ENGINE = LosEngine(GRID)
H = GRID.parse


def los(a, b, convention, blockers=(), **kw):
    return ENGINE.check(H(a), H(b), convention, Obstacles(hexes=frozenset(map(H, blockers)), **kw))


def names(hexes):
    return [GRID.name(h) for h in hexes]


# --- contacts -----------------------------------------------------------------------------------
def test_row_line_runs_along_two_hexsides_and_through_one_centre():
    # 0203 -> 0603 is horizontal: it runs along the 0302|0303 and 0502|0503 hexsides
    # (odd columns sit half a hex lower) and through the centre of 0403.
    got = [(GRID.name(c.hex), c.how, c.t) for c in ENGINE.contacts(H("0203"), H("0603"))]
    assert got == [("0302", "hexside", Fraction(1, 6)), ("0303", "hexside", Fraction(1, 6)),
                   ("0403", "interior", Fraction(1, 3)), ("0502", "hexside", Fraction(2, 3)),
                   ("0503", "hexside", Fraction(2, 3))]


def test_line_through_corners():
    # 0203 -> 0606 is the lattice segment (6,6) -> (18,9): it passes exactly through the
    # lattice points (10,7) and (14,8), corners of 0304 and 0504, without entering them.
    got = [(GRID.name(c.hex), c.how) for c in ENGINE.contacts(H("0203"), H("0606"))]
    assert got == [("0303", "interior"), ("0304", "corner"), ("0404", "interior"), ("0405", "interior"),
                   ("0504", "corner"), ("0505", "interior")]


def test_adjacent_hexes_meet_nothing_between():
    assert ENGINE.contacts(H("0303"), H("0304")) == []
    assert los("0303", "0304", "touch", ["0303", "0304"]).visible  # own hexes never block


# --- the conventions on hand-checked positions --------------------------------------------------
@pytest.mark.parametrize("blockers, touch, cross, both", [
    (["0403"], False, False, False),            # through a centre: blocked everywhere
    (["0302"], False, True, True),              # one side of a hexside: only touch blocks
    (["0302", "0303"], False, False, False),    # both sides of the same hexside
    (["0302", "0503"], False, True, False),     # different sides at different places
    (["0302", "0502"], False, True, True),      # same side twice
    ([], True, True, True),
])
def test_conventions_on_a_hexside_spine(blockers, touch, cross, both):
    got = [los("0203", "0603", c, blockers).visible for c in ("touch", "cross", "both-sides")]
    assert got == [touch, cross, both]


@pytest.mark.parametrize("convention, visible", [("touch", False), ("cross", True), ("both-sides", True)])
def test_corner_graze(convention, visible):
    assert los("0203", "0606", convention, ["0304"]).visible is visible


def test_block_point_and_order():
    res = los("0203", "0603", "cross", ["0302", "0303", "0403"])
    assert names(res.blocked_by) == ["0302", "0303", "0403"]
    assert res.block_t == Fraction(1, 6)  # where the shared hexside starts
    (x0, y0), (x1, _) = GRID.layout.centre(H("0203")), GRID.layout.centre(H("0603"))
    assert res.block_point == pytest.approx((x0 + (x1 - x0) / 6, y0))
    assert res.range == 4 and res.convention is Convention.CROSS
    both = los("0203", "0603", "both-sides", ["0302", "0503"])
    assert both.block_t == Fraction(2, 3) and names(both.blocked_by) == ["0302", "0503"]
    assert los("0203", "0603", "touch", []).block_point is None


def test_elevation_rules():
    levels = {H("0203"): 1, H("0603"): 3, H("0403"): 2}
    assert los("0203", "0603", "touch", levels=levels, elevation="higher-than-both").visible
    res = los("0203", "0603", "touch", levels=levels, elevation="higher-than-either")
    assert not res.visible and names(res.blocked_by) == ["0403"]
    with pytest.raises(ValueError, match="elevation rule"):
        Obstacles(elevation="higher")


def test_hexside_obstacles():
    # 0204 -> 0403 runs centre to centre through 0303, crossing 0204|0303 and 0303|0403 at their midpoints.
    wall = frozenset({hexside(H("0303"), H("0403"))})
    for conv in ("touch", "cross", "both-sides"):
        res = ENGINE.check(H("0204"), H("0403"), conv, Obstacles(hexsides=wall))
        assert not res.visible and res.blocking_hexsides == tuple(wall) and res.block_t == Fraction(3, 4)
    # Running along a wall (the 0502|0503 hexside of the row line) blocks only under touch.
    along = frozenset({hexside(H("0502"), H("0503"))})
    assert not ENGINE.check(H("0203"), H("0603"), "touch", Obstacles(hexsides=along)).visible
    assert ENGINE.check(H("0203"), H("0603"), "cross", Obstacles(hexsides=along)).visible


# --- properties on random maps ------------------------------------------------------------------
SMALL = Grid(Layout("flat", 10.0), CCRR(), columns=(1, 12), rows=(1, 10))
SMALL_ENGINE = LosEngine(SMALL)
small_hexes = st.sampled_from(SMALL.hex_list)
obstacle_sets = st.builds(
    lambda hx, lv, rule, sides: Obstacles(
        hexes=frozenset(hx), levels={h: v for h, v in zip(SMALL.hex_list, lv)}, elevation=rule,
        hexsides=frozenset(hexside(h, h.neighbor(d)) for h, d in sides)),
    st.sets(small_hexes, max_size=30),
    st.lists(st.integers(0, 3), min_size=len(SMALL), max_size=len(SMALL)),
    st.sampled_from(["none", "higher-than-both", "higher-than-either"]),
    st.lists(st.tuples(small_hexes, st.integers(0, 5)), max_size=4),
)


@settings(max_examples=40, deadline=None)
@given(viewer=small_hexes, obstacles=obstacle_sets, convention=st.sampled_from(list(Convention)))
def test_one_to_all_equals_pair_by_pair(viewer, obstacles, convention):
    everything = SMALL_ENGINE.visible_from(viewer, convention, obstacles)
    assert set(everything) == set(SMALL.hex_list)
    for target in SMALL.hex_list:
        assert everything[target] == SMALL_ENGINE.check(viewer, target, convention, obstacles).visible


@settings(max_examples=60, deadline=None)
@given(a=small_hexes, b=small_hexes, obstacles=obstacle_sets, convention=st.sampled_from(list(Convention)))
def test_symmetric(a, b, obstacles, convention):
    ab = SMALL_ENGINE.check(a, b, convention, obstacles)
    ba = SMALL_ENGINE.check(b, a, convention, obstacles)
    assert ab.visible == ba.visible
    assert {c.hex: c.how for c in ab.touched} == {c.hex: c.how for c in ba.touched}


def test_max_range_and_targets():
    v = SMALL.parse("0605")
    near = SMALL_ENGINE.visible_from(v, max_range=2)
    assert set(near) == {h for h in SMALL.hex_list if h.distance(v) <= 2}
    some = SMALL_ENGINE.visible_from(v, targets=[SMALL.parse("0101")])
    assert list(some) == [SMALL.parse("0101")]


# --- the exhaustive check against an exact rational reference -----------------------------------
def test_every_line_from_the_middle_of_a_70x70_map_matches_the_rational_reference():
    grid = Grid(Layout("flat", 10.0), CCRR(), columns=(1, 70), rows=(1, 70))
    centre = grid.parse("3535")
    offsets = [(h.q - centre.q, h.r - centre.r) for h in grid.hex_list if h != centre]
    table = classify_offsets(offsets)
    near = [(q, r) for q in range(-40, 41) for r in range(-75, 76)]
    for i, off in enumerate(offsets):
        sl = table.segment(i)
        mine = dict(zip(zip(table.dq[sl].tolist(), table.dr[sl].tolist()), table.kind[sl].tolist()))
        assert mine == reference_contacts(off, near), off
        # Hexside contacts come in pairs of neighbours on opposite sides.
        for q, r, side, pq, pr in zip(*(a[sl].tolist() for a in (table.dq, table.dr, table.side, table.pdq,
                                                                   table.pdr))):
            if side:
                assert Hex(q, r).distance(Hex(pq, pr)) == 1 and mine.get((pq, pr)) == mine[(q, r)]
    kinds = np.bincount(table.kind, minlength=4)
    assert kinds[2] > 0 and kinds[3] > 0  # the map does exercise hexside runs and corner grazes
