"""*Jerusalem!* position checker: one hand-built position per violation, exact rule, hexes and units.

The positions use a small test copy of the counters (the value keys of
``modules/jerusalem-1948/counters.yaml``) on the bundled reconstructed map; the Scenario II
set-up from the real module must check clean once it exists.
"""
import pytest

from jerusalem_fixtures import pos  # the `game` fixture comes from jerusalem_fixtures via conftest
from toolkit.game import Position, Unit, load_game, load_position, modules_dir
from toolkit.game.violations import Violation, check_json
from toolkit.games.jerusalem.legality import check

def one(violations):
    assert len(violations) == 1, violations
    v = violations[0]
    assert v.message.endswith(f"({v.rule})")
    return v


def test_a_legal_position_has_no_violations(game):
    units = [
        ("g1", "j-gar", "Jewish HQ"), ("h1", "hgh", "Jewish HQ"), ("h2", "hgh", "Jewish HQ"),
        ("h3", "hgh", "Jewish HQ"), ("s", "shaltiel", "Jewish HQ"), ("ac", "j-ac", "Jewish HQ"),
        ("t", "j-truck", "Bab el Wad"), ("t1", "hgh", "Bab el Wad", "t"), ("t2", "hgh", "Bab el Wad", "t"),
        ("t3", "hgh", "Bab el Wad", "t"),
        ("a1", "a-gar", "Arab Quarter"), ("amin", "amin", "Arab Quarter"),
        ("l1", "legion", "Bethlehem"), ("l2", "legion", "Bethlehem"), ("tell", "tell", "Bethlehem"),
        ("lt", "al-truck", "Bethlehem"), ("l3", "legion", "Bethlehem", "lt"),
        ("m1", "mufti", "Shuafat"), ("gh", "ghory", "Shuafat"),
        ("k", "kutub", "Ramallah"),
    ]
    assert check(pos(game, units, side="arab", turn_end=True)) == []
    assert check_json([]) == {"legal": True, "violations": []}


def test_four_infantry(game):
    v = one(check(pos(game, [(f"h{i}", "hgh", "Katamon") for i in range(4)])))
    assert (v.rule, v.hexes, v.units) == ("5.1", ("5926",), ("h0", "h1", "h2", "h3"))


def test_eight_units(game):
    units = [(f"h{i}", "hgh", "Katamon") for i in range(3)] + [(f"a{i}", "j-ac", "Katamon") for i in range(5)]
    v = one(check(pos(game, units)))
    assert (v.rule, v.hexes, len(v.units)) == ("5.1", ("5926",), 8)


def test_carried_units_count_for_stacking(game):
    units = [("t", "j-truck", "Saris")] + [(f"h{i}", "hgh", "Saris", "t") for i in range(3)] + [("x", "hgh", "Saris")]
    v = one(check(pos(game, units)))
    assert v.rule == "5.1" and set(v.units) == {"t", "h0", "h1", "h2", "x"}


def test_convoy_hex_takes_ten_units_and_six_infantry(game):
    ten = [("jc", "jc", "Hulda")] + [(f"h{i}", "hgh", "Hulda") for i in range(6)] + \
          [(f"a{i}", "j-ac", "Hulda") for i in range(3)]
    assert check(pos(game, ten)) == []
    v = one(check(pos(game, ten + [("x", "j-ac", "Hulda")])))
    assert (v.rule, v.hexes, len(v.units)) == ("6.3.1", ("0215",), 11)
    seven = [("jc", "jc", "Hulda")] + [(f"h{i}", "hgh", "Hulda") for i in range(7)]
    assert one(check(pos(game, seven))).rule == "6.3.1"


def test_two_leaders_in_a_hex(game):
    v = one(check(pos(game, [("m", "mufti", "Shuafat"), ("g", "ghory", "Shuafat"), ("k", "kaukji", "Shuafat")])))
    assert (v.rule, v.hexes, v.units) == ("5.2", ("6218",), ("m", "g", "k"))


def test_only_tell_with_the_arab_legion(game):
    v = one(check(pos(game, [("l", "legion", "Bethlehem"), ("m", "mufti", "Bethlehem"), ("g", "ghory", "Bethlehem")])))
    assert (v.rule, v.hexes, v.units) == ("5.2", ("5737",), ("l", "m", "g"))
    assert "Tell" in v.message
    assert check(pos(game, [("l", "legion", "Bethlehem"), ("t", "tell", "Bethlehem")])) == []


def test_no_leader_with_the_eef(game):
    v = one(check(pos(game, [("e", "eef", "Bethlehem"), ("m", "mufti", "Bethlehem"), ("t", "tell", "Bethlehem")])))
    assert (v.rule, v.units) == ("5.2", ("e", "m", "t")) and "EEF" in v.message


def test_overstacked_hex_also_reports_its_leaders(game):
    units = [(f"m{i}", "mufti", "Shuafat") for i in range(4)] + [("g", "ghory", "Shuafat"), ("k", "kaukji", "Shuafat")]
    got = check(pos(game, units))
    assert [(v.rule, v.units) for v in got] == [("5.1", ("m0", "m1", "m2", "m3", "g", "k")), ("5.2", ("g", "k"))]


def test_arab_leader_alone_at_the_end_of_an_arab_turn(game):
    units = [("g", "ghory", "Shuafat"), ("amin", "amin", "Arab Quarter"), ("k", "kutub", "Ramallah")]
    v = one(check(pos(game, units, side="arab", turn_end=True)))
    assert (v.rule, v.hexes, v.units) == ("12.3", ("6218",), ("g",))
    assert "13.1.1" in v.message
    assert check(pos(game, units, side="arab")) == []  # not a turn end: he may still move
    assert check(pos(game, units, side="jewish", turn_end=True)) == []  # only Arab player turns


def test_haj_amin_outside_the_city(game):
    v = one(check(pos(game, [("amin", "amin", "Shuafat"), ("m", "mufti", "Shuafat")])))
    assert (v.rule, v.hexes, v.units) == ("12.9.3", ("6218",), ("amin",))
    assert one(check(pos(game, [("amin", "amin", "Bevingrad")]))).rule == "12.9.3"  # not a city hex (1.3)


def test_haj_amin_may_not_stop_on_jewish_units(game):
    v = one(check(pos(game, [("amin", "amin", "Katamon"), ("h", "hgh", "Katamon")], side="arab")))
    assert (v.rule, v.hexes, v.units) == ("12.9.3", ("5926",), ("amin", "h"))


def test_shaltiel_too_far_from_the_city(game):
    v = one(check(pos(game, [("s", "shaltiel", "Shuafat"), ("h", "hgh", "Shuafat")])))
    assert (v.rule, v.hexes, v.units) == ("12.9.4", ("6218",), ("s",)) and "5 hexes" in v.message
    assert check(pos(game, [("s", "shaltiel", "Lifta")])) == []  # four hexes away


def test_shaltiel_outside_the_city_at_a_jewish_turn_end(game):
    v = one(check(pos(game, [("s", "shaltiel", "Lifta")], turn_end=True)))
    assert (v.rule, v.hexes, v.units) == ("12.9.4", ("5621",), ("s",))


def test_bevingrad_before_may_iii(game):
    units = [("h", "hgh", "Bevingrad")]
    v = one(check(pos(game, units, turn="May II")))
    assert (v.rule, v.hexes, v.units) == ("1.3", ("6024",), ("h",)) and "Bevingrad" in v.message
    assert check(pos(game, units, turn="May III")) == []


def test_police_fort_and_notre_dame_before_may_iii(game):
    units = [("l", "legion", "Latrun Police Fort"), ("h", "hgh", "Notre Dame")]
    got = check(pos(game, units, turn="May I"))
    assert sorted((v.rule, v.hexes, v.units) for v in got) == [("1.3", ("1913",), ("l",)), ("1.3", ("6123",), ("h",))]
    assert check(pos(game, units, turn="May III")) == []


def test_trucks_and_buses_in_a_stream_hex_without_road(game):
    v = one(check(pos(game, [("t", "j-truck", "0107"), ("h", "hgh", "0107")])))
    assert (v.rule, v.hexes, v.units) == ("1.3", ("0107",), ("t",))
    assert check(pos(game, [("t", "j-truck", "1913")], turn="May III")) == []  # the fort's stream hex has a road


def test_transport_over_capacity(game):
    units = [("b", "j-bus", "Lifta"), ("h1", "hgh", "Lifta", "b"), ("h2", "hgh", "Lifta", "b"),
             ("h3", "hgh", "Lifta", "b"), ("s", "shaltiel", "Lifta", "b")]
    v = one(check(pos(game, units)))
    assert (v.rule, v.hexes, v.units) == ("8.7.1", ("5621",), ("b", "h1", "h2", "h3"))
    assert "capacity is 2" in v.message  # Shaltiel rides free (8.7.1)


def test_convoy_carries_three(game):
    units = [("jc", "jc", "Hulda")] + [(f"h{i}", "hgh", "Hulda", "jc") for i in range(4)]
    v = one(check(pos(game, units)))
    assert (v.rule, v.hexes, v.units) == ("6.3.2", ("0215",), ("jc", "h0", "h1", "h2", "h3"))


def test_garrisons_and_vehicles_are_not_carried(game):
    got = check(pos(game, [("t", "j-truck", "Saris"), ("g", "j-gar", "Saris", "t"), ("a", "j-ac", "Saris", "t")]))
    assert [(v.rule, v.units) for v in got] == [("8.6", ("t", "g")), ("8.6", ("t", "a"))]


def test_terrorists_are_never_carried(game):
    v = one(check(pos(game, [("t", "j-truck", "Saris"), ("i", "irgun", "Saris", "t")])))
    assert (v.rule, v.units) == ("13.2.2", ("t", "i"))


def test_legion_transports_carry_only_legion_units(game):
    v = one(check(pos(game, [("lt", "al-truck", "Ramallah"), ("s", "syr", "Ramallah", "lt"),
                             ("l", "legion", "Ramallah", "lt")], side="arab")))
    assert (v.rule, v.hexes, v.units) == ("8.7.9", ("5703",), ("lt", "s"))


def test_only_transports_carry(game):
    v = one(check(pos(game, [("a", "hgh", "Saris"), ("b", "hgh", "Saris", "a")])))
    assert (v.rule, v.units) == ("8.7.1", ("a", "b"))


def test_enemy_units_in_one_hex(game):
    v = one(check(pos(game, [("h", "hgh", "Kastel"), ("m", "mufti", "Kastel")])))
    assert (v.rule, v.hexes, v.units) == ("4.2", ("4721",), ("h", "m"))


def test_terrorist_attack_in_progress_is_the_exception(game):
    units = [("i", "irgun", "Kastel", None, ["terrorist_attack"]), ("g", "a-gar", "Kastel")]
    assert check(pos(game, units)) == []  # 13.2.5: the battle goes on
    assert one(check(pos(game, units, turn_end=True))).rule == "4.2"
    assert one(check(pos(game, units, phase="road"))).rule == "4.2"


def test_terrorists_attacking_may_not_stack_with_other_units(game):
    v = one(check(pos(game, [("i", "irgun", "Saris", None, ["terrorist_attack"]), ("h", "hgh", "Saris")])))
    assert (v.rule, v.units) == ("13.2.1", ("i", "h"))


def test_el_kutub_on_the_hex_he_bombs(game):
    units = [("k", "kutub", "Katamon"), ("h", "hgh", "Katamon")]
    assert check(pos(game, units, side="arab")) == []  # 13.1.3
    assert one(check(pos(game, units, side="arab", turn_end=True))).rule == "4.2"


def test_check_json_names_rule_hexes_and_units(game):
    out = check_json(check(pos(game, [(f"h{i}", "hgh", "Katamon") for i in range(4)])))
    assert out["legal"] is False
    assert out["violations"] == [{"rule": "5.1", "message": out["violations"][0]["message"], "hexes": ["5926"],
                                  "units": ["h0", "h1", "h2", "h3"]}]
    assert "5926 (Katamon)" in out["violations"][0]["message"]
    assert check(pos(game, [])) == [] and Violation("5.1", "m").hexes == ()


SCENARIO_II = modules_dir() / "jerusalem-1948" / "scenarios" / "scenario-ii.yaml"


@pytest.mark.skipif(not SCENARIO_II.is_file(), reason="scenarios/scenario-ii.yaml not written yet")
def test_scenario_ii_set_up_checks_clean():
    position = load_position(SCENARIO_II)
    assert check_json(check(position)) == {"legal": True, "violations": []}


REAL = modules_dir() / "jerusalem-1948" / "counters.yaml"


@pytest.mark.skipif(not REAL.is_file(), reason="modules/jerusalem-1948 not written yet")
def test_real_counters_are_recognised():
    real = load_game("jerusalem-1948")
    m = real.map

    def unit(uid, cid, where, carried=None):
        return Unit(uid, real.counters[cid], m.resolve(where), None, frozenset(), carried)

    ok = [unit("tell", "tell", "Bethlehem"), unit("l", "al-12-8-6r", "Bethlehem"),
          unit("kutub", "kutub", "Ramallah"), unit("amin", "amin", "Arab Quarter"),
          unit("s", "shaltiel", "Jewish HQ"), unit("jc", "jc", "Hulda"), unit("h", "hgh-4-6", "Hulda", "jc")]
    assert check(Position(real, "June I", "road", "arab", tuple(ok), params={"turn_end": True})) == []
    bad = [unit("amin", "amin", "Shuafat"), unit("m", "mufti-2-8", "Shuafat"),
           unit("t", "j-truck-1-24-3", "Saris"), unit("i", "irgun", "Saris", "t"),
           unit("s", "shaltiel", "Shuafat")]
    got = check(Position(real, "June I", "overland", "jewish", tuple(bad)))
    assert sorted(v.rule for v in got) == ["12.9.3", "12.9.4", "13.2.2", "4.2"]


@pytest.mark.skipif(not REAL.is_file(), reason="modules/jerusalem-1948 not written yet")
def test_12_6_kaukji_must_be_stacked_with_an_arab_unit():
    real = load_game("jerusalem-1948")
    m = real.map

    def at(units, side="jewish", **params):
        return Position(real, "May IV", "overland", side,
                        tuple(Unit(u, real.counters[c], m.resolve(h)) for u, c, h in units), params=params)

    for side in ("jewish", "arab"):                       # at all times, not only at an Arab turn end (12.3)
        v = one(check(at([("k", "kaukji", "Shuafat")], side)))
        assert (v.rule, v.hexes, v.units) == ("12.6", (m.name(m.resolve("Shuafat")),), ("k",))
        assert "Kaukji" in v.message or "kaukji" in v.message
    assert check(at([("k", "kaukji", "Shuafat"), ("u", "mufti-2-8", "Shuafat")])) == []
    assert check(at([("k", "kaukji", "Shuafat"), ("u", "a-gar-4-0", "Shuafat")])) == []
    # Another leader is not the Arab unit he must be with (and 5.2 forbids it anyway).
    assert sorted(v.rule for v in check(at([("k", "kaukji", "Shuafat"), ("g", "ghory", "Shuafat")]))) \
        == ["12.6", "5.2"]
    # Moving alone he may end only where an Arab unit is, and every such end checks clean (12.6 note).
    from dataclasses import replace

    from toolkit.games.jerusalem import moves
    shuafat = m.resolve("Shuafat")
    near = sorted((n for n in shuafat.neighbors() if n in m.hexes), key=m.name)
    arab = at([("k", "kaukji", "Shuafat"), ("u", "mufti-2-8", "Shuafat"), ("v", "mufti-2-8", m.name(near[0]))],
              "arab")
    res = moves(arab, ["k"])
    assert list(res.destinations) == [near[0]]
    assert res.why_not(near[1]).rule == "12.6"
    assert check(arab.moved({"k": replace(arab.by_id["k"], hex=near[0])})) == []
    assert near[1] in moves(arab, ["k", "u"]).destinations                 # with a Mufti unit: anywhere
