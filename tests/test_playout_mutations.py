"""The referee against doctored playouts: a playout's log checks legal, and the same log with one step changed --
a move one hex too far, a phase skipped, a counter swapped, a flag cleared -- is never legal (issue 29)."""
from __future__ import annotations

import io
import random
from dataclasses import replace
from pathlib import Path

import pytest

from toolkit.game.sequence import next_phase, slot, successors
from toolkit.games import load_game_position, search_moves
from toolkit.games.playout import play_random
from toolkit.vassal.saves.record import log_of_game
from toolkit.vassal.saves.replay import check_log_file

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = {"jerusalem-1948": "scenario-ii", "no-prisoners": "scenario-1", "siege-of-jerusalem": "demonstration"}


@pytest.fixture(scope="module", params=sorted(SCENARIOS))
def game(request):
    start = load_game_position(ROOT / "modules" / request.param / "scenarios" / f"{SCENARIOS[request.param]}.yaml")
    played = play_random(start, 7, max_actions=120)
    return start, played.steps


def verdict(start, steps) -> str:
    return check_log_file(io.BytesIO(log_of_game(start, steps))).verdict


def before(start, steps, k):
    return steps[k - 1][1] if k else start


def test_the_playout_itself_checks_legal(game):
    start, steps = game
    assert verdict(start, steps) == "legal"


def test_a_move_one_hex_too_far_is_illegal(game):
    start, steps = game
    moves = [k for k, (a, _) in enumerate(steps) if a.kind == "move"]
    tried = 0
    for k in random.Random(1).sample(moves, len(moves)):
        action, after = steps[k]
        pos = before(start, steps, k)
        cmap = pos.game.map
        uid, dest = action.units[0], cmap.resolve(action.to)
        legal = search_moves(pos, "test", list(action.units)).destinations
        far = [h for h in sorted(dest.neighbors(), key=cmap.name)
               if h in cmap.hexes and h not in legal and not pos.at(h)]     # one hex past a legal end
        if not far:
            continue
        moving = {uid, *(c.id for c in after.units if c.carried_by == uid)}
        cheat = after.moved({u: replace(after.by_id[u], hex=far[0]) for u in moving})
        doctored = [*steps[:k], (replace(action, to=cmap.name(far[0])), cheat)]
        assert verdict(start, doctored) == "illegal", (k, action.text(), cmap.name(far[0]))
        tried += 1
        if tried == 3:
            break
    assert tried


def test_a_phase_skipped_is_illegal(game):
    start, steps = game
    ends = [k for k, (a, _) in enumerate(steps) if a.kind == "end_phase"]
    tried = 0
    for k in ends:
        action, after = steps[k]
        skipped = next_phase(after)
        if slot(skipped) in successors(before(start, steps, k)):
            continue    # where phases come in any order (3.2) the one after next may follow too
        doctored = [*steps[:k], (action, skipped)]
        assert verdict(start, doctored) == "illegal", (k, after.phase, skipped.phase)
        tried += 1
        if tried == 3:
            break
    assert tried


def test_a_counter_swapped_is_never_legal(game):
    start, steps = game
    moves = [k for k, (a, _) in enumerate(steps) if a.kind == "move"]
    for k in moves[:3]:
        action, after = steps[k]
        unit = after.by_id[action.units[0]]
        other = next(c for c in after.game.counters.values() if c.side == unit.side and c.id != unit.counter.id
                     and c.type != unit.counter.type)
        doctored = [*steps[:k], (action, after.moved({unit.id: replace(unit, counter=other)}))]
        # illegal, or not proven where the swapped piece no longer reads as a valid position
        assert verdict(start, doctored) in ("illegal", "not proven"), (k, unit.id, other.id)


def test_a_flag_cleared_is_never_legal(game):
    start, steps = game
    flagged = [(k, u) for k, (_, p) in enumerate(steps) for u in p.units if u.flags and k > 0][:40:10]
    assert flagged, "the playout leaves flags on units"
    for k, unit in flagged:
        action, after = steps[k]
        cleared = after.moved({unit.id: replace(unit, flags=frozenset())})
        doctored = [*steps[:k], (action, cleared)]
        assert verdict(start, doctored) in ("illegal", "not proven"), (k, unit.id, sorted(unit.flags))
