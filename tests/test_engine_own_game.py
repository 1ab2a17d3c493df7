"""Issue 21 in the real VASSAL engine (tests/engine): a game of your own, as a player meets it.

File > New Game lists the scenarios and opens the first; the counters print every declared factor
(``4-4-4``); the mouse-over stack viewer names a hex's place and terrain (``0209 Millbrook (Clear, Town)``); a
keystroke on a stack of a counter and a marker reports only what a piece did, never an empty command.
Screenshots go to ``$TOOLKIT_TEST_ARTIFACTS`` (default: the test's temporary folder) to be looked at.  Skips
with the reason when the engine cannot run.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from toolkit.game.module import load_game
from toolkit.scaffold import new_game
from toolkit.vassal.build.module import build_module
from toolkit.vassal.design.board import board_layout, hex_centre
from toolkit.vassal.design.boxes import SCROLLBAR_ROOM, boxes_layout
from toolkit.vassal.design.counters import COUNTER_SIZE
from toolkit.vassal.design.piecedefs import BOXES_MAP, MAIN_MAP

from vassal_engine import vengine  # noqa: E402  (the real-VASSAL driver)


@pytest.fixture(scope="module", autouse=True)
def _engine():
    reason = vengine.engine_available()
    if reason is not None:
        pytest.skip(f"VASSAL engine unavailable: {reason}")


def test_new_game_opens_the_first_scenario_with_factors_and_places_in_words(tmp_path):
    out = Path(os.environ.get("TOOLKIT_TEST_ARTIFACTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    folder = tmp_path / "own"
    new_game(folder, 12, 10)
    game = load_game(folder)
    cmap, board = game.map, board_layout(game.map)
    millbrook = list(hex_centre(board, cmap, cmap.places["Millbrook"]))
    west, objective, hill = (list(hex_centre(board, cmap, cmap.grid.parse(n))) for n in ("0105", "1105", "1109"))
    module = build_module(folder, tmp_path / "own.vmod")
    steps = [
        {"op": "side", "name": "Blue"},
        {"op": "file_menu"},
        {"op": "file_menu", "choose": "New Game > Scenario 1"},
        {"op": "pieces", "map": MAIN_MAP, "props": ["CurrentZone"]},
        {"op": "screenshot", "map": MAIN_MAP, "center": millbrook, "file": str(out / "own-counters.png")},
        {"op": "hover", "map": MAIN_MAP, "at": millbrook, "file": str(out / "own-hover-millbrook.png")},
        {"op": "drag", "map": MAIN_MAP, "from": west, "to": objective},   # onto the Objective marker
        {"op": "key", "map": MAIN_MAP, "at": objective, "key": "ctrl M"},  # no piece there hides
        # the Objective marker lies above the unit now: the unit's lower-left corner stays in view (issue 35)
        {"op": "key", "map": MAIN_MAP, "at": vengine.counter_corner(objective), "key": "ctrl F"},
        {"op": "chat"},
        {"op": "windows"},
        {"op": "hover", "map": MAIN_MAP, "at": hill, "seconds": 0.2, "file": str(out / "own-hover-hill.png")},
    ]
    r = vengine.play(module, steps)
    assert r["ok"], json.dumps({"errors": r["errors"], "steps": r["steps"]}, indent=1)[:3000]
    _, menu, chose, pieces, _, hover, _, _, _, chat, windows, hill_hover = r["steps"]
    # the engine drops its own New Game item for the module's menu of scenarios
    assert [t for t in menu["menu"] if t.startswith("New Game")] == ["New Game > Scenario 1"], menu["menu"]
    assert menu["menu"][0] == "New Game > Scenario 1"
    assert all(text and text != "null" for text in menu["menu"]), menu["menu"]   # no blank item a player sees
    assert chose["gameStarted"] and chose["pieces"] == 9, chose
    at_millbrook = [p for p in pieces["pieces"] if [p["x"], p["y"]] == millbrook]
    assert len(at_millbrook) == 2, pieces["pieces"]
    assert {p["properties"]["CurrentZone"] for p in at_millbrook} == {"Millbrook (Clear, Town)"}
    assert {p["locationName"] for p in at_millbrook} == {"0209"}
    assert (hover["locationName"], hover["zone"]) == ("0209", "Millbrook (Clear, Town)")
    assert Path(hover["file"]).stat().st_size > 5000
    assert (hill_hover["locationName"], hill_hover["zone"]) == ("1109", "(Hill)")   # no place: its terrain
    lines = chat["chat"][chat["chat"].index("- Loaded scenario-1.vsav") + 1:]
    assert [t for t in lines if t.strip()] == ["* Blue Infantry moves 0105 -> 1105 *", "* 1105: Flip (Blue Infantry)"]
    boxes = next(m for m in windows["windows"]["maps"] if m["name"] == BOXES_MAP)
    drawn = boxes_layout(game, COUNTER_SIZE).width - SCROLLBAR_ROOM   # the blank strip may be hidden
    assert boxes["viewport"][0] >= drawn, (boxes, drawn)
