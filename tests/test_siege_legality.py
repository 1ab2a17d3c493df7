"""Siege of Jerusalem position check: stacking (6, 6.3-6.7, 8.95), engines, Ladders, Testudos, where units may be."""
from siege_positions import pos

from toolkit.games.siege import check, check_json


def rules(p):
    return sorted(v["rule"] for v in check_json(check(p))["violations"])


def test_clear_case_of_6():
    # 6: three Infantry, one Artillery and one HQ in a Clear hex
    ok = [("a", "v-1-7-8", "M23"), ("b", "v-1-6-8", "M23"), ("c", "v-1-5-8", "M23"), ("art", "v-ballista", "M23"),
          ("hq", "v-hq", "M23")]
    assert rules(pos(ok)) == []
    assert rules(pos(ok + [("d", "v-2-7-8", "M23")])) == ["6"]
    assert rules(pos(ok + [("art2", "v-onager", "M23")])) == ["6.3"]
    assert rules(pos(ok + [("t", "titus", "M23")])) == ["6"]


def test_bastion_two_wall_one_8_95_built_up_two():
    b = "QQ49"   # a Bastion (9.52)
    assert rules(pos([("a", "y-regulars-5-7", b), ("b", "y-militia-2-6", b)], side="jewish")) == []
    assert rules(pos([("a", "y-regulars-5-7", b), ("b", "y-militia-2-6", b), ("c", "zealots-7-7", b)],
                     side="jewish")) == ["6"]
    bu = "KK28"  # Built-up
    assert rules(pos([("a", "v-1-7-8", bu), ("b", "v-1-6-8", bu)])) == []
    assert rules(pos([("a", "v-1-7-8", bu), ("b", "v-1-6-8", bu), ("c", "v-1-5-8", bu)])) == ["8.95"]


def test_6_3_fortress_artillery_and_cauldron():
    f = "P55"    # Mariamne, a Fortress (6.7 example)
    units = [("r1", "y-regulars-5-7", f), ("r2", "y-regulars-5-7", f), ("r3", "y-regulars-5-7", f),
             ("c", "cauldron", f), ("yair", "eliezer-ben-yair", f), ("cat", "jw-catapult", f)]
    assert rules(pos(units, side="jewish")) == []
    assert rules(pos(units + [("c2", "cauldron", f)], side="jewish")) == ["6.3"]


def test_6_4_engines_and_6_5_ladders():
    eng = [("ram", "v-ram", "M23"), ("a", "v-1-7-8", "M23", "pushing"), ("b", "v-1-6-8", "M23", "pushing")]
    assert rules(pos(eng)) == []
    assert rules(pos(eng + [("c", "v-1-5-8", "M23", "pushing")])) == ["6.4"]
    assert rules(pos(eng + [("c", "v-1-5-8", "M23")])) == ["6.4"]
    assert rules(pos(eng + [("c", "v-1-5-8", "M23", "riding")])) == ["6.41"]
    lad = [{"marker": "ladder", "hex": "Z22"}]
    assert rules(pos([("base", "v-1-7-8", "Z22", "ladder_base"), ("up", "v-1-6-8", "Z22", "on_ladder")], lad)) == []
    assert "6.5" in rules(pos([("j", "y-regulars-5-7", "Z22")], lad, side="jewish"))
    assert rules(pos([], lad)) == ["8.7"]


def test_6_6_testudo_make_up():
    t = [("a", "v-1-7-8", "M23", "testudo"), ("b", "v-1-6-8", "M23", "testudo")]
    assert rules(pos(t)) == []
    assert rules(pos(t[:1])) == ["6.6"]
    assert rules(pos(t[:1] + [("x", "x-1-7-8", "M23", "testudo")])) == ["6.6"]


def test_units_where_they_may_not_be():
    assert rules(pos([("cav", "v-cavalry", "AA22")])) == ["6.2"]                         # Cavalry on a wall
    assert rules(pos([("cav", "v-cavalry", "M23"), ("a", "v-1-7-8", "M23")])) == ["6.1", "6.2"][1:]
    assert rules(pos([("cat", "jw-catapult", "M23")], side="jewish")) == ["8.4"]           # Jewish Artillery
    assert rules(pos([("c", "cauldron", "M23")], side="jewish")) == ["8.5"]
    assert rules(pos([("g", "tq-regulars", "M23")], side="jewish")) == ["18.4"]           # Garrison outside
    assert rules(pos([("r", "v-1-7-8", "M23"), ("j", "y-regulars-5-7", "M23")])) == ["8.11"]
