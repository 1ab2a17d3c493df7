"""Issue 21: the Charts window in the real VASSAL engine, as a player opens it (tests/engine, ``chart``).

Each bundled game's module and the steppe example's: the window opens from the toolbar with its tabs in one
row, sized to its page; every tab opens scrolled to its top, its page no wider than the window; a screenshot of each tab goes to ``$TOOLKIT_TEST_ARTIFACTS`` (default: the test's
temporary folder) to be looked at.  Skips with the reason when the engine cannot run.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from toolkit.game.module import load_game
from toolkit.vassal.build.charts import chart_pages
from toolkit.vassal.build.module import build_module

from vassal_engine import vengine  # noqa: E402  (the real-VASSAL driver)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module", autouse=True)
def _engine():
    reason = vengine.engine_available()
    if reason is not None:
        pytest.skip(f"VASSAL engine unavailable: {reason}")


@pytest.mark.parametrize("game", ["jerusalem-1948", "no-prisoners", "siege-of-jerusalem", "examples/steppe"])
def test_charts_window(game, tmp_path):
    out = Path(os.environ.get("TOOLKIT_TEST_ARTIFACTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    path = str(ROOT / game) if "/" in game else game
    tabs = list(chart_pages(load_game(path)))
    module = build_module(path, tmp_path / "m.vmod")
    name = Path(game).name
    steps = [{"op": "chart", "tab": tab, "file": str(out / f"charts-{name}-{i}.png")} for i, tab in enumerate(tabs)]
    r = vengine.play(module, steps)
    assert r["ok"], json.dumps({"errors": r["errors"], "steps": r["steps"]}, indent=1)[:3000]
    first = r["steps"][0]
    assert first["tabs"] == tabs and first["tabRuns"] == 1, first
    width, height = first["size"]
    assert 560 <= width <= 950 and 200 <= height <= 1000, first["size"]
    assert all(Path(s["file"]).stat().st_size > 5000 for s in r["steps"])
    for tab, step in zip(tabs, r["steps"]):   # issue 35: each tab opens at its top and no column is cut off
        assert step["view"] == [0, 0], (tab, step["view"], step["page"])
        assert step["page"][0] <= step["extent"][0], (tab, step["page"], step["extent"])
