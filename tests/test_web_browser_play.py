"""The page as the table (issue 24): a game played for a few moves with the mouse, a quick second click, the
phase picker, combat odds, a line of sight that travels (permalink, a ruling file opened offline) and a phone.

Every answer the page shows is compared with the command line's ``--json`` for the same question (the played
position exported from the page and given to the CLI).  Screenshots go to ``dist/screenshots/``.
"""
from __future__ import annotations

import pytest
import yaml

from web_browser_support import (NO_PRISONERS, SCENARIO_II, attack, bring_into_view, cli_json, hex_point,
                                 missing, open_page, select_unit, serve, shot)

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
# The armoured car's moves answered late: the page's fetch of them held back 1.5 s.
SLOW_CAR = """(() => {
  const fetch0 = window.fetch;
  window.fetch = (url, opts) => String(url).includes("unit=j-ac-1")
    ? new Promise((ok) => setTimeout(ok, 1500)).then(() => fetch0(url, opts)) : fetch0(url, opts);
})();"""


def shaded(page) -> list[tuple[str, float]]:
    return sorted(map(tuple, page.eval_on_selector_all(".layer-moves .dest", "els => els.map(e => "
                                                                              "[e.dataset.hex, +e.dataset.cost])")))


def expected(moves: dict) -> list[tuple[str, float]]:
    return sorted((d["hex"], d["cost"]) for d in moves["destinations"])


def stack_units(page, hex_name: str) -> list[str]:
    found = page.locator(f'.layer-counters .stack[data-hex="{hex_name}"]')
    return found.get_attribute("data-units").split() if found.count() else []


def pick(page, hex_name: str, unit: str) -> None:
    page.mouse.click(*hex_point(page, hex_name))
    page.locator(f'#stack-picker button[data-unit="{unit}"]').click()


def test_a_quick_second_click_shows_the_second_units_moves(chromium, jerusalem):
    page = open_page(chromium, jerusalem + "/")
    page.add_init_script(SLOW_CAR)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    bring_into_view(page, "3118")
    pick(page, "2817", "j-ac-1")       # its answer comes 1.5 s late ...
    pick(page, "3520", "j-hgh-3")      # ... after this one's
    page.wait_for_selector(".layer-moves .dest")
    page.wait_for_timeout(2000)        # the armoured car's answer has come meanwhile, and is dropped
    assert shaded(page) == expected(cli_json("moves", SCENARIO_II, "j-hgh-3"))
    assert "j-hgh-3" in page.text_content("#moves-summary")
    shot(page, "play-quick-second-click")
    assert not page.errors


def move_by_click(page, unit: str, start: str, to: str) -> None:
    select_unit(page, start, unit)
    page.mouse.click(*hex_point(page, to))
    page.wait_for_function("n => document.querySelectorAll('#play-log li.log-move').length >= n",
                           arg=page.locator("#play-log li.log-move").count() + 1)


def test_a_game_played_for_a_few_moves_undone_redone_exported_and_opened_again(chromium, jerusalem, tmp_path):
    page = open_page(chromium, jerusalem + "/")
    assert page.text_content("#standing") == "Turn May IV · Overland Movement Phase (jewish)"
    first = cli_json("moves", SCENARIO_II, "j-plm-1")
    to1 = next(d for d in first["destinations"] if d["cost"] >= 2)["hex"]
    move_by_click(page, "j-plm-1", "2817", to1)
    assert "j-plm-1" in stack_units(page, to1)
    cost = next(d["cost"] for d in first["destinations"] if d["hex"] == to1)
    assert page.text_content("#play-log li:nth-child(1)") == f"j-plm-1 2817 → {to1} ({cost:g} MP)"
    # A second move, by dragging the counter: the top unit of Saris's stack.
    saris_top = stack_units(page, "3520")[-1]
    second = page.evaluate("id => fetch(`/api/moves?source=${encodeURIComponent(toolkitPage.play.source.id)}"
                           "&unit=${id}`).then(r => r.json())", saris_top)
    to2 = next(d for d in second["destinations"] if d["cost"] >= 1)["hex"]
    bring_into_view(page, "3520")
    page.mouse.move(*hex_point(page, "3520"))
    page.mouse.down()
    page.mouse.move(*hex_point(page, to2), steps=8)
    page.wait_for_selector(".layer-moves .dest")
    page.mouse.move(*hex_point(page, to2), steps=2)
    page.mouse.up()
    page.wait_for_function("() => document.querySelectorAll('#play-log li.log-move').length === 2")
    assert saris_top in stack_units(page, to2)
    # Check, recomputed for the new position, is the CLI's check of the exported position file.
    with page.expect_download() as download:
        page.click("#export-yaml")
    exported = tmp_path / "played.yaml"
    download.value.save_as(exported)
    played = yaml.safe_load(exported.read_text())
    assert {u["id"]: u.get("hex") for u in played["units"]}["j-plm-1"] == to1
    page.wait_for_selector("#check-result p, #check-result .violation")
    check = cli_json("check", str(exported))
    listed = page.eval_on_selector_all("#check-result .violation", "els => els.map(e => e.textContent)")
    assert listed == [f"{v['rule']}: {v['message']}" for v in check["violations"]]
    shot(page, "play-two-moves")
    # Undo puts the stack back and keeps one move in the log; redo makes it again.
    page.click("#undo")
    page.wait_for_function("() => document.querySelectorAll('#play-log li.log-move').length === 1")
    assert saris_top in stack_units(page, "3520")
    page.click("#redo")
    page.wait_for_function("() => document.querySelectorAll('#play-log li.log-move').length === 2")
    assert saris_top in stack_units(page, to2)
    # The exported position opened again shows the same counters.
    page.set_input_files("#file-input", str(exported))
    page.wait_for_selector('body[data-ready^="upload:"]')
    assert "j-plm-1" in stack_units(page, to1) and saris_top in stack_units(page, to2)
    with page.expect_download() as save:
        page.click("#export-vsav")
    assert save.value.suggested_filename.endswith(".vsav")
    assert not page.errors


def test_a_line_of_sight_permalink_carries_the_position_and_the_rule(chromium, jerusalem, tmp_path):
    page = open_page(chromium, jerusalem + "/")
    first = cli_json("moves", SCENARIO_II, "j-plm-1")
    to1 = next(d for d in first["destinations"] if d["cost"] >= 2)["hex"]
    move_by_click(page, "j-plm-1", "2817", to1)
    page.fill("#los-from", to1)
    page.fill("#los-to", "Latrun")
    page.check("#los-rules")
    page.click("#los-form button[type=submit]")
    page.wait_for_selector("#los-verdict .verdict")
    verdict = page.text_content("#los-verdict .verdict"), page.text_content("#los-verdict .los-rule")
    link = page.get_attribute("#los-permalink", "href")
    assert "source=play%3A" in link and "rules=1" in link   # the saved game's position, by its id (issue 32)
    other = open_page(chromium, jerusalem + link)
    other.wait_for_selector("#los-verdict .verdict")
    assert (other.text_content("#los-verdict .verdict"), other.text_content("#los-verdict .los-rule")) == verdict
    assert "j-plm-1" in stack_units(other, to1)
    shot(other, "play-los-permalink")
    # The ruling: one SVG file, opened with the network off, says the verdict and its rule.
    with page.expect_download() as download:
        page.click("#los-ruling")
    ruling = tmp_path / "ruling.svg"
    download.value.save_as(ruling)
    offline = chromium.new_context(viewport={"width": 1100, "height": 800}, offline=True).new_page()
    offline.goto(ruling.as_uri())
    text = offline.text_content("svg")
    assert verdict[0].split(": ")[-1] in text and verdict[1].split(",")[0] in text
    shot(offline, "play-ruling-offline")
    assert not page.errors and not other.errors


def test_no_prisoners_says_which_phase_to_pick_and_the_header_follows(chromium):
    with serve(NO_PRISONERS) as base:
        page = open_page(chromium, base + "/")
        notice = page.locator("#phase-notice")
        assert notice.is_visible() and "Pick a movement phase" in notice.text_content()
        notice.locator('button[data-phase="west_allied_movement"]').click()
        page.wait_for_function("() => document.querySelector('#standing').textContent.includes('Movement')"
                               " || document.querySelector('#standing').textContent.includes('movement')")
        assert page.locator("#phase-select").input_value() == "west_allied_movement"
        assert notice.is_hidden()
        assert "1916-II" in page.text_content("#source-title")
        shot(page, "play-no-prisoners-phase")
        assert not page.errors


def test_next_phase_asks_which_overstacked_unit_goes_9_2_c(chromium):
    """No Prisoners 9.2 C on the page: a fourth Allied unit put in the town 0409 (limit 3, free placement), then
    Next phase: the notice asks which unit goes, a button each; the pick is made and logged, the phase entered."""
    with serve(NO_PRISONERS) as base:
        page = open_page(chromium, base + "/")
        page.evaluate("() => toolkitPage.play.step('place:a-29-ind-bde>0409')")
        page.wait_for_function("() => document.querySelectorAll('#play-log li.log-place').length === 1")
        page.click("#next-phase")
        notice = page.locator("#phase-notice")
        page.wait_for_selector("#phase-notice button[data-choice]")
        assert notice.text_content().startswith("9.2 C: allied eliminates a unit over the limit of 3 in 0409")
        assert notice.locator("button").all_text_contents() == ["a-29-ind-bde", "a-anzac-mtd-div", "a-hq-murray",
                                                                 "a-yeo-mtd-div"]
        assert page.locator("#error").is_hidden()                   # a question, not an error
        shot(page, "play-no-prisoners-9-2-c")
        notice.locator('button[data-choice="2"]').click()
        page.wait_for_function("() => document.querySelectorAll('#play-log li.log-phase').length === 1")
        said = page.text_content("#play-log li.log-phase")
        assert said.startswith("turn 1916-II: ") and "a-hq-murray eliminated (9.2 C)" in said
        units = {u["id"]: u for u in page.evaluate("() => toolkitPage.play.source.units")}
        assert units["a-hq-murray"]["hex"] is None and units["a-29-ind-bde"]["hex"] == "0409"
        assert not page.errors


def test_combat_odds_from_the_page_are_the_cli_odds(chromium, jerusalem):
    page = open_page(chromium, jerusalem + "/")
    attack(page, "2817", "j-plm-1", "1914")
    defenders = page.eval_on_selector_all("#combat-defend .chip", "els => els.map(e => e.textContent)")
    odds = cli_json("odds", SCENARIO_II, "--attack", "j-plm-1", "--defend", *defenders)
    shown = page.text_content("#combat-result")
    assert (odds["refused"]["reason"] if odds["refused"] else odds["odds"]) in shown
    shot(page, "play-combat")
    assert not page.errors


def test_a_phone_shows_the_map_and_a_tap_selects(chromium, jerusalem):
    page = open_page(chromium, jerusalem + "/", **PHONE)
    box = page.locator("#map").bounding_box()
    assert box["width"] >= 380 and box["height"] >= 700
    assert page.locator("#panel").bounding_box()["y"] >= 800   # folded away below the map
    zoom = page.locator("#zoom-in").bounding_box()
    assert zoom["x"] < 100 and zoom["y"] < 120
    page.evaluate("() => toolkitPage.view.focus('3520', 60)")
    page.touchscreen.tap(*hex_point(page, "3520"))
    page.locator('#stack-picker button[data-unit="j-hgh-3"]').tap()
    page.wait_for_selector(".layer-moves .dest")
    moves = cli_json("moves", SCENARIO_II, "j-hgh-3")
    assert shaded(page) == expected(moves)
    shot(page, "phone-map")
    # Played by taps: the Haganah unit to a destination two hexes on, then the armoured car it came with.
    to = next(d["hex"] for d in moves["destinations"] if len(d["path"]) == 3)
    for _ in range(2):                                # a first tap shows the move, the second makes it
        page.touchscreen.tap(*hex_point(page, to))
    page.wait_for_function("() => document.querySelectorAll('#play-log li.log-move').length === 1")
    assert "j-hgh-3" in stack_units(page, to)
    page.locator("#deselect").tap()                   # it stays selected, and 3520 may be one of its destinations
    assert page.locator(".layer-moves .dest").count() == 0 and page.locator("#deselect").is_hidden()
    page.touchscreen.tap(*hex_point(page, "3520"))
    page.locator('#stack-picker button[data-unit="j-hac-2"]').tap()
    page.wait_for_selector(".layer-moves .dest")
    car = page.evaluate("() => fetch(`/api/moves?source=${encodeURIComponent(toolkitPage.play.source.id)}"
                        "&unit=j-hac-2`).then(r => r.json())")
    to_car = next(d["hex"] for d in car["destinations"] if len(d["path"]) == 2 and d["hex"] != to)
    for _ in range(2):
        page.touchscreen.tap(*hex_point(page, to_car))
    page.wait_for_function("() => document.querySelectorAll('#play-log li.log-move').length === 2")
    assert "j-hac-2" in stack_units(page, to_car)
    shot(page, "phone-two-moves")
    page.tap("#panel-toggle")
    page.wait_for_timeout(400)
    assert page.locator("#standing").is_visible()
    assert page.eval_on_selector_all("#play-log li.log-move", "els => els.map(e => e.textContent)") == [
        f"j-hgh-3 3520 → {to} ({next(d['cost'] for d in moves['destinations'] if d['hex'] == to):g} MP)",
        f"j-hac-2 3520 → {to_car} ({next(d['cost'] for d in car['destinations'] if d['hex'] == to_car):g} MP)"]
    page.tap("#undo")
    page.wait_for_function("() => document.querySelectorAll('#play-log li.log-move').length === 1")
    shot(page, "phone-panel")
    assert not page.errors


def _touch(cdp, kind: str, points: list[tuple[float, float]]) -> None:
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
        {"x": x, "y": y, "id": k, "radiusX": 4, "radiusY": 4, "force": 1} for k, (x, y) in enumerate(points)]})


def test_a_phone_pinch_zooms_about_the_fingers_and_moves_nothing(chromium, jerusalem):
    page = open_page(chromium, jerusalem + "/", **PHONE)
    page.evaluate("() => toolkitPage.view.focus('3520', 30)")
    x, y = hex_point(page, "3520")
    before = page.evaluate("() => toolkitPage.view.hexPixels()")
    cdp = page.context.new_cdp_session(page)
    spread = [(x - 40, y), (x + 40, y)]
    _touch(cdp, "touchStart", spread)
    for step in range(1, 9):   # the fingers move apart: 80 px to 160 px
        _touch(cdp, "touchMove", [(x - 40 - 5 * step, y), (x + 40 + 5 * step, y)])
    _touch(cdp, "touchEnd", [])
    after = page.evaluate("() => toolkitPage.view.hexPixels()")
    assert after / before == pytest.approx(2, rel=0.05)                 # the spread doubled: hexes twice as wide
    assert hex_point(page, "3520") == pytest.approx((x, y), abs=2)      # the hex between the fingers stays there
    assert page.evaluate("() => toolkitPage.play.source.steps.length") == 0   # a pinch is no move
    shot(page, "phone-pinch")
    assert not page.errors
