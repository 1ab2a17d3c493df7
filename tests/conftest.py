"""Shared fixtures: a minimal valid map dict, the example map path, an isolated map cache."""
from __future__ import annotations

import copy
import os
from pathlib import Path

import pytest
from hypothesis import settings

# Speed is the benchmark's business (scripts/bench.py): no per-example deadline on a busy machine.
settings.register_profile("toolkit", deadline=None)
settings.load_profile("toolkit")

EXAMPLE = Path(__file__).resolve().parent.parent / "maps" / "example" / "map.yaml"

# The `game` fixture of hand-built *Jerusalem!* positions (a test copy of the counters).
pytest_plugins = ("jerusalem_fixtures",)

_MINIMAL = {
    "id": "tiny",
    "title": "Tiny",
    "grid": {"orientation": "flat", "size": 10, "naming": {"scheme": "ccrr"}, "columns": [1, 4], "rows": [1, 3]},
    "terrain": {"clear": {}, "hill": {"elevation": 1}, "village": {"base": False}},
    "features": {"road": {"kind": "path"}, "wall": {"kind": "hexside"}},
}


@pytest.fixture
def map_dict() -> dict:
    """A fresh minimal valid map (4 x 3 flat-top CCRR hexes, size 10, default origin)."""
    return copy.deepcopy(_MINIMAL)


@pytest.fixture
def example_path() -> Path:
    """The bundled example map file."""
    return EXAMPLE


@pytest.fixture(autouse=True)
def _isolated_map_cache(tmp_path_factory, monkeypatch):
    """Never write compiled maps into the real user cache, nor games into the user's data folder (``toolkit
    serve``'s store), during tests."""
    monkeypatch.setenv("TOOLKIT_CACHE_DIR", str(tmp_path_factory.mktemp("map-cache")))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))


# The tiers that need outside programs (the real VASSAL engine, Chromium) skip with their reason on a machine
# without them; CI sets TOOLKIT_REQUIRE_TIERS=1 so that such a skip fails instead of hiding a green run.
_TIER_REASONS = ("VASSAL engine unavailable", "Playwright for Python", "no Chromium", "PostgreSQL tier")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("TOOLKIT_REQUIRE_TIERS") == "1":
        reason = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if any(r in reason for r in _TIER_REASONS):
            report.outcome = "failed"
            report.longrepr = f"TOOLKIT_REQUIRE_TIERS=1 but the tier cannot run: {reason}"


@pytest.fixture(scope="module")
def jerusalem():
    """``toolkit serve`` of Jerusalem! Scenario II for one module of the browser tier: its address (modules of
    other tiers define a ``jerusalem`` of their own)."""
    from web_browser_support import SCENARIO_II, serve

    with serve(SCENARIO_II) as base:
        yield base


@pytest.fixture(scope="module")
def chromium():
    """Debian's Chromium under Playwright, one per module of the browser tier (tests/web_browser_support.py)."""
    from web_browser_support import browser

    with browser() as b:
        yield b
