"""The viewer as the table (issue 24), the basics: the legend of the layers drawn, go to a hex, place or unit, the
keys (n, p, ?), the unit's id on its counter, rule numbers with their topic (the game's ``rule_topics.yaml``),
Next phase and the kind of combat.  Screenshots go to ``dist/screenshots/``.
"""
from __future__ import annotations

import pytest

from web_browser_support import (NO_PRISONERS, SCENARIO_II, attack, cli_json, hex_point, missing,
                                 open_page, select_unit, serve, shot)

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))


def legend(page) -> list[str]:
    return page.eval_on_selector_all("#legend-list li", "els => [...new Set(els.map(e => e.dataset.layer))]")


def test_the_legend_lists_the_layers_drawn(chromium, jerusalem):
    page = open_page(chromium, jerusalem + "/")
    assert page.locator("#legend").is_hidden()
    select_unit(page, "2817", "j-ac-1")
    page.wait_for_function("() => document.querySelectorAll('#legend-list li').length")
    assert legend(page) == ["moves"]
    page.check("#layer-zoc")
    page.wait_for_selector(".layer-zoc .zoc")
    page.wait_for_function("() => document.querySelector('#legend-list li[data-layer=zoc]')")
    assert legend(page) == ["moves", "zoc"] and "zone of control" in page.text_content("#legend")
    shot(page, "table-legend")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('#legend-list li[data-layer=moves]')")
    assert legend(page) == ["zoc"] and not page.errors


def test_go_to_a_hex_a_place_or_a_unit(chromium, jerusalem):
    page = open_page(chromium, jerusalem + "/")
    place = cli_json("hex", "jerusalem-1948", "2817")["place"]
    for text, hex_name in (("3118", "3118"), (place, "2817"), ("j-hgh-3", "3520")):
        page.fill("#goto", text)
        page.press("#goto", "Enter")
        page.wait_for_selector(f'.layer-goto .goto-hex[data-hex="{hex_name}"]')
        x, y = hex_point(page, hex_name)
        box = page.locator("#map").bounding_box()
        assert abs(x - box["x"] - box["width"] / 2) < 3 and abs(y - box["y"] - box["height"] / 2) < 3
    shot(page, "table-goto")
    page.fill("#goto", "Atlantis")
    page.press("#goto", "Enter")
    page.wait_for_selector("#error:not([hidden])")
    assert "Atlantis" in page.text_content("#error-text")
    page.click("#error-close")
    # A part of a unit's name that only one unit has goes to it (issue 32); one that several have lists them.
    for text, hex_name in (("plm", "2817"), ("J-HGH-3", "3520")):
        page.fill("#goto", text)
        page.press("#goto", "Enter")
        page.wait_for_selector(f'.layer-goto .goto-hex[data-hex="{hex_name}"]')
    page.fill("#goto", "hgh-")
    page.press("#goto", "Enter")
    page.wait_for_selector("#error:not([hidden])")
    assert "units are named so (j-hgh-1, j-hgh-2," in page.text_content("#error-text") and not page.errors


def test_n_and_p_select_the_phasing_sides_units_and_question_mark_lists_the_keys(chromium, jerusalem):
    page = open_page(chromium, jerusalem + "/")
    source = page.evaluate("() => toolkitPage.play.source")
    phasing = [u["id"] for u in source["units"] if u["side"] == source["phasing_side"] and u["hex"]]
    # n and p pass over the units with no legal move now (the garrisons, issue 32).
    moves = dict(zip(phasing, page.evaluate("ids => Promise.all(ids.map(id => fetch(`/api/moves?source=${"
                                            "encodeURIComponent(toolkitPage.play.source.id)}&unit=${id}`)"
                                            ".then(r => r.json())))", phasing)))
    mine = [u for u in phasing if not moves[u]["refused"] and moves[u]["destinations"]]
    assert phasing[0] not in mine and 0 < len(mine) < len(phasing)
    page.locator("#map").focus()
    for key, unit in (("n", mine[0]), ("n", mine[1]), ("p", mine[0]), ("p", mine[-1])):
        page.keyboard.press(key)
        page.wait_for_function("u => toolkitPage.moves.selected[0] === u", arg=unit)
        assert unit in page.text_content("#selection-text")
    page.keyboard.press("?")
    assert page.locator("#keys-help").is_visible() and "next / previous unit" in page.text_content("#keys-help")
    page.keyboard.press("Escape")
    assert page.locator("#keys-help").is_hidden() and not page.errors


def test_each_counter_shows_its_units_id(chromium, jerusalem):
    page = open_page(chromium, jerusalem + "/")
    select_unit(page, "2817", "j-ac-2")
    stack = page.locator('.layer-counters .stack[data-hex="2817"]')
    assert stack.locator("text.name").text_content() == "j-ac-2"
    page.keyboard.press("Escape")
    page.mouse.click(*hex_point(page, "2817"))
    page.locator('#stack-picker button[data-unit="j-ac-1"]').click()
    page.wait_for_selector(".layer-moves .dest")
    assert stack.locator("text.name").text_content() == "j-ac-1"
    for _ in range(3):
        page.keyboard.press("+")
    shot(page, "table-counter-names")
    assert not page.errors


def test_next_phase_goes_on_in_the_games_order(chromium, jerusalem):
    page = open_page(chromium, jerusalem + "/")
    page.click("#next-phase")
    page.wait_for_function("() => toolkitPage.play.source.phase === 'road'")
    page.click("#next-phase")
    page.wait_for_function("() => toolkitPage.play.source.phasing_side === 'arab'")
    assert "Overland Movement Phase (arab)" in page.text_content("#standing")
    assert page.locator("#play-log li").count() == 2
    shot(page, "table-next-phase")
    assert not page.errors


def test_the_kind_of_combat_and_a_refusals_rule_topic(chromium, jerusalem):
    page = open_page(chromium, jerusalem + "/")
    kinds = page.eval_on_selector_all("#combat-kind option", "els => els.map(e => e.value)")
    assert kinds == page.evaluate("() => toolkitPage.play.source.combat_kinds") and "barrage" in kinds
    attack(page, "2817", "j-plm-1", "1914")
    page.select_option("#combat-kind", "barrage")
    page.wait_for_function("() => document.querySelector('#combat-result').textContent.includes('10.5.1')")
    defenders = page.eval_on_selector_all("#combat-defend .chip", "els => els.map(e => e.textContent)")
    odds = cli_json("odds", SCENARIO_II, "--attack", "j-plm-1", "--defend", *defenders, "--kind", "barrage")
    topic = page.evaluate("r => toolkitPage.play.source.rule_topics[r]", odds["refused"]["rule"])
    assert topic and f"{odds['refused']['rule']} — {topic}" in page.text_content("#combat-result")
    assert odds["refused"]["reason"] in page.text_content("#combat-result")
    shot(page, "table-combat-kind")
    assert not page.errors


def test_a_game_without_combat_kinds_has_no_picker(chromium):
    with serve(NO_PRISONERS) as base:
        page = open_page(chromium, base + "/")
        assert page.locator("#combat-kind-label").is_hidden() and not page.errors


def test_a_reopened_link_undoes_its_steps_one_by_one(chromium, jerusalem):
    """A link carries the steps of a game: the page opened from it shows their log, and Undo takes them back one at
    a time (issue 32: Undo was disabled), each position asked of the server when gone to."""
    [to] = [d["hex"] for d in cli_json("moves", SCENARIO_II, "j-plm-1")["destinations"] if d["cost"] >= 2][:1]
    page = open_page(chromium, f"{jerusalem}/?source=bundled:jerusalem-1948/scenario-ii.yaml"
                               f"&step=move:j-plm-1>{to}&step=turn:next")
    assert page.locator("#play-log li").count() == 2 and page.locator("#undo").is_enabled()
    assert "Road Movement Phase" in page.text_content("#standing")
    page.click("#undo")
    page.wait_for_function("() => document.querySelectorAll('#play-log li').length === 1")
    assert "Overland Movement Phase" in page.text_content("#standing")
    page.click("#undo")
    page.wait_for_function("() => !document.querySelector('#play-log li.log-move')")
    stack = page.locator('.layer-counters .stack[data-hex="2817"]').get_attribute("data-units")
    assert "j-plm-1" in stack.split() and page.locator("#undo").is_disabled()
    page.click("#redo")
    page.wait_for_function("() => document.querySelectorAll('#play-log li.log-move').length === 1")
    shot(page, "table-link-undo")
    assert not page.errors


def test_the_counters_are_drawn_in_the_games_side_colours(chromium, jerusalem):
    """game.yaml's `color` and `text` of each side (issue 32: a game's own sides were drawn in the page's colours)."""
    page = open_page(chromium, jerusalem + "/")
    for hex_name, fill, ink in (("2817", "#2b5fb4", "#ffffff"), ("1914", "#c8a46e", "#000000")):
        face = page.locator(f'.layer-counters .stack[data-hex="{hex_name}"] rect.face')
        assert (face.get_attribute("fill"), face.get_attribute("stroke")) == (fill, ink)
    assert not page.errors
