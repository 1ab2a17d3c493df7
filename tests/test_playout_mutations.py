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


def doctor(game, kind: str, change, verdicts=("illegal",), most: int = 3, order=None) -> int:
    """Replace step k of the playout (an action of ``kind``) with ``change(before, action, after)`` -- the doctored
    action and position, or None where the step cannot be doctored so -- for up to ``most`` steps, and assert each
    doctored log's verdict is one of ``verdicts``; the number of logs doctored."""
    start, steps = game
    ks = [k for k, (a, _) in enumerate(steps) if a.kind == kind]
    done = 0
    for k in (order or (lambda x: x))(ks):
        action, after = steps[k]
        doctored = change(before(start, steps, k), action, after)
        if doctored is None:
            continue
        assert verdict(start, [*steps[:k], doctored]) in verdicts, (k, action.text())
        done += 1
        if done == most:
            break
    return done


def test_a_move_one_hex_too_far_is_illegal(game):
    def too_far(pos, action, after):
        cmap = pos.game.map
        uid, dest = action.units[0], cmap.resolve(action.to)
        legal = search_moves(pos, "test", list(action.units)).destinations
        far = [h for h in sorted(dest.neighbors(), key=cmap.name)
               if h in cmap.hexes and h not in legal and not pos.at(h)]     # one hex past a legal end
        if not far:
            return None
        moving = {uid, *(c.id for c in after.units if c.carried_by == uid)}
        cheat = after.moved({u: replace(after.by_id[u], hex=far[0]) for u in moving})
        return replace(action, to=cmap.name(far[0])), cheat
    assert doctor(game, "move", too_far, order=lambda ks: random.Random(1).sample(ks, len(ks)))


def test_a_phase_skipped_is_illegal(game):
    def skipped(pos, action, after):
        further = next_phase(after)
        # where phases come in any order (3.2) the one after next may follow too: not a skip
        return None if slot(further) in successors(pos) else (action, further)
    assert doctor(game, "end_phase", skipped)


def test_a_counter_swapped_is_never_legal(game):
    def swapped(pos, action, after):
        unit = after.by_id[action.units[0]]
        other = next(c for c in after.game.counters.values() if c.side == unit.side and c.id != unit.counter.id
                     and c.type != unit.counter.type)
        return action, after.moved({unit.id: replace(unit, counter=other)})
    # illegal, or not proven where the swapped piece no longer reads as a valid position
    assert doctor(game, "move", swapped, ("illegal", "not proven"))


def test_a_flag_cleared_is_never_legal(game):
    def cleared(pos, action, after):
        flagged = sorted(u.id for u in after.units if u.flags and u.id in pos.by_id)
        if not flagged:
            return None
        unit = after.by_id[flagged[0]]
        return action, after.moved({unit.id: replace(unit, flags=frozenset())})
    assert doctor(game, "move", cleared, ("illegal", "not proven")) == 3
