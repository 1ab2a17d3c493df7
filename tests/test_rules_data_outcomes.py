"""Issue 33: what rules.yaml now says of outcomes: an attack refused below the table, exchanges by steps, sudden
death (the game ends through the sequence of play), end-of-game scoring, and replacements.

The positions are the example game examples/steppe (tests/test_rules_data.py describes its map); each rule edited
in is written here with a rule number of its own; every expected answer is worked out by hand.
"""
from __future__ import annotations

import pytest

from toolkit.answers import check_answer, retreat_answer, victory_answer
from toolkit.game import GameDataError, load_game
from toolkit.game.placement import placement_json
from toolkit.game.play import place_unit
from toolkit.game.sequence import GameOver, game_over, next_phase
from toolkit.games import rules_for
from tests.test_rules_data import odds, position, steppe, u  # noqa: F401  (steppe: a fixture)
from tests.test_rules_data_keys import edit


# -- an attack below the table -------------------------------------------------------------------------------------

def test_an_attack_below_the_lowest_column_is_refused(steppe):
    edit(steppe, "rules.yaml", lambda r: r["combat"]["table"].update(below="refused"))
    units = [u("g", "ger-inf", "0203"), u("c1", "sov-inf", "0102"), u("c2", "sov-inf", "0102")]
    # 9.3: 4 against 2 x 4 x2 in Poltava (a city) = 16, 1-4, below 1-2: not allowed (9.2)
    ans = odds(position(steppe, units, "axis_combat"), ["g"], ["c1", "c2"])
    assert ans["refused"] == {"reason": "odds of 1-4 are below the lowest column, 1-2: the attack is not allowed",
                              "rule": "9.2"}
    # one defender: 4 against 8, 1-2, resolved on the table
    assert odds(position(steppe, units[:2], "axis_combat"), ["g"], ["c1"])["refused"] is None


# -- exchanges by steps --------------------------------------------------------------------------------------------

def exchange(folder, per: str, steps: int = 1) -> None:
    edit(folder, "rules.yaml", lambda r: r["retreat"]["results"].update(
        EX={"rule": "10.5", "exchange": {"per": per, "steps": steps}}))


COMBAT = [u("g", "ger-inf", "0504"), u("h", "ger-inf", "0504"), u("r1", "sov-inf", "0604"),
          u("r2", "sov-inf", "0604")]


def _by_unit(answer: dict) -> dict[str, dict]:
    return {x["unit"]: x for x in answer["units"]}


def test_an_exchange_costs_each_side_one_step(steppe):
    exchange(steppe, "side")
    pos = position(steppe, COMBAT, "axis_combat")
    defenders = _by_unit(retreat_answer(pos, ["r1", "r2"], attackers=["g", "h"], result="EX"))
    # 10.5: one step of the defending side: r1, named first, turns to its back face; r2 loses nothing
    assert defenders["r1"]["flipped"] == {"reason": "the exchange costs it a step: it turns to its back face",
                                          "rule": "10.5"}
    assert defenders["r2"]["flipped"] is None and defenders["r2"]["eliminated"] is None
    # … and one of the attacking side: h, named first this time
    attackers = _by_unit(retreat_answer(pos, ["h", "g"], attackers=["r1"], result="EX"))
    assert (attackers["h"]["flipped"] is not None, attackers["g"]["flipped"]) == (True, None)
    after = retreat_answer(pos, ["r1", "r2"], attackers=["g"], result="EX", apply=[])["after"]["position"]
    assert {x["id"]: x.get("flags", []) for x in after["units"] if x["id"].startswith("r")} == {
        "r1": ["reduced"], "r2": []}


def test_two_steps_a_side_reduce_a_reduced_unit_and_the_next(steppe):
    exchange(steppe, "side", 2)
    units = [*COMBAT[:2], u("r1", "sov-inf", "0604", flags=["reduced"]), u("r2", "sov-inf", "0604")]
    found = _by_unit(retreat_answer(position(steppe, units, "axis_combat"), ["r1", "r2"], attackers=["g"],
                                    result="EX"))
    # 10.5: r1 (reduced) has one step left: eliminated; the second step turns r2 to its back face
    assert found["r1"]["eliminated"]["rule"] == "10.5" and found["r2"]["flipped"]["rule"] == "10.5"


def test_an_exchange_per_unit_costs_every_unit_its_steps(steppe):
    exchange(steppe, "unit", 2)
    found = _by_unit(retreat_answer(position(steppe, COMBAT, "axis_combat"), ["r1", "r2"], attackers=["g"],
                                    result="EX"))
    # 10.5: two steps each: both full units eliminated
    assert found["r1"]["eliminated"]["reason"] == "the exchange costs it 2 steps, all it has"
    assert found["r2"]["eliminated"] is not None


# -- sudden death and the game's end -------------------------------------------------------------------------------

def sudden(folder, **entry) -> None:
    edit(folder, "rules.yaml", lambda r: r["victory"].update(sudden_death=[
        {"rule": "14.2", "side": "axis", "hexes": ["Kharkov"], "result": "Axis sudden-death victory", **entry}]))


HELD = [u("k", "ger-inf", "0705")]


def test_sudden_death_ends_the_game_at_the_end_of_the_turn(steppe):
    sudden(steppe)
    # the Axis holds Kharkov in its combat phase: its result now (14.2), but the game goes on to the end of turn 1
    pos = position(steppe, HELD, "axis_combat")
    ans = victory_answer(pos)
    assert (ans["result"], ans["rule"], ans["sudden_death"]) == ("Axis sudden-death victory", "14.2", True)
    assert game_over(pos) is None
    assert next_phase(pos).phase == "axis_mech"
    # the Soviet combat phase is turn 1's last: the game ends there, with the result and its rule
    last = position(steppe, HELD, "soviet_combat")
    over = game_over(last)
    assert (over.reason, over.rule) == ("sudden death, Axis sudden-death victory", "14.2")
    with pytest.raises(GameOver):
        next_phase(last)


def test_sudden_death_checked_at_the_end_of_a_phase_and_by_points(steppe):
    sudden(steppe, at="phase", hexes=[], vp=15)
    # 14.1: Kharkov 10 + Belgorod 5 = 15 VP: the game ends after the phase; Kharkov alone (10) is not enough
    both = position(steppe, [*HELD, u("b", "ger-inf", "1004")], "axis_movement")
    assert game_over(both).reason == "sudden death, Axis sudden-death victory"
    assert game_over(position(steppe, HELD, "axis_movement")) is None


def test_the_end_of_the_game_scores_its_objectives_and_the_eliminated_units(steppe):
    edit(steppe, "rules.yaml", lambda r: r["victory"].update(
        end={"rule": "14.3", "objectives": [{"hex": "0904", "vp": 7, "side": "soviet", "owner": "soviet"}],
             "eliminated": {"soviet": 2}},
        levels=[*r["victory"]["levels"], {"side": "soviet", "vp": 10, "result": "Soviet decisive victory"}]))
    units = [u("x", "ger-inf", "0104"), {"id": "e1", "counter": "ger-inf", "box": "eliminated"},
             {"id": "e2", "counter": "ger-pz", "box": "eliminated"}]
    # turn 6's Soviet combat phase is the game's last: 0904 (held by its owner, the Soviets) 7 VP and two Axis
    # units eliminated, 2 each: 11 VP, a Soviet decisive victory (14.3); Poltava's 5 go to nobody (the Axis holds it)
    end = victory_answer(position(steppe, units, "soviet_combat", turn="6"))
    assert (end["vp"], end["final"], end["result"]) == ({"axis": 0, "soviet": 11}, True, "Soviet decisive victory")
    assert "soviet: 4 VP for eliminated enemy units at the game's end (14.3)" in end["explanation"]
    # the turn before, nothing of it counts
    before = victory_answer(position(steppe, units, "soviet_combat", turn="5"))
    assert (before["vp"], before["final"], before["result"]) == ({"axis": 0, "soviet": 0}, False, "Soviet victory")


def test_an_objective_worth_points_only_on_some_turns(steppe):
    edit(steppe, "rules.yaml", lambda r: r["victory"]["objectives"][0].update(when={"turns": ["1", "2", "3"]}))
    # 14.1: Kharkov's 10 VP count in turns 1-3 only
    assert victory_answer(position(steppe, HELD, turn="3"))["vp"]["axis"] == 10
    assert victory_answer(position(steppe, HELD, turn="4"))["vp"]["axis"] == 0


def test_a_sudden_death_saying_nothing_to_win_is_refused(steppe):
    sudden(steppe, hexes=[])
    with pytest.raises(GameDataError) as err:
        load_game(str(steppe)).rules_data
    assert "victory.sudden_death[0]" in str(err.value) and "vp: N" in str(err.value)


# -- replacements ------------------------------------------------------------------------------------------------

def replacements(folder, returns: str = "step", per_side: dict | None = None) -> None:
    edit(folder, "game.yaml", lambda g: g.update(flags=[*g["flags"], "replaced"]))
    edit(folder, "rules.yaml", lambda r: r.update(replacements={
        "rule": "15.0", "phase": ["axis_movement"], "per_side": per_side or {"axis": 1}, "returns": returns,
        "flag": "replaced", "entry": {"axis": {"rule": "15.1", "hexes": ["0103", "0104"]}}}))


LOST = [{"id": "lost", "counter": "ger-inf", "box": "eliminated"}, u("worn", "ger-inf", "0203", flags=["reduced"]),
        u("s", "sov-inf", "0205")]


def _place(pos, uid: str) -> dict:
    return placement_json([rules_for(pos.game).placement(pos, uid)], pos)["units"][0]


def test_a_replacement_step_returns_a_unit_reduced_then_the_side_has_no_more(steppe):
    replacements(steppe)
    pos = position(steppe, LOST)
    # 15.1: back at 0103 or 0104; s (0205) controls 0104 and reinforcements may not enter an enemy zone (13.0)
    found = _place(pos, "lost")
    assert (found["hexes"], found["rule"], list(found["blocked"])) == (["0103"], "15.1", ["0104"])
    after = rules_for(pos.game).after_place(pos, place_unit(pos, "lost", pos.game.map.resolve("0103")), "lost")
    # one step: it comes back on its back face, marked as replaced
    assert after.by_id["lost"].flags == frozenset({"reduced", "replaced"})
    # 15.0: the Axis has taken its one step; worn stays reduced
    assert _place(after, "worn")["refused"] == {"reason": "axis has taken 1 of its 1 replacement steps this phase",
                                                "rule": "15.0"}


def test_a_replacement_step_turns_a_reduced_unit_back_to_its_front(steppe):
    replacements(steppe)
    pos = position(steppe, LOST)
    assert _place(pos, "worn")["hexes"] == ["0203"]
    after = rules_for(pos.game).after_place(pos, pos, "worn")
    assert after.by_id["worn"].flags == frozenset({"replaced"})


def test_replacements_only_in_their_phase_and_check_counts_them(steppe):
    replacements(steppe, "unit", {"axis": 1, "soviet": 0})
    assert _place(position(steppe, LOST, "axis_combat"), "lost")["refused"] == {
        "reason": "lost may come back only as a replacement, in Axis Movement", "rule": "15.0"}
    # two Axis units replaced in one phase, one allowed (15.0)
    two = [u("a", "ger-inf", "0104", flags=["replaced"]), u("b", "ger-inf", "0103", flags=["replaced"])]
    found = check_answer(position(steppe, two))
    assert [(v["rule"], v["message"]) for v in found["violations"]] == [
        ("15.0", "axis has taken 2 replacement units; it may take 1 (15.0)")]


def test_replacements_naming_a_flag_the_game_has_not_are_refused(steppe):
    replacements(steppe)
    edit(steppe, "rules.yaml", lambda r: r["replacements"].update(flag="mended"))
    with pytest.raises(GameDataError) as err:
        load_game(str(steppe)).rules_data
    assert "replacements.flag" in str(err.value)


# -- a whole attack as one action ----------------------------------------------------------------------------------

ATTACK = [u("g", "ger-inf", "0403"), u("h", "ger-inf", "0403"), u("r", "sov-inf", "0404")]


def test_a_whole_attack_resolved_with_an_exchange_by_steps(steppe):
    exchange(steppe, "side")
    pos = position(steppe, ATTACK, "axis_combat")
    # 9.2: 8 against 4, 2-1 (no river, 0404 is open ground); a roll of 3 reads EX: one step a side (10.5): r turns
    # to its back face, and so does g, the first attacker named
    after, notes = rules_for(pos.game).resolve(pos, ["g", "h"], ["r"], roll=lambda sides: 3,
                                               choose=lambda what, options: options[0])
    assert notes[0] == {"rule": "9.2", "text": "8 against 4: 2-1, column 2-1; roll 3: EX (exchange)"}
    assert {uid: sorted(after.by_id[uid].flags) for uid in ("g", "h", "r")} == {"g": ["reduced"], "h": [],
                                                                                 "r": ["reduced"]}


def test_a_whole_attack_resolved_with_a_retreat_to_the_hex_chosen(steppe):
    pos = position(steppe, ATTACK, "axis_combat")
    asked = []

    def choose(what, options):
        asked.append((what, sorted(options)))
        return "0405"
    # a roll of 1 reads DR (10.1): r retreats one hex; not into 0303 or 0503, which g and h control (10.3)
    after, _ = rules_for(pos.game).resolve(pos, ["g", "h"], ["r"], roll=lambda sides: 1, choose=choose)
    assert asked == [("10.1: the hex r retreats to", ["0304", "0405", "0504"])]
    assert pos.game.map.name(after.by_id["r"].hex) == "0405"


def test_a_whole_attack_below_the_table_is_refused_with_its_rule(steppe):
    edit(steppe, "rules.yaml", lambda r: r["combat"]["table"].update(below="refused"))
    pos = position(steppe, [u("g", "ger-inf", "0203"), u("c1", "sov-inf", "0102"), u("c2", "sov-inf", "0102")],
                   "axis_combat")
    with pytest.raises(ValueError, match="^9.2: odds of 1-4 are below the lowest column"):
        rules_for(pos.game).resolve(pos, ["g"], ["c1", "c2"], roll=lambda sides: 1, choose=lambda w, o: o[0])
