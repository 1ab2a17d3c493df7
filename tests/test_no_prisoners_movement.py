"""*No Prisoners* legal moves (8.x, 9.x, 10.x, 16.x, 17.1, 19.4, 21.3, 22.2) on a synthetic map with exact answers.

The game module is a test copy (a few counters, the REAL ``tables.yaml``: costs in half MP, clear 2, sand 4,
rough 4, dry lake 2 (winter: sand 3, dry lake 6), road 1, Suez Canal +4, stacking clear 3) in a temporary
``TOOLKIT_MODULES_DIR``.  The synthetic map (flat-top, CCRR names, odd columns shifted down):

* columns 1-10 Western, 12-16 Eastern; column 11 Western above row 6, Eastern below, and 1106 is Damascus;
  the sector boundary is every hexside between a Western and an Eastern hex (none on Damascus's sides);
* in columns 1-9, rows 1, 3, 5 and 7 are sea, so rows 2, 4 and 6 are one-hex corridors ending at column 10;
  rows 8-12 are open clear ground;
* row 2: 0302 sand, 0402 rough, 0702 dry lake; row 6: a Suez Canal hexside 0306|0406;
* row 4: railway ``egypt`` 0104-0504 (Allied, from the western edge), ``british`` 0504-0904 (built: Allied
  behind the railhead marker at 0904), a road along both; 0304 is sand; Allied depot 0104;
* column 10: railway ``beersheba`` 1004-1010 (CP) with its road; CP depots 1010 and 0404; Allied depot 0110.
"""
from __future__ import annotations

import dataclasses
import shutil
import time

import pytest

from position_files import write_position
import yaml

from toolkit.game import load_position
from toolkit.game.module import _load, modules_dir
from toolkit.game.moves import Step, legal_moves
from toolkit.games.no_prisoners import moves
from toolkit.games.no_prisoners.movement import NoPrisonersMove
from toolkit.games.no_prisoners.tables import load_tables
from toolkit.mapdata import compile_source

COLS, ROWS = 16, 12
REAL = modules_dir() / "no-prisoners"
TERRAIN = {"0302": "sand", "0402": "rough", "0702": "dry_lake", "0304": "sand"}
RAIL = {"egypt": ["0104", "0204", "0304", "0404", "0504"],
        "british": ["0504", "0604", "0704", "0804", "0904"],
        "beersheba": ["1004", "1005", "1006", "1007", "1008", "1009", "1010"]}
DEPOTS = {"0104": "allied", "0110": "allied", "1010": "cp", "0404": "cp"}


def region(c: int, r: int) -> str:
    if c <= 10 or (c == 11 and r < 6):
        return "Western"
    return "Damascus" if (c, r) == (11, 6) else "Eastern"


def synthetic_map() -> dict:
    base = {"id": "np-move-test", "title": "No Prisoners movement test",
            "grid": {"orientation": "flat", "size": 10, "naming": {"scheme": "ccrr", "shifted": "odd"},
                     "columns": [1, COLS], "rows": [1, ROWS]},
            "terrain": {"clear": {}, "sand": {}, "rough": {}, "mountain": {}, "dry_lake": {}, "sea": {},
                        "town": {"base": False}, "city": {"base": False}},
            "features": {"railway": {"kind": "path"}, "road": {"kind": "path"}, "depot": {"kind": "path"},
                         "sector_boundary": {"kind": "hexside"}, "all_sea_hexside": {"kind": "hexside"},
                         "suez_canal": {"kind": "hexside"}}}
    grid = compile_source(base).grid
    hexes: dict[str, dict] = {}
    sides = [{"between": ["0306", "0406"], "set": {"suez_canal": "true"}}]
    for c in range(1, COLS + 1):
        for r in range(1, ROWS + 1):
            name = f"{c:02d}{r:02d}"
            ov: dict = {"region": region(c, r)}
            if c <= 9 and r in (1, 3, 5, 7):
                ov["terrain"] = ["sea"]
            elif name in TERRAIN:
                ov["terrain"] = [TERRAIN[name]]
            hexes[name] = ov
            h = grid.parse(name)
            for n in h.neighbors():
                if n in grid.hex_set and n > h:
                    nc, nr = int(grid.name(n)[:2]), int(grid.name(n)[2:])
                    if {region(c, r), region(nc, nr)} == {"Western", "Eastern"}:
                        sides.append({"between": [name, grid.name(n)], "set": {"sector_boundary": "true"}})
    hexes["1106"]["place"] = "Damascus"
    for name, owner in DEPOTS.items():
        hexes[name].setdefault("features", {})["depot"] = owner
    for line, chain in RAIL.items():
        for a, b in zip(chain, chain[1:]):
            sides.append({"between": [a, b], "set": {"railway": line, "road": line}})
        for h in chain:
            hexes[h].setdefault("features", {}).setdefault("railway", line)
    return {**base, "overrides": {"hexes": hexes, "hexsides": sides}}


GAME = """
id: no-prisoners
title: test copy
map: {map}
sides: [{{id: allied, name: Allies}}, {{id: cp, name: Central Powers}}]
nationalities: [{{id: british, name: British, side: allied}}, {{id: turkish, name: Turkish, side: cp}}]
unit_types: [infantry, cavalry, camel_corps, armoured_train, artillery, air_group, armored_car]
flags: [flipped, moved, rail_moved, out_of_supply, amphibious_moved, strategic_moved, disengaged]
turns: ["1916-II", "1916-III", "1917-I"]
phases: [movement, combat1, west_allied_movement, east_allied_movement]
"""


def _counter(cid, side, typ, sector, ma, **extra):
    values = {"sector": sector, "combat": 2, "ma": ma, **extra}
    nat = "british" if side == "allied" else "turkish"
    return {"id": cid, "name": cid, "side": side, "nationality": nat, "type": typ, "values": values}


COUNTERS = [
    _counter("w-inf", "allied", "infantry", "W", 5, amphibious=True),
    _counter("w-inf1", "allied", "infantry", "W", 1),
    _counter("w-inf2", "allied", "infantry", "W", 2),
    _counter("w-inf3", "allied", "infantry", "W", 3),
    _counter("w-inf4", "allied", "infantry", "W", 4),
    _counter("w-inf8", "allied", "infantry", "W", 8),
    _counter("w-camel", "allied", "camel_corps", "W", 5),
    _counter("w-art", "allied", "artillery", "W", 3, support=True, zoc=False, stacks_free=True),
    _counter("e-inf", "allied", "infantry", "E", 2),
    _counter("w-car", "allied", "armored_car", "W", 8),
    {"id": "air", "name": "air", "side": "allied", "nationality": "british", "type": "air_group",
     "values": {"column_shift": 1, "zoc": False, "stacks_free": True, "always_supplied": True}},
    _counter("t-inf", "cp", "infantry", "W", 4),
    _counter("t-inf1", "cp", "infantry", "W", 1),
    _counter("t-train", "cp", "armoured_train", "W", 2, rail_only=True, ignores_ezoc=True, advances=False,
             uses_rail_capacity=False),
]


@pytest.fixture
def npg(tmp_path, monkeypatch):
    folder = tmp_path / "modules" / "no-prisoners"
    folder.mkdir(parents=True)
    (tmp_path / "map.yaml").write_text(yaml.safe_dump(synthetic_map(), sort_keys=False))
    (folder / "game.yaml").write_text(GAME.format(map=tmp_path / "map.yaml"))
    manifest = {"game": "no-prisoners", "counters": COUNTERS,
                "markers": [{"id": "railhead", "name": "Allied Railhead"}]}
    (folder / "counters.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    shutil.copy(REAL / "tables.yaml", folder / "tables.yaml")
    monkeypatch.setenv("TOOLKIT_MODULES_DIR", str(tmp_path / "modules"))
    _load.cache_clear()
    load_tables.cache_clear()
    load_tables.cache_clear()
    yield tmp_path
    _load.cache_clear()
    load_tables.cache_clear()
    load_tables.cache_clear()


def position(tmp_path, units, turn="1916-II", phase="movement", side="allied", railhead="0904", params=None):
    """A position from ``(id, counter, hex)`` or ``(id, counter, hex, [flags])`` tuples."""
    return write_position(tmp_path, "no-prisoners", turn, phase, side, units,
                          markers=[("railhead", railhead)] if railhead else (), params=params)


def dests(pos, result) -> dict[str, int]:
    """Destination hex name -> cost in half MP."""
    return {pos.game.map.name(h): d.cost for h, d in result.destinations.items()}


def why(pos, result, name):
    r = result.why_not(pos.game.map.resolve(name))
    return None if r is None else r.rule


# -- the map ----------------------------------------------------------------------------------------------------
def test_synthetic_map_adjacency(npg):
    pos = position(npg, [("a", "w-inf", "0102")])
    m = pos.game.map.resolve
    assert set(m("0904").neighbors()) >= {m("1004"), m("1005")}
    assert m("1006") in m("1106").neighbors() and m("1206") in m("1106").neighbors()


# -- 8.6: terrain costs (half MP), 8.2 B type costs, 22.2 winter ----------------------------------------------------
def test_terrain_costs_along_a_corridor(npg):
    pos = position(npg, [("a", "w-inf", "0102")])
    assert dests(pos, moves(pos, ["a"])) == {"0202": 2, "0302": 6, "0402": 10}


def test_camels_cross_sand_as_open_desert(npg):
    # 8.2 B: camels cross sand at the desert cost, 1 1/2 MP (8.6 A: still more than clear's 1 MP).
    pos = position(npg, [("a", "w-camel", "0102")])
    assert dests(pos, moves(pos, ["a"])) == {"0202": 2, "0302": 5, "0402": 9}


def test_a_stack_moves_at_its_slowest_members_cost(npg):
    pos = position(npg, [("a", "w-camel", "0102"), ("b", "w-inf", "0102")])
    assert dests(pos, moves(pos, ["a", "b"])) == {"0202": 2, "0302": 6, "0402": 10}


def test_winter_sand_and_dry_lake(npg):
    pos = position(npg, [("a", "w-inf", "0102")], turn="1917-I")
    assert dests(pos, moves(pos, ["a"])) == {"0202": 2, "0302": 5, "0402": 9}
    pos = position(npg, [("a", "w-inf", "0602")], turn="1917-I")
    assert dests(pos, moves(pos, ["a"]))["0702"] == 6          # dry lake: 3 MP in winter (22.2)
    pos = position(npg, [("a", "w-inf", "0602")], turn="1916-III")
    assert dests(pos, moves(pos, ["a"]))["0702"] == 3          # dry lake: 1 1/2 MP out of winter (8.6 A)


def test_prohibited_type_terrain(npg):
    pos = position(npg, [("a", "w-car", "0202")])              # armoured cars: no sand (type_costs null)
    r = moves(pos, ["a"])
    assert why(pos, r, "0302") == "8.4" and dests(pos, r) == {"0102": 2}


def test_suez_canal_hexside_adds_its_cost(npg):
    pos = position(npg, [("a", "w-inf3", "0106")])
    assert dests(pos, moves(pos, ["a"])) == {"0206": 2, "0306": 4}
    pos = position(npg, [("a", "w-inf", "0106")])
    assert dests(pos, moves(pos, ["a"])) == {"0206": 2, "0306": 4, "0406": 10}   # 2 + 2 + (4 canal + 2 clear)


# -- 8.7: roads, 1/2 MP a hex, whatever the terrain --------------------------------------------------------------
def test_road_half_mp(npg):
    pos = position(npg, [("a", "w-inf2", "0104")])
    assert dests(pos, moves(pos, ["a"])) == {"0204": 1, "0304": 2, "0404": 3, "0504": 4}


def test_cp_units_use_the_roads_of_any_railway(npg):
    pos = position(npg, [("t", "t-inf1", "0504")], side="cp")
    assert dests(pos, moves(pos, ["t"])) == {"0404": 1, "0604": 1, "0304": 2, "0704": 2}


# -- 8.4: one hex whatever the cost, but not into prohibited terrain -----------------------------------------------
def test_one_hex_minimum(npg):
    pos = position(npg, [("a", "w-inf1", "0202")])
    r = moves(pos, ["a"])
    assert dests(pos, r) == {"0102": 2, "0302": 2}
    assert r.destinations[pos.game.map.resolve("0302")].stop.rule == "8.4"
    assert why(pos, r, "0301") == "8.4"                          # sea, even for the minimum move


def test_one_hex_minimum_never_into_enemy_or_over_the_boundary(npg):
    pos = position(npg, [("a", "w-inf1", "1012"), ("t", "t-inf", "1011")])
    r = moves(pos, ["a"])
    assert why(pos, r, "1011") == "9.3" and why(pos, r, "1112") == "17.1"


# -- 8.5, 10.1 B: entering an EZOC ends the move ----------------------------------------------------------------
def test_zoc_stop(npg):
    pos = position(npg, [("a", "w-inf", "0310"), ("t", "t-inf", "0610")])
    r = moves(pos, ["a"])
    m = pos.game.map.resolve
    d = r.destinations[m("0510")]
    assert d.cost == 4 and d.stop.rule == "8.5"
    assert why(pos, r, "0610") == "9.3"
    ezoc = set(m("0610").neighbors())
    for dest in r.destinations.values():
        assert not ezoc & set(dest.path[1:-1])                  # never through an EZOC
        assert (dest.stop is not None) == (dest.hex in ezoc)


# -- 10.5, 10.6: disengagement ---------------------------------------------------------------------------------
def test_disengagement_first_hex_free_and_half_ma(npg):
    # 0510 is in the ZOC of the CP unit at 0610; its free neighbours are 0410, 0411, 0511.
    pos = position(npg, [("a", "w-inf2", "0510"), ("t", "t-inf", "0610")])
    r = moves(pos, ["a"])
    assert r.budget == 2                                        # half of MA 2
    assert dests(pos, r) == {"0410": 2, "0411": 2, "0511": 2}
    assert why(pos, r, "0509") == "10.6 A" and why(pos, r, "0611") == "10.6 A"
    pos = position(npg, [("a", "w-inf4", "0510"), ("t", "t-inf", "0610")])
    r = moves(pos, ["a"])
    assert r.budget == 4
    d = dests(pos, r)
    assert {k: v for k, v in d.items() if v == 2} == {"0410": 2, "0411": 2, "0511": 2}
    assert d["0509"] == 4 and d["0611"] == 4                   # later EZOCs may be entered (10.6 A)...
    m = pos.game.map.resolve
    assert r.destinations[m("0509")].stop.rule == "8.5"         # ...and stop the move
    assert set(d) == {"0410", "0411", "0511", "0309", "0310", "0311", "0409", "0412", "0509", "0512",
                      "0611", "0612"}


# -- 8.1 C/D: strategic movement ------------------------------------------------------------------------------
def test_strategic_doubles_ma_and_never_enters_ezoc(npg):
    units = [("a", "w-inf2", "0110"), ("t", "t-inf", "0610")]
    pos = position(npg, units)
    normal, strategic = moves(pos, ["a"]), moves(pos, ["a"], kind="strategic")
    assert normal.budget == 4 and strategic.budget == 8
    assert dests(pos, normal)["0310"] == 4 and "0410" not in dests(pos, normal)
    assert dests(pos, strategic)["0410"] == 6
    assert why(pos, strategic, "0510") == "8.1 D"
    assert not any(d.stop for d in strategic.destinations.values())


def test_strategic_needs_supply_and_no_start_in_ezoc(npg):
    pos = position(npg, [("a", "w-inf2", "0510"), ("t", "t-inf", "0610"), ("g", "w-inf", "0110")])
    assert moves(pos, ["a"], kind="strategic").refused.rule == "8.1 D"
    pos = position(npg, [("a", "w-inf2", "0912")])                  # no occupied depot: out of supply
    r = moves(pos, ["a"], kind="strategic")
    assert r.refused.rule == "8.1 D" and "out of supply" in r.refused.message
    assert moves(pos, ["a"]).refused is None                          # normal movement is fine OOS
    pos = position(npg, [("a", "w-inf2", "0110", ["out_of_supply"])])
    assert moves(pos, ["a"], kind="strategic").refused.rule == "8.1 D"


# -- 8.8-8.10, 16.x: rail movement --------------------------------------------------------------------------------
def test_rail_move_unlimited_along_the_own_net_then_normal(npg):
    pos = position(npg, [("a", "w-inf2", "0104")])
    r = moves(pos, ["a"], kind="rail")
    # 8.9 A: west of the railhead (0904) only; then road 0904 (1/2 MP), clear 1004/1005, road 1006.
    assert dests(pos, r) == {"0204": 0, "0304": 0, "0404": 0, "0504": 0, "0604": 0, "0704": 0, "0804": 0,
                             "0904": 1, "1004": 3, "1005": 3, "1006": 4}


def test_rail_move_once_a_turn_and_needs_supply(npg):
    pos = position(npg, [("a", "w-inf2", "0104", ["rail_moved"])])
    assert moves(pos, ["a"], kind="rail").refused.rule == "8.8 B"
    assert moves(pos, ["a"]).refused is None
    pos = position(npg, [("a", "w-inf2", "0904")])       # depot 0104 empty: out of supply
    assert moves(pos, ["a"], kind="rail").refused.rule == "8.8 A"


def test_rail_capacity_per_phase(npg):
    # tables.yaml (reconstructed): Allied Western capacity 2 in 1916; one used, one left.
    one = [("a", "w-inf2", "0104"), ("b", "w-inf", "0210", ["rail_moved"])]
    assert moves(position(npg, one), ["a"], kind="rail").refused is None
    two = one + [("c", "w-inf", "0211", ["rail_moved"])]
    assert moves(position(npg, two), ["a"], kind="rail").refused.rule == "8.10"
    pos = position(npg, one, params={"rail_moves_used": 2})
    assert moves(pos, ["a"], kind="rail").refused.rule == "8.10"
    pos = position(npg, [("e", "e-inf", "1304")])          # the Eastern Allies have no rail capacity
    assert moves(pos, ["e"], kind="rail").refused.rule == "8.10"


def test_cp_rail_stops_east_of_the_hex_adjacent_to_the_railhead(npg):
    pos = position(npg, [("t", "t-inf1", "1010")], side="cp")
    r = moves(pos, ["t"], kind="rail")
    d = dests(pos, r)
    assert d["1009"] == d["1008"] == d["1007"] == d["1006"] == 0
    assert d["1005"] == 1                                  # 1005 is next to the railhead: road, not rail (8.9 B)
    pos = position(npg, [("t", "t-inf1", "1010")], side="cp", railhead=None)
    assert dests(pos, moves(pos, ["t"], kind="rail"))["1004"] == 0


def test_no_rail_on_the_enemy_net(npg):
    pos = position(npg, [("t", "t-inf1", "0404")], side="cp")    # supplied from its own depot 0404
    r = moves(pos, ["t"], kind="rail")
    assert r.refused is None                               # the Allied net is not theirs (16.3 A): road only
    assert dests(pos, r) == {"0304": 1, "0504": 1, "0204": 2, "0604": 2}


# -- 17.1, 21.3: sector boundary and Damascus ---------------------------------------------------------------------
def test_sector_boundary_never_crossed(npg):
    pos = position(npg, [("a", "w-inf", "1012")])
    r = moves(pos, ["a"])
    assert why(pos, r, "1112") == "17.1" and why(pos, r, "1111") == "17.1"
    assert {pos.game.map.hexes[h].region for h in r.destinations} == {"Western", "Damascus"}   # 21.3 B


def test_damascus_open_to_allies_of_both_sectors_closed_to_cp(npg):
    pos = position(npg, [("a", "w-inf2", "1006")])
    r = moves(pos, ["a"])
    assert dests(pos, r)["1106"] == 2
    assert why(pos, r, "1206") == "17.1" and why(pos, r, "1107") == "17.1"   # no going on into the East
    pos = position(npg, [("e", "e-inf", "1206")])
    assert dests(pos, moves(pos, ["e"]))["1106"] == 2
    pos = position(npg, [("t", "t-inf", "1005")], side="cp")
    assert why(pos, moves(pos, ["t"]), "1106") == "21.3 A"
    pos = position(npg, [("a", "w-inf2", "1006"), ("e", "e-inf", "1106")])
    assert why(pos, moves(pos, ["a"]), "1106") == "21.3 C"


# -- 19.4: armoured trains -------------------------------------------------------------------------------------
def test_armoured_train_only_on_its_rail_net_and_ignores_ezoc(npg):
    units = [("t", "t-train", "1010"), ("x", "w-inf", "0908")]    # 0908's ZOC covers 1008 and 1009
    pos = position(npg, units, side="cp")
    r = moves(pos, ["t"])
    assert dests(pos, r) == {"1009": 1, "1008": 2, "1007": 3, "1006": 4}
    assert not any(d.stop for d in r.destinations.values())
    assert why(pos, r, "0910") == "19.4 A"
    pos = position(npg, units, side="cp", params={"rail_moves_used": 9})   # 19.4 B: no capacity used
    r = moves(pos, ["t"], kind="rail")
    assert r.refused is None and dests(pos, r)["1006"] == 0


# -- 9.2: stacking limits at the end of the move only -----------------------------------------------------------
def test_stacking_at_end_only(npg):
    full = [("s1", "w-inf", "0206"), ("s2", "w-inf", "0206"), ("s3", "w-inf", "0206")]   # clear: limit 3
    pos = position(npg, full + [("a", "w-inf3", "0106")])
    r = moves(pos, ["a"])
    assert dests(pos, r) == {"0306": 4}                    # through the full hex, not into it
    assert why(pos, r, "0206") == "9.1"
    pos = position(npg, full + [("g", "w-art", "0106")])  # support units stack free (9.4 A)
    assert dests(pos, moves(pos, ["g"])) == {"0206": 2, "0306": 4}


# -- 20.x: the amphibious move ---------------------------------------------------------------------------------------
def test_amphibious_move_to_any_coastal_city_town_or_clear_hex_of_the_sector(npg):
    units = [("a", "w-inf", "0102"), ("t", "t-inf", "0208")]
    pos = position(npg, units)
    r = moves(pos, ["a"], kind="amphibious")
    assert r.refused is None
    d = dests(pos, r)
    assert set(d.values()) == {10}                                      # all the MA (20.2 B)
    assert all(x.stop.rule == "20.2 B" for x in r.destinations.values())
    assert "0202" in d and "0406" in d and "0908" in d                 # coastal clear hexes
    assert "0302" not in d and "0304" not in d                          # sand: not clear
    assert "0810" not in d and "1208" not in d                          # inland; the other sector
    assert why(pos, r, "0208") == "20.4"                                # never ashore into enemy units
    pos = position(npg, units, params={"amphibious_used": "W:1916"})
    assert moves(pos, ["a"], kind="amphibious").refused.rule == "20.2 A"
    pos = position(npg, units, params={"amphibious_used": "W:1915"})
    assert moves(pos, ["a"], kind="amphibious").refused is None
    pos = position(npg, [("a", "w-inf", "0810")])
    assert moves(pos, ["a"], kind="amphibious").refused.rule == "20.2 A"   # not a coastal hex
    pos = position(npg, [("a", "w-inf2", "0102")])
    assert moves(pos, ["a"], kind="amphibious").refused.rule == "20.4"      # counter without `amphibious`
    pos = position(npg, [("t", "t-inf", "0102")], side="cp")
    assert moves(pos, ["t"], kind="amphibious").refused.rule == "20.1"


# -- who may not move ------------------------------------------------------------------------------------------
def test_refusals(npg):
    pos = position(npg, [("a", "w-inf", "0110", ["moved"]), ("b", "w-inf", "0112"), ("t", "t-inf", "0912")])
    assert moves(pos, ["a"]).refused.rule == "8.3 A"
    assert moves(pos, ["t"]).refused.rule == "8.3 A"                   # not the phasing side
    assert moves(pos, ["b"], pickup=["a"]).refused.rule == "8.2 A"
    assert moves(pos, ["b"], kind="fly").refused.rule == "8.1 C"
    pos = position(npg, [("b", "w-inf", "0112")], phase="combat1")
    assert moves(pos, ["b"]).refused.rule == "8.3 A"
    pos = position(npg, [("b", "w-inf", "0112")], phase="east_allied_movement")
    assert moves(pos, ["b"]).refused.rule == "4.2.1.3"
    pos = position(npg, [("b", "w-inf", "0112")], phase="west_allied_movement")
    assert moves(pos, ["b"]).refused is None
    pos = position(npg, [("b", "air", "0112")])
    assert moves(pos, ["b"]).refused.rule == "19.2 A"


# -- properties ---------------------------------------------------------------------------------------------------
CASES = [
    ([("a", "w-inf", "0310"), ("t", "t-inf", "0610")], "allied", "normal"),
    ([("a", "w-inf", "0510"), ("t", "t-inf", "0610")], "allied", "normal"),
    ([("a", "w-inf", "0110"), ("t", "t-inf", "0610")], "allied", "strategic"),
    ([("a", "w-inf", "0104"), ("t", "t-inf", "0910")], "allied", "rail"),
    ([("a", "t-inf", "1010"), ("x", "w-inf", "0908")], "cp", "rail"),
    ([("a", "w-inf", "0102")], "allied", "normal"),
    ([("a", "w-inf", "1008"), ("e", "e-inf", "1206")], "allied", "normal"),
]


def replay(rules, path) -> int | None:
    """The cheapest cost of walking ``path`` step by step through ``rules.steps`` (any mode), or None."""
    states = {None: 0}
    for i, (a, b) in enumerate(zip(path, path[1:])):
        nxt: dict = {}
        for mode, cost in states.items():
            for s in rules.steps(a, cost, mode):
                if isinstance(s, Step) and s.to == b and (s.stop is None or i == len(path) - 2):
                    c = cost + s.cost
                    if rules.budget is None or c <= rules.budget:
                        if s.no_end is None or i < len(path) - 2:
                            nxt[s.mode] = min(nxt.get(s.mode, c), c)
        states = nxt
        if not states:
            return None
    return min(states.values())


@pytest.mark.parametrize("units,side,kind", CASES)
def test_every_path_is_legal_and_costs_what_it_says(npg, units, side, kind):
    pos = position(npg, units, side=side)
    rules = NoPrisonersMove(pos, [pos.by_id["a"]], kind)
    result = legal_moves(rules)
    assert result.refused is None and result.destinations
    for h, d in result.destinations.items():
        assert d.path[0] == rules.start and d.path[-1] == h
        assert replay(rules, d.path) == d.cost, pos.game.map.name(h)


@pytest.mark.parametrize("units,side,kind", CASES[:3] + CASES[5:])
def test_more_ma_never_shrinks_the_destinations(npg, units, side, kind):
    before = None
    for counter in ("w-inf1", "w-inf2", "w-inf3", "w-inf4", "w-inf", "w-inf8"):
        pos = position(npg, [(units[0][0], counter, units[0][2])] + units[1:], side=side)
        now = set(moves(pos, ["a"], kind=kind).destinations)
        if before is not None:
            assert before <= now, counter
        before = now


# -- the real scenario ----------------------------------------------------------------------------------------------
def test_scenario_1_rail_move_runs():
    pos = load_position(REAL / "scenarios" / "scenario-1.yaml")
    pos = dataclasses.replace(pos, phase="west_allied_movement")
    moves(pos, ["a-anzac-mtd-div"], kind="rail")
    t = time.perf_counter()
    r = moves(pos, ["a-anzac-mtd-div"], kind="rail")
    elapsed = (time.perf_counter() - t) * 1000
    print(f"scenario 1, ANZAC Mounted Div, rail + normal: {len(r.destinations)} destinations in {elapsed:.1f} ms")
    assert r.refused is None and r.destinations
    name = pos.game.map.name
    assert all(pos.game.map.hexes[h].region != "Eastern" for h in r.destinations)
    assert name(pos.game.map.resolve("Qantara")) == "0409"


def _scenario_2(tmp_path, turn, phase, extra_units):
    data = yaml.safe_load((REAL / "scenarios" / "scenario-2.yaml").read_text())
    data.update(turn=turn, phase=phase)
    data["units"] += [{"id": i, "counter": c, "hex": h} for i, c, h in extra_units]
    path = tmp_path / "s2.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return load_position(path)


def test_scenario_2_opening_strategic_move_may_enter_ezoc(tmp_path):
    # 26.5 B: in the CP 1915-I Western Movement Phase, the stack set up in Gaza (0907) may move strategically
    # into 0908, in the ZOC of an Allied unit in 0909, and stops there.  Any other turn 8.1 D forbids it.
    allied = [("x", "a-52-div", "0909")]
    pos = _scenario_2(tmp_path, "1915-I", "west_cp_movement", allied)
    m = pos.game.map
    gaza, into = m.resolve("Gaza"), m.resolve("0908")
    zoc = set(m.resolve("0909").neighbors())
    assert m.name(gaza) == "0907" and into in zoc and gaza not in zoc
    r = moves(pos, ["c-23-div"], kind="strategic")
    assert r.refused is None and r.destinations[into].stop.rule == "26.5 B"
    assert r.destinations[into].path == (gaza, into)
    assert all(not zoc & set(d.path[1:-1]) for d in r.destinations.values())      # every one stops at the EZOC
    later = _scenario_2(tmp_path, "1915-II", "west_cp_movement", allied)
    assert moves(later, ["c-23-div"], kind="strategic").why_not(into).rule == "8.1 D"
    assert moves(pos, ["c-23-div"]).destinations[into].stop.rule == "8.5"       # a normal move: the usual stop
    rear = NoPrisonersMove(pos, [pos.by_id["c-26-div"]], "strategic")      # set up at Haifa, in the rear (26.3.1)
    assert min(rear.start.distance(m.resolve(p)) for p in ("Gaza", "Beersheba")) > 1
    assert rear.strategic_ezoc is None
    assert NoPrisonersMove(pos, [pos.by_id["c-23-div"]], "strategic").strategic_ezoc.rule == "26.5 B"


# -- 20.3: a reinforcement lands by sea ---------------------------------------------------------------------------------
def test_reinforcement_lands_by_sea_where_an_amphibious_move_could(tmp_path):
    # The ANZAC Mounted Division is due in 1916-II: from its box it may land in any coastal city, town or clear
    # hex of the Western Sector not held by the enemy (20.3 A, 20.2 A) -- the landings of the same unit's sea move
    # from the Egyptian coast hex 0208 plus 0208 itself.  The CP unit in Gaza closes Gaza.
    cp = [("c", "c-alpk", "0907")]
    boxed = [("anzac", "a-anzac-mtd-div", "reinforcements")]
    pos = write_position(tmp_path, "no-prisoners", "1916-II", "west_allied_movement", "allied", cp, boxed=boxed)
    r = moves(pos, ["anzac"], kind="amphibious")
    m = pos.game.map
    gaza, delta = m.resolve("Gaza"), m.resolve("0208")
    assert r.refused is None and gaza not in r.destinations and r.why_not(gaza).rule == "20.4"
    at_sea = write_position(tmp_path, "no-prisoners", "1916-II", "west_allied_movement", "allied",
                            cp + [("anzac", "a-anzac-mtd-div", "0208")])
    by_sea = moves(at_sea, ["anzac"], kind="amphibious")
    assert by_sea.refused is None and set(r.destinations) == set(by_sea.destinations) | {delta}
    for h, d in r.destinations.items():
        assert d.path == (h,) and d.cost == r.budget and d.stop.rule == "20.2 B"


def test_reinforcement_landing_limits(tmp_path):
    boxed = [("anzac", "a-anzac-mtd-div", "reinforcements"), ("mgc", "a-mgc", "reinforcements")]
    used = {"amphibious_used": "W:1916"}
    pos = write_position(tmp_path, "no-prisoners", "1916-II", "west_allied_movement", "allied", [], params=used,
                         boxed=boxed)
    assert moves(pos, ["anzac"], kind="amphibious").refused.rule == "20.2 A"     # 20.3 B: it counts
    assert moves(pos, ["mgc"], kind="amphibious").refused.rule == "6.1"          # not due until 1917-I
    assert moves(pos, ["anzac"]).refused.rule == "6.4 C"                          # only by sea
    # 20.3 B: a unit due in an Allied-held port (AR+2, 18.4) does not count against the yearly landing.
    ar = write_position(tmp_path, "no-prisoners", "1916-IV", "east_allied_movement", "allied", [],
                        params={"amphibious_used": "E:1916", "arab_revolt": "1916-II"},
                        boxed=[("fm", "a-french-mission", "reinforcements")])
    r = moves(ar, ["fm"], kind="amphibious")
    assert r.refused is None and r.destinations
    assert all(ar.game.map.hexes[h].region == "Eastern" for h in r.destinations)
