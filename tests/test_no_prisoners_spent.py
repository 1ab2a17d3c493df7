"""*No Prisoners* movement already spent this phase (8.1 C/D, 8.2 A, 8.3 C, 8.4, 8.5, 8.8 A/B, 10.6 B, 20.2 B).

A unit's ``spent`` is the MP it has used in the current Movement Phase; a move continued from there is one move with
the part already made: what is left is its allowance less ``spent``.  The synthetic map and the test module are
``test_no_prisoners_movement.py``'s (costs in half MP: clear 2, road 1, sand 4).
"""
from __future__ import annotations

from dataclasses import replace

from test_no_prisoners_movement import dests, npg, position, why  # noqa: F401  (npg is a fixture)

from toolkit.game import load_position
from toolkit.game.module import modules_dir
from toolkit.game.play import make_move
from toolkit.games.no_prisoners import after_move, moves


def spend(pos, **spent):
    """``pos`` with each named unit's MP spent this phase."""
    return pos.moved({uid: replace(pos.by_id[uid], spent=mp) for uid, mp in spent.items()})


# -- 8.2 A, 8.3 C: what is left of the MA ---------------------------------------------------------------------------
def test_partly_spent_unit_moves_what_is_left_of_its_ma(npg):
    pos = position(npg, [("a", "w-inf2", "0104")])                    # MA 2; the road costs 1/2 MP a hex
    assert dests(pos, moves(pos, ["a"])) == {"0204": 1, "0304": 2, "0404": 3, "0504": 4}
    r = moves(spend(pos, a=1), ["a"])
    assert r.budget == 2 and dests(pos, r) == {"0204": 1, "0304": 2}
    assert why(pos, r, "0404") == "MP"
    assert dests(pos, moves(spend(pos, a=1.5), ["a"])) == {"0204": 1}


def test_fully_spent_unit_has_no_destination(npg):
    pos = spend(position(npg, [("a", "w-inf2", "0104")]), a=2)
    r = moves(pos, ["a"])
    assert r.destinations == {}
    assert r.refused.rule == "8.3 C"
    assert "a has spent 2 of its 2 MP" in r.refused.message and "8.4" in r.refused.message
    r = moves(spend(pos, a=3), ["a"])                                     # more than it has: no less refused
    assert r.refused.rule == "8.3 C" and r.destinations == {}


def test_one_hex_minimum_is_once_a_phase(npg):
    # 8.4: fresh, a unit of MA 1 steps into the sand hex 0302 (2 MP) for its whole MA; after spending 1/2 MP it
    # has 1/2 MP left, which buys no hex at all (clear 1 MP, sand 2 MP).
    pos = position(npg, [("a", "w-inf1", "0202")])
    assert dests(pos, moves(pos, ["a"])) == {"0102": 2, "0302": 2}
    r = moves(spend(pos, a=0.5), ["a"])
    assert r.refused is None and r.budget == 1 and r.destinations == {}
    assert why(pos, r, "0102") == "MP" and why(pos, r, "0302") == "MP"


def test_a_stack_has_what_its_most_spent_member_has_left(npg):
    pos = spend(position(npg, [("a", "w-inf2", "0104"), ("b", "w-inf3", "0104")]), b=2)   # 4 and 6 - 4 half MP
    r = moves(pos, ["a", "b"])
    assert r.budget == 2 and dests(pos, r) == {"0204": 1, "0304": 2}
    r = moves(spend(pos, b=3), ["a", "b"])
    assert r.refused.rule == "8.3 C" and r.refused.message.startswith("b has spent 3 of its 3 MP")


# -- 8.1 C/D: strategic movement, double the MA, one type a phase ---------------------------------------------------
def test_strategic_move_continued_has_double_ma_less_spent(npg):
    units = [("a", "w-inf2", "0110"), ("t", "t-inf", "0610")]
    pos = position(npg, units)
    assert dests(pos, moves(spend(pos, a=1), ["a"], kind="strategic"))["0410"] == 6        # 8 - 2 half MP left
    r = moves(spend(pos, a=1.5), ["a"], kind="strategic")
    assert r.budget == 5 and "0410" not in dests(pos, r) and dests(pos, r)["0310"] == 4
    assert moves(spend(pos, a=2), ["a"]).refused.rule == "8.3 C"                            # normal: MA 2 used
    r = moves(spend(pos, a=4), ["a"], kind="strategic")
    assert r.refused.rule == "8.3 C" and "strategic" in r.refused.message and r.destinations == {}


def test_a_strategic_mover_goes_on_only_strategically(npg):
    pos = spend(position(npg, [("a", "w-inf2", "0110", ["strategic_moved"])]), a=1)
    assert moves(pos, ["a"]).refused.rule == "8.1 C"
    assert moves(pos, ["a"], kind="rail").refused.rule == "8.1 C"
    assert moves(pos, ["a"], kind="strategic").refused is None


# -- 8.5: a unit that entered an EZOC has ended its move -----------------------------------------------------------
def test_spent_unit_in_an_ezoc_has_ended_its_move(npg):
    units = [("a", "w-inf", "0510"), ("t", "t-inf", "0610")]
    assert moves(position(npg, units), ["a"]).refused is None                  # fresh there: it disengages
    r = moves(spend(position(npg, units), a=1), ["a"])
    assert r.refused.rule == "8.5" and r.destinations == {}


# -- 10.6 B: half the MA once disengaged ------------------------------------------------------------------------------
def test_disengaged_unit_has_half_its_ma_less_spent(npg):
    pos = spend(position(npg, [("a", "w-inf4", "0310", ["disengaged"])]), a=1)   # half of MA 4 = 2 MP, 1 spent
    r = moves(pos, ["a"])
    assert r.budget == 2
    assert dests(pos, r) == {"0309": 2, "0311": 2, "0210": 2, "0211": 2, "0410": 2, "0411": 2}
    assert moves(pos, ["a"], kind="strategic").refused.rule == "8.1 D"


# -- 8.8 A/B: the rail move costs no MP ------------------------------------------------------------------------------
def test_fully_spent_unit_may_still_make_its_rail_move(npg):
    pos = spend(position(npg, [("a", "w-inf2", "0104")]), a=2)
    assert moves(pos, ["a"]).refused.rule == "8.3 C"
    r = moves(pos, ["a"], kind="rail")
    assert r.refused is None
    assert dests(pos, r) == {"0204": 0, "0304": 0, "0404": 0, "0504": 0, "0604": 0, "0704": 0, "0804": 0}
    r = moves(spend(pos, a=1.5), ["a"], kind="rail")                   # 1/2 MP left: on by road from 0804
    assert dests(pos, r)["0904"] == 1 and len(r.destinations) == 8
    pos = spend(position(npg, [("a", "w-inf2", "0104", ["rail_moved"])]), a=2)
    assert moves(pos, ["a"], kind="rail").refused.rule == "8.8 B"


# -- 20.2 B: the amphibious move uses the whole MA ------------------------------------------------------------------
def test_no_amphibious_move_after_spending(npg):
    pos = position(npg, [("a", "w-inf", "0102")])
    assert moves(pos, ["a"], kind="amphibious").refused is None
    r = moves(spend(pos, a=0.5), ["a"], kind="amphibious")
    assert r.refused.rule == "20.2 B" and r.destinations == {}


# -- the reported case: Scenario 1's 42nd Division -------------------------------------------------------------------
def test_scenario_1_42nd_division_spent():
    start = load_position(modules_dir() / "no-prisoners" / "scenarios" / "scenario-1.yaml")
    pos = replace(start, phase="west_allied_movement")
    fresh = moves(pos, ["a-42-div"])
    assert fresh.budget == 12 and len(fresh.destinations) == 34
    r = moves(spend(pos, **{"a-42-div": 6}), ["a-42-div"])
    assert r.refused.rule == "8.3 C" and r.destinations == {}
    r = moves(spend(pos, **{"a-42-div": 4.5}), ["a-42-div"])                # 1 1/2 MP left
    assert dests(pos, r) == {"0609": 1, "0408": 2, "0410": 2, "0308": 3, "0309": 3, "0411": 3}
    assert r.destinations[pos.game.map.resolve("0609")].stop.rule == "8.5"
    assert dests(pos, r) == {k: v for k, v in dests(pos, fresh).items() if v <= 3}


# -- after_move: what one move leaves for the next ----------------------------------------------------------------
def move(pos, ids, to, kind="normal"):
    """``pos`` after the move of ``ids`` to hex ``to`` found by :func:`moves`, with :func:`after_move`'s marks."""
    result = moves(pos, ids, kind=kind)
    dest = result.destinations[pos.game.map.resolve(to)]
    return after_move(pos, make_move(pos, result, dest, ids), ids, kind, dest)


def test_after_disengaging_half_the_ma_stays(npg):
    pos = move(position(npg, [("a", "w-inf4", "0510"), ("t", "t-inf", "0610")]), ["a"], "0410")
    a = pos.by_id["a"]
    assert a.spent == 1 and a.has("disengaged")
    assert moves(pos, ["a"]).budget == 2                                # half of MA 4, less 1 (10.6 B)
    assert moves(pos, ["a"], kind="strategic").refused.rule == "8.1 D"


def test_after_a_rail_move_no_second_one(npg):
    pos = move(position(npg, [("a", "w-inf2", "0104")]), ["a"], "0804", kind="rail")
    a = pos.by_id["a"]
    assert a.spent == 0 and a.has("rail_moved")
    assert moves(pos, ["a"], kind="rail").refused.rule == "8.8 B"
    assert moves(pos, ["a"]).budget == 4


def test_after_a_strategic_move_only_strategic(npg):
    pos = move(position(npg, [("a", "w-inf2", "0110"), ("t", "t-inf", "0610")]), ["a"], "0310", kind="strategic")
    assert pos.by_id["a"].spent == 2 and pos.by_id["a"].has("strategic_moved")
    assert moves(pos, ["a"]).refused.rule == "8.1 C"
    assert moves(pos, ["a"], kind="strategic").budget == 4


def test_after_an_amphibious_move(npg):
    pos = move(position(npg, [("a", "w-inf", "0102")]), ["a"], "0202", kind="amphibious")
    assert pos.by_id["a"].spent == 5 and pos.by_id["a"].has("amphibious_moved")
    assert pos.params["amphibious_used"] == "W:1916"                    # 20.2 A: the Western landing of 1916
    assert moves(pos, ["a"]).refused.rule == "20.2 B"
