"""The second example game, Lanz 1916 (examples/lanz, issue 33), in the page of ``toolkit serve --game
examples/lanz``: a move clicked in the mud scenario, its hand-checked cost shown and made (tests/test_example_lanz.py
works the same moves out through the command line and the API).  Screenshots go to ``dist/screenshots/lanz-*.png``.
"""
from __future__ import annotations

import pytest
import yaml

from web_browser_support import bring_into_view, cli_json, hex_point, missing, open_page, select_unit, serve, shot

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))

GAME = "examples/lanz"
MUD = f"{GAME}/scenarios/2-autumn-mud.yaml"


@pytest.fixture(scope="module")
def lanz():
    with serve(MUD, "--game", GAME) as base:
        yield base


def shaded(page) -> dict[str, float]:
    """The destinations the page shades, with their costs."""
    return dict(page.eval_on_selector_all(".layer-moves .dest", "els => els.map(e => [e.dataset.hex, "
                                                               "+e.dataset.cost])"))


def test_armour_in_the_mud_is_clicked_to_the_bridge(chromium, lanz, tmp_path):
    page = open_page(chromium, lanz + "/")
    select_unit(page, "0305", "r-tank-1")
    # 3.2: armour at most 3 MP in mud; 4.5: six road hexes at ½ MP to 0905 by the Lanz bridge, no farther (the
    # bridge town beyond would be 3½).
    assert "Red Movement phase, 3 MP" in page.text_content("#moves-summary")
    shown = shaded(page)
    assert shown["0905"] == 3 and "1005" not in shown
    expected = cli_json("moves", MUD, "r-tank-1", "--game", GAME)
    assert shown == {d["hex"]: d["cost"] for d in expected["destinations"]}
    page.mouse.click(*hex_point(page, "0905"))
    page.wait_for_function("() => document.querySelectorAll('#play-log li.log-move').length === 1")
    assert page.text_content("#play-log li:nth-child(1)") == "r-tank-1 0305 → 0905 (3 MP)"
    with page.expect_download() as download:
        page.click("#export-yaml")
    played = tmp_path / "played.yaml"
    download.value.save_as(played)
    units = {u["id"]: u for u in yaml.safe_load(played.read_text())["units"]}
    assert units["r-tank-1"]["hex"] == "0905" and units["r-tank-1"]["spent"] == 3
    shot(page, "lanz-mud-move")
    assert not page.errors


def test_the_mud_attack_over_the_bridge_in_the_combat_section(chromium, lanz, tmp_path):
    """The hand-checked mud attack of tests/test_example_lanz.py in the page: armour from 0905 and infantry from
    0904, both across the Lanz (x ½, 7.5), and infantry from 1104, out of supply in mud (x ½, 9.3, 3.2), on
    Lanzbrück (5 x 2, 7.3): 4 + 3 + 3 = 10 against 10, 1-1, one column left in mud: 1-2."""
    bridge = tmp_path / "bridge.yaml"
    units = [("t", "red-tank", "0905"), ("i", "red-inf", "0904"), ("j", "red-inf", "1104"), ("b", "blue-inf", "1005")]
    bridge.write_text(yaml.safe_dump({"game": "lanz", "turn": "1", "phase": "red_combat", "phasing_side": "red",
                                      "params": {"weather": "mud"},
                                      "units": [{"id": u, "counter": c, "hex": h} for u, c, h in units]}))
    page = open_page(chromium, lanz + "/")
    page.set_input_files("#file-input", str(bridge))
    page.wait_for_selector('body[data-ready^="upload:"]')
    for hex_name, unit in (("0905", "t"), ("0904", "i"), ("1104", "j")):   # no moves in a combat phase: no shading
        bring_into_view(page, hex_name)
        page.mouse.click(*hex_point(page, hex_name))
        page.wait_for_function("([u, h]) => { const t = document.querySelector('#selection-text').textContent; "
                               "return t.includes(` ${u} (`) && t.endsWith(` in ${h}`); }", arg=[unit, hex_name])
        page.click("#add-attack")
    page.mouse.click(*hex_point(page, "1005"))
    page.click("#add-defend")
    page.wait_for_selector("#combat-result p")
    said = page.text_content("#combat-result")
    assert said.startswith("10 against 10: odds 1-2 on the CRT")
    assert "-1 column mud (3.2 — mud): attacking in mud" in said                   # rule_topics.yaml
    assert "undefined" not in said and "[object Object]" not in said
    # the die table as `toolkit odds` gives it: each roll, its modified roll (no modifier here) and the result
    rows = page.eval_on_selector_all("#combat-result table.die-results tr",
                                     "trs => trs.map(tr => [...tr.children].map(c => c.textContent))")
    assert rows[0] == ["die", "modified", "result"]
    expected = cli_json("odds", str(bridge), "--game", GAME, "--attack", "t", "i", "j", "--defend", "b")
    assert rows[1:] == [[str(r["die"]), str(r["final"]), f"{r['result']} ({r['meaning']})"]
                        for r in expected["results"]]
    shot(page, "lanz-mud-attack")
    assert not page.errors
