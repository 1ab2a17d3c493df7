"""Two seats at a game (issue 32, docs/web.md "Two players"): one secret token per side; a seat moves only its
side, in its side's phases, and is refused otherwise with the reason; without a token a game opened for two is
only watched; a server for other machines (--host) plays only from seats; each change reaches the other pages as a
server-sent event."""
from __future__ import annotations

import warnings
from urllib.parse import quote

import pytest

from toolkit.web import SourceBook, create_app
from web_browser_support import SCENARIO_II, api, serve
from web_store_support import event_stream, next_event

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

J2 = "bundled:jerusalem-1948/scenario-ii.yaml"


def ok(c, url, method="GET", **params):
    r = c.request(method, url, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def refused(c, url, method="GET", status=403, **params) -> str:
    r = c.request(method, url, params=params)
    assert r.status_code == status, r.text
    return r.json()["error"]


def seated(c) -> tuple[str, dict[str, str]]:
    """Scenario II opened for two players: the game id and each side's token."""
    opened = ok(c, "/api/seats", "POST", source=J2)
    assert set(opened["seats"]) == {"jewish", "arab"}
    for side, seat in opened["seats"].items():
        assert seat["link"] == f"/?game={opened['game']}&seat={seat['token']}" and len(seat["token"]) >= 22
    return opened["game"], {side: seat["token"] for side, seat in opened["seats"].items()}


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def test_each_seat_moves_its_own_side_in_its_own_phases(client):
    game, seats = seated(client)
    start = ok(client, "/api/game", game=game, seat=seats["jewish"])
    assert start["saved"]["seat"] == "jewish" and start["saved"]["seated"] and start["phasing_side"] == "jewish"
    # Not a seat, no seat, the wrong seat: refused, saying why.
    assert "not a seat of game" in refused(client, "/api/play", source=start["id"], step="turn:next", seat="guess")
    assert "only watches" in refused(client, "/api/play", source=start["id"], step="turn:next")
    error = refused(client, "/api/play", source=start["id"], step="turn:next", seat=seats["arab"])
    assert error.startswith("seat arab: turn May IV, Overland Movement Phase (step 1) is the jewish side's")
    # The Jewish seat plays its phases and hands over (turn:next twice: road, then the Arab overland phase).
    dest = ok(client, "/api/moves", source=start["id"], unit="j-plm-1")["destinations"][0]["hex"]
    moved = ok(client, "/api/play", source=start["id"], step=f"move:j-plm-1>{dest}", seat=seats["jewish"])
    handed = ok(client, "/api/play", source=moved["id"], step=["turn:next", "turn:next"], seat=seats["jewish"])
    assert handed["phasing_side"] == "arab"
    # Now the Jewish seat may not step, nor undo the Arab's; the Arab seat may not undo the Jewish steps.
    assert "is the arab side's" in refused(client, "/api/play", source=handed["id"], step="turn:next",
                                           seat=seats["jewish"])
    assert "undoing steps 3-3 is the jewish side's" in refused(client, "/api/history", "POST", game=game, at=2,
                                                                seat=seats["arab"])
    back = ok(client, "/api/history", "POST", game=game, at=2, seat=seats["jewish"])
    assert back["phasing_side"] == "jewish" and back["saved"]["cursor"] == 2
    # A seat may not make steps of the other side in one request either (the side of each step is checked).
    error = refused(client, "/api/play", source=back["id"], step=["turn:next", "turn:next"], seat=seats["jewish"])
    assert "step 4 (turn:next) is the arab side's" in error
    assert ok(client, "/api/game", game=game)["saved"]["cursor"] == 2        # nothing of it was written


def test_a_game_not_opened_for_two_is_played_without_a_token_on_this_machine(client):
    free = ok(client, "/api/play", source=J2, step="turn:next")
    assert not free["saved"]["seated"]
    assert ok(client, "/api/play", source=free["id"], step="turn:next")["phasing_side"] == "arab"


def test_a_server_for_other_machines_plays_only_from_seats():
    with TestClient(create_app(SourceBook(seats_only=True))) as c:
        assert "--host" in refused(c, "/api/play", source=J2, step="turn:next")
        assert "listed only by a server for this machine alone" in refused(c, "/api/games")
        game, seats = seated(c)                          # opening a position for two needs no token
        start = ok(c, "/api/game", game=game)
        assert "only watches" in refused(c, "/api/play", source=start["id"], step="turn:next")
        assert ok(c, "/api/play", source=start["id"], step="turn:next", seat=seats["jewish"])["phase"] == "road"
        assert "only its players" in refused(c, "/api/seats", "POST", source=start["id"])
        assert ok(c, "/api/seats", "POST", source=start["id"], seat=seats["arab"])["game"] == game


def test_the_other_seats_step_arrives_as_an_event():
    with serve(SCENARIO_II) as base:
        _, opened = api(base, f"/api/seats?source={quote(J2)}", data=b"")
        game = opened["game"]
        jewish = opened["seats"]["jewish"]["token"]
        conn, stream = event_stream(base, game)
        try:
            first = next_event(stream)                  # where the game stands, at once
            assert first["position"] == f"play:{game}/0" and first["at"] == 0
            _, made = api(base, f"/api/play?source={quote(first['position'])}&step=turn:next&seat={jewish}")
            event = next_event(stream)                  # the Jewish seat's step, as the Arab page hears it
            assert (event["position"], event["at"]) == (made["id"], 1) and event["version"] > first["version"]
            api(base, f"/api/history?game={game}&at=0&seat={jewish}", data=b"")
            assert next_event(stream)["position"] == f"play:{game}/0"
        finally:
            conn.close()
        status, missing = api(base, "/api/events?game=nope")
        assert status == 404 and "no such game" in missing["error"]


def test_serving_other_machines_warns_that_games_are_played_from_seats(capsys, monkeypatch):
    import uvicorn

    from toolkit.cli import main

    served = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: served.append(self.config.app))
    assert main(["serve", "--port", "0", "--host", "0.0.0.0"]) == 0
    err = capsys.readouterr().err
    assert "warning: serving on 0.0.0.0" in err and "played only from its seats' links" in err
    assert served[0].state.book.seats_only
    assert main(["serve", "--port", "0", "--host", "localhost"]) == 0
    assert "warning" not in capsys.readouterr().err and not served[1].state.book.seats_only
