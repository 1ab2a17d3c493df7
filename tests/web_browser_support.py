"""The browser tier of the web viewer: the real ``toolkit serve`` on a free port and Debian's Chromium driven by
Playwright (``docs/web.md``, "The page").  Shared by ``tests/test_web_browser.py`` and ``scripts/bench.py``.

Playwright's wheel brings its driver; the browser is the system's ``chromium`` (``.ci/run`` installs both):
``playwright install`` is never run.  :func:`missing` says why the tier cannot run here.
"""
from __future__ import annotations

import contextlib
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator

import yaml

from toolkit.game.module import load_bundled_game, load_game

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1600, "height": 1000}
SERVER_START_S = 60       # the server answers /api/sources within this
READY_MS = 30_000         # a page shows its source within this
SCREENSHOTS = ROOT / "dist" / "screenshots"
LARGEST_MAP_POSITION = "modules/jerusalem-1948/scenarios/scenario-ii.yaml"
SCENARIO_II = LARGEST_MAP_POSITION                         # Jerusalem! Scenario II
NO_PRISONERS = "modules/no-prisoners/scenarios/scenario-1.yaml"
HEX_PX = 46              # zoomed in until a hex is this wide on the screen: counters and costs legible


def missing() -> str | None:
    """Why the browser tier cannot run here, or None when it can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install playwright; .ci/run does)"
    if not Path(CHROMIUM).is_file():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve(*args: str) -> Iterator[str]:
    """``toolkit serve ARGS`` on a free port of 127.0.0.1 (run from the repository, so its package is used; its
    games kept in a store of its own unless ARGS give ``--store``); yields the base URL once it answers, and stops
    it after."""
    port = free_port()
    log = tempfile.TemporaryFile()
    with tempfile.TemporaryDirectory() as data:
        store = [] if "--store" in args else ["--store", str(Path(data) / "games.sqlite")]
        proc = subprocess.Popen([sys.executable, "-m", "toolkit", "serve", *args, *store, "--port", str(port)],
                                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        yield from _served(proc, port, log)


def _served(proc: subprocess.Popen, port: int, log) -> Iterator[str]:
    """The base URL of the server ``proc`` once it answers on ``port``; the server stopped after."""
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(base, proc, log)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        log.close()


def _wait_for(base: str, proc: subprocess.Popen, log) -> None:
    deadline = time.monotonic() + SERVER_START_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"toolkit serve exited with {proc.returncode}: {log.read().decode(errors='replace')}")
        try:
            with urllib.request.urlopen(f"{base}/api/sources", timeout=5):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"toolkit serve did not answer {base}/api/sources within {SERVER_START_S} s")


@contextlib.contextmanager
def browser() -> Iterator[object]:
    """The system Chromium under Playwright (each launch has a fresh temporary profile)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


def open_page(chromium, url: str, **context):
    """A page in a fresh context (no cache, no storage) of a 1600 x 1000 window (or the ``context`` options: a
    phone's viewport, touch) at ``url``, once it shows its source (``body[data-ready]``); the page's script errors
    are collected in ``page.errors``."""
    page = chromium.new_context(**{"viewport": VIEWPORT, "accept_downloads": True, **context}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(url)
    page.wait_for_selector("body[data-ready]", timeout=READY_MS)
    return page


# ---------------------------------------------------------------- the page used as a player would

def cli_json(*args: str):
    """The command line's JSON answer (``toolkit ARGS --json``), run from the repository."""
    done = subprocess.run([sys.executable, "-m", "toolkit", *args, "--json"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def shot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    print(f"screenshot: {path}")


def hex_point(page, hex_name: str) -> tuple[float, float]:
    return tuple(page.evaluate("h => toolkitPage.view.toClient(h)", hex_name))


def map_box(page) -> dict:
    return page.locator("#map").bounding_box()


def drag(page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, steps=4)
    page.mouse.move(*end, steps=4)
    page.mouse.up()


def empty_point(page, x: float, y: float, hex_px: float) -> tuple[float, float]:
    """A point near ``(x, y)`` where a press grabs the map, not a counter (a drag that starts on a counter
    carries it), as a player pans by grabbing bare map."""
    for ox, oy in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1), (2, 0), (-2, 0)]:
        px, py = x + ox * hex_px, y + oy * hex_px
        if not page.evaluate("([x, y]) => { const v = toolkitPage.view, h = v.hexAt(x, y); return !!h && v.grab(h); }",
                             [px, py]):
            return px, py
    raise AssertionError(f"no bare map near ({x:.0f}, {y:.0f}) to drag")


def bring_into_view(page, hex_name: str, hex_px: float = HEX_PX) -> None:
    """As a player would: wheel to zoom in until hexes are ``hex_px`` wide, then drag the map (as often as it
    takes) until the hex is in the middle."""
    box = map_box(page)
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    while page.evaluate("() => toolkitPage.view.hexPixels()") < hex_px:
        page.mouse.wheel(0, -120)
    for _ in range(20):
        x, y = hex_point(page, hex_name)
        if abs(x - cx) < 2 and abs(y - cy) < 2:
            return
        dx = max(-box["width"] / 2 + 20, min(box["width"] / 2 - 20, cx - x))
        dy = max(-box["height"] / 2 + 20, min(box["height"] / 2 - 20, cy - y))
        sx, sy = empty_point(page, cx - dx / 2, cy - dy / 2, hex_px)
        drag(page, (sx, sy), (sx + dx, sy + dy))
    raise AssertionError(f"dragging the map did not bring {hex_name} to the middle")


def select_unit(page, hex_name: str, unit: str) -> None:
    """Click the counter in ``hex_name``; a stack lists its units: pick ``unit`` there."""
    bring_into_view(page, hex_name)
    page.mouse.click(*hex_point(page, hex_name))
    in_stack = page.locator(f'#stack-picker button[data-unit="{unit}"]')
    if in_stack.count():
        in_stack.click()
    page.wait_for_selector(".layer-moves .dest")


def attack(page, attacker_hex: str, attacker: str, defender_hex: str) -> None:
    """Pick ``attacker`` (in ``attacker_hex``) as an attacker and the top unit of ``defender_hex`` as the defender
    in the page's Combat section, and wait for its answer."""
    select_unit(page, attacker_hex, attacker)
    page.click("#add-attack")
    bring_into_view(page, defender_hex)
    page.mouse.click(*hex_point(page, defender_hex))
    picker = page.locator("#stack-picker button").first
    if picker.count():
        picker.click()
    page.click("#add-defend")
    page.wait_for_selector("#combat-result p")


def api(base: str, path: str, data: bytes | None = None, headers: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(base + path, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as err:
        return err.code, json.load(err)

def units_moved(position: Path, units: tuple[str, ...], hex_name: str, out: Path) -> Path:
    """The position file ``position`` with ``units`` moved to ``hex_name``, written to ``out``."""
    data = yaml.safe_load(position.read_text())
    for unit in data["units"]:
        if unit["id"] in units:
            unit["hex"] = hex_name
    out.write_text(yaml.safe_dump(data, sort_keys=False))
    return out


def checked(page, position: Path) -> dict:
    """Open ``position`` with the file picker and click the first violation listed under Check: ``{"listed":
    ["rule: message", ...], "hexes": the hexes outlined then, sorted}``."""
    page.set_input_files("#file-input", str(position))
    page.wait_for_selector('body[data-ready^="upload:"]')
    page.wait_for_selector("#check-result .violation")
    listed = page.eval_on_selector_all("#check-result .violation", "els => els.map(e => e.textContent)")
    page.locator("#check-result .violation").first.click()
    hexes = page.eval_on_selector_all(".layer-check .violation-hex", "els => els.map(e => e.dataset.hex)")
    return {"listed": listed, "hexes": sorted(hexes)}


def rule_text(rule: str, game: str | None = None) -> str:
    """A rule number as the page writes it: with its topic from ``game`` (a bundled game's id or a game folder
    under the repository: its ``rule_topics.yaml``, and its ``rules.yaml``'s citations)."""
    if game is None:
        return rule
    found = load_game(str(ROOT / game)) if "/" in game else load_bundled_game(game)
    topic = found.rule_topics.get(rule)
    return f"{rule} — {topic}" if topic else rule


def check_shown(check: dict, game: str | None = None) -> dict:
    """What :func:`checked` finds for the CLI's ``check --json`` answer ``check`` (of a position of ``game``)."""
    return {"listed": [f"{rule_text(v['rule'], game)}: {v['message']}" for v in check["violations"]],
            "hexes": sorted(check["violations"][0]["hexes"])}


def first_paint(base: str, chromium) -> dict:
    """The page's own timings (Performance API, ms from navigation start): first contentful paint and map-ready
    (the map drawn and the counters placed), and the size of the map SVG."""
    page = open_page(chromium, base + "/")
    timings = page.evaluate("""() => ({
        map_ready_ms: performance.getEntriesByName('map-ready')[0].startTime,
        first_contentful_paint_ms: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime ?? null,
        map_svg_bytes: performance.getEntriesByType('resource').filter(r => r.name.includes('/api/map.svg'))
                         .map(r => r.decodedBodySize)[0] ?? null})""")
    page.context.close()
    return timings


def measure_first_paint(position: str = LARGEST_MAP_POSITION, runs: int = 5) -> dict:
    """First paint of ``position``'s page (default: the largest map, jerusalem-1948), median over ``runs`` fresh
    page loads after one warm-up (the server's first answers compile the map); for scripts/bench.py."""
    import statistics

    with serve(position) as base, browser() as chromium:
        first_paint(base, chromium)
        runs_ = [first_paint(base, chromium) for _ in range(runs)]
    return {"map_ready_ms": statistics.median(r["map_ready_ms"] for r in runs_),
            "first_contentful_paint_ms": statistics.median(r["first_contentful_paint_ms"] or 0 for r in runs_),
            "map_svg_bytes": runs_[-1]["map_svg_bytes"], "runs": runs}

