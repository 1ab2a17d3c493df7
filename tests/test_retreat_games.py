"""Issue 22, part 2: combat results applied in the bundled games, through toolkit.game.retreat.

* The Siege of Jerusalem (14.x, 15.x, 7.5) on the bundled map.  Hand facts used: the Fresh Roman Heavy Infantry
  (or Cavalry) in KK29 exerts its ZOC into JJ29, JJ30 and KK30 only (7.11; tests/test_siege_zoc.py); JJ30 and
  its neighbours are Clear (stacking 3) but JJ32, on the far side, is an Elevated Hex no stairway joins (8.93);
  distances to the Temple District (the Jewish Refuge, 15.4): JJ31 5, JJ30 6, II31 6, II30 7.  RR35 (Clear,
  outside) touches the Temple District's Gate QQ36 through an Entry hexside (8.91).
* No Prisoners (11.3, 12.x) on the synthetic map of tests/test_no_prisoners_movement.py (rows 8-12 open clear
  ground, stacking 3 in clear).
* Jerusalem! (9.4.5): no retreats; a K eliminates.
"""
from __future__ import annotations

import pytest

from position_files import write_position
from siege_positions import pos as siege
from test_no_prisoners_movement import npg, position as np_position  # noqa: F401  (npg: the fixture)

from toolkit.answers import retreat_answer


def answer(position, units, enemy, **request) -> dict:
    return retreat_answer(position, units, attackers=enemy, **request)


def by_unit(data: dict) -> dict[str, dict]:
    return {x["unit"]: x for x in data["units"]}


def dests(found: dict) -> list[str]:
    return [d["hex"] for d in found["destinations"]]


def refusals(found: dict) -> dict[str, str]:
    return {r["hex"]: r["rule"] for r in found["refused"]}


MILITIA = [(f"m{i}", "y-militia-2-6") for i in range(9)]


def fill(*hexes: str) -> list[tuple]:
    """Three Jewish Militia in each hex: a Clear hex full (stacking 3)."""
    return [(uid, counter, h) for h, group in zip(hexes, (MILITIA[i:i + 3] for i in range(0, 9, 3)))
            for uid, counter in group]


# -- the Siege of Jerusalem ---------------------------------------------------------------------------------------

def test_siege_14_21_one_hex_toward_the_refuge_never_into_a_zoc():
    # A B result against the Jew in JJ30, in the Ground ZOC of the attacking Heavy Infantry: one hex (14.21).
    # KK29 holds the enemy (8.11); JJ29 and KK30 are in its ZOC (7.5); JJ31 is nearer the Refuge than JJ30, so
    # II30 and II31 are not taken (15.1).  JJ32, two hexes away (a wall with no stairway, 8.93), lies beyond a
    # one-hex retreat and is not listed.
    p = siege([("r", "v-1-7-8", "KK29"), ("j", "y-regulars-5-7", "JJ30")], phase="melee")
    found = by_unit(answer(p, ["j"], ["r"], result="B"))["j"]
    assert found["retreat"] == {"most": 1, "unit_of_length": "hexes", "least": 1, "rule": "14.21"}
    assert dests(found) == ["JJ31"]
    assert refusals(found) == {"KK29": "8.11", "JJ29": "7.5", "KK30": "7.5", "II30": "15.1", "II31": "15.1"}


def test_siege_14_21_never_overstacked_so_away_from_the_refuge():
    # JJ31 full: under 14.21 an overstacked retreat eliminates, so it is no retreat at all; 15.1 then lets the
    # unit go away from the Refuge: II30 and II31.
    p = siege([("r", "v-1-7-8", "KK29"), ("j", "y-regulars-5-7", "JJ30"), *fill("JJ31")], phase="melee")
    found = by_unit(answer(p, ["j"], ["r"], result="B"))["j"]
    assert dests(found) == ["II30", "II31"] and refusals(found)["JJ31"] == "15.3"


def test_siege_b_into_the_refuge():
    # RR35, B result (one or two hexes, 14.2) from the Cavalry far off in KK29: every hex toward the Temple
    # District (15.1, 15.4): its Gate QQ36, then inside it PP37, QQ35 and QQ37; RR34, RR36, SS34, SS35 are no
    # nearer (15.1).
    p = siege([("c", "v-cavalry", "KK29"), ("j", "y-regulars-5-7", "RR35")], phase="melee")
    found = by_unit(answer(p, ["j"], ["c"], result="B"))["j"]
    assert dests(found) == ["QQ36", "PP37", "QQ35", "QQ37"]
    assert {h: r for h, r in refusals(found).items() if r == "15.1"} == {h: "15.1" for h in
                                                                          ("RR34", "RR36", "SS34", "SS35")}


def test_siege_d_overstacked_hexes_rout_the_unit():
    # The Cavalry in KK29 (not Heavy Infantry: no 14.21).  D: the Regular is Disrupted (14.3) and retreats within
    # its Disrupted 5 MF (15.1).  JJ31, II30 and II31 are full: each is a last resort raising its Disruption to
    # Rout (15.3), and it may not stop in one (15.1).
    p = siege([("c", "v-cavalry", "KK29"), ("j", "y-regulars-5-7", "JJ30"), *fill("JJ31", "II30", "II31")],
              phase="melee")
    data = answer(p, ["j"], ["c"], result="D", apply=["KK31"])
    found = by_unit(data)["j"]
    assert found["flipped"]["rule"] == "14.3" and found["last_resorts"] == 1
    assert found["retreat"] == {"most": 5.0, "unit_of_length": "mf", "least": 1, "rule": "15.1"}
    assert not {"JJ31", "II30", "II31"} & set(dests(found))
    kk31 = next(d for d in found["destinations"] if d["hex"] == "KK31")
    assert kk31["path"] == ["JJ30", "JJ31", "KK31"] and kk31["flags"] == ["disrupted", "routed"]
    after = {u["id"]: u for u in data["after"]["position"]["units"]}
    assert after["j"]["hex"] == "KK31" and sorted(after["j"]["flags"]) == ["disrupted", "routed"]


def test_siege_disruption_and_elimination_results():
    units = [("r", "v-1-7-8", "KK29"), ("j", "y-regulars-5-7", "JJ30"), ("k", "y-militia-2-6", "JJ30")]
    found = by_unit(answer(siege(units, phase="melee"), ["j", "k"], ["r"], result="DE"))
    assert found["j"]["flipped"]["rule"] == "14.3" and found["j"]["retreat"]["rule"] == "15.1"   # D: first unit
    assert found["k"]["eliminated"]["rule"] == "14.4"                                          # E: second
    lone = siege(units[:2], phase="melee")
    assert by_unit(answer(lone, ["j"], ["r"], result="DD"))["j"]["eliminated"]["rule"] == "14.33"
    assert by_unit(answer(lone, ["j"], ["r"], result="DE"))["j"]["eliminated"]["rule"] == "14.4"  # 11.82
    tired = siege([units[0], ("j", "y-regulars-5-7", "JJ30", "disrupted")], phase="melee")
    assert by_unit(answer(tired, ["j"], ["r"], result="D"))["j"]["eliminated"]["rule"] == "14.3"
    with pytest.raises(ValueError, match="DD takes 2 unit"):
        answer(siege(units, phase="melee"), ["j"], ["r"], result="DD")


def test_siege_14_31_a_fortress_defender_need_not_retreat():
    # LL34 is the Antonia Fortress: Disrupted, it stays (14.31)
    p = siege([("r", "v-1-7-8", "KK29"), ("j", "y-regulars-5-7", "LL34")], phase="melee")
    found = by_unit(answer(p, ["j"], ["r"], result="D", apply=[]))["j"]
    assert found["stays"]["rule"] == "14.31" and found["flipped"]["rule"] == "14.3" and found["retreat"] is None


# -- No Prisoners -------------------------------------------------------------------------------------------------

def test_np_dr_never_into_an_ezoc(npg):
    # The Turk in 0510 (odd column: 0410 0411 0610 0611 0509 0511) against the British in 0610 (even column: ZOC
    # 0509 0510 0709 0710 0609 0611): 0610 is enemy-held (9.3), 0509 and 0611 would eliminate it (12.2 A).
    p = np_position(npg, [("b", "w-inf", "0610"), ("t", "t-inf", "0510")], phase="combat1")
    found = by_unit(answer(p, ["t"], ["b"], result="DR"))["t"]
    assert dests(found) == ["0410", "0411", "0511"]
    assert refusals(found) == {"0610": "9.3", "0509": "12.2 A", "0611": "12.2 A"}


def test_np_dr2_ends_exactly_two_hexes_away(npg):
    # 12.2 A: two hexes, each farther from 0510, so ending two away: through 0410 (even: 0309 0310 0409), 0411
    # (even: 0310 0311 0412), 0511 (odd: 0412 0512 0612; the EZOC of 0610 reaches none of them).
    p = np_position(npg, [("b", "w-inf", "0610"), ("t", "t-inf", "0510")], phase="combat1")
    found = by_unit(answer(p, ["t"], ["b"], result="DR2"))["t"]
    assert sorted(dests(found)) == ["0309", "0310", "0311", "0409", "0412", "0512", "0612"]


def test_np_overstacking_is_the_last_resort(npg):
    # 0410, 0411 and 0511 (the retreat hexes above) each hold three Turks: every end overstacks (9.1), a last
    # resort whose excess is eliminated (12.2 A, 9.2 C)
    full = [(f"{h}-{i}", "t-inf1", h) for h in ("0410", "0411", "0511") for i in range(3)]
    p = np_position(npg, [("b", "w-inf", "0610"), ("t", "t-inf", "0510"), *full], phase="combat1")
    found = by_unit(answer(p, ["t"], ["b"], result="DR"))["t"]
    assert dests(found) == ["0410", "0411", "0511"] and found["last_resorts"] == 1
    assert {d["eliminated"]["rule"] for d in found["destinations"]} == {"9.2 C"}


def test_np_losses(npg):
    p = np_position(npg, [("b", "w-inf", "0610"), ("t", "t-inf", "0510")], phase="combat1")
    assert by_unit(answer(p, ["t"], ["b"], result="DE"))["t"]["eliminated"]["rule"] == "11.3"
    half = by_unit(answer(p, ["t"], ["b"], result="DH"))["t"]
    assert half["note"]["rule"] == "11.3" and half["retreat"]["most"] == 1
    assert by_unit(answer(p, ["b"], ["t"], result="AR"))["b"]["retreat"]["rule"] == "12.1 A"   # the attacker's


# -- Jerusalem! ---------------------------------------------------------------------------------------------------

def test_jerusalem_k_eliminates_and_nothing_retreats(tmp_path):
    p = write_position(tmp_path, "jerusalem-1948", "May I", "overland", "jewish",
                       [("h", "hgh-4-6", "0507"), ("a", "al-12-8-6r", "0508")])
    data = answer(p, ["a"], ["h"], result="K", apply=[])
    assert by_unit(data)["a"]["eliminated"] == {"reason": "a K eliminates the units attacked", "rule": "9.4.5"}
    assert next(u for u in data["after"]["position"]["units"] if u["id"] == "a")["box"] == "eliminated"
    assert by_unit(answer(p, ["a"], ["h"], hexes=1))["a"]["stays"]["rule"] == "9.4.5"
    assert by_unit(answer(p, ["a"], ["h"], result="-"))["a"]["stays"]["rule"] == "9.4.5"
