"""Jerusalem! whole combats applied (``resolve``), the candidates of the playouts (``attack_options``) and the
results applied by the retreat hook: the rulebook's worked examples and hand-checked positions with fixed dice.

Hexes as in tests/test_jerusalem_combat.py: 0210/0211/0212/0213 are clear level-0 hexes (no modifier), 1115 is
the village of Deir Muhzein.
"""
import random
from dataclasses import replace

import pytest

from test_jerusalem_combat import pos
from toolkit.answers import retreat_answer
from toolkit.game import load_position
from toolkit.game.module import modules_dir
from toolkit.games import rules_for
from toolkit.games.jerusalem import attack_options, check, resolve, retreat
from toolkit.games.jerusalem.resolve import CombatRefused

pytestmark = pytest.mark.skipif(not (modules_dir() / "jerusalem-1948" / "tables.yaml").is_file(),
                                reason="the jerusalem-1948 game module is not present")


def dice(*rolls):
    """``roll(6)`` giving these dice in order; any further die fails the test."""
    left = list(rolls)

    def roll(sides):
        assert sides == 6 and left, "an unexpected die"
        return left.pop(0)
    roll.left = left
    return roll


class Chooser:
    """``choose`` answering by question (else the first option), recording every question asked."""

    def __init__(self, answers=None):
        self.answers, self.asked = answers or {}, []

    def __call__(self, what, options):
        self.asked.append((what, list(options)))
        return self.answers.get(what, options[0])


def state(position):
    """Each unit as (hex name or box, sorted flags, carrier)."""
    name = position.game.map.name
    return {u.id: (name(u.hex) if u.hex is not None else u.box, sorted(u.flags), u.carried_by)
            for u in position.units}


def rules(notes):
    return [n["rule"] for n in notes]


KHADER = [("g", "a-gar-4-0", "0211"), ("k", "khader", "0211"), ("h1", "hgh-4-6", "0210"),
          ("h2", "hgh-4-6", "0210"), ("h3", "hgh-4-6", "0212"), ("h4", "hgh-4-6", "0212"),
          ("h5", "hgh-4-6", "0212")]
HAGANAH = ["h1", "h2", "h3", "h4", "h5"]
FIRE_AT_H1 = {"9.7.2: arab first fire at h1?": True, "9.7.2: g first-fires at h1?": True}


# -- 12.7 ---------------------------------------------------------------------------------------------------------
def test_12_7_worked_example_the_attack_fails():
    # The garrison, tripled by Khader, first-fires with 12 at one 4-6 (3-1: kills on 1-4) and rolls 1; the four
    # left attack at 16-12 (1-1: kills on 1-2) and roll 5.
    after, notes = resolve(pos(*KHADER), HAGANAH, ["g"], roll=dice(1, 5), choose=Chooser(FIRE_AT_H1))
    assert state(after) == {
        "g": ("0211", ["attacked"], None), "k": ("0211", [], None), "h1": ("eliminated", [], None),
        "h2": ("0210", ["stopped"], None), "h3": ("0212", ["stopped"], None), "h4": ("0212", ["stopped"], None),
        "h5": ("0212", ["stopped"], None)}
    assert rules(notes) == ["9.4.5", "9.4.5", "9.4.5", "9.9", "9.8.2"]
    assert "3-1" in notes[0]["text"] and "1-1" in notes[2]["text"] and "rolled 5" in notes[2]["text"]


def test_12_7_had_they_eliminated_the_garrison_khader_dies_too():
    # "If they had eliminated the Arab Garrison unit, Abdul Khader Husseini would have also been eliminated."
    # His loss costs a roll for each Mufti unit on the map (12.9.1.2): 4-6 sends it home.
    units = [*KHADER, ("m1", "mufti-2-8", "0215"), ("m2", "mufti-2-8", "0216")]
    after, notes = resolve(pos(*units), HAGANAH, ["g"], roll=dice(1, 2, 4, 3), choose=Chooser(FIRE_AT_H1))
    s = state(after)
    assert (s["g"], s["k"], s["m1"], s["m2"]) == (("eliminated", [], None), ("eliminated", [], None),
                                                  ("eliminated", [], None), ("0216", [], None))
    assert all(s[h] == (s[h][0], [], None) and s[h][0] != "eliminated" for h in HAGANAH[1:])   # a K: not stopped
    assert "12.7" in rules(notes) and rules(notes).count("12.9.1.2") == 3


def test_12_9_4_shaltiel_dies_with_his_hex():
    p = pos(("h", "hgh-4-6", "0211"), ("s", "shaltiel", "0211"), ("l", "al-12-8-4r", "0210"), phasing="arab")
    after, notes = resolve(p, ["l"], ["h"], roll=dice(1), choose=Chooser())   # 12-4 3-1, rolled 1; no first fire
    assert state(after)["s"] == ("eliminated", [], None) and "12.9.4" in rules(notes)


# -- 9.7.1, 9.9 worked examples --------------------------------------------------------------------------------------
def test_9_7_1_worked_example():
    # All the Arab units first-fire at one 4-6 at 2-1 (10-4) and eliminate it (rolled 3); the two left fire at
    # the two Mufti units at 2-1 (8-4) and eliminate them (rolled 2): not stopped, and the garrison is untouched.
    example = load_position(modules_dir() / "jerusalem-1948" / "examples" / "rule-9-7-1.yaml")
    choose = Chooser({"9.7.2: arab first fire at h1?": True, "9.7.2: g first-fires at h1?": True,
                      "9.7.2: m1 first-fires at h1?": True, "9.7.2: m2 first-fires at h1?": True})
    after, notes = resolve(example, ["h1", "h2", "h3"], ["m1", "m2"], roll=dice(3, 2), choose=choose)
    assert state(after) == {"h1": ("eliminated", [], None), "h2": ("0214", [], None), "h3": ("0113", [], None),
                            "g": ("0213", [], None), "m1": ("eliminated", [], None), "m2": ("eliminated", [], None)}
    assert "2-1 (raw 2-1)" in notes[0]["text"] and "2-1 (raw 2-1)" in notes[2]["text"]


def test_9_9_worked_example_and_no_second_attack():
    # Two 4-6 attack a 4-0 garrison; it first-fires at one of them (1-1) and misses (3); they fail at 2-1 (4).
    p = pos(("g", "a-gar-4-0", "0211"), ("m", "mufti-2-8", "0211"), ("h1", "hgh-4-6", "0210"),
            ("h2", "hgh-4-6", "0212"), ("h3", "hgh-4-6", "0213"))
    after, notes = resolve(p, ["h1", "h2"], ["g"], roll=dice(3, 4), choose=Chooser(FIRE_AT_H1))
    s = state(after)
    assert (s["g"], s["h1"], s["h2"]) == (("0211", ["attacked"], None), ("0210", ["stopped"], None),
                                          ("0212", ["stopped"], None))
    moved = after.moved({"h3": replace(after.by_id["h3"], hex=after.game.map.resolve("0311"))})
    with pytest.raises(CombatRefused) as refused:
        resolve(moved, ["h3"], ["g"], roll=dice(), choose=Chooser())
    assert refused.value.rule == "9.9" and str(refused.value).startswith("9.9: ")
    with pytest.raises(ValueError, match="^3.4: "):
        resolve(after, ["h1"], ["m"], roll=dice(), choose=Chooser())   # a stopped unit attacks no more


# -- 10.3, 12.1, 10.8.1 ---------------------------------------------------------------------------------------------
def test_artillery_alone_never_kills_a_leader_10_3_and_dummies_go_12_1():
    # A Jewish 3 artillery barrage at a Mufti unit doubled by Ghory (3-4: 1-2, kills on 1); nobody may fire back
    # (10.5 note: not adjacent, no artillery there).  Rolled 1: the Mufti unit dies, Ghory stays (10.3).
    p = pos(("m", "mufti-2-8", "0213"), ("k", "ghory", "0213"), ("a", "j-art-3-4", "0210"),
            ("d", "dummy-leader", "0313"), ("m2", "mufti-2-8", "0313"))
    choose = Chooser()
    after, notes = resolve(p, ["a"], ["m"], kind="barrage", roll=dice(1), choose=choose)
    s = state(after)
    assert (s["m"], s["k"], s["a"]) == (("eliminated", [], None), ("0213", [], None), ("0210", ["fired"], None))
    assert choose.asked == [] and rules(notes)[-1] == "10.3"
    # The retreat hook says the same of a K given by hand.
    found = retreat(p, ["m", "k"], [p.game.map.resolve("0210")], result="K")
    assert [(f.order.unit, f.eliminated.rule if f.eliminated else f.order.stays.rule) for f in found.units] == \
        [("m", "9.4.5"), ("k", "10.3")]
    # 12.1: a Jewish fire at the dummy's hex reveals and removes it, hit or miss (4-2 at 2-1, rolled 6).
    p2 = pos(("d", "dummy-leader", "0211"), ("m2", "mufti-2-8", "0211"), ("h", "hgh-4-6", "0210"))
    after, notes = resolve(p2, ["h"], ["m2"], roll=dice(6), choose=Chooser())
    assert state(after)["d"] == ("eliminated", [], None) and state(after)["m2"] == ("0211", ["attacked"], None)
    assert "12.1" in rules(notes)


def test_transport_dies_with_its_only_load_10_8_1():
    # Legion 25 lb (4) shells a 4-6 on a truck (4): 1-1 at -1 for a transported target, kills on 1-3; rolled 3.
    units = [("t", "j-truck-1-24-3", "0211"), ("h", "hgh-4-6", "0211", [], "t"), ("s", "shaltiel", "0211", [], "t"),
             ("a", "al-art-25lb", "0213")]
    p = pos(*units, phasing="arab")
    after, notes = resolve(p, ["a"], ["h"], kind="barrage", roll=dice(3), choose=Chooser())
    assert state(after) == {"t": ("eliminated", [], None), "h": ("eliminated", [], None),
                            "s": ("0211", [], None), "a": ("0213", ["fired"], None)}
    assert rules(notes) == ["9.4.5", "9.4.5", "10.8.1", "10.3"]
    found = retreat(p, ["h"], [p.game.map.resolve("0213")], result="K")
    assert [(f.order.unit, f.eliminated.rule) for f in found.units] == [("h", "9.4.5"), ("t", "10.8.1")]


# -- 9.10, 6.7.1, 6.4.1 --------------------------------------------------------------------------------------------
def test_lone_leader_and_convoy_are_eliminated_without_a_roll_9_10():
    p = pos(("k", "ghory", "0211"), ("h", "hgh-4-6", "0210"))
    after, notes = resolve(p, ["h"], ["k"], roll=dice(), choose=Chooser())
    assert state(after)["k"] == ("eliminated", [], None) and rules(notes)[0] == "9.10"
    # The retreat hook: whatever the roll, the lone leader attacked is gone.
    found = retreat(p, ["k"], [p.game.map.resolve("0210")], result="-")
    assert found.units[0].eliminated.rule == "9.10"
    # The convoy alone, attacked by Legion infantry: destroyed and placed at once at an entrance (6.4.1).
    p = pos(("jc", "jc", "0211"), ("l", "al-12-8-4r", "0210"), phasing="arab")
    choose = Chooser({"6.4.1: the eliminated convoy restarts at": "0102"})
    after, notes = resolve(p, ["l"], ["jc"], roll=dice(), choose=choose)
    assert state(after)["jc"] == ("0102", [], None) and rules(notes) == ["9.10", "6.4.1", "9.4.5"]
    assert choose.asked == [("6.4.1: the eliminated convoy restarts at", ["0102", "0215"])]


# -- 10.10, 14.7.2 ------------------------------------------------------------------------------------------------
def test_davidka_blows_up_before_it_fires_10_10():
    units = [("d", "davidka", "0210"), ("h", "hgh-4-6", "0210"), ("m", "mufti-2-8", "0211")]
    # 6: it blows up; 6 for the 4-6 in its hex: disrupted, so it may not fire; the attack fails.
    after, notes = resolve(pos(*units), ["d", "h"], ["m"], roll=dice(6, 6), choose=Chooser())
    assert state(after) == {"d": ("eliminated", [], None), "h": ("0210", ["disrupted", "stopped"], None),
                            "m": ("0211", ["attacked"], None)}
    assert "10.10" in rules(notes)
    # 6, then 2 for the 4-6 (not disrupted): it fires alone at 4-2 (2-1, kills on 1-3) and rolls 1.
    after, _ = resolve(pos(*units), ["d", "h"], ["m"], roll=dice(6, 2, 1), choose=Chooser())
    assert state(after) == {"d": ("eliminated", [], None), "h": ("0210", [], None), "m": ("eliminated", [], None)}
    # 1: the Davidka fires with the 4-6, 8-2 (4-1, kills on 1-5), rolled 5; artillery fired (10.1).
    after, _ = resolve(pos(*units), ["d", "h"], ["m"], roll=dice(1, 5), choose=Chooser())
    assert state(after) == {"d": ("0210", ["fired"], None), "h": ("0210", [], None), "m": ("eliminated", [], None)}


def test_eef_morale_14_7_2():
    units = [("e1", "eef-6-6", "0211"), ("e2", "eef-6-6", "0215"), ("h1", "hgh-4-6", "0210"),
             ("h2", "hgh-4-6", "0210"), ("h3", "hgh-4-6", "0212")]
    after, notes = resolve(pos(*units), ["h1", "h2", "h3"], ["e1"], roll=dice(1, 6), choose=Chooser())
    assert (state(after)["e1"][0], state(after)["e2"][0]) == ("eliminated", "eliminated")
    assert rules(notes)[-2:] == ["14.7.2", "14.7.2"]
    after, _ = resolve(pos(*units), ["h1", "h2", "h3"], ["e1"], roll=dice(1, 5), choose=Chooser())
    assert state(after)["e2"] == ("0215", [], None)


# -- 13.2 ------------------------------------------------------------------------------------------------------------
def test_terrorist_attack_fire_back_and_battle_13_2():
    v = "1115"
    units = [("i1", "irgun", v), ("i2", "irgun", v), ("st", "stern", v), ("g", "a-gar-4-0", v)]
    # 10-4 doubled (2-1, no village +1): rolled 5, the garrison survives and fires back at i1 (4-2, 2-1): rolled 2.
    choose = Chooser({"9.7.2: arab first fire at i1?": True, "9.7.2: g first-fires at i1?": True})
    after, notes = resolve(pos(*units), ["i1", "i2", "st"], ["g"], kind="terrorist", roll=dice(5, 2), choose=choose)
    assert state(after) == {"i1": ("eliminated", [], None), "i2": (v, [], None), "st": (v, [], None),
                            "g": (v, ["attacked"], None)}
    assert "13.2.5" in rules(notes)
    # 13.2.5: the battle goes on: the garrison first-fires (declined here), then 3-4 undoubled (1-2, kills on 1).
    missed, _ = resolve(after, ["i2", "st"], ["g"], kind="terrorist_battle", roll=dice(2), choose=Chooser())
    assert state(missed) == state(after)                                  # nobody stopped: it may go on (13.2.5)
    after, _ = resolve(after, ["i2", "st"], ["g"], kind="terrorist_battle", roll=dice(1), choose=Chooser())
    assert state(after)["g"] == ("eliminated", ["attacked"], None)


# -- the retreat hook (toolkit retreat --result CODE --apply) --------------------------------------------------------
def test_result_applied_marks_stopped_and_attacked():
    p = pos(("h", "hgh-4-6", "0210"), ("a", "mufti-2-8", "0211"))
    data = retreat_answer(p, ["a"], attackers=["h"], result="-", apply=[])
    after = {u["id"]: u for u in data["after"]["position"]["units"]}
    assert (after["a"]["flags"], after["h"]["flags"]) == (["attacked"], ["stopped"])
    assert {u["unit"]: (u["stays"] or {}).get("rule") for u in data["units"]} == {"a": "9.4.5", "h": "9.8.2"}
    data = retreat_answer(p, ["a"], attackers=["h"], result="K", apply=[])
    after = {u["id"]: u for u in data["after"]["position"]["units"]}
    assert (after["a"].get("box"), after["h"].get("flags", [])) == ("eliminated", [])


# -- the hooks of docs/plugins.md -------------------------------------------------------------------------------------
def test_attack_options_and_rules_for():
    p = pos(*KHADER, ("a", "j-art-3-4", "0510"), ("far", "j-art-3-4", "0910"))
    assert attack_options(p) == [(("a",), ("g",), "barrage"), (tuple(HAGANAH), ("g",), None)]   # not Khader (9.10)
    alone = pos(("k", "khader", "0211"), ("h1", "hgh-4-6", "0210"), ("a", "j-art-3-4", "0510"))
    assert attack_options(alone) == [(("h1",), ("k",), None)]                                # no barrage (10.3)
    stopped = pos(*[(u[0], u[1], u[2], ["stopped"]) if u[0] in ("h1", "h2") else u for u in KHADER])
    assert attack_options(stopped)[0] == (("h3", "h4", "h5"), ("g",), None)
    v = "1115"
    p = pos(("i1", "irgun", v), ("g", "a-gar-4-0", v))
    assert attack_options(p) == [(("i1",), ("g",), "terrorist")]
    game_rules = rules_for(p.game)
    assert game_rules.resolve is resolve and game_rules.attack_options is attack_options


def test_flags_cleared_name_game_flags():
    spec = pos().game.spec
    whens = {"phase_end", "player_turn_end", "turn_end"} | {f"{s.id}_player_turn_start" for s in spec.sides}
    assert spec.flags_cleared and set(spec.flags_cleared) <= set(spec.flags)
    assert set(spec.flags_cleared.values()) <= whens
    assert (spec.flags_cleared["stopped"], spec.flags_cleared["attacked"]) == ("player_turn_end", "player_turn_end")


# -- property: random dice and choices give legal positions --------------------------------------------------------
MELEE = [("g", "a-gar-4-0", "0211"), ("k", "khader", "0211"), ("m", "mufti-2-8", "0211"),
         ("t", "syr-truck-1-24-3", "0312"), ("s", "syr-3-4", "0312", [], "t"),
         ("l", "al-12-8-4r", "0313"), ("la", "al-art-25lb", "0415"),
         ("h1", "hgh-4-6", "0210"), ("h2", "hgh-4-6", "0210"), ("d", "davidka", "0212"), ("h3", "hgh-4-6", "0212"),
         ("b", "j-bus-3-12", "0212"), ("ja", "j-art-3-4", "0213"), ("h4", "hgh-4-6", "0412")]


@pytest.mark.parametrize("phasing", ["jewish", "arab"])
def test_random_combats_leave_legal_positions(phasing):
    p = pos(*MELEE, phasing=phasing)
    before = {(v.rule, v.message) for v in check(p)}
    options = attack_options(p)
    assert options
    rng = random.Random(29)
    made = 0
    for attackers, defenders, kind in options:
        for _ in range(6):
            try:
                after, notes = resolve(p, attackers, defenders, kind=kind, roll=lambda n: rng.randint(1, n),
                                       choose=lambda what, opts: rng.choice(list(opts)))
            except CombatRefused:
                continue
            made += 1
            assert {(v.rule, v.message) for v in check(after)} <= before
            assert all(n["rule"] and n["text"] for n in notes)
            if any(after.by_id[d].hex is not None for d in defenders):
                assert all(after.by_id[a].has("stopped") for a in attackers if after.by_id[a].hex is not None)
                assert all(after.by_id[d].has("attacked") for d in defenders if after.by_id[d].hex is not None)
    assert made
