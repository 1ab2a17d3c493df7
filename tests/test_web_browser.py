"""The page of ``toolkit serve`` used the way players use it: the real server, Debian's Chromium, the mouse.

Every answer the page shows is compared with the command line's ``--json`` for the same question.  A screenshot
of each test is saved in ``dist/screenshots/`` (path printed; ``pytest -s`` shows it).  The tier skips with the
reason when Playwright or Chromium is missing (``.ci/run`` installs both).
"""
from __future__ import annotations

import re
import subprocess
import sys

import pytest
import yaml

from web_browser_support import (NO_PRISONERS, ROOT, SCENARIO_II, api, bring_into_view, check_shown, checked,
                                 cli_json, first_paint, hex_point, missing, open_page, rule_text,
                                 select_unit, serve, shot, units_moved)

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))

JERUSALEM = "jerusalem-1948"


@pytest.fixture(scope="module")
def no_prisoners():
    with serve(NO_PRISONERS) as base:
        yield base


def test_clicking_a_unit_shades_the_destinations_of_toolkit_moves(chromium, jerusalem):
    expected = cli_json("moves", SCENARIO_II, "j-plm-1")
    page = open_page(chromium, jerusalem + "/")
    select_unit(page, "2817", "j-plm-1")
    shaded = page.eval_on_selector_all(".layer-moves .dest", "els => els.map(e => [e.dataset.hex, +e.dataset.cost, "
                                                            "e.classList.contains('stop')])")
    assert sorted(map(tuple, shaded)) == sorted((d["hex"], d["cost"], d["stop"]) for d in expected["destinations"])
    # Each cost is written in its hex; hovering a destination draws its cheapest path.
    assert page.locator(".layer-moves .cost").count() == len(expected["destinations"])
    far = max(expected["destinations"], key=lambda d: (len(d["path"]), d["hex"]))
    page.mouse.move(*hex_point(page, far["hex"]))
    page.wait_for_selector(".move-path")
    points = page.get_attribute(".move-path", "points").split()
    assert len(points) == len(far["path"])
    assert " → ".join(far["path"]) in page.text_content("#hover-move")
    shot(page, "moves")
    assert not page.errors


def test_hovering_an_unreachable_hex_says_why_with_the_rule_and_esc_clears(chromium, jerusalem):
    expected = cli_json("moves", SCENARIO_II, "j-plm-1")
    refused = next(u for u in expected["unreachable"] if re.match(r"\d", u["rule"]))
    page = open_page(chromium, jerusalem + "/")
    select_unit(page, "2817", "j-plm-1")
    bring_into_view(page, refused["hex"])
    page.mouse.move(*hex_point(page, refused["hex"]))
    page.wait_for_function("() => document.querySelector('#hover-move').dataset.reason")
    box = page.locator("#hover-move")
    assert box.get_attribute("data-reason") == refused["reason"]
    assert box.get_attribute("data-rule") == refused["rule"]
    assert f"(rule {rule_text(refused['rule'], JERUSALEM)})" in box.text_content()
    shot(page, "unreachable")
    page.keyboard.press("Escape")
    assert page.locator(".layer-moves .dest").count() == 0
    assert page.locator(".stack.selected").count() == 0
    assert not page.errors


def verdict(page) -> dict:
    page.wait_for_selector("#los-verdict .verdict")
    blocked = page.locator("#los-verdict .los-blocked-by")
    return {"verdict": page.text_content("#los-verdict .verdict"), "rule": page.text_content("#los-verdict .los-rule"),
            "blocked": blocked.text_content() if blocked.count() else ""}


def expected_verdict(los: dict, game: str | None = None) -> dict:
    """What the page says for the CLI's answer ``los``: the ends (with their place names), the verdict, the rule
    (with its topic on a position of ``game``), convention and range, the blocking hexes."""
    ends = []
    for end in (los["from"], los["to"]):
        place = cli_json("hex", los["map"], end)["place"]
        ends.append(f"{end} ({place})" if place else end)
    return {"verdict": f"{ends[0]} → {ends[1]}: {'VISIBLE' if los['visible'] else 'BLOCKED'}",
            "rule": f"rule {rule_text(los['rule'], game)}, {los['convention']} convention, range {los['range']}",
            "blocked": f"blocked by {', '.join(los['blocked_by'])}" if los["blocked_by"] else ""}


def test_line_of_sight_hebrew_university_to_greek_monastery(chromium, jerusalem):
    expected = cli_json("los", "jerusalem-1948", "Hebrew University", "Greek Monastery")
    page = open_page(chromium, jerusalem + "/")
    assert page.is_checked("#los-rules")        # a position of a game with its own spotting rule: that rule first
    page.uncheck("#los-rules")                  # the map's rule, one click away
    bring_into_view(page, "6224", hex_px=40)    # between the two ends
    page.get_by_role("button", name="Pick two hexes on the map").click()
    page.mouse.click(*hex_point(page, expected["from"]))
    page.mouse.click(*hex_point(page, expected["to"]))
    assert verdict(page) == expected_verdict(expected, JERUSALEM)
    assert page.locator(".layer-los .los-blocking").count() == len(expected["blocked_by"])
    assert page.locator(".layer-los .los-blocked").count() == (0 if expected["visible"] else 1)
    shot(page, "los")
    # Typed place names give the same verdict.
    page.keyboard.press("Escape")
    page.fill("#los-from", "Hebrew University")
    page.fill("#los-to", "Greek Monastery")
    page.get_by_role("button", name="Draw").click()
    assert verdict(page) == expected_verdict(expected, JERUSALEM)
    for link, kind in (("whole map SVG", "image/svg+xml"), ("PNG", "image/png"), ("ruling (SVG)", "image/svg+xml")):
        answer = page.request.get(jerusalem + page.get_by_role("link", name=link).get_attribute("href"))
        assert answer.ok and answer.headers["content-type"].startswith(kind)
    # The game's own rule with the position's units (source=): toolkit los --position.
    own = cli_json("los", "--position", SCENARIO_II, "Hebrew University", "Greek Monastery")
    page.check("#los-rules")
    page.get_by_role("button", name="Draw").click()
    page.wait_for_function("() => document.querySelector('#los-permalink')?.href.includes('rules=1')")
    assert verdict(page) == expected_verdict({**own, "map": JERUSALEM}, JERUSALEM)
    assert not page.errors


def test_a_permalink_reproduces_the_verdict(chromium, jerusalem):
    expected = cli_json("los", "jerusalem-1948", "0106", "0508", "--convention", "cross")
    page = open_page(chromium, jerusalem + "/")
    page.select_option("#source-select", "map:jerusalem-1948")
    page.wait_for_selector('body[data-ready="map:jerusalem-1948"]')
    page.fill("#los-from", "0106")
    page.fill("#los-to", "0508")
    page.select_option("#los-convention", "cross")
    page.get_by_role("button", name="Draw").click()
    drawn = verdict(page)
    link = page.get_attribute("#los-permalink", "href")
    assert link.startswith("/los?")
    again = open_page(chromium, jerusalem + link)
    assert verdict(again) == drawn == expected_verdict(expected)
    assert again.input_value("#los-convention") == "cross"
    shot(again, "permalink")
    assert not page.errors and not again.errors


def test_supply_layer_draws_every_line_of_toolkit_supply(chromium, no_prisoners):
    expected = cli_json("supply", NO_PRISONERS)
    _, source = api(no_prisoners, "/api/sources")
    _, answer = api(no_prisoners, f"/api/source?source={source['current']}")
    page = open_page(chromium, no_prisoners + "/")
    toggles = page.eval_on_selector_all("#layer-toggles input", "els => els.map(e => e.name)")
    assert toggles == [layer for layer in answer["layers"] if layer != "check"]
    page.get_by_label("Supply lines").check()
    page.wait_for_selector(".layer-supply .supply-line")
    assert page.locator(".layer-supply .supply-line").count() == len(expected["units"])
    assert page.locator(".layer-supply .supply-line.cut").count() == sum(1 for u in expected["units"] if u["cut"])
    longest = max(expected["units"], key=lambda u: len(u["path"]) + len(u["rail_path"]))
    bring_into_view(page, longest["hex"], hex_px=32)
    shot(page, "supply")
    page.get_by_label("Supply lines").uncheck()
    assert page.locator(".layer-supply .supply-line").count() == 0
    assert not page.errors


def test_a_vassal_save_opened_with_the_file_picker(chromium, jerusalem, tmp_path):
    save = tmp_path / "scenario-ii.vsav"
    subprocess.run([sys.executable, "-m", "toolkit", "vsav", "write", SCENARIO_II, "-o", str(save)], cwd=ROOT,
                   check=True, capture_output=True, timeout=120)
    back = tmp_path / "back.yaml"
    subprocess.run([sys.executable, "-m", "toolkit", "vsav", "read", str(save), "-o", str(back)], cwd=ROOT,
                   check=True, capture_output=True, timeout=120)
    on_map = sorted(u["id"] for u in yaml.safe_load(back.read_text())["units"] if u.get("hex"))
    page = open_page(chromium, jerusalem + "/")
    page.set_input_files("#file-input", str(save))
    page.wait_for_selector('body[data-ready^="upload:"]')
    drawn = page.eval_on_selector_all(".layer-counters .stack", "els => els.flatMap(e => e.dataset.units.split(' '))")
    assert sorted(drawn) == on_map
    assert page.input_value("#source-select").startswith("upload:")
    assert page.is_hidden("#error") and page.is_hidden("#unplaced")     # every piece of the save placed
    shot(page, "vsav")
    assert not page.errors


def test_a_position_dropped_on_the_map(chromium, jerusalem):
    path = ROOT / NO_PRISONERS
    name = "scénario 1 — ready.yaml"        # a name a header carries only percent-encoded
    on_map = sorted(u["id"] for u in yaml.safe_load(path.read_text())["units"] if u.get("hex"))
    page = open_page(chromium, jerusalem + "/")
    dropped = page.evaluate_handle("""([name, text]) => {
        const data = new DataTransfer();
        data.items.add(new File([text], name, {type: "application/x-yaml"}));
        return data; }""", [name, path.read_text()])
    page.dispatch_event("#map", "dragover", {"dataTransfer": dropped})
    page.dispatch_event("#map", "drop", {"dataTransfer": dropped})
    page.wait_for_selector('body[data-ready^="upload:"]')
    drawn = page.eval_on_selector_all(".layer-counters .stack", "els => els.flatMap(e => e.dataset.units.split(' '))")
    assert sorted(drawn) == on_map
    assert page.get_by_label("Supply lines").count() == 1     # the layers of the dropped file's game
    assert page.text_content("#source-title").startswith(name)
    assert not page.errors


def test_a_bad_upload_shows_the_servers_error(chromium, jerusalem, tmp_path):
    bad = tmp_path / "broken.yaml"
    bad.write_text("game: jerusalem-1948\nunits: [{id: x, counter: no-such-counter, hex: '0101'}]\n")
    status, answer = api(jerusalem, "/api/open", bad.read_bytes(), {"X-Filename": bad.name})
    assert 400 <= status < 500 and answer["error"]
    page = open_page(chromium, jerusalem + "/")
    page.set_input_files("#file-input", str(bad))
    page.wait_for_selector("#error:not([hidden])")
    assert answer["error"] in page.text_content("#error-text")
    assert page.get_attribute("#error", "role") == "alert"
    shot(page, "bad-upload")


def test_check_lists_the_violations_and_highlights_one(chromium, jerusalem, tmp_path):
    # Saris's two Haganah 4-6 join Bab el Wad's infantry: 5.1 stacking
    illegal = units_moved(ROOT / SCENARIO_II, ("j-hgh-3", "j-hgh-4"), "2817", tmp_path / "illegal.yaml")
    expected = cli_json("check", str(illegal))
    assert expected["violations"]
    page = open_page(chromium, jerusalem + "/")
    assert checked(page, illegal) == check_shown(expected, JERUSALEM)
    first = expected["violations"][0]
    flagged = page.eval_on_selector_all(".stack.flagged", "els => els.flatMap(e => e.dataset.units.split(' '))")
    assert set(first["units"]) <= set(flagged)
    shot(page, "check")
    assert not page.errors


def test_zoom_buttons_and_hex_details_under_the_cursor(chromium, jerusalem):
    expected = cli_json("hex", "jerusalem-1948", "Latrun")
    page = open_page(chromium, jerusalem + "/")
    before = page.evaluate("() => toolkitPage.view.hexPixels()")
    page.get_by_role("button", name="zoom in").click()
    assert page.evaluate("() => toolkitPage.view.hexPixels()") > before
    page.get_by_role("button", name="zoom out").click()
    assert page.evaluate("() => toolkitPage.view.hexPixels()") == pytest.approx(before)
    bring_into_view(page, expected["hex"])
    page.mouse.move(*hex_point(page, expected["hex"]))
    page.wait_for_function("h => document.querySelector('#hover-hex').textContent.startsWith(h)", arg=expected["hex"])
    text = page.text_content("#hover-hex")
    assert expected["place"] in text and f"elevation {expected['elevation']}" in text
    assert all(t in text for t in expected["terrain"])
    assert not page.errors


def test_first_paint_of_the_largest_map(chromium, jerusalem):
    first_paint(jerusalem, chromium)            # warm-up: the server's first answers compile the map
    runs = sorted((first_paint(jerusalem, chromium) for _ in range(3)), key=lambda r: r["map_ready_ms"])
    median = runs[1]
    print(f"first paint of jerusalem-1948: map ready {median['map_ready_ms']:.0f} ms, "
          f"map SVG {median['map_svg_bytes'] / 1e6:.2f} MB")
    assert median["map_ready_ms"] <= 1500
    assert median["map_svg_bytes"] <= 4_000_000
