"""The viewer no request can stall (issue 30): every rules answer -- ``/api/moves`` and ``/api/play`` too -- is
computed in the time-limited worker processes with no lock held; uploads are read one at a time; a wait for a
worker's turn ends at Ctrl-C."""
from __future__ import annotations

import os
import threading
import time
import warnings

import pytest

from test_hostile_support import SCENARIO
from toolkit.web import SourceBook, create_app, sources
from toolkit.web import app as web_app
from toolkit.web.play import moves_among, play, played_states
from toolkit.web.workers import Unavailable, Workers

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

J2 = "bundled:jerusalem-1948/scenario-ii.yaml"


def _wait_for(path: str, *_, **__) -> None:
    """A worker's stand-in for a long answer: it ends when ``path`` exists (at most a minute)."""
    for _ in range(6000):
        if os.path.exists(path):
            return
        time.sleep(0.01)


def _while_heavy(client, book: SourceBook, path: str, params: dict) -> tuple[dict, threading.Thread]:
    """``GET path`` started in a thread; returns once its worker runs (answers land in the dict)."""
    answers: dict = {}
    heavy = threading.Thread(target=lambda: answers.update(heavy=client.get(path, params=params)))
    heavy.start()
    while not book.workers.running and heavy.is_alive():
        time.sleep(0.01)
    return answers, heavy


def _answered_meanwhile(client) -> bool:
    return client.get("/api/sources").status_code == 200 and client.get("/api/source", params={"source": J2}) \
        .status_code == 200


def test_moves_are_searched_in_a_worker_without_the_lock(tmp_path, monkeypatch):
    flag = str(tmp_path / "go")
    monkeypatch.setattr(web_app, "moves_body", lambda *args: _wait_for(flag) or b'{"slow": true}')
    book = SourceBook()
    book.prepared.add(J2)   # no clicks answered ahead: the one worker is the request's
    with TestClient(create_app(book)) as client:
        answers, heavy = _while_heavy(client, book, "/api/moves", {"source": J2, "unit": "j-plm-1"})
        assert book.workers.running and _answered_meanwhile(client) and heavy.is_alive()
        open(flag, "w").close()
        heavy.join(60)
        assert answers["heavy"].json() == {"slow": True}
        monkeypatch.setattr(web_app, "moves_body", lambda *args: b"{}")
        again = client.get("/api/moves", params={"source": J2, "unit": "j-plm-1"})
        assert again.json() == {"slow": True}   # kept: asked again, not searched again


def test_a_search_that_never_ends_is_503_and_stalls_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(web_app, "moves_body", lambda *args: _wait_for(str(tmp_path / "never")))
    book = SourceBook()
    book.kept.limit = 0
    book.workers.seconds = 0.5
    with TestClient(create_app(book)) as client:
        r = client.get("/api/moves", params={"source": J2, "unit": "j-plm-1"})
    assert r.status_code == 503 and "not answered within 0.5 s" in r.json()["error"]
    assert not book.workers.running


def test_play_is_made_in_a_worker_without_the_lock(tmp_path, monkeypatch):
    flag = str(tmp_path / "go")
    monkeypatch.setattr(web_app, "played_states", lambda *args: _wait_for(flag) or played_states(*args))
    book = SourceBook()
    book.kept.limit = 0
    with TestClient(create_app(book)) as client:
        answers, heavy = _while_heavy(client, book, "/api/play", {"source": J2, "step": "move:j-plm-1>2720"})
        assert book.workers.running and _answered_meanwhile(client) and heavy.is_alive()
        open(flag, "w").close()
        heavy.join(60)
        played = answers["heavy"].json()
        assert played["id"].startswith("play:") and played["log"][-1]["to"] == "2720"
        # the position the worker sent back is the one the move gives in this process, whole
        start = book.get(J2).position
        here, log = play(start, ["move:j-plm-1>2720"])
        there = book.get(played["id"]).position
        assert (there.units, there.turn, there.phase, there.game) == (here.units, here.turn, here.phase, start.game)
        assert there.by_id["j-plm-1"].spent == log[0]["cost"] > 0


def test_each_move_of_a_play_has_the_answer_time_limit():
    steps = ["phase:overland", "move:a>0101", "move:b+c>0102;kind=road", "turn:next"]
    assert moves_among(steps) == 2
    workers = Workers(seconds=0.3)
    assert workers.run("x", time.sleep, 0.45, answers=2) is None   # 0.45 s: within 2 x 0.3 s
    with pytest.raises(Unavailable, match="not answered within 0.3 s"):
        workers.run("x", time.sleep, 0.45)


def test_a_wait_for_a_workers_turn_ends_at_ctrl_c(tmp_path):
    workers = Workers(seconds=60, workers=1)
    busy = threading.Thread(target=lambda: _caught(workers, _wait_for, str(tmp_path / "never")))
    busy.start()
    while not workers.running:
        time.sleep(0.01)
    waiting: dict = {}
    queued = threading.Thread(target=lambda: waiting.update(err=_caught(workers, time.sleep, 0)))
    queued.start()
    time.sleep(0.3)
    stopped = time.monotonic()
    workers.stop()
    queued.join(10)
    busy.join(10)
    assert isinstance(waiting["err"], Unavailable) and "stopping" in str(waiting["err"])
    assert time.monotonic() - stopped < 2


def _caught(workers: Workers, fn, *args):
    try:
        workers.run("x", fn, *args)
    except Exception as err:  # noqa: BLE001 -- returned for the test to look at
        return err
    return None


def test_uploads_are_read_one_at_a_time(monkeypatch):
    reading, most = [0], [0]
    real = sources.game_position_from_yaml

    def counted(*args):
        reading[0] += 1
        most[0] = max(most[0], reading[0])
        time.sleep(0.1)
        try:
            return real(*args)
        finally:
            reading[0] -= 1

    monkeypatch.setattr(sources, "game_position_from_yaml", counted)
    book = SourceBook()
    book.kept.limit = 0
    statuses = []
    with TestClient(create_app(book)) as client:
        threads = [threading.Thread(target=lambda i=i: statuses.append(client.post(
            "/api/open", content=SCENARIO.read_bytes(), headers={"X-Filename": f"p{i}.yaml"}).status_code))
            for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    assert statuses == [200] * 4 and most[0] == sources.UPLOADS_AT_ONCE == 1


def test_an_upload_waiting_for_its_turn_is_refused_when_the_server_stops():
    book = SourceBook()
    book.upload_slots.acquire()   # another upload is being read
    book.workers.stop()
    with pytest.raises(Unavailable, match="p.yaml: not read"):
        book.upload(SCENARIO.read_bytes(), "p.yaml")
