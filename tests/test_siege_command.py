"""Siege of Jerusalem Command Control (5.x, 17.3, 18.4, 18.24, 18.52) on the bundled map."""
from siege_positions import pos

from toolkit.games.siege import command, command_json


def radius(p, hq):
    return next(h["radius"] for h in command_json(command(p))["hqs"] if h["hq"] == hq)


def test_range_10_8_8_6():
    day, night = "AP I/1", "AP I/8"
    assert radius(pos([("hq", "v-hq", "M23")], turn=day), "hq") == 10                   # 5.1
    assert radius(pos([("hq", "v-hq", "M23", "disrupted")], turn=day), "hq") == 8       # 5.11
    assert radius(pos([("hq", "v-hq", "M23")], turn=night), "hq") == 8                  # 18.24
    assert radius(pos([("hq", "v-hq", "M23", "disrupted")], turn=night), "hq") == 6     # 5.11


def test_distance_10_in_11_out():
    # H23 .. S23 is a straight row of open Clear hexes outside the city
    p = pos([("hq", "v-hq", "H23"), ("in", "v-1-7-8", "R23"), ("out", "v-1-6-8", "S23")])
    d = command_json(command(p))
    assert d["in_command"]["in"] == ["hq"]
    assert [o["unit"] for o in d["out_of_command"]] == ["out"]
    assert d["out_of_command"][0]["rule"] == "5.2"


def test_5_4_leaders_command_their_own_legion_and_5_5_commanders_all():
    p = pos([("xhq", "x-hq", "H23"), ("v", "v-1-7-8", "J23"), ("x", "x-1-7-8", "J23")])
    d = command_json(command(p))
    assert d["in_command"] == {"x": ["xhq"]}
    assert [o["unit"] for o in d["out_of_command"]] == ["v"]
    p = pos([("titus", "titus", "H23"), ("v", "v-1-7-8", "J23"), ("x", "x-1-7-8", "J23")])
    assert command_json(command(p))["in_command"] == {"v": ["titus"], "x": ["titus"]}


def test_5_6_automatic_cc_temple_district_and_garrisons():
    p = pos([("tq", "tq-regulars", "PP37"), ("y", "y-regulars-5-7", "PP36"), ("hp", "hp-regulars", "Q51")],
            side="jewish")
    auto = command_json(command(p))["automatic"]
    assert auto["tq"]["rule"] == "5.6" and "Garrison" in auto["tq"]["reason"]
    assert auto["y"]["rule"] == "5.6" and "Temple District" in auto["y"]["reason"]
    assert "hp" in auto
    assert command_json(command(p))["out_of_command"] == []


def test_18_52_each_replacement_costs_a_hex():
    p = pos([("hq", "y-leader", "M23")], side="jewish", params={"leader_replacements": "hq:2"})
    assert radius(p, "hq") == 8
    red = command_json(command(p))["hqs"][0]["reductions"]
    assert red == [{"rule": "18.52", "hexes": -2, "why": "replaced 2 time(s)"}]


def test_5_2_traced_only_through_hexes_the_hq_could_enter():
    # a Roman unit on the wall AA22 is next to its HQ at Z22, but the HQ has no way up there (8.93)
    p = pos([("hq", "v-hq", "Z22"), ("w", "v-1-7-8", "AA22")])
    assert [o["unit"] for o in command_json(command(p))["out_of_command"]] == ["w"]


def test_5_2_traces_sharing_steps_between_hqs_agree_with_each_alone():
    import sys
    from pathlib import Path
    from toolkit.games import load_game_position
    from toolkit.games.siege.movement import facts_for
    from toolkit.games.siege.tables import load_tables
    from toolkit.games.siege.zoc import Board
    cc = sys.modules["toolkit.games.siege.command"]
    p = load_game_position(Path(__file__).resolve().parent.parent / "modules" / "siege-of-jerusalem" / "scenarios"
                           / "demonstration.yaml")
    board = Board.of(p, facts_for(p, load_tables(p.game.folder)))
    shared: dict = {}
    for hq in [u for u in p.units if u.hex is not None and cc.is_hq(u)]:
        r, _ = cc.radius(p, hq, board)
        assert cc.trace(p, hq, r, board, None, shared) == cc.trace(p, hq, r)
