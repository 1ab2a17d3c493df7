"""The page of ``toolkit serve`` for a game whose rules are data only (``rules.yaml``): the example game Steppe
(``examples/steppe``), served with ``--game`` as a module maker serves their own game.

Every answer the page shows is compared with the command line's ``--json`` for the same question (the ZOC and
reach layers, which have no command, with the answer builders the API shares with it).  Screenshots are saved in
``dist/screenshots/steppe-*.png``.
"""
from __future__ import annotations

import pytest
import yaml

from toolkit.answers import reach_answer, zoc_answer
from toolkit.games import load_position_or_save
from web_browser_support import (ROOT, bring_into_view, check_shown, checked, cli_json, hex_point, missing,
                                 open_page, rule_text, select_unit, serve, shot, units_moved)

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))

GAME = "examples/steppe"
SCENARIO = f"{GAME}/scenarios/scenario-1.yaml"
FASTEST = ("0305", "g-pz-2")      # the panzers: 6 MP, prohibited from swamp (6.2), stopped by ZOC (7.1)


def steppe_json(*args: str):
    """``toolkit ARGS --game examples/steppe --json``."""
    return cli_json(*args, "--game", GAME)


def shaded(page) -> list[tuple]:
    """The destinations the page shades: ``(hex, cost, stop)``, sorted."""
    found = page.eval_on_selector_all(".layer-moves .dest", "els => els.map(e => [e.dataset.hex, +e.dataset.cost, "
                                                            "e.classList.contains('stop')])")
    return sorted(map(tuple, found))


def destinations(moves: dict) -> list[tuple]:
    return sorted((d["hex"], d["cost"], d["stop"]) for d in moves["destinations"])


def hover_says(page, hex_name: str) -> dict:
    """Hover ``hex_name``; what the page says about moving there: text, reason and rule."""
    bring_into_view(page, hex_name)
    page.mouse.move(*hex_point(page, hex_name))
    page.wait_for_function("h => document.querySelector('#hover-move').textContent.startsWith(h)", arg=hex_name)
    box = page.locator("#hover-move")
    return {"text": box.text_content(), "reason": box.get_attribute("data-reason"),
            "rule": box.get_attribute("data-rule")}


def show_layer(page, label: str, selector: str) -> None:
    page.get_by_label(label, exact=True).check()
    page.wait_for_selector(selector)


@pytest.fixture(scope="module")
def steppe():
    with serve(SCENARIO, "--game", GAME) as base:
        yield base


@pytest.fixture(scope="module")
def position():
    return load_position_or_save(str(ROOT / SCENARIO), str(ROOT / GAME))[0]


def test_the_fastest_unit_moves_as_toolkit_moves_says(chromium, steppe):
    expected = steppe_json("moves", SCENARIO, FASTEST[1])
    page = open_page(chromium, steppe + "/")
    select_unit(page, *FASTEST)
    assert shaded(page) == destinations(expected)
    assert page.locator(".layer-moves .cost").count() == len(expected["destinations"])
    stop = next(d for d in expected["destinations"] if d["stop"])       # entering an enemy ZOC ends the move
    said = hover_says(page, stop["hex"])
    assert said["rule"] == stop["stop_rule"] == "7.1"
    assert said["text"].endswith(f"the move must stop here (rule {rule_text(stop['stop_rule'], GAME)})")
    shot(page, "steppe-moves")
    assert not page.errors


def test_a_swamp_refused_to_armour_says_why_with_the_games_rule(chromium, steppe):
    expected = steppe_json("moves", SCENARIO, FASTEST[1])
    swamp = next(u for u in expected["unreachable"] if u["rule"] == "6.2")
    page = open_page(chromium, steppe + "/")
    select_unit(page, *FASTEST)
    said = hover_says(page, swamp["hex"])
    assert (said["reason"], said["rule"]) == (swamp["reason"], "6.2")
    assert said["text"] == f"{swamp['hex']}: unreachable — {swamp['reason']} (rule 6.2 — movement: terrain)"
    assert rule_text("6.2", GAME) == "6.2 — movement: terrain"          # the topic from where rules.yaml cites it
    shot(page, "steppe-unreachable")
    assert not page.errors


def test_the_phases_by_name_and_rail_movement_as_the_cli(chromium, steppe):
    source = cli_json("moves", SCENARIO, "g-pz-1", "--kind", "rail", "--game", GAME)
    page = open_page(chromium, steppe + "/")
    phases = page.eval_on_selector_all("#phase-select option", "els => els.map(e => [e.value, e.textContent])")
    game = yaml.safe_load((ROOT / GAME / "game.yaml").read_text())
    sides = {p["id"]: p["id"].split("_")[0] for p in game["phases"]}   # each phase's side, in the game's order
    assert phases == [[p["id"], f"{p['name']} — {sides[p['id']]}"] for p in game["phases"]]
    assert "Axis Movement phase" in page.text_content("#source-title")
    select_unit(page, "0102", "g-pz-1")
    kinds = page.eval_on_selector_all('#move-options select[name="kind"] option', "els => els.map(e => e.value)")
    assert kinds == ["", "rail"]
    page.select_option('#move-options select[name="kind"]', "rail")
    page.wait_for_function("n => document.querySelectorAll('.layer-moves .dest').length === n",
                           arg=len(source["destinations"]))
    assert shaded(page) == destinations(source)
    assert "Axis Movement phase, 10 MP" in page.text_content("#moves-summary")
    shot(page, "steppe-rail")
    assert not page.errors


def test_supply_and_command_layers_count_as_the_cli(chromium, steppe):
    supply, command = steppe_json("supply", SCENARIO), steppe_json("command", SCENARIO)
    page = open_page(chromium, steppe + "/")
    show_layer(page, "Supply lines", ".layer-supply .supply-line")
    assert page.locator(".layer-supply .supply-line").count() == len(supply["units"])
    assert page.locator(".layer-supply .supply-line.cut").count() == sum(1 for u in supply["units"] if u["cut"])
    show_layer(page, "Command radii", ".layer-command .command-radius")
    radii = page.eval_on_selector_all(".layer-command .command-radius", "els => els.map(e => e.dataset.hq)")
    assert radii == [hq["hq"] for hq in command["hqs"]]
    assert page.locator(".layer-command .out-of-command").count() == len(command["out_of_command"])
    notes = page.text_content("#notes-command")
    assert all(f"{u['unit']} in {u['hex']}: out of command" in notes for u in command["out_of_command"])
    shot(page, "steppe-supply-command")
    assert not page.errors


def test_zoc_and_reach_layers_as_the_answers(chromium, steppe, position):
    zoc, reach = zoc_answer(position, "soviet"), reach_answer(position, "soviet")
    page = open_page(chromium, steppe + "/")
    assert page.input_value("#layer-side") == "soviet"
    show_layer(page, "Enemy ZOC", ".layer-zoc .zoc")
    drawn = page.eval_on_selector_all(".layer-zoc .zoc", "els => els.map(e => e.dataset.hex)")
    assert drawn == [h["hex"] for h in zoc["hexes"]]
    show_layer(page, "Enemy reach", ".layer-reach .reach")
    counts = page.eval_on_selector_all(".layer-reach .reach", "els => els.map(e => [e.dataset.hex, +e.dataset.count])")
    assert counts == [[h["hex"], h["count"]] for h in reach["hexes"]]
    shot(page, "steppe-zoc-reach")
    assert not page.errors


def test_victory_draws_each_objective_with_its_holder(chromium, steppe):
    expected = steppe_json("victory", SCENARIO)
    page = open_page(chromium, steppe + "/")
    show_layer(page, "Victory", ".layer-victory .objective")
    drawn = page.eval_on_selector_all(".layer-victory .objective", "els => els.map(e => [e.dataset.hex, "
                                      "e.dataset.holder, e.querySelector('.objective-label').textContent, "
                                      "e.querySelector('title').textContent])")
    assert drawn == [[o["hex"], o["holder"] or "", f"{o['vp']} VP · {o['holder'] or 'nobody'}",
                      f"{o['hex']}: held by {o['holder'] or 'nobody'} ({o['how']}); {o['vp']} VP to {o['side']} "
                      f"({o['rule']})"] for o in expected["objectives"]]
    held = page.eval_on_selector_all(".layer-victory .held", "els => els.map(e => e.dataset.hex)")
    assert held == expected["held"]
    notes = page.eval_on_selector_all("#notes-victory p", "els => els.map(e => e.textContent)")
    assert notes == expected["explanation"].split("\n")
    assert not page.errors
    bring_into_view(page, expected["objectives"][0]["hex"], hex_px=40)
    shot(page, "steppe-victory")


def test_check_lists_the_stacking_violation_as_the_cli(chromium, steppe, tmp_path):
    page = open_page(chromium, steppe + "/")
    assert steppe_json("check", SCENARIO)["legal"]
    assert page.text_content("#check-result") == "No rule broken."       # the scenario as published
    # Both panzers join the infantry in 0104: 5 stacking points of 3.
    overstacked = units_moved(ROOT / SCENARIO, ("g-pz-1", "g-pz-2"), "0104", tmp_path / "overstacked.yaml")
    assert checked(page, overstacked) == check_shown(steppe_json("check", str(overstacked)), GAME)
    shot(page, "steppe-check")
    assert not page.errors
