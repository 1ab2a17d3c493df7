"""`toolkit zoc` and `toolkit siege …`: the Siege's table answers and procedures on the command line, exact values
from the rulebook's examples and hand-worked positions (7.1, 13.2, 13.4, 17.1-17.3, 18.5-18.611, 18.9x, 19.2x)."""
import json

import pytest

from position_files import write_position
from toolkit.cli import main

GAME = "siege-of-jerusalem"


def run(capsys, *argv):
    assert main(list(argv)) in (0, None)
    return capsys.readouterr().out


def answer(capsys, *argv):
    return json.loads(run(capsys, *argv, "--json"))


def refused(capsys, *argv):
    assert main(list(argv)) == 2
    return capsys.readouterr().err


@pytest.fixture
def pile(tmp_path):
    """Disrupted Romans to recover; a dead pile of both sides; two Jews escaped (hand-worked values below)."""
    write_position(tmp_path, GAME, "AP I/1", "recovery", "roman",
                   [("a", "v-1-7-8", "KK30", ["disrupted"]), ("b", "v-1-6-8", "BB20", ["disrupted"]),
                    ("c", "v-1-5-8", "BB19", ["disrupted"]), ("hq", "v-hq", "LL30", ["disrupted"]),
                    ("f", "v-2-7-8", "AA21")],
                   boxed=[("d1", "v-2-7-8", "dead_pile"), ("d2", "titus", "dead_pile"), ("d3", "v-ram", "dead_pile"),
                          ("d4", "v-hq", "dead_pile"), ("e1", "y-regulars-5-7", "escaped"),
                          ("e2", "y-leader", "escaped"), ("d5", "y-regulars-5-7", "dead_pile"),
                          ("d6", "y-regulars-5-7", "dead_pile"), ("d7", "hp-regulars", "dead_pile")])
    return str(tmp_path / "pos.yaml")


def test_zoc_of_a_side(tmp_path, capsys):
    write_position(tmp_path, GAME, "AP I/1", "movement", "roman", [("j", "y-regulars-5-7", "KK29")])
    data = answer(capsys, "zoc", str(tmp_path / "pos.yaml"), "--side", "jewish")
    assert [(h["hex"], h["units"], h["rule"]) for h in data["hexes"]] == [
        ("JJ29", ["j"], "7.11"), ("JJ30", ["j"], "7.11"), ("KK30", ["j"], "7.11")]   # 7.1x: not into Built-up
    assert "JJ30  j (7.11)" in run(capsys, "zoc", str(tmp_path / "pos.yaml"), "--side", "jewish")
    assert "give one of: roman, jewish" in refused(capsys, "zoc", str(tmp_path / "pos.yaml"), "--side", "arab")


@pytest.mark.parametrize("row, af, column, drm", [
    ("clear", 6, 6, 0), ("artillery", 6, 2, 0),        # 13.2 example
    ("testudo", 24, 7, 1), ("ram", 45, 7, 2),           # 13.4 examples
    ("fortress", 3, None, 0),
])
def test_missile_column(capsys, row, af, column, drm):
    data = answer(capsys, "siege", "missile-column", "--row", row, "--af", str(af))
    assert (data["column"], data["multiples_drm"]) == (column, drm)


def test_missile_column_text_and_refusal(capsys):
    assert run(capsys, "siege", "missile-column", "--row", "testudo", "--af", "24") == \
        "24 AF on the testudo row: column 7 (13.2), +1 drm for multiples of 3 AF beyond it (13.4)\n"
    assert "row 'moat'" in refused(capsys, "siege", "missile-column", "--row", "moat", "--af", "3")


def test_mining_19_22_example(capsys):
    # the 19.22 example: week 3 roll 4 -4 = 0 (5 would have given a shaft); week 4 roll 4 -3 = 1; week 5 4 -2 = 2,
    # less the one completed: one more
    shafts = lambda *argv: answer(capsys, "siege", "mining", *argv)["shafts"]   # noqa: E731
    assert (shafts("--week", "3", "--roll", "4"), shafts("--week", "3", "--roll", "5")) == (0, 1)
    assert shafts("--week", "4", "--roll", "4") == 1
    assert shafts("--week", "5", "--roll", "4", "--completed", "1") == 1
    assert "Mining roll 4 -3 = 1" in run(capsys, "siege", "mining", "--week", "4", "--roll", "4")
    drawn = answer(capsys, "siege", "mining", "--week", "4", "--seed", "3")
    assert drawn == answer(capsys, "siege", "mining", "--week", "4", "--seed", "3")   # reproducible
    assert 1 <= drawn["roll"] <= 6
    assert "--roll" in refused(capsys, "siege", "mining", "--week", "4")
    assert "1-6" in refused(capsys, "siege", "mining", "--week", "4", "--roll", "7")


def test_shafts_19_21_19_22_examples(tmp_path, capsys):
    write_position(tmp_path, GAME, "AP I/1", "recovery", "roman", [])
    p = str(tmp_path / "pos.yaml")
    data = answer(capsys, "siege", "shafts", p, "--target", "QQ36", "--engineering-roll", "1", "--roll", "2", "3",
                  "4")
    assert (sorted(data["hexes"]), data["damage_drm"]) == (["QQ35", "QQ36", "QQ37"], 1)     # 19.21 example
    # DD19 example: Engineering 4, no drm; FF18 3, EE19 6 (Breach), DD19 9, CC20 7 (Breach), BB21 4
    data = answer(capsys, "siege", "shafts", p, "--target", "DD19", "--engineering-roll", "4",
                  "--roll", "9", "7", "6", "4", "3")
    assert data["hexes"] == ["DD19", "CC20", "EE19", "BB21", "FF18"] and data["damage_drm"] == 0
    assert [(d["hex"], d["breach"], d["damage"]) for d in data["damage"]] == [
        ("DD19", False, 9), ("CC20", True, None), ("EE19", True, None), ("BB21", False, 4), ("FF18", False, 3)]
    assert "--roll: give 5 rolls" in refused(capsys, "siege", "shafts", p, "--target", "DD19",
                                            "--engineering-roll", "4", "--roll", "9")


def test_replacements_18_6_example_and_19_3(capsys):
    data = answer(capsys, "siege", "replacements", "--side", "jewish", "--eliminated", "38", "--roman-areas",
                  "New City")
    assert (data["pct"], data["replacements"]) == (90, 34)                            # 18.6 example
    data = answer(capsys, "siege", "replacements", "--side", "roman", "--weeks", "5", "--eliminated", "20")
    assert (data["pct"], data["replacements"]) == (35, 7)                             # 19.3: 35 %, dropped
    data = answer(capsys, "siege", "replacements", "--side", "roman", "--weeks", "6", "--drawn-weeks", "5",
                  "--eliminated", "20")
    assert data["replacements"] == 1                                                  # only the difference
    assert "--weeks" in refused(capsys, "siege", "replacements", "--side", "roman", "--eliminated", "3")


def test_replacements_drawn_from_the_dead_pile(capsys, pile):
    # Romans: the Combat units only (18.5), no HQ (18.52): d1 of d1-d4; Jews: d5-d7 at 100 % (no Area lost)
    roman = answer(capsys, "siege", "replacements", "--side", "roman", "--weeks", "9", "--position", pile,
                   "--seed", "1")
    assert (roman["eliminated"], roman["replacements"]) == (1, 0)
    jewish = answer(capsys, "siege", "replacements", "--side", "jewish", "--position", pile, "--seed", "1")
    assert (jewish["eliminated"], jewish["drawn"]) == (3, ["d5", "d6", "d7"])
    assert "--seed" in refused(capsys, "siege", "replacements", "--side", "jewish", "--position", pile)


def test_recovery_order_and_rolls(capsys, pile):
    data = answer(capsys, "siege", "recovery", pile, "--side", "roman", "--roll", "hq=2", "a=6", "b=4", "c=5")
    assert data["order"] == ["hq", "c", "b", "a"]                                     # 17.1: HQ, then BB19, BB20, KK30
    assert [(u["unit"], u["final"], u["outcome"]) for u in data["units"]] == [
        ("hq", 2, "fresh"), ("c", 6, "disrupted"), ("b", 5, "disrupted"), ("a", 6, "disrupted")]   # vs 5, 3, 4, 5
    # c and b stand 21 and 20 hexes from their only HQ, Disrupted (8 hexes, 5.11): out of CC, +1 each (5.12)
    assert [[m["id"] for m in u["modifiers"]] for u in data["units"]] == [[], ["not_in_cc"], ["not_in_cc"], []]
    seeded = answer(capsys, "siege", "recovery", pile, "--side", "roman", "--seed", "7")
    assert seeded == answer(capsys, "siege", "recovery", pile, "--side", "roman", "--seed", "7")
    assert all(1 <= u["roll"] <= 6 for u in seeded["units"])
    assert "not among the units" in refused(capsys, "siege", "recovery", pile, "--side", "roman", "--roll", "f=3")


def test_vp_of_a_position(capsys, pile):
    data = answer(capsys, "siege", "vp", pile, "--week", "3")
    assert data["casualty"] == 7 + 200 + 20 + 50        # 18.91: 7 Fresh Melee, Titus, a Siege Engine, a Leader
    assert data["flight"] == 10 + 106                   # 18.922: 2 x 5; a Leader 2 x 3 + 100
    assert (data["preparation"], data["total"], data["jewish_win"]) == (20, 413, False)   # 19.1: week 3
    assert "Jewish Victory Points: 413 of 1500 (18.9)" in run(capsys, "siege", "vp", pile, "--week", "3")


def test_reserves_18_611(capsys):
    data = answer(capsys, "siege", "reserves", "--area", "New City", "--roll", "1", "--unit-rolls", "1", "1", "3")
    assert [(m["id"], m["value"]) for m in data["modifiers"]] == [("temple_held_clear", 1), ("not_razed", 1)]
    assert (data["dice"], data["final"], data["released"]) == (1, 3, 3)
    assert len(data["units"]) == 3
    data = answer(capsys, "siege", "reserves", "--area", "New City", "--entered", "--razed", "New City",
                  "--temple", "roman", "--roll", "1", "1")
    assert (data["dice"], data["final"]) == (2, 2 + data["total_modifier"])
    assert "--roll" in refused(capsys, "siege", "reserves", "--area", "New City", "--entered", "--roll", "3")
