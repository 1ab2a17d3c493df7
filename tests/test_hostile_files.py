"""Issue 11, YAML files, arguments and output paths: one-line refusals (exit 2), bounded work, nothing overwritten."""
from __future__ import annotations

import os
import shutil
import signal

import pytest
import yaml

from test_hostile_support import NO_PRISONERS, SCENARIO, assert_refused, listing, run


def _position(tmp_path, edit=None, name="pos.yaml"):
    data = yaml.safe_load(SCENARIO.read_text())
    if edit:
        edit(data)
    p = tmp_path / name
    p.write_text(yaml.safe_dump(data, sort_keys=False))
    return p


def _refused_everywhere(tmp_path, pos, *needles):
    before = listing(tmp_path)
    line = assert_refused(run(["check", str(pos)]), *needles)
    assert_refused(run(["vsav", "write", str(pos), "-o", str(tmp_path / "out.vsav")]), *needles)
    assert listing(tmp_path) == before
    return line


# ---------------------------------------------------------------- YAML


def test_alias_bomb_refused_quickly(tmp_path):
    lines = ["game: jerusalem-1948", "turn: x", "phase: y", "phasing_side: z", "a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]"]
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}" if i > 1 else "*a"] * 9) + "]")
    lines.append("units: *a8")
    p = tmp_path / "bomb.yaml"
    p.write_text("\n".join(lines) + "\n")
    assert p.stat().st_size < 1200
    line = _refused_everywhere(tmp_path, p, "alias")
    assert len(line) < 400


def test_a_large_file_without_aliases_is_no_alias_bomb():
    """Issue 20: the guard counts what aliases add, so 180,000 honest pairs (a 60,000-unit position) pass, and
    a small bomb (each alias counted once) is still refused."""
    from toolkit.datafile import MAX_ALIAS_NODES, DataFileError, check_structure

    units = [{"id": f"u{i}", "counter": "c", "hex": "0101"} for i in range(60_000)]
    check_structure({"game": "g", "units": units}, "big.yaml")
    shared = {"id": "u", "counter": "c", "hex": "0101"}
    with pytest.raises(DataFileError, match="alias"):
        check_structure({"units": [shared] * (MAX_ALIAS_NODES // 6)}, "bomb.yaml")


def test_error_messages_never_print_the_whole_input(tmp_path):
    p = _position(tmp_path, lambda d: d.update(units=[{"id": "x" * 10, "counter": "y" * 100_000, "hex": "z"}]))
    line = _refused_everywhere(tmp_path, p)
    assert len(line) < 1000


@pytest.mark.parametrize("doc", ["units: " + "[" * 5000 + "]" * 5000, "units:\n" + "".join(" " * i + "- a:\n" for i in range(0, 2000, 2))])
def test_deep_nesting_refused(tmp_path, doc):
    p = tmp_path / "deep.yaml"
    p.write_text("game: jerusalem-1948\nturn: x\nphase: y\nphasing_side: z\n" + doc + "\n")
    _refused_everywhere(tmp_path, p, "nested")


def test_recursive_alias_refused(tmp_path):
    p = tmp_path / "rec.yaml"
    p.write_text("game: jerusalem-1948\nturn: x\nphase: y\nphasing_side: z\nunits: &u [*u]\n")
    _refused_everywhere(tmp_path, p, "recursive alias")


@pytest.mark.parametrize("game", ["/tmp", "../../modules/jerusalem-1948", "/etc/passwd", "Jerusalem-1948", ""])
def test_a_position_names_a_bundled_game_never_a_path(tmp_path, game):
    p = _position(tmp_path, lambda d: d.update(game=game))
    _refused_everywhere(tmp_path, p, "game")


def test_carrying_chain_refused_without_recursion(tmp_path):
    def chain(d):
        hexname = d["units"][0]["hex"]
        d["units"] = [{"id": f"u{i}", "counter": d["units"][0]["counter"], "hex": hexname,
                       **({"carried_by": f"u{i - 1}"} if i else {})} for i in range(1100)]
    p = _position(tmp_path, chain)
    _refused_everywhere(tmp_path, p, "levels deep")


def test_carrying_cycle_still_refused(tmp_path):
    def cycle(d):
        u = d["units"]
        u[0]["carried_by"], u[1]["carried_by"] = u[1]["id"], u[0]["id"]
        u[1]["hex"] = u[0]["hex"]
        u[1].pop("box", None)
    p = _position(tmp_path, cycle)
    _refused_everywhere(tmp_path, p, "carrying cycle")


def test_fifo_as_input_refused(tmp_path):
    fifo = tmp_path / "pos.yaml"
    os.mkfifo(fifo)
    assert_refused(run(["check", str(fifo)], timeout=20), "not a regular file")
    fifo2 = tmp_path / "s.vsav"
    os.mkfifo(fifo2)
    assert_refused(run(["check", str(fifo2)], timeout=20), "not a regular file")
    assert_refused(run(["vsav", "read", str(fifo2), "-o", str(tmp_path / "o.yaml")], timeout=20), "not a regular")
    assert not (tmp_path / "o.yaml").exists()


# ---------------------------------------------------------------- arguments


def test_odds_duplicate_ids_refused(tmp_path):
    r = run(["odds", str(SCENARIO), "--attack", "h1", "h1", "h1", "--defend", "m1"])
    assert_refused(r, "--attack", "more than once")
    assert_refused(run(["odds", str(SCENARIO), "--attack", "h1", "--defend", "h1"]), "both attack and defend")


@pytest.mark.parametrize("width", ["100000", "10000000000", "0", "-5"])
def test_render_width_bounded(tmp_path, width):
    out = tmp_path / "m.png"
    assert_refused(run(["render", "example", "-o", str(out), "--width", width]), "--width")
    assert listing(tmp_path) == []


# ---------------------------------------------------------------- output paths


def _vsav_write(out) -> list[str]:
    return ["vsav", "write", str(SCENARIO), "-o", str(out)]


@pytest.mark.parametrize("make,needle", [
    (lambda t: t / "adir", "folder"),
    (lambda t: "", "empty"),
    (lambda t: t / ("n" * 300 + ".vsav"), "too long"),
    (lambda t: t / "afile" / "out.vsav", "not a folder"),
    (lambda t: t / "afile" / "deeper" / "out.vsav", "not a folder"),
    (lambda t: str(t / "adir") + "/", "folder"),
])
def test_bad_output_paths_refused(tmp_path, make, needle):
    (tmp_path / "adir").mkdir()
    (tmp_path / "afile").write_text("keep")
    before = listing(tmp_path)
    out = make(tmp_path)
    assert_refused(run(_vsav_write(out)), needle)
    assert_refused(run(["render", "example", "-o", str(out) if out != "" else ""]))
    assert listing(tmp_path) == before
    assert (tmp_path / "afile").read_text() == "keep"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_folder_refused(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        assert_refused(run(_vsav_write(ro / "out.vsav")), "ro")
    finally:
        ro.chmod(0o700)
    assert listing(ro) == []


def test_non_regular_outputs_refused(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "null-link"
    link.symlink_to("/dev/null")
    fifo_link = tmp_path / "fifo-link"
    fifo_link.symlink_to(fifo)
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nothing-here")
    for out in (fifo, link, fifo_link, dangling):
        assert_refused(run(_vsav_write(out), timeout=20), str(out))
        assert_refused(run(["render", "example", "-o", str(out) + ""], timeout=20))
    assert fifo.is_fifo() and link.is_symlink() and os.readlink(link) == "/dev/null"
    assert fifo_link.is_symlink() and dangling.is_symlink()
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")


def test_symlink_to_a_regular_file_is_written_through(tmp_path):
    real = tmp_path / "real.vsav"
    real.write_bytes(b"old")
    link = tmp_path / "link.vsav"
    link.symlink_to(real)
    r = run(_vsav_write(link))
    assert r.status == 0 and r.out.startswith("replaced"), r.err
    assert link.is_symlink() and real.read_bytes()[:2] == b"PK"


def test_stdout_output(tmp_path):
    r = run(["vsav", "read", str(_saved(tmp_path)), "-o", "-"])
    assert r.status == 0, r.err
    assert yaml.safe_load(r.out)["game"] == "jerusalem-1948"
    assert "units" in r.err  # the status line goes to stderr


def _saved(tmp_path):
    out = tmp_path / "s.vsav"
    assert run(_vsav_write(out)).status == 0
    return out


def test_output_over_any_input_refused(tmp_path):
    pos = tmp_path / "pos.svg"
    shutil.copy(NO_PRISONERS, pos)
    before = pos.read_bytes()
    assert_refused(run(["supply", str(pos), "--svg", str(pos)]), "input")
    assert_refused(run(["command", str(pos), "--svg", str(tmp_path / "." / "pos.svg")]), "input")
    link = tmp_path / "alias.svg"
    link.symlink_to(pos)
    assert_refused(run(["railhead", str(pos), "--svg", str(link)]), "input")
    assert pos.read_bytes() == before
    save = _saved(tmp_path)
    assert_refused(run(["vsav", "read", str(save), "-o", str(save)]), "input")
    assert_refused(run(["vsav", "write", str(pos), "-o", str(pos)]), "input")
    assert pos.read_bytes() == before


def test_existing_outputs_replaced_and_said_so(tmp_path):
    out = tmp_path / "s.vsav"
    r1, r2 = run(_vsav_write(out)), run(_vsav_write(out))
    assert r1.out.startswith("wrote") and r2.out.startswith("replaced"), (r1.out, r2.out)
    png = tmp_path / "m.svg"
    r1, r2 = run(["render", "example", "-o", str(png)]), run(["render", "example", "-o", str(png)])
    assert r1.status == r2.status == 0 and r2.out.startswith("replaced"), (r1.out, r2.out, r2.err)
    assert listing(tmp_path) == ["m.svg", "s.vsav"]


def test_sigterm_during_a_write_leaves_no_temporary_file(tmp_path):
    def child():
        import toolkit.vassal.saves.positions as positions

        real = positions.write_atomic

        def slow(path, data):
            def writer(f):
                f.write(data[:100])
                os.kill(os.getpid(), signal.SIGTERM)
                f.write(data[100:])
            return real(path, writer)
        positions.write_atomic = slow
    r = run(_vsav_write(tmp_path / "out.vsav"), child=child)
    assert r.status == 128 + signal.SIGTERM and "Traceback" not in r.err, r.err
    assert listing(tmp_path) == []


def test_stale_temporary_files_removed_by_the_next_write(tmp_path):
    stale = tmp_path / ".out.vsav.toolkit-999999999.abc123.tmp"
    stale.write_bytes(b"half")
    mine = tmp_path / f".out.vsav.toolkit-{os.getpid()}.xyz.tmp"  # a live process's: kept
    mine.write_bytes(b"busy")
    assert run(_vsav_write(tmp_path / "out.vsav")).status == 0
    assert listing(tmp_path) == [mine.name, "out.vsav"]


def test_ctrl_c_exits_130_quietly(tmp_path):
    def child():
        import toolkit.cli as cli

        def interrupted(args):
            raise KeyboardInterrupt
        cli.cmd_maps = interrupted
    r = run(["maps"], child=child)
    assert r.status == 130 and r.err == "" and r.out == "", r
