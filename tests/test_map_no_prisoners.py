"""The No Prisoners (1915-18) map: geography, networks and what the rulebook says about hexes.

Rule numbers refer to /work/shared/rules/no-prisoners.txt (the rulebook cites no hex numbers).
"""
from __future__ import annotations

import math
from pathlib import Path

import networkx as nx
import pytest
import yaml

from toolkit.hexgrid import Hex
from toolkit.mapdata import compile_map, to_graph
from toolkit.mapdata.compiler import project
from toolkit.mapdata.schema import Projection
from toolkit.render.scene import shared_edge

MAP = Path(__file__).resolve().parent.parent / "maps" / "no-prisoners" / "map.yaml"

# Real positions (lon, lat), independent of the builder's GeoNames look-ups (rounded public coordinates).
REAL = {
    "Cairo": (31.24, 30.04), "Port Said": (32.30, 31.26), "Suez": (32.55, 29.97), "Qantara": (32.32, 30.85),
    "El Arish": (33.80, 31.13), "Kalaat": (33.75, 29.91), "Audja": (34.43, 30.88), "Gaza": (34.47, 31.50),
    "Beersheba": (34.79, 31.25), "Ramlah": (34.87, 31.93), "Jaffa": (34.75, 32.05), "Jerusalem": (35.21, 31.77),
    "Haifa": (34.99, 32.82), "Tyre": (35.20, 33.27), "Damascus": (36.29, 33.51), "Kiswe": (36.24, 33.36),
    "Dera": (36.11, 32.62), "Amman": (35.93, 31.95), "Ma'an": (35.73, 30.20), "Aqaba": (35.01, 29.53),
    "Tabuk": (36.57, 28.38), "Wejh": (36.45, 26.24), "Yenbo": (38.06, 24.09), "Medina": (39.61, 24.47),
}
WESTERN = ["Cairo", "Port Said", "Suez", "Qantara", "El Arish", "Kalaat", "Audja", "Gaza", "Beersheba", "Ramlah",
           "Jaffa", "Jerusalem", "Haifa", "Tyre"]
EASTERN = ["Kiswe", "Dera", "Amman", "Ma'an", "Aqaba", "Tabuk", "Wejh", "Yenbo", "Medina"]


@pytest.fixture(scope="module")
def cmap():
    return compile_map(MAP)


@pytest.fixture(scope="module")
def graph(cmap):
    return to_graph(cmap)


def rail_graph(graph: nx.Graph, *lines: str) -> nx.Graph:
    return graph.edge_subgraph([(a, b) for a, b, d in graph.edges(data=True) if d.get("railway") in lines])


def side_attrs(cmap, feature: str) -> list:
    return [s for s, attrs in cmap.hexsides.items() if feature in attrs]


@pytest.mark.parametrize("name", sorted(REAL))
def test_place_within_one_hex_of_its_real_position(cmap, name):
    spec = yaml.safe_load(MAP.read_text())
    (x, y), = project(Projection.model_validate(spec["projection"]), [REAL[name]], "lonlat")
    real = cmap.grid.layout.hex_at(float(x), float(y))
    assert cmap.resolve(name).distance(real) <= 1


def test_no_hex_is_both_water_and_land(cmap):
    for h, info in cmap.hexes.items():
        if {"sea", "lake"} & set(info.terrain):
            assert len(info.terrain) == 1 and not info.place and not info.features, cmap.name(h)


def test_railways_run_on_land(cmap):
    for s in side_attrs(cmap, "railway"):
        assert not {"sea", "lake"} & {cmap.hexes[s.a].terrain[0], cmap.hexes[s.b].terrain[0]}


def test_hejaz_railway_damascus_to_medina(cmap, graph):
    hejaz = rail_graph(graph, "hejaz")
    path = nx.shortest_path(hejaz, cmap.resolve("Damascus"), cmap.resolve("Medina"))
    for town in ("Kiswe", "Dera", "Amman", "Ma'an", "Tabuk"):
        assert cmap.resolve(town) in path, town


def test_british_railway_qantara_to_ramlah(cmap, graph):
    """2.1 addenda: the British railroad (also a road) runs Qantara - El Arish - Gaza - Ramlah."""
    path = nx.shortest_path(rail_graph(graph, "british"), cmap.resolve("Qantara"), cmap.resolve("Ramlah"))
    assert cmap.resolve("El Arish") in path and cmap.resolve("Gaza") in path
    for a, b in zip(path, path[1:]):
        assert cmap.hexside(a, b)["road"] == "british"


def test_allied_net_reaches_the_western_map_edge(cmap, graph):
    """16.2D: the Allied net is the rail linked to the western map edge; Cairo and Qantara are on it."""
    allied = rail_graph(graph, "egypt", "egypt_canal", "british")
    edge = [h for h in allied if cmap.grid.naming.to_offset(h)[0] == cmap.grid.columns[0]]
    assert edge
    for town in ("Cairo", "Qantara", "Port Said", "Suez"):
        assert nx.has_path(allied, edge[0], cmap.resolve(town)), town


def test_other_lines(cmap, graph):
    assert nx.has_path(rail_graph(graph, "haifa_deraa"), cmap.resolve("Haifa"), cmap.resolve("Dera"))
    assert nx.has_path(rail_graph(graph, "jaffa_jerusalem"), cmap.resolve("Jaffa"), cmap.resolve("Jerusalem"))
    assert nx.has_path(rail_graph(graph, "beersheba"), cmap.resolve("Beersheba"), cmap.resolve("Audja"))


def _corner(p) -> tuple[float, float]:
    return (round(p[0], 3), round(p[1], 3))


def test_suez_canal_is_a_chain_from_port_said_to_suez(cmap):
    sides = side_attrs(cmap, "suez_canal")
    chain = nx.Graph()
    for s in sides:
        p, q = shared_edge(cmap.grid.layout, s.a, s.b)
        chain.add_edge(_corner(p), _corner(q))
    assert nx.is_connected(chain) and max(d for _, d in chain.degree) <= 2
    bank = {h for s in sides for h in s}
    for town in ("Port Said", "Qantara", "Suez"):
        assert cmap.resolve(town) in bank, town
    assert any(cmap.hexside(*s)["suez_canal"] == "bitter_lakes" for s in sides)


def test_sector_boundary_and_damascus(cmap, graph):
    """17.x: Western and Eastern are separated by the boundary; 21.3A: Damascus lies on it."""
    damascus = cmap.resolve("Damascus")
    assert cmap.hexes[damascus].region == "Damascus"
    around = cmap.grid.neighbors(damascus)
    assert {cmap.hexes[h].region for h in around} == {"Western", "Eastern"}
    boundary = side_attrs(cmap, "sector_boundary")
    touching = [s for s in boundary if s.a in around and s.b in around]   # meets a corner of Damascus's hex
    assert len(touching) == 2
    for s in boundary:
        assert {cmap.hexes[s.a].region, cmap.hexes[s.b].region} == {"Western", "Eastern"}
    cut = graph.copy()
    cut.remove_edges_from([(s.a, s.b) for s in boundary])
    cut.remove_node(damascus)
    assert not nx.has_path(cut, cmap.resolve("Jerusalem"), cmap.resolve("Amman"))


@pytest.mark.parametrize("name", WESTERN)
def test_western_places(cmap, name):
    assert cmap.hexes[cmap.resolve(name)].region == "Western"


@pytest.mark.parametrize("name", EASTERN)
def test_eastern_places(cmap, name):
    assert cmap.hexes[cmap.resolve(name)].region == "Eastern"


def test_kiswe_is_the_hex_just_south_of_damascus(cmap):
    """6.3D: Eastern CP reinforcements also enter the hex just south of Damascus; Kiswe holds a garrison."""
    assert cmap.resolve("Kiswe") == cmap.resolve("Damascus") + Hex(0, 1)


@pytest.mark.parametrize("name", ["Aqaba", "Wejh", "Yenbo"])
def test_red_sea_ports_are_allied_depots(cmap, name):
    """15.2B, 15.8B, 15.9D: Allied depots on the Red Sea, garrisoned by the CP at the start (25.3.2)."""
    info = cmap.hexes[cmap.resolve(name)]
    assert "port" in info.terrain and info.features["depot"] == "allied" and info.region == "Eastern"


def test_haifa_port_serves_the_allies_once_taken(cmap):
    """15.9E."""
    info = cmap.hexes[cmap.resolve("Haifa")]
    assert "port" in info.terrain and info.features["depot"] == "allied"


@pytest.mark.parametrize("name", ["Kiswe", "Dera", "Amman", "Ma'an", "Medina"])
def test_eastern_garrison_towns_are_cp_depots(cmap, name):
    assert cmap.hexes[cmap.resolve(name)].features["depot"] == "cp"


def test_setup_places(cmap):
    """25.3/26.3: cities and towns the setups use; 21.2: Medina and Jerusalem are cities."""
    for name in ("Medina", "Jerusalem", "Damascus", "Cairo", "Gaza"):
        assert "city" in cmap.hexes[cmap.resolve(name)].terrain, name
    for name in REAL:
        assert {"city", "town"} & set(cmap.hexes[cmap.resolve(name)].terrain), name
    for name in ("Tabuk", "Medina", "Ma'an"):   # on the Tabuk/Ma'an - Medina railroad
        assert cmap.hexes[cmap.resolve(name)].features["railway"] == "hejaz", name
    eastern_desert = [h for h, i in cmap.hexes.items() if i.region == "Eastern" and i.terrain[0] == "desert"]
    assert len(eastern_desert) > 20   # 25.3.2: the Rashid Camel Corps sets up in any desert hex


def test_qantara_railhead_west_of_the_canal(cmap):
    """25.4.1 railhead at Qantara; 16.2A it starts west of the canal; a land hex lies east of it (setup)."""
    qantara = cmap.resolve("Qantara")
    east = [n for n in cmap.grid.neighbors(qantara) if "suez_canal" in cmap.hexside(qantara, n)]
    assert east and all(cmap.hexes[n].terrain[0] not in ("sea", "lake") for n in east)
    assert cmap.hexes[qantara].features["railway"] in ("british", "egypt", "egypt_canal")


def test_no_line_of_sight(cmap):
    assert cmap.los.blocking_terrain == () and cmap.los.blocking_hexside_features == ()


def test_hexes_are_thirty_miles(cmap):
    spec = yaml.safe_load(MAP.read_text())
    assert math.isclose(spec["grid"]["size"] * math.sqrt(3), 30 * 1.609344, rel_tol=1e-4)
    assert spec["projection"]["units_per_km"] == 1


# ------------------------------------------------------------------ water hexsides (10.3A) and land reach

WATER_SIDES = ("all_sea_hexside", "all_lake_hexside")
# Land hexes with no land route to Cairo: real islands only.  At 30-mile hexes there are none (Tiran,
# Sanafir and the Red Sea reef islands lie inside hexes whose main land is the mainland).
ISLANDS: frozenset[str] = frozenset()


def land_graph(cmap) -> nx.Graph:
    """Land hexes joined across every hexside that is not all-sea or all-lake (the canal is crossed)."""
    land = [h for h, info in cmap.hexes.items() if info.terrain[0] not in ("sea", "lake")]
    g = nx.Graph()
    g.add_nodes_from(land)
    for h in land:
        for n in cmap.grid.neighbors(h):
            if n in g and not any(cmap.hexside(h, n).get(f) for f in WATER_SIDES):
                g.add_edge(h, n)
    return g


def test_10_3a_every_land_hex_has_a_land_neighbour(cmap):
    """10.3A: an all-sea hexside is water along the whole hexside, so a coastal hex keeps its land neighbours
    along the coast (the edge between two coastal hexes may run partly offshore)."""
    g = land_graph(cmap)
    cut_off = sorted(cmap.name(h) for h in g if g.degree(h) == 0)
    assert cut_off == sorted(ISLANDS)


@pytest.mark.parametrize("a, b", [("1005", "1006"), ("1102", "1103"), ("1102", "1202"), ("1102", "1203"),
                                  ("1201", "1202"), ("0508", "0509"), ("1012", "1013")])
def test_10_3a_straight_coasts_are_not_all_sea(cmap, a, b):
    """Haifa|Jaffa, Sidon|Tyre and the Lebanese coast, Romani, Aqaba: land neighbours along a coast."""
    side = cmap.hexside(cmap.grid.parse(a), cmap.grid.parse(b))
    assert not any(side.get(f) for f in WATER_SIDES), side


@pytest.mark.parametrize("a, b, kind", [("0513", "0614", "all_sea_hexside"), ("0614", "0615", "all_sea_hexside"),
                                        ("0716", "0816", "all_sea_hexside"), ("0914", "1015", "all_sea_hexside"),
                                        ("1107", "1208", "all_lake_hexside"), ("0308", "0408", "all_lake_hexside")])
def test_10_3a_gulfs_dead_sea_and_lagoons_stay_water(cmap, a, b, kind):
    """The Gulfs of Suez and Aqaba, the Dead Sea and Lake Manzala still part the hexes on their shores."""
    side = cmap.hexside(cmap.grid.parse(a), cmap.grid.parse(b))
    assert side.get(kind) and not any(side.get(f) for f in WATER_SIDES if f != kind)


def test_gulf_of_suez_is_crossed_only_round_its_head_at_suez(cmap):
    """West shore (Egypt) to east shore (Sinai): every land route passes Suez or north of it (the canal)."""
    g = land_graph(cmap)
    north = {cmap.resolve("Suez")} | {h for h in g if cmap.grid.naming.to_offset(h)[1] < 12}
    assert nx.has_path(g, cmap.grid.parse("0413"), cmap.grid.parse("0613"))
    assert not nx.has_path(g.subgraph(set(g) - north), cmap.grid.parse("0413"), cmap.grid.parse("0613"))


def test_lake_manzala_is_a_lake(cmap):
    """Lake Manzala (behind the bar from Damietta to Port Said) is a lake, not the sea."""
    sides = [cmap.hexside(cmap.grid.parse("0308"), cmap.grid.parse("0408"))]
    assert all(s.get("all_lake_hexside") and not s.get("all_sea_hexside") for s in sides)


def test_every_land_hex_is_reached_by_land_from_cairo(cmap):
    """Acceptance (issue 10): every land hex is reachable by land from Cairo, but for documented islands."""
    g = land_graph(cmap)
    reached = nx.node_connected_component(g, cmap.resolve("Cairo"))
    assert sorted(cmap.name(h) for h in g if h not in reached) == sorted(ISLANDS)


# ------------------------------------------------------------------ railway junctions

def lines_at(graph: nx.Graph, h) -> set[str]:
    return {d["railway"] for _, _, d in graph.edges(h, data=True) if d.get("railway")}


def test_rail_lines_join_only_where_real_lines_met(cmap, graph):
    """16.1: the lines meet at Dera, Afula, Lydda/Ramlah, Qantara and Ismailia (Tulkarm lies in Jaffa's hex)."""
    junctions = {cmap.name(h): lines_at(graph, h) for h in graph if len(lines_at(graph, h)) > 1}
    assert junctions == {
        cmap.name(cmap.resolve("Dera")): {"hejaz", "haifa_deraa"},
        "1105": {"haifa_deraa", "beersheba"},                                   # Afula
        cmap.name(cmap.resolve("Jaffa")): {"jaffa_jerusalem", "beersheba"},     # Tulkarm - Lydda
        cmap.name(cmap.resolve("Ramlah")): {"british", "jaffa_jerusalem", "beersheba"},   # Lydda, Junction
        cmap.name(cmap.resolve("Qantara")): {"british", "egypt_canal"},
        "0410": {"egypt", "egypt_canal"},                                       # Ismailia
    }


def test_beersheba_audja_line_keeps_out_of_rafa(cmap, graph):
    """The Ottoman Beersheba - Audja line never touched Rafa, on the British line."""
    spec = yaml.safe_load(MAP.read_text())
    (x, y), = project(Projection.model_validate(spec["projection"]), [(34.25, 31.29)], "lonlat")
    rafa = cmap.grid.layout.hex_at(float(x), float(y))
    assert lines_at(graph, rafa) == {"british"}
