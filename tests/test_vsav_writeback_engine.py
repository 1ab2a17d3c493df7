"""Engine tier: a position of an imported game written back into *their* module (issue 34 item 2).

For every module shape tests/vassal_modules.py offers (published layouts unlike ours: two boards of different
grids, a zoned board with a hex zone and an off-map box map, letters and a region track, an older module,
an unnumbered grid, square-grid zones, four boards joined, sideways), and two of this file's own (a board
turned half round; piece layers), each with a piece slot whose prototype nests another prototype with a
six-angle rotation: the import, then ``toolkit vsav write --module`` of a position with units on hexes
(a stack, split by the map's piece layers where it has them; flipped, facing) and in every box, then the REAL
engine loads the save
(every piece where the engine names the hex or box), saves it again, and ``toolkit vsav read`` of the engine's
save gives every unit back on its hex or in its box with its flags.  And the pieces are the ones the engine
itself makes from the slots (``PieceCloner``): the same traits, types and states.
"""
from __future__ import annotations

import json
from collections import Counter

import pytest
import yaml

import vassal_modules as vm
from test_vsav_writeback import FACINGS, imported_with_facings, with_gun
from toolkit.cli import main
from toolkit.game import load_game
from toolkit.mapdata import open_map
from toolkit.vassal.published.moduleread import read_published_module
from toolkit.vassal.published.writeback import SlotPiece, read_module_pieces
from toolkit.vassal.saves.imported import load_record
from toolkit.vassal.saves.savefile import SaveContents, read_save
from vassal_engine import vengine

_REASON = vengine.engine_available()
pytestmark = pytest.mark.skipif(_REASON is not None, reason=f"VASSAL engine unavailable: {_REASON}")

def reversed_west() -> tuple[str, dict]:
    """two-boards with its west board turned half round (``West/rev`` in the default setup; the engine turns only
    a board that is ``reversible``)."""
    xml, images = vm.two_boards()
    xml = xml.replace('name="West" reversible="false"', 'name="West" reversible="true"')
    return xml.replace("BoardPicker\tWest\t", "BoardPicker\tWest/rev\t"), images


def layered() -> tuple[str, dict]:
    """zoned with piece layers on its Campaign map (``LayeredPieceCollection`` on the property ``gun``: the
    gun's ``heavy`` in layer 0, every other piece past it)."""
    xml, images = vm.zoned()
    layers = '<VASSAL.build.module.map.LayeredPieceCollection layerOrder="heavy" property="gun"/>'
    return xml.replace("</VASSAL.build.module.Map>", layers + "</VASSAL.build.module.Map>", 1), images


SHAPES = {**vm.SHAPES, **vm.WILD, "two-boards-reversed": reversed_west, "zoned-layered": layered}


def imported(tmp_path, shape: str):
    """The shape's module (with the gun) imported, with facings."""
    vmod = vm.write_vmod(tmp_path / f"{shape}.vmod", with_gun(SHAPES[shape]()))
    imported_with_facings(vmod, tmp_path / "game")
    return vmod, tmp_path / "game"


def placeable(folder) -> list[str]:
    """The hexes of the main map whose centre the engine names as the hex (a zone over a hex takes its centre:
    square-zones' track and boxes), by the engine's grid arithmetic (checked against the engine by
    tests/test_engine_import.py): a board's pixel on the map, turned half round on a reversed board, or the
    joined image's from the joined boards' top left."""
    record = load_record(folder)
    layout = record.layout(SaveContents(""), record.main_map)
    cmap = open_map(folder / "map.yaml")
    boards = [pb for pb in layout.boards if pb.board.name in record.main_boards]
    out = []
    for h in cmap.grid.hex_list:
        px, py = (round(v) for v in cmap.board.pixel(*cmap.grid.layout.centre(h)))
        pb = boards[0]
        if len(boards) > 1:
            pt = (min(b.x for b in boards) + px, min(b.y for b in boards) + py)
        else:
            pt = (pb.x + pb.board.width - px, pb.y + pb.board.height - py) if pb.reversed else (pb.x + px, pb.y + py)
        if layout.location_name(*pt) == cmap.name(h):
            out.append(cmap.name(h))
    assert len(out) >= 0.7 * len(cmap.grid.hex_list)
    return out


def position(folder, hexes: list[str]) -> dict:
    """Units on every fifth of the hexes (a rifles, a HQ and a gun on the first), two-faced ones flipped every other time,
    each gun facing another way; one unit in each box the import made."""
    game = load_game(str(folder))
    hexes = hexes[::5]
    units = []
    for i, name in enumerate([hexes[0], hexes[0], *hexes]):
        counter = ("rifles", "hq", "gun")[i % 3]
        flags = (["flipped"] if game.counters[counter].back is not None and i % 2 else []) + \
                ([FACINGS[i // 3 % 6]] if counter == "gun" else [])
        units.append({"id": f"u{i}", "counter": counter, "hex": name, "flags": flags})
    for j, box in enumerate(sorted(set(load_record(folder).boxes.values()))):
        counter = ("hq", "rifles")[j % 2]
        units.append({"id": f"b{j}", "counter": counter, "box": box,
                      "flags": ["flipped"] if game.counters[counter].back is not None else []})
    return {"game": game.spec.id, "turn": game.spec.turns[0], "phase": game.spec.phases[0],
            "phasing_side": game.spec.sides[0].id, "units": units}


def where(u) -> tuple:
    """A unit as the round trip keeps it: counter, hex or box, flags."""
    return u["counter"], u.get("hex") or u.get("box"), tuple(sorted(u.get("flags", [])))


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_position_goes_back_into_their_module_and_round_trips_through_the_engine(tmp_path, shape, capsys):
    vmod, folder = imported(tmp_path, shape)
    pos = position(folder, placeable(folder))
    (tmp_path / "position.yaml").write_text(yaml.safe_dump(pos))
    save, again = tmp_path / "theirs.vsav", tmp_path / "engine.vsav"
    assert main(["vsav", "write", str(tmp_path / "position.yaml"), "--game", str(folder), "--module", str(vmod),
                 "-o", str(save)]) == 0
    out = capsys.readouterr().out
    assert "not in the save" not in out and "note:" not in out, out

    r = vengine.play(vmod, [{"op": "load", "file": str(save)}, {"op": "pieces"}, {"op": "save", "file": str(again)}])
    assert r["ok"] or all("Image not found" in e for e in r["errors"]), r["errors"]   # legacy: a missing image
    load, pieces, _ = r["steps"]
    assert load["gameStarted"] and load["pieces"] == len(pos["units"])
    record = load_record(folder)
    boxes = {v: k for k, v in record.boxes.items()}
    expected = Counter(u.get("hex") or boxes[u["box"]] for u in pos["units"])
    names = [p["locationName"] for p in pieces["pieces"]]
    if shape == "unnumbered":   # the engine names no point of it; the toolkit's names, from the engine's points
        assert set(names) == {"offboard"}
        names = [record.layout(SaveContents(""), p["map"]).location_name(p["x"], p["y"]) for p in pieces["pieces"]]
    assert Counter(names) == expected
    first = pos["units"][0]["hex"]   # one stack; the gun in its own where the map's layers part it
    stacks = {p["name"].split(" (")[0]: p["stack"] for p, name in zip(pieces["pieces"], names) if name == first}
    assert len(stacks) == 3 and (stacks["Gun"] == stacks["HQ"]) == (shape != "zoned-layered") \
        and stacks["Rifles"] == stacks["HQ"]
    turned = Counter(p["state"].split("\t")[0] for p in pieces["pieces"] if p["name"] == "Gun")
    guns = [str(FACINGS.index(u["flags"][0])) for u in pos["units"] if u["counter"] == "gun"]
    assert turned == Counter(guns) and len(turned) >= 3   # FreeRotator's state: the angle's index, as written

    assert main(["vsav", "read", str(again), "--game", str(folder), "-o", str(tmp_path / "back.yaml")]) == 0
    assert "not placed" not in capsys.readouterr().out
    back = yaml.safe_load((tmp_path / "back.yaml").read_text())
    assert Counter(map(where, back["units"])) == Counter(map(where, pos["units"]))
    assert (back["turn"], back["phase"], back["phasing_side"]) == (pos["turn"], pos["phase"], pos["phasing_side"])


@pytest.mark.parametrize("shape", ["zoned", "legacy"])
def test_the_pieces_are_the_ones_the_engine_clones_from_the_slots(tmp_path, shape):
    """Each slot placed by the engine (``PieceCloner``, prototypes expanded) and saved: the same chain of
    trait types and states as the writer's piece of that slot."""
    vmod = vm.write_vmod(tmp_path / "m.vmod", with_gun(SHAPES[shape]()))
    module = read_module_pieces(vmod)
    mine = {s.gpid: SlotPiece.of(s, module.prototypes) for s in module.slots}
    map_name = read_published_module(vmod).maps[0].name
    placements = [[i, map_name, 60 + 40 * i, 60] for i in range(len(module.slots))]
    (tmp_path / "placements.json").write_text(json.dumps(placements))
    r = vengine.run_engine(["place", vmod, tmp_path / "placements.json", tmp_path / "engine.vsav"])
    assert r["ok"] or all("Image not found" in e for e in r["errors"]), r["errors"]
    engine = {p.gpid: p for p in read_save(tmp_path / "engine.vsav").pieces}
    assert set(engine) == set(mine) and len(mine) == 3
    for gpid, piece in mine.items():
        assert [(t.type, t.state) for t in engine[gpid].traits] == [(t.type, t.state) for t in piece.traits]
        assert engine[gpid].basic_type == piece.basic_type
