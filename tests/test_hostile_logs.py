"""``toolkit check GAME.vlog`` against logs laundered to pass (issue 20): a move split into leaving the map and
coming back (off the board, RemovePiece + AddPiece, an unreadable ChangePiece) is judged as the net move from
where the unit began the phase; what the checker cannot judge is "not proven" (exit 3), never "legal"; a log cut
inside its starting state is refused."""
from __future__ import annotations

import json

import pytest

from test_hostile_support import assert_refused, run
from test_vassal_logfile import SCENARIO_II, Board, _write
from toolkit.cli import main
from toolkit.game import load_position
from toolkit.vassal.saves.logfile import ESC, change_piece_command, move_piece_command, remove_piece_command
from toolkit.vassal.engine.seqenc import encode

FAR = "0505"   # 23 hexes from j-plm-1's 2817: out of reach


@pytest.fixture()
def board():
    return Board(load_position(SCENARIO_II))


def _add_command(b: Board, uid: str, hexname: str) -> str:
    """The AddPiece of a unit's piece at a hex centre (its saved type and state, the position changed)."""
    p = b.piece[uid]
    x, y = b.px(hexname)
    state = p.state.replace(f"{p.map};{p.x};{p.y};", f"{p.map};{x};{y};")
    return "+/" + encode([p.id, p.type, state], "/")


def _laundered(b: Board, how: str) -> list[list[str]]:
    p = b.piece["j-plm-1"]
    x, y = b.px(FAR)
    if how == "off-board":
        return [[move_piece_command(p.id, "Main Map", 10**9, 10**9, None, p.map, p.x, p.y, None)],
                [move_piece_command(p.id, "Main Map", x, y, None, "Main Map", 10**9, 10**9, None)]]
    if how == "remove-add":
        return [[remove_piece_command(p.id)], [_add_command(b, "j-plm-1", FAR)]]
    return [[change_piece_command(p.id, "garbage")], [move_piece_command(p.id, "Main Map", x, y, None, p.map, p.x,
                                                                           p.y, None)],
            [change_piece_command(p.id, p.state)]]


def _verdict(tmp_path, data: bytes, capsys) -> tuple[int, dict]:
    status = main(["check", str(_write(tmp_path, data)), "--json"])
    return status, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("how", ["off-board", "remove-add", "unreadable-change"])
def test_a_move_split_into_leaving_and_coming_back_is_judged_whole(tmp_path, board, capsys, how):
    status, report = _verdict(tmp_path, board.log(_laundered(board, how)), capsys)
    assert status == 1 and report["verdict"] == "illegal" and not report["legal"]
    (bad,) = report["illegal_moves"]
    assert (bad["units"], bad["phase_start"], bad["to"]) == (["j-plm-1"], "2817", FAR)


def test_leaving_and_coming_back_within_reach_is_legal(tmp_path, board, capsys):
    p = board.piece["j-plm-1"]
    steps = [[remove_piece_command(p.id)], [_add_command(board, "j-plm-1", "2014")]]
    status, report = _verdict(tmp_path, board.log(steps), capsys)
    assert (status, report["verdict"]) == (0, "legal") and report["moves"][0]["phase_start"] == "2817"


def test_what_cannot_be_judged_is_not_proven_with_its_own_status(tmp_path, board, capsys):
    gone = board.log([[remove_piece_command(board.piece["j-plm-1"].id)]])
    status, report = _verdict(tmp_path, gone, capsys)
    assert (status, report["verdict"], report["legal"]) == (3, "not proven", False)
    assert [n["what"] for n in report["not_checked"]] == ["unit leaves the map"]
    status, report = _verdict(tmp_path, board.log([["FOO\tbar"]]), capsys)   # a command the replay cannot apply
    assert (status, report["verdict"]) == (3, "not proven")
    assert main(["check", str(_write(tmp_path, gone))]) == 3
    assert capsys.readouterr().out.splitlines()[0].endswith(": not proven")


def test_a_log_cut_inside_its_starting_state_is_refused(tmp_path, board):
    from test_hostile_support import save_bytes, valid_save

    _, text = valid_save()
    cut = text[: len(text) // 2]
    assert "end_save" not in cut and cut.startswith("begin_save" + ESC)
    path = _write(tmp_path, save_bytes(cut))
    assert_refused(run(["check", str(path)]), str(path), "cut off")
