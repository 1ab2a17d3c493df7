"""Jerusalem! combat calculator: the rulebook's worked examples, encoded exactly (positions built in the test).

Hexes are of the bundled reconstructed map: 0210/0211/0212 ... are clear level-0 hexes with clear
neighbours (no terrain modifier); 1913 is the Latrun Police Fort (hill 1, and a stream hex on this map).
"""
from fractions import Fraction

import pytest

from toolkit.game import PositionFile, position_from_file
from toolkit.game.module import modules_dir
from toolkit.games.jerusalem.combat import combat, combat_json, kill_chance, odds, ratio
from toolkit.games.jerusalem.tables import load_tables

pytestmark = pytest.mark.skipif(not (modules_dir() / "jerusalem-1948" / "tables.yaml").is_file(),
                                reason="the jerusalem-1948 game module is not present")


def pos(*units, turn="May IV", phasing="jewish", phase="overland"):
    return position_from_file(PositionFile(
        game="jerusalem-1948", turn=turn, phase=phase, phasing_side=phasing,
        units=[{"id": u[0], "counter": u[1], "hex": u[2], "flags": list(u[3]) if len(u) > 3 else [],
                "carried_by": u[4] if len(u) > 4 else None} for u in units]))


def mods(res):
    return {m.id: m.value for m in res.modifiers}


# -- 9.4.3 / 9.4.4 ---------------------------------------------------------------------------
@pytest.mark.parametrize("a, d, column", [
    (5, 3, "1-1"), (10, 3, "3-1"), (5, 6, "1-2"),      # 9.4.3 examples
    (10, 2, "4-1"), (11, 2, "4-1"),                      # 9.4.4: 5-1 -> 4-1 (10.4.2: 11-2 is 5-1, resolved 4-1)
    (11, 1, "10-1"), (30, 2, "10-1"),                    # 9.4.4: 11-1 and more -> 10-1
    (7, 1, "6-1"), (9, 1, "8-1"), (3, 2, "1-1"),         # no 7-1 / 9-1 columns; 10.5.2: 3-2 is 1-1
    (12, 4, "3-1"), (10, 4, "2-1"), (8, 4, "2-1"),      # 9.7.1 example
    (18, 12, "1-1"), (24, 4, "6-1"), (14, 12, "1-1"),   # 9.7.2 example
    (16, 12, "1-1"), (12, 4, "3-1"),                     # 12.7 example
    (8, 2, "4-1"), (2, 4, "1-2"), (8, 12, "1-2"),       # 9.11 and 9.5 examples
])
def test_odds_columns(a, d, column):
    assert odds(a, d) == column


def test_ratio_and_below_the_table():
    assert ratio(11, 2) == "5-1" and odds(11, 2) == "4-1"
    assert ratio(2, 5) == "1-3" and odds(2, 5) == "1-3"  # below 1-2: not a column (automatic miss)
    assert odds(Fraction(3, 2), 1) == "1-1"
    with pytest.raises(ValueError):
        odds(0, 3)


@pytest.mark.parametrize("column, p", [("1-2", Fraction(1, 6)), ("1-1", Fraction(2, 6)), ("2-1", Fraction(3, 6)),
                                       ("3-1", Fraction(4, 6)), ("4-1", Fraction(5, 6)), ("6-1", 1), ("8-1", 1),
                                       ("10-1", 1), ("1-3", 0)])
def test_crt_kill_probability_unmodified(column, p):
    assert kill_chance(column, 0)[1] == p


def test_crt_with_modifiers():
    assert kill_chance("3-1", 4) == (0, 0)          # 9.5 Latrun: +4 at 3-1 never kills
    assert kill_chance("8-1", 4) == (3, Fraction(1, 2))
    assert kill_chance("10-1", 4) == (6, 1)         # 10-1: any modified roll
    assert kill_chance("1-2", -1) == (2, Fraction(1, 3))
    assert kill_chance("6-1", -3) == (6, 1)
    assert load_tables().crt["4-1"] == 5


# -- 9.5 ---------------------------------------------------------------------------------------
def test_latrun_fort_all_attackers_below_is_plus_four():
    units = [("al", "al-12-8-4r", "1913"), ("h1", "hgh-4-6", "1814"), ("h2", "hgh-4-6", "1912"),
             ("h3", "hgh-4-6", "2013")]
    res = combat(pos(*units), ["h1", "h2", "h3"], ["al"], protected=["al"])
    assert res.refused is None
    assert mods(res) == {"higher_terrain": 1, "police_fort_protected": 3} and res.total_modifier == 4
    assert (res.attack, res.defence, res.odds) == (12, 12, "1-1") and res.kills_on == 0 and res.probability == 0
    # One attacker from the level-1 Latrun village hex removes the higher-terrain +1 (9.6).
    units[1] = ("h1", "hgh-4-6", "1914")
    res = combat(pos(*units), ["h1", "h2", "h3"], ["al"], protected=["al"])
    assert mods(res) == {"police_fort_protected": 3}
    # Not declared protected: no fort benefit (9.6.3); the reconstructed fort hex is a stream hex (+1).
    res = combat(pos(*units), ["h1", "h2", "h3"], ["al"])
    assert mods(res) == {"stream": 1}


def test_fort_unusable_before_may_iii_and_protection_limit():
    units = [("al", "al-12-8-4r", "1913"), ("h1", "hgh-4-6", "1814")]
    res = combat(pos(*units, turn="May II"), ["h1"], ["al"], protected=["al"])
    assert "police_fort_protected" not in mods(res)                       # 9.6.2
    three = [("a1", "al-12-8-4r", "1913"), ("a2", "al-12-8-4r", "1913"), ("a3", "al-12-8-4r", "1913"),
             ("h1", "hgh-4-6", "1814")]
    res = combat(pos(*three), ["h1"], ["a1", "a2", "a3"], protected=["a1", "a2", "a3"])
    assert res.refused.rule == "9.6"


# -- 9.7.1 -------------------------------------------------------------------------------------
def test_defensive_first_fire_example_9_7_1():
    units = [("gar", "a-gar-6-0", "0211"), ("m1", "mufti-2-8", "0211"), ("m2", "mufti-2-8", "0211"),
             ("h1", "hgh-4-6", "0210"), ("h2", "hgh-4-6", "0212"), ("h3", "hgh-4-6", "0311")]
    p = pos(*units)
    res = combat(p, ["h1", "h2", "h3"], ["m1", "m2"])
    assert (res.attack, res.defence, res.odds, res.modifiers) == (12, 4, "3-1", [])
    ff = combat(p, ["gar", "m1", "m2"], ["h1"], kind="first_fire")
    assert (ff.attack, ff.defence, ff.odds, ff.probability) == (10, 4, "2-1", Fraction(1, 2))
    after = combat(p, ["h2", "h3"], ["m1", "m2"])   # one 4-6 eliminated: 3-1 becomes 2-1
    assert (after.attack, after.odds) == (8, "2-1")
    assert combat(p, ["gar"], ["h1"]).refused.rule == "9.2"               # not the garrison's turn to attack
    res = combat(pos(*units, phasing="arab"), ["gar"], ["h1"])
    assert res.refused.rule == "9.4.1"                                    # garrisons never attack


# -- 9.7.2 -------------------------------------------------------------------------------------
def test_defensive_first_fire_example_9_7_2():
    units = [("ac", "j-ac-4-30", "0211"), ("h1", "hgh-4-6", "0211"), ("h2", "hgh-4-6", "0211"),
             ("g", "j-gar-6-0", "0211"), ("l1", "al-12-8-6r", "0210"), ("l2", "al-12-8-6r", "0212")]
    p = pos(*units, phasing="arab")
    ff = combat(p, ["ac", "h1", "h2", "g"], ["l1"], kind="first_fire")
    assert (ff.attack, ff.defence, ff.odds) == (18, 12, "1-1")
    att = combat(p, ["l1", "l2"], ["ac"])
    assert (att.attack, att.defence, att.odds) == (24, 4, "6-1") and att.probability == 1
    ff2 = combat(p, ["h1", "h2", "g"], ["l1"], kind="first_fire")   # the armored car is gone
    assert (ff2.attack, ff2.odds) == (14, "1-1")
    att2 = combat(p, ["l1", "l2"], ["h1"])
    assert (att2.attack, att2.defence, att2.odds) == (24, 4, "6-1")


# -- 10.4.2 / 10.5.2 -----------------------------------------------------------------------------
def test_artillery_support_example_10_4_2():
    units = [("m1", "mufti-2-8", "0211"), ("m2", "mufti-2-8", "0211"), ("h1", "hgh-4-6", "0210"),
             ("h2", "hgh-4-6", "0212"), ("art", "j-art-3-4", "0213")]
    res = combat(pos(*units), ["h1", "h2", "art"], ["m1"])
    assert (res.attack, res.defence, res.raw_odds, res.odds) == (11, 2, "5-1", "4-1")
    assert res.probability == Fraction(5, 6) and any("9.4.4" in n for n in res.notes)
    j = combat_json(res)
    assert (j["attack"], j["defence"], j["odds"], j["kills_on"], j["refused"]) == (11, 2, "4-1", 5, None)
    far = combat(pos(*units[:4], ("art", "j-art-3-4", "0215")), ["h1", "h2", "art"], ["m1"])
    assert far.refused.rule == "1.2.1"                                   # out of range (4 hexes, range 3)


def test_artillery_duel_example_10_5_2():
    units = [("j", "j-art-3-4", "0210"), ("a", "al-art-2in", "0213")]
    p = pos(*units)
    res = combat(p, ["j"], ["a"], kind="barrage")
    assert (res.attack, res.defence, res.raw_odds, res.odds) == (3, 2, "1-1", "1-1")
    back = combat(p, ["a"], ["j"], kind="first_fire")    # Legion 2" range 2: cannot reach 3 hexes
    assert back.refused.rule == "1.2.1"


# -- 12.x leaders ----------------------------------------------------------------------------------
def test_khader_triples_the_garrison_example_12_7():
    units = [("g", "a-gar-4-0", "0211"), ("k", "khader", "0211"), ("h1", "hgh-4-6", "0210"),
             ("h2", "hgh-4-6", "0210"), ("h3", "hgh-4-6", "0212"), ("h4", "hgh-4-6", "0212"),
             ("h5", "hgh-4-6", "0212")]
    p = pos(*units)
    ff = combat(p, ["g"], ["h1"], kind="first_fire")
    assert (ff.attack, ff.odds) == (12, "3-1") and "12.6" in ff.attackers[0].how
    att = combat(p, ["h2", "h3", "h4", "h5"], ["g"])
    assert (att.attack, att.defence, att.odds) == (16, 12, "1-1")
    assert combat(p, ["h2", "h3"], ["k"]).refused.rule == "9.10"   # the leader only after the garrison


def test_leader_exceptions():
    units = [("s", "syr-3-4", "0211"), ("k", "khader", "0211"), ("h", "hgh-4-6", "0210")]
    assert combat(pos(*units), ["h"], ["s"]).defence == 3                  # 12.9.1.3
    units = [("m", "mufti-2-8", "0211"), ("k", "kaukji", "0211"), ("h", "hgh-4-6", "0210")]
    res = combat(pos(*units), ["h"], ["m"])
    assert res.defence == 1 and res.odds == "4-1"                         # 12.6 note: x½
    units = [("m", "mufti-2-8", "0211"), ("k", "ghory", "0211"), ("h", "hgh-4-6", "0210")]
    assert combat(pos(*units), ["h"], ["m"]).defence == 4                  # 12.6: x2
    units = [("e", "eef-6-6", "0211"), ("k", "ghory", "0211"), ("h", "hgh-4-6", "0210")]
    assert combat(pos(*units), ["h"], ["e"]).defence == 6                  # 12.6: not EEF
    units = [("m", "mufti-2-8", "0211", ["morale_broken"]), ("h", "hgh-4-6", "0210")]
    assert combat(pos(*units), ["h"], ["m"]).defence == 1                  # 12.8.2 abandoned


def test_shaltiel_and_tell():
    units = [("m", "mufti-2-8", "0211"), ("h", "hgh-4-6", "0210"), ("s", "shaltiel", "0210")]
    res = combat(pos(*units), ["h"], ["m"])
    assert mods(res) == {"shaltiel": -1} and (res.odds, res.kills_on) == ("2-1", 4)   # 12.9.4: 2-1 at -1
    # 12.9.2 example: a hex of Tell and two 6th Regiment units first-fires at -1.
    units = [("t", "tell", "0211"), ("l1", "al-12-8-6r", "0211"), ("l2", "al-ac-4-30-6r", "0211"),
             ("h", "hgh-4-6", "0210")]
    res = combat(pos(*units), ["l1", "l2"], ["h"], kind="first_fire")
    assert mods(res) == {"tell": -1}
    units[2] = ("l2", "al-ac-4-30-4r", "0211")                             # a 4th Regiment unit in the stack
    assert mods(combat(pos(*units), ["l1", "l2"], ["h"], kind="first_fire")) == {}


# -- 13.2 ------------------------------------------------------------------------------------------
def test_terrorist_attack_doubles_and_ignores_terrain():
    # The brief's 13.2.4 case: 10 (5 doubled) against a 4-0 garrison in a village is 2-1, no village +1.
    v = "1115"  # Deir Muhzein, a level-0 village without a stream
    units = [("i1", "irgun", v), ("i2", "irgun", v), ("st", "stern", v), ("g", "a-gar-4-0", v)]
    res = combat(pos(*units), ["i1", "i2", "st"], ["g"], kind="terrorist")
    assert (res.attack, res.defence, res.odds, res.modifiers) == (10, 4, "2-1", [])
    assert res.probability == Fraction(1, 2)
    res = combat(pos(*units, ("k", "ghory", v)), ["i1", "i2", "st"], ["g"], kind="terrorist")
    assert res.attack == 5 and res.defence == 8                            # 13.2.6 surprised; 12.6 x2


def test_terrorist_battle_goes_on_13_2_5():
    v = "1115"
    units = [("i1", "irgun", v), ("i2", "irgun", v), ("st", "stern", v), ("g", "a-gar-4-0", v, ["attacked"])]
    # The garrison survived the first fire: it fires back at the terrorists on top of it, terrain ignored ...
    back = combat(pos(*units), ["g"], ["i1", "i2", "st"], kind="first_fire")
    assert (back.refused, back.attack, back.defence, back.odds, back.modifiers) == (None, 4, 5, "1-2", [])
    # ... and the battle may go on against the same garrison (not 9.9), no longer doubled, terrain still ignored.
    on = combat(pos(*units), ["i1", "i2", "st"], ["g"], kind="terrorist_battle")
    assert (on.refused, on.attack, on.odds, on.modifiers) == (None, 5, "1-1", [])
    assert combat(pos(*units), ["i1", "i2", "st"], ["g"]).refused.rule == "9.9"    # an ordinary attack may not


# -- refusals ----------------------------------------------------------------------------------------
def test_refusals():
    base = [("m", "mufti-2-8", "0211"), ("h", "hgh-4-6", "0210")]
    assert combat(pos(*base, ("far", "hgh-4-6", "0213")), ["far"], ["m"]).refused.rule == "9.1"
    assert combat(pos(("m", "mufti-2-8", "0211"), ("h", "hgh-4-6", "0210", ["demobilized"])),
                  ["h"], ["m"]).refused.rule == "6.5.2"
    assert combat(pos(("m", "mufti-2-8", "0211"), ("t", "j-truck-1-24-3", "0210")),
                  ["t"], ["m"]).refused.rule == "1.2.1"
    # 10.3: artillery never at a leader; 14.7.1 EEF; 10.9.1 Legion artillery.
    assert combat(pos(("k", "khader", "0211"), ("art", "j-art-3-4", "0213")), ["art"], ["k"],
                  kind="barrage").refused.rule == "10.3"
    eef = [("e", "eef-6-6", "0210"), ("h", "hgh-4-6", "0211")]
    assert combat(pos(*eef, phasing="arab"), ["e"], ["h"]).refused.rule == "14.7.1"       # 6-4: 1-1
    ok = combat(pos(*eef, ("e2", "eef-6-6", "0212"), phasing="arab"), ["e", "e2"], ["h"])
    assert ok.refused is None and ok.odds == "3-1"
    mixed = [("m", "mufti-2-8", "0210"), ("art", "al-art-25lb", "0213"), ("h", "hgh-4-6", "0211")]
    assert combat(pos(*mixed, phasing="arab"), ["m", "art"], ["h"]).refused.rule == "10.9.1"
    mixed[0] = ("m", "al-12-8-4r", "0210")
    assert combat(pos(*mixed, phasing="arab"), ["m", "art"], ["h"]).refused is None
    # 10.6: artillery protected by infantry against non-artillery; not against a barrage.
    stack = [("d", "davidka", "0211"), ("h", "hgh-4-6", "0211"), ("l", "al-12-8-4r", "0210"),
             ("g", "al-art-25lb", "0213")]
    assert combat(pos(*stack, phasing="arab"), ["l"], ["d"]).refused.rule == "10.6"
    assert combat(pos(*stack, phasing="arab"), ["g"], ["d"], kind="barrage").refused is None
    # 9.11: a bus only once it first-fired.
    bus = [("b", "j-bus-3-12", "0211"), ("h", "hgh-4-6", "0211"), ("l", "al-12-8-4r", "0210")]
    assert combat(pos(*bus, phasing="arab"), ["l"], ["b"]).refused.rule == "9.11"
    assert combat(pos(*bus, phasing="arab"), ["l"], ["b"], fired=["b"]).refused is None


def test_vehicles_convoy_and_transport():
    # 10.9.2 the 6 lb gun fires with 12 at vehicles only; 11.0 the flamethrower always with 12.
    p = pos(("gun", "al-art-6lb", "0210"), ("ac", "j-ac-4-30", "0211"), ("h", "hgh-4-6", "0212"),
            ("l", "al-12-8-4r", "0213"), phasing="arab")
    assert combat(p, ["gun"], ["ac"], kind="barrage").attack == 12
    assert combat(p, ["gun"], ["h"], kind="barrage").refused.rule == "1.2.1"
    p = pos(("f", "j-ht-flame", "0210"), ("m", "mufti-2-8", "0211"))
    assert combat(p, ["f"], ["m"]).attack == 12
    # 10.8.3: the convoy shelled is (12), no -1; a unit it carries is shelled at -1 (10.8.4).
    conv = [("jc", "jc", "0211"), ("h", "hgh-4-6", "0211", [], "jc"), ("g1", "al-art-25lb", "0213"),
            ("g2", "al-art-25lb", "0213"), ("g3", "al-art-3in", "0213")]
    p = pos(*conv, phasing="jewish")
    res = combat(p, ["g1", "g2", "g3"], ["jc"], kind="first_fire")
    assert (res.attack, res.defence, res.odds, res.modifiers) == (11, 12, "1-2", [])
    res = combat(p, ["g1"], ["h"], kind="first_fire")
    assert mods(res) == {"artillery_vs_transported": -1}
    # 6.7.1 / 9.10: a lone convoy attacked by Arab non-artillery units is eliminated automatically.
    p = pos(("jc", "jc", "0211"), ("l", "al-12-8-4r", "0210"), phasing="arab")
    res = combat(p, ["l"], ["jc"])
    assert res.odds == "auto" and res.probability == 1


def test_city_and_old_city():
    # 9.6: city +2, +1 for the Legion; Old City wall +3 with every firer outside, +2 with one inside.
    p = pos(("m", "mufti-2-8", "Katamon"), ("h", "hgh-4-6", "5927"))
    assert mods(combat(p, ["h"], ["m"])) == {"city": 2}
    p = pos(("l", "al-12-8-4r", "Katamon"), ("h", "hgh-4-6", "5927"))
    assert mods(combat(p, ["h"], ["l"])) == {"city_vs_arab_legion": 1}
    p = pos(("g", "a-gar-12-0", "Arab Quarter"), ("h", "hgh-4-6", "6124"), ("h2", "hgh-4-6", "Jewish Quarter"))
    # The Arab Quarter is a level-1 hex on this map and both firers are at level 0: higher terrain adds +1.
    assert mods(combat(p, ["h"], ["g"])) == {"higher_terrain": 1, "old_city_wall_all_outside": 3}
    assert mods(combat(p, ["h", "h2"], ["g"])) == {"higher_terrain": 1, "old_city_wall_some_inside": 2}
    p = pos(("m", "mufti-2-8", "Greek Monastery"), ("m2", "mufti-2-8", "Greek Monastery"),
            ("h", "hgh-4-6", "5927"))
    assert mods(combat(p, ["h"], ["m"], protected=["m"])) == {"monastery_cathedral_protected": 3}
    assert mods(combat(p, ["h"], ["m2"], protected=["m"])) == {"monastery_cathedral_other": 2}


def test_json_is_stable():
    units = [("m", "mufti-2-8", "0211"), ("h", "hgh-4-6", "0210")]
    j = combat_json(combat(pos(*units), ["h"], ["m"]))
    assert {"attackers", "defenders", "attack", "defence", "odds", "modifiers", "total_modifier", "kills_on",
            "probability", "refused"} <= set(j)
    assert (j["attack"], j["defence"], j["odds"], j["total_modifier"], j["kills_on"], j["probability"]) == \
        (4, 2, "2-1", 0, 3, 0.5)
    j = combat_json(combat(pos(*units, phasing="arab"), ["h"], ["m"]))
    assert j["refused"]["rule"] == "9.2" and j["kills_on"] is None and j["probability"] is None


def test_first_fire_only_from_attacked_hexes_and_once_per_attack_9_4_2_9_7_2():
    from toolkit.game import load_position
    from toolkit.game.module import modules_dir
    from dataclasses import replace
    example = load_position(modules_dir() / "jerusalem-1948" / "examples" / "rule-9-7-1.yaml")
    # The Jewish player attacks the Mufti units (m1, m2); all the Arab units in that hex may first-fire (9.4.2).
    ok = combat(example, ["g", "m1", "m2"], ["h1"], kind="first_fire", attacked=["m1", "m2"])
    assert ok.refused is None and ok.odds == "2-1"
    # A second defensive first fire against the same attack is refused (9.7.2).
    fired = example.moved({"g": replace(example.by_id["g"], flags=frozenset({"first_fired"}))})
    again = combat(fired, ["g"], ["h1"], kind="first_fire", attacked=["m1"])
    assert again.refused.rule == "9.7.2"
    # A Mufti unit next door, whose hex is not attacked, may not first-fire (9.4.2).
    m = example.game.map.resolve
    apart = example.moved({"m2": replace(example.by_id["m2"], hex=m("0314"))})
    outside = combat(apart, ["m2"], ["h1"], kind="first_fire", attacked=["m1"])
    assert outside.refused.rule == "9.4.2"
