"""The reconstructed Jerusalem! (1948) map: rulebook places, roads, terrain counts, wall, LOS."""
from __future__ import annotations

import sys
from pathlib import Path

import networkx as nx
import pytest
import yaml

from toolkit.los import LosEngine, Obstacles
from toolkit.los.explain import map_obstacles
from toolkit.mapdata import open_map, to_graph
from toolkit.mapdata.compiler import project
from toolkit.mapdata.schema import Projection

ROOT = Path(__file__).resolve().parent.parent
MAP_DIR = ROOT / "maps" / "jerusalem-1948"
sys.path.insert(0, str(ROOT / "scripts"))
from mapbuild import jerusalem_1948 as builder  # noqa: E402

# Every place the rulebook names (rule or section in the comment), under the name the map uses.
RULEBOOK_PLACES = [
    "to Tel Aviv",        # 2.0 a), 6.4.1
    "Hulda",              # 2.0 b), 6.4.1
    "Latrun",             # 9.5, Scenario II
    "Latrun Police Fort",  # 1.3, 9.6
    "Notre Dame",         # 1.3, 9.6 (Notre Dame Cathedral)
    "Bevingrad",          # 1.3, 2.0, 9.6
    "Greek Monastery",    # 9.6, 10.7.2
    "Hebrew University",  # 10.7.2
    "Deir Yassin",        # 13.2.4
    "Kfar Etzion",        # Overview, Scenario II
    "Nebi Daniel",        # Overview
    "Bethany", "Ramat Rahel", "El Kubab", "Jewish HQ", "Jewish Quarter", "Arab Quarter",  # Scenario II a)
    "Bab El Wad", "Beit Mashir", "Saris", "Kastel", "Lifta", "Hadassah", "Katamon",      # Scenario II b)
    "Deir Muhzein", "Sheikh Jarrah",                                                      # Scenario II a)
    "Shuafat", "Bethlehem", "Sufata", "Sur Bahir",                                        # Scenario II b)
    "Ramallah",           # Scenario II c)
    "Burma Road",         # Scenario II title
]
# Other spellings in the rulebook -> the map's name (resolve() knows one name per hex).
ALIASES = {"Sheik Jarrah": "Sheikh Jarrah", "Police Fort": "Latrun Police Fort",
           "Notre Dame Cathedral": "Notre Dame", "Road to Tel Aviv": "to Tel Aviv"}
ROADS = ("primary_road", "secondary_road")


@pytest.fixture(scope="module")
def cmap():
    return open_map("jerusalem-1948")


@pytest.fixture(scope="module")
def graph(cmap):
    return to_graph(cmap)


def terrain_hexes(cmap, name):
    return {h for h, info in cmap.hexes.items() if name in info.terrain}


def road_graph(graph):
    """Hexes joined only through hexsides that carry a road."""
    return nx.Graph([(a, b) for a, b, d in graph.edges(data=True) if any(d.get(r) for r in ROADS)])


@pytest.mark.parametrize("name", RULEBOOK_PLACES)
def test_rulebook_place_resolves(cmap, name):
    assert cmap.hexes[cmap.resolve(name)].place.casefold() == name.casefold()


@pytest.mark.parametrize("alias, name", sorted(ALIASES.items()))
def test_rulebook_aliases_name_map_places(cmap, alias, name):
    assert cmap.resolve(name)


def test_old_city_and_jerusalem_are_regions(cmap):
    old = {h for h, info in cmap.hexes.items() if info.region == "Old City"}
    assert old == {cmap.resolve("Arab Quarter"), cmap.resolve("Jewish Quarter")}
    city = terrain_hexes(cmap, "jerusalem_city") | terrain_hexes(cmap, "bevingrad")
    assert {h for h, info in cmap.hexes.items() if info.region == "Jerusalem"} == city - old


def test_places_within_one_hex_of_their_coordinates(cmap):
    spec = yaml.safe_load((MAP_DIR / "map.yaml").read_text())
    proj = Projection.model_validate(spec["projection"])
    positions = builder.place_positions(MAP_DIR / "data") | builder.CITY_QUARTERS
    assert {n.casefold() for n in RULEBOOK_PLACES} <= {n.casefold() for n in positions}
    for name, (lon, lat) in positions.items():
        x, y = project(proj, [[lon, lat]], "lonlat")[0]
        assert cmap.resolve(name).distance(cmap.grid.layout.hex_at(x, y)) <= 1, name


def test_tel_aviv_road_reaches_the_city_through_latrun_and_bab_el_wad(cmap, graph):
    roads = road_graph(graph)
    city = terrain_hexes(cmap, "jerusalem_city")
    start = cmap.resolve("to Tel Aviv")
    assert cmap.hexes[start].features["map_edge_entry"] == "Tel Aviv"
    lengths = nx.single_source_shortest_path_length(roads, start)
    target = min((h for h in city if h in lengths), key=lengths.get)
    route = nx.shortest_path(roads, start, target)
    assert cmap.resolve("Latrun") in route and cmap.resolve("Latrun Police Fort") in route
    assert cmap.resolve("Bab el Wad") in route
    highway = nx.Graph([(a, b) for a, b, d in graph.edges(data=True) if d.get("primary_road")])
    assert nx.has_path(highway, start, cmap.resolve("Jewish HQ"))      # the highway is primary road all along


def test_hulda_road_reaches_the_city(cmap, graph):
    roads = road_graph(graph)
    city = terrain_hexes(cmap, "jerusalem_city")
    assert any(nx.has_path(roads, cmap.resolve("Hulda"), h) for h in city)


def test_exactly_seven_hill2_hexes_at_the_summits(cmap):
    hill2 = {h for h, info in cmap.hexes.items() if info.terrain[0] == "hill2"}
    assert len(hill2) == 7
    assert {cmap.resolve(n) for n in builder.SUMMITS} == hill2
    assert all(cmap.hexes[h].elevation == 2 for h in hill2)
    assert cmap.hexes[cmap.resolve("Nebi Samwil")].terrain == ("hill2",)


def test_elevation_levels_follow_base_terrain(cmap):
    level = {"clear": 0, "hill1": 1, "hill2": 2}
    assert all(info.elevation == level[info.terrain[0]] for info in cmap.hexes.values())
    assert cmap.hexes[cmap.resolve("Latrun Police Fort")].elevation == 1    # 9.5 example


def test_twelve_city_hexes_and_bevingrad_joined_by_city_roads(cmap, graph):
    city = terrain_hexes(cmap, "jerusalem_city")
    bevingrad = terrain_hexes(cmap, "bevingrad")
    assert len(city) == 12 and bevingrad == {cmap.resolve("Bevingrad")}
    assert not bevingrad & city
    every = city | bevingrad
    links = nx.Graph([(a, b) for a, b, d in graph.edges(data=True) if d.get("primary_road") == builder.CITY_ROAD])
    assert set(links.nodes) == every
    assert nx.is_connected(links)
    for a in every:
        for b in a.neighbors():
            if b in every:
                assert graph.edges[a, b]["primary_road"] == builder.CITY_ROAD


def test_old_city_wall_surrounds_the_old_city(cmap):
    old = {cmap.resolve("Arab Quarter"), cmap.resolve("Jewish Quarter")}
    expected = {frozenset((a, b)) for a in old for b in a.neighbors() if b not in old}
    walls = {frozenset((s.a, s.b)) for s, attrs in cmap.hexsides.items() if attrs.get("old_city_wall")}
    assert walls == expected and len(walls) == 10


def test_special_hexes(cmap):
    assert "police_fort" in cmap.hexes[cmap.resolve("Latrun Police Fort")].terrain
    assert "notre_dame" in cmap.hexes[cmap.resolve("Notre Dame")].terrain
    assert "tel_aviv_entrance" in cmap.hexes[cmap.resolve("to Tel Aviv")].terrain
    assert "village" in cmap.hexes[cmap.resolve("Hulda")].terrain
    assert any("railway_bridge" in info.features for info in cmap.hexes.values())
    assert any(info.features.get("road_bridge") == "primary" for info in cmap.hexes.values())


def test_los_blocked_by_a_village_under_touch(cmap):
    # 2112 and 2114 are clear level-0 hexes due north and south of Imwas (2113, clear + village): the line
    # runs through the village hex's centre and through nothing else (hand-checked on the preview).
    engine, obstacles = LosEngine(cmap.grid), map_obstacles(cmap)
    a, b, village = cmap.resolve("2112"), cmap.resolve("2114"), cmap.resolve("Imwas")
    assert cmap.hexes[village].terrain == ("clear", "village")
    result = engine.check(a, b, cmap.los.convention, obstacles)
    assert not result.visible and result.blocked_by == (village,)
    without = Obstacles(obstacles.hexes - {village}, obstacles.levels, obstacles.elevation)
    assert engine.check(a, b, "touch", without).visible


def test_hebrew_university_cannot_see_the_greek_monastery(cmap):
    # 10.7.2 example: artillery there needs a spotter.
    result = LosEngine(cmap.grid).check(cmap.resolve("Hebrew University"), cmap.resolve("Greek Monastery"),
                                        "touch", map_obstacles(cmap))
    assert not result.visible
