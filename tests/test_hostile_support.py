"""Helpers of the hostile-input tests: files built in the test, and the command run in a forked child with a
timeout, a memory cap and its output captured."""
from __future__ import annotations

import io
import os
import resource
import signal
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "modules" / "jerusalem-1948" / "scenarios" / "scenario-ii.yaml"
NO_PRISONERS = ROOT / "modules" / "no-prisoners" / "scenarios" / "scenario-1.yaml"
ESC = "\x1b"
TIME_LIMIT = 10.0       # seconds a refusal may take (the machine is shared; real refusals take well under 1 s)
MEMORY_LIMIT = 1 << 30  # bytes of address space a run may add


@dataclass
class Run:
    status: int
    out: str
    err: str
    seconds: float


def _vm_size() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


def run(argv: list[str], timeout: float = 30.0, child=None) -> Run:
    """``toolkit ARGV`` in a forked child (``child()`` first, if given): exit status, stdout, stderr, seconds.

    The child may add at most :data:`MEMORY_LIMIT` bytes of address space; it is killed after ``timeout``.
    """
    import tempfile

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        limit = _vm_size() + MEMORY_LIMIT
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:  # the child
            code = 70
            try:
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", closefd=False), encoding="utf-8", write_through=True)
                sys.stderr = io.TextIOWrapper(os.fdopen(2, "wb", closefd=False), encoding="utf-8", write_through=True)
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
                from toolkit.cli import main
                if child is not None:
                    child()
                code = main(argv)
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 1
            except BaseException:
                import traceback
                traceback.print_exc()
                code = 71
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code)
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() - start > timeout:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise AssertionError(f"toolkit {argv} ran over {timeout} s")
            time.sleep(0.01)
        seconds = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        code = os.waitstatus_to_exitcode(status)
        return Run(code, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"), seconds)


def listing(folder: Path) -> list[str]:
    """Every file under a folder, hidden ones included."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def assert_refused(r: Run, *needles: str, limit: float = TIME_LIMIT) -> str:
    """Exit status 2, one ``toolkit: error:`` line naming ``needles`` on stderr, no control characters,
    within ``limit`` seconds."""
    assert r.status == 2, (r.status, r.err[-2000:])
    lines = r.err.strip("\n").split("\n")
    assert len(lines) == 1, r.err[-2000:]
    line = lines[0]
    assert line.startswith("toolkit: error: "), line
    assert "Traceback" not in r.err
    assert not any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 for c in line), repr(line)
    assert len(line) < 1200, len(line)
    for n in needles:
        assert n.lower() in line.lower(), (n, line)
    assert r.seconds < limit, r.seconds
    return line


def save_bytes(text: str, key: int = 0x2A, savedata: str | bytes | None = None, moduledata: str | bytes | None = None,
               raw: bytes | None = None) -> bytes:
    """A ``.vsav`` holding ``text`` obfuscated with ``key`` (or ``raw`` as the savedGame entry)."""
    from toolkit.vassal.saves.savefile import obfuscate

    if moduledata is None:
        moduledata = ('<?xml version="1.0" encoding="UTF-8"?><data version="1"><version>1.0</version>'
                      "<VassalVersion>3.6.0</VassalVersion><name>Jerusalem!</name></data>")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", raw if raw is not None else obfuscate(text, key))
        if savedata is not None:
            z.writestr("savedata", savedata)
        z.writestr("moduledata", moduledata)
    return buf.getvalue()


def valid_save() -> tuple[bytes, str]:
    """A real save of Jerusalem! scenario II (bytes) and its command text."""
    from toolkit.game import load_position
    from toolkit.vassal.saves.positions import position_save
    from toolkit.vassal.saves.savefile import deobfuscate

    data = position_save(load_position(SCENARIO))[0]
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return data, deobfuscate(z.read("savedGame"))
