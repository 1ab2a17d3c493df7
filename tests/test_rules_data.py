"""Issue 19: a game's rules as data (rules.yaml), on the example game examples/steppe (not one of the three).

Every expected answer is worked out by hand from the map (10 x 8 flat-top hexes, CCRR, odd columns shifted
down: an odd column's hex CCRR touches (CC±1, RR) and (CC±1, RR+1), an even column's (CC±1, RR-1) and (CC±1, RR))
and examples/steppe/rules.yaml, and commented with the game's rule.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from toolkit.answers import check_answer, moves_json, search_moves
from toolkit.game import GameDataError, load_game
from toolkit.game.moves import Blocked
from toolkit.game.position import position_from_yaml
from toolkit.games import rule, rules_for
from toolkit.games.data.movement import DataMove

ROOT = Path(__file__).resolve().parent.parent
STEPPE = ROOT / "examples" / "steppe"


@pytest.fixture
def steppe(tmp_path) -> Path:
    """A copy of the example game, so a test may change its rules."""
    folder = tmp_path / "steppe"
    shutil.copytree(STEPPE, folder)
    return folder


def position(folder: Path, units: list[dict], phase: str = "axis_movement", turn: str = "1", **more):
    """A position of the Steppe game holding ``units`` ({id, counter, hex | box, ...})."""
    side = "soviet" if phase.startswith("soviet") else "axis"
    doc = {"game": "steppe", "turn": turn, "phase": phase, "phasing_side": side, "units": units, **more}
    return position_from_yaml(yaml.safe_dump(doc).encode(), "test.yaml", load_game(str(folder)))


def u(uid: str, counter: str, where: str, **more) -> dict:
    """One unit: on a hex, or in a box when ``where`` is ``reinforcements``."""
    return {"id": uid, "counter": counter, **({"box": where} if where == "reinforcements" else {"hex": where}),
            **more}


def moves(pos, *units: str, **options) -> dict:
    return moves_json(pos, list(units), search_moves(pos, "test.yaml", list(units), **options))


def dest(answer: dict) -> dict[str, dict]:
    return {d["hex"]: d for d in answer["destinations"]}


def refused(answer: dict) -> dict[str, dict]:
    return {r["hex"]: r for r in answer["unreachable"]}


# -- movement ------------------------------------------------------------------------------------------------------

def test_terrain_road_river_and_enemy_costs(steppe):
    pos = position(steppe, [u("pz", "ger-pz", "0305"), u("r", "sov-inf", "0604")])
    ans = moves(pos, "pz")
    d, r = dest(ans), refused(ans)
    assert ans["mp"] == 6
    # 6.5: 0205 (1) and 0204 (1) in the open, then along the road into forest 0304 for ½: 2½, cheaper than the
    # forest's 3 for armour (6.2) straight from 0305.
    assert (d["0304"]["cost"], d["0304"]["path"]) == (2.5, ["0305", "0205", "0204", "0304"])
    assert d["0303"]["cost"] == 5                     # 6.2: 2 MP to 0204 or 0404, then forest 3
    # 6.3: 0406 (1), 0505 (1), then clear 1 + river 2 for armour into 0605, which 0604's ZOC stops (7.1)
    assert (d["0605"]["cost"], d["0605"]["stop"], d["0605"]["stop_rule"]) == (5, True, "7.1")
    assert r["0206"] == {"hex": "0206", "reason": "swamp is prohibited to mech units", "rule": "6.2"}
    assert r["0604"]["rule"] == "6.7"                 # enemy units hold it
    assert "0604" not in d


def test_a_line_prohibited_to_a_class_is_no_shortcut_for_it(steppe):
    rules = yaml.safe_load((steppe / "rules.yaml").read_text())
    rules["movement"]["lines"]["road"]["cost"] = {"foot": 0.5, "mech": "P"}
    (steppe / "rules.yaml").write_text(yaml.safe_dump(rules))
    pos = position(steppe, [u("pz", "ger-pz", "0305")])
    # 6.5 with the road barred to armour: into forest 0304 at the forest's 3 (6.2), not the road's ½ (nor free)
    assert dest(moves(pos, "pz"))["0304"]["cost"] == 3


def test_major_river_prohibited_to_armour_costly_for_foot(steppe):
    tank = position(steppe, [u("t", "sov-tank", "0806")], phase="soviet_movement")
    assert refused(moves(tank, "t"))["0905"] == {"hex": "0905", "reason": "mech units may not cross the "
                                                 "major_river hexside", "rule": "6.4"}
    foot = position(steppe, [u("i", "sov-inf", "0806")], phase="soviet_movement")
    assert dest(moves(foot, "i"))["0905"]["cost"] == 3   # 6.4: clear 1 + major river 2 for foot


def test_zoc_leaving_costs_and_no_zoc_to_zoc(steppe):
    # The Soviet rifles in 0604 start in the ZOC of the German infantry in 0504 (across a minor river: 7.0).
    pos = position(steppe, [u("g", "ger-inf", "0504"), u("r", "sov-inf", "0604")], phase="soviet_movement")
    ans = moves(pos, "r")
    d = dest(ans)
    assert d["0603"]["cost"] == 2                     # 7.2: clear 1 + 1 to leave the ZOC
    assert d["0704"]["cost"] == 1.5                   # 7.2 and 6.5: along the road ½ + 1 to leave
    # 0605 and 0503 lie in 0504's ZOC too: not straight from 0604 (7.3), but around, through a free hex, where
    # the move stops (7.1): 0704 then 0605 (1½ + 1); 0603 then 0503 across the river (2 + 1 + 1)
    assert (d["0605"]["cost"], d["0605"]["path"], d["0605"]["stop_rule"]) == (2.5, ["0604", "0704", "0605"], "7.1")
    assert (d["0503"]["cost"], d["0503"]["path"]) == (4, ["0604", "0603", "0503"])
    tired = position(steppe, [u("g", "ger-inf", "0504"), u("r", "sov-inf", "0604", spent=2)],
                     phase="soviet_movement")
    r = refused(moves(tired, "r"))                    # with 2 MP left no way around: only 7.3 bars them
    assert r["0605"]["rule"] == r["0503"]["rule"] == "7.3"


def test_zoc_does_not_cross_a_major_river(steppe):
    pos = position(steppe, [u("g", "ger-inf", "0904"), u("t", "sov-tank", "0703")], phase="soviet_movement")
    d = dest(moves(pos, "t"))
    assert (d["0804"]["cost"], d["0804"]["stop"]) == (1, False)       # 7.0: 0904's ZOC stops at the river
    assert (d["0903"]["cost"], d["0903"]["stop_rule"]) == (2, "7.1")  # 0803, then 0903 beside 0904


def test_minimum_move_takes_the_whole_allowance(steppe):
    pos = position(steppe, [u("g", "ger-inf", "0403", spent=3.5)])
    d = dest(moves(pos, "g"))
    # 6.6: with ½ MP left, any one neighbour (even forest 0303, 2 MP) for the whole ½, and no further
    assert sorted(d) == ["0302", "0303", "0402", "0404", "0502", "0503"]
    assert {(x["cost"], x["stop_rule"]) for x in d.values()} == {(0.5, "6.6")}


def test_rail_movement_along_the_rail_only_and_never_into_enemy_zoc(steppe):
    pos = position(steppe, [u("pz", "ger-pz", "0102"), u("r", "sov-inf", "0603")])
    ans = moves(pos, "pz", kind="rail")
    assert ans["mp"] == 10
    # 8.1: 1 MP a rail hex; 0502 lies in the ZOC of the rifles in 0603
    assert {h: x["cost"] for h, x in dest(ans).items()} == {"0202": 1, "0302": 2, "0402": 3}
    assert refused(ans)["0502"]["rule"] == "8.1"
    free = position(steppe, [u("pz", "ger-pz", "0102")])
    assert dest(moves(free, "pz", kind="rail"))["1002"]["cost"] == 9   # the river crossed along the rail
    with pytest.raises(ValueError, match="kind 'sea'"):
        moves(free, "pz", kind="sea")


def test_a_road_phase_allows_road_movement_only(steppe):
    rules = yaml.safe_load((steppe / "rules.yaml").read_text())
    rules["movement"]["kinds"]["road"] = {"rule": "8.2", "along": ["road"], "phases": ["axis_mech"], "only": True}
    (steppe / "rules.yaml").write_text(yaml.safe_dump(rules))
    pos = position(steppe, [u("pz", "ger-pz", "0204")], phase="axis_mech")
    # 8.2: in the mechanized phase a unit moves along the road only, at the road's ½ MP a hex (6.5)
    assert {h: x["cost"] for h, x in dest(moves(pos, "pz")).items()} == {
        "0104": 0.5, "0304": 0.5, "0404": 1, "0504": 1.5, "0604": 2, "0704": 2.5, "0705": 3}
    with pytest.raises(ValueError, match="allows road movement only"):
        moves(pos, "pz", kind="rail")


def test_who_moves_in_which_phase(steppe):
    units = [u("g", "ger-inf", "0104"), u("pz", "ger-pz", "0305"), u("r", "sov-inf", "0805")]
    mech = position(steppe, units, phase="axis_mech")
    assert moves(mech, "g")["refused"] == {"reason": "g may not move in Axis Mechanized Movement (units of type "
                                                     "armour move in it)", "rule": "6.0"}
    assert moves(mech, "pz")["refused"] is None
    combat = position(steppe, units, phase="axis_combat")
    assert moves(combat, "pz")["refused"]["reason"].startswith("units move only in the movement phases")
    assert moves(position(steppe, units), "r")["refused"]["reason"] == \
        "only the phasing side (axis) moves in Axis Movement"


def test_a_reinforcement_enters_at_an_entry_hex(steppe):
    units = [u("g", "ger-inf", "reinforcements", turn="2")]
    assert dest(moves(position(steppe, units, turn="2"), "g", enter="0103"))["0102"]["cost"] == 2  # 0103 1 + city 1
    with pytest.raises(ValueError, match="arrives on turn 2"):
        moves(position(steppe, units), "g", enter="0103")


# -- properties of the move generator on a data game ------------------------------------------------------------------

START = ["0104", "0203", "0305", "0403", "0504", "0702", "0806"]


@settings(max_examples=25)
@given(st.sampled_from(START), st.sampled_from(["ger-inf", "ger-pz"]))
def test_every_path_is_legal_and_costs_what_it_says(start, counter):
    pos = position(STEPPE, [u("x", counter, start), u("r", "sov-inf", "0705"), u("s", "sov-tank", "0603")])
    result = search_moves(pos, "p", ["x"])
    rules = DataMove(pos, [pos.by_id["x"]], None, None)
    for d in result.destinations.values():
        cost = 0
        for a, b in zip(d.path, d.path[1:]):
            steps = {s.to: s for s in rules.steps(a, cost) if not isinstance(s, Blocked)}
            assert b in steps, (d.path, a, b)
            cost += steps[b].cost
            assert steps[b].stop is None or b == d.hex   # a stop ends the move
        assert cost == d.cost <= result.budget


@settings(max_examples=15)
@given(st.sampled_from(START), st.integers(0, 7))
def test_more_movement_points_never_shrink_the_destinations(start, spent):
    def reach(s):
        pos = position(STEPPE, [u("x", "ger-pz", start, spent=s / 2), u("r", "sov-inf", "0705")])
        return set(search_moves(pos, "p", ["x"]).destinations)
    assert reach(spent + 1) <= reach(spent)


# -- combat --------------------------------------------------------------------------------------------------------

def odds(pos, attack, defend) -> dict:
    rules = rules_for(pos.game)
    return rules.combat_json(rules.combat(pos, attack, defend))


def test_odds_across_a_river_with_armour(steppe):
    pos = position(steppe, [u("g", "ger-inf", "0504"), u("pz", "ger-pz", "0503"), u("r", "sov-inf", "0604")])
    ans = odds(pos, ["g", "pz"], ["r"])
    # 4 + 8 against 4: 3-1; every attacker across the river -1 (9.4), armour in the open +1 (9.5): 3-1
    assert (ans["attack"], ans["defence"], ans["ratio"], ans["odds"]) == (12, 4, "3-1", "3-1")
    assert [(s["columns"], s["rule"]) for s in ans["shifts"]] == [(-1, "9.4"), (1, "9.5")]
    assert [r["result"] for r in ans["results"]] == ["DE", "DR", "DR", "EX", "AR", "AR"]   # the 3-1 column
    assert ans["chances"] == pytest.approx({"DE": 1 / 6, "DR": 2 / 6, "EX": 1 / 6, "AR": 2 / 6})
    assert ans["results"][0]["meaning"] == "defender eliminated"


def test_odds_one_attacker_not_across_the_river(steppe):
    pos = position(steppe, [u("g", "ger-inf", "0504"), u("pz", "ger-pz", "0704"), u("r", "sov-inf", "0604")])
    ans = odds(pos, ["g", "pz"], ["r"])
    # 0704 is six hexes from the Axis west edge: out of supply (12.0), the Panzer attacks with 8 x½ (12.3):
    # 4 + 4 against 4, 2-1; no river shift, as 0704 is not across it (9.4); armour in the open +1 (9.5): 3-1
    assert (ans["attack"], ans["ratio"], ans["odds"]) == (8, "2-1", "3-1")
    assert [s["rule"] for s in ans["shifts"]] == ["9.5"]


def test_odds_city_doubles_the_defence(steppe):
    pos = position(steppe, [u("g", "ger-inf", "0606"), u("pz", "ger-pz", "0605"), u("r", "sov-inf", "0705")])
    ans = odds(pos, ["g", "pz"], ["r"])
    # 12 against 4 x2 in the city (9.3): 1-1; no armour shift in a city (9.5)
    assert (ans["defence"], ans["ratio"], ans["odds"], ans["shifts"]) == (8, "1-1", "1-1", [])
    assert ans["defenders"][0]["how"] == "defence 4 x2 in city (9.3)"


def test_odds_below_the_table_and_out_of_supply(steppe):
    pos = position(steppe, [u("g", "ger-inf", "0904"), u("r", "sov-inf", "1004")])
    ans = odds(pos, ["g"], ["r"])
    # 0904 is 8 hexes from the Axis west edge: out of supply (12.0), attack 4 x½ (12.3) = 2 against 4 x2 = 8:
    # 1-4, below the 1-2 column: every roll AE (9.2)
    assert (ans["attack"], ans["defence"], ans["odds"]) == (2, 8, "below 1-2")
    assert {r["result"] for r in ans["results"]} == {"AE"}
    assert ans["attackers"][0]["how"] == "attack 4 x0.5 out of supply (12.3)"


def test_odds_refused_when_not_adjacent(steppe):
    pos = position(steppe, [u("g", "ger-inf", "0104"), u("r", "sov-inf", "0604")])
    assert odds(pos, ["g"], ["r"])["refused"] == {"reason": "g not next to the defender's hex", "rule": "9.0"}


# -- supply, command, reinforcements, victory, check ------------------------------------------------------------------

def _only_poltava(folder: Path, hexes: int) -> None:
    rules = yaml.safe_load((folder / "rules.yaml").read_text())
    rules["supply"].update(sources={"axis": {"rule": "12.1", "places": ["Poltava"]}, "soviet": {"edges": ["east"]}},
                           hexes=hexes)
    (folder / "rules.yaml").write_text(yaml.safe_dump(rules))


def test_supply_cut_by_zoc_and_restored_by_a_friend(steppe):
    _only_poltava(steppe, 2)
    # 0302 reaches Poltava (0102) in two hexes through 0202 or 0203; the rifles in 0201 and 0204 put both in
    # their ZOC (12.0 blocked_by enemy_zoc)
    units = [u("g", "ger-inf", "0302"), u("r1", "sov-inf", "0201"), u("r2", "sov-inf", "0204")]
    line = _supply(position(steppe, units), "g")
    assert not line["supplied"]
    assert line["cut"]["hex"] in ("0202", "0203") and line["cut"]["rule"] == "12.0"
    assert line["cut"]["reason"].endswith("an enemy zone of control with no friendly unit in it")
    # a German unit in 0203 negates the ZOC there for supply (zoc.negated_by_friends)
    line = _supply(position(steppe, units + [u("g2", "ger-inf", "0203")]), "g")
    assert (line["supplied"], line["path"]) == (True, ["0302", "0203", "0102"])


def test_supply_cut_by_distance(steppe):
    line = _supply(position(steppe, [u("g", "ger-inf", "0904")]), "g")
    assert line["cut"] == {"hex": "0904", "reason": "no supply source within 5 hexes on an open line",
                           "rule": "12.0"}
    path = _supply(position(steppe, [u("g", "ger-inf", "0604")]), "g")["path"]
    assert len(path) == 6 and path[-1].startswith("01")     # five columns west: exactly the 5-hex limit


def _supply(pos, unit: str) -> dict:
    rules = rules_for(pos.game)
    return rules.supply_json(rules.supply(pos, unit=unit))["units"][0]


def test_command_radius(steppe):
    pos = position(steppe, [u("hq", "ger-hq", "0204"), u("near", "ger-pz", "0305"), u("far", "ger-inf", "0604")])
    rules = rules_for(pos.game)
    ans = rules.command_json(rules.command(pos))
    # 11.0: radius 3 (the HQ's command value); 0305 is 2 hexes away, 0604 4
    assert (ans["hqs"][0]["radius"], ans["hqs"][0]["units"], ans["hqs"][0]["rule"]) == (3, ["near"], "11.0")
    assert ans["out_of_command"] == [{"unit": "far", "hex": "0604", "reason": "not within the command radius of a "
                                                                             "friendly HQ", "rule": "11.0"}]


def test_reinforcement_entry_hexes(steppe):
    units = [u("g", "ger-inf", "reinforcements", turn="2"), u("r", "sov-inf", "0205"),
             u("t", "sov-tank", "reinforcements", turn="2"), u("blocker", "ger-inf", "1004")]
    pos = position(steppe, units, turn="2")
    rules = rules_for(pos.game)
    ans = rules.placement_json([rules.placement(pos, "g"), rules.placement(pos, "t")], pos)
    g, t = ans["units"]
    # 13.1: the west edge, less 0104 and 0105 in the ZOC of the rifles in 0205
    assert g["hexes"] == ["0101", "0102", "0103", "0106", "0107", "0108"]
    assert g["blocked"] == {"0104": {"reason": "the hex is in an enemy zone of control", "rule": "13.1"},
                            "0105": {"reason": "the hex is in an enemy zone of control", "rule": "13.1"}}
    assert (t["hexes"], t["blocked"]["1004"]["reason"]) == ([], "enemy units hold the hex")   # Belgorod held


def test_reinforcements_by_region(steppe):
    text = (steppe / "map.yaml").read_text().replace("areas:\n", "areas:\n  - {region: Don, hexes: [\"1007\", \"1008\"]}\n")
    (steppe / "map.yaml").write_text(text)
    rules = yaml.safe_load((steppe / "rules.yaml").read_text())
    rules["reinforcements"]["entry"]["soviet"] = {"rule": "13.2", "regions": ["Don"]}
    (steppe / "rules.yaml").write_text(yaml.safe_dump(rules))
    pos = position(steppe, [u("t", "sov-tank", "reinforcements", turn="1")])
    placed = rules_for(pos.game).placement(pos, "t")
    assert ([pos.game.map.name(h) for h in placed.hexes], placed.rule) == (["1007", "1008"], "13.2")


def test_victory_levels(steppe):
    base = [u("r", "sov-inf", "0604")]
    rules = rules_for(load_game(str(steppe)))
    assert rules.victory(position(steppe, base)).result == "Soviet victory"
    held = position(steppe, base + [u("g", "ger-inf", "0705")])
    assert (rules.victory(held).vp["axis"], rules.victory(held).result) == (10, "Axis marginal victory")
    marked = position(steppe, base + [u("g", "ger-inf", "0705")], markers=[{"marker": "axis-control",
                                                                             "hex": "Belgorod"}])
    assert rules.victory_json(rules.victory(marked))["result"] == "Axis decisive victory"   # 10 + 5 (14.1)


def test_check_stacking_points_terrain_and_sides(steppe):
    units = [u("p1", "ger-pz", "0305"), u("p2", "ger-pz", "0305"), u("hq", "ger-hq", "0305"),
             u("p3", "ger-pz", "0206"), u("g", "ger-inf", "0604"), u("r", "sov-inf", "0604")]
    ans = check_answer(position(steppe, units))
    found = {(v["rule"], tuple(v["hexes"])) for v in ans["violations"]}
    # stacking: 2 + 2 points (the HQ counts none) over 3 in 0305, and the Panzer's 2 over the swamp's limit of 1
    # in 0206, where armour may not be at all (6.2); two sides in 0604 (6.7)
    assert found == {("game.yaml stacking", ("0305",)), ("game.yaml stacking", ("0206",)), ("6.2", ("0206",)),
                     ("6.7", ("0604",))}
    assert any("4 stacking points of axis units in 0305" in v["message"] for v in ans["violations"])


def test_line_of_sight_falls_back_to_the_map(steppe):
    pos = position(steppe, [u("g", "ger-inf", "0104")])
    seen = rule(pos.game, "can_see")(pos, pos.game.map.resolve("0104"), pos.game.map.resolve("Kharkov"))
    assert not seen.visible and seen.rule == "10.1"          # the forest of 0304 blocks (the map's los.rule)


# -- what a module maker sees --------------------------------------------------------------------------------------

def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "toolkit", *args], capture_output=True, text=True, cwd=ROOT)


def test_the_commands_answer_for_a_data_only_game():
    scenario = str(STEPPE / "scenarios" / "scenario-1.yaml")
    for command in (["moves", scenario, "g-pz-2"], ["supply", scenario], ["command", scenario],
                    ["odds", scenario, "--attack", "g-inf-1", "--defend", "s-inf-1"], ["place", scenario, "g-inf-3"],
                    ["victory", scenario], ["check", scenario]):
        done = _run(*command, "--game", str(STEPPE))
        assert done.returncode == 0 and "Traceback" not in done.stderr, (command, done.stderr)


@pytest.mark.parametrize("edit, key, needle", [
    (lambda r: r["movement"]["terrain"]["costs"].update(marsh=2), "movement.terrain.costs.marsh", "unknown terrain"),
    (lambda r: r["movement"]["terrain"]["costs"].pop("swamp"), "movement.terrain.costs", "no cost for the map's "
                                                                                       "terrain 'swamp'"),
    (lambda r: r["movement"]["hexsides"].update(road={"cost": 1}), "movement.hexsides.road", "move it to "
                                                                                              "movement.lines"),
    (lambda r: r["movement"].update(allowance="speed"), "movement.allowance", "values.speed"),
    (lambda r: r["combat"]["table"]["rows"][3].pop(), "combat.table.rows.3", "5 results for 6 columns"),
    (lambda r: r["movement"]["terrain"]["costs"].update(clear=0.3), "movement.terrain.costs.clear", "steps of ½"),
    (lambda r: r["retreat"]["results"].update(ZZ={"defender": {"retreat": 1}}), "retreat.results.ZZ",
     "unknown result code"),
    (lambda r: r.pop("zoc"), "retreat.enemy_zoc", "declare zoc"),
])
def test_rules_file_errors_name_the_key_and_the_fix(steppe, edit, key, needle):
    rules = yaml.safe_load((steppe / "rules.yaml").read_text())
    edit(rules)
    (steppe / "rules.yaml").write_text(yaml.safe_dump(rules))
    with pytest.raises(GameDataError) as err:
        load_game(str(steppe)).rules_data
    assert key in str(err.value) and needle in str(err.value) and "rules.yaml" in str(err.value)


def test_an_undeclared_section_names_what_to_add(steppe):
    rules = yaml.safe_load((steppe / "rules.yaml").read_text())
    del rules["combat"], rules["retreat"]        # a retreat section names the combat's result codes
    (steppe / "rules.yaml").write_text(yaml.safe_dump(rules))
    done = _run("odds", str(steppe / "scenarios" / "scenario-1.yaml"), "--game", str(steppe), "--attack", "g-inf-1",
                "--defend", "s-inf-1")
    assert done.returncode == 2 and "declare `combat:`" in done.stderr and "rules.yaml" in done.stderr


def test_a_game_without_rules_says_how_to_get_them(steppe):
    (steppe / "rules.yaml").unlink()
    done = _run("moves", str(steppe / "scenarios" / "scenario-1.yaml"), "g-pz-2", "--game", str(steppe))
    assert done.returncode == 2 and "docs/rules-data.md" in done.stderr and "docs/plugins.md" in done.stderr


# -- rule topics ---------------------------------------------------------------------------------------------------
def test_rule_topics_come_from_where_rules_yaml_cites_them_and_the_folders_file_wins(steppe):
    topics = load_game(str(steppe)).rule_topics
    assert topics["7.1"] == "ZOC: enter" and topics["6.2"] == "movement: terrain"
    assert topics["6.4"] == "movement: hexsides (major river)" and topics["9.5"] == "combat: modifiers (armour)"
    rules = yaml.safe_load((steppe / "rules.yaml").read_text())
    cited = {rules["zoc"]["rule"], rules["movement"]["terrain"]["rule"], rules["combat"]["terrain_rule"]}
    assert cited <= set(topics)                                    # every section's citation has its topic
    own = steppe.parent / "own-topics"
    shutil.copytree(steppe, own)
    (own / "rule_topics.yaml").write_text('"7.1": entering an enemy ZOC stops the move\n')
    topics = load_game(str(own)).rule_topics
    assert topics["7.1"] == "entering an enemy ZOC stops the move" and topics["6.2"] == "movement: terrain"
