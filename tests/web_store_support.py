"""A real PostgreSQL server for the store tests (tests/test_web_store*.py): Debian's ``postgresql`` package's
``initdb`` and ``pg_ctl`` into a temporary folder, listening on a unix socket only, run as ``nobody`` when the tests
run as root (PostgreSQL refuses root).  :func:`postgres_missing` says why it cannot run here (the tests then skip,
and fail under ``TOOLKIT_REQUIRE_TIERS=1``: tests/conftest.py)."""
from __future__ import annotations

import contextlib
import glob
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterator
from urllib.parse import quote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
PG_USER = "toolkit"
START_S = 60


def pg_bin() -> Path | None:
    """The folder of the PostgreSQL server programs (Debian keeps them out of PATH), or None."""
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def postgres_missing() -> str | None:
    """Why the PostgreSQL tier cannot run here, or None when it can."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "PostgreSQL tier: psycopg is not installed (pip install -e '.[test]'; .ci/run does)"
    if pg_bin() is None:
        return "PostgreSQL tier: no PostgreSQL server programs (apt-get install postgresql; .ci/run does)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "PostgreSQL tier: running as root without runuser to start the server as nobody"
    return None


def _as_server_user(argv: list[str]) -> list[str]:
    return ["runuser", "-u", "nobody", "--", *argv] if os.geteuid() == 0 else argv


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """A fresh PostgreSQL cluster on a unix socket: yields the URL of its ``postgres`` database (superuser
    :data:`PG_USER`, trust authentication, no TCP), stopped and removed after."""
    binaries = pg_bin()
    folder = Path(tempfile.mkdtemp(prefix="toolkit-pg-"))
    data, sockets = folder / "data", folder / "sockets"
    sockets.mkdir()
    if os.geteuid() == 0:
        shutil.chown(folder, "nobody")
        shutil.chown(sockets, "nobody")
    folder.chmod(0o755)
    log = folder / "server.log"
    try:
        subprocess.run(_as_server_user([str(binaries / "initdb"), "-D", str(data), "-U", PG_USER, "-A", "trust",
                                        "--no-sync", "-E", "UTF8"]), check=True, capture_output=True, timeout=START_S)
        subprocess.run(_as_server_user([str(binaries / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t",
                                        str(START_S), "-o", f"-k {sockets} -c listen_addresses='' -c fsync=off",
                                        "start"]), check=True, capture_output=True, timeout=START_S + 10)
        yield f"postgresql://{PG_USER}@/postgres?host={sockets}"
    finally:
        subprocess.run(_as_server_user([str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
                       capture_output=True, timeout=START_S)
        shutil.rmtree(folder, ignore_errors=True)


def new_database(server: str, name: str) -> str:
    """A new empty database ``name`` on the server whose ``postgres`` URL is ``server``: its URL."""
    import psycopg

    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return server.replace("/postgres?", f"/{name}?")


def served(store: str, port: int) -> subprocess.Popen:
    """``toolkit serve --store STORE --port PORT`` (from the repository), started; :func:`url_of` waits for it."""
    return subprocess.Popen([sys.executable, "-m", "toolkit", "serve", "--store", store, "--port", str(port)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def url_of(proc: subprocess.Popen) -> str:
    """The base URL :func:`served` prints once it listens."""
    line = proc.stdout.readline()
    assert line.startswith("toolkit viewer at "), line + proc.stdout.read()
    return line.split(" at ")[1].split()[0].rstrip("/")


def event_stream(base: str, game: str) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    """``GET /api/events?game=GAME`` of the server at ``base``: the connection and its open answer."""
    host = urlsplit(base)
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
    conn.request("GET", f"/api/events?game={quote(game)}", headers={"Accept": "text/event-stream"})
    answer = conn.getresponse()
    assert answer.status == 200 and answer.getheader("content-type").startswith("text/event-stream")
    return conn, answer


def next_event(answer) -> dict:
    """The next ``game`` event's data (comment lines skipped)."""
    lines = []
    while True:
        line = answer.readline().decode().rstrip("\r\n")
        if line == "" and lines:
            break
        if line and not line.startswith(":"):
            lines.append(line)
    assert lines[0] == "event: game", lines
    return json.loads(lines[1].removeprefix("data: "))
