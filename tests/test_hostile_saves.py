"""Issue 11, save reader: saves from strangers get bounded work and one-line refusals (exit 2), nothing written.

Every file is built here; each case runs ``toolkit`` in a forked child under a timeout and a memory cap.
"""
from __future__ import annotations

import io
import json
import zipfile
from dataclasses import replace

import pytest

from test_hostile_support import (ESC, SCENARIO, TIME_LIMIT, assert_refused, listing, run, save_bytes,
                                  valid_save)
from toolkit.vassal.engine.pieces import basic_state, basic_type, encode_add_piece
from toolkit.vassal.saves.savefile import SaveError, SaveLimits, parse_saved_game, read_save
from toolkit.vassal.engine.seqenc import encode


@pytest.fixture(scope="module")
def good():
    return valid_save()


def _check(tmp_path, data: bytes, *needles: str, name: str = "evil.vsav") -> str:
    p = tmp_path / name
    p.write_bytes(data)
    before = listing(tmp_path)
    line = assert_refused(run(["check", str(p)]), *needles)
    assert listing(tmp_path) == before
    out = tmp_path / "out.yaml"
    assert_refused(run(["vsav", "read", str(p), "-o", str(out)]))
    assert not out.exists() and listing(tmp_path) == before
    return line


def _piece(pid: str, state_tail: str = "0") -> str:
    return encode_add_piece(pid, [], basic_type("a.png", "Inf"), "Main Map;10;20;1;" + state_tail)


def _wrap(*cmds: str) -> str:
    return encode(["begin_save", *cmds, "end_save"], ESC)


def test_property_count_from_the_file_is_bounded(tmp_path):
    line = _check(tmp_path, save_bytes(_wrap(_piece("7", "99999999999"))), "declares 99999999999 properties")
    assert "evil.vsav" in line


@pytest.mark.parametrize("col,row", [("99999999999", "0"), ("0", "99999999999"), ("-1", "0")])
def test_board_slot_from_the_file_is_bounded(tmp_path, col, row):
    cmd = encode(["Main MapBoardPicker", "Jerusalem!", col, row], "\t")
    _check(tmp_path, save_bytes(_wrap(cmd, _piece("7"))), "column and row must be 0 to")


def test_many_board_commands_refused(tmp_path):
    cmd = encode(["Main MapBoardPicker", "Jerusalem!", 0, 0], "\t")
    _check(tmp_path, save_bytes(_wrap(*[cmd] * 60_000)), "BoardPicker commands (limit)")


def test_many_trait_levels_refused(tmp_path):
    type_ = "\t".join(["mark;x"] * 40_000 + ["piece;;;a.png;Inf"])
    state = "\t".join(["v"] * 40_000 + ["Main Map;10;20;1;0"])
    cmd = "+/" + encode(["7", type_, state], "/")
    _check(tmp_path, save_bytes(_wrap(cmd)), "trait levels (limit)")


def test_millions_of_escaped_slashes_refused(tmp_path):
    cmd = "+/7/" + "\\/" * 3_000_000
    data = save_bytes(_wrap(cmd))
    assert len(data) < 64_000
    _check(tmp_path, data, "over the limit of")


def test_deep_nesting_refused(tmp_path):
    text = "begin_save"
    for _ in range(55):
        text = encode([text, _piece("7")], ESC)
    _check(tmp_path, save_bytes(text), "nested more than")


def test_huge_nested_command_refused(tmp_path):
    # ~30 MiB of text behind 55 nesting levels, compressed to a small archive
    body = _piece("7") * (30 * 1024 * 1024 // len(_piece("7")))
    data = save_bytes(_wrap(body))
    assert len(data) < 2_000_000
    _check(tmp_path, data, "limit")


def test_repeated_add_piece_zip_bomb_refused(tmp_path):
    cmd = _piece("7")
    data = save_bytes(encode(["begin_save"] + [cmd] * (63 * 1024 * 1024 // len(cmd)), ESC))
    assert len(data) < 2_000_000
    _check(tmp_path, data, "savedGame", "over the limit")


def test_many_pieces_refused_within_the_text_limit(tmp_path):
    limits = SaveLimits(max_pieces=100)
    with pytest.raises(SaveError, match="more than 100 pieces"):
        parse_saved_game(_wrap(*[_piece(str(i)) for i in range(101)]), "x.vsav", limits)


@pytest.mark.parametrize("raw", [b"\0" * 10_000, b"!VCSK2a" + b"00" * 5000, b"hello world", b""])
def test_junk_payload_is_not_an_empty_position(tmp_path, raw):
    _check(tmp_path, save_bytes("", raw=raw), "not")


def test_wrong_obfuscation_key_is_not_an_empty_position(tmp_path, good):
    _, text = good
    data = save_bytes(text, key=0x41)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        entry = z.read("savedGame")
    wrong = entry[:5] + b"17" + entry[7:]  # the key byte changed, the payload not
    _check(tmp_path, save_bytes("", raw=wrong), "")


def test_deeply_nested_json_description_refused(tmp_path, good):
    _, text = good
    desc = "toolkit-position " + "[" * 100_000 + "]" * 100_000
    savedata = f"<data><description>{desc}</description></data>"
    _check(tmp_path, save_bytes(text, savedata=savedata), "description")
    desc = "toolkit-position " + "{\"a\":" * 5000 + "1" + "}" * 5000
    _check(tmp_path, save_bytes(text, savedata=f"<data><description>{desc}</description></data>"),
           "nested too deeply")


def test_control_characters_from_a_save_are_escaped(tmp_path):
    # ESC itself separates commands (it cannot be inside one); other control characters can
    evil_map = "Main\x9b31mMap\x07\r"
    cmd = encode([f"{evil_map}BoardPicker", "Bo\x9b0;pwned\x07ard", 0, "99999999999"], "\t")
    line = _check(tmp_path, save_bytes(_wrap(cmd)), "\\x07", "\\x9b")
    assert "\x9b" not in line and "\x07" not in line and "\r" not in line


def test_unplaced_pieces_are_echoed_escaped(tmp_path, good):
    _, text = good
    extra = encode_add_piece("99999", [], basic_type("a.png", "Evil\x9b2J\x07"), basic_state("Nowhere\x9b31m", 5, 5, ""))
    p = tmp_path / "extra.vsav"
    p.write_bytes(save_bytes(encode([text, extra], ESC)))
    r = run(["check", str(p)])
    assert r.status in (0, 1), r.err
    assert "\x9b" not in r.err + r.out and "\x07" not in r.err + r.out
    assert "\\x9b" in r.err


def test_valid_save_still_reads(tmp_path, good):
    data, _ = good
    p = tmp_path / "ok.vsav"
    p.write_bytes(data)
    r = run(["check", str(p)])
    assert r.status in (0, 1) and "Traceback" not in r.err, r.err
    assert r.seconds < TIME_LIMIT
    assert read_save(p).pieces


# ---------------------------------------------------------------- unit ids


WEIRD_BUT_ALLOWED = ["a,b", "semi;colon", "sl/ash", "'q'", "p|q", "  spaced", "ünï©ødé", "x" * 64, "end/", "a=b:c"]


def test_unit_ids_round_trip_through_a_save():
    from toolkit.game import load_position, position_from_file
    from toolkit.vassal.saves.positions import position_save, read_position_save

    position = load_position(SCENARIO)
    units = list(position.units)
    on_map = [i for i, u in enumerate(units) if u.hex is not None]
    for i, uid in zip(on_map, WEIRD_BUT_ALLOWED):
        units[i] = replace(units[i], id=uid)
    pos = replace(position, units=tuple(units))
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "ids.vsav"
        p.write_bytes(position_save(pos)[0])
        pf, unplaced = read_position_save(p)
    assert not unplaced
    back = {u.id: (u.counter, u.hex, u.box, tuple(u.flags)) for u in pf.units}
    want = {u.id: (u.counter.id, None if u.hex is None else pos.game.map.name(u.hex), u.box, tuple(sorted(u.flags)))
            for u in pos.units}
    assert back == want
    position_from_file(pf)  # and they load


@pytest.mark.parametrize("uid", ["tail\\", "a\\,b", "x\x1by", "tab\there", "new\nline", "", "x" * 65])
def test_unit_ids_that_a_save_cannot_carry_are_refused_on_load(tmp_path, uid):
    import yaml

    data = yaml.safe_load(SCENARIO.read_text())
    data["units"][0]["id"] = uid
    pos = tmp_path / "pos.yaml"
    pos.write_text(yaml.safe_dump(data))
    before = listing(tmp_path)
    out = tmp_path / "out.vsav"
    assert_refused(run(["vsav", "write", str(pos), "-o", str(out)]), "unit id")
    assert listing(tmp_path) == before


# ---------------------------------------------------------------- .vmod check


@pytest.fixture(scope="module")
def module_file(tmp_path_factory):
    from toolkit.vassal.build.module import build_module

    return build_module("siege-of-jerusalem", tmp_path_factory.mktemp("vmod") / "siege.vmod")


def test_vmod_check_ok_and_json(module_file):
    r = run(["vmod", "check", str(module_file)])
    assert r.status == 0 and "ok" in r.out, r.err
    r = run(["vmod", "check", str(module_file), "--json"])
    assert r.status == 0 and json.loads(r.out) == {"module": str(module_file), "ok": True, "problems": []}


def test_vmod_check_reports_problems(module_file, tmp_path):
    bad = tmp_path / "bad.vmod"
    with zipfile.ZipFile(module_file) as zin, zipfile.ZipFile(bad, "w") as zout:
        for item in zin.infolist():
            if item.filename != "moduledata":
                zout.writestr(item, zin.read(item.filename))
    r = run(["vmod", "check", str(bad), "--json"])
    assert r.status == 1 and "moduledata missing" in " ".join(json.loads(r.out)["problems"])


def test_vmod_check_refuses_a_bomb(tmp_path):
    # a 2 MB archive whose buildFile.xml inflates past the limit
    bad = tmp_path / "bomb.vmod"
    with zipfile.ZipFile(bad, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("buildFile.xml", b"<a>" + b" " * (2_000_000 * 1000) + b"</a>")
        z.writestr("moduledata", b"<data/>")
    assert bad.stat().st_size < 3_000_000
    before = listing(tmp_path)
    assert_refused(run(["vmod", "check", str(bad)]), "bomb.vmod", "buildFile.xml")
    assert listing(tmp_path) == before


def test_vmod_check_refuses_a_corrupt_entry(module_file, tmp_path):
    raw = bytearray(module_file.read_bytes())
    with zipfile.ZipFile(module_file) as z:
        info = z.getinfo("buildFile.xml")
    start = info.header_offset + 30 + len(info.filename) + 40
    raw[start:start + 64] = b"\xff" * 64
    bad = tmp_path / "corrupt.vmod"
    bad.write_bytes(bytes(raw))
    assert_refused(run(["vmod", "check", str(bad)]), "corrupt.vmod")
    not_zip = tmp_path / "junk.vmod"
    not_zip.write_bytes(b"PK\x03\x04" + b"\0" * 100)
    assert_refused(run(["vmod", "check", str(not_zip)]), "not a readable zip")


def test_vmod_check_refuses_entities(module_file, tmp_path):
    bad = tmp_path / "xxe.vmod"
    with zipfile.ZipFile(module_file) as zin, zipfile.ZipFile(bad, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "buildFile.xml":
                data = data.replace(b"?>", b'?>\n<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>', 1)
            zout.writestr(item, data)
    assert_refused(run(["vmod", "check", str(bad)]), "DOCTYPE")


def test_vmod_build_still_works_and_says_replaced(tmp_path):
    out = tmp_path / "j.vmod"
    r = run(["vmod", "siege-of-jerusalem", "-o", str(out)], timeout=120)
    assert r.status == 0 and r.out.startswith("wrote "), r.err
    r = run(["vmod", "siege-of-jerusalem", "-o", str(out)], timeout=120)
    assert r.status == 0 and r.out.startswith("replaced "), r.err
    assert listing(tmp_path) == ["j.vmod"]
    assert_refused(run(["vmod", "siege-of-jerusalem"]), "-o")


# ---------------------------------------------------------------- logs (toolkit check GAME.vlog): the same approach


def test_hostile_logs_refused(tmp_path, good):
    from toolkit.vassal.saves.logfile import LOG

    _, text = good
    junk = tmp_path / "junk.vlog"
    junk.write_bytes(save_bytes("", raw=b"\0" * 10_000))
    before = listing(tmp_path)
    assert_refused(run(["check", str(junk)]), "junk.vlog")
    step = LOG + "CHATx"
    for _ in range(40):
        step = encode([LOG + "CHATy", step], ESC)
    deep = tmp_path / "deep.vlog"
    deep.write_bytes(save_bytes(encode([text, step], ESC)))
    assert_refused(run(["check", str(deep)]), "nested more than")
    many = tmp_path / "many.vlog"
    many.write_bytes(save_bytes(encode([text] + [LOG + "CHATz"] * 20_001, ESC)))
    assert_refused(run(["check", str(many)]), "steps (limit)")
    assert listing(tmp_path) == sorted(before + ["deep.vlog", "many.vlog"])
