"""*No Prisoners* reinforcement placement (6.x, 18.4) on the bundled map and on the synthetic supply map."""
from __future__ import annotations

from position_files import write_position
from test_no_prisoners_supply import np_game  # noqa: F401  (the synthetic module fixture)

from toolkit.games.no_prisoners.reinforcements import placement, placement_json

WEST_EDGE = [f"01{r:02d}" for r in range(7, 26)]        # game.yaml allied_west_entry: Egypt's western edge


def place(pos, *units):
    return {u["unit"]: u for u in placement_json([placement(pos, x) for x in units], pos)["units"]}


def real(tmp_path, turn, phase, units, params=None, boxed=()):
    return write_position(tmp_path, "no-prisoners", turn, phase, "allied", units, params=params, boxed=boxed)


def test_allied_western_edge_but_not_under_enemy_units(tmp_path):
    # A CP unit in 0110 closes that hex (6.4 A); its ZOC over 0109 and 0111 does not (6.4 B).
    pos = real(tmp_path, "1916-II", "west_allied_reinforcement", [("t", "c-alpk", "0110")],
               boxed=[("anzac", "a-anzac-mtd-div", "reinforcements")])
    p = place(pos, "anzac")["anzac"]
    assert p["refused"] is None and p["rule"] == "6.3 A"
    assert p["hexes"] == [h for h in WEST_EDGE if h != "0110"] and {"0109", "0111"} <= set(p["hexes"])
    assert p["blocked"] == {"0110": {"reason": "0110 holds enemy units", "rule": "6.4 A"}}


def test_not_before_its_turn_nor_outside_its_phase_nor_from_the_dead_pile(tmp_path):
    pos = real(tmp_path, "1916-II", "west_allied_reinforcement", [],
               boxed=[("mgc", "a-mgc", "reinforcements"), ("dead", "a-anzac-mtd-div", "eliminated")])
    got = place(pos, "mgc", "dead")
    assert got["mgc"]["refused"] == {"reason": "mgc arrives in 1917-I; it is now 1916-II", "rule": "6.1"}
    assert got["dead"]["refused"]["rule"] == "6.1" and "eliminated box" in got["dead"]["refused"]["reason"]
    wrong = real(tmp_path, "1916-II", "west_allied_movement", [], boxed=[("anzac", "a-anzac-mtd-div", "reinforcements")])
    assert place(wrong, "anzac")["anzac"]["refused"]["rule"] == "6.2 A"


def test_cp_entry_blocked_everywhere_waits(tmp_path):
    # 6.3 C: the CP Western entry is 1201 and 1301; Allied units in both delay the arrival (6.5 A).
    units = [("x", "a-anzac-mtd-div", "1201"), ("y", "a-yeo-mtd-div", "1301")]
    pos = write_position(tmp_path, "no-prisoners", "1916-II", "west_cp_reinforcement", "cp", units,
                         boxed=[("alpk", "c-alpk", "reinforcements")])
    p = place(pos, "alpk")["alpk"]
    assert p["refused"]["rule"] == "6.5 A" and p["hexes"] == [] and sorted(p["blocked"]) == ["1201", "1301"]


def test_cp_eastern_entry_includes_the_hex_south_of_damascus(tmp_path):
    pos = write_position(tmp_path, "no-prisoners", "1916-II", "east_cp_reinforcement", "cp", [],
                         boxed=[("kb", "c-kb-grp", "reinforcements")])
    p = place(pos, "kb")["kb"]
    kiswe = pos.game.map.name(pos.game.map.resolve("Kiswe"))
    assert p["rule"] == "6.3 D" and p["hexes"] == [f"{c:02d}01" for c in range(14, 24)] + [kiswe]


def test_ar_units_after_the_revolt_in_an_allied_held_port(tmp_path):
    boxed = [("fm", "a-french-mission", "reinforcements")]
    none = real(tmp_path, "1916-IV", "east_allied_reinforcement", [], boxed=boxed)
    assert place(none, "fm")["fm"]["refused"]["rule"] == "18.1 A"
    early = real(tmp_path, "1916-III", "east_allied_reinforcement", [], params={"arab_revolt": "1916-II"}, boxed=boxed)
    assert place(early, "fm")["fm"]["refused"] == {"reason": "fm arrives in 1916-IV; it is now 1916-III",
                                                   "rule": "18.2 B"}
    m = early.game.map
    wejh = m.name(m.resolve("Wejh"))
    pos = real(tmp_path, "1916-IV", "east_allied_reinforcement", [("a", "a-french-mission", wejh)],
               params={"arab_revolt": "1916-II"}, boxed=boxed)
    p = place(pos, "fm")["fm"]
    assert p["hexes"] == [wejh] and p["rule"] == "18.4"
    assert sorted(p["blocked"]) == sorted(m.name(m.resolve(x)) for x in ("Aqaba", "Yenbo"))


# -- tribal units on the synthetic map: 12 rows, columns 12-26 Eastern ----------------------------------------------
def test_tribal_units_near_the_south_edge_free_of_enemy_and_ezoc(np_game):  # noqa: F811
    pos = write_position(np_game, "no-prisoners", "1916-I", "movement", "allied", [("t", "te-inf", "1808")],
                         params={"arab_revolt": "1916-I"}, boxed=[("tr", "tribe", "reinforcements")])
    p = place(pos, "tr")["tr"]
    zoc = ["1707", "1708", "1807", "1809", "1907", "1908"]           # 1808's neighbours (odd columns shifted down)
    near_south = [f"{c:02d}{r:02d}" for c in range(12, 27) for r in range(6, 13)]   # rows 6-12: <= 6 from row 12
    assert p["rule"] == "18.4" and p["hexes"] == sorted(set(near_south) - set(zoc) - {"1808"})
    assert sorted(p["blocked"]) == ["1707", "1708", "1807", "1808", "1809", "1907", "1908"]
    assert p["blocked"]["1808"]["reason"] == "1808 holds enemy units"


def test_tribal_units_also_near_another_allied_eastern_unit(np_game):  # noqa: F811
    pos = write_position(np_game, "no-prisoners", "1916-I", "movement", "allied", [("e", "e-inf", "2002")],
                         params={"arab_revolt": "1916-I"}, boxed=[("tr", "tribe", "reinforcements")])
    hexes = place(pos, "tr")["tr"]["hexes"]
    assert {"2001", "2002", "1401", "2601"} <= set(hexes) and "1301" not in hexes   # 1301 is 7 from 2002


def test_25_4_2_scenario_1_arab_revolt_lets_tribal_units_be_placed():
    # 25.4.2 starts Scenario 1 with the Arab Revolt triggered in 1916-II, so in that turn's Eastern Allied
    # Reinforcement Phase the tribal units drawn (18.2 A) are placed (18.4).  The scenario names the turn
    # with the parameter the code reads, `arab_revolt`.
    from dataclasses import replace

    from toolkit.game import load_position
    from toolkit.game.module import modules_dir
    pos = load_position(modules_dir() / "no-prisoners" / "scenarios" / "scenario-1.yaml")
    assert pos.params["arab_revolt"] == "1916-II"
    east = replace(pos, phase="east_allied_reinforcement")
    p = place(east, "a-tribal-1")["a-tribal-1"]
    assert p["refused"] is None and p["rule"] == "18.4" and len(p["hexes"]) > 0
    scenario_2 = load_position(modules_dir() / "no-prisoners" / "scenarios" / "scenario-2.yaml")
    assert scenario_2.params["arab_revolt"] is None                       # 26.4.2: not yet triggered


def test_unknown_position_parameter_is_an_error(tmp_path):
    # game.yaml declares the parameters a No Prisoners position may carry; a misspelt one is refused, not
    # silently ignored.
    import pytest

    from toolkit.game import GameDataError
    with pytest.raises(GameDataError) as e:
        real(tmp_path, "1916-II", "east_allied_reinforcement", [], params={"arab_revolt_turn": "1916-II"})
    assert "arab_revolt_turn" in str(e.value) and "arab_revolt" in str(e.value).replace("arab_revolt_turn", "")
