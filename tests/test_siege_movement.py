"""Siege of Jerusalem legal moves through the one generator, on the bundled map (exact answers)."""
import random

from siege_positions import pos

from toolkit.games.siege import check, moves, zoc
from toolkit.games.siege.movement import SiegeMove


def dest(p, ids, h):
    r = moves(p, ids)
    name = p.game.map.name
    got = {name(k): v for k, v in r.destinations.items()}
    if h in got:
        return got[h].mp, [name(x) for x in got[h].path]
    why = r.refused or r.unreachable.get(p.game.map.resolve(h))
    return None, why.rule if why else None


def tower(spent):
    return pos([{"id": "tw", "counter": "x-tower", "hex": "EE18", "flags": ["facing_s"], "spent": spent},
                ("p", "x-1-7-8", "EE18", "pushing"), ("m", "x-2-7-8", "DD18")])


def test_8_61_the_4_marker():
    # a Tower pushed through two Clear hexes (2 MF) costs 4 MF more to climb: 1 + 4, then 2 MF to the wall
    assert dest(tower(0), ["m"], "EE19") == (3.0, ["DD18", "EE18", "EE19"])
    assert dest(tower(2), ["m"], "EE19") == (7.0, ["DD18", "EE18", "EE19"])


def test_8_7_ladder():
    lad = [{"marker": "ladder", "hex": "Z22"}]
    p = pos([("base", "v-1-7-8", "Z22", "ladder_base"), ("m", "v-2-7-8", "Y22")], lad)
    assert dest(p, ["m"], "AA22") == (7.0, ["Y22", "Z22", "AA22"])        # 1 + 4 to climb, 2 to the wall
    assert moves(p, ["base"]).refused.rule == "8.7"                        # the Base unit may not move
    pj = pos([("base", "v-1-7-8", "Z22", "ladder_base"), ("j", "y-regulars-5-7", "Y22")], lad, side="jewish")
    assert dest(pj, ["j"], "Z22") == (None, "8.11")                         # its Base unit is there (6.5 too)


def test_8_8_testudo_moves_4_mf_whatever_its_disrupted_members():
    p = pos([("a", "v-1-7-8", "M23", "testudo"), ("b", "v-1-6-8", "M23", "testudo", "disrupted")])
    r = moves(p, ["a", "b"])
    assert r.budget == 8 and set(r.moving) == {"a", "b"}
    assert moves(p, ["a"]).budget == 7                      # leaving the Testudo: half its 7 MF (8.8)


def test_8_95_built_up_costs_and_8_93_stairway():
    assert dest(pos([("m", "v-1-7-8", "KK29")]), ["m"], "KK28") == (3.0, ["KK29", "KK28"])
    assert dest(pos([("m", "y-regulars-5-7", "KK29")], side="jewish"), ["m"], "KK28") == (2.0, ["KK29", "KK28"])
    assert dest(pos([("m", "x-1-7-8", "DD20")]), ["m"], "DD19") == (2.0, ["DD20", "DD19"])   # Stairway hexside
    assert dest(pos([("m", "x-1-7-8", "Z22")]), ["m"], "AA22") == (None, "8.93")             # no way up


def test_8_91_gates_closed_to_the_enemy():
    assert dest(pos([("m", "v-1-7-8", "RR35")]), ["m"], "QQ36") == (None, "8.91")
    p = pos([("m", "y-regulars-5-7", "PP37")], side="jewish")
    assert dest(p, ["m"], "QQ36") == (2.0, ["PP37", "QQ36"])                # up the inherent Stairway
    assert dest(p, ["m"], "RR35") == (2.0, ["PP37", "QQ36", "RR35"])       # through at Ground level


def test_7_32_7_4_soft_zoc_and_7_311_rigid():
    p = pos([("hq", "v-hq", "M23"), ("inf", "v-1-7-8", "M23"), ("j", "y-regulars-5-7", "N23")])
    z = set(zoc(p).enemy("roman"))
    start = p.game.map.resolve("M23")
    name = p.game.map.name
    assert start in z
    enemy = p.game.map.resolve("N23")
    free = next(n for n in start.neighbors() if n not in z and n != enemy and n in p.game.map.hexes)
    other = next(n for n in start.neighbors() if n in z)
    assert dest(p, ["hq"], name(free))[0] == 1.0                           # 7.321: out to a free hex, no extra
    direct = [st for st in SiegeMove(p, [p.by_id["hq"]]).steps(start, 0) if st.to == other]
    assert [st.cost for st in direct] == [8]                               # 7.321, 7.32: ZOC to ZOC, 1 + 3 MF
    assert dest(p, ["hq"], name(other))[0] == 2.0                          # cheaper round a free hex
    blocked = [st for st in SiegeMove(p, [p.by_id["inf"]]).steps(start, 0) if st.to == other]
    assert [st.reason.rule for st in blocked] == ["7.311"]                 # not straight from ZOC to ZOC
    r = moves(p, ["inf"])
    assert r.destinations[other].stop.rule == "7.31"                      # round a free hex, and stop (7.311)


def test_8_13_double_cost_through_full_hexes_and_17_21_panic():
    full = [("a", "v-2-7-8", "J23"), ("b", "v-2-6-8", "J23"), ("c", "v-2-5-8", "J23")]
    p = pos([("m", "v-1-7-8", "I23")] + full)
    assert dest(p, ["m"], "J23") == (None, "6")                           # may not end overstacked
    r = moves(p, ["m"])
    k = r.destinations[p.game.map.resolve("K23")]
    assert (k.mp, [p.game.map.name(h) for h in k.path]) == (3.0, ["I23", "J23", "K23"])   # 2 + 1 (8.13)
    pp = pos([("m", "v-1-7-8", "I23"), ("pan", "v-2-7-8", "J23", "panicked")])
    r = moves(pp, ["m"])
    assert r.destinations[pp.game.map.resolve("J23")].stop.rule == "17.21"


def test_18_92_flight_and_escape():
    # a Fresh Jewish Regular on the Third Wall AA22; Z22 is Ground outside the city
    no = pos([("j", "y-regulars-5-7", "AA22")], side="jewish")
    yes = pos([("j", "y-regulars-5-7", "AA22")], side="jewish", params={"flight": True})
    assert dest(no, ["j"], "Z22")[1] != ["AA22", "Z22"]
    assert dest(yes, ["j"], "Z22") == (4.0, ["AA22", "Z22"])


def test_type_prohibitions_6_2_8_4_8_5_2_45_5_3():
    assert dest(pos([("c", "v-cavalry", "Z22")]), ["c"], "AA22") == (None, "6.2")
    assert moves(pos([("a", "v-ballista", "M23")]), ["a"]).refused.rule == "8.4"
    assert moves(pos([("a", "jw-catapult", "AA22")], side="jewish"), ["a"]).refused.rule == "8.4"
    assert dest(pos([("a", "cauldron", "AA22")], side="jewish"), ["a"], "Z23") == (1.0, ["AA22", "Z23"])
    assert dest(pos([("a", "cauldron", "AA22")], side="jewish"), ["a"], "Z22")[0] is None
    assert moves(pos([("e", "v-ram", "M23", "disrupted"), ("a", "v-1-7-8", "M23", "pushing")]), ["e"]).refused.rule \
        == "2.45"
    assert moves(pos([("e", "v-ram", "M23"), ("a", "x-1-7-8", "M23", "pushing")]), ["e"]).refused.rule == "8.6"
    r = moves(pos([("e", "v-ram", "M23"), ("a", "v-1-7-8", "M23", "pushing")]), ["e"])
    assert set(r.moving) == {"e", "a"} and r.budget == 6                   # the Ram's 3 MF, with its pusher
    p = pos([("m", "v-1-7-8", "L23", "out_of_cc"), ("j", "y-regulars-5-7", "N23")])
    assert dest(p, ["m"], "M23") == (None, "5.3")


def _walk(p, ids, d):
    rules = SiegeMove(p, [p.by_id[u] for u in ids])
    cost, mode, path = 0, None, d.path
    for a, b in zip(path, path[1:]):
        step = min((s for s in rules.steps(a, cost, mode) if hasattr(s, "cost") and s.to == b),
                   key=lambda s: s.cost)
        cost, mode = cost + step.cost, step.mode
    return cost


def test_properties_paths_priced_more_mf_never_shrinks_check_accepts_moves():
    rng = random.Random(70)
    starts = ["M23", "KK29", "PP37", "DD20", "AA22", "W35"]
    for h in starts:
        for side, counter in (("roman", "v-1-7-8"), ("jewish", "y-regulars-5-7")):
            units = [("m", counter, h), ("far", "titus" if side == "roman" else "eliezer-ben-yair", "H23")]
            p = pos(units, side=side)
            r = moves(p, ["m"])
            for d in rng.sample(sorted(r.destinations.values(), key=lambda d: d.hex), min(8, len(r.destinations))):
                assert _walk(p, ["m"], d) == d.cost
                moved = p.moved({"m": p.by_id["m"].__class__(**{**p.by_id["m"].__dict__, "hex": d.hex})})
                assert [v for v in check(moved) if "m" in v.units] == []
            less = pos([{"id": "m", "counter": counter, "hex": h, "spent": 2}, units[1]], side=side)
            assert set(moves(less, ["m"]).destinations) <= set(r.destinations)


# -- issue 13, the movement items finished later ------------------------------------------------------------

def _off(uid, counter, **kw):
    return {"id": uid, "counter": counter, "hex": None, "box": "off_map", **kw}


def test_3_3_entering_the_map_by_the_recorded_edge():
    p = pos([_off("a", "v-1-7-8"), ("hq", "v-hq", "M23")], params={"off_map_entry": "V:west"})
    r = moves(p, ["a"], enter="H30")
    name = p.game.map.name
    got = {name(k): v.mp for k, v in r.destinations.items()}
    assert r.refused is None and got["H30"] == 1.0 and got["I30"] == 2.0   # the edge hex costs its terrain only
    assert moves(p, ["a"], enter="ZZ58").refused.rule == "3.3"              # not the recorded edge
    every = {name(k) for k in moves(p, ["a"]).destinations}                 # no --enter: any hex of that edge
    assert {"H23", "H30", "H50"} <= every
    assert moves(pos([_off("a", "v-1-7-8")]), ["a"], enter="H30").refused.rule == "3.3"   # nothing recorded
    late = pos([_off("a", "v-1-7-8")], params={"off_map_entry": "V:west:3"})
    assert moves(late, ["a"], enter="H30").refused.rule == "3.3"            # its recorded turn is AP I/3
    j = pos([_off("j", "y-regulars-5-7")], side="jewish", params={"off_map_entry": "Y:west"})
    assert moves(j, ["j"], enter="H30").refused.rule == "8.14"              # Jews that left never return


def test_8_14_leaving_the_map_costs_one_mf_more():
    p = pos([("a", "v-1-7-8", "H30")])
    r = moves(p, ["a"])
    (e,) = r.exits.values()
    assert e.mp == 1.0 and p.game.map.name(e.hex) == "H30"                  # from where it stands, as a Clear hex
    tired = pos([{"id": "a", "counter": "v-1-7-8", "hex": "H30", "spent": 7}])
    assert moves(tired, ["a"]).exits == {}                                  # no MF left to pay for it


def test_8_2_one_unit_at_a_time():
    moving = pos([{"id": "a", "counter": "v-1-7-8", "hex": "M23", "flags": ["moved"], "spent": 2},
                  ("b", "v-2-7-8", "M30")], params={"moving": "a"})
    r = moves(moving, ["a"])
    assert r.refused is None and r.budget == 10                             # still moving: its 5 MF left
    done = pos([{"id": "a", "counter": "v-1-7-8", "hex": "M23", "flags": ["moved"], "spent": 2},
                ("b", "v-2-7-8", "M30")], params={"moving": "b"})
    assert moves(done, ["a"]).refused.rule == "8.2"                        # another unit began to move


def test_8_7_ladder_uses_per_phase():
    full = pos([("base", "v-1-7-8", "Z22", "ladder_base"), ("m", "v-2-7-8", "Y22")],
               [{"marker": "ladder", "hex": "Z22", "value": "full"}])
    assert dest(full, ["m"], "AA22")[0] is None                             # two units used it this phase
    one = [{"marker": "ladder", "hex": "Z22", "value": 1}]
    p = pos([("base", "v-1-7-8", "Z22", "ladder_base"), ("m", "v-2-7-8", "Y22"), ("n", "v-2-6-8", "Y22")], one)
    assert dest(p, ["m"], "AA22") == (7.0, ["Y22", "Z22", "AA22"])          # one use left
    assert dest(p, ["m", "n"], "AA22")[0] is None                           # not two


def test_8_7_climbing_from_the_foot_of_a_ladder():
    lad = [{"marker": "ladder", "hex": "Z22"}]
    p = pos([("base", "v-1-7-8", "Z22", "ladder_base"), ("m", "v-2-7-8", "Z22")], lad)
    assert dest(p, ["m"], "AA22") == (6.0, ["Z22", "AA22"])                 # 4 MF up the Ladder, 2 to the wall


def test_8_61_tower_stepped_off_no_longer_moves():
    p = pos([{"id": "tw", "counter": "x-tower", "hex": "EE18", "flags": ["facing_s", "stepped_off"]},
             ("p", "x-1-7-8", "EE18", "pushing")])
    assert moves(p, ["tw"]).refused.rule == "8.61"


def test_8_4_artillery_that_began_the_assault_period_elevated():
    p = pos([("a", "v-ballista", "M23", "disrupted", "ap_elevated")])
    assert moves(p, ["a"]).refused.rule == "8.4"
    assert moves(pos([("a", "v-ballista", "M23", "disrupted")]), ["a"]).refused is None


def test_8_8_joining_a_testudo_by_entering_its_hex():
    p = pos([("a", "v-1-7-8", "M23", "testudo"), ("b", "v-1-6-8", "M23", "testudo"), ("c", "v-2-7-8", "L23")],
            [{"marker": "testudo", "hex": "M23"}])
    r = moves(p, ["c"])
    d = r.destinations[p.game.map.resolve("M23")]
    assert d.mp == 7.0 and d.stop.rule == "8.8"                             # 1 MF for the hex and 6 to join


def _act(p, ids):
    from toolkit.games.siege import actions
    return {a.action: a for a in actions(p, ids)}


def test_6_6_8_8_forming_and_disbanding_a_testudo():
    from toolkit.games.siege import apply_action
    p = pos([("a", "v-1-7-8", "M23"), ("b", "v-2-7-8", "M23"), ("hq", "v-hq", "K23")])
    form = _act(p, ["a", "b"])["form_testudo"]
    assert form.legal and form.mf == 6 and form.rule == "8.8"
    formed = apply_action(p, form)
    assert formed.by_id["a"].has("testudo") and formed.markers_at(formed.by_id["a"].hex, "testudo")
    assert moves(formed, ["a", "b"]).budget == 2                            # 8.8: one MF left
    mixed = pos([("a", "v-1-7-8", "M23"), ("b", "x-2-7-8", "M23")])
    assert _act(mixed, ["a", "b"])["form_testudo"].reason.rule == "6.6"     # different Legions
    dis = pos([("a", "v-1-7-8", "M23"), ("b", "v-2-7-8", "M23", "disrupted")])
    assert not _act(dis, ["a", "b"])["form_testudo"].legal
    occ = pos([("a", "v-1-7-8", "M23", "out_of_cc"), ("b", "v-2-7-8", "M23", "out_of_cc")])
    assert _act(occ, ["a", "b"])["form_testudo"].reason.rule == "5.3"
    t = pos([("a", "v-1-7-8", "M23", "testudo"), ("b", "v-2-7-8", "M23", "testudo"), ("hq", "v-hq", "K23")],
            [{"marker": "testudo", "hex": "M23"}])
    dis = _act(t, ["a", "b"])["disband_testudo"]
    assert dis.legal and dis.mf == 6
    after = apply_action(t, dis)
    assert not after.by_id["a"].has("testudo") and not after.markers_at(after.by_id["a"].hex, "testudo")
    moved = pos([{"id": "a", "counter": "v-1-7-8", "hex": "M23", "flags": ["testudo", "moved"], "spent": 1},
                 {"id": "b", "counter": "v-2-7-8", "hex": "M23", "flags": ["testudo", "moved"], "spent": 1}],
                [{"marker": "testudo", "hex": "M23"}], params={"moving": "a,b"})
    assert _act(moved, ["a", "b"])["disband_testudo"].reason.rule == "8.8"  # only before it moves


def test_6_5_8_7_placing_and_withdrawing_a_ladder():
    from toolkit.games.siege import apply_action
    p = pos([("a", "v-1-7-8", "Z22"), ("hq", "v-hq", "X23")])
    place = _act(p, ["a"])["place_ladder"]
    assert place.legal and place.mf == 4
    after = apply_action(p, place)
    assert after.by_id["a"].has("ladder_base") and after.markers_at(after.by_id["a"].hex, "ladder")
    assert _act(pos([("a", "v-1-7-8", "M23")]), ["a"])["place_ladder"].reason.rule == "8.7"   # no wall beside
    assert not _act(pos([("a", "v-cavalry", "Z22")]), ["a"])["place_ladder"].legal
    lad = [{"marker": "ladder", "hex": "Z22"}]
    b = pos([("a", "v-1-7-8", "Z22", "ladder_base"), ("hq", "v-hq", "X23")], lad)
    w = _act(b, ["a"])["withdraw_ladder"]
    assert w.legal and w.mf == 4
    assert not apply_action(b, w).markers_at(b.by_id["a"].hex, "ladder")
    up = pos([("a", "v-1-7-8", "Z22", "ladder_base"), ("c", "v-2-7-8", "Z22", "on_ladder")], lad)
    assert _act(up, ["a"])["withdraw_ladder"].reason.rule == "8.7"          # someone on top


def test_12_4_a_damaged_gate_costs_a_full_mf_only_for_its_own_hex():
    # W35 -> W36 (the Damascus Gate) -> W37 along the city road: ½ + ½ MF; with the Gate damaged to half its
    # Breach Defence (6 of 12) its own hex costs a full MF, and the step out of it still goes at the road's ½
    def w37(damage):
        markers = [{"marker": "breach_damage", "hex": "W36", "value": damage}] if damage else []
        return dest(pos([("a", "y-regulars-5-7", "W35")], markers=markers, side="jewish"), ["a"], "W37")
    assert w37(0) == (1.0, ["W35", "W36", "W37"])
    assert w37(5) == (1.0, ["W35", "W36", "W37"])          # under half: the road rate stands
    assert w37(6) == (1.5, ["W35", "W36", "W37"])


def _refused_by(r, p, rule):
    name = p.game.map.name
    return {name(h): why.message for h, why in r.unreachable.items() if why.rule == rule}


def test_18_4_garrisons_never_leave_their_area():
    p = pos([("a", "af-regulars", "KK33")], side="jewish")
    r = moves(p, ["a"])
    name = p.game.map.name
    assert sorted(name(h) for h in r.destinations) == [
        "II34", "II35", "II36", "JJ33", "JJ34", "JJ35", "KK32", "KK34", "KK35", "LL31", "LL32", "LL33", "LL34"]
    refused = _refused_by(r, p, "18.4")
    assert sorted(refused) == ["HH34", "HH35", "HH36", "HH37", "II37", "JJ36", "KK31", "KK36", "LL30", "LL35",
                               "MM30", "MM31", "MM32", "MM33", "MM34"]
    assert refused["MM34"] == "Garrisons never leave their assigned Area: a (AF) may not enter MM34 (Temple District)"
    assert refused["KK31"] == "Garrisons never leave their assigned Area: a (AF) may not enter KK31 (New City)"
    # Herod's Palace Garrison at P55: the hexes beyond its Area's edge, inside and outside the city
    hp = pos([("g", "hp-regulars", "P55")], side="jewish")
    assert sorted(_refused_by(moves(hp, ["g"]), hp, "18.4")) == [
        "O49", "O50", "O51", "O52", "O53", "O54", "O55", "O56", "P48", "P56", "Q47", "R47", "S47", "S48", "S49",
        "S50", "T50", "T53", "U50", "U51", "U52"]


def test_18_4_the_temple_and_antonia_garrisons_share_four_hexes():
    from toolkit.games.siege.movement import facts_for, garrison_hexes
    from toolkit.games.siege.tables import load_tables
    p = pos([("t", "tq-regulars", "KK36")], side="jewish")
    tables = load_tables(p.game.folder)
    facts = facts_for(p, tables)
    shared = garrison_hexes(facts, tables, "AF") & garrison_hexes(facts, tables, "TQ")
    assert sorted(map(p.game.map.name, shared)) == ["II36", "JJ35", "KK35", "LL34"]
    assert len(shared) == tables.garrisons["shared_hexes"]                          # 18.4: four hexes
    r = moves(p, ["t"])
    name = p.game.map.name
    got = {name(h) for h in r.destinations}
    assert {"II36", "JJ35", "KK35", "LL34"} <= got                                   # the Antonia's south wall
    refused = _refused_by(r, p, "18.4")
    assert {"II35", "JJ34", "KK34", "LL33"} <= set(refused)                         # the rest of the Antonia
    assert refused["LL33"] == ("Garrisons never leave their assigned Area: t (TQ) may not enter LL33 "
                               "(Antonia Fortress)")


def test_18_4_the_check_accepts_every_destination_of_a_garrison():
    from dataclasses import replace
    for uid, counter, at in [("a", "af-regulars", "KK33"), ("t", "tq-regulars", "KK36"), ("g", "hp-regulars", "P55")]:
        p = pos([(uid, counter, at)], side="jewish")
        r = moves(p, [uid])
        assert r.destinations
        for h in r.destinations:
            assert check(p.moved({uid: replace(p.by_id[uid], hex=h)})) == [], (uid, p.game.map.name(h))
        for h in _refused_by(r, p, "18.4"):
            got = check(p.moved({uid: replace(p.by_id[uid], hex=p.game.map.resolve(h))}))
            assert [v.rule for v in got] == ["18.4"], (uid, h)


def _demo():
    from pathlib import Path
    from toolkit.games import load_game_position
    return load_game_position(Path(__file__).resolve().parent.parent / "modules" / "siege-of-jerusalem" / "scenarios"
                              / "demonstration.yaml")


def _move(p, ids, to):
    from toolkit.game.actions import Action, apply
    return apply(p, Action("move", tuple(ids), to)).position


def _flags(p, prefix):
    return {u.id: sorted(u.flags) for u in p.units if u.id.startswith(prefix)}


def test_8_8_16_4_leaving_a_testudo_and_the_testudo_left_too_weak():
    demo = _demo()                                           # the Testudo of r-x-3-5/6/7-8 in BB19
    one = _move(demo, ["r-x-3-5-8"], "BB18")
    assert _flags(one, "r-x-3") == {"r-x-3-5-8": [], "r-x-3-6-8": ["testudo"], "r-x-3-7-8": ["testudo"]}
    assert check(one) == []
    two = _move(one, ["r-x-3-6-8"], "AA19")                 # one Fresh Heavy Infantry left: it disbands (16.4)
    assert _flags(two, "r-x-3") == {"r-x-3-5-8": [], "r-x-3-6-8": [], "r-x-3-7-8": ["broken_testudo"]}
    assert not [m for m in two.markers if m.marker == "testudo"] and check(two) == []
    whole = _move(demo, ["r-x-3-5-8", "r-x-3-6-8", "r-x-3-7-8"], "BB18")          # the marker goes along
    assert [demo.game.map.name(m.hex) for m in whole.markers if m.marker == "testudo"] == ["BB18"]
    assert {u.id: u.spent for u in whole.units if u.id.startswith("r-x-3")} == {
        "r-x-3-5-8": 1.0, "r-x-3-6-8": 1.0, "r-x-3-7-8": 1.0}


def test_6_4_8_61_a_unit_beneath_a_siege_engine_pushes_it_and_the_crew_pays_double():
    p = pos([{"id": "tw", "counter": "x-tower", "hex": "EE18", "flags": ["facing_s"]},
             ("p", "x-1-7-8", "EE18", "pushing"), ("m", "x-2-7-8", "DD18"), ("v", "v-2-7-8", "DD18")])
    joined = _move(p, ["m"], "EE18")
    assert _flags(joined, "m") == {"m": ["pushing"]} and check(joined) == []
    assert str(moves(p, ["v"]).why_not(p.game.map.resolve("EE18"))) == (
        "only units of tw's Legion push a Siege Tower: others may pass through but not stop (6.42)")
    moved = _move(joined, ["tw"], "EE17")                  # 1 MF for the Tower, 2 MF for each of its crew (8.61)
    assert {u.id: u.spent for u in moved.units if u.id in ("tw", "p", "m")} == {"tw": 1.0, "p": 2.0, "m": 3.0}
    assert check(moved) == []
    full = pos([{"id": "tw", "counter": "x-tower", "hex": "EE18", "flags": ["facing_s"]},
                ("p", "x-1-7-8", "EE18", "pushing"), ("m", "x-2-7-8", "DD18"), ("n", "x-2-6-8", "DD18")])
    assert str(moves(full, ["m", "n"]).why_not(full.game.map.resolve("EE18"))) == (
        "at most 2 units (plus one HQ) push tw, and 1 push it already (6.4)")
    tired = pos([{"id": "tw", "counter": "x-tower", "hex": "EE18", "flags": ["facing_s"]},
                 ("m", "x-2-7-8", "DD18", "disrupted")])
    assert moves(tired, ["m"]).why_not(tired.game.map.resolve("EE18")).rule == "16.52"


def test_8_7_a_unit_ending_in_a_ladder_hex_climbs_the_ladder():
    p = pos([("base", "v-1-7-8", "Z22", "ladder_base"), ("m", "v-2-7-8", "Y22")], [{"marker": "ladder", "hex": "Z22"}])
    # 1 MF into Z22 and 4 MF onto the Ladder (8.7): staying beneath it is not offered
    assert dest(p, ["m"], "Z22") == (5.0, ["Y22", "Z22"])
    up = _move(p, ["m"], "Z22")
    assert _flags(up, "m") == {"m": ["on_ladder"]} and check(up) == []
