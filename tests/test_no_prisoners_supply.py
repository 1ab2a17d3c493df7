"""*No Prisoners* supply (15.x, 16.x rail nets, 17.2) on hand-built positions with exact answers.

The game module is a small test copy (two sides, a few counters, the railhead /
FSD markers) in a temporary ``TOOLKIT_MODULES_DIR``.  The map is synthetic
(``synthetic_map``) so that every distance can be checked by hand:

* columns 1-11 are Western, 12-26 Eastern; the sector boundary runs between
  columns 11 and 12;
* rows 10 and 12 of columns 1-7 are sea, except hex 0310: row 11 there is a
  one-hex-wide corridor leading to the CP depot 0111 ("Fort");
* depots: allied 0105 ("Cairo", on the western edge), 0103 ("Base"), 2612
  ("Wejh", Eastern); cp 0101 ("North"), 0111 ("Fort"), 1002 ("Junction");
* rail: ``egypt`` 0105-0205-0305-0405 (Allied), ``british`` along row 5 from
  0405 to 1005 (built behind the railhead), ``beersheba`` 1005-1004-1003-1002 (CP);
* towns 1412 ("Tabuk", 12 hexes from Wejh) and 1312 ("Far", 13 hexes).
"""
from __future__ import annotations

import random

from pathlib import Path

import pytest

from position_files import write_position
import yaml

from toolkit.game.module import _load
from toolkit.games.no_prisoners import mapfacts as mf
from toolkit.games.no_prisoners.railhead import railhead_json, railhead_options
from toolkit.games.no_prisoners.railnet import rail_nets
from toolkit.games.no_prisoners.tables import load_tables
from toolkit.games.no_prisoners.supply import (fsd_placement, is_unit, supply, supply_json,
                                               zoc_of)
from toolkit.mapdata import compile_source

COLS, ROWS = 26, 12
RAIL = {"egypt": ["0105", "0205", "0305", "0405"], "british": ["0405", "0505", "0605", "0705", "0805", "0905", "1005"],
        "beersheba": ["1005", "1004", "1003", "1002"]}
DEPOTS = {"0105": "allied", "0103": "allied", "2612": "allied", "0101": "cp", "0111": "cp", "1002": "cp"}
PLACES = {"0105": "Cairo", "0103": "Base", "2612": "Wejh", "0101": "North", "0111": "Fort", "1002": "Junction",
          "1412": "Tabuk", "1312": "Far"}


def synthetic_map() -> dict:
    """The synthetic map as a map-file dict (see the module docstring)."""
    base = {"id": "np-test", "title": "No Prisoners supply test",
            "grid": {"orientation": "flat", "size": 10, "naming": {"scheme": "ccrr", "shifted": "odd"},
                     "columns": [1, COLS], "rows": [1, ROWS]},
            "terrain": {"desert": {}, "sea": {}, "town": {"base": False}, "city": {"base": False}},
            "features": {"railway": {"kind": "path"}, "depot": {"kind": "path"},
                         "sector_boundary": {"kind": "hexside"}, "all_sea_hexside": {"kind": "hexside"}}}
    grid = compile_source(base).grid
    hexes: dict[str, dict] = {}
    sides = []
    for c in range(1, COLS + 1):
        for r in range(1, ROWS + 1):
            name = f"{c:02d}{r:02d}"
            ov: dict = {"region": "Western" if c <= 11 else "Eastern"}
            if c <= 7 and r in (10, 12) and name != "0310":
                ov["terrain"] = ["sea"]
            hexes[name] = ov
            if c == 11:
                h = grid.parse(name)
                for n in h.neighbors():
                    if n in grid.hex_set and grid.name(n).startswith("12"):
                        sides.append({"between": [name, grid.name(n)], "set": {"sector_boundary": "true"}})
    for name, owner in DEPOTS.items():
        hexes[name].setdefault("features", {})["depot"] = owner
    for name, place in PLACES.items():
        hexes[name]["place"] = place
    for name in ("1412", "1312"):
        hexes[name]["terrain"] = ["desert", "town"]
    for line, chain in RAIL.items():
        for a, b in zip(chain, chain[1:]):
            sides.append({"between": [a, b], "set": {"railway": line}})
        for h in chain:
            hexes[h].setdefault("features", {}).setdefault("railway", line)
    return {**base, "overrides": {"hexes": hexes, "hexsides": sides}}


GAME = """
id: no-prisoners
title: test copy
map: {map}
sides: [{{id: allied, name: Allies}}, {{id: cp, name: Central Powers}}]
nationalities: [{{id: british, name: British, side: allied}}, {{id: arab, name: Arab, side: allied}},
                {{id: turkish, name: Turkish, side: cp}}]
unit_types: [infantry, cavalry, hq, artillery, air_group]
flags: [flipped, command_bonus_used, with_lawrence]
turns: ["1916-I", "1916-II"]
phases: [movement, combat1, combat2]
place_lists: {{west_of_suez_canal: ["0105", "0205", "0305", "0405", "0505", "0605"]}}
"""
COUNTERS = """
game: no-prisoners
counters:
  - {id: w-inf, name: Western infantry, side: allied, nationality: british, type: infantry,
     values: {sector: W, combat: 4, ma: 5}}
  - {id: e-inf, name: Eastern Arab infantry, side: allied, nationality: arab, type: infantry,
     values: {sector: E, combat: 2, ma: 5}}
  - {id: tribe, name: Arab tribe, side: allied, nationality: arab, type: cavalry,
     values: {sector: E, combat: 1, ma: 8, tribal: true}}
  - {id: lawrence, name: Lawrence HQ, side: allied, nationality: arab, type: hq,
     values: {sector: E, combat: 0, ma: 8, command_radius: 3, always_supplied: true, supplies_stacked_tribal: true}}
  - {id: murray, name: Murray HQ, side: allied, nationality: british, type: hq,
     values: {sector: W, combat: 1, ma: 4, command_radius: 2}, back: {command_radius: 3}, back_name: Allenby}
  - {id: w-art, name: Western artillery, side: allied, nationality: british, type: artillery,
     values: {sector: W, combat: 2, ma: 3, support: true, zoc: false, stacks_free: true}}
  - {id: air, name: RFC, side: allied, nationality: british, type: air_group,
     values: {column_shift: 1, zoc: false, stacks_free: true, always_supplied: true}}
  - {id: tw-inf, name: Turkish Western infantry, side: cp, nationality: turkish, type: infantry,
     values: {sector: W, combat: 4, ma: 4}}
  - {id: te-inf, name: Turkish Eastern infantry, side: cp, nationality: turkish, type: infantry,
     values: {sector: E, combat: 3, ma: 4}}
  - {id: sxf, name: SXF HQ, side: cp, nationality: turkish, type: hq,
     values: {sector: W, combat: 1, ma: 4, command_radius: 2}}
markers:
  - {id: railhead, name: Allied Railhead}
  - {id: fsd, name: Forward Supply Depot}
  - {id: rail_taken, name: Rail taken over}
"""
# The real chart values (supply line lengths, rail nets ...): the synthetic map only changes the geography.
TABLES = (Path(__file__).resolve().parent.parent / "modules" / "no-prisoners" / "tables.yaml").read_text()


@pytest.fixture
def np_game(tmp_path, monkeypatch):
    folder = tmp_path / "modules" / "no-prisoners"
    folder.mkdir(parents=True)
    (tmp_path / "map.yaml").write_text(yaml.safe_dump(synthetic_map(), sort_keys=False))
    (folder / "game.yaml").write_text(GAME.format(map=tmp_path / "map.yaml"))
    (folder / "counters.yaml").write_text(COUNTERS)
    (folder / "tables.yaml").write_text(TABLES)
    monkeypatch.setenv("TOOLKIT_MODULES_DIR", str(tmp_path / "modules"))
    _load.cache_clear()
    load_tables.cache_clear()
    yield tmp_path
    _load.cache_clear()
    load_tables.cache_clear()


def position(tmp_path, units, markers=(), params=None, phase="movement", side="allied"):
    """A position from ``(id, counter, hex)`` triples and ``(marker, hex)`` pairs."""
    return write_position(tmp_path, "no-prisoners", "1916-I", phase, side, units, markers=markers, params=params)


def names(pos, hexes):
    return [pos.game.map.name(h) for h in hexes]


def row(col_from, col_to, r):
    return [f"{c:02d}{r:02d}" for c in range(col_from, col_to + 1)]


def entry(pos, uid, **kw):
    return next(u for u in supply_json(supply(pos, **kw))["units"] if u["unit"] == uid)


# -- the map itself -----------------------------------------------------------------------------------------------
def test_map_facts_of_the_synthetic_map(np_game):
    pos = position(np_game, [("a", "w-inf", "0105")])
    f = mf.map_facts(pos.game.map, load_tables(pos.game.folder).rail)
    m = pos.game.map.resolve
    assert f.sector(m("1105")) == "Western" and f.sector(m("1205")) == "Eastern"
    assert f.crosses_boundary(m("1105"), m("1205")) and not f.crosses_boundary(m("1005"), m("1105"))
    assert m("0110") in f.prohibited and m("0310") not in f.prohibited
    assert f.rail_links(m("0405")) == {m("0305"): "egypt", m("0505"): "british"}
    assert f.west_edge == {m(f"01{r:02d}") for r in range(1, ROWS + 1)}
    assert f.depots[m("1002")] == "cp" and f.depots[m("2612")] == "allied"
    # Row chains are contiguous: the hex-count distances the tests rely on.
    assert m("0101").distance(m("0501")) == 4 and m("0101").distance(m("0601")) == 5
    assert m("0103").distance(m("0603")) == 5 and m("0103").distance(m("0703")) == 6
    assert m("2612").distance(m("1412")) == 12 and m("2612").distance(m("1312")) == 13


# -- 15.2 A / 15.3 A / 15.4 A: line lengths counted in hexes --------------------------------------------------------
def test_cp_line_of_exactly_four_hexes_and_one_too_long(np_game):
    pos = position(np_game, [("d", "tw-inf", "0101"), ("u4", "tw-inf", "0501"), ("u5", "tw-inf", "0601")])
    four = entry(pos, "u4")
    assert four["supplied"] and four["source"] == {"kind": "depot", "hex": "0101"}
    assert len(four["path"]) == 5 and four["path"][0] == "0501" and four["cut"] is None
    five = entry(pos, "u5")
    assert not five["supplied"] and five["source"] is None
    assert five["cut"]["rule"] == "15.3 A" and "longer than 4 hexes" in five["cut"]["reason"]
    assert five["cut"]["hex"] == "0101"          # the fifth hex of the best attempt is where it fails


def test_allied_line_of_exactly_five_hexes_and_one_too_long(np_game):
    pos = position(np_game, [("d", "w-inf", "0103"), ("u5", "w-inf", "0603"), ("u6", "w-inf", "0703")])
    five = entry(pos, "u5")
    assert five["supplied"] and len(five["path"]) == 6 and five["source"]["hex"] == "0103"
    six = entry(pos, "u6")
    assert not six["supplied"] and six["cut"] == {
        "hex": "0103", "reason": six["cut"]["reason"], "rule": "15.2 A"}


def test_depot_must_be_occupied(np_game):
    pos = position(np_game, [("u", "tw-inf", "0301")])
    e = entry(pos, "u")
    assert not e["supplied"] and e["cut"]["rule"] == "15.4 B" and e["cut"]["hex"] is None


def test_line_limits_read_from_tables(np_game):
    (np_game / "modules" / "no-prisoners" / "tables.yaml").write_text(TABLES.replace("cp_line: 4", "cp_line: 5"))
    load_tables.cache_clear()
    pos = position(np_game, [("d", "tw-inf", "0101"), ("u5", "tw-inf", "0601")])
    assert entry(pos, "u5")["supplied"]


# -- 10.8, 15.6: EZOCs --------------------------------------------------------------------------------------------
def corridor(np_game, *extra):
    # CP depot Fort (0111) at the end of the row-11 corridor; an Allied unit on 0310 puts its ZOC on 0211, 0311, 0411.
    return position(np_game, [("d", "tw-inf", "0111"), ("e", "w-inf", "0310"), *extra])


def test_line_may_end_in_an_ezoc_hex_the_units_own(np_game):
    pos = corridor(np_game, ("u", "tw-inf", "0211"))
    f = mf.map_facts(pos.game.map, load_tables(pos.game.folder).rail)
    assert names(pos, sorted(zoc_of(pos, f, "allied") & {pos.game.map.resolve(n) for n in row(1, 7, 11)})) == [
        "0211", "0311", "0411"]
    e = entry(pos, "u")
    assert e["supplied"] and e["path"] == ["0211", "0111"]


def test_line_may_not_pass_through_an_ezoc_hex(np_game):
    pos = corridor(np_game, ("u", "tw-inf", "0311"), ("v", "tw-inf", "0511"))
    in_zoc = entry(pos, "u")          # its own hex is in the EZOC; the next hex 0211 is another one (15.6 B)
    assert not in_zoc["supplied"] and in_zoc["cut"]["hex"] == "0211" and in_zoc["cut"]["rule"] == "10.8"
    beyond = entry(pos, "v")          # 4 hexes, but through 0411, 0311 and 0211
    assert not beyond["supplied"] and beyond["cut"]["hex"] == "0411" and beyond["cut"]["rule"] == "10.8"
    # Without the Allied unit the same 4-hex corridor line is open.
    free = position(np_game, [("d", "tw-inf", "0111"), ("v", "tw-inf", "0511")])
    assert entry(free, "v")["path"] == row(1, 5, 11)[::-1]


def test_support_units_have_no_zoc(np_game):
    pos = position(np_game, [("d", "tw-inf", "0111"), ("e", "w-art", "0310"), ("v", "tw-inf", "0511")])
    assert entry(pos, "v")["supplied"]


def test_source_in_ezoc_supplies_only_its_own_hex(np_game):
    # Allied unit at 0202 puts the CP depot North (0101) in its ZOC.
    pos = position(np_game, [("d", "tw-inf", "0101"), ("e", "w-inf", "0202"), ("u", "tw-inf", "0301")])
    assert entry(pos, "d")["supplied"] and entry(pos, "d")["rule"] == "15.6 C"
    u = entry(pos, "u")
    assert not u["supplied"]


def test_enemy_unit_blocks(np_game):
    # The artillery has no ZOC (support unit), but its hex at the corridor's mouth shuts Fort (0111) off.
    pos = position(np_game, [("d", "tw-inf", "0111"), ("e", "w-art", "0211"), ("v", "tw-inf", "0511")])
    v = entry(pos, "v")
    assert not v["supplied"] and v["cut"]["hex"] == "0211" and v["cut"]["rule"] == "15.6 A"


def test_sea_blocks(np_game):
    # 0109 is 2 hexes from Fort across the sea hex 0110; the land way round (0209 0309 0310 0211 0111) is 5
    # hexes: the best legal attempt is too long, and the report says so rather than "sea".
    pos = position(np_game, [("d", "tw-inf", "0111"), ("u", "tw-inf", "0109")])
    u = entry(pos, "u")
    assert not u["supplied"] and u["cut"]["rule"] == "15.3 A" and "5 hexes away" in u["cut"]["reason"]
    # An Allied unit on 0310 closes the land way: now every attempt crosses a block, the sea one first.
    shut = position(np_game, [("d", "tw-inf", "0111"), ("u", "tw-inf", "0109"), ("e", "w-inf", "0310")])
    u = entry(shut, "u")
    assert not u["supplied"] and u["cut"]["hex"] == "0110" and u["cut"]["rule"] == "15.6 A"


# -- 16.x: rail nets and rail supply ------------------------------------------------------------------------------
def test_rail_connection_beyond_the_hex_limit(np_game):
    # 0609 is 6 hexes from Cairo (0105): too far by land, but 5 from the Egyptian rail that reaches it.
    pos = position(np_game, [("d", "w-inf", "0105"), ("u", "w-inf", "0609")])
    m = pos.game.map.resolve
    assert m("0609").distance(m("0105")) == 6
    e = entry(pos, "u")
    assert e["supplied"] and e["source"]["kind"] == "rail" and len(e["path"]) == 6       # 5 hexes to the rail
    assert e["rail_path"][0] == e["path"][-1] and e["rail_path"][-1] == "0105"
    assert e["source"]["hex"] in ("0305", "0405")


def test_rail_needs_an_occupied_depot(np_game):
    pos = position(np_game, [("u", "w-inf", "0408")])
    assert not entry(pos, "u")["supplied"]


def test_railhead_marker_cuts_the_allied_net(np_game):
    units = [("d", "w-inf", "0105"), ("u", "w-inf", "1107")]
    without = position(np_game, units)
    nets = rail_nets(without)
    assert names(without, sorted(nets.allied)) == ["0105", "0205", "0305", "0405"]
    assert "no railhead" in nets.note
    at_0505 = position(np_game, units, markers=[("railhead", "0505")])
    assert names(at_0505, sorted(rail_nets(at_0505).allied)) == ["0105", "0205", "0305", "0405", "0505"]
    e = entry(at_0505, "u")          # 1107 is 3 hexes from 1005, which is beyond the railhead; 6 from 0505
    assert not e["supplied"] and e["cut"]["rule"] == "15.2 A"
    at_1005 = position(np_game, units, markers=[("railhead", "1005")])
    e = entry(at_1005, "u")
    assert e["supplied"] and e["source"]["kind"] == "rail" and len(e["path"]) == 4
    assert e["source"]["hex"] in ("0905", "1005")         # both 3 hexes off, both beyond 0505
    assert e["rail_path"][-4:] == ["0405", "0305", "0205", "0105"] and e["rail_path"][0] == e["path"][-1]


def test_railhead_takes_over_cp_rail(np_game):
    # The CP depot Junction (1002) feeds the beersheba line 1002-1005 until the railhead reaches it.
    units = [("d", "tw-inf", "1002"), ("u", "tw-inf", "1008")]
    cp = position(np_game, units)
    assert names(cp, sorted(rail_nets(cp).cp)) == ["1002", "1003", "1004", "1005"]
    e = entry(cp, "u")
    assert e["supplied"] and e["source"] == {"kind": "rail", "hex": "1005"}
    assert e["rail_path"] == ["1005", "1004", "1003", "1002"]
    taken = position(np_game, units, markers=[("railhead", "1004")])
    nets = rail_nets(taken)
    assert names(taken, sorted(nets.taken_over)) == ["1004", "1005"]
    assert names(taken, sorted(nets.cp)) == ["1002", "1003"]
    assert not entry(taken, "u")["supplied"]              # 1008 is 5 hexes from 1003
    # 16.3 B: still not CP after the railhead falls back, when the position records the take-over.
    back = position(np_game, units, markers=[("railhead", "0505")], params={"allied_rail_taken": "1004 1005"})
    assert names(back, sorted(rail_nets(back).cp)) == ["1002", "1003"]


# -- 17.2: sector boundary ----------------------------------------------------------------------------------------
def test_sector_boundary_cuts_a_line(np_game):
    pos = position(np_game, [("d", "w-inf", "0105"), ("w", "w-inf", "0905"), ("e", "e-inf", "1205")],
                   markers=[("railhead", "1005")])
    assert entry(pos, "w")["supplied"]
    east = entry(pos, "e")           # one hex from the Allied rail at 1005, but across the boundary (17.2 B)
    assert not east["supplied"] and east["cut"]["rule"] == "17.2 A" and east["cut"]["hex"] == "1105"
    # An Eastern source 14 hexes off does not change the answer: the boundary is the nearer cut.
    pos2 = position(np_game, [("d", "w-inf", "0105"), ("e", "e-inf", "1205"), ("p", "e-inf", "2612")],
                    markers=[("railhead", "1005")])
    east = entry(pos2, "e")
    assert not east["supplied"] and east["cut"] == {"hex": "1105", "reason": east["cut"]["reason"],
                                                    "rule": "17.2 A"}
    assert "sector boundary" in east["cut"]["reason"]


# -- 15.8, 15.9, 15.5 ---------------------------------------------------------------------------------------------
def test_fsd_twelve_hex_trace(np_game):
    units = [("p", "e-inf", "2612"), ("t", "e-inf", "1412"), ("f", "e-inf", "1312")]
    pos = position(np_game, units)
    ok = fsd_placement(pos, "Tabuk")
    assert ok.allowed and ok.reason.rule == "15.8 B" and len(ok.path) == 13
    far = fsd_placement(pos, "Far")
    assert not far.allowed and far.reason.rule == "15.8 B" and "12 hexes" in far.reason.message
    assert not fsd_placement(pos, "2012").allowed                   # not a town (15.8 A)
    # Placed, the FSD is a depot: a unit 4 hexes beyond Tabuk (8 from Wejh, unoccupied here) is supplied from it.
    placed = position(np_game, [("t", "e-inf", "1412"), ("u", "e-inf", "1812")], markers=[("fsd", "1412")])
    e = entry(placed, "u")
    assert e["supplied"] and e["source"] == {"kind": "fsd", "hex": "1412"} and len(e["path"]) == 5


def test_recaptured_depot_serves_its_owner_only(np_game):
    held = position(np_game, [("c", "te-inf", "2612")])
    assert not entry(held, "c")["supplied"]                          # 15.9 B: an Allied depot never feeds the CP
    retaken = position(np_game, [("p", "e-inf", "2612"), ("u", "e-inf", "2211")])
    e = entry(retaken, "u")
    assert e["supplied"] and e["source"] == {"kind": "depot", "hex": "2612"}  # 15.9 C


def test_always_supplied(np_game):
    pos = position(np_game, [("l", "lawrence", "1506"), ("t", "tribe", "1506"), ("t2", "tribe", "1509"),
                             ("a", "air", "1510")])
    assert entry(pos, "l")["source"] == {"kind": "always", "hex": None}
    assert entry(pos, "t")["supplied"] and entry(pos, "a")["supplied"]
    assert not entry(pos, "t2")["supplied"]


def test_one_unit_and_one_side(np_game):
    pos = position(np_game, [("d", "tw-inf", "0101"), ("u", "w-inf", "0103")])
    assert [u.unit for u in supply(pos, unit="u").units] == ["u"]
    assert [u.unit for u in supply(pos, side="cp").units] == ["d"]
    assert supply_json(supply(pos, side="cp"))["side"] == "cp"


# -- properties --------------------------------------------------------------------------------------------------
def _check_report(pos, report):
    f = mf.map_facts(pos.game.map, load_tables(pos.game.folder).rail)
    nets = report.nets
    limit = {"allied": 5, "cp": 4}
    for s in report.units:
        if not s.supplied or s.source.kind == "always":
            continue
        u = pos.by_id[s.unit]
        enemy = {v.hex for v in pos.units if v.side != u.side and is_unit(v)}
        ezoc = zoc_of(pos, f, "cp" if u.side == "allied" else "allied")
        path = s.path
        assert path[0] == u.hex and len(path) - 1 <= limit[u.side]
        for a, b in zip(path, path[1:]):
            assert a.distance(b) == 1 and f.land_step(a, b) is None
            assert b not in enemy and b not in ezoc
        src = s.source
        assert path[-1] == src.hex
        if src.kind in ("depot", "fsd"):
            assert any(v.side == u.side and is_unit(v) for v in pos.at(src.hex))
        else:
            rp = src.rail_path
            assert rp[0] == src.hex and f.depots.get(rp[-1]) == ("allied" if u.side == "allied" else "cp")
            assert all(h in nets.net(u.side) for h in rp)
            assert all(b in f.rail_links(a) for a, b in zip(rp, rp[1:]))
            assert not (set(rp[1:]) & (enemy | ezoc))


def _random_position(np_game, rng, n=24):
    land = [f"{c:02d}{r:02d}" for c in range(1, COLS + 1) for r in range(1, ROWS + 1)
            if not (c <= 7 and r in (10, 12) and (c, r) != (3, 10))]
    hexes = rng.sample(land, n)
    units = []
    for i, h in enumerate(hexes):
        west = int(h[:2]) <= 11
        side = rng.choice(["allied", "cp"])
        counter = {("allied", True): "w-inf", ("allied", False): "e-inf",
                   ("cp", True): "tw-inf", ("cp", False): "te-inf"}[(side, west)]
        units.append((f"u{i}", counter, h))
    for d in DEPOTS:                               # garrison some depots
        if d not in hexes and rng.random() < 0.6:
            west = int(d[:2]) <= 11
            side = DEPOTS[d]
            units.append((f"g{d}", {("allied", True): "w-inf", ("allied", False): "e-inf",
                                    ("cp", True): "tw-inf", ("cp", False): "te-inf"}[(side, west)], d))
    markers = [("railhead", rng.choice(["0405", "0505", "0705", "1005", "1004"]))] if rng.random() < 0.7 else []
    return units, markers


def test_property_paths_are_legal_and_removing_an_enemy_never_cuts(np_game):
    rng = random.Random(5)
    for _ in range(25):
        units, markers = _random_position(np_game, rng)
        pos = position(np_game, units, markers)
        report = supply(pos)
        _check_report(pos, report)
        before = {s.unit: s.supplied for s in report.units}
        for k in rng.sample(range(len(units)), 4):
            gone = units[:k] + units[k + 1:]
            removed_side = pos.by_id[units[k][0]].side
            after = supply(position(np_game, gone, markers))
            for s in after.units:
                if pos.by_id[s.unit].side != removed_side and before[s.unit]:
                    assert s.supplied, (units[k], s.unit)


def test_every_unit_on_the_real_map_gets_a_legal_answer(tmp_path, monkeypatch):
    """Supply for every unit of both sides on the full *No Prisoners* map (target: 50 ms)."""
    folder = tmp_path / "modules" / "no-prisoners"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME.format(map="no-prisoners"))
    (folder / "counters.yaml").write_text(COUNTERS)
    (folder / "tables.yaml").write_text(TABLES)
    monkeypatch.setenv("TOOLKIT_MODULES_DIR", str(tmp_path / "modules"))
    _load.cache_clear()
    try:
        rng = random.Random(1)
        from toolkit.mapdata import open_map
        cmap = open_map("no-prisoners")
        land = sorted(cmap.name(h) for h, i in cmap.hexes.items() if i.terrain[0] not in ("sea", "lake"))
        units = []
        for i, h in enumerate(rng.sample(land, 120)):
            region = cmap.hexes[cmap.resolve(h)].region
            east = region == "Eastern"
            side = "allied" if i % 2 else "cp"
            counter = {("allied", False): "w-inf", ("allied", True): "e-inf",
                       ("cp", False): "tw-inf", ("cp", True): "te-inf"}[(side, east)]
            units.append((f"u{i}", counter, h))
        pos = position(tmp_path, units, markers=[("railhead", "Qantara")])
        report = supply(pos)                           # speed is measured by scripts/bench.py
        assert len(report.units) == 120
        _check_report(pos, report)
    finally:
        _load.cache_clear()


# -- 16.2: the railhead marker ----------------------------------------------------------------------------------------
def railhead(pos):
    return railhead_json(railhead_options(pos), pos)


def test_railhead_in_supply_moves_two_rail_hexes_either_way(np_game):
    pos = position(np_game, [("d", "w-inf", "0105")], markers=[("railhead", "0505")])
    r = railhead(pos)
    assert (r["action"], r["hex"], r["allowance"], r["rule"]) == ("move", "0505", 2, "16.2 B")
    assert r["supply"]["supplied"] and r["supply"]["source"] == {"kind": "rail", "hex": "0505"}
    assert r["hexes"] == {"0305": ["0505", "0405", "0305"], "0405": ["0505", "0405"],
                          "0605": ["0505", "0605"], "0705": ["0505", "0605", "0705"]}
    assert r["blocked"] == {}


def test_railhead_never_enters_cp_units_or_their_zoc(np_game):
    # The CP unit in 0705 puts 0605 in its ZOC: the marker stops short of both (16.2 C).
    pos = position(np_game, [("d", "w-inf", "0105"), ("t", "tw-inf", "0705")], markers=[("railhead", "0505")])
    r = railhead(pos)
    assert sorted(r["hexes"]) == ["0305", "0405"]
    assert r["blocked"] == {"0605": {"reason": "0605 is in a CP ZOC", "rule": "16.2 C"}}


def test_railhead_out_of_supply_does_not_move(np_game):
    # Nobody holds the depot Cairo: the Allied net feeds nothing (15.4 B), so the marker is OOS (16.2 B).
    pos = position(np_game, [("u", "w-inf", "0905")], markers=[("railhead", "0505")])
    r = railhead(pos)
    assert (r["allowance"], r["hexes"], r["supply"]["supplied"]) == (0, {}, False)
    assert "out of supply" in r["reason"] and r["supply"]["cut"]["rule"]


def test_railhead_placement_avoids_cp_units_and_zoc(np_game):
    # No marker yet (it arrives in 1916-I): any Allied rail hex of the list west of the canal (columns 1-6 here).
    # The CP unit in 0305 holds it and puts 0205 and 0405 in its ZOC; the one in 0705 reaches 0605.
    pos = position(np_game, [("t", "tw-inf", "0705"), ("u", "tw-inf", "0305")])
    r = railhead(pos)
    assert (r["action"], r["hex"], r["rule"]) == ("place", None, "16.2 A")
    assert sorted(r["hexes"]) == ["0105", "0505"]
    zoc = {"reason": "{} is in a CP ZOC", "rule": "16.2 A"}
    assert r["blocked"] == {h: {**zoc, "reason": zoc["reason"].format(h)} for h in ("0205", "0405", "0605")} | {
        "0305": {"reason": "0305 holds CP units", "rule": "16.2 A"}}


def test_railhead_placement_on_the_real_map_stays_west_of_the_canal(tmp_path):
    # The Allied rail hexes west of the Suez Canal are the Egyptian lines' nine; Qantara East (0508), across
    # the canal, is not one.  A CP unit there puts Qantara (0409) and 0408 in its ZOC across the canal.
    pos = write_position(tmp_path, "no-prisoners", "1916-I", "west_allied_movement", "allied",
                         [("d", "a-42-div", "0111"), ("t", "c-3-div", "0508")])
    r = railhead(pos)
    assert r["action"] == "place"
    assert sorted(r["hexes"]) == ["0111", "0210", "0211", "0309", "0410", "0411", "0511"]
    assert sorted(r["blocked"]) == ["0408", "0409"]
    assert {b["reason"] for b in r["blocked"].values()} == {"0408 is in a CP ZOC", "0409 is in a CP ZOC"}


def test_railhead_before_it_arrives(tmp_path):
    pos = write_position(tmp_path, "no-prisoners", "1915-I", "west_allied_movement", "allied", [])
    r = railhead(pos)
    assert (r["action"], r["hexes"], r["rule"]) == ("none", {}, "16.2 A") and "1916-I" in r["reason"]


@pytest.mark.parametrize("cp_at", [(), ("0705",), ("0605", "0305"), ("0905",)])
def test_every_railhead_path_is_legal_and_within_the_allowance(np_game, cp_at):
    units = [("d", "w-inf", "0105")] + [(f"t{i}", "tw-inf", h) for i, h in enumerate(cp_at)]
    pos = position(np_game, units, markers=[("railhead", "0505")])
    opts = railhead_options(pos)
    f = mf.map_facts(pos.game.map, load_tables(pos.game.folder).rail)
    cp_units = {pos.game.map.resolve(h) for h in cp_at}
    cp_zoc = {n for h in cp_units for n in f.neighbors[h]}
    for h, path in opts.paths.items():
        assert path[0] == opts.start and path[-1] == h and 1 <= len(path) - 1 <= opts.allowance
        assert all(f.rail_links(a).get(b) in f.allied_lines for a, b in zip(path, path[1:]))
        assert not (set(path[1:]) & (cp_units | cp_zoc))
    assert set(opts.blocked) <= cp_units | cp_zoc


def test_15_5_air_and_naval_in_their_box_are_always_supplied(tmp_path):
    # 15.5, 19.2 A: air groups and naval squadrons are always in supply, also while held off-map in the
    # air/naval box (19.2 B); a land unit still in the reinforcement box is simply not on the map.
    from position_files import write_position
    pos = write_position(tmp_path, "no-prisoners", "1916-II", "west_allied_first_combat", "allied", [],
                         boxed=[("rfc", "a-air-5", "air_naval"), ("emed", "a-nav-emed", "air_naval"),
                                ("div", "a-52-div", "reinforcements")])
    for uid in ("rfc", "emed"):
        e = supply_json(supply(pos, unit=uid))["units"][0]
        assert (e["unit"], e["hex"], e["supplied"], e["source"], e["cut"], e["rule"]) == \
            (uid, None, True, {"kind": "always", "hex": None}, None, "15.5")
    e = supply_json(supply(pos, unit="div"))["units"][0]
    assert not e["supplied"] and e["cut"] == {"hex": None, "reason": "the unit is not on the map", "rule": "15.1 B"}


def test_16_2_b_railhead_moves_on_from_ramlah_along_cp_rail(tmp_path):
    # 16.2 B: the marker moves along rail hexes, two when in supply; 16.1 B / 16.3 B: the Allies take CP rail
    # over with it.  At Ramlah, where the British line ends, it may go on along the Jaffa-Jerusalem and
    # Beersheba lines (Jaffa, Jerusalem, Beersheba, then Afula and 1009), or back along the British line.
    pos = write_position(tmp_path, "no-prisoners", "1917-IV", "west_allied_movement", "allied",
                         [("g", "a-52-div", "0211"), ("r", "a-53-div", "1007")], markers=[("railhead", "1007")])
    got = railhead_json(railhead_options(pos), pos)
    assert (got["action"], got["allowance"], got["rule"], got["supply"]["supplied"]) == ("move", 2, "16.2 B", True)
    assert got["hexes"] == {"0907": ["1007", "0907"], "0908": ["1007", "0907", "0908"],
                            "1006": ["1007", "1006"], "1008": ["1007", "1008"], "1009": ["1007", "1008", "1009"],
                            "1105": ["1007", "1006", "1105"], "1107": ["1007", "1107"]}
    assert got["blocked"] == {}


def test_17_2_b_western_unit_by_damascus_with_only_kiswe_held(tmp_path):
    # 17.2 B: a Western CP unit next to Damascus, with Kiswe (an Eastern depot) the only occupied CP depot,
    # is out of supply because that source belongs to the other sector, and the reason says so.
    pos = write_position(tmp_path, "no-prisoners", "1917-IV", "west_cp_movement", "cp",
                         [("w", "c-27-div", "1203"), ("k", "c-e-gar", "1304")])
    got = {e["unit"]: e for e in supply_json(supply(pos))["units"]}
    assert not got["w"]["supplied"] and got["w"]["rule"] == "17.2 B"
    assert got["w"]["cut"] == {"hex": "1303", "rule": "17.2 B", "reason": (
        "the nearest source, 1303 (Damascus), draws on 1304 (Kiswe), a depot of the Eastern Sector: Western "
        "units may not draw supply from the other sector's sources")}
    assert got["k"]["supplied"] and got["k"]["rule"] == "15.3 A"
