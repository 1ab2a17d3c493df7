"""The page on a phone (issue 32): a 390 x 844 touch screen has no hover, so a first tap on a destination shows
what a hover shows (the path, the cost, a refusal's reason and rule) with "Tap again to move here", and the second
tap on it moves; the legend starts closed; the turn and phase stay in a bar of their own with the panel folded
away.  On a desktop (a mouse) a click still moves at once and the legend starts open.  The page's combat panel picks
the attacked hex of a Siege of Jerusalem Breach on a wall hex no unit defends (10.1).  Every answer shown is the
command line's; the late-answer tests hold the page's questions back (``Held``) until the player has asked newer
ones.  Screenshots go to ``dist/screenshots/``.
"""
from __future__ import annotations

import pytest

from test_web_api_breach import empty_wall  # noqa: F401 -- the fixture: CC20 empty, 4 damage on it
from test_web_browser_races import Held
from test_web_browser_siege_odds import DEMONSTRATION, add, shown, verdict
from web_browser_support import (SCENARIO_II, bring_into_view, cli_json, hex_point, missing, open_page, rule_text,
                                 serve, shot)

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}


@pytest.fixture(scope="module")
def moves() -> dict:
    """The CLI's moves of the Haganah unit j-hgh-3 in 3520, Scenario II."""
    return cli_json("moves", SCENARIO_II, "j-hgh-3")


def moves_made(page) -> int:
    return page.locator("#play-log li.log-move").count()


def tap(page, hex_name: str) -> None:
    page.touchscreen.tap(*hex_point(page, hex_name))


def tap_unit(page, hex_name: str, unit: str) -> None:
    """Tap the stack in ``hex_name`` and pick ``unit`` in its list."""
    tap(page, hex_name)
    page.locator(f'#stack-picker button[data-unit="{unit}"]').tap()


def shows(page, text: str) -> None:
    """Wait until the box of what a hover (or tap) shows says ``text``."""
    page.wait_for_function("t => document.querySelector('#hover-move').textContent === t", arg=text)


def said(destination: dict) -> str:
    """What hovering (or tapping) a destination says: its cost and cheapest path, as the CLI gives them."""
    return f"{destination['hex']}: {destination['cost']:g} MP via {' → '.join(destination['path'])}"


def phone_page(chromium, base: str):
    page = open_page(chromium, base + "/", **PHONE)
    page.evaluate("() => toolkitPage.view.focus('3820', 36)")   # 3520 and the hexes around it, 4119 too
    return page


def test_a_first_tap_shows_the_move_and_a_second_tap_makes_it(chromium, jerusalem, moves):
    page = phone_page(chromium, jerusalem)
    tap_unit(page, "3520", "j-hgh-3")
    page.wait_for_selector(".layer-moves .dest")
    to, other = [d for d in moves["destinations"] if len(d["path"]) == 3][:2]
    tap(page, to["hex"])                                   # the first tap: what a hover shows, no move
    shows(page, said(to) + "Tap again to move here")
    assert page.eval_on_selector_all(".layer-path .move-path", "els => els.length") == 1
    assert moves_made(page) == 0
    shot(page, "phone-first-tap")
    tap(page, other["hex"])                                # another destination: the choice changes
    page.wait_for_function("t => document.querySelector('#hover-move').textContent.startsWith(t)", arg=said(other))
    tap(page, to["hex"])                                   # back to the first: chosen again, still no move
    shows(page, said(to) + "Tap again to move here")
    assert moves_made(page) == 0
    refused = next(u for u in moves["unreachable"] if u["hex"] == "4119")
    tap(page, "4119")                                      # a refused hex: the reason and the rule
    shows(page, f"4119: unreachable — {refused['reason']} (rule {rule_text(refused['rule'], 'jerusalem-1948')})")
    assert page.evaluate("() => toolkitPage.moves.selected") == ["j-hgh-3"]   # the Arab garrison there: not yet
    tap(page, to["hex"])
    page.wait_for_selector("#hover-move .tap-again")
    assert moves_made(page) == 0
    tap(page, to["hex"])                                   # the second tap on the same destination moves
    page.wait_for_function("() => document.querySelectorAll('#play-log li.log-move').length === 1")
    page.wait_for_selector(".layer-moves .dest")           # the unit stays selected, what is left of its move shown
    assert page.locator("#hover-move .tap-again").count() == 0
    assert page.eval_on_selector_all("#play-log li.log-move", "els => els.map(e => e.textContent)") == [
        f"j-hgh-3 3520 → {to['hex']} ({to['cost']:g} MP)"]
    assert not page.errors


def test_a_late_answer_for_a_newer_selection_leaves_no_chosen_destination(chromium, jerusalem, moves):
    page = phone_page(chromium, jerusalem)
    tap_unit(page, "3520", "j-hgh-3")
    page.wait_for_selector(".layer-moves .dest")
    to = next(d for d in moves["destinations"] if len(d["path"]) == 3)
    tap(page, to["hex"])
    page.wait_for_selector("#hover-move .tap-again")
    car = Held(page, "**/api/moves?*", "unit=j-hac-2")
    tap_unit(page, "3520", "j-hac-2")                      # another unit, its moves answered late
    car.wait()
    tap(page, to["hex"])                                   # the hex chosen for the other unit: no move now
    tap(page, to["hex"])
    page.wait_for_timeout(300)
    assert moves_made(page) == 0 and page.locator("#hover-move .tap-again").count() == 0
    car.release()
    page.wait_for_selector(".layer-moves .dest")
    assert page.evaluate("() => toolkitPage.moves.selected") == ["j-hac-2"] and moves_made(page) == 0
    assert not page.errors


def test_a_phone_keeps_the_turn_and_phase_in_a_bar_and_the_legend_closed(chromium, jerusalem, moves):
    page = phone_page(chromium, jerusalem)
    source = page.evaluate("() => toolkitPage.play.source")
    phase = source["phase_names"][source["phase"]]
    bar = page.locator("#standing-bar")
    assert bar.is_visible() and page.locator("#panel").bounding_box()["y"] >= 800   # the panel folded away
    assert bar.text_content() == f"Turn {source['turn']} · {phase} ({source['phasing_side']})"
    assert bar.bounding_box()["height"] <= 24
    tap_unit(page, "3520", "j-hgh-3")
    page.wait_for_selector(".layer-moves .dest")
    legend = page.locator("#legend")
    assert legend.is_visible() and legend.evaluate("d => d.open") is False
    area = page.locator("#map-area").bounding_box()
    closed = legend.bounding_box()
    assert closed["width"] * closed["height"] < 0.02 * area["width"] * area["height"]
    tap(page, next(d["hex"] for d in moves["destinations"] if len(d["path"]) == 3))
    page.wait_for_selector("#hover-move .tap-again")
    shot(page, "phone-bar-legend-closed")
    page.locator("#legend summary").tap()                  # opened, it stays in a corner of the map
    opened = legend.bounding_box()
    assert legend.evaluate("d => d.open") and opened["height"] <= 0.4 * area["height"] + 1
    assert opened["width"] * opened["height"] < 0.2 * area["width"] * area["height"]
    shot(page, "phone-legend-open")
    page.tap("#panel-toggle")                              # the next phase, from the panel: the bar follows
    page.tap("#next-phase")
    page.wait_for_function("s => document.querySelector('#standing-bar').textContent !== s", arg=bar.text_content())
    after = page.evaluate("() => toolkitPage.play.source")
    assert bar.text_content() == (f"Turn {after['turn']} · {after['phase_names'][after['phase']]} "
                                  f"({after['phasing_side']})")
    assert not page.errors


def test_a_mouse_click_still_moves_at_once_and_the_legend_starts_open(chromium, jerusalem, moves):
    page = open_page(chromium, jerusalem + "/")
    assert page.locator("#standing-bar").is_hidden()       # the turn and phase are in the title bar
    bring_into_view(page, "3520")
    page.mouse.click(*hex_point(page, "3520"))
    page.locator('#stack-picker button[data-unit="j-hgh-3"]').click()
    page.wait_for_selector(".layer-moves .dest")
    assert page.locator("#legend").evaluate("d => d.open") is True
    to = next(d for d in moves["destinations"] if len(d["path"]) == 3)
    page.mouse.move(*hex_point(page, to["hex"]))
    shows(page, said(to))
    shot(page, "desktop-hover")
    page.mouse.click(*hex_point(page, to["hex"]))
    page.wait_for_function("() => document.querySelectorAll('#play-log li.log-move').length === 1")
    assert page.locator("#hover-move .tap-again").count() == 0
    assert not page.errors


def pick_target(page, hex_name: str) -> None:
    page.click("#combat-target-pick")
    bring_into_view(page, hex_name)
    page.mouse.click(*hex_point(page, hex_name))


def test_a_breach_on_an_empty_wall_hex_picked_on_the_map_is_the_clis(chromium, empty_wall):
    with serve(DEMONSTRATION) as base:
        page = open_page(chromium, base + "/")
        page.set_input_files("#file-input", str(empty_wall))
        page.wait_for_selector('body[data-ready^="upload:"]')
        page.select_option("#combat-kind", "breach")
        add(page, "attack", "CC19", "r-x-ram")
        late = Held(page, "**/api/odds?*", "target=CC20")
        pick_target(page, "CC20")                          # its odds held back ...
        late.wait()
        pick_target(page, "DD19")                          # ... while the player picks another hex
        page.wait_for_selector("#combat-result .odds-verdict")
        late.release()
        page.wait_for_timeout(500)                         # the late CC20 answer came, and was dropped
        facing = cli_json("odds", str(empty_wall), "--attack", "r-x-ram", "--target", "DD19", "--kind", "breach")
        assert page.text_content("#combat-result .odds-verdict") == (
            f"Not allowed ({rule_text('10.11', 'siege-of-jerusalem')}): {facing['refused']['reason']}")
        page.unroute("**/api/odds?*")
        pick_target(page, "CC20")
        assert page.input_value("#combat-target") == "CC20"
        assert page.locator('.layer-target .target-hex[data-hex="CC20"]').count() == 1
        odds = cli_json("odds", str(empty_wall), "--attack", "r-x-ram", "--target", "CC20", "--kind", "breach")
        line, rows = shown(page)
        assert line == verdict(odds) == "1 AF on the north_wall row: column 1 (chance 17%)"
        assert rows == [[str(r["die"]), str(r["final"]), r["result"], str(r["total_damage"]),
                         "yes" if r["breach"] else "no"] for r in odds["results"]]
        assert page.text_content("#combat-defend") == "none"
        page.locator("#combat-result .die-results").scroll_into_view_if_needed()
        shot(page, "siege-breach-empty-wall")
        assert not page.errors
