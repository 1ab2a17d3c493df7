"""The viewer under one heavy answer (issue 20): heavy answers run in worker processes with no lock held, so the
other requests are answered meanwhile; a time limit per answer, a limit on units per position, and Ctrl-C
stopping the workers at once.  (Speed itself is measured in scripts/bench.py, row "web: other requests while a
heavy answer runs".)"""
from __future__ import annotations

import os
import threading
import time
import warnings

import pytest

from test_hostile_support import SCENARIO
from toolkit.web import SourceBook, create_app, sources
from toolkit.web import app as web_app
from toolkit.web.server import _Server
from toolkit.web.workers import Unavailable, Workers

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

J2 = "bundled:jerusalem-1948/scenario-ii.yaml"


def _wait_for(path: str) -> None:
    """A worker's stand-in for a long answer: it ends when ``path`` exists (at most a minute)."""
    for _ in range(6000):
        if os.path.exists(path):
            return
        time.sleep(0.01)


def test_other_requests_are_answered_while_a_heavy_answer_runs(tmp_path, monkeypatch):
    flag = str(tmp_path / "go")
    monkeypatch.setattr(web_app, "reach_answer", lambda position, side: _wait_for(flag) or {"side": side})
    book = SourceBook()
    with TestClient(create_app(book)) as client:
        answers = {}
        heavy = threading.Thread(target=lambda: answers.update(reach=client.get(
            "/api/reach", params={"source": J2, "side": "jewish"})))
        heavy.start()
        while not book.workers.running and heavy.is_alive():
            time.sleep(0.01)
        assert book.workers.running                       # the answer is being computed in a worker ...
        assert client.get("/api/sources").status_code == 200
        assert client.get("/api/source", params={"source": J2}).status_code == 200
        assert heavy.is_alive() and "reach" not in answers   # ... and the others were answered meanwhile
        open(flag, "w").close()
        heavy.join(60)
        for prepare in [t for t in threading.enumerate() if t.name.startswith("prepare ")]:
            prepare.join(60)                              # the clicks answered ahead (app.prepare_clicks)
    assert answers["reach"].status_code == 200 and answers["reach"].json() == {"side": "jewish"}
    assert not book.workers.running


def test_an_answer_over_the_time_limit_is_503_and_its_worker_killed(tmp_path):
    workers = Workers(seconds=0.2)
    with pytest.raises(Unavailable, match="not answered within 0.2 s"):
        workers.run("/api/reach", _wait_for, str(tmp_path / "never"))
    assert not workers.running


def test_refusals_and_bugs_in_a_worker_keep_their_kind():
    workers = Workers()
    with pytest.raises(ValueError, match="no such side") as err:
        workers.run("x", _refuse)
    assert err.value.status == 400
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        workers.run("x", lambda: 1 / 0)


def _refuse():
    raise ValueError("no such side")


def test_ctrl_c_stops_the_workers_first(tmp_path):
    import uvicorn

    book = SourceBook()
    done = {}
    thread = threading.Thread(target=lambda: done.update(err=_caught(book.workers, str(tmp_path / "never"))))
    thread.start()
    while not book.workers.running:
        time.sleep(0.01)
    _Server(uvicorn.Config(create_app(book))).handle_exit(2, None)
    thread.join(60)
    assert isinstance(done["err"], Unavailable) and "stopping" in str(done["err"])
    with pytest.raises(Unavailable, match="stopping"):
        book.workers.run("x", _refuse)


def _caught(workers: Workers, path: str):
    try:
        workers.run("x", _wait_for, path)
    except Exception as err:  # noqa: BLE001 -- returned for the test to look at
        return err
    return None


def test_a_position_over_the_unit_limit_is_refused(monkeypatch):
    monkeypatch.setattr(sources, "MAX_POSITION_UNITS", 10)
    with TestClient(create_app()) as client:
        r = client.post("/api/open", content=SCENARIO.read_bytes(), headers={"X-Filename": "big.yaml"})
    assert r.status_code == 413 and "over the viewer's limit of 10 units" in r.json()["error"]
