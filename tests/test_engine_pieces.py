"""Issue 21 (pieces): each point played in the real VASSAL engine with the mouse and keys.

* Markers lie in their own layer above the units and never stack; a save puts a marker up-right of the stack
  in its hex, so a Robot right-click on the stack's lower-left corner opens the unit's menu and Ctrl+F flips
  the unit (No Prisoners' Allied Railhead on Murray HQ, the Siege's Testudo and Ladder on cohorts, and every
  marker of each game on a counter).
* Issue 35: a marker dragged onto a unit lies on top, is right-clicked and dragged off again; the mouse-over
  viewer draws a lone counter, a stack with its marker, and names an empty hex.
* Reinforcements wait on the turn record track, each in its arrival turn's box, and read back with their turn.
  Issue 35: the Boxes window's mouse-over over one with entry hexes names them (Jerusalem!'s May IV arrivals).
* Next on the turn tracker moves the turn marker to the new turn.
* A Siege engine turns one hexside a step; the engine's save reads back with the new facing; one facing south is
  upside down on the map and upright in the mouse-over viewer (issue 35: its face found pixel for pixel in each).
* An engine save keeps the scenario and its parameters.

Screenshots (``$TOOLKIT_TEST_ARTIFACTS``, default the test's folder): a stack under a marker, the turn record
track with reinforcements, the mouse-over over arrivals with their entry hexes, a ram upright in the viewer.
"""
from __future__ import annotations

import io
import zipfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from toolkit.game import PositionFile, load_position, position_from_file
from toolkit.game.module import load_game
from toolkit.vassal.build.module import build_module
from toolkit.vassal.design.counters import counter_image_name
from toolkit.vassal.design.gameprops import read_properties
from toolkit.vassal.design.piecedefs import BOXES_MAP, MAIN_MAP, TURN_ZONE
from toolkit.vassal.saves.positions import MARKER_OFFSET, read_position_save, write_position_save
from toolkit.vassal.saves.savefile import read_save

from test_engine_play import ROOT, _artifacts, _at, _play, _step
from vassal_engine import vengine  # noqa: E402  (the real-VASSAL driver)


@pytest.fixture(scope="module", autouse=True)
def _engine():
    reason = vengine.engine_available()
    if reason is not None:
        pytest.skip(f"VASSAL engine unavailable: {reason}")


def _nexts(count: int) -> list[tuple[str, dict]]:
    """``count`` clicks on the turn tracker's Next, labelled ``next00`` ... in order."""
    return [_step(f"next{i:02d}", "turn", next=True) for i in range(count)]


@pytest.fixture(scope="module")
def no_prisoners(tmp_path_factory):
    """Scenario 1 from File > New Game: the boxes map read, a screenshot of the turn track, the engine's save,
    the tracker advanced to the next turn; then (a second engine run) the set-up with Murray HQ on top of its
    stack under the Allied Railhead (0409) loaded, the stack right-clicked and flipped."""
    d = tmp_path_factory.mktemp("no-prisoners-pieces")
    module = build_module("no-prisoners", d / "no-prisoners.vmod")
    position = load_position(ROOT / "modules/no-prisoners/scenarios/scenario-1.yaml")
    game = position.game
    murray = position.by_id["a-hq-murray"]
    on_top = replace(position, units=tuple(u for u in position.units if u is not murray) + (murray,))
    write_position_save(on_top, d / "murray-on-top.vsav")
    qantara, kalaat = _at(game, "0409"), _at(game, "0711")
    railhead = [qantara[0] + MARKER_OFFSET[0], qantara[1] + MARKER_OFFSET[1]]
    steps = [_step("side", "side", name="Allies"), _step("new", "new", setup="Scenario 1"),
             _step("boxes", "pieces", map=BOXES_MAP, props=["unit", "marker"]),
             _step("track_shot", "screenshot", map=BOXES_MAP, center=None,
                   file=str(_artifacts(d) / "no-prisoners-turn-track.png")),
             _step("save", "save", file=str(d / "engine.vsav")),
             *_nexts(len(game.spec.phases) - game.spec.phases.index(position.phase)),
             _step("after_next", "pieces", map=BOXES_MAP, props=["marker"])]
    clicks = [_step("side", "side", name="Allies"), _step("load", "load", file=str(d / "murray-on-top.vsav")),
              _step("menu", "menu", map=MAIN_MAP, at=vengine.counter_corner(qantara)),
              _step("flip", "key", map=MAIN_MAP, at=vengine.counter_corner(qantara), key="ctrl F"),
              _step("tiles", "sleep", seconds=4),
              _step("stack_shot", "screenshot", map=MAIN_MAP, center=qantara,
                    file=str(_artifacts(d) / "no-prisoners-railhead-on-a-stack.png")),
              _step("hover_stack", "hover", map=MAIN_MAP, at=qantara,
                    file=str(_artifacts(d) / "no-prisoners-hover-railhead-and-stack.png")),
              _step("hover_lone", "hover", map=MAIN_MAP, at=kalaat,
                    file=str(_artifacts(d) / "no-prisoners-hover-lone-counter.png")),
              _step("hover_empty", "hover", map=MAIN_MAP, at=_at(game, "1506"),
                    file=str(_artifacts(d) / "no-prisoners-hover-empty-hex.png")),
              _step("hover_entry", "hover", map=MAIN_MAP, at=_at(game, "0110"),
                    file=str(_artifacts(d) / "no-prisoners-hover-allied-entry.png")),
              _step("drop", "drag", map=MAIN_MAP, **{"from": railhead, "to": kalaat}),
              _step("dropped_menu", "menu", map=MAIN_MAP, at=kalaat),
              _step("hover_dropped", "hover", map=MAIN_MAP, at=kalaat,
                    file=str(_artifacts(d) / "no-prisoners-railhead-dropped-on-a-unit.png")),
              _step("grab", "drag", map=MAIN_MAP, **{"from": kalaat, "to": _at(game, "1506")}),
              _step("left", "pieces", map=MAIN_MAP, props=["unit", "marker"])]
    return {"dir": d, "position": position, "result": _play(module, steps) | _play(module, clicks)}


def test_a_click_on_a_stack_under_a_marker_reaches_its_unit(no_prisoners):
    """0409: the Allied Railhead under Murray HQ: right-click gives the HQ's menu, Ctrl+F flips it to Allenby
    HQ (19.1)."""
    r = no_prisoners["result"]
    assert r["menu"]["piece"]["name"] == "Murray HQ", r["menu"]["piece"]
    assert "Flip  Ctrl+F" in r["menu"]["menu"], r["menu"]["menu"]
    assert r["flip"]["after"]["name"] == "Allenby HQ", r["flip"]


def test_a_marker_dropped_on_a_unit_stays_visible_and_can_be_grabbed(no_prisoners):
    """Issue 35: the Allied Railhead dragged onto the lone Syrian Camel Corps Group (0711) lies on top of it -- a
    right-click there reaches the marker, the mouse-over draws both -- and is dragged off again, the unit
    staying where it was."""
    r = no_prisoners["result"]
    assert r["drop"]["after"]["locationName"] == "0711", r["drop"]["after"]
    assert r["dropped_menu"]["piece"]["name"] == "Allied Railhead", r["dropped_menu"]["piece"]
    assert r["hover_dropped"]["viewer"] == ["Syrian Camel Corps Grp", "Allied Railhead"], r["hover_dropped"]
    assert r["grab"]["piece"]["name"] == "Allied Railhead" and r["grab"]["after"]["locationName"] == "1506"
    where = {p["name"]: p["locationName"] for p in r["left"]["pieces"]}
    assert where["Syrian Camel Corps Grp"] == "0711" and where["Allied Railhead"] == "1506"


def test_the_mouse_over_names_a_lone_counter_a_marker_and_an_empty_hex(no_prisoners):
    """Issue 35, docs/vassal.md: over a lone counter at 100 % the viewer draws it; over the Railhead on Murray's
    stack it draws the stack and the marker; over an empty hex it writes the hex's name."""
    r = no_prisoners["result"]
    assert r["hover_lone"]["viewer"] == ["Syrian Camel Corps Grp"] and r["hover_lone"]["viewerText"], r["hover_lone"]
    assert r["hover_lone"]["viewerSummary"] == "0711 Kalaat (Desert, Town)", r["hover_lone"]
    assert r["hover_stack"]["viewer"][-1] == "Allied Railhead", r["hover_stack"]["viewer"]
    assert "Allenby HQ" in r["hover_stack"]["viewer"], r["hover_stack"]["viewer"]
    assert r["hover_empty"]["viewer"] == [] and r["hover_empty"]["viewerText"], r["hover_empty"]
    assert r["hover_empty"]["locationName"] == "1506"


def test_the_map_shows_where_reinforcements_enter(no_prisoners):
    """Issue 35: 0110, on the western map edge in Egypt, is an Allied Western entry hex (6.3 A): the mouse-over
    over it names the area (the board shows a red arrow in the hex: screenshot)."""
    r = no_prisoners["result"]["hover_entry"]
    assert r["locationName"] == "0110" and r["zone"].endswith("Allied Western entry (6.3 A)"), r
    assert r["viewer"] == [] and r["viewerText"], r


def test_markers_lie_above_the_units_and_never_stack(no_prisoners):
    pieces = no_prisoners["result"]["new"]
    r = no_prisoners["result"]["boxes"]["pieces"]
    markers = [p for p in r if p["properties"].get("marker")]
    assert markers and all(p["stack"] is None for p in markers), markers[:3]
    assert pieces["pieces"] > 0


def test_reinforcements_wait_in_their_turns_box(no_prisoners):
    position = no_prisoners["position"]
    where = {p["properties"].get("unit"): p["locationName"] for p in no_prisoners["result"]["boxes"]["pieces"]}
    arriving = [u for u in position.units if u.arrives and u.box == "reinforcements"]
    assert len(arriving) > 30
    for u in arriving:
        assert where[u.id] == TURN_ZONE.format(u.arrives), u.id
    assert where["a-60-div"] == "Turn 1917-II"


def test_next_moves_the_turn_marker(no_prisoners):
    r = no_prisoners["result"]
    spec = no_prisoners["position"].game.spec
    last = max(k for k in r if k.startswith("next"))
    new_turn = spec.turns[spec.turns.index(no_prisoners["position"].turn) + 1]
    assert r[last]["trackers"][0]["turnAfter"].startswith(new_turn)
    turn_marker = next(p for p in r["after_next"]["pieces"] if p["properties"].get("marker") == "turn")
    assert turn_marker["locationName"] == TURN_ZONE.format(new_turn)


def test_the_engines_save_keeps_arrivals_scenario_and_params(no_prisoners):
    position = no_prisoners["position"]
    save = read_save(no_prisoners["dir"] / "engine.vsav")
    assert read_properties(save.other) == {"scenario": "1", "params": position.params}  # the engine wrote them
    pf, unplaced = read_position_save(no_prisoners["dir"] / "engine.vsav")
    assert unplaced == []
    assert pf.scenario == position.scenario == "1"
    assert pf.params == position.params
    back = {u.id: u for u in pf.units}
    for u in position.units:
        assert back[u.id].turn == u.arrives and back[u.id].box == u.box, u.id


def test_screenshots_are_written(no_prisoners):
    for label in ("stack_shot", "track_shot"):
        shot = no_prisoners["result"][label]
        assert Path(shot["file"]).stat().st_size > 10_000 and shot["size"][0] > 300
    _assert_painted(Path(no_prisoners["result"]["stack_shot"]["file"]))   # Port Said and Qantara read


def _seen(shot: Path, face: Image.Image, turn: int = 0) -> int:
    """How often the middle half of a counter ``face``, turned ``turn`` degrees, appears pixel for pixel in the
    screenshot ``shot`` (the engine draws a piece at 100 % with the image's own pixels)."""
    a = np.asarray((face.rotate(turn) if turn else face).convert("RGB")).astype(np.int16)
    h, w = a.shape[:2]
    patch = a[h // 4: 3 * h // 4, w // 4: 3 * w // 4]
    s = np.asarray(Image.open(shot).convert("RGB")).astype(np.int16)
    ph, pw = patch.shape[:2]
    ys, xs = np.nonzero((s[:s.shape[0] - ph, :s.shape[1] - pw] == patch[0, 0]).all(axis=2))
    return sum(bool((s[y:y + ph, x:x + pw] == patch).all()) for y, x in zip(ys, xs))


def test_siege_markers_never_take_a_cohorts_click_and_engines_turn(tmp_path):
    """The Testudo (BB19) and Ladder (Z22) markers over cohorts; the ram in CC19 turned one hexside clockwise.
    Issue 35: the ram facing south lies upside down on the map, the mouse-over viewer draws it upright."""
    position = load_position(ROOT / "modules/siege-of-jerusalem/scenarios/demonstration.yaml")
    game = position.game
    module = build_module("siege-of-jerusalem", tmp_path / "siege.vmod")
    testudo, ladder, ram = (_at(game, h) for h in ("BB19", "Z22", "CC19"))
    r = _play(module, [
        _step("side", "side", name=game.spec.sides[0].name), _step("new", "new", setup="Demonstration"),
        _step("testudo", "menu", map=MAIN_MAP, at=vengine.counter_corner(testudo)),
        _step("flip", "key", map=MAIN_MAP, at=vengine.counter_corner(testudo), key="ctrl F"),
        _step("ladder", "menu", map=MAIN_MAP, at=vengine.counter_corner(ladder)),
        _step("ram_menu", "menu", map=MAIN_MAP, at=ram),
        _step("ram_shot", "screenshot", map=MAIN_MAP, center=ram,
              file=str(_artifacts(tmp_path) / "siege-ram-facing-south.png")),
        _step("ram_hover", "hover", map=MAIN_MAP, at=ram,
              file=str(_artifacts(tmp_path) / "siege-hover-ram-upright.png")),
        _step("turn_ram", "key", map=MAIN_MAP, at=ram, key="ctrl CLOSE_BRACKET"),
        _step("save", "save", file=str(tmp_path / "engine.vsav")),
        _step("shot", "screenshot", map=MAIN_MAP, center=testudo,
              file=str(_artifacts(tmp_path) / "siege-testudo-over-cohorts.png"))])
    for label in ("testudo", "ladder"):
        assert "Flip  Ctrl+F" in r[label]["menu"], (label, r[label]["piece"], r[label]["menu"])
        assert r[label]["piece"]["properties"].get("marker") in (None, ""), r[label]["piece"]
    assert r["flip"]["changed"], r["flip"]
    assert any(m.startswith("Turn clockwise") for m in r["ram_menu"]["menu"]), r["ram_menu"]["menu"]
    back, unplaced = read_position_save(tmp_path / "engine.vsav")
    assert unplaced == []
    flags = {u.id: set(u.flags) for u in back.units}
    assert "facing_sw" in flags["r-x-ram"] and "facing_s" not in flags["r-x-ram"]  # s, one hexside clockwise
    assert "facing_nw" in flags["r-xv-ram"]  # untouched
    assert back.scenario == position.scenario
    with zipfile.ZipFile(module) as z:
        face = Image.open(io.BytesIO(z.read(f"images/{counter_image_name(position.by_id['r-x-ram'].counter.id)}")))
    on_map, hover = Path(r["ram_shot"]["file"]), Path(r["ram_hover"]["file"])
    assert (_seen(on_map, face), _seen(on_map, face, 180)) == (0, 1)   # on the map: facing south, upside down
    assert r["ram_hover"]["viewer"][-1] == "X Ram" and _seen(hover, face) == 1   # in the viewer: upright


def test_jerusalem_engine_save_keeps_the_set_up_rolls(tmp_path):
    """Scenario II's set-up rolls and scenario survive a save made in VASSAL; Next to June I moves the date."""
    position = load_position(ROOT / "modules/jerusalem-1948/scenarios/scenario-ii.yaml")
    spec = position.game.spec
    module = build_module("jerusalem-1948", tmp_path / "jerusalem.vmod")
    per_turn = len(spec.phases) * len(spec.player_turns)
    mahane_yehuda = _at(position.game, "Mahane Yehuda")
    r = _play(module, [_step("side", "side", name="Arab"), _step("new", "new", setup="Scenario II"),
                       _step("tiles", "sleep", seconds=6),   # the board's tiles are painted while the engine idles
                       _step("place_shot", "screenshot", map=MAIN_MAP, center=mahane_yehuda,
                             file=str(_artifacts(tmp_path) / "jerusalem-mahane-yehuda-over-the-jewish-hq.png")),
                       *_nexts(per_turn),
                       _step("boxes", "pieces", map=BOXES_MAP, props=["marker", "unit"]),
                       _step("save", "save", file=str(tmp_path / "engine.vsav"))])
    new_turn = spec.turns[spec.turns.index(position.turn) + 1]
    date = next(p for p in r["boxes"]["pieces"] if p["properties"].get("marker") == "date")
    assert date["locationName"] == TURN_ZONE.format(new_turn)
    arriving = [p for p in r["boxes"]["pieces"] if (p["properties"].get("unit") or "").startswith("a-eef")]
    assert {p["locationName"] for p in arriving} == {TURN_ZONE.format(position.turn)}
    back, unplaced = read_position_save(tmp_path / "engine.vsav")
    assert unplaced == []
    assert (back.scenario, back.params) == ("II", {"haganah_roll": 1, "mufti_roll": 1})
    assert back.turn == new_turn
    _assert_painted(Path(r["place_shot"]["file"]))   # Mahane Yehuda's name reads over the six counters of 5924


def _assert_painted(shot: Path) -> None:
    """The map in a screenshot has its board drawn (the engine paints a board's tiles some time after a game
    starts: a screenshot taken before shows the counters on white)."""
    view = Image.open(shot).convert("RGB").crop((0, 240, 1000, 900))
    white = sum(n for n, c in view.getcolors(1 << 20) if c == (255, 255, 255))
    assert white < view.width * view.height // 10, (shot, white)


def test_jerusalem_reinforcements_say_where_they_enter(tmp_path):
    """Issue 35: Scenario II's May IV arrivals wait in the May IV box of the turn record track; the Boxes window's
    mouse-over over each names its entry hexes, as the scenario gives them (3.3, 14.1): the Egyptian
    Expeditionary Force at Kfar Etzion, the 7th Brigade on its halftracks at Hulda or the Tel Aviv road."""
    position = load_position(ROOT / "modules/jerusalem-1948/scenarios/scenario-ii.yaml")
    save = tmp_path / "scenario-ii.vsav"
    write_position_save(position, save)
    at = {p.properties.get("unit") or p.properties.get("marker"): [p.x, p.y]
          for p in read_save(save).pieces if p.map == BOXES_MAP}
    module = build_module("jerusalem-1948", tmp_path / "jerusalem.vmod")
    r = _play(module, [_step("side", "side", name="Arab"), _step("load", "load", file=str(save)),
                       _step("eef", "hover", map=BOXES_MAP, at=at["a-eef-1"],
                             file=str(_artifacts(tmp_path) / "jerusalem-hover-eef-enters.png")),
                       _step("brigade", "hover", map=BOXES_MAP, at=at["j-ht-2"],
                             file=str(_artifacts(tmp_path) / "jerusalem-hover-7th-brigade-enters.png")),
                       _step("date", "hover", map=BOXES_MAP, at=at["date"],
                             file=str(_artifacts(tmp_path) / "jerusalem-hover-date.png"))])
    assert r["eef"]["viewerSummary"] == "Turn May IV (enters at 4247 Kfar Etzion)", r["eef"]
    assert r["brigade"]["viewerSummary"] == "Turn May IV (enters at 0215 Hulda or 0102 to Tel Aviv)", r["brigade"]
    assert r["brigade"]["viewer"][0] == "Halftrack 2-10" and "7th Brigade 4-6" in r["brigade"]["viewer"]
    assert r["date"]["viewerSummary"] == "Turn May IV ", r["date"]   # a marker: no entry


@pytest.mark.parametrize("game_id", ["no-prisoners", "jerusalem-1948", "siege-of-jerusalem"])
def test_no_marker_kind_takes_a_click_meant_for_a_unit(game_id, tmp_path):
    """Every marker of the game on a hex of its own under a counter with a back: the right-click opens the
    counter's menu and Ctrl+F flips the counter."""
    game = load_game(game_id)
    counter = next(c for c in game.manifest.counters if c.back is not None)
    markers = [m.id for m in game.manifest.markers]
    hexes = sorted(game.map.hexes, key=lambda h: (h.r, h.q))
    step = len(hexes) // (len(markers) + 1)
    places = [game.map.name(hexes[step * (i + 1)]) for i in range(len(markers))]
    pf = PositionFile(game=game_id, turn=game.spec.turns[0], phase=game.spec.phases[0],
                      phasing_side=game.spec.sides[0].id,
                      units=[{"id": f"u{i}", "counter": counter.id, "hex": h} for i, h in enumerate(places)],
                      markers=[{"marker": m, "hex": h} for m, h in zip(markers, places)])
    position = position_from_file(pf)
    write_position_save(position, tmp_path / "markers.vsav")
    module = build_module(game_id, tmp_path / "module.vmod")
    steps = [_step("side", "side", name=game.spec.sides[0].name),
             _step("load", "load", file=str(tmp_path / "markers.vsav"))]
    for m, h in zip(markers, places):
        steps += [_step(f"menu {m}", "menu", map=MAIN_MAP, at=vengine.counter_corner(_at(game, h))),
                  _step(f"flip {m}", "key", map=MAIN_MAP, at=vengine.counter_corner(_at(game, h)), key="ctrl F")]
    r = _play(module, steps)
    for m in markers:
        assert r[f"menu {m}"]["piece"]["name"] == counter.name, (m, r[f"menu {m}"]["piece"])
        assert "Flip  Ctrl+F" in r[f"menu {m}"]["menu"], (m, r[f"menu {m}"]["menu"])
        assert r[f"flip {m}"]["after"]["name"] == (counter.back_name or counter.name), (m, r[f"flip {m}"])
        assert r[f"flip {m}"]["changed"], (m, r[f"flip {m}"])
