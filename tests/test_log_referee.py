"""``toolkit check GAME.vlog`` as a referee (issue 29): besides the moves, the turn tracker (the sequence of play),
each unit's counter, flags and spent, and the actions a log records are judged; the cheats of
/work/shared/hostile-input/repro3.py (LC1-LC4) are illegal, their controls stay illegal, a playout's log is legal."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from test_vassal_logfile import SCENARIO_II, Board, _write
from toolkit.game import load_position
from toolkit.game.actions import Action
from toolkit.games.playout import play_random
from toolkit.vassal.design.turns import position_turn_command
from toolkit.vassal.engine.pieces import fast_decode
from toolkit.vassal.engine.seqenc import encode
from toolkit.vassal.saves.logfile import change_piece_command, chat_command, turn_command
from toolkit.vassal.saves.record import action_chat, log_of_game
from toolkit.vassal.saves.replay import _join_levels, _state_levels, check_log_file

PLM = "j-plm-1"   # Palmach 8-8 in 2817 (Scenario II); 2817 -> 3820 -> 4519 -> 5521 each a legal move alone


def _scenario(**unit) -> Board:
    """Scenario II with j-plm-1 changed (flags, spent ...)."""
    pos = load_position(SCENARIO_II)
    return Board(pos.moved({PLM: dataclasses.replace(pos.by_id[PLM], **unit)}))


def _prop(b: Board, uid: str, name: str, value: str) -> str:
    """The ChangePiece setting one DynamicProperty of a unit's piece (flags, spent), as repro3.py's LOGBUILD."""
    p = b.piece[uid]
    levels = _state_levels(p.state, len(p.traits) + 1)
    i = next(i for i, t in enumerate(p.traits) if t.kind == "PROP" and fast_decode(t.type, ";")[1] == name)
    levels[i] = value
    p.state = _join_levels(levels)
    return change_piece_command(p.id, p.state)


def _gpid(b: Board, uid: str, other: str) -> str:
    """The ChangePiece giving a unit's piece another unit's gpid (its BasicPiece state)."""
    p, q = b.piece[uid], b.piece[other]
    levels = _state_levels(p.state, len(p.traits) + 1)
    basic = fast_decode(levels[-1], ";")
    basic[3] = q.gpid
    levels[-1] = encode(basic, ";")
    p.state = _join_levels(levels)
    return change_piece_command(p.id, p.state)


def _tracker(b: Board, turn: str, side: str, phase: str) -> str:
    return position_turn_command(b.game.spec, turn, side, phase)


def _check(tmp_path, b: Board, steps):
    return check_log_file(_write(tmp_path, b.log(steps)))


def _changes(report) -> list[tuple]:
    return [(r.step, r.what, r.units, r.rule) for r in report.illegal_changes]


# ---------------------------------------------------------------- the cheats of repro3.py (LC1-LC4)


def test_lc1_the_turn_tracker_set_forward_and_back_is_illegal(tmp_path):
    b = _scenario()
    report = _check(tmp_path, b, [[b.move(PLM, "3820")], [_tracker(b, "June I", "jewish", "overland")],
                                  [b.move(PLM, "4519")], [_tracker(b, "May IV", "jewish", "overland")],
                                  [b.move(PLM, "5521")]])
    assert report.verdict == "illegal"
    assert _changes(report) == [(2, "turn tracker", [], "3.1-3.4"), (4, "turn tracker", [], "3.1-3.4")]
    assert report.illegal_changes[0].reason == (
        "the turn tracker went from May IV, Overland Movement Phase (jewish) to June I, Overland Movement Phase "
        "(jewish); the next phase is May IV, Road Movement Phase (jewish)")


def test_lc2_a_counter_swapped_by_a_change_is_illegal(tmp_path):
    b = _scenario()
    report = _check(tmp_path, b, [[_gpid(b, PLM, "j-ac-1")], [b.move(PLM, "4519")]])
    assert _changes(report) == [(1, "counter", [PLM], "counter")]
    assert report.illegal_changes[0].reason == (
        "j-plm-1's counter changed from plm-8-8 to j-ac-4-30: no rule turns one counter into another")
    # the referee keeps the Palmach counter: 2817 -> 4519 is out of its reach (not the armored car's)
    assert [(m.step, m.legal, m.rule) for m in report.moves] == [(2, False, "MP")]


def test_lc3_a_flag_cleared_by_a_change_is_illegal(tmp_path):
    b = _scenario(flags=frozenset({"disrupted"}))
    report = _check(tmp_path, b, [[_prop(b, PLM, "flags", "")], [b.move(PLM, "3820")]])
    assert _changes(report) == [(1, "flag", [PLM], "3.1-3.4")]
    assert report.illegal_changes[0].reason == (
        "j-plm-1's flag disrupted was cleared within a phase (Overland Movement Phase); the game clears it only "
        "at the start of the jewish player turn")
    assert [(m.step, m.legal, m.rule) for m in report.moves] == [(2, False, "10.10")]   # still disrupted


def test_lc4_spent_reset_by_a_change_is_illegal(tmp_path):
    b = _scenario(spent=8.0)
    report = _check(tmp_path, b, [[_prop(b, PLM, "spent", "0")], [b.move(PLM, "3820")]])
    assert _changes(report) == [(1, "spent", [PLM], "MP")]
    assert report.illegal_changes[0].reason == (
        "j-plm-1's movement points spent this phase went from 8 to 0: they never go down within a phase (only a "
        "new phase starts afresh)")
    assert [(m.step, m.legal, m.rule) for m in report.moves] == [(2, False, "MP")]


@pytest.mark.parametrize("unit, steps, rule", [
    ({}, [["move", "3820"], ["move", "4519"], ["move", "5521"]], "MP"),
    ({}, [["move", "4519"]], "MP"),
    ({"flags": frozenset({"disrupted"})}, [["move", "3820"]], "10.10"),
    ({"spent": 8.0}, [["move", "3820"]], "MP"),
])
def test_the_controls_stay_illegal(tmp_path, unit, steps, rule):
    b = _scenario(**unit)
    report = _check(tmp_path, b, [[b.move(PLM, to)] for _, to in steps])
    assert report.verdict == "illegal" and report.illegal_moves[-1].rule == rule and not report.illegal_changes


# ---------------------------------------------------------------- the sequence of play


def test_phases_in_either_order_but_each_once_a_player_turn(tmp_path):
    """3.2: the Jewish player may play his road phase first; the overland one follows, then the Arab player turn;
    a third movement phase in the same player turn is not in the sequence of play."""
    b = Board(dataclasses.replace(load_position(SCENARIO_II), phase="road"))
    good = [[_tracker(b, "May IV", "jewish", "overland")], [b.move(PLM, "2716")],
            [_tracker(b, "May IV", "arab", "road")]]
    report = _check(tmp_path, b, good)
    assert report.verdict == "legal", report.text()
    b = Board(dataclasses.replace(load_position(SCENARIO_II), phase="road"))
    report = _check(tmp_path, b, [[_tracker(b, "May IV", "jewish", "overland")],
                                  [_tracker(b, "May IV", "jewish", "road")]])
    assert _changes(report) == [(2, "turn tracker", [], "3.1-3.4")]
    assert report.illegal_changes[0].reason.endswith("the next phase is May IV, Overland Movement Phase (arab) or "
                                                     "May IV, Road Movement Phase (arab)")


def test_no_phase_after_the_games_end(tmp_path):
    """3.5: the game ends after the Jewish player turn of June IV; a tracker moved on from there is illegal."""
    b = Board(dataclasses.replace(load_position(SCENARIO_II), turn="June IV"))
    report = _check(tmp_path, b, [[_tracker(b, "June IV", "jewish", "road")],
                                  [_tracker(b, "June IV", "arab", "overland")]])
    (bad,) = report.illegal_changes
    assert (bad.what, bad.rule) == ("turn tracker", "3.1, 3.5") and "no phase follows" in bad.reason


def test_a_tracker_command_that_does_not_read_is_not_proven(tmp_path):
    b = _scenario()
    report = _check(tmp_path, b, [[turn_command("TurnTracker0", "garbage")]])
    assert report.verdict == "not proven"
    assert [n.what for n in report.not_checked] == ["turn tracker"]


# ---------------------------------------------------------------- spent and flags


def test_spent_written_with_a_move_is_not_below_its_cost(tmp_path):
    """A playout writes ``spent`` with the move; the cheapest way 2817 -> 3820 costs more than 1 MP."""
    b = _scenario()
    ok = _check(tmp_path, b, [[b.move(PLM, "3820"), _prop(b, PLM, "spent", "8")]])
    assert ok.verdict == "legal"
    b = _scenario()
    report = _check(tmp_path, b, [[b.move(PLM, "3820"), _prop(b, PLM, "spent", "1")]])
    assert _changes(report) == [(1, "spent", [PLM], "MP")]


def test_spent_or_a_flag_set_with_no_action_is_not_proven(tmp_path):
    b = _scenario()
    report = _check(tmp_path, b, [[_prop(b, PLM, "spent", "3")], [_prop(b, PLM, "flags", "stopped")]])
    assert report.verdict == "not proven"
    assert [(n.step, n.what, n.units) for n in report.not_checked] == [(1, "spent", [PLM]), (2, "flag", [PLM])]


def test_a_flag_the_phase_change_clears_may_not_stay(tmp_path):
    """3.4, 7.7: stopped comes off at the end of the player turn; a log keeping it into the Arab turn is illegal."""
    b = _scenario(flags=frozenset({"stopped"}))
    report = _check(tmp_path, b, [[_tracker(b, "May IV", "jewish", "road")],
                                  [_tracker(b, "May IV", "arab", "overland")]])
    assert _changes(report) == [(2, "flag", [PLM], "3.1-3.4")]
    assert "keeps its flag stopped" in report.illegal_changes[0].reason


# ---------------------------------------------------------------- actions recorded in the log


@pytest.fixture(scope="module")
def playout():
    """Scenario II played at random up to its first combat (seed 3: j-hgh-10 attacks a-mufti-1)."""
    pos = load_position(SCENARIO_II)
    game = play_random(pos, 3, max_actions=8)
    at = next(i for i, (a, _) in enumerate(game.steps) if a.kind == "combat")
    return pos, game.steps[: at + 1]


def test_a_playouts_log_is_legal(tmp_path, playout):
    pos, steps = playout
    report = check_log_file(_write(tmp_path, log_of_game(pos, steps)))
    assert report.verdict == "legal", report.text()


def test_a_combat_whose_results_are_not_in_the_log_is_illegal(tmp_path, playout):
    pos, steps = playout
    action, after = steps[-1]
    before = steps[-2][1]
    assert after != before
    report = check_log_file(_write(tmp_path, log_of_game(pos, steps[:-1] + [(action, before)])))
    (bad,) = report.illegal_changes
    assert bad.what == "action" and bad.step == len(steps)
    assert bad.reason.startswith("the log's state is not what the recorded action gives: ")


def test_a_recorded_action_the_rules_refuse_is_illegal_by_its_rule(tmp_path, playout):
    pos, steps = playout
    before = steps[-2][1]
    wrong = Action("combat", ("a-mufti-1",), None, ("j-hgh-10",), rolls=(1, 1), choices=(0, 0))
    report = check_log_file(_write(tmp_path, log_of_game(pos, steps[:-1] + [(wrong, before)])))
    (bad,) = report.illegal_changes
    assert bad.what == "action" and bad.units == ["a-mufti-1"] and bad.rule is not None


def test_an_action_line_that_does_not_read_is_not_proven(tmp_path):
    b = _scenario()
    report = _check(tmp_path, b, [[chat_command("*** toolkit action: {\"kind\": \"dance\"}")]])
    assert report.verdict == "not proven" and [n.what for n in report.not_checked] == ["action"]
    assert json.loads(action_chat(Action("end_phase")).split(": ", 1)[1]) == {"kind": "end_phase"}


def test_a_playout_log_says_how_many_recorded_actions_it_replayed(tmp_path):
    import io

    from toolkit.games import load_game_position
    from toolkit.games.playout import play_random
    from toolkit.vassal.saves.record import log_of_game
    from toolkit.vassal.saves.replay import check_log_file

    start = load_game_position(str(Path(__file__).resolve().parents[1]
                                   / "modules/jerusalem-1948/scenarios/scenario-ii.yaml"))
    game = play_random(start, 3, max_actions=40)
    report = check_log_file(io.BytesIO(log_of_game(start, game.steps)))
    recorded = sum(a.kind != "end_phase" for a, _ in game.steps)
    assert report.verdict == "legal" and report.actions_replayed == recorded > 0
    assert f", {recorded} recorded actions replayed, " in report.text()[0]
    assert report.json()["actions_replayed"] == recorded
