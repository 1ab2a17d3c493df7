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
