"""Issue 12: off-map hexes are refused and never disturb the engine; wall chains have no gap at their joints."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.hexgrid import CCRR, Grid, Hex, Layout, hexside
from toolkit.los import Convention, LosEngine, Obstacles, visibility_matrix

SMALL = Grid(Layout("flat", 10.0), CCRR(), columns=(1, 8), rows=(1, 6))
H = SMALL.parse


# --- off-map hexes ------------------------------------------------------------------------------
def line_blockers():
    eng = LosEngine(SMALL)
    a, b = H("0101"), H("0805")
    return Obstacles(hexes=frozenset(c.hex for c in eng.contacts(a, b)))


def test_off_map_end_is_refused_and_changes_nothing():
    obstacles = line_blockers()
    eng = LosEngine(SMALL)
    a, b = H("0101"), H("0805")
    assert not eng.check(a, b, "touch", obstacles).visible
    with pytest.raises(ValueError, match="not on the map"):
        eng.check(H("0803"), Hex(0, -1), "touch", obstacles)
    assert not eng.check(a, b, "touch", obstacles).visible
    assert not eng.visible_from(a, "touch", obstacles)[b]


@pytest.mark.parametrize("call", [
    lambda e: e.visible_from(Hex(0, 0), targets=[Hex(-5, 40)]),
    lambda e: e.visible_from(Hex(50, 50)),
    lambda e: e.visible_array(Hex(50, 50)),
    lambda e: e.visible_array(10_000),
    lambda e: e.contacts(Hex(1, 0), Hex(90, -3)),
    lambda e: e.check(Hex(-9, -9), Hex(1, 0)),
])
def test_off_map_hexes_raise_value_error(call):
    eng = LosEngine(SMALL)
    with pytest.raises(ValueError, match="not on the map"):
        call(eng)


calls = st.lists(st.tuples(st.sampled_from(["check", "from", "targets"]),
                           st.tuples(st.integers(-12, 14), st.integers(-12, 14)),
                           st.tuples(st.integers(-12, 14), st.integers(-12, 14))), max_size=8)


@settings(max_examples=40, deadline=None)
@given(calls=calls, convention=st.sampled_from(list(Convention)))
def test_no_sequence_of_calls_changes_a_later_answer(calls, convention):
    obstacles = line_blockers()
    fresh = LosEngine(SMALL)
    want = {v: fresh.visible_array(v, convention, obstacles) for v in (H("0101"), H("0805"), H("0403"))}
    used = LosEngine(SMALL)
    for kind, p, q in calls:
        try:
            if kind == "check":
                used.check(Hex(*p), Hex(*q), convention, obstacles)
            elif kind == "from":
                used.visible_from(Hex(*p), convention, obstacles)
            else:
                used.visible_from(H("0303"), convention, obstacles, targets=[Hex(*q)])
        except ValueError:
            pass
    for v, arr in want.items():
        assert np.array_equal(used.visible_array(v, convention, obstacles), arr)
        assert used.check(H("0101"), H("0805"), convention, obstacles).visible is False


# --- wall chains --------------------------------------------------------------------------------
def walls(*pairs):
    return Obstacles(hexsides=frozenset(hexside(H(a), H(b)) for a, b in pairs))


@pytest.mark.parametrize("convention", list(Convention))
def test_line_through_the_joint_of_a_chain_is_blocked(convention):
    # Walls on H|B and A|B with H=0205, A=0104, B=0204: the line 0206 -> 0101 passes exactly through
    # their shared corner, from one side of the chain to the other.
    eng = LosEngine(SMALL)
    obstacles = walls(("0205", "0204"), ("0104", "0204"))
    res = eng.check(H("0206"), H("0101"), convention, obstacles)
    assert not res.visible
    assert set(res.blocking_hexsides) == set(obstacles.hexsides)
    assert eng.visible_from(H("0206"), convention, obstacles)[H("0101")] is False
    assert eng.visible_from(H("0101"), convention, obstacles)[H("0206")] is False


def test_joint_rule_is_exact_on_every_line_of_a_small_map():
    """Two-wall chains around several hexes: one-to-all equals pair by pair, in both directions."""
    eng = LosEngine(SMALL)
    for h, d in ((H("0403"), 0), (H("0403"), 3), (H("0304"), 1), (H("0504"), 4)):
        obstacles = Obstacles(hexsides=frozenset({hexside(h, h.neighbor(d)), hexside(h, h.neighbor(d + 1))}))
        for conv in (Convention.CROSS, Convention.BOTH_SIDES):
            for a in SMALL.hex_list:
                row = eng.visible_from(a, conv, obstacles)
                for b in SMALL.hex_list:
                    assert row[b] == eng.check(a, b, conv, obstacles).visible == eng.check(b, a, conv, obstacles).visible


def test_line_touching_the_joint_without_changing_sides_is_clear():
    # Walls on H|B and H|C with H=0205, B=0204, C=0105 meet at the corner of H, B and C, and both lie
    # on the same side of the line 0206 -> 0101, which only touches their joint: not blocked (but
    # touch, which blocks on any contact with a wall, still blocks).
    eng = LosEngine(SMALL)
    obstacles = walls(("0205", "0204"), ("0205", "0105"))
    a, b = H("0206"), H("0101")
    corner = [c for c in eng.contacts(a, b) if c.how == "corner"]
    assert corner, "the line passes through a corner of the chain"
    for conv in ("cross", "both-sides"):
        assert eng.check(a, b, conv, obstacles).visible
        assert eng.visible_from(a, conv, obstacles)[b]
    assert not eng.check(a, b, "touch", obstacles).visible


def test_single_wall_end_and_running_along_do_not_block_under_cross():
    eng = LosEngine(SMALL)
    a, b = H("0206"), H("0101")
    for one in (("0205", "0204"), ("0104", "0204")):
        assert eng.check(a, b, "cross", walls(one)).visible


def test_joint_block_point_is_the_corner():
    eng = LosEngine(SMALL)
    res = eng.check(H("0206"), H("0101"), "cross", walls(("0205", "0204"), ("0104", "0204")))
    assert Fraction(0) < res.block_t < Fraction(1)
    assert {s.hexside for s in eng._side_blocks(H("0206"), H("0101"), Convention.CROSS,
                                                walls(("0205", "0204"), ("0104", "0204")).hexsides,
                                                eng.contacts(H("0206"), H("0101")))} == {
        hexside(H("0205"), H("0204")), hexside(H("0104"), H("0204"))}


# --- visibility matrix --------------------------------------------------------------------------
@pytest.mark.parametrize("convention", list(Convention))
def test_visibility_matrix_equals_one_to_all(convention):
    rng = np.random.default_rng(12)
    blockers = frozenset(h for h in SMALL.hex_list if rng.random() < 0.25)
    obstacles = Obstacles(hexes=blockers, levels={h: int(rng.integers(0, 3)) for h in SMALL.hex_list},
                          elevation="higher-than-both", hexsides=frozenset({hexside(H("0403"), H("0404"))}))
    eng = LosEngine(SMALL)
    m = eng.visibility_matrix(convention, obstacles)
    assert m.packed.shape == (len(SMALL), (len(SMALL) + 7) // 8)
    dense = m.dense()
    assert np.array_equal(dense, dense.T) and dense.diagonal().all()
    other = LosEngine(SMALL)
    for i, a in enumerate(m.hexes):
        row = other.visible_from(a, convention, obstacles)
        assert [row[b] for b in m.hexes] == dense[i].tolist()
        assert np.array_equal(m.row(a), dense[i]) and np.array_equal(m.column(a), dense[:, i])


def test_visibility_matrix_of_a_bundled_map():
    m = visibility_matrix("example")
    a, b = m.hexes[3], m.hexes[50]
    assert m.sees(a, b) == m.sees(b, a)
