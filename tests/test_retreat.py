"""Issue 22, part 2: combat results applied -- retreats and eliminations, one mechanism (toolkit.game.retreat)
for the data layer (examples/steppe), No Prisoners (12.x), Jerusalem! (9.4.5) and the Siege (14.x, 15.x, 7.5).

Every expected hex is worked out by hand, commented with its rule.  Steppe's map (flat-top, CCRR, odd columns
shifted down): an odd column's hex CCRR touches (CC±1, RR) and (CC±1, RR+1), an even column's (CC±1, RR-1) and
(CC±1, RR), and (CC, RR±1) in both.  Forest 0303 0304 0403, swamp 0206 0207 0306 (prohibited to armour, 6.2;
stacking limit 1, game.yaml), stacking 3 points elsewhere (infantry 1, tanks 2).
"""
from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from test_rules_data import STEPPE, _run, position, steppe, u  # noqa: F401  (steppe: the fixture)

from toolkit.answers import check_answer, retreat_answer
from toolkit.game import load_game
from toolkit.game.moves import Blocked
from toolkit.game.retreat import apply_retreats
from toolkit.games import rule
from toolkit.games.data.retreat import DataRetreat


def answer(pos, units, enemy, **request) -> dict:
    """``toolkit retreat --json`` for ``units`` against the enemy units ``enemy``."""
    return retreat_answer(pos, units, attackers=enemy, **request)


def one(data: dict) -> dict:
    (found,) = data["units"]
    return found


def dests(found: dict) -> list[str]:
    return [d["hex"] for d in found["destinations"]]


def refusals(found: dict) -> dict[str, str]:
    return {r["hex"]: r["rule"] for r in found["refused"]}


# -- the data layer: examples/steppe, rules.yaml retreat (10.x) --------------------------------------------------

def test_dr_blocked_by_enemy_zoc_and_enemy_units(steppe):
    # s-inf in 0405 (even column) touches 0304 0305 0504 0505 0404 0406.  The German in 0404 holds 0404 (6.7) and
    # its ZOC covers 0304 and 0504 (0404 touches 0303 0304 0503 0504 0403 0405): no retreat there (10.3).
    pos = position(steppe, [u("g", "ger-inf", "0404"), u("s", "sov-inf", "0405")], phase="axis_combat")
    found = one(answer(pos, ["s"], ["g"], result="DR"))
    assert dests(found) == ["0305", "0406", "0505"]
    assert refusals(found) == {"0304": "10.3", "0504": "10.3", "0404": "6.7"}
    assert found["retreat"] == {"most": 1, "unit_of_length": "hexes", "least": 1, "rule": "10.1"}


def test_a_friendly_unit_negates_the_zoc_for_a_retreat(steppe):
    # zoc.negated_by_friends lists retreat: a Soviet unit in 0304 opens it (10.3)
    pos = position(steppe, [u("g", "ger-inf", "0404"), u("s", "sov-inf", "0405"), u("f", "sov-inf", "0304")],
                   phase="axis_combat")
    assert dests(one(answer(pos, ["s"], ["g"], result="DR"))) == ["0304", "0305", "0406", "0505"]


def test_terrain_prohibited_to_armour_and_elimination(steppe):
    # Tanks in 0305 (odd column: 0205 0206 0405 0406 0304 0306).  The German in 0405 holds it and his ZOC
    # covers 0304, 0406 (10.3); 0206 and 0306 are swamp, prohibited to armour (6.2): only 0205.
    units = [u("g", "ger-inf", "0405"), u("t", "sov-tank", "0305")]
    found = one(answer(position(steppe, units, phase="axis_combat"), ["t"], ["g"], result="DR"))
    assert dests(found) == ["0205"]
    assert refusals(found) == {"0206": "6.2", "0306": "6.2", "0304": "10.3", "0406": "10.3", "0405": "6.7"}
    # A second German in 0105 (odd: 0204 0205 0104 0106) puts 0205 in a ZOC too: no retreat, eliminated (10.0)
    pos = position(steppe, units + [u("g2", "ger-inf", "0105")], phase="axis_combat")
    data = answer(pos, ["t"], ["g", "g2"], result="DR", apply=[])
    found = one(data)
    assert found["eliminated"]["rule"] == "10.0" and "0205: a retreat may not enter" in found["eliminated"]["reason"]
    assert found["destinations"] == []
    after = {x["id"]: x for x in data["after"]["position"]["units"]}
    assert after["t"]["box"] == "eliminated" and "hex" not in after["t"] and data["after"]["check"]["legal"]


def test_two_hexes_each_farther_away(steppe):
    # --hexes 2 from 0405 against the German in 0404: each hex farther from 0405 (10.2), so every end is two hexes
    # away; 0304/0504 are in the ZOC (10.3).  Through 0305 (odd): 0205 0206 0306; through 0406 (even): 0306
    # 0407 0506; through 0505 (odd): 0605 0606 (across the river: no matter) 0506.  Swamp is open to foot.
    pos = position(steppe, [u("g", "ger-inf", "0404"), u("s", "sov-inf", "0405")], phase="axis_combat")
    found = one(answer(pos, ["s"], ["g"], hexes=2))
    assert sorted(dests(found)) == ["0205", "0206", "0306", "0407", "0506", "0605", "0606"]
    assert all(len(d["path"]) == 3 for d in found["destinations"])


def test_overstacking_is_a_last_resort_whose_excess_is_eliminated(steppe):
    # s-inf in 0305 against the German in 0405: 0205 and 0206 are left (0304, 0406 ZOC; 0306 swamp is open to
    # foot but in no ZOC -- 0405's ZOC is 0304 0305 0504 0505 0404 0406 -- so 0306 too).  Fill 0205 with tanks
    # and rifles (3 points) and the swamps 0206 0306 (limit 1) with a rifle each: every end overstacks (10.4).
    base = [u("g", "ger-inf", "0405"), u("s", "sov-inf", "0305")]
    pos = position(steppe, base, phase="axis_combat")
    assert dests(one(answer(pos, ["s"], ["g"], result="DR"))) == ["0205", "0206", "0306"]
    full = base + [u("t", "sov-tank", "0205"), u("r", "sov-inf", "0205"), u("r2", "sov-inf", "0206")]
    found = one(answer(position(steppe, full, phase="axis_combat"), ["s"], ["g"], result="DR"))
    assert dests(found) == ["0306"] and refusals(found)["0205"] == "10.4"
    full += [u("r3", "sov-inf", "0306")]
    data = answer(position(steppe, full, phase="axis_combat"), ["s"], ["g"], result="DR", apply=["0206"])
    found = one(data)
    assert dests(found) == ["0205", "0206", "0306"] and found["last_resorts"] == 1
    assert {d["eliminated"]["rule"] for d in found["destinations"]} == {"10.4"}
    after = {x["id"]: x for x in data["after"]["position"]["units"]}
    assert after["s"]["box"] == "eliminated"


def test_results_eliminate_and_exchange(steppe):
    pos = position(steppe, [u("g", "ger-inf", "0404"), u("s", "sov-inf", "0405")], phase="axis_combat")
    assert one(answer(pos, ["s"], ["g"], result="DE"))["eliminated"] == {"reason": "the result eliminates it",
                                                                          "rule": "10.1"}
    attacker = one(answer(pos, ["g"], ["s"], result="EX"))        # the German attacks: the EX note is his
    assert attacker["note"]["rule"] == "10.1" and attacker["eliminated"] is None and attacker["retreat"] is None
    assert one(answer(pos, ["g"], ["s"], result="AR"))["retreat"]["most"] == 1
    assert one(answer(pos, ["s"], ["g"], result="AR"))["stays"]["rule"] == "10.1"   # AR leaves the defender


@pytest.mark.parametrize("request_, needle", [
    ({"result": "XX"}, "retreat.results has AR, DR, AE, DE, EX"),
    ({}, "not both"),
    ({"result": "DR", "hexes": 1}, "not both"),
    ({"hexes": 0}, "give 1 or more"),
])
def test_bad_requests_name_the_fix(steppe, request_, needle):
    pos = position(steppe, [u("g", "ger-inf", "0404"), u("s", "sov-inf", "0405")], phase="axis_combat")
    with pytest.raises(ValueError, match=needle):
        answer(pos, ["s"], ["g"], **request_)


@settings(max_examples=40, deadline=None)
@given(col=st.integers(2, 9), row=st.integers(2, 7), hexes=st.integers(1, 3), side=st.integers(0, 5))
def test_every_retreat_path_is_legal_and_exactly_long_enough(col, row, hexes, side):
    """Property: every path has ``hexes`` hexes, each a step the hooks allow and one hex farther from the start
    (10.2), so it ends ``hexes`` away; the position after a retreat without a last resort passes toolkit check."""
    here = f"{col:02d}{row:02d}"
    cmap = load_game(str(STEPPE)).map
    start = cmap.resolve(here)
    enemy = sorted(start.neighbors())[side]            # an interior hex: six neighbours on the map
    pos = position(STEPPE, [u("s", "sov-inf", here), u("g", "ger-inf", cmap.name(enemy))], phase="axis_combat")
    found = rule(pos.game, "retreat")(pos, ["s"], [enemy], hexes=hexes)
    hooks, unit = DataRetreat(pos), pos.by_id["s"]
    for d in found.units[0].destinations:
        assert len(d.path) == hexes + 1 and d.hex.distance(start) == hexes
        for a, b in zip(d.path, d.path[1:]):
            assert b.distance(start) == a.distance(start) + 1
            assert [s for s in hooks.steps(unit, a, 0, None) if s.to == b and type(s) is not Blocked]
    if found.units[0].destinations and found.units[0].last_resorts == 0:
        first = pos.game.map.name(found.units[0].destinations[0].hex)
        assert check_answer(apply_retreats(found, {"s": first}))["legal"]


def test_the_command_prints_every_rule(steppe, tmp_path):
    pos_file = tmp_path / "p.yaml"
    pos_file.write_text(yaml.safe_dump({"game": "steppe", "turn": "1", "phase": "axis_combat", "phasing_side": "axis",
                                        "units": [u("g", "ger-inf", "0404"), u("s", "sov-inf", "0405")]}))
    done = _run("retreat", str(pos_file), "--game", str(steppe), "--units", "s", "--from-attack-hex", "0404",
                "--result", "DR", "--apply", "0406", "-o", str(tmp_path / "after.yaml"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"wrote {tmp_path / 'after.yaml'}", "result DR:",
        "  s in 0405: retreats 1 hex(es) (10.1):",
        "    0305  via -", "    0406  via -", "    0505  via -",
        "    not 0304: a retreat may not enter an enemy zone of control with no friendly unit in it (10.3)",
        "    not 0404: enemy units hold the hex (6.7)",
        "    not 0504: a retreat may not enter an enemy zone of control with no friendly unit in it (10.3)",
        "position after the result: legal (toolkit check)"]
    after = yaml.safe_load((tmp_path / "after.yaml").read_text())
    assert {x["id"]: x["hex"] for x in after["units"]} == {"g": "0404", "s": "0406"}


def test_a_step_loss_flips_or_eliminates(steppe):
    # EX as a step loss for the attacker: infantry turns to its reduced back (game.yaml back_flag), armour has no
    # back face and is eliminated, a reduced unit too (10.1)
    rules = yaml.safe_load((steppe / "rules.yaml").read_text())
    rules["retreat"]["results"]["EX"] = {"rule": "10.1", "attacker": {"step_loss": True}}
    (steppe / "rules.yaml").write_text(yaml.safe_dump(rules))
    pos = position(steppe, [u("g", "ger-inf", "0404"), u("r", "ger-inf", "0404", flags=["reduced"]),
                            u("pz", "ger-pz", "0404"), u("s", "sov-inf", "0405")], phase="axis_combat")
    data = answer(pos, ["g", "r", "pz"], ["s"], result="EX", apply=[])
    found = {x["unit"]: x for x in data["units"]}
    assert found["g"]["flipped"]["rule"] == "10.1" and found["g"]["eliminated"] is None
    assert found["r"]["eliminated"]["rule"] == found["pz"]["eliminated"]["rule"] == "10.1"
    after = {x["id"]: x for x in data["after"]["position"]["units"]}
    assert after["g"]["flags"] == ["reduced"] and after["g"]["hex"] == "0404"
    assert after["r"]["box"] == after["pz"]["box"] == "eliminated"


def test_not_toward_the_enemy_instead_of_away(steppe):
    # away: null, not_toward_enemy (10.5): no hex nearer the enemy of the combat than the hex before.  The German
    # in 0603 (his ZOC 0502 0503 0702 0703 0602 0604 touches none of 0405's neighbours) is three hexes from 0405;
    # of its neighbours 0404 and 0504 are two from 0603 (refused, 10.5), 0304 0505 three, 0305 0406 four.
    rules = yaml.safe_load((steppe / "rules.yaml").read_text())
    rules["retreat"].update(away=None, not_toward_enemy={"rule": "10.5"})
    (steppe / "rules.yaml").write_text(yaml.safe_dump(rules))
    pos = position(steppe, [u("g", "ger-inf", "0603"), u("s", "sov-inf", "0405")], phase="axis_combat")
    found = one(answer(pos, ["s"], ["g"], result="DR"))
    assert dests(found) == ["0304", "0305", "0406", "0505"]
    assert {h: r for h, r in refusals(found).items() if h in ("0404", "0504")} == {"0404": "10.5", "0504": "10.5"}
