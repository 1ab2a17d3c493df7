"""The viewer's store (issue 32, docs/web.md "Saved games"): every game played is kept with its base position,
each step (text, log, position), its undo/redo branch, its title and times, under a random id that survives a
restart; files opened are kept too.  Each test runs on SQLite (a file) and on a real PostgreSQL server started by
the tests (tests/web_store_support.py).  The SIGKILL test kills a real ``toolkit serve`` in mid-play; two real
servers share one store."""
from __future__ import annotations

import itertools
import re
import signal
import sqlite3
import threading
import urllib.request
import warnings
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.web import SourceBook, create_app, sources
from toolkit.web.store import StoreError, default_store_path, open_store
from web_browser_support import api, free_port
from web_store_support import (event_stream, new_database, next_event, postgres_missing, postgres_server, served,
                               url_of)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent
J2 = "bundled:jerusalem-1948/scenario-ii.yaml"
SCENARIO_II = ROOT / "modules/jerusalem-1948/scenarios/scenario-ii.yaml"
_databases = itertools.count()


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL server for the session (its ``postgres`` database's URL)."""
    why = postgres_missing()
    if why:
        pytest.skip(why)
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request, tmp_path):
    """Where a test's store is: an SQLite file, or a fresh database on the PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite")
    return new_database(request.getfixturevalue("postgres"), f"store_{next(_databases)}")


def client(where: str, **book) -> TestClient:
    """The viewer's app on the store at ``where`` (a new store each time: as a restarted server opens it)."""
    return TestClient(create_app(SourceBook(store=open_store(where), **book)))


def ok(c, url, method="GET", **params):
    r = c.request(method, url, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def moved(c, source, unit="j-plm-1", pick=0):
    """``source`` after a legal move of ``unit`` (its ``pick``-th destination), as the page makes it."""
    dest = ok(c, "/api/moves", source=source, unit=unit)["destinations"][pick]["hex"]
    return ok(c, "/api/play", source=source, step=f"move:{unit}>{dest}")


def test_game_ids_are_random_and_survive_a_restart(where):
    with client(where) as c:
        first = moved(c, J2)
        second = ok(c, "/api/play", source=first["id"], step="turn:next")
        other = ok(c, "/api/play", source=J2, step="turn:next")
    game = first["saved"]["id"]
    assert re.fullmatch(r"[A-Za-z0-9_-]{16}", game) and other["saved"]["id"] != game
    assert not {game, other["saved"]["id"]} & {"1", "2", "play:1"}     # not counted
    assert second["id"] == second["saved"]["positions"][2] and second["saved"]["id"] == game
    with client(where) as c:                                             # the server started again
        again = ok(c, "/api/game", game=game)
        assert (again["id"], again["steps"], again["log"]) == (second["id"], second["steps"], second["log"])
        assert again["units"] == second["units"] and again["phase"] == "road"
        assert ok(c, "/api/source", source=first["id"])["units"] == first["units"]


def test_undo_goes_to_any_step_however_many_were_played_since(where, monkeypatch):
    """Positions are read again from the store: with two kept in memory, undo still reaches the first step."""
    monkeypatch.setattr(sources, "MAX_PLAYED", 2)
    with client(where) as c:
        made = [moved(c, J2)]
        for _ in range(7):
            made.append(ok(c, "/api/play", source=made[-1]["id"], step="turn:next"))
        game = made[0]["saved"]["id"]
        back = ok(c, "/api/history", "POST", game=game, at=1)
        assert back["id"] == made[0]["id"] and back["units"] == made[0]["units"] and back["saved"]["cursor"] == 1
        assert ok(c, "/api/history", "POST", game=game, at=0)["id"] == f"play:{game}/0"
        redone = ok(c, "/api/history", "POST", game=game, at=8)
        assert (redone["id"], redone["turn"], redone["phase"]) == (made[-1]["id"], made[-1]["turn"], made[-1]["phase"])
        assert ok(c, "/api/games")["games"][0]["at"] == 8
        r = c.post("/api/history", params={"game": game, "at": 9})
        assert r.status_code == 400 and "has 8 steps; give 0 to 8" in r.json()["error"]


def test_a_new_step_after_undo_cuts_the_redo_branch_and_old_ids_say_so(where):
    with client(where) as c:
        first = moved(c, J2)
        second = ok(c, "/api/play", source=first["id"], step="turn:next")
        game = first["saved"]["id"]
        ok(c, "/api/history", "POST", game=game, at=1)
        # The same step again is the redo branch's (a double click, or redo by hand): the same position.
        assert ok(c, "/api/play", source=first["id"], step="turn:next")["id"] == second["id"]
        ok(c, "/api/history", "POST", game=game, at=1)
        branch = ok(c, "/api/play", source=first["id"], step="phase:road")
        assert branch["saved"]["positions"][:2] == second["saved"]["positions"][:2]
        assert branch["id"] != second["id"] and len(branch["saved"]["positions"]) == 3
        r = c.get("/api/source", params={"source": second["id"]})
        assert r.status_code == 404 and "no longer has this position" in r.json()["error"]
        # A step asked of a position the game has moved on from is refused: 409, saying what to do.
        r = c.get("/api/play", params={"source": f"play:{game}/0", "step": "turn:next"})
        assert r.status_code == 409 and "another page or seat played meanwhile" in r.json()["error"]


def test_the_saved_games_are_listed_and_reopened(where):
    with client(where) as c:
        older = moved(c, J2)
        newer = ok(c, "/api/play", source="bundled:no-prisoners/scenario-1.yaml", step="turn:next")
    with client(where) as c:
        listed = ok(c, "/api/games")["games"]
        assert [g["id"] for g in listed] == [newer["saved"]["id"], older["saved"]["id"]]   # the last played first
        entry = listed[1]
        assert (entry["title"], entry["game"], entry["turn"], entry["steps"], entry["at"]) == (
            "Jerusalem!: scenario-ii", "jerusalem-1948", "May IV", 1, 1)
        assert entry["created"] <= entry["last_played"] and "seats" not in entry
        assert ok(c, "/api/game", game=entry["id"])["id"] == older["id"]
        r = c.get("/api/game", params={"game": "nope"})
        assert r.status_code == 404 and "/api/games" in r.json()["error"]


def test_files_opened_are_kept_under_their_id(where):
    raw = SCENARIO_II.read_bytes()
    with client(where) as c:
        opened = c.post("/api/open", content=raw, headers={"X-Filename": "mine.yaml"}).json()
        assert re.fullmatch(r"upload:[A-Za-z0-9_-]{16}", opened["id"])
        again = c.post("/api/open", content=raw, headers={"X-Filename": "mine.yaml"}).json()
        assert again["id"] == opened["id"]                                 # the same file: the same id
        played = moved(c, opened["id"])
    with client(where) as c:
        assert ok(c, "/api/source", source=opened["id"])["title"] == "mine.yaml"
        assert ok(c, "/api/game", game=played["saved"]["id"])["base"] == opened["id"]


def test_a_corrupt_or_foreign_sqlite_file_is_refused_and_left_alone(tmp_path, capsys):
    corrupt = tmp_path / "corrupt.sqlite"
    corrupt.write_bytes(b"not a database at all, " * 100)
    with pytest.raises(StoreError, match=re.escape(str(corrupt)) + ".*not an SQLite database.*--store"):
        open_store(str(corrupt))
    assert corrupt.read_bytes() == b"not a database at all, " * 100
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE invoices (n INTEGER)")
    before = foreign.read_bytes()
    with pytest.raises(StoreError, match="database of something else \\(tables invoices\\)"):
        open_store(str(foreign))
    assert foreign.read_bytes() == before
    assert main(["serve", "--store", str(corrupt), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert str(corrupt) in err and "it is left as it is" in err and "Traceback" not in err


def test_another_schema_is_refused(where):
    open_store(where).close()
    store = open_store(where)
    with store.transaction(write=True) as cur:
        store._run(cur, "UPDATE toolkit_meta SET value = ? WHERE key = ?", ("toolkit-store 99", "schema"))
    store.close()
    with pytest.raises(StoreError, match="its schema is 'toolkit-store 99'"):
        open_store(where)


def test_the_default_store_is_in_the_users_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_store_path() == tmp_path / "data" / "toolkit" / "games.sqlite"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_store_path() == tmp_path / "home" / ".local" / "share" / "toolkit" / "games.sqlite"


def _ask(url: str) -> None:
    try:
        urllib.request.urlopen(url, timeout=20).read()
    except OSError:
        pass   # the server was killed first


def test_a_server_killed_in_mid_play_carries_on_the_same_game(where):
    """SIGKILL while the page plays (a step being made), then a new server on the same store: the same game id,
    its steps, undo."""
    port = free_port()
    server = served(where, port)
    try:
        base = url_of(server)
        status, moves = api(base, f"/api/moves?source={J2}&unit=j-plm-1")
        assert status == 200, moves
        _, first = api(base, f"/api/play?source={J2}&step=move:j-plm-1>{moves['destinations'][0]['hex']}")
        _, second = api(base, f"/api/play?source={first['id']}&step=turn:next")
        late = threading.Thread(target=_ask, args=(f"{base}/api/play?source={second['id']}&step=turn:next",))
        late.start()
        server.send_signal(signal.SIGKILL)       # maybe while the third step is written: all of it or none
        server.wait(10)
        late.join(30)
        assert not late.is_alive()               # the server's workers died with it: no connection held open
    finally:
        if server.poll() is None:
            server.kill()
    game = first["saved"]["id"]
    server = served(where, port)
    try:
        base = url_of(server)
        _, now = api(base, f"/api/game?game={game}")
        assert now["saved"]["id"] == game and now["steps"][:2] == second["steps"]
        assert now["saved"]["positions"][:3] == second["saved"]["positions"]
        status, back = api(base, f"/api/history?game={game}&at=1", data=b"")
        assert status == 200 and back["id"] == first["id"] and back["units"] == first["units"]
        status, on = api(base, f"/api/play?source={first['id']}&step=phase:road")
        assert status == 200 and on["saved"]["id"] == game and on["steps"][-1] == "phase:road"
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(20)


def test_stores_opened_at_once_on_an_empty_database_make_its_tables_once(where):
    """Several servers started together on a new store: one makes the tables, the others find them (PostgreSQL's
    CREATE TABLE IF NOT EXISTS run at once in two sessions fails: the setup is serialized)."""
    opened, failed = [], []
    start = threading.Barrier(6)

    def open_one() -> None:
        start.wait()
        try:
            opened.append(open_store(where))
        except Exception as err:  # noqa: BLE001 -- collected: the test says which
            failed.append(err)

    threads = [threading.Thread(target=open_one) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert failed == [] and len(opened) == 6
    assert [len(s.games()) for s in opened] == [0] * 6
    for store in opened:
        store.close()


def test_two_servers_share_the_games_of_one_store(where):
    """Two server processes on one store (PostgreSQL's purpose; an SQLite file allows it too): a step made
    through one is heard by a page of the other (its event stream) and the game goes on through the other."""
    ports = free_port(), free_port()
    servers = [served(where, port) for port in ports]
    try:
        one, two = (url_of(s) for s in servers)
        _, started = api(one, f"/api/play?source={J2}&step=phase:overland")
        game = started["saved"]["id"]
        conn, stream = event_stream(two, game)
        try:
            assert next_event(stream)["position"] == started["id"]
            _, on = api(one, f"/api/play?source={started['id']}&step=turn:next")
            assert next_event(stream)["position"] == on["id"]          # heard through the other server
        finally:
            conn.close()
        status, there = api(two, f"/api/play?source={on['id']}&step=turn:next")
        assert status == 200 and there["saved"]["positions"][:3] == [f"play:{game}/0", started["id"], on["id"]]
        status, stale = api(one, f"/api/play?source={started['id']}&step=phase:road")
        assert status == 409 and "another page or seat played meanwhile" in stale["error"]
    finally:
        for server in servers:
            server.send_signal(signal.SIGINT)
            server.wait(20)
