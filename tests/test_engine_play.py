"""Issue 9: each game's module played in the real VASSAL engine, as a player would.

One engine run per game drives the real PlayerWindow under Xvfb with
java.awt.Robot (``tests/engine``, ``play``): start the scenario, check the map
is docked and showing, drag a counter to another hex, right-click it, flip it,
zoom, save, log moves, take a screenshot.  The toolkit then reads the
engine's own save and logs back.  Screenshots go to ``$TOOLKIT_TEST_ARTIFACTS``
(default: the test's temporary folder).  Skips with the reason when the
engine cannot run (``tests/engine/README.md``).
"""
from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from toolkit.cli import main as toolkit_main
from toolkit.game import PositionFile, load_position, position_from_file
from toolkit.game.module import load_game
from toolkit.games import rule
from toolkit.vassal.design.board import board_layout, hex_centre
from toolkit.vassal.build.module import build_module
from toolkit.vassal.design.piecedefs import MAIN_MAP
from toolkit.vassal.saves.positions import read_position_save, write_position_save

from vassal_engine import vengine  # noqa: E402  (the real-VASSAL driver)

ROOT = Path(__file__).resolve().parent.parent
ACTIONS = ["Delete  Ctrl+D", "Clone  Ctrl+C", "Eliminate  Ctrl+E", "Mark moved  Ctrl+Shift+M"]


@pytest.fixture(scope="module", autouse=True)
def _engine():
    reason = vengine.engine_available()
    if reason is not None:
        pytest.skip(f"VASSAL engine unavailable: {reason}")


def _artifacts(tmp_path: Path) -> Path:
    out = Path(os.environ.get("TOOLKIT_TEST_ARTIFACTS", tmp_path))
    out.mkdir(parents=True, exist_ok=True)
    return out


def _at(game, hexname: str) -> list[int]:
    return list(hex_centre(board_layout(game.map), game.map, game.map.resolve(hexname)))


def _play(module: Path, steps: list[tuple[str, dict]]) -> dict:
    """Run labelled steps in one engine; the results by label (every step must succeed)."""
    r = vengine.play(module, [s for _, s in steps])
    failed = [s for s in r["steps"] if not s["ok"]]
    assert r["ok"] and not failed, json.dumps({"errors": r["errors"], "failed": failed}, indent=1)[:4000]
    assert len(r["steps"]) == len(steps)
    return {label: result for (label, _), result in zip(steps, r["steps"])}


def _step(label: str, op: str, **kw) -> tuple[str, dict]:
    return label, {"op": op, **kw}


def _assert_map_playable(windows: dict) -> None:
    main = next(m for m in windows["windows"]["maps"] if m["name"] == MAIN_MAP)
    assert main["showing"] and main["docked"], main
    assert main["viewport"][0] > 400 and main["viewport"][1] > 300, main


def _assert_setup_pieces_keep_their_actions(result: dict) -> None:
    """A predefined setup's pieces have the palette pieces' traits and right-click actions."""
    slots = {s["gpid"]: s for s in result["slots"]["slots"]}
    for p in result["pieces"]["pieces"]:
        slot = slots[p["gpid"]]
        assert p["menu"] == slot["menu"], (p["name"], p["menu"], slot["menu"])
        assert [t for t in p["traits"] if t != "prototype"][-2:] == ["mark", "piece"]
        assert "prototype" not in p["traits"]  # spliced in, as VASSAL's PieceCloner does


def _legal_and_illegal(position, unit_id: str):
    """A legal destination (the dearest empty one) and an illegal empty hex for a unit."""
    result = rule(position.game, "moves")(position, [unit_id])
    empty = [d for d in result.destinations.values() if not position.at(d.hex)]
    legal = max(empty, key=lambda d: (d.cost, position.game.map.name(d.hex))).hex
    start = position.by_id[unit_id].hex
    far = [h for h in position.game.map.grid.hex_list if h not in result.destinations and not position.at(h)
           and 8 <= h.distance(start) <= 10]
    return legal, sorted(far, key=position.game.map.name)[0]


@pytest.fixture(scope="module")
def jerusalem(tmp_path_factory):
    """Scenario II played: legal move logged, illegal move logged, a flip, a zoom, the engine's save."""
    d = tmp_path_factory.mktemp("jerusalem-play")
    module = build_module("jerusalem-1948", d / "jerusalem-1948.vmod")
    position = load_position(ROOT / "modules/jerusalem-1948/scenarios/scenario-ii.yaml")
    game = position.game
    name = game.map.name
    mover = "j-hgh-7"  # Haganah 4-6 alone in 6421: moves in the overland phase, has a demobilized back
    start = name(position.by_id[mover].hex)
    legal, illegal = _legal_and_illegal(position, mover)
    leader = name(position.by_id["a-kaukji-1"].hex)
    steps = [
        _step("side", "side", name="Arab"),
        _step("new", "new", setup="Scenario II"),
        _step("windows", "windows"),
        _step("slots", "slots"),
        _step("pieces", "pieces", map=MAIN_MAP, props=["counter", "unit", "flags"]),
        _step("turn", "turn"),
        _step("leader", "menu", map=MAIN_MAP, at=_at(game, leader)),
        _step("log1", "log_start"),
        _step("legal", "drag", map=MAIN_MAP, **{"from": _at(game, start), "to": _at(game, name(legal))}),
        _step("log1_end", "log_end", file=str(d / "legal.vlog")),
        _step("menu", "menu", map=MAIN_MAP, at=_at(game, name(legal))),
        _step("flip", "key", map=MAIN_MAP, at=_at(game, name(legal)), key="ctrl F", props=["counter", "unit"]),
        _step("zoom", "zoom", map=MAIN_MAP, dir="out"),
        _step("save", "save", file=str(d / "engine.vsav")),
        _step("refresh", "refresh"),
        _step("refreshed", "pieces", map=MAIN_MAP, props=["counter", "unit", "flags"]),
        _step("log2", "log_start"),
        _step("illegal", "drag", map=MAIN_MAP, **{"from": _at(game, name(legal)), "to": _at(game, name(illegal))}),
        _step("log2_end", "log_end", file=str(d / "illegal.vlog")),
        _step("shot", "screenshot", map=MAIN_MAP, file=str(_artifacts(d) / "jerusalem-1948.png"),
              center=_at(game, name(illegal))),
    ]
    return {"dir": d, "module": module, "position": position, "result": _play(module, steps), "mover": mover,
            "start": start, "legal": name(legal), "illegal": name(illegal)}


def test_jerusalem_map_is_docked_and_pieces_keep_their_actions(jerusalem):
    r = jerusalem["result"]
    _assert_map_playable(r["windows"])
    assert r["new"]["gameStarted"]
    _assert_setup_pieces_keep_their_actions(r)
    on_map = sum(1 for u in jerusalem["position"].units if u.hex is not None)
    assert len(r["pieces"]["pieces"]) == on_map + sum(1 for m in jerusalem["position"].markers if m.hex)


def test_jerusalem_setup_opens_at_the_scenario_turn_and_phase(jerusalem):
    (tracker,) = jerusalem["result"]["turn"]["trackers"]
    assert tracker["turn"] == "May IV Jewish Overland Movement Phase"  # Scenario II: the Jewish overland phase


def test_jerusalem_drag_moves_a_counter_to_the_hex(jerusalem):
    drag = jerusalem["result"]["legal"]
    assert drag["piece"]["name"] == "Haganah 4-6"
    assert drag["after"]["locationName"] == jerusalem["legal"]


def test_jerusalem_right_click_menus(jerusalem):
    r = jerusalem["result"]
    assert r["menu"]["menu"] == ACTIONS + ["Flip  Ctrl+F"]
    assert "Face down / up  Ctrl+M" in r["leader"]["menu"]  # 12.1: an Arab leader, seen by the Arab player
    assert r["leader"]["piece"]["name"].endswith("(Face down)")


def test_jerusalem_flip_and_zoom(jerusalem):
    r = jerusalem["result"]
    assert r["flip"]["changed"] and r["flip"]["after"]["name"] == "Haganah 4-6 (demobilized)"
    assert r["zoom"]["after"] < r["zoom"]["before"]


def test_refresh_counters_keeps_unit_ids_flips_and_masks(jerusalem):
    """Refresh Counters rebuilds every piece from its palette slot; the per-piece values must survive."""
    r = jerusalem["result"]
    before = sorted(p["properties"]["unit"] for p in r["pieces"]["pieces"])
    after = {p["properties"]["unit"]: p for p in r["refreshed"]["pieces"]}  # new piece ids, same units
    assert sorted(after) == before
    assert after[jerusalem["mover"]]["name"] == "Haganah 4-6 (demobilized)"
    assert after[jerusalem["mover"]]["locationName"] == jerusalem["legal"]
    assert after["a-kaukji-1"]["name"].endswith("(Face down)")


def test_the_engines_own_save_reads_back_as_the_game_played(jerusalem):
    """The engine's save of the moved and flipped game: every unit where it is, the flip, turn and phase."""
    pf, unplaced = read_position_save(jerusalem["dir"] / "engine.vsav")
    assert unplaced == []
    position = jerusalem["position"]
    mover = jerusalem["mover"]
    expected = {u.id: (u.hex and position.game.map.name(u.hex), u.box, tuple(sorted(u.flags))) for u in position.units}
    expected[mover] = (jerusalem["legal"], None, ("demobilized",))
    got = {u.id: (u.hex and position.game.map.name(position.game.map.resolve(u.hex)), u.box, tuple(u.flags))
           for u in pf.units}
    assert got == expected
    assert (pf.turn, pf.phasing_side, pf.phase) == ("May IV", "jewish", "overland")


def test_the_engines_save_loads_again_with_every_piece(jerusalem, tmp_path):
    steps = [_step("load", "load", file=str(jerusalem["dir"] / "engine.vsav")),
             _step("pieces", "pieces", map=MAIN_MAP), _step("turn", "turn")]
    r = _play(jerusalem["module"], steps)
    assert len(r["pieces"]["pieces"]) == len(jerusalem["result"]["pieces"]["pieces"])
    moved = [p for p in r["pieces"]["pieces"] if p["locationName"] == jerusalem["legal"]]
    assert [p["name"] for p in moved] == ["Haganah 4-6 (demobilized)"]
    assert r["turn"]["trackers"][0]["turn"] == "May IV Jewish Overland Movement Phase"


def _check(path: Path, capsys) -> tuple[int, dict]:
    code = toolkit_main(["check", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_real_engine_log_with_a_legal_move_passes(jerusalem, capsys):
    code, report = _check(jerusalem["dir"] / "legal.vlog", capsys)
    assert code == 0, report
    assert report["legal"] is True


def test_a_real_engine_log_with_an_illegal_move_is_flagged(jerusalem, capsys):
    code, report = _check(jerusalem["dir"] / "illegal.vlog", capsys)
    assert code == 1
    (bad,) = report["illegal_moves"]
    assert bad["units"] == [jerusalem["mover"]] and bad["to"] == jerusalem["illegal"]
    assert bad["rule"]


def test_face_down_arab_leaders_are_hidden_from_the_jewish_player(jerusalem):
    """12.1: Scenario II's face-down Arab leaders and dummies show the Jewish player only a hidden face."""
    r = _play(jerusalem["module"], [_step("side", "side", name="Jewish"), _step("new", "new", setup="Scenario II"),
                                    _step("pieces", "pieces", map=MAIN_MAP, props=["unit"])])
    position = jerusalem["position"]
    face_down = {u.id for u in position.units if "face_down" in u.flags and u.hex is not None}
    assert len(face_down) >= 4
    for p in r["pieces"]["pieces"]:
        unit = p["properties"]["unit"]
        assert p["obscured"] is (unit in face_down), (unit, p["name"], p["obscured"])
        if unit in face_down:
            assert p["name"] == "Face down" and "Face down / up  Ctrl+M" not in p["menu"]


def test_jerusalem_screenshot_is_written(jerusalem):
    shot = Path(jerusalem["result"]["shot"]["file"])
    assert shot.stat().st_size > 50_000 and jerusalem["result"]["shot"]["size"] == [1280, 1024]


def test_no_prisoners_scenario_plays(tmp_path):
    """Scenario 1: Murray HQ flips to Allenby HQ (19.1); a unit dragged; the engine's save reads back."""
    module = build_module("no-prisoners", tmp_path / "no-prisoners.vmod")
    scenario = load_position(ROOT / "modules/no-prisoners/scenarios/scenario-1.yaml")
    game = scenario.game
    name = game.map.name

    def empty_land_next_to(h, taken=()):
        return next(n for n in game.map.grid.neighbors(h) if n in game.map.hexes and not scenario.at(n)
                    and "sea" not in game.map.hexes[n].terrain and n not in taken)
    murray = scenario.by_id["a-hq-murray"]
    alone = empty_land_next_to(murray.hex)  # under the railhead in the set-up: alone, a click picks it
    position = scenario.moved({"a-hq-murray": replace(murray, hex=alone)})
    write_position_save(position, tmp_path / "start.vsav")
    hq = name(alone)
    unit = next(u for u in position.units if u.hex is not None and len(position.at(u.hex)) == 1
                and u.counter.back is None)
    target = empty_land_next_to(unit.hex, taken={alone})
    setup = _play(module, [_step("side", "side", name="Allied"), _step("new", "new", setup="Scenario 1"),
                           _step("windows", "windows"), _step("slots", "slots"),
                           _step("pieces", "pieces", map=MAIN_MAP), _step("turn", "turn")])
    _assert_map_playable(setup["windows"])
    _assert_setup_pieces_keep_their_actions(setup)
    assert setup["turn"]["trackers"][0]["turn"] == "1916-II Western Allied Random Events Phase"
    steps = [_step("side", "side", name="Allied"), _step("load", "load", file=str(tmp_path / "start.vsav")),
             _step("windows", "windows"), _step("turn", "turn"),
             _step("flip", "key", map=MAIN_MAP, at=_at(game, hq), key="ctrl F"),
             _step("drag", "drag", map=MAIN_MAP, **{"from": _at(game, name(unit.hex)), "to": _at(game, name(target))}),
             _step("save", "save", file=str(tmp_path / "engine.vsav")),
             _step("shot", "screenshot", map=MAIN_MAP, file=str(_artifacts(tmp_path) / "no-prisoners.png"),
                   center=_at(game, hq))]
    r = _play(module, steps)
    _assert_map_playable(r["windows"])
    assert r["turn"]["trackers"][0]["turn"] == "1916-II Western Allied Random Events Phase"
    assert r["flip"]["after"]["name"] == "Allenby HQ"
    assert r["drag"]["after"]["locationName"] == name(target)
    pf, unplaced = read_position_save(tmp_path / "engine.vsav")
    assert unplaced == [] and len(pf.units) == len(position.units)
    back = {u.id: u for u in pf.units}
    assert back["a-hq-murray"].flags == ["flipped"]
    assert game.map.resolve(back[unit.id].hex) == target
    assert (pf.turn, pf.phase, pf.phasing_side) == (position.turn, position.phase, position.phasing_side)


def test_siege_position_plays(tmp_path):
    """A toolkit save on the Siege's region grid: drag, the Disrupted face, the engine's save read back."""
    game = load_game("siege-of-jerusalem")
    module = build_module("siege-of-jerusalem", tmp_path / "siege.vmod")
    cohort = next(c for c in game.manifest.counters if c.back is not None and c.side == "roman")
    a, b, c = "LL27", "KK29", "LL30"
    pf = PositionFile(game=game.spec.id, turn=game.spec.turns[0], phase="movement", phasing_side="roman",
                      units=[{"id": "r1", "counter": cohort.id, "hex": a},
                             {"id": "r2", "counter": cohort.id, "hex": b, "flags": ["disrupted"]},
                             {"id": "r3", "counter": cohort.id, "box": "reserves"}])
    write_position_save(position_from_file(pf), tmp_path / "start.vsav")
    steps = [_step("side", "side", name=game.spec.sides[0].name),
             _step("load", "load", file=str(tmp_path / "start.vsav")), _step("windows", "windows"),
             _step("turn", "turn"),
             _step("drag", "drag", map=MAIN_MAP, **{"from": _at(game, a), "to": _at(game, c)}),
             _step("menu", "menu", map=MAIN_MAP, at=_at(game, c)),
             _step("flip", "key", map=MAIN_MAP, at=_at(game, b), key="ctrl F"),
             _step("save", "save", file=str(tmp_path / "engine.vsav")),
             _step("shot", "screenshot", map=MAIN_MAP, file=str(_artifacts(tmp_path) / "siege-of-jerusalem.png"),
                   center=_at(game, c))]
    r = _play(module, steps)
    _assert_map_playable(r["windows"])
    assert r["turn"]["trackers"][0]["turn"] == f"{game.spec.turns[0]} Roman Movement Phase"
    assert r["drag"]["after"]["locationName"] == c
    assert "Flip  Ctrl+F" in r["menu"]["menu"]
    back, unplaced = read_position_save(tmp_path / "engine.vsav")
    assert unplaced == []
    assert {u.id: (u.hex, u.box, u.flags) for u in back.units} == {
        "r1": (c, None, []), "r2": (b, None, []), "r3": (None, "reserves", [])}
