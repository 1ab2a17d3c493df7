"""The store as a player meets it (issue 32): a page left open on a game whose server is killed (SIGKILL) and
started again on the same store carries on the same game (undo, redo, a new move); the saved games are listed
(title, game, turn, last played) and one reopens with a click."""
from __future__ import annotations

import signal

import pytest

from web_browser_support import free_port, hex_point, missing, open_page, select_unit, shot
from web_store_support import served, url_of

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))

J2 = "bundled:jerusalem-1948/scenario-ii.yaml"


def moved(page, unit: str, start: str) -> None:
    """``unit`` moved by clicks to its first destination 2 MP or more away."""
    to = page.evaluate("""async (unit) => {
      const s = toolkitPage.play.source;
      const a = await fetch(`/api/moves?source=${encodeURIComponent(s.id)}&unit=${unit}`).then((r) => r.json());
      return (a.destinations.find((d) => d.cost >= 2) || a.destinations[0]).hex;
    }""", unit)
    before = page.locator("#play-log li.log-move").count()
    select_unit(page, start, unit)
    page.mouse.click(*hex_point(page, to))
    page.wait_for_function("n => document.querySelectorAll('#play-log li.log-move').length === n", arg=before + 1)


def test_an_open_page_carries_on_its_game_after_the_server_is_killed(chromium, tmp_path):
    store, port = str(tmp_path / "games.sqlite"), free_port()
    server = served(store, port)
    try:
        base = url_of(server)
        page = open_page(chromium, f"{base}/?source={J2}")
        moved(page, "j-plm-1", "2817")
        moved(page, "j-hgh-3", "3520")
        game = page.evaluate("() => toolkitPage.play.source.saved.id")
        assert f"game={game}" in page.url
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        server = served(store, port)                   # the same store, the same address
        url_of(server)
        page.click("#undo")                            # the page left open goes on
        page.wait_for_function("() => document.querySelectorAll('#play-log li.log-move').length === 1")
        assert page.evaluate("() => toolkitPage.play.source.saved.id") == game
        page.click("#redo")
        page.wait_for_function("() => document.querySelectorAll('#play-log li.log-move').length === 2")
        moved(page, "j-ac-1", "2817")
        # A fresh page lists the game and reopens it where it stands.
        other = open_page(chromium, f"{base}/")
        other.click("#games-section summary")
        entry = other.locator(f'#games-list button[data-game="{game}"]')
        entry.wait_for()
        listed = entry.locator("xpath=..").text_content()
        assert listed.startswith("Jerusalem!: scenario-ii · jerusalem-1948 · turn May IV · step 3/3")
        entry.click()
        other.wait_for_function("() => document.querySelectorAll('#play-log li.log-move').length === 3")
        assert other.evaluate("() => toolkitPage.play.source.id") == page.evaluate("() => toolkitPage.play.source.id")
        assert not other.locator("#undo").is_disabled()
        other.click("#games-section summary")
        other.click("#games-section summary")
        shot(other, "store-saved-games")
        assert not page.errors and not other.errors
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(20)
