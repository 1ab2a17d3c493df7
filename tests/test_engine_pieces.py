"""Issue 21 (pieces): each point played in the real VASSAL engine with the mouse and keys.

* Markers lie in their own layer below the units and never stack: a Robot right-click on a stack under a
  marker opens the unit's menu and Ctrl+F flips the unit (No Prisoners' Allied Railhead over Murray HQ,
  the Siege's Testudo and Ladder over cohorts, and every marker of each game under a counter).
* Reinforcements wait on the turn record track, each in its arrival turn's box, and read back with their turn.
* Next on the turn tracker moves the turn marker to the new turn.
* A Siege engine turns one hexside a step; the engine's save reads back with the new facing.
* An engine save keeps the scenario and its parameters.

Screenshots (``$TOOLKIT_TEST_ARTIFACTS``, default the test's folder): a stack under a marker, and the turn
record track with reinforcements.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from toolkit.game import PositionFile, load_position, position_from_file
from toolkit.game.module import load_game
from toolkit.vassal.build.module import build_module
from toolkit.vassal.design.gameprops import read_properties
from toolkit.vassal.design.piecedefs import BOXES_MAP, MAIN_MAP, TURN_ZONE
from toolkit.vassal.saves.positions import read_position_save, write_position_save
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
    qantara = _at(game, "0409")
    steps = [_step("side", "side", name="Allies"), _step("new", "new", setup="Scenario 1"),
             _step("boxes", "pieces", map=BOXES_MAP, props=["unit", "marker"]),
             _step("track_shot", "screenshot", map=BOXES_MAP, center=None,
                   file=str(_artifacts(d) / "no-prisoners-turn-track.png")),
             _step("save", "save", file=str(d / "engine.vsav")),
             *_nexts(len(game.spec.phases) - game.spec.phases.index(position.phase)),
             _step("after_next", "pieces", map=BOXES_MAP, props=["marker"])]
    clicks = [_step("side", "side", name="Allies"), _step("load", "load", file=str(d / "murray-on-top.vsav")),
              _step("menu", "menu", map=MAIN_MAP, at=qantara),
              _step("flip", "key", map=MAIN_MAP, at=qantara, key="ctrl F"),
              _step("stack_shot", "screenshot", map=MAIN_MAP, center=qantara,
                    file=str(_artifacts(d) / "no-prisoners-stack-under-railhead.png"))]
    return {"dir": d, "position": position, "result": _play(module, steps) | _play(module, clicks)}


def test_a_click_on_a_stack_under_a_marker_reaches_its_unit(no_prisoners):
    """0409: the Allied Railhead under Murray HQ: right-click gives the HQ's menu, Ctrl+F flips it to Allenby
    HQ (19.1)."""
    r = no_prisoners["result"]
    assert r["menu"]["piece"]["name"] == "Murray HQ", r["menu"]["piece"]
    assert "Flip  Ctrl+F" in r["menu"]["menu"], r["menu"]["menu"]
    assert r["flip"]["after"]["name"] == "Allenby HQ", r["flip"]


def test_markers_lie_below_the_units_and_never_stack(no_prisoners):
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


def test_siege_markers_never_take_a_cohorts_click_and_engines_turn(tmp_path):
    """The Testudo (BB19) and Ladder (Z22) markers over cohorts; the ram in CC19 turned one hexside clockwise."""
    position = load_position(ROOT / "modules/siege-of-jerusalem/scenarios/demonstration.yaml")
    game = position.game
    module = build_module("siege-of-jerusalem", tmp_path / "siege.vmod")
    testudo, ladder, ram = (_at(game, h) for h in ("BB19", "Z22", "CC19"))
    r = _play(module, [
        _step("side", "side", name=game.spec.sides[0].name), _step("new", "new", setup="Demonstration"),
        _step("testudo", "menu", map=MAIN_MAP, at=testudo),
        _step("flip", "key", map=MAIN_MAP, at=testudo, key="ctrl F"),
        _step("ladder", "menu", map=MAIN_MAP, at=ladder),
        _step("ram_menu", "menu", map=MAIN_MAP, at=ram),
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


def test_jerusalem_engine_save_keeps_the_set_up_rolls(tmp_path):
    """Scenario II's set-up rolls and scenario survive a save made in VASSAL; Next to June I moves the date."""
    position = load_position(ROOT / "modules/jerusalem-1948/scenarios/scenario-ii.yaml")
    spec = position.game.spec
    module = build_module("jerusalem-1948", tmp_path / "jerusalem.vmod")
    per_turn = len(spec.phases) * len(spec.player_turns)
    r = _play(module, [_step("side", "side", name="Arab"), _step("new", "new", setup="Scenario II"),
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
        steps += [_step(f"menu {m}", "menu", map=MAIN_MAP, at=_at(game, h)),
                  _step(f"flip {m}", "key", map=MAIN_MAP, at=_at(game, h), key="ctrl F")]
    r = _play(module, steps)
    for m in markers:
        assert r[f"menu {m}"]["piece"]["name"] == counter.name, (m, r[f"menu {m}"]["piece"])
        assert "Flip  Ctrl+F" in r[f"menu {m}"]["menu"], (m, r[f"menu {m}"]["menu"])
        assert r[f"flip {m}"]["after"]["name"] == (counter.back_name or counter.name), (m, r[f"flip {m}"])
        assert r[f"flip {m}"]["changed"], (m, r[f"flip {m}"])
