"""VASSAL logs (.vlog): reading (format, hostile files), replaying, and checking every move with the rules."""
from __future__ import annotations

import dataclasses
import io
import zipfile
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.game import load_position
from toolkit.games import rule
from toolkit.vassal.design.board import board_layout
from toolkit.vassal.saves.logfile import (ESC, LOG, LogError, LogLimits, change_piece_command, chat_command,
                                          decode_command, encode_log, log_bytes, move_piece_command, parse_log_text,
                                          read_log, remove_piece_command, split_commands, turn_command)
from toolkit.vassal.saves.positions import position_save
from toolkit.vassal.saves.replay import check_log, check_log_file
from toolkit.vassal.design.turns import position_turn_command
from toolkit.vassal.engine.safezip import ArchiveError, open_archive
from toolkit.vassal.saves.savefile import SaveError, deobfuscate, obfuscate, parse_saved_game
from toolkit.vassal.engine.seqenc import encode

ROOT = Path(__file__).resolve().parent.parent
SCENARIO_II = ROOT / "modules/jerusalem-1948/scenarios/scenario-ii.yaml"
NP_SCENARIO_1 = ROOT / "modules/no-prisoners/scenarios/scenario-1.yaml"
MAP = "Main Map"


class Board:
    """A position's save and where its pieces are: helpers to write the commands VASSAL would log."""

    def __init__(self, position):
        self.position = position
        self.game = position.game
        self.vsav, _ = position_save(position)
        with open_archive(io.BytesIO(self.vsav)) as arc:
            self.save = parse_saved_game(deobfuscate(arc.read("savedGame")))
        self.piece = {p.properties["unit"]: p for p in self.save.pieces if "unit" in p.properties}
        self.stack_of = {pid: st for st in self.save.stacks for pid in st.pieces}
        self.layout = board_layout(self.game.map)

    def px(self, hexname: str) -> tuple[int, int]:
        x, y = self.layout.pixel(*self.game.map.grid.layout.centre(self.game.map.resolve(hexname)))
        return int(round(x)), int(round(y))

    def move(self, uid: str, hexname: str, under: str | None = None) -> str:
        """The MovePiece of one unit's piece to a hex centre (as the engine writes it after a drag)."""
        p = self.piece[uid]
        x, y = self.px(hexname)
        cmd = move_piece_command(p.id, MAP, x, y, under, p.map, p.x, p.y, None, "player1")
        p.map, p.x, p.y = MAP, x, y
        return cmd

    def move_stack(self, uid: str, hexname: str) -> str:
        """The MovePiece of the whole stack holding a unit (a drag of the stack)."""
        st = self.stack_of[self.piece[uid].id]
        x, y = self.px(hexname)
        cmd = move_piece_command(st.id, MAP, x, y, None, st.map, st.x, st.y, None, "player1")
        st.x, st.y = x, y
        return cmd

    def log(self, steps) -> bytes:
        return log_bytes(self.vsav, steps)


def _write(tmp_path, data: bytes, name="game.vlog") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.fixture(scope="module")
def jerusalem():
    return Board(load_position(SCENARIO_II))


@pytest.fixture(scope="module")
def no_prisoners():
    pos = load_position(NP_SCENARIO_1)
    return Board(dataclasses.replace(pos, phase="west_allied_movement", phasing_side="allied"))


# ---------------------------------------------------------------- the format, as the Java source writes it


def test_move_piece_token_order_is_basic_command_encoders():
    # BasicCommandEncoder.encode: id, newMap, newX, newY, newUnder, oldMap, oldX, oldY, oldUnder, playerId
    text = "M/1004/Main Map/120/340/1002/Main Map/40/60/null/2a1b"
    cmd = decode_command(text)
    assert cmd.kind == "move"
    assert cmd.data == {"id": "1004", "new_map": "Main Map", "new_x": 120, "new_y": 340, "new_under": "1002",
                        "old_map": "Main Map", "old_x": 40, "old_y": 60, "old_under": None, "player": "2a1b"}
    assert move_piece_command("1004", MAP, 120, 340, "1002", MAP, 40, 60, None, "2a1b") == text
    off = decode_command("M/7/null/0/0/null/Main Map/5/6/null/p")  # moved off every map
    assert off.data["new_map"] is None and off.data["old_x"] == 5


def test_other_commands_decoded():
    assert decode_command("-/1003").data == {"id": "1003"}
    ch = decode_command(change_piece_command("9", "a\tb;c", "x"))
    assert (ch.kind, ch.data["id"], ch.data["new_state"], ch.data["old_state"]) == ("change", "9", "a\tb;c", "x")
    assert decode_command(change_piece_command("9", "s")).data["old_state"] is None
    t = decode_command(turn_command("TurnTracker0", "1|7;0;0;;1"))
    assert (t.kind, t.data["tracker"], t.data["state"]) == ("turn", "TurnTracker0", "1|7;0;0;;1")
    assert decode_command(chat_command("<p1> hello")).data["text"] == "<p1> hello"
    assert decode_command("").kind == decode_command("null").kind == "null"   # the engine writes a null command as "null"
    assert decode_command("+/12/stack/Main Map;1;2;10;11;@@0").kind == "add_stack"
    assert decode_command("PLAYER\tbob\tpw\tJewish").kind == "component"
    unknown = decode_command("WHATEVER\tx")
    assert unknown.kind == "unknown" and unknown.text == "WHATEVER\tx"
    bad = decode_command("M/1/Main Map/x/2/null/null/0/0/null")
    assert bad.kind == "bad" and "integer" in bad.data["problem"]


def test_log_layout_restore_command_then_log_commands():
    # BasicLogger.write: beginningState (begin_save ... end_save) with one LogCommand appended per logged
    # command; a LogCommand's sub-commands are LogCommands appended after it, nested as an escaped token.
    initial = encode(["begin_save", "", encode(["", "+/1/piece;;;a.png;A/Main Map;1;2;;0"], ESC), "end_save"], ESC)
    text = encode_log(initial, [["M/1/Main Map/5/6/null/Main Map/1/2/null/p"],
                                ["", "D/1/Main Map;5;6;;0/Main Map;1;2;;0", "M/1/Main Map/9/9/null/Main Map/5/6/null/p"]])
    tokens = split_commands(text)
    assert tokens[:2] == ["begin_save", ""] and tokens[3] == "end_save"
    assert tokens[4] == "LOG\tM/1/Main Map/5/6/null/Main Map/1/2/null/p"
    assert tokens[5].startswith(LOG) and ESC in tokens[5]           # a compound step
    log = parse_log_text(text)
    assert [p.id for p in log.initial.pieces] == ["1"] and log.initial.setup == [False, True]
    assert [[c.kind for c in s.commands] for s in log.steps] == [["move"], ["null", "change", "move"]]


def test_nested_sub_commands_and_escapes_flatten_in_order():
    # a LogCommand whose sub-command has sub-commands: the inner ESCs are escaped twice over
    inner = encode([LOG + "M/2/Main Map/1/1/null/null/0/0/null/p", LOG + "CHAT a/b\\c"], ESC)
    step = encode([LOG + "M/1/Main Map/1/1/null/null/0/0/null/p", inner], ESC)
    text = encode(["begin_save", "end_save", step], ESC)
    log = parse_log_text(text)
    assert [c.kind for c in log.steps[0].commands] == ["move", "move", "chat"]
    assert log.steps[0].commands[2].data["text"] == " a/b\\c"


# ---------------------------------------------------------------- checking moves


def test_jerusalem_legal_and_illegal_move(jerusalem, tmp_path):
    pos = jerusalem.position
    result = rule(pos.game, "moves")(pos, ["j-plm-1"])
    name = pos.game.map.name
    legal_to = "2014"
    assert pos.game.map.resolve(legal_to) in result.destinations
    b = Board(pos)
    data = b.log([[b.move("j-plm-1", legal_to)], [chat_command("<p1> onward")],
                  [b.move("j-plm-1", "2113")]])                         # Imwas, held by the Arabs
    report = check_log_file(_write(tmp_path, data))
    assert [m.legal for m in report.moves] == [True, False]
    bad = report.illegal_moves[0]
    assert (bad.step, bad.units, bad.origin, bad.to, bad.start) == (3, ["j-plm-1"], legal_to, "2113", "2817")
    assert (bad.rule, bad.reason) == ("4.2", "units may not enter enemy-occupied hexes")
    assert bad.reason == result.why_not(pos.game.map.resolve("2113")).message
    assert not report.initial_violations
    assert [v["step"] for v in report.violations] == [3] and report.violations[0]["violations"][0]["rule"] == "4.2"
    assert not report.legal
    assert name(pos.by_id["j-plm-1"].hex) == "2817"


def test_moves_dragged_hex_by_hex_are_one_move(jerusalem, tmp_path):
    # each drag alone is legal, but the whole move is farther than the unit's MP from where it began
    pos = jerusalem.position
    result = rule(pos.game, "moves")(pos, ["j-plm-1"])
    far = max(result.destinations.values(), key=lambda d: d.cost)
    path = [pos.game.map.name(h) for h in far.path]
    b = Board(pos)
    steps = [[b.move("j-plm-1", h)] for h in path[1:]]
    report = check_log_file(_write(tmp_path, b.log(steps)))
    assert report.moves and all(m.legal for m in report.moves)
    # one hop more, legal alone from there, is beyond the unit's MP from where it began the phase
    cmap = pos.game.map
    beyond = next(n for n in far.hex.neighbors() if n in cmap.hexes and n not in result.destinations
                  and result.why_not(n).rule == "MP")
    report = check_log_file(_write(tmp_path, b.log(steps + [[b.move("j-plm-1", cmap.name(beyond))]])))
    bad = report.illegal_moves
    assert [(m.step, m.origin, m.to, m.start, m.rule) for m in bad] == [
        (len(steps) + 1, path[-1], cmap.name(beyond), path[0], "MP")]


def test_stack_drag_is_checked_as_one_stack(jerusalem, tmp_path):
    pos = jerusalem.position
    b = Board(pos)
    uid = "j-plm-1"
    mates = [u.id for u in pos.at(pos.by_id[uid].hex)]
    result = rule(pos.game, "moves")(pos, mates)
    to = sorted(result.destinations, key=lambda h: (result.destinations[h].cost, pos.game.map.name(h)))[0]
    report = check_log_file(_write(tmp_path, b.log([[b.move_stack(uid, pos.game.map.name(to))]])))
    assert len(report.moves) == 1 and sorted(report.moves[0].units) == sorted(mates) and report.moves[0].legal


def test_no_prisoners_legal_and_illegal_move(no_prisoners, tmp_path):
    pos = no_prisoners.position
    result = rule(pos.game, "moves")(pos, ["a-52-div"])
    enemy = pos.game.map.resolve("0708")
    why = result.why_not(enemy)
    assert why.rule == "9.3"
    b = Board(pos)
    data = b.log([[b.move("a-52-div", "0510")], [b.move("a-52-div", "0708")]])
    report = check_log_file(_write(tmp_path, data))
    assert [m.legal for m in report.moves] == [True, False]
    bad = report.illegal_moves[0]
    assert (bad.units, bad.origin, bad.to, bad.rule) == (["a-52-div"], "0510", "0708", "9.3")
    assert bad.reason == "units may never enter a hex with enemy units"


def test_real_engine_shaped_step_change_move_merge(jerusalem, tmp_path):
    # a drag as PieceMover logs it: ChangePiece (old-location properties, with the old state) then MovePiece,
    # all one LogCommand with sub-commands rooted in a NullCommand ("LOG\t"); then a second unit dropped onto
    # the first (MovePiece naming the piece underneath) and a stack made for them (AddPiece of a stack)
    pos = jerusalem.position
    b = Board(pos)
    p = b.piece["j-plm-1"]
    mate = next(u.id for u in pos.at(pos.by_id["j-plm-1"].hex) if u.id != "j-plm-1")
    q = b.piece[mate]
    changed = p.state[: -len(";0")] + ";2;OldX;1;OldY;2" if p.state.endswith(";0") else p.state
    x, y = b.px("2716")
    step1 = ["", change_piece_command(p.id, changed, p.state),
             move_piece_command(p.id, MAP, x, y, None, p.map, p.x, p.y, None, "p1")]
    step2 = [move_piece_command(q.id, MAP, x, y, p.id, q.map, q.x, q.y, None, "p1"),
             "+/9999/stack/" + encode([MAP, x, y, p.id, q.id, "@@0"], ";")]
    report = check_log_file(_write(tmp_path, b.log([step1, step2])))
    assert [(m.units, m.to, m.legal) for m in report.moves] == [(["j-plm-1"], "2716", True), ([mate], "2716", True)]
    assert not report.ignored


def test_turn_command_changes_phase_and_resets_phase_start(jerusalem, tmp_path):
    pos = jerusalem.position
    b = Board(pos)
    road = position_turn_command(pos.game.spec, pos.turn, pos.phasing_side, "road")
    data = b.log([[b.move("j-plm-1", "2716")], [chat_command("* turn"), road],
                  [b.move("j-plm-1", "2817")]])
    report = check_log_file(_write(tmp_path, data))
    assert [p["phase"] for p in report.phases] == ["overland", "road"]
    assert report.moves[-1].start == "2716"          # a new phase: the move starts where the unit is


def test_unknown_and_bad_commands_are_kept_and_reported(jerusalem, tmp_path):
    b = Board(jerusalem.position)
    data = b.log([["FOO\tbar"], ["M/1/Main Map/x/1/null/null/0/0/null"], [remove_piece_command("nope")],
                  [change_piece_command("nope", "x")]])
    report = check_log_file(_write(tmp_path, data))
    assert [(i["step"], i["kind"]) for i in report.ignored] == [(1, "unknown"), (2, "bad"), (3, "remove"),
                                                                (4, "change")]
    assert report.verdict == "not proven" and report.steps == 4   # kept, not applied: not judged


def test_removed_piece_and_siege_not_checked(jerusalem, tmp_path):
    b = Board(jerusalem.position)
    report = check_log_file(_write(tmp_path, b.log([[remove_piece_command(b.piece["j-plm-1"].id)]])))
    assert [(n.what, n.units) for n in report.not_checked] == [("unit leaves the map", ["j-plm-1"])]


# ---------------------------------------------------------------- hostile files


def _zip(entries: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for k, v in entries.items():
            z.writestr(k, v)
    return buf.getvalue()


def test_hostile_logs_refused_cleanly(tmp_path, jerusalem):
    junk = _write(tmp_path, b"\x00junk" * 100, "junk.vlog")
    with pytest.raises(ArchiveError, match="junk.vlog"):
        read_log(junk)
    nosave = _write(tmp_path, _zip({"moduledata": b"<data/>"}), "nosave.vlog")
    with pytest.raises(LogError, match="nosave.vlog: no 'savedGame'"):
        read_log(nosave)
    text = _write(tmp_path, _zip({"savedGame": b"hello world"}), "text.vlog")
    with pytest.raises(LogError, match="text.vlog: no saved game state"):
        read_log(text)
    badhex = _write(tmp_path, _zip({"savedGame": b"!VCSK2azz"}), "badhex.vlog")
    with pytest.raises(SaveError, match="badhex.vlog"):
        read_log(badhex)
    data = jerusalem.log([[chat_command("x")]])
    trunc = _write(tmp_path, data[: len(data) // 2], "trunc.vlog")
    with pytest.raises(ArchiveError, match="trunc.vlog"):
        read_log(trunc)
    many = _write(tmp_path, jerusalem.log([[chat_command(str(i))] for i in range(50)]), "many.vlog")
    with pytest.raises(LogError, match="more than 10 logged steps"):
        read_log(many, LogLimits(max_steps=10))
    wide = _write(tmp_path, jerusalem.log([[chat_command(str(i)) for i in range(50)]]), "wide.vlog")
    with pytest.raises(LogError, match="more than 20 logged commands"):
        read_log(wide, LogLimits(max_commands=20))
    deep = LOG + "x"
    for _ in range(60):
        deep = encode([LOG + "y", deep], ESC)
    nested = _write(tmp_path, _zip({"savedGame": obfuscate(encode(["begin_save", "end_save", deep], ESC), 7)}),
                    "deep.vlog")
    with pytest.raises(LogError, match="nested more than"):
        read_log(nested)
    big = _write(tmp_path, _zip({"savedGame": b"begin_save" + b"\x1bCHAT" + b"x" * 5000}), "big.vlog")
    with pytest.raises((LogError, ArchiveError), match="big.vlog"):
        read_log(big, LogLimits(max_bytes=1000))


def test_cli_exit_status(tmp_path, jerusalem, capsys):
    b = Board(jerusalem.position)
    good = _write(tmp_path, b.log([[b.move("j-plm-1", "2014")]]), "good.vlog")
    assert main(["check", str(good)]) == 0
    assert "legal" in capsys.readouterr().out
    bad = _write(tmp_path, b.log([[b.move("j-plm-1", "2113")]]), "bad.vlog")
    assert main(["check", str(bad), "--json"]) == 1
    import json
    data = json.loads(capsys.readouterr().out)
    assert data["illegal_moves"][0]["rule"] == "4.2" and data["moves_checked"] == 1 and not data["legal"]
    assert set(data) >= {"log", "game", "legal", "steps", "moves_checked", "illegal_moves", "violations",
                         "not_checked", "initial_violations"}
    junk = _write(tmp_path, b"not a zip", "junk.vlog")
    assert main(["check", str(junk)]) == 2
    assert "toolkit: error: " in capsys.readouterr().err


def test_6_3_3_a_convoy_dragged_without_its_escorts_is_flagged(tmp_path):
    """The convoy's stack moves together (6.3.3): a log that drags the convoy alone is an illegal move."""
    from toolkit.vassal.saves.replay import log_of_moves

    pos = load_position(SCENARIO_II)
    hulda = pos.game.map.resolve("Hulda")
    stack = ("j-jc-1", "j-ht-3", "j-7bde-3")  # the convoy, a halftrack and the infantry it carries
    road = dataclasses.replace(pos.moved({u: dataclasses.replace(pos.by_id[u], hex=hulda, box=None) for u in stack}),
                               phase="road")
    alone = tmp_path / "alone.vlog"
    alone.write_bytes(log_of_moves(road, [[("j-jc-1", "0114")]]))
    report = check_log_file(alone)
    (bad,) = report.illegal_moves
    assert bad.units == ["j-jc-1"] and bad.to == "0114" and bad.rule == "6.3.3"
    assert "j-ht-3" in bad.reason and "j-7bde-3" in bad.reason
    together = tmp_path / "together.vlog"
    together.write_bytes(log_of_moves(road, [[(u, "0114") for u in stack]]))
    assert check_log_file(together).illegal_moves == []
