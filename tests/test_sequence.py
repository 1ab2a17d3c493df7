"""The sequence of play of every game (toolkit.game.sequence): each hand-checked against its rulebook."""
from __future__ import annotations

from dataclasses import replace

import pytest

from toolkit.answers import check_answer, phase_answer
from toolkit.game.sequence import GameOver, Slot, next_phase, sequence_problems, successors
from toolkit.games import load_game_position

JER = "modules/jerusalem-1948/scenarios/scenario-ii.yaml"
NP = "modules/no-prisoners/scenarios/scenario-1.yaml"
SIEGE = "modules/siege-of-jerusalem/scenarios/demonstration.yaml"


@pytest.fixture(scope="module")
def jer():
    return load_game_position(JER)


@pytest.fixture(scope="module")
def np_():
    return load_game_position(NP)


def at(position, turn, side, phase, **params):
    return replace(position, turn=turn, phasing_side=side, phase=phase, params={**position.params, **params})


def flagged(position, uid, *flags):
    u = position.by_id[uid]
    return position.moved({uid: replace(u, flags=u.flags | set(flags))})


def where(position):
    return Slot(position.turn, position.phasing_side, position.phase)


# ----------------------------------------------------------------- Jerusalem! (3.1, 3.2, 3.5)

def test_jerusalem_overland_then_road_then_the_arab_player_turn(jer):
    road = next_phase(jer)
    assert where(road) == Slot("May IV", "jewish", "road")
    assert road.params["phases_done"] == "overland"
    arab = next_phase(road)
    assert where(arab) == Slot("May IV", "arab", "overland")   # 3.1: the Arab player turn follows
    assert "phases_done" not in arab.params
    assert where(next_phase(next_phase(arab))) == Slot("June I", "jewish", "overland")


def test_jerusalem_road_first_then_overland_3_2(jer):
    road_first = at(jer, "May IV", "jewish", "road")
    assert successors(road_first) == [Slot("May IV", "jewish", "overland")]
    # a unit that moved overland this player turn shows the overland phase was played: the player turn ends
    done = flagged(road_first, "j-plm-1", "moved_overland")
    assert successors(done) == [Slot("May IV", "arab", "overland"), Slot("May IV", "arab", "road")]


def test_jerusalem_flags_come_off_when_the_game_says(jer):
    pos = flagged(flagged(jer, "j-plm-1", "stopped", "transported"), "a-mufti-1", "disrupted")
    road = next_phase(pos)
    assert road.by_id["j-plm-1"].flags == {"stopped"}            # 8.7.5: transported is per phase
    arab = next_phase(road)
    assert arab.by_id["j-plm-1"].flags == set()                 # 3.4: Stop markers off at the player turn's end
    assert "disrupted" in arab.by_id["a-mufti-1"].flags          # 10.10: until the next Jewish player turn
    jewish = next_phase(next_phase(arab))
    assert "disrupted" not in jewish.by_id["a-mufti-1"].flags


def test_jerusalem_ends_after_the_jewish_player_turn_of_june_iv(jer):
    last = at(jer, "June IV", "jewish", "road", phases_done="overland")
    with pytest.raises(GameOver) as over:
        next_phase(last)
    assert over.value.rule == "3.1, 3.5"
    assert phase_answer(last)["next"]["game_over"]["rule"] == "3.1, 3.5"
    late = at(jer, "June IV", "arab", "overland")
    assert [v.rule for v in sequence_problems(late)] == ["3.1, 3.5"]
    assert "3.1, 3.5" in [v["rule"] for v in check_answer(late)["violations"]]


# ----------------------------------------------------------------- No Prisoners (4.1, 4.2, 22.4)

def test_no_second_combat_phase_in_summer_22_4(np_):
    spring = at(np_, "1916-II", "cp", "west_cp_first_combat")
    summer = at(np_, "1916-III", "cp", "west_cp_first_combat")
    assert where(next_phase(spring)).phase == "west_cp_second_combat"
    assert where(next_phase(summer)).phase == "west_cp_replacement"
    bad = at(np_, "1916-III", "cp", "west_cp_second_combat")
    assert [v.rule for v in sequence_problems(bad)] == ["4.2.1.5, 22.4"]


def test_the_rail_moves_and_command_bonuses_of_a_phase_are_dropped_with_it_8_10_11_10(np_):
    moving = at(np_, "1916-II", "cp", "west_cp_movement", rail_moves_used=2, command_used="cp-hq-1",
                arab_revolt="1916-II")
    after = next_phase(moving)
    assert "rail_moves_used" not in after.params and "command_used" not in after.params     # 8.10, 11.10 B
    assert after.params["arab_revolt"] == "1916-II"                                          # kept: not of a phase


def test_params_cleared_names_a_known_parameter_and_moment(np_):
    from toolkit.game.schema import GameSpec
    data = np_.game.spec.model_dump()
    with pytest.raises(ValueError, match="params_cleared names 'weather'"):
        GameSpec.model_validate({**data, "params_cleared": {"weather": "phase_end"}})
    with pytest.raises(ValueError, match=r"params_cleared\[rail_moves_used\]: 'dawn'"):
        GameSpec.model_validate({**data, "params_cleared": {"rail_moves_used": "dawn"}})


def test_victory_point_check_after_iv_turns_only_4_2_5_1(np_):
    fall = at(np_, "1916-IV", "cp", "east_cp_replacement")
    summer = at(np_, "1916-III", "cp", "east_cp_replacement")
    assert where(next_phase(fall)).phase == "victory_point_check"
    assert where(next_phase(summer)).phase == "turn_advancement"
    assert where(next_phase(at(np_, "1916-IV", "cp", "turn_advancement"))) == Slot("1917-I", "cp",
                                                                                   "west_cp_random_events")


def test_four_player_turns_a_turn_4_1(np_):
    west_cp = at(np_, "1917-I", "cp", "west_cp_replacement")
    answer = phase_answer(west_cp)["next"]
    assert (answer["phase"], answer["side"], answer["new_player_turn"]) == (
        "west_allied_random_events", "allied", True)
    west_allied = at(np_, "1917-I", "allied", "west_allied_replacement")
    answer = phase_answer(west_allied)["next"]
    assert (answer["phase"], answer["side"], answer["new_player_turn"]) == (
        "east_allied_random_events", "allied", True)       # the same side, a new player turn
    assert phase_answer(at(np_, "1917-I", "cp", "west_cp_movement"))["next"]["new_player_turn"] is False


def test_no_prisoners_ends_after_1918_iv(np_):
    with pytest.raises(GameOver) as over:
        next_phase(at(np_, "1918-IV", "cp", "turn_advancement"))
    assert over.value.rule == "4.2.5.3, 25.1, 26.1"


# ----------------------------------------------------------------- The Siege (18.1)

def test_the_siege_demonstration_ends_with_its_assault_period():
    demo = load_game_position(SIEGE)
    assert where(next_phase(at(demo, "AP I/6", "jewish", "melee"))) == Slot("AP I/7", "roman", "recovery")
    with pytest.raises(GameOver) as over:
        next_phase(at(demo, "AP I/7", "jewish", "melee"))
    assert over.value.rule == "18.1"
    assert phase_answer(at(demo, "AP I/7", "roman", "melee"))["next"]["phase"] == "recovery"


def test_toolkit_phase_says_the_next_player_turn_or_the_games_end(capsys, jer, tmp_path):
    from toolkit.cli import main

    def phase(position) -> str:
        path = tmp_path / "p.yaml"
        path.write_text(__import__("yaml").safe_dump(position.to_file().model_dump(mode="json")))
        assert main(["phase", str(path)]) == 0
        return capsys.readouterr().out.splitlines()[-1].strip()

    assert phase(at(jer, "June I", "arab", "road", phases_done="overland")) == (
        "next: Overland Movement Phase (turn June II, a new player turn: jewish), or Road Movement Phase (the "
        "phases of a player turn in any order)")
    assert phase(at(jer, "June IV", "jewish", "road", phases_done="overland")) == (
        "next: none, the game ends: the game ends after the Jewish player turn of June IV (3.1, 3.5)")
