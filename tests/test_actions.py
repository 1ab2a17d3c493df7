"""Actions (toolkit.game.actions), random playouts (toolkit.games.playout) and their VASSAL logs
(toolkit.vassal.saves.record)."""
from __future__ import annotations

import io
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from toolkit.game.actions import Action, IllegalAction, apply
from toolkit.games import load_game_position, rules_for
from toolkit.games.playout import play_random
from toolkit.vassal.saves.logfile import read_log
from toolkit.vassal.saves.record import ACTION_CHAT, log_of_game
from toolkit.vassal.saves.replay import LogReplay, check_log
from toolkit.vassal.saves.positions import game_of_save

ROOT = Path(__file__).resolve().parents[1]
JER = str(ROOT / "modules/jerusalem-1948/scenarios/scenario-ii.yaml")
NP = str(ROOT / "modules/no-prisoners/scenarios/scenario-1.yaml")
SIEGE = str(ROOT / "modules/siege-of-jerusalem/scenarios/demonstration.yaml")


@pytest.fixture(scope="module")
def jer():
    return load_game_position(JER)


def test_a_move_spends_its_cost_and_marks_the_phase_3_2(jer):
    out = apply(jer, Action("move", ("j-plm-1",), "3820"))
    unit = out.position.by_id["j-plm-1"]
    assert (out.position.game.map.name(unit.hex), unit.spent, unit.flags) == ("3820", 8.0, {"moved_overland"})
    assert out.notes[0]["text"] == "j-plm-1 2817 → 3820 (8 MP)"
    with pytest.raises(IllegalAction) as refused:      # its 8 MP are spent (LC4's control)
        apply(out.position, Action("move", ("j-plm-1",), "3821"))
    assert refused.value.rule == "MP"


def test_a_move_too_far_and_an_enemy_move_are_refused_with_their_rule(jer):
    with pytest.raises(IllegalAction) as far:
        apply(jer, Action("move", ("j-plm-1",), "4519"))
    assert far.value.rule == "MP"
    with pytest.raises(IllegalAction) as enemy:
        apply(jer, Action("move", ("a-mufti-3",), "5430"))
    assert enemy.value.rule == "9.2"


def test_an_action_round_trips_as_json_and_refuses_what_a_stranger_may_write():
    action = Action("combat", ("h1", "h2"), None, ("m1",), {"kind": "barrage"}, (3, 5), (0, 1))
    assert Action.from_json(action.to_json()) == action
    assert action.text() == "combat (barrage): h1+h2 against m1, rolls 3 5"
    for bad in ({"kind": "teleport"}, [], {"kind": "combat", "rolls": [True]}, {"kind": "move", "units": "h1"},
                {"kind": "combat", "rolls": list(range(2000))}, {"kind": "move", "eval": "x"}):
        with pytest.raises(ValueError):
            Action.from_json(bad)


@pytest.fixture(scope="module")
def combats(jer):
    """Each combat of a Jerusalem! playout: the position before it and the action as made (rolls, choices)."""
    game = play_random(jer, 1)
    before = [jer] + [p for _, p in game.steps[:-1]]
    found = [(b, a, p) for b, (a, p) in zip(before, game.steps) if a.kind == "combat"]
    assert len(found) >= 5
    return found


def test_a_combat_replayed_with_its_rolls_and_choices_gives_the_same_position(combats):
    assert any(action.rolls for _, action, _ in combats)
    for before, action, after in combats:
        again = apply(before, action)
        assert (again.position.units, again.position.markers) == (after.units, after.markers)


def test_a_replayed_combat_may_not_draw_beyond_its_record(combats):
    before, action, _ = next(c for c in combats if c[1].rolls)
    with pytest.raises(IllegalAction, match="needs more rolls than the 1 given"):
        apply(before, replace(action, rolls=action.rolls[:1], choices=action.choices or (0,))) \
            if len(action.rolls) > 1 else apply(before, replace(action, rolls=(), choices=(0,)))


def test_end_of_phase_may_choose_the_other_phase_first_only_where_the_game_says(jer):
    arab = apply(apply(jer, Action("end_phase")).position, Action("end_phase")).position
    assert (arab.phasing_side, arab.phase) == ("arab", "overland")
    road_first = apply(apply(jer, Action("end_phase")).position, Action("end_phase", to="road")).position
    assert (road_first.phasing_side, road_first.phase) == ("arab", "road")     # 3.2: the Arab plays road first
    with pytest.raises(IllegalAction):
        apply(jer, Action("end_phase", to="overland"))       # the overland phase is the one being played


@pytest.mark.parametrize("scenario,seed", [(JER, 1), (NP, 2), (SIEGE, 3)])
def test_a_playout_reaches_the_end_and_its_log_replays_to_its_last_position(scenario, seed):
    start = load_game_position(scenario)
    game = play_random(start, seed)
    assert game.ended is not None and game.ended.rule
    again = play_random(start, seed)
    assert [a for a, _ in again.steps] == [a for a, _ in game.steps]     # the same seed, the same game
    data = log_of_game(start, game.steps)
    log = read_log(io.BytesIO(data))
    assert len(log.steps) == len(game.steps)
    chats = [c.text for s in log.steps for c in s.commands if c.kind == "chat"]
    recorded = [a for a, _ in game.steps if a.kind != "end_phase" or a.choices]
    assert len(recorded) == sum(ACTION_CHAT in c for c in chats)     # every action but a plain end of phase
    replay = LogReplay(log, game_of_save(log.initial, "log"))
    for cmd in (c for s in log.steps for c in s.commands):
        assert replay.apply(cmd) is None
    shown, _ = replay.position_file()
    last = game.last.to_file()
    assert (shown.turn, shown.phase, shown.phasing_side) == (last.turn, last.phase, last.phasing_side)
    want = {u.id: (u.hex, u.box, sorted(u.flags), u.spent) for u in last.units if u.hex is not None or u.box}
    got = {u.id: (u.hex, u.box, sorted(u.flags), u.spent) for u in shown.units if u.id in want}
    assert got == want
    fresh = read_log(io.BytesIO(data))       # the replay above changed the log's first state as it went
    report = check_log(fresh, game_of_save(fresh.initial, "log"))
    assert report.verdict == "legal", report.text()[:8]


def test_the_playout_script_writes_the_log_and_says_how_the_game_ended(tmp_path):
    out = tmp_path / "game.vlog"
    run = subprocess.run([sys.executable, str(ROOT / "scripts/playout.py"), JER, "--seed", "4", "-o", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    last = run.stdout.strip().splitlines()[-1]
    assert last.startswith(f"{out}: the game ended: the game ends after the Jewish player turn of June IV (3.1, 3.5); ")
    assert " actions over 5 turns, last June IV" in last
    assert out.read_bytes()[:2] == b"PK"


def test_a_reinforcement_is_placed_only_where_its_rules_allow_6_x():
    start = load_game_position(NP)
    game = play_random(start, 1, max_actions=400)
    before = [start] + [p for _, p in game.steps[:-1]]
    pos, action, after = next((b, a, p) for b, (a, p) in zip(before, game.steps) if a.kind == "place")
    made = apply(pos, action)
    assert made.position.units == after.units and made.notes[0]["text"] == f"{action.units[0]} placed in {action.to}"
    assert pos.by_id[action.units[0]].hex is None and made.position.by_id[action.units[0]].hex is not None
    allowed = set(rules_for(start.game).placement(pos, action.units[0]).hexes)
    cmap = start.game.map
    elsewhere = next(cmap.name(h) for h in sorted(cmap.hexes, key=cmap.name) if h not in allowed)
    with pytest.raises(IllegalAction, match=f"may not be placed in {elsewhere}"):
        apply(pos, replace(action, to=elsewhere))
    jer = load_game_position(JER)
    with pytest.raises(IllegalAction, match="places no reinforcements by rule"):
        apply(jer, Action("place", ("j-plm-1",), "2817"))
