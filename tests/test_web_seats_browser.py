"""Two players at one game in two browsers (issue 32): Scenario II opened for two from the page (*Two players*),
each side's link opened in a Chromium context of its own; each plays its side and sees the other's steps arrive
(server-sent events), and a step out of turn is refused with the reason.  Screenshots of both seats go to
``dist/screenshots/``."""
from __future__ import annotations

import pytest

from web_browser_support import hex_point, missing, open_page, select_unit, shot

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))


def log_count(page) -> int:
    return page.locator("#play-log li.log-move, #play-log li.log-phase").count()


def wait_log(page, count: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('#play-log li.log-move, #play-log li.log-phase')"
                           ".length === n", arg=count, timeout=20_000)


def movable(page, side: str) -> tuple[str, str, str]:
    """A unit of ``side`` on the map with a legal move in the position the page shows: its id, hex and the
    destination 2 MP or more away (or its first)."""
    return tuple(page.evaluate("""async (side) => {
      const s = toolkitPage.play.source;
      for (const u of s.units.filter((u) => u.side === side && u.hex)) {
        const a = await fetch(`/api/moves?source=${encodeURIComponent(s.id)}&unit=${encodeURIComponent(u.id)}`)
          .then((r) => r.json());
        if (!a.refused && a.destinations.length) {
          const d = a.destinations.find((d) => d.cost >= 2) || a.destinations[0];
          return [u.id, u.hex, d.hex];
        }
      }
      return null;
    }""", side))


def move(page, side: str) -> str:
    """A move of ``side`` made by clicks (the unit, then its destination): the log line it adds."""
    unit, start, to = movable(page, side)
    before = page.locator("#play-log li.log-move").count()
    select_unit(page, start, unit)
    page.mouse.click(*hex_point(page, to))
    page.wait_for_function("n => document.querySelectorAll('#play-log li.log-move').length === n", arg=before + 1)
    return page.locator("#play-log li.log-move").last.text_content()


def test_two_players_in_two_browsers_see_each_others_steps(chromium, jerusalem):
    host = open_page(chromium, jerusalem + "/")
    host.click("#two-players")
    host.wait_for_selector('#seat-links a[data-side="arab"]')
    links = {side: host.get_attribute(f'#seat-links a[data-side="{side}"]', "href") for side in ("jewish", "arab")}
    assert all("seat=" in link and "game=" in link for link in links.values())
    jewish = open_page(chromium, jerusalem + links["jewish"])
    arab = open_page(chromium, jerusalem + links["arab"])
    assert jewish.text_content("#seat-line") == "You play jewish · your move"
    assert arab.text_content("#seat-line") == "You play arab · the jewish player's move"
    # The Jewish player moves: the Arab page shows the move without being asked.
    line = move(jewish, "jewish")
    wait_log(arab, 1)
    assert arab.locator("#play-log li.log-move").last.text_content() == line
    # Out of turn: the Arab player's Next phase is refused, saying whose phase it is.
    arab.click("#next-phase")
    arab.wait_for_selector("#error:not([hidden])")
    refusal = arab.text_content("#error-text")
    assert refusal.startswith("seat arab:") and "is the jewish side's" in refusal
    arab.click("#error-close")
    # The Jewish player ends the road phase too: the Arab overland phase, and the Arab page says it is its move.
    jewish.click("#next-phase")
    wait_log(jewish, 2)
    jewish.click("#next-phase")
    wait_log(arab, 3)
    arab.wait_for_function("() => document.getElementById('seat-line').textContent === 'You play arab · your move'")
    assert arab.text_content("#standing") == "Turn May IV · Overland Movement Phase (arab)"
    line = move(arab, "arab")
    wait_log(jewish, 4)
    assert jewish.locator("#play-log li.log-move").last.text_content() == line
    assert jewish.text_content("#seat-line") == "You play jewish · the arab player's move"
    shot(jewish, "seats-jewish")
    shot(arab, "seats-arab")
    # Both pages show the same counters, and the host's page (no seat) watches.
    assert jewish.evaluate("() => toolkitPage.play.source.id") == arab.evaluate("() => toolkitPage.play.source.id")
    for page in (jewish, arab, host):
        assert not page.errors
