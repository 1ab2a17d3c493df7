"""The Siege of Jerusalem's Missile and Breach odds in the page (issue 32: they read "odds null"): the table's row
and column, the chance and each die's result, as ``toolkit odds --kind missile|breach`` gives them for the same
units.  Screenshots go to ``dist/screenshots/``.
"""
from __future__ import annotations

import pytest

from web_browser_support import bring_into_view, cli_json, hex_point, missing, open_page, serve, shot

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))

DEMONSTRATION = "modules/siege-of-jerusalem/scenarios/demonstration.yaml"


@pytest.fixture(scope="module")
def siege():
    with serve(DEMONSTRATION) as base:
        yield base


def add(page, side: str, hex_name: str, unit: str | None) -> None:
    """Click ``hex_name``, pick ``unit`` of its stack (None: the whole stack) and add it to ``side``."""
    bring_into_view(page, hex_name)
    page.mouse.click(*hex_point(page, hex_name))
    picker = page.locator("#stack-picker button")
    if picker.count():
        (picker.last if unit is None else page.locator(f'#stack-picker button[data-unit="{unit}"]')).click()
    page.click(f"#add-{side}")


def shown(page) -> tuple[str, list[list[str]]]:
    """The verdict line and the die table's rows (under its heading)."""
    page.wait_for_selector("#combat-result .die-results")
    rows = page.eval_on_selector_all("#combat-result .die-results tr", "trs => trs.slice(1).map("
                                     "tr => [...tr.children].map(td => td.textContent))")
    return page.text_content("#combat-result .odds-verdict"), rows


def verdict(odds: dict) -> str:
    """The CLI's first line for a row-and-column attack (toolkit/cli/positions.py), with the chance."""
    return f"{odds['attack']:g} AF on the {odds['row']} row: column {odds['column']} " \
           f"(chance {round(odds['probability'] * 100)}%)"


def test_missile_fire_shows_the_row_column_and_each_dies_result(chromium, siege):
    page = open_page(chromium, siege + "/")
    page.select_option("#combat-kind", "missile")
    add(page, "attack", "CC17", "r-x-ballista")
    add(page, "attack", "DD16", "r-x-onager")
    add(page, "defend", "DD19", None)
    defenders = page.eval_on_selector_all("#combat-defend .chip", "els => els.map(e => e.textContent)")
    odds = cli_json("odds", DEMONSTRATION, "--attack", "r-x-ballista", "r-x-onager", "--defend", *defenders,
                    "--kind", "missile")
    line, rows = shown(page)
    assert line == verdict(odds) == "7 AF on the fort row: column 2 (chance 17%)"
    assert rows == [[str(r["die"]), str(r["final"]), r["result"] + (" (erratic shot, 9.31)" if r["erratic"] else "")]
                    for r in odds["results"]]
    assert "null" not in page.text_content("#combat-result")
    assert "erratic shot (9.31)" in page.text_content("#combat-result")
    page.locator("#combat-result .die-results").scroll_into_view_if_needed()
    shot(page, "siege-missile-odds")
    assert not page.errors


def test_a_breach_attack_shows_the_wall_row_and_the_damage_each_die_does(chromium, siege):
    page = open_page(chromium, siege + "/")
    page.select_option("#combat-kind", "breach")
    add(page, "attack", "CC19", "r-x-ram")
    add(page, "defend", "CC20", "j-y-regulars-5-7-1")
    odds = cli_json("odds", DEMONSTRATION, "--attack", "r-x-ram", "--defend", "j-y-regulars-5-7-1",
                    "--kind", "breach")
    line, rows = shown(page)
    assert line == verdict(odds) == "1 AF on the north_wall row: column 1 (chance 0%)"
    assert rows == [[str(r["die"]), str(r["final"]), r["result"], str(r["total_damage"]),
                     "yes" if r["breach"] else "no"] for r in odds["results"]]
    page.locator("#combat-result .die-results").scroll_into_view_if_needed()
    shot(page, "siege-breach-odds")
    assert not page.errors
