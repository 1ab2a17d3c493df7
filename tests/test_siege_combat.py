"""Siege of Jerusalem fire and melee: the rulebook's numbers (11.8x, 13.x, 9.x, 10.x, 12.1, 17.1, 19.2x, 19.3)."""
import pytest

from position_files import write_position
from toolkit.cli import main
from toolkit.games.siege import (breach_damage, combat, combat_json, fire, fire_json, load_combat_tables,
                                 melee_column, mining_shafts, missile_column, recovery, recovery_order, replacements,
                                 shaft_damage, shaft_hexes)
from toolkit.games.siege.combat_tables import table_result
from toolkit.game.odds import ratio

GAME = "siege-of-jerusalem"


@pytest.fixture(scope="module")
def t():
    return load_combat_tables()


def pos(tmp_path, units, turn="AP I/1", phase="fire", side="jewish", markers=()):
    return write_position(tmp_path, GAME, turn, phase, side, units, markers=markers)


def mods(res):
    return [(m.id, m.value) for m in res.modifiers]


# -- tables ----------------------------------------------------------------------------------------------------
def test_melee_odds_rounded_for_the_defender(t):
    assert (ratio(16, 9), ratio(14, 6), ratio(6, 8)) == ("1-1", "2-1", "1-2")     # 11.81 examples
    assert melee_column(t, "16-9") == ("1-1", 0) and melee_column(t, "14-6") == ("2-1", 0)
    assert melee_column(t, "10-1") == ("7-1", 3) and melee_column(t, "1-6") == ("1-4", -2)   # 11.83 examples


def test_melee_table_de_cell(t):
    mt = t.melee_table
    assert table_result(mt.rolls, mt.results["2-1"], 7) == "DE"                  # 11.82 example
    assert mt.codes["DE"].disrupt == 1 and mt.codes["DE"].eliminate == 1


def test_missile_columns_and_multiples(t):
    assert missile_column(t, "clear", 6) == (6, 0)          # 13.2 example
    assert missile_column(t, "artillery", 6) == (2, 0)      # 13.2 example
    assert missile_column(t, "bastion", 6) == (2, 0) and missile_column(t, "bastion", 12) == (3, 0)   # 13.22
    assert missile_column(t, "testudo", 24) == (7, 1)       # 13.4 example
    assert missile_column(t, "ram", 45) == (7, 2)           # 13.4 example
    assert missile_column(t, "clear", 9) == (7, 2) and missile_column(t, "breach", 16) == (7, 1)   # 13.4: 1, 2 AF
    assert missile_column(t, "fortress", 3) == (None, 0)
    assert t.weapons_effects.bands("onager")[1][1] == 3     # an Onager has 3 AF at secondary range


# -- missile ---------------------------------------------------------------------------------------------------
def thirteen_two(tmp_path):
    return pos(tmp_path, [("o1", "jw-onager", "DD19"), ("o2", "jw-onager", "EE19"), ("h1", "v-1-7-8", "DD14"),
                          ("h2", "v-1-6-8", "DD14"), ("h3", "v-1-5-8", "DD14"), ("b", "v-ballista", "DD14")])


def test_13_2_infantry_primary(tmp_path):
    p = thirteen_two(tmp_path)
    r = combat(p, ["o1", "o2"], ["h1", "h2", "h3", "b"], kind="missile", primary="infantry")
    assert r.allowed, r.refused
    assert (r.attack, r.row, r.column, r.total_modifier) == (6, "clear", 6, -2)
    assert sorted(mods(r)) == [("fresh_heavy_infantry", -1), ("jewish_artillery_beyond_primary", -1)]


def test_13_2_artillery_primary(tmp_path):
    r = combat(thirteen_two(tmp_path), ["o1", "o2"], ["h1", "h2", "h3", "b"], kind="missile", primary="artillery")
    assert (r.row, r.column, mods(r)) == ("artillery", 2, [("jewish_artillery_beyond_primary", -1)])
    data = combat_json(r)
    assert data["row"] == "artillery" and data["column"] == 2 and len(data["results"]) == 6


def test_13_3_militia_and_testudo(tmp_path):
    p = pos(tmp_path, [("v", "v-velites", "KK30"), ("m", "y-militia-2-6", "KK29")], side="roman")
    assert ("militia", 1) in mods(combat(p, ["v"], ["m"], kind="missile"))
    p = pos(tmp_path, [("j", "y-regulars-5-7", "KK30"), ("h1", "v-1-7-8", "KK29", ["testudo"]),
                       ("h2", "v-1-6-8", "KK29", ["testudo"])])
    r = combat(p, ["j"], ["h1", "h2"], kind="missile")
    assert r.row == "testudo" and ("fresh_heavy_infantry", -1) not in mods(r)   # 13.3 exception
    assert r.refused is not None and r.refused.rule == "13.2"                      # 2 AF < 3: no column


def test_9_7_mandatory_targets(tmp_path):
    p = pos(tmp_path, [("j", "y-regulars-5-7", "KK28"), ("h", "v-1-7-8", "KK29"), ("h2", "v-1-6-8", "LL30")])
    r = combat(p, ["j"], ["h2"], kind="missile")
    assert r.refused.rule == "9.7"
    f = fire_json(fire(p, "j", "h2"))
    assert f["verdict"] is False and f["rule"] == "9.7" and f["mandatory_targets"] == ["KK29"]
    assert fire(p, "j", "h").verdict


def test_18_21_night_and_5_3_out_of_cc(tmp_path):
    units = [("v", "v-velites", "KK30"), ("j", "y-regulars-5-7", "KK28")]
    assert combat(pos(tmp_path, units, turn="AP I/8"), ["v"], ["j"], kind="missile").refused.rule == "18.21"
    units[0] = ("v", "v-velites", "KK30", ["out_of_cc"])
    assert combat(pos(tmp_path, units), ["v"], ["j"], kind="missile").refused.rule == "5.3"


def test_9_8_wall_bonus(tmp_path):
    p = pos(tmp_path, [("j", "y-regulars-5-7", "DD19"), ("h", "v-1-7-8", "BB21")])
    r = combat(p, ["j"], ["h"], kind="missile")
    assert r.allowed and r.attack == 4 and "9.8" in r.attackers[0].how and r.row == "north_wall"


def test_9_9_indirect_and_9_13_towers(tmp_path):
    p = pos(tmp_path, [("v", "v-velites", "KK30"), ("r", "v-1-7-8", "KK29"), ("j", "y-regulars-5-7", "KK28")],
            side="roman")
    assert ("indirect_fire", -1) in mods(combat(p, ["v"], ["j"], kind="missile"))
    p = pos(tmp_path, [("v", "v-velites", "KK30"), ("t", "v-tower", "KK29"), ("r", "v-2-7-8", "KK29", ["pushing"]),
                       ("j", "y-regulars-5-7", "KK28")], side="roman")
    r = combat(p, ["v"], ["j"], kind="missile")
    assert ("tower_hex", -1) in mods(r) and ("indirect_fire", -1) not in mods(r)


def test_10_2_rocks_and_cauldrons(tmp_path):
    p = pos(tmp_path, [("z", "zealots-7-7", "DD19"), ("c", "cauldron", "DD19"), ("h", "v-1-7-8", "DD20")])
    r = combat(p, ["z", "c"], ["h"], kind="missile")
    assert r.allowed and r.attack == 4
    assert sorted(mods(r)) == [("cauldron", 1), ("fresh_heavy_infantry", -1)]


# -- melee -----------------------------------------------------------------------------------------------------
def test_11_85_stairway_flank(tmp_path):
    p = pos(tmp_path, [("h", "v-1-7-8", "DD20"), ("j", "y-regulars-5-7", "DD19")], phase="melee", side="roman")
    r = combat(p, ["h"], ["j"], kind="melee")
    assert (r.attack, r.defence, r.raw_odds, r.odds) == (3.5, 15, "1-5", "1-4")    # x1/2 (11.11); Fort x3 (11.7)
    assert mods(r) == [("below_1_4", -1)]                                         # no 11.7 -1 via a Stairway
    f = combat(p, ["h"], ["j"], kind="melee", flank=True)
    assert (f.attack, f.odds) == (7, "1-3")                                       # halved then doubled (11.85)


def test_11_7_ladder_and_11_18_connected(tmp_path):
    p = pos(tmp_path, [("h", "v-1-7-8", "DD20", ["on_ladder"]), ("b", "v-1-6-8", "DD20", ["ladder_base"]),
                       ("z", "zealots-7-7", "CC20")], phase="melee", side="roman")
    r = combat(p, ["h"], ["z"], kind="melee")
    assert (r.attack, r.defence, r.odds) == (3.5, 14, "1-4") and ("elevated_defence", -1) in mods(r)
    p = pos(tmp_path, [("z", "zealots-7-7", "CC20"), ("h", "v-1-7-8", "BB21")], phase="melee")
    r = combat(p, ["z"], ["h"], kind="melee")
    assert (r.attack, r.defence, r.odds) == (7, 14, "1-2")
    assert mods(r) == [("fresh_heavy_infantry_defending", -1)]                    # 11.18: no -1 for the wall


def test_melee_refusals(tmp_path):
    p = pos(tmp_path, [("h", "v-1-7-8", "CC21"), ("z", "zealots-7-7", "CC20"), ("d", "v-1-6-8", "DD20", ["disrupted"])],
            phase="melee", side="roman")
    assert combat(p, ["h"], ["z"], kind="melee").refused.rule == "11.11"   # no Stairway to the Wall
    assert combat(p, ["d"], ["z"], kind="melee").refused.rule == "11.1"    # not Fresh


def test_cohort_and_printed_drm(tmp_path):
    p = pos(tmp_path, [("a", "v-1-7-8", "KK30"), ("b", "v-1-6-8", "KK30"), ("c", "v-1-5-8", "KK30"),
                       ("j", "y-regulars-5-7", "KK29"), ("m", "zealots-7-7", "KK29", ["routed"])],
            phase="melee", side="roman")
    r = combat(p, ["a", "b", "c"], ["j", "m"], kind="melee")
    assert (r.attack, r.defence, r.odds) == (18, 12, "1-1")
    assert sorted(mods(r)) == [("cohort_attack", 1), ("rout_in_hex", 1)]


def test_11_842_example_three_factions_against_a_complete_cohort(tmp_path):
    # 11.842 example: -2 for two more Factions, -1 cohort integrity, -1 attacking Fresh Heavy Infantry: -4
    p = pos(tmp_path, [("y", "y-regulars-5-7", "KK29"), ("j", "j-regulars-5-7", "JJ30"), ("s", "s-regulars-5-7", "LL30"),
                       ("a", "v-1-7-8", "KK30"), ("b", "v-1-6-8", "KK30"), ("c", "v-1-5-8", "KK30")],
            phase="melee", side="jewish")
    r = combat(p, ["y", "j", "s"], ["a", "b", "c"], kind="melee")
    assert sorted(mods(r)) == [("cohort_defence", -1), ("faction_integrity", -2),
                               ("fresh_heavy_infantry_defending", -1)]
    assert r.total_modifier == -4


# -- breach and mining ---------------------------------------------------------------------------------------------
def test_10_1_gate_entry_doubles(tmp_path):
    p = pos(tmp_path, [("ram", "v-ram", "RR35"), ("h", "v-1-7-8", "RR35", ["pushing"]), ("z", "zealots-7-7", "QQ36")],
            side="roman")
    r = combat(p, ["ram"], ["z"], kind="breach")
    assert r.allowed, r.refused
    assert (r.attack, r.row, r.defence, r.column) == (2, "gate", 12, 2)
    p = pos(tmp_path, [("ram", "v-ram", "RR35"), ("h", "x-1-7-8", "RR35", ["pushing"]), ("z", "zealots-7-7", "QQ36")],
            side="roman")
    assert combat(p, ["ram"], ["z"], kind="breach").refused.rule == "6.41"   # pushed by another Legion


def test_19_21_shaft_hexes(tmp_path):
    from toolkit.mapdata import open_map
    cmap = open_map(GAME)
    hexes, drm = shaft_hexes(cmap, cmap.resolve("QQ36"), 1)
    assert sorted(cmap.name(h) for h in hexes) == ["QQ35", "QQ36", "QQ37"] and drm == 1
    hexes, drm = shaft_hexes(cmap, cmap.resolve("DD19"), 4)
    assert sorted(cmap.name(h) for h in hexes) == ["BB21", "CC20", "DD19", "EE19", "FF18"] and drm == 0


def test_19_22_examples(tmp_path):
    from toolkit.mapdata import open_map
    cmap = open_map(GAME)
    p = pos(tmp_path, [])
    out = shaft_damage(p, [cmap.resolve(h) for h in ("QQ37", "QQ36", "QQ35")], [7, 8, 9], 1)
    assert [(o["hex"], o["breach"], o["damage"]) for o in out] == [("QQ37", False, 8), ("QQ36", False, 9),
                                                                   ("QQ35", True, None)]
    hexes = ["FF18", "EE19", "DD19", "CC20", "BB21"]
    out = shaft_damage(p, [cmap.resolve(h) for h in hexes], [3, 6, 9, 7, 4], 0)
    assert [(o["breach"], o["damage"]) for o in out] == [(False, 3), (True, None), (False, 9), (True, None), (False, 4)]


def test_19_2_shaft_arithmetic_and_19_3():
    assert mining_shafts(3, 4) == 0 and mining_shafts(3, 5) == 1      # 19.22 example: 4 - 4, 5 - 4
    assert mining_shafts(4, 4) == 1                                     # 4 - 3
    assert mining_shafts(5, 4, completed=1) == 1                        # 4 - 2, less the one completed
    assert mining_shafts(9, 6, completed=3) == 1                        # at most four in all
    with pytest.raises(ValueError):
        mining_shafts(1, 6)                                             # not before two weeks
    assert replacements(5, 20) == 7                                     # 35 % (19.3), fractions dropped
    assert replacements(6, 20, drawn_weeks=5) == 1                      # only the difference, 5 %


def test_12_1_cumulative():
    assert breach_damage(10, 8, 1) == (9, False) and breach_damage(10, 8, 2) == (10, True)


# -- recovery ------------------------------------------------------------------------------------------------------
def test_17_1_order_and_roll(tmp_path):
    p = pos(tmp_path, [("a", "v-1-7-8", "KK30", ["disrupted"]), ("b", "v-1-6-8", "BB20", ["disrupted"]),
                       ("c", "v-1-5-8", "BB19", ["disrupted"]), ("hq", "v-hq", "LL30", ["disrupted"]),
                       ("f", "v-2-7-8", "AA21")], phase="recovery", side="roman")
    assert [u.id for u in recovery_order(p, "roman")] == ["hq", "c", "b", "a"]
    r = recovery(p, "a", 7, enemy_missile=False)
    assert r["final"] == 7 and r["outcome"] == "rout"


# -- CLI -----------------------------------------------------------------------------------------------------------
def test_cli_odds_kind_and_primary(tmp_path, capsys):
    thirteen_two(tmp_path)
    import json
    assert main(["odds", str(tmp_path / "pos.yaml"), "--attack", "o1", "o2", "--defend", "h1", "h2", "h3", "b",
                 "--kind", "missile", "--primary", "artillery", "--json"]) in (0, None)
    data = json.loads(capsys.readouterr().out)
    assert (data["row"], data["column"], data["total_modifier"]) == ("artillery", 2, -1)
    assert main(["fire", str(tmp_path / "pos.yaml"), "o1", "h1", "--json"]) in (0, None)
    f = json.loads(capsys.readouterr().out)
    assert f["verdict"] is True and f["band"] == "secondary" and f["af"] == 3


# -- 11.85, 10.11, 9.1 / 9.6, 9.31, 9.11 / 9.12 (worked out, not declared) -------------------------------------------
def mem(units, markers=(), **kw):
    from siege_positions import pos as mpos
    return mpos(units, markers, **kw)


def test_11_85_flank_from_the_six_hexes():
    # DD14 in the open: three Legionaries at every other neighbour close all six hexes (three by units, three by ZOC)
    surround = [("j", "y-regulars-5-7", "DD14"), ("a", "v-1-7-8", "EE14"), ("b", "v-1-6-8", "CC15"), ("c", "v-1-5-8", "DD13")]
    r = combat(mem(surround, phase="melee"), ["a", "b"], ["j"], kind="melee")
    assert r.flank["flank"] and r.attack == 26 and r.odds == "5-1"              # (7 + 6) x2 (11.85)
    assert sum(h["closed"] for h in r.flank["hexes"]) == 6
    r = combat(mem(surround[:3], phase="melee"), ["a", "b"], ["j"], kind="melee")
    assert not r.flank["flank"] and r.attack == 13                               # DD13 is an escape route
    assert [h["hex"] for h in r.flank["hexes"] if not h["closed"]] == ["DD13"]
    assert combat_json(r)["flank"]["rule"] == "11.85"
    forced = combat(mem(surround[:3], phase="melee"), ["a", "b"], ["j"], kind="melee", flank=True)
    assert forced.attack == 26 and any("declared" in n for n in forced.notes)


def test_11_85_elevated_defender_escapes_by_stairway(tmp_path):
    # the Fort DD19 defender keeps the Stairway to DD20 open unless a Roman holds it or its ZOC covers it
    p = pos(tmp_path, [("h", "v-1-7-8", "DD20"), ("j", "y-regulars-5-7", "DD19")], phase="melee", side="roman")
    r = combat(p, ["h"], ["j"], kind="melee")
    assert not r.flank["flank"] and r.attack == 3.5                              # 11.85 example needs a flank


def test_10_11_breach_only_through_the_facing_arrow():
    base = [("h", "v-1-7-8", "RR35", "pushing"), ("z", "zealots-7-7", "QQ36")]
    away = combat(mem([("ram", "v-ram", "RR35", "facing_n"), *base]), ["ram"], ["z"], kind="breach")
    assert away.refused.rule == "10.11" and "RR34" in away.refused.message
    toward = [f for f in ("n", "ne", "se", "s", "sw", "nw")
              if combat(mem([("ram", "v-ram", "RR35", f"facing_{f}"), *base]), ["ram"], ["z"], kind="breach").allowed]
    assert len(toward) == 1                                                      # one arrow points at QQ36
    p = mem([("ram", "v-ram", "RR35"), *base], params={"facing": "ram:QQ36"})
    assert combat(p, ["ram"], ["z"], kind="breach").allowed                      # the `facing` parameter
    r = combat(mem([("ram", "v-ram", "RR35"), *base]), ["ram"], ["z"], kind="breach")
    assert r.allowed and any("no facing" in n for n in r.notes)


def test_10_1_breach_against_an_empty_hex():
    p = mem([("ram", "v-ram", "RR35"), ("h", "v-1-7-8", "RR35", "pushing")])
    r = combat(p, ["ram"], [], kind="breach", target="QQ36")
    assert r.allowed and (r.attack, r.row, r.column) == (2, "gate", 2)


def test_9_6_one_fire_per_hex_per_phase(tmp_path):
    p = thirteen_two(tmp_path)
    r = combat(p, ["o1"], ["h1", "h2", "h3", "b"], kind="missile", fired_at=["DD14"])
    assert r.refused.rule == "9.6"
    assert combat(p, ["o1", "o2"], ["h1", "h2", "h3", "b"], kind="missile", fired=["o2"]).refused.rule == "9.1"
    q = mem([("ram", "v-ram", "RR35"), ("h", "v-1-7-8", "RR35", "pushing"), ("z", "zealots-7-7", "QQ36")])
    assert combat(q, ["ram"], ["z"], kind="breach", fired_at=["QQ36"]).refused.rule == "9.6"


def test_9_31_erratic_shot_reported_not_rolled():
    p = mem([("b", "x-ballista", "DD16"), ("z", "zealots-7-7", "DD19"), ("h", "x-1-7-8", "DD20")], phase="fire")
    r = combat(p, ["b"], ["z"], kind="missile")
    assert r.allowed and r.erratic["friendly_units"] == ["h"] and r.erratic["rule"] == "9.31"
    assert [x["erratic"] for x in r.results] == [True, False, False, False, False, False]
    # no friendly unit next to the target: no erratic shot
    p = mem([("b", "x-ballista", "DD16"), ("z", "zealots-7-7", "DD19")], phase="fire")
    assert combat(p, ["b"], ["z"], kind="missile").erratic is None


def test_9_11_tower_levels_and_9_12_ladder_base():
    tower = [("t", "x-tower", "EE18", "facing_s"), ("p1", "x-2-7-8", "EE18", "pushing"),
             ("p2", "x-2-6-8", "EE18", "pushing"), ("r", "x-2-5-8", "EE18", "riding")]
    p = mem([*tower, ("z", "zealots-7-7", "EE19"), ("y", "zealots-7-7", "EE19")], phase="fire", side="jewish")
    assert combat(p, ["z", "y"], ["p1", "p2", "r"], kind="missile", level="riders").refused.rule == "9.11"
    r = combat(p, ["z", "y"], ["p1", "p2", "r"], kind="missile")
    assert r.allowed and r.targets == ["p1", "p2"] and r.immune == ["r"]          # rocks hit the pushers only
    p = mem([*tower, ("a", "y-regulars-5-7", "EE19"), ("b", "y-regulars-5-7", "EE19")], phase="fire", side="jewish")
    r = combat(p, ["a", "b"], ["p1", "p2", "r"], kind="missile", level="riders")
    assert r.allowed, r.refused
    assert r.targets == ["r"] and sorted(r.immune) == ["p1", "p2"]
    lad = mem([("b", "v-1-7-8", "Z22", "ladder_base"), ("c", "v-1-6-8", "Z22", "on_ladder"),
               ("a", "y-regulars-5-7", "Z23")], markers=[{"marker": "ladder", "hex": "Z22"}], phase="fire", side="jewish")
    r = combat(lad, ["a"], ["b", "c"], kind="missile")
    assert r.allowed, r.refused
    assert r.targets == ["c"] and r.immune == ["b"]


def test_10_11_tower_riders_melee_only_through_the_facing_arrow():
    tower = [("t", "x-tower", "EE18", "facing_s"), ("p1", "x-2-7-8", "EE18", "pushing"),
             ("r", "x-2-5-8", "EE18", "riding")]
    p = mem([*tower, ("z", "zealots-7-7", "EE19"), ("y", "zealots-7-7", "FF18")], phase="melee", side="roman")
    assert combat(p, ["r"], ["z"], kind="melee").allowed                         # EE19: the arrow's hex
    refused = combat(p, ["r"], ["y"], kind="melee").refused                      # FF18: beside the arrow
    assert refused.rule == "10.11" and "EE19" in refused.message


def test_cli_odds_breach_against_a_target_hex(tmp_path, capsys):
    import json
    pos(tmp_path, [("ram", "v-ram", "RR35"), ("h", "v-1-7-8", "RR35", ["pushing"])], side="roman")
    assert main(["odds", str(tmp_path / "pos.yaml"), "--attack", "ram", "--kind", "breach", "--target", "QQ36",
                 "--json"]) in (0, None)
    data = json.loads(capsys.readouterr().out)
    assert (data["row"], data["column"], data["refused"]) == ("gate", 2, None)
    assert main(["odds", str(tmp_path / "pos.yaml"), "--attack", "ram", "--kind", "breach", "--target", "QQ36",
                 "--fired-at", "QQ36", "--json"]) in (0, None)
    assert json.loads(capsys.readouterr().out)["refused"]["rule"] == "9.6"
    assert main(["odds", str(tmp_path / "pos.yaml"), "--attack", "ram", "--kind", "breach"]) not in (0, None)


def test_9_11_fire_no_rocks_at_tower_riders():
    p = mem([("t", "x-tower", "EE18", "facing_s"), ("p1", "x-2-7-8", "EE18", "pushing"),
             ("r", "x-2-5-8", "EE18", "riding"), ("z", "zealots-7-7", "EE19")], phase="fire", side="jewish")
    assert fire(p, "z", "r").rule == "9.11" and not fire(p, "z", "r").verdict
    assert fire(p, "z", "p1").verdict


def test_11_86_11_9_advance_after_combat():
    from toolkit.games.siege.combat import advances
    units = [("j", "y-regulars-5-7", "DD14"), ("a", "v-1-7-8", "EE14"), ("hq", "v-hq", "EE16"),
             ("k", "y-regulars-5-7", "BB14")]
    p = mem(units, phase="melee")
    assert advances(p, ["a"], "DD14", 1)["refused"]["rule"] == "11.9"            # the defender is still there
    r = advances(p, ["a"], "DD14", 0, defenders=["j"])["units"]["a"]
    assert [d["hex"] for d in r["destinations"]] == ["DD14"]                     # no excess E: the vacated hex only
    r = advances(p, ["a"], "DD14", 2, defenders=["j"])["units"]["a"]
    steps = {d["hex"]: d["steps"] for d in r["destinations"]}
    assert steps["DD14"] == 0 and steps["DD13"] == 1 and steps["DD12"] == 2      # one hex per excess E (11.86)
    assert steps["CC14"] == 1 and "AA14" not in steps and "BB14" not in steps    # CC14 in k's ZOC: no further (11.9)
    assert max(steps.values()) == 2
    # the vacated hex in enemy ZOC, or no CC: no advance beyond it (11.9)
    q = mem([*units[:3], ("k", "y-regulars-5-7", "CC14")], phase="melee")
    r = advances(q, ["a"], "DD14", 2, defenders=["j"])["units"]["a"]
    assert [d["hex"] for d in r["destinations"]] == ["DD14"] and r["beyond"]["rule"] == "11.9"
    r = advances(mem(units[:2], phase="melee"), ["a"], "DD14", 2, defenders=["j"])["units"]["a"]
    assert [d["hex"] for d in r["destinations"]] == ["DD14"] and "CC" in r["beyond"]["reason"]
    # 11.61: Jews who fought a Ladder from above stay
    lad = mem([("b", "v-1-7-8", "Z22", "ladder_base"), ("c", "v-1-6-8", "Z22", "on_ladder"),
               ("z", "zealots-7-7", "Z23")], markers=[{"marker": "ladder", "hex": "Z22"}], phase="melee", side="jewish")
    assert advances(lad, ["z"], "Z22", 0, defenders=["b", "c"])["units"]["z"]["refused"]["rule"] == "11.61"
