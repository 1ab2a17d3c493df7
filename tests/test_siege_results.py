"""The Siege of Jerusalem: results and sequence of play made exact (issue 29): Recovery out of CC by the CC trace
(5.12), retreats (15.1-15.5), Fire results (13.5), Testudo and Wreckage (16.4, 14.5), one combat as one action
(resolve), the end of an Assault Period (18.1) and the Recovery Phase's Reserves (18.61)."""
from __future__ import annotations

import pytest
from siege_positions import pos

from toolkit.games.siege import (apply_retreat, attack_options, check, game_over, next_turn, phase_allows, recovery,
                                 resolve, retreat, retreat_json, sequence_check)
from toolkit.games.siege.retreat import OFF, options


# -- 5.12: Recovery out of CC, by the CC trace --------------------------------------------------------------------
def test_5_12_out_of_cc_from_the_trace_not_the_flag():
    # a Disrupted Legionary 20 hexes from the only HQ of Legio V: out of CC by 5.1, +1 to its Recovery roll (5.12)
    far = pos([("a", "v-1-7-8", "KK30", "disrupted"), ("hq", "v-hq", "KK10")], phase="recovery")
    r = recovery(far, "a", 3, enemy_missile=False)
    assert [(m["id"], m["rule"]) for m in r["modifiers"]] == [("not_in_cc", "5.12")] and r["final"] == 4
    # the same unit two hexes from its HQ, though flagged out_of_cc: the trace decides, no drm
    near = pos([("a", "v-1-7-8", "KK30", "disrupted", "out_of_cc"), ("hq", "v-hq", "KK28")], phase="recovery")
    assert recovery(near, "a", 3, enemy_missile=False)["modifiers"] == []


# -- 15.1-15.5: retreats ------------------------------------------------------------------------------------------
def answer_of(position, units, enemy, **request):
    found = retreat(position, units, [position.by_id[e].hex for e in enemy], **request)
    return found, {u["unit"]: u for u in retreat_json(found)["units"]}


def dests(row):
    return [d["hex"] for d in row["destinations"]]


def test_15_3_example_rout_and_panic_then_down_the_stairway():
    # 15.3 example on the New City's wall: the Regular on the Wall P41 is Disrupted in melee by the Legionary on P40
    # (enemy-held, 8.11); its only retreat is the Wall P42, holding a Militia and a Cauldron (Wall stacking 1: the
    # Cauldron is stacking-free, the Militia fills it): Rout.  Then the full Bastion P43 (two Militia): Panic.  15.2:
    # no double MF through full hexes, so 1 + 1 MF of its Disrupted 5 leave 3; the fully stacked Wall P44 would
    # eliminate it, so it must go down the Stairway to Q42 (2 MF), nearer the Temple District (15.1), where it may
    # stop, or go one more MF toward the Refuge (R41, R42).
    p = pos([("r", "v-1-7-8", "P40"), ("j", "y-regulars-5-7", "P41"), ("m1", "y-militia-2-6", "P42"),
             ("c", "cauldron", "P42"), ("m2", "y-militia-2-6", "P43"), ("m3", "y-militia-2-6", "P43"),
             ("m4", "y-militia-2-6", "P44")], phase="melee")
    _, rows = answer_of(p, ["j"], ["r"], result="D")
    j = rows["j"]
    assert j["retreat"]["most"] == 5.0 and j["last_resorts"] == 2
    assert [(d["hex"], d["path"], d["cost"], d["flags"]) for d in j["destinations"]] == [
        ("Q42", ["P41", "P42", "P43", "Q42"], 4.0, ["disrupted", "panicked"]),
        ("R41", ["P41", "P42", "P43", "Q42", "R41"], 5.0, ["disrupted", "panicked"]),
        ("R42", ["P41", "P42", "P43", "Q42", "R42"], 5.0, ["disrupted", "panicked"])]
    refused = {r["hex"]: r["rule"] for r in j["refused"]}
    assert refused["P44"] == "15.3" and refused["P40"] == "8.11" and refused["P42"] == "15.1"
    # a Cauldron alone in P42 leaves the Wall open: passing it has no effect (15.3); the Bastion still Routs it
    alone = pos([("r", "v-1-7-8", "P40"), ("j", "y-regulars-5-7", "P41"), ("c", "cauldron", "P42"),
                 ("m2", "y-militia-2-6", "P43"), ("m3", "y-militia-2-6", "P43"), ("m4", "y-militia-2-6", "P44")],
                phase="melee")
    assert dests(answer_of(alone, ["j"], ["r"], result="D")[1]["j"])[0] == "P42"


def test_15_4_a_roman_at_the_map_edge_never_steps_back_inward():
    # The Legionary in AA14 (one hex from the edge) is driven back two hexes (B, 14.2) by the Regular in AA15, whose
    # ZOC covers BB14 and Z15 (7.5).  Its Refuge is the map edge (15.4): AA13, BB13 and Z14; from there along the
    # edge (CC12, Y14) or off the map, never back inward to CC13 or Y15 (15.1).
    p = pos([("r", "v-1-7-8", "AA14"), ("j", "y-regulars-5-7", "AA15")], phase="melee", side="jewish")
    found, rows = answer_of(p, ["r"], ["j"], result="B")
    r = rows["r"]
    assert dests(r) == ["AA13", "BB13", "Z14", "CC12", "Y14"]
    assert {h: rule for h, rule in ((x["hex"], x["rule"]) for x in r["refused"])} == {
        "AA15": "8.11", "BB14": "7.5", "Z15": "7.5", "CC13": "15.1", "Y15": "15.1"}
    # 15.5: off the map from Z14 (1 hex, and the edge counts as the second), into the off_map box
    assert r["off_board"]["path"] == ["AA14", "Z14"] and r["off_board"]["box"] == "off_map"
    assert options(found, "r") == ["AA13", "BB13", "CC12", "Y14", "Z14", OFF]
    after = apply_retreat(found, {"r": OFF})
    assert after.by_id["r"].hex is None and after.by_id["r"].box == "off_map"


def test_15_5_jews_leave_the_map_only_when_no_way_toward_the_temple():
    # The Regular in AA14 driven back two hexes (B, 14.2) by the Cavalry in AA15 (ZOC into BB14, Z15; 7.5): from the
    # edge hex Z14 no open step is nearer the Temple District (AA14 and Z15 in ZOC), so it may leave the map there,
    # escaping Jerusalem (15.5, 18.92); from AA13 and BB13 a step toward it is open, so not there.
    p = pos([("j", "y-regulars-5-7", "AA14"), ("r", "v-cavalry", "AA15")], phase="melee", side="roman")
    found, rows = answer_of(p, ["j"], ["r"], result="B")
    assert rows["j"]["off_board"]["path"] == ["AA14", "Z14"] and rows["j"]["off_board"]["box"] == "escaped"
    assert apply_retreat(found, {"j": OFF}).by_id["j"].box == "escaped"
    # with the Cavalry in Z15 instead, BB14 (nearer the Temple) is open: every retreat goes that way, none leaves
    q = pos([("j", "y-regulars-5-7", "AA14"), ("r", "v-cavalry", "Z15")], phase="melee", side="roman")
    found, rows = answer_of(q, ["j"], ["r"], result="B")
    assert rows["j"]["off_board"] is None and dests(rows["j"]) == ["BB14", "BB15", "CC14"]
    with pytest.raises(ValueError, match="15.5"):
        apply_retreat(found, {"j": OFF})


def test_13_5_disrupted_by_fire_stays():
    # the same D against the Regular in the open, in a Fire Phase: Disrupted, it stays (13.5, 14.3); no B by Fire
    p = pos([("r", "v-velites", "KK29"), ("j", "y-regulars-5-7", "JJ30")], phase="fire")
    _, rows = answer_of(p, ["j"], ["r"], result="D")
    assert rows["j"]["stays"]["rule"] == "13.5" and rows["j"]["retreat"] is None and rows["j"]["flipped"]
    melee = pos([("r", "v-velites", "KK29"), ("j", "y-regulars-5-7", "JJ30")], phase="melee")
    assert answer_of(melee, ["j"], ["r"], result="D")[1]["j"]["retreat"]["rule"] == "15.1"
    with pytest.raises(ValueError, match="13.5"):
        retreat(p, ["j"], [p.by_id["r"].hex], result="B")


# -- resolve: one combat, every consequence -------------------------------------------------------------------------
def scripted(rolls, picks):
    """A roll and a choose that play ``rolls`` and ``picks`` in order, recording every question asked."""
    rolls, picks, asked = list(rolls), list(picks), []

    def choose(what, options):
        asked.append((what, list(options)))
        return picks.pop(0)
    return (lambda sides: rolls.pop(0)), choose, asked


def where(position):
    name = position.game.map.name
    return {u.id: (name(u.hex) if u.hex else u.box, sorted(u.flags)) for u in position.units}


def test_resolve_melee_d_retreat_and_advance():
    # Two Legionaries (7 + 6) against the Regular (5) in the open: 13-5 is 2-1 (11.81); no drm (an incomplete cohort);
    # die 5: D (tables.yaml melee_table 2-1).  The defender keeps the D (14.2), Disrupts its one unit (14.3), which
    # retreats within 5 MF toward the Temple District (15.1: the hexes of toolkit retreat), to JJ31; the hex is empty:
    # "a" advances into it under Multiple Attack marker A, "b" stays (11.9); both attacked (11.8).
    p = pos([("a", "v-1-7-8", "KK29"), ("b", "v-1-6-8", "KK29"), ("j", "y-regulars-5-7", "JJ30")], phase="melee")
    roll, choose, asked = scripted([5], [False, "j", "JJ31", True, False])
    after, notes = resolve(p, ["a", "b"], ["j"], roll=roll, choose=choose)
    hexes = [d["hex"] for d in retreat_json(retreat(p.moved({"j": p.by_id["j"]}), ["j"], [p.by_id["a"].hex],
                                                     result="D"))["units"][0]["destinations"]]
    assert asked == [("take a B (retreat) instead of the D (14.2)", [False, True]),
                     ("unit to Disrupt (14.3, 14.33)", ["j"]),
                     ("hex j retreats to (15.1)", sorted(hexes)),
                     ("advance a into JJ30 (11.86, 11.9)", [False, True]),
                     ("advance b into JJ30 (11.86, 11.9)", [False, True])]
    assert where(after) == {"a": ("JJ30", ["attacked", "multiple_attack_a"]), "b": ("KK29", ["attacked"]),
                            "j": ("JJ31", ["disrupted"])}
    assert notes[0] == {"rule": "11.81", "text": "2-1: die 5, drm +0, final 5: D"}
    assert check(after) == []


def test_resolve_14_5_an_eliminated_catapult_leaves_wreckage():
    # The Zealot (7) against the lone Catapult (1, defence only): 7-1, die 4: DE; one defender: the E first (11.82)
    p = pos([("z", "zealots-7-7", "JJ30"), ("c", "v-catapult", "KK29"), ("h", "v-hq", "KK28")], phase="melee",
            side="jewish")
    roll, choose, asked = scripted([4], ["c", False])
    after, notes = resolve(p, ["z"], ["c"], roll=roll, choose=choose)
    assert where(after)["c"] == ("dead_pile", []) and [(m.marker, p.game.map.name(m.hex)) for m in after.markers] \
        == [("wreckage", "KK29")]
    assert {"rule": "14.4", "text": "c eliminated: an E result eliminates it"} in notes
    assert asked[0] == ("unit to eliminate (14.4)", ["c"])


def test_resolve_16_4_a_testudo_of_one_fresh_legionary_disbands():
    # Three Regulars (2 AF each, 9.2) fire at the Testudo of two Legionaries: 6 AF, testudo row column 2 (13.4); no
    # drm (13.3: not in a Testudo); die 6: D.  The Disrupted Legionary stays (13.5); one Fresh Heavy Infantry is
    # left: the Testudo disbands into a Broken Testudo (16.4), its marker gone.
    p = pos([("t1", "v-1-7-8", "KK29", "testudo"), ("t2", "v-1-6-8", "KK29", "testudo"),
             ("j1", "y-regulars-5-7", "JJ30"), ("j2", "y-regulars-5-7", "JJ30"), ("j3", "y-regulars-5-7", "KK30")],
            markers=[{"marker": "testudo", "hex": "KK29"}], phase="fire", side="roman")
    roll, choose, _ = scripted([6], ["t1"])
    after, notes = resolve(p, ["j1", "j2", "j3"], ["t1", "t2"], roll=roll, choose=choose)
    assert notes[0]["text"] == "testudo row, column 2: die 6, drm +0, final 6: D"
    assert where(after)["t1"] == ("KK29", ["broken_testudo", "disrupted"])
    assert where(after)["t2"] == ("KK29", ["broken_testudo"]) and after.markers == ()
    assert [n["rule"] for n in notes[1:]] == ["14.3", "13.5", "16.4"] and check(after) == []


def test_resolve_refusals_name_their_rule():
    p = pos([("a", "v-1-7-8", "KK29"), ("j", "y-regulars-5-7", "JJ30")], phase="movement")
    roll, choose, _ = scripted([], [])
    with pytest.raises(ValueError, match=r"^4\.1: no melee in the movement phase"):
        resolve(p, ["a"], ["j"], kind="melee", roll=roll, choose=choose)
    done = pos([("a", "v-1-7-8", "KK29", "attacked"), ("j", "y-regulars-5-7", "JJ30")], phase="melee")
    with pytest.raises(ValueError, match=r"^11\.8: "):
        resolve(done, ["a"], ["j"], roll=roll, choose=choose)
    theirs = pos([("a", "v-1-7-8", "KK29"), ("j", "y-regulars-5-7", "JJ30")], phase="melee", side="jewish")
    with pytest.raises(ValueError, match=r"^4\.14: "):
        resolve(theirs, ["a"], ["j"], roll=roll, choose=choose)


def test_attack_options_of_a_melee_phase():
    p = pos([("a", "v-1-7-8", "KK29"), ("b", "v-1-6-8", "KK29"), ("c", "v-1-5-8", "KK29", "attacked"),
             ("j", "y-regulars-5-7", "JJ30"), ("k", "y-regulars-5-7", "MM30")], phase="melee")
    assert attack_options(p) == [(("a",), ("j",), "melee"), (("a", "b"), ("j",), "melee"), (("b",), ("j",), "melee")]


def test_random_combats_leave_legal_positions():
    # property: from the demonstration's Fire and Melee Phases and an open-field melee, chains of random combats
    # (random rolls and choices) give positions the checker accepts, and the same rolls and choices the same result
    import random
    import yaml
    from toolkit.game import PositionFile, position_from_file
    from toolkit.game.module import load_game
    data = yaml.safe_load((load_game("siege-of-jerusalem").folder / "scenarios" / "demonstration.yaml").read_text())
    starts = [position_from_file(PositionFile(**{**data, "phase": ph, "phasing_side": side}))
              for ph, side in (("fire", "roman"), ("melee", "roman"), ("melee", "jewish"))]
    starts.append(pos([("a", "v-1-7-8", "KK29"), ("b", "v-1-6-8", "KK29"), ("c", "v-1-5-8", "LL29"),
                       ("d", "v-cavalry", "MM28"), ("j", "y-regulars-5-7", "JJ30"), ("k", "y-militia-2-6", "JJ30"),
                       ("m", "y-militia-2-6", "LL30"), ("n", "zealots-7-7", "KK30")], phase="melee"))
    resolved = 0
    for seed in range(24):
        rng = random.Random(seed)
        p = starts[seed % len(starts)]
        before = {(v.rule, v.message) for v in check(p)}
        for _ in range(4):
            options_now = attack_options(p)
            if not options_now:
                break
            a, d, k = rng.choice(options_now)
            state = rng.getstate()
            play = (lambda n: rng.randint(1, n)), (lambda what, opts: rng.choice(list(opts)))
            try:
                after, _ = resolve(p, a, d, kind=k, roll=play[0], choose=play[1])
            except ValueError:
                continue
            rng.setstate(state)
            again, _ = resolve(p, a, d, kind=k, roll=play[0], choose=play[1])
            assert again == after
            assert [v for v in check(after) if (v.rule, v.message) not in before] == []
            resolved += 1
            p = after
    assert resolved >= 30


# -- 18.1: the end of an Assault Period; 18.61: no Roman Reserves ----------------------------------------------------
def demo_params(**params):
    return {"final_assault_period": "I", **params}


def test_18_1_the_assault_period_ends_after_the_last_jewish_melee_phase():
    at = lambda turn, phase="melee", side="jewish", **params: pos([], turn=turn, phase=phase, side=side,  # noqa: E731
                                                                  params=demo_params(**params))
    # the demonstration's AP I ends after the Jewish Melee Phase of turn 7 unless the Roman extended it
    assert game_over(at("AP I/7")).startswith("18.1: the Assault Period ends after the Jewish Melee Phase of turn 7")
    assert "scenario" in game_over(at("AP I/7"))
    assert game_over(at("AP I/7", extended_to="9")) is None and game_over(at("AP I/6")) is None
    assert game_over(at("AP I/9", extended_to="9")).startswith("18.1: the Assault Period ends after the Jewish Melee "
                                                               "Phase of turn 9, its last turn as the Roman extended")
    assert game_over(at("AP I/10", extended_to="10")).startswith("18.1: the Assault Period ends after the Jewish "
                                                                 "Melee Phase of turn 10, whatever")
    assert game_over(at("AP I/3", period_end="agreed")).startswith("18.1: the Assault Period ends: both players")
    # only after a Jewish Melee Phase: not the Roman one, not the Recovery Phase of turn 8
    assert game_over(at("AP I/7", side="roman")) is None and game_over(at("AP I/7", phase="recovery")) is None
    # the Roman may not end it alone without a new area (18.1): the checker says so
    lone = at("AP I/3", period_end="roman")
    assert game_over(lone) is None and [v.rule for v in sequence_check(lone)] == ["18.1"]
    # in the Campaign Game AP I's end is no end of the game: the next turn is AP II/1 (19)
    campaign = pos([], turn="AP I/7", phase="melee", side="jewish")
    assert game_over(campaign) is None and next_turn(campaign) == "AP II/1"
    assert next_turn(pos([], turn="AP I/6", phase="melee", side="jewish")) == "AP I/7"
    assert game_over(pos([], turn="AP V/10", phase="melee", side="jewish")).endswith(
        "Assault Period V is the last of the Campaign Game (18), so it ends")


def test_18_61_no_reserves_for_the_romans():
    assert phase_allows(pos([], phase="recovery", side="roman")) == ["recovery"]
    assert phase_allows(pos([], phase="recovery", side="jewish")) == ["recovery", "reserves"]
