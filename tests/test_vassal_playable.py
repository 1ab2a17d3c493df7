"""Issue 9, the Python side: modules a player can use and saves that keep the whole game.

The engine side (drag, right-click, flip, load, screenshots) is in
``tests/test_engine_play.py``; these tests check what the toolkit writes and
reads without the engine.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from lxml import etree

from toolkit.game import load_position
from toolkit.game.module import load_game
from toolkit.vassal.design.board import board_layout, vassal_location, vassal_snap
from toolkit.vassal.build.buildfile import setup_title
from toolkit.vassal.build.module import module_files, zip_bytes
from toolkit.vassal.design.piecedefs import BOXES_MAP, MAIN_MAP, counter_def, expanded, piece_gpids
from toolkit.vassal.saves.positions import MARKER_OFFSET, ModuleLayout, contents_to_position, position_save
from toolkit.vassal.saves.savefile import read_save
from toolkit.vassal.build.validate import validate_module

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted(ROOT.glob("modules/*/scenarios/*.yaml"))


def _save(pos, tmp_path: Path):
    path = tmp_path / "s.vsav"
    data, omitted = position_save(pos)
    path.write_bytes(data)
    save = read_save(path)
    return save, omitted


def _units(game, units):
    """Units of a position or a position file, comparable: counter, place, flags, carrier, MP spent, arrival
    turn and entry hexes."""
    name = lambda h: None if h is None else game.map.name(game.map.resolve(h) if isinstance(h, str) else h)
    return {u.id: (u.counter if isinstance(u.counter, str) else u.counter.id, name(u.hex), u.box,
                   tuple(sorted(u.flags)), u.carried_by, u.spent, getattr(u, "arrives", getattr(u, "turn", None)),
                   tuple(name(h) for h in u.entry)) for u in units}


def _markers(game, markers):
    name = lambda h: None if h is None else game.map.name(game.map.resolve(h) if isinstance(h, str) else h)
    return sorted((m.marker, name(m.hex), m.box, m.turn, None if m.value is None else str(m.value), name(m.toward))
                  for m in markers)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_save_keeps_the_whole_position(path, tmp_path):
    """Every unit (boxes, arrival turns and facings included) and marker; turn, phase and phasing side from the
    tracker alone, scenario and parameters from the module's global properties alone."""
    pos = load_position(path)
    save, omitted = _save(pos, tmp_path)
    assert omitted == []
    save.savedata = {}  # what an engine-written save keeps of ours: nothing; the tracker must carry it
    pf, unplaced = contents_to_position(save, pos.game)
    assert unplaced == []
    assert (pf.turn, pf.phase, pf.phasing_side) == (pos.turn, pos.phase, pos.phasing_side)
    assert (pf.scenario, pf.params) == (pos.scenario, pos.params)
    assert _units(pos.game, pf.units) == _units(pos.game, pos.units)
    assert _markers(pos.game, pf.markers) == _markers(pos.game, pos.markers)
    assert any(u.box for u in pos.units)  # the scenarios do have units in boxes


def test_boxes_and_tracks_hold_what_the_scenario_puts_there(tmp_path):
    pos = load_position(ROOT / "modules/jerusalem-1948/scenarios/scenario-ii.yaml")
    save, _ = _save(pos, tmp_path)
    on_boxes = [p for p in save.pieces if p.map == BOXES_MAP]
    assert len(on_boxes) == sum(1 for u in pos.units if u.box) + 2  # + the date and phase markers
    # a carried unit shares its carrier's slot: same point, one stack
    by_unit = {p.properties["unit"]: (p.x, p.y) for p in on_boxes if "unit" in p.properties}
    assert by_unit["j-7bde-1"] == by_unit["j-7bde-2"] == by_unit["j-ht-2"] != by_unit["j-ht-3"]


@pytest.mark.parametrize("game_id, counter, flag, state_kind, state", [
    ("jerusalem-1948", "hgh-4-6", "demobilized", "emb2", "2"),          # 6.5.1 b: the demobilized back
    ("jerusalem-1948", "kaukji", "face_down", "obs", "Arab;"),           # 12.1: placed face down by the Arabs
    ("no-prisoners", "a-hq-murray", "flipped", "emb2", "2"),             # 19.1: Murray's back is Allenby
])
def test_flips_and_masks_cross_both_ways(game_id, counter, flag, state_kind, state, tmp_path):
    pos = load_position(next(ROOT.glob(f"modules/{game_id}/scenarios/*.yaml")))
    game = pos.game
    assert counter in game.counters, counter
    unit = next((u for u in pos.units if u.counter.id == counter and u.hex is not None), None)
    if unit is None:
        pytest.fail(f"no {counter} on the map in {game_id}'s first scenario")
    for showing in (True, False):
        flags = (unit.flags | {flag}) if showing else (unit.flags - {flag})
        moved = replace(pos, units=tuple(replace(u, flags=frozenset(flags)) if u.id == unit.id else u
                                         for u in pos.units))
        save, _ = _save(moved, tmp_path)
        piece = next(p for p in save.pieces if p.properties.get("unit") == unit.id)
        expected = state if showing else {"emb2": "1", "obs": "null;"}[state_kind]
        assert piece.trait_state(state_kind) == expected
        assert flag not in piece.properties["flags"].split("|")  # shown by the face, not a property
        pf, _ = contents_to_position(save, game)
        back = next(u for u in pf.units if u.id == unit.id)
        assert (flag in back.flags) is showing


def test_siege_disrupted_face_crosses(tmp_path):
    game = load_game("siege-of-jerusalem")
    c = next(c for c in game.manifest.counters if c.back is not None)
    hexes = game.map.grid.hex_list
    from toolkit.game import PositionFile, position_from_file
    pf = PositionFile(game=game.spec.id, turn=game.spec.turns[0], phase=game.spec.phases[0],
                      phasing_side=game.spec.sides[0].id,
                      units=[{"id": "a", "counter": c.id, "hex": game.map.name(hexes[500]), "flags": ["disrupted"]},
                             {"id": "b", "counter": c.id, "hex": game.map.name(hexes[900])}])
    pos = position_from_file(pf)
    save, _ = _save(pos, tmp_path)
    assert sorted(p.trait_state("emb2") for p in save.pieces) == ["1", "2"]
    back, _ = contents_to_position(save, game)
    assert {u.id: u.flags for u in back.units} == {"a": ["disrupted"], "b": []}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_saved_pieces_have_the_palette_pieces_traits(path, tmp_path):
    """A piece of a save or predefined setup is the palette piece with its prototypes spliced in (PieceCloner)."""
    pos = load_position(path)
    game = pos.game
    gpids = piece_gpids(game)
    save, _ = _save(pos, tmp_path)
    for p in save.pieces:
        cid = p.properties.get("counter")
        if cid is None:
            continue
        palette = expanded(game, counter_def(game, game.counters[cid], gpids[cid]).traits)
        assert [t.type for t in p.traits] == [t.type for t in palette], cid
        assert p.gpid == gpids[cid]
        assert {"Delete", "Clone", "Eliminate"} <= {t.type.split(";")[1] for t in p.traits if t.kind in
                                                     ("delete", "clone", "sendto")}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_pieces_sit_where_vassal_snaps_a_dropped_counter(path, tmp_path):
    """VASSAL truncates fractional hex centres: a saved stack and a dropped counter must meet at one pixel.
    Markers lie a little off it (their corner shows beside the stack), in the same hex."""
    pos = load_position(path)
    board = board_layout(pos.game.map)
    save, _ = _save(pos, tmp_path)
    main = [p for p in save.pieces if p.map == MAIN_MAP]
    assert main
    for p in main:
        dx, dy = MARKER_OFFSET if "marker" in p.properties else (0, 0)
        x, y = p.x - dx, p.y - dy
        assert vassal_snap(board, x, y) == (x, y) == vassal_snap(board, p.x, p.y)
        for dx, dy in ((3, 2), (-4, 1), (2, -5)):  # a drop a few pixels off lands on the same point
            assert vassal_snap(board, x + dx, y + dy) == (x, y)
    hexes = {p.properties.get("unit"): vassal_location(board, p.x, p.y) for p in main}
    for u in pos.units:
        if u.hex is not None:
            assert hexes[u.id] == pos.game.map.name(u.hex)


def test_every_marker_image_of_a_save_is_in_the_module(tmp_path):
    """No Prisoners scenario 1's railhead named ``railhead.png``; the module ships ``m_railhead.png``."""
    pos = load_position(ROOT / "modules/no-prisoners/scenarios/scenario-1.yaml")
    files = module_files(pos.game)
    save, _ = _save(pos, tmp_path)
    for p in save.pieces:
        images = [p.image] + [img for t in p.traits if t.kind == "emb2" for img in t.type.split(";")[16].split(",")]
        for img in filter(None, images):
            assert f"images/{img}" in files, img


def test_setups_help_and_charts():
    game = load_game("no-prisoners")
    files = module_files(game)
    root = etree.fromstring(files["buildFile.xml"])
    names = [e.get("name") for e in root.iter("VASSAL.build.module.PredefinedSetup")]
    assert names == ["New Game", "Scenario 1", "Scenario 2"]
    assert setup_title("scenario-ii") == "Scenario II"
    assert b"toolkit check GAME.vlog" in files["help/notes.html"]
    charts = {e.get("chartName"): e.get("fileName") for e in root.iter("VASSAL.build.widget.HtmlChart")}
    assert list(charts) == ["Terrain", "Defence", "Combat", "Results", "Movement", "Supply", "Victory"]
    assert b"Major offensive combat results table" in files[charts["Combat"]]
    assert b"Reconstruction" in files[charts["Combat"]] and b"Reconstruction" not in files[charts["Victory"]]
    assert [e.text for e in root.iter("entry")] == [s.name for s in game.spec.sides]


def _edit_build_file(files: dict[str, bytes], tmp_path: Path, edit) -> Path:
    root = etree.fromstring(files["buildFile.xml"])
    edit(root)
    path = tmp_path / "m.vmod"
    path.write_bytes(zip_bytes(files | {"buildFile.xml": etree.tostring(root)}))
    return path


def test_the_validator_refuses_unplayable_modules(tmp_path):
    """The first round's modules loaded without error yet could not be played: the validator now says why."""
    files = module_files(load_game("jerusalem-1948"))
    ok = _edit_build_file(files, tmp_path, lambda root: None)
    assert validate_module(ok) == []

    def drop(tag):
        def edit(root):
            for e in list(root.iter(tag)):
                e.getparent().remove(e)
        return edit
    no_options = _edit_build_file(files, tmp_path, drop("VASSAL.build.module.GlobalOptions"))
    assert any("GlobalOptions is missing" in p for p in validate_module(no_options))
    no_mover = _edit_build_file(files, tmp_path, drop("VASSAL.build.module.map.PieceMover"))
    assert any("PieceMover" in p and "drag" in p for p in validate_module(no_mover))


def test_arrivals_lie_in_their_turns_box_and_markers_never_stack(tmp_path):
    """No Prisoners Scenario 1: each reinforcement in its arrival turn's zone; markers outside every stack."""
    pos = load_position(ROOT / "modules/no-prisoners/scenarios/scenario-1.yaml")
    layout = ModuleLayout.of(pos.game)
    save, _ = _save(pos, tmp_path)
    zone = {p.properties.get("unit"): layout.zone_of(p.map, p.x, p.y) for p in save.pieces}
    assert zone["a-60-div"] == ("turn", "1917-II") and zone["a-hq-lawrence"] == ("turn", "1916-III")
    assert zone["a-1-aus-div"] == ("box", "optional")  # an optional unit keeps its box, its turn a property
    stacked = {pid for s in save.stacks for pid in s.pieces}
    markers = [p for p in save.pieces if "marker" in p.properties]
    assert markers and not any(p.id in stacked for p in markers)
    assert all(p.trait_state("immob") is not None for p in markers)


def test_the_module_has_layers_hooks_and_properties():
    """Every map layers its pieces (markers above units) and its mouse-over viewer shows a lone counter, markers
    and an empty hex's name, rotated pieces upright; the tracker's hook and the global key command that
    move the turn marker; the two global properties; the Siege engines' rotation."""
    game = load_game("siege-of-jerusalem")
    files = module_files(game)
    root = etree.fromstring(files["buildFile.xml"])
    layers = root.findall(".//VASSAL.build.module.map.LayeredPieceCollection")
    assert [e.get("layerOrder") for e in layers] == ["Units,Markers"] * 2  # markers on top (issue 35)
    for viewer in root.findall(".//VASSAL.build.module.map.CounterDetailViewer"):
        keys = ("minDisplayPieces", "showNoStack", "showOverlap", "display", "unrotatePieces")
        assert {k: viewer.get(k) for k in keys} == {
            "minDisplayPieces": "0", "showNoStack": "true", "showOverlap": "true", "display": "from all layers",
            "unrotatePieces": "true"}   # engines turned to face south drawn upright in the viewer (issue 35)
    assert root.find(".//VASSAL.build.module.turn.TurnGlobalHotkey").get("hotkey") == \
        root.find("VASSAL.build.module.GlobalKeyCommand").get("buttonHotkey")
    assert [e.get("name") for e in root.iter("VASSAL.build.module.properties.GlobalProperty")] == \
        ["Scenario", "Parameters"]
    ram = next(c for c in game.manifest.counters if c.type == "ram")
    assert [t.type.split(";")[1] for t in counter_def(game, ram, "1").traits if t.kind == "rotate"] == ["6"]
