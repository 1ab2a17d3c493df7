"""The Siege of Jerusalem (70 AD): a reconstructed 50 m hex map, from hand tables.

There is no public raster of the game map, so the map is drawn from hand
tables below: the wall lines as hex waypoints (consecutive waypoints are joined
by straight hex lines), the gates with their two entry hexsides, the towers,
the ten city areas of rule 18.3 (each filled from a seed hex up to its walls)
and the valleys outside (Kidron east, Hinnom west and south), whose slopes are
bands of hexes.  Every hex the rulebook cites is placed so that what the rules
say of it holds; the rest follows the geography of 70 AD Jerusalem only
roughly (see ``maps/siege-of-jerusalem/README.md``).

Hex names are those of rule 2.14 (``Diagonal``): axial ``q`` = column letters
(A=0 .. ZZ=51), ``r`` = the number.
"""
from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Iterable

from toolkit.hexgrid import Grid, Hex
from toolkit.hexgrid.naming import Diagonal

from .emit import areas_from_hexes, grid_of, write_map

MAP_ID = "siege-of-jerusalem"
TITLE = "The Siege of Jerusalem, 70 AD (reconstruction)"

# Offset rectangle (odd columns half a hex lower): columns H..ZZ; rows chosen
# so that no hex has a negative number and every cited hex has a margin.
COLUMNS = (7, 51)
ROWS = (26, 86)

GROUND_LEVEL = 1   # the city's hills and the plateau north of the city
VALLEY_LEVEL = 0   # Kidron and Hinnom floors; slope hexes belong to the lower level (11.17)

# --- walls (rule 2.11: Wall, Bastion, Fort, Fortress, Gate, Bridge are Elevated) ---
# Each entry is a chain of waypoints; every hex of the chain is a Wall unless
# TOWERS, GATES or BRIDGES say otherwise.
WALLS = {
    # Third (Agrippa's) Wall round the New City, from Psephinus east; DD19 is a
    # Fort on the wall through CC20, BB21, EE19, FF18 (19.22, 9.5 example).
    "third wall": ["P49", "P36", "BB21", "CC20", "DD19", "EE19", "FF18", "NN13", "QQ12", "QQ32"],
    # Temple Mount east wall (Gate of Susa QQ36 between QQ35 and QQ37, 8.91,
    # 19.22) and the City of David's east wall, jutting out at QQ49 (9.52).
    "east wall": ["QQ32", "QQ42", "PP43", "PP49", "QQ49", "QQ50", "LL59"],
    # South wall above the Hinnom, then the west wall up to the Jaffa Gate P51.
    "south and west wall": ["LL59", "HH61", "CC63", "V65", "P68", "P49"],
    # Jaffa Gate complex (18.33); R51 is where walls meet (12.3).
    "jaffa gate complex": ["P49", "Q48", "R48", "R51", "Q52", "P53"],
    # Fortress triangle: Hippicus P53, Phasael T51, Mariamne P55 (2.14, 6.7).
    "fortress triangle": ["R51", "S51", "T51", "T52", "S53", "R54", "Q55", "P55"],
    # First Wall, north side: from Phasael east to the bridge over the Tyropoeon.
    "first wall": ["T51", "V50", "Y47", "CC46", "GG43"],
    # Second Wall: from the First Wall north to the Damascus Gate W36, then to the Antonia.
    "second wall": ["V50", "V37", "W36", "X35", "II33"],
    # Antonia Fortress, four corner towers, at the Temple's north-west corner.
    "antonia": ["II33", "LL31", "LL34", "II36", "II33"],
    # Temple Mount platform: north, west and south walls (east wall above).
    "temple": ["LL34", "QQ32", "QQ42", "MM44", "II46", "II36"],
    # Herod's Palace, south of the towers (18.32, 18.36).
    "herod's palace": ["T52", "T60", "P64"],
    # Inner walls dividing the ten areas (18.3).
    "upper-lower city wall": ["CC46", "CC63"],
    "city of david west wall": ["II46", "II52", "KK56", "KK60"],
}

# Towers on the walls: Fortress (Herodian towers, Antonia, Psephinus), Fort
# (2.15 erratum: QQ32; DD19 of 9.5/19.22) and Bastion.
TOWERS = {
    "fortress": ["P53", "T51", "P55",                   # Hippicus, Phasael, Mariamne
                 "P49", "R48",                          # Jaffa Gate complex
                 "II33", "LL31", "LL34", "II36",        # Antonia
                 "P36"],                                # Psephinus
    "fort": ["QQ32", "DD19", "NN13", "LL59"],
    "bastion": ["U30", "JJ16", "QQ18", "QQ25", "QQ42", "QQ49", "II46", "CC63", "V65", "P68",
                "P61", "P43", "CC46", "V44", "AA34"],
}

# The bridge over the Tyropoeon from the First Wall to the Temple's west wall.
BRIDGES = ["HH42"]

# Gates and the hexes beyond their two Entry hexsides (8.91); all have an
# inherent Stairway.  The first four are cited by the rules.
GATES = {
    "W36": ("W35", "W37"),      # Damascus Gate (2.14)
    "P51": ("O51", "Q51"),      # Jaffa Gate (2.14)
    "QQ36": ("RR35", "PP37"),   # Gate of Susa (8.91)
    "P58": ("O58", "Q58"),      # Herod's Palace west gate (18.36 example)
    "Y25": ("Y24", "Y26"),      # New City north gate (Women's Towers)
    "II39": ("HH39", "JJ39"),   # Temple west gate to the Tyropoeon City
    "II44": ("HH44", "JJ44"),   # Temple west gate to the Lower City
    "NN33": ("NN32", "NN34"),   # Temple north gate to the New City
    "KK45": ("KK44", "KK46"),   # Huldah gate to the City of David
    "KK35": ("KK34", "KK36"),   # Antonia to the Temple courts
    "X48": ("X47", "X49"),      # Tyropoeon City to the Upper City
    "T56": ("S56", "U56"),      # Herod's Palace to the Upper City
    "CC55": ("BB55", "DD55"),   # Upper City to the Lower City
    "II50": ("HH50", "JJ50"),   # Lower City to the City of David
    "HH61": ("HH60", "HH62"),   # Fountain Gate, by the Pool of Siloam
    "Y64": ("Y63", "Y65"),      # Essenes' Gate, Upper City to the Hinnom
}

# --- the ten city areas of 18.3: a seed hex, filled up to the walls ---
REGIONS = {
    "New City": "LL28",
    "Tyropoeon City": "BB45",
    "Upper City": "Y55",
    "Lower City": "FF52",
    "City of David": "MM50",
    "Temple District": "NN40",
    "Antonia Fortress": "JJ33",
    "Herod's Palace": "R58",
    "Fortress Triangle": "R53",
    "Jaffa Gate": "Q50",
}
# The walls, towers and gates of these complexes belong to their area (5.6,
# 18.33); other walls belong to no area (18.35 gives them to the sides).
# Antonia first: the four hexes of its south wall, shared with the Temple's
# north wall, are the overlap of the two garrisons (18.4).
AREA_WALLS = ["Antonia Fortress", "Jaffa Gate", "Fortress Triangle", "Temple District"]

# Ground of each area; the patches below change single hexes.
AREA_GROUND = {
    "New City": "clear",            # Bezetha: gardens and new suburbs
    "Tyropoeon City": "built_up",
    "Upper City": "built_up",
    "Lower City": "built_up",
    "City of David": "built_up",
    "Temple District": "courtyard",  # 8.92: Clear hexes of the Temple District
    "Antonia Fortress": "clear",
    "Herod's Palace": "clear",      # the palace gardens
    "Fortress Triangle": "clear",
    "Jaffa Gate": "clear",
}

# New City blocks of houses, column runs "FROM-TO"; KK28, LL28, LL29 block the
# LOF of the 9.5 example, KK30 does not.
NEW_CITY_BUILT_UP = [
    "X30-X34", "Y30-Y34", "Z29-Z34", "AA28-AA33", "BB28-BB33", "CC28-CC33", "DD27-DD33",
    "EE27-EE33", "FF27-FF33", "GG27-GG32", "HH27-HH32",
    "KK26-KK28", "LL28-LL29", "MM26-MM29", "NN25-NN29", "OO25-OO27",
    "U42-U46", "T43-T47", "S44-S47",
]
CLEAR_PATCHES = [
    "Y44-Y45", "Z43-Z44",       # Tyropoeon market
    "HH58-HH60",                # Pool of Siloam
    "W58-W59",                  # Upper City agora (Xystus)
    "MM47-MM48", "NN47",        # City of David: open ground on the Ophel, for Reserve placement (18.613)
]
# Buildings (2.13): large structures, dark grey on the map.
BUILDINGS = [
    "Q56", "R56-R57",           # Herod's Palace, north wing
    "Q60", "R60-R61",           # Herod's Palace, south wing (Q61 open, for the P61 Bastion's Stairway, 8.93)
    "AA48-AA49", "BB48",        # Hasmonean Palace
    "EE46-EE47",                # council house (Knesset) by the bridge
    "LL38-LL39", "MM37", "MM39", "NN37-NN38",  # the Temple building round its central hex
    "JJ45", "LL44", "MM43", "NN43", "OO42",     # Royal Stoa along the south wall
    "JJ33", "KK33",             # Antonia barracks
]
TEMPLE = "MM38"   # the Temple's central Building hex (10.3)

# --- ground outside the walls: slope bands (chains of waypoints) between the
# plateau (GROUND_LEVEL) and the valley floors (VALLEY_LEVEL) ---
SLOPES = [
    # Kidron, west side: from the north edge (RR8 above slope SS8, 11.17) down
    # past the Temple (RR48 on the crest, TT46 below, 9.52), round the City of
    # David's tip, then the Hinnom's north side west and up to its head.
    ["SS3", "SS50", "NN62", "HH65", "CC66", "V68", "O71", "N70", "N52", "H55"],
    # Mount of Olives, east side of the Kidron.
    ["XX1", "XX64"],
]
VALLEY_SEEDS = ["TT46", "BB69", "J80"]     # BB69 and EE67 share the valley floor (9.52)
PLATEAU_SEEDS = ["K30", "RR8", "ZZ40"]

# --- roads within the city (8.94), as waypoints ---
ROADS = [
    # New City north gate - Damascus Gate - Tyropoeon City - Upper City - Lower City - City of David
    ["Y26", "Y25", "W35", "W36", "W37", "X47", "X48", "X49", "BB55", "CC55", "DD55", "HH50", "II50", "JJ50", "LL52", "LL57"],
    ["DD55", "HH60", "HH61"],                    # to the Pool of Siloam and the Fountain Gate
    ["W37", "HH39", "II39", "JJ39"],             # Tyropoeon City to the Temple
    ["DD55", "HH44", "II44", "JJ44"],            # Lower City to the Temple
    ["S56", "T56", "U56", "X49"],                # Herod's Palace to the Upper City
    ["W35", "GG29", "MM30", "NN32", "NN33", "NN34"],     # New City to the Temple's north gate
]

TERRAIN = {   # the vocabulary; the rules module keys on these names
    "clear": {"color": "#e9e2c4", "label": "Clear (Ground)"},
    "courtyard": {"color": "#efe6cf", "label": "Courtyard (Ground, Temple District)"},
    "slope": {"color": "#c7a27a", "label": "Slope (Ground)"},
    "built_up": {"color": "#b9aea0", "label": "Built-up"},
    "building": {"color": "#5c5c5c", "label": "Building"},
    "temple": {"color": "#d4af37", "label": "Temple (central Building hex)"},
    "wall": {"color": "#8a6d4b", "label": "Wall (Elevated)"},
    "bastion": {"color": "#3f6fb5", "label": "Bastion (Elevated)"},
    "fort": {"color": "#e07b22", "label": "Fort (Elevated)"},
    "fortress": {"color": "#a33b2a", "label": "Fortress (Elevated)"},
    "gate": {"color": "#2d2d2d", "label": "Gate (Elevated)"},
    "bridge": {"color": "#7a6a8c", "label": "Bridge (Elevated)"},
}
# Not base terrain: added on top of a hex's base terrain.
OVERLAYS = {
    # 13.22: the Wall hexes (not Bastions, Forts or Fortresses) round the New City's northern perimeter
    # use the Missile Table's "North Wall" row.
    "north_wall": {"color": "#8a6d4b", "label": "North Wall (13.22)"},
}
# 13.22: the North Wall is the Third Wall from Psephinus round the New City's north to the Temple's
# north-east corner (QQ32); plain Wall hexes only.
NORTH_WALL = "third wall"
# 8.92: the Temple's west wall; the courtyards along it form the blocked western side.
TEMPLE_WEST_WALL = ["II36", "II46"]
# The Bridge's two Ground-level Entry hexes (6.2, 8.4): along the Tyropoeon, under the span.
BRIDGE_ENTRIES = {"HH42": ("HH41", "HH43")}
# The Bridge's span: the Elevated hexes it connects (7.12), the First Wall to the Temple's west wall.
BRIDGE_LINKS = {"HH42": ("GG43", "II42")}
ELEVATED = ("wall", "bastion", "fort", "fortress", "gate", "bridge")
FEATURES = {
    "stairway": {"kind": "hexside", "color": "#f4f1e8", "width": 3, "dash": "2,2"},
    "gate_entry": {"kind": "hexside", "color": "#6b3e1e", "width": 4},
    # 6.2, 8.4: Cavalry and Artillery pass through a Bridge at Ground level, as through a Gate.
    "bridge_entry": {"kind": "hexside", "color": "#6b3e1e", "width": 4, "dash": "4,2"},
    # 7.12: two Elevated hexes whose wall runs across their common hexside ("connected").
    "connected": {"kind": "hexside", "color": "#5a4630", "width": 1},
    # 8.92: Ground-level movement along the Temple District's western side is blocked.
    "temple_west": {"kind": "hexside", "color": "#b22222", "width": 3, "dash": "3,3"},
    "crest": {"kind": "hexside", "color": "#5a3a1a", "width": 3},
    "city_road": {"kind": "path", "color": "#7b2d26", "width": 2},
}
LOS = {
    "convention": "cross",
    "rule": "9.5",
    # Obstacles to ground-level fire (2.13, 9.5); the LOF Determination Table
    # (firer and target levels, 9.51, 9.52, 10.3) belongs to the rules module.
    "blocking_terrain": ["built_up", "building", "temple", *ELEVATED],
    "blocking_hexside_features": [],
    "elevation": "none",
}


# --- hex helpers ---
NAMES = Diagonal()


def hx(name: str) -> Hex:
    """The hex of a rule 2.14 name."""
    return NAMES.parse(name)


def hex_line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes of the straight line from ``a`` to ``b`` (ties nudged to one side)."""
    n = a.distance(b)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        fq = a.q + (b.q - a.q) * t + 1e-6
        fr = a.r + (b.r - a.r) * t + 2e-6
        q, r, s = round(fq), round(fr), round(-fq - fr)
        dq, dr, ds = abs(q - fq), abs(r - fr), abs(s + fq + fr)
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        out.append(Hex(q, r))
    return out


def chain(waypoints: Iterable[str]) -> list[Hex]:
    """Hexes of a chain of waypoints, in order, without repeats."""
    pts = [hx(w) for w in waypoints]
    out: list[Hex] = [pts[0]]
    for a, b in zip(pts, pts[1:]):
        out += hex_line(a, b)[1:]
    return list(dict.fromkeys(out))


def column_run(spec: str) -> list[Hex]:
    """The hexes of ``"KK26-KK28"`` (one column, numbers inclusive) or of a single name."""
    first, _, last = spec.partition("-")
    a, b = hx(first), hx(last or first)
    assert a.q == b.q, spec
    return [Hex(a.q, r) for r in range(a.r, b.r + 1)]


def runs(specs: Iterable[str]) -> list[Hex]:
    """The hexes of several column runs."""
    return [h for s in specs for h in column_run(s)]


def flood(grid: Grid, seeds: Iterable[Hex], passable) -> set[Hex]:
    """Hexes reachable from the seeds through passable hexes of the grid."""
    todo, seen = deque(seeds), set(seeds)
    while todo:
        h = todo.popleft()
        for n in h.neighbors():
            if n in grid and n not in seen and passable(n):
                seen.add(n)
                todo.append(n)
    return seen


# --- the map, hex by hex ---
def elevated_hexes() -> dict[Hex, str]:
    """Elevated terrain of every wall hex: wall, then towers, bridges and gates."""
    out = {h: "wall" for line in WALLS.values() for h in chain(line)}
    special = {**{hx(n): kind for kind, names in TOWERS.items() for n in names},
               **{hx(n): "bridge" for n in BRIDGES}, **{hx(n): "gate" for n in GATES}}
    off = [NAMES.name(h) for h in special if h not in out and special[h] != "bridge"]
    assert not off, f"towers or gates off the wall lines: {off}"
    return {**out, **special}


def city_areas(grid: Grid, elevated: dict[Hex, str]) -> dict[Hex, str]:
    """Region of every city hex: each area's ground filled from its seed, plus its complex's walls."""
    region: dict[Hex, str] = {}
    for name, seed in REGIONS.items():
        cells = flood(grid, [hx(seed)], lambda h: h not in elevated)
        assert not cells & set(region), f"{name} runs into another area"
        assert all(n in grid for h in cells for n in h.neighbors()), f"{name} leaks out of the city"
        region.update(dict.fromkeys(cells, name))
    # 18.33, 18.4: every hex of the Antonia's walls and towers is the Antonia Fortress Complex (LL31 and
    # II36 included), whatever ground they stand beside.
    for h in chain(WALLS["antonia"]):
        region[h] = "Antonia Fortress"
    for name in AREA_WALLS:
        for h in elevated:
            if h not in region and any(region.get(n) == name for n in h.neighbors() if n not in elevated):
                region[h] = name
    return region


def outside_levels(grid: Grid, elevated: dict[Hex, str], region: dict[Hex, str]) -> tuple[set[Hex], dict[Hex, int]]:
    """Slope hexes and the ground level of every hex outside the city."""
    slopes = {h for line in SLOPES for h in chain(line) if h in grid}
    def outside(h: Hex) -> bool:
        return h not in elevated and h not in region and h not in slopes

    level = dict.fromkeys(slopes, VALLEY_LEVEL)
    for seeds, lv in ((VALLEY_SEEDS, VALLEY_LEVEL), (PLATEAU_SEEDS, GROUND_LEVEL)):
        for h in flood(grid, map(hx, seeds), outside):
            assert level.get(h, lv) == lv, f"{grid.name(h)} is both valley and plateau: a slope band has a gap"
            level[h] = lv
    return slopes, level


def gate_entries(elevated: dict[Hex, str], region: dict[Hex, str]) -> list[tuple[Hex, Hex]]:
    """The Entry hexsides of every gate (8.91): opposite sides, from one area (or outside) to another."""
    for g, (a, b) in GATES.items():
        G, A, B = hx(g), hx(a), hx(b)
        assert G.direction_to(A) is not None and (A.q - G.q, A.r - G.r) == (G.q - B.q, G.r - B.r), \
            f"gate {g}: entries {a} and {b} are not opposite neighbours"
        assert A not in elevated and B not in elevated and region.get(A) != region.get(B), \
            f"gate {g}: entries {a} and {b} must be ground of two different areas"
    return [(hx(g), hx(e)) for g, ends in GATES.items() for e in ends]


def stairways(elevated: dict[Hex, str], region: dict[Hex, str], ground: dict[Hex, str]) -> list[tuple[Hex, Hex]]:
    """One Stairway from each Fortress, Fort and Bastion to a Ground/Built-up hex of the city beside it (8.93)."""
    out = []
    for h, kind in sorted(elevated.items()):
        if kind in ("fortress", "fort", "bastion"):
            inner = [n for n in h.neighbors() if n in region and n not in elevated and ground[n] != "building"]
            if inner:
                out.append((h, min(inner)))
    return out


def connections(elevated: dict[Hex, str]) -> list[tuple[Hex, Hex]]:
    """Hexsides between "connected" Elevated hexes (7.12): consecutive hexes of a wall line, and the Bridge's span."""
    pairs = {tuple(sorted(p)) for line in WALLS.values() for p in zip(chain(line), chain(line)[1:])}
    for b, ends in BRIDGE_LINKS.items():
        pairs |= {tuple(sorted((hx(b), hx(e)))) for e in ends}
    bad = [(NAMES.name(a), NAMES.name(b)) for a, b in pairs
           if a not in elevated or b not in elevated or a.direction_to(b) is None]
    assert not bad, f"connections not between adjacent Elevated hexes: {bad}"
    return sorted(pairs)


def bridge_entries(elevated: dict[Hex, str]) -> list[tuple[Hex, Hex]]:
    """The Bridge's two Ground-level Entry hexsides (6.2, 8.4), on opposite sides as a Gate's (8.91)."""
    out = []
    for b, (e1, e2) in BRIDGE_ENTRIES.items():
        B, A, C = hx(b), hx(e1), hx(e2)
        assert elevated.get(B) == "bridge" and (A.q - B.q, A.r - B.r) == (B.q - C.q, B.r - C.r), b
        assert A not in elevated and C not in elevated, b
        out += [(B, A), (B, C)]
    return out


def temple_west(region: dict[Hex, str], ground: dict[Hex, str]) -> list[tuple[Hex, Hex]]:
    """8.92: hexsides between the courtyards along the Temple's west wall: no Ground-level passage along it."""
    wall = set(chain(TEMPLE_WEST_WALL))
    strip = {n for w in wall for n in w.neighbors()
             if region.get(n) == "Temple District" and ground.get(n) == "courtyard"}
    return sorted({tuple(sorted((a, b))) for a in strip for b in a.neighbors() if b in strip})


def north_wall(elevated: dict[Hex, str]) -> list[Hex]:
    """13.22: the plain Wall hexes of the New City's northern perimeter."""
    return [h for h in chain(WALLS[NORTH_WALL]) if elevated[h] == "wall"]


def crests(slopes: set[Hex], level: dict[Hex, int]) -> list[tuple[Hex, Hex]]:
    """Crest hexsides: between a Slope hex and higher ground beside it (11.17)."""
    return [(s, n) for s in sorted(slopes) for n in s.neighbors()
            if n in level and n not in slopes and level[n] > level[s]]


def roads(elevated: dict[Hex, str], region: dict[Hex, str]) -> list[list[Hex]]:
    """The city roads as hex chains: inside the city (8.94), over walls only through gates."""
    out = [chain(road) for road in ROADS]
    bad = [NAMES.name(h) for road in out for h in road
           if elevated.get(h) != "gate" and (h in elevated or h not in region)]
    assert not bad, f"roads over walls or outside the city: {bad}"
    return out


def compose(grid: Grid) -> dict:
    """Terrain, elevation, region of every hex, and the hexside features."""
    elevated = elevated_hexes()
    region = city_areas(grid, elevated)
    ground = {h: AREA_GROUND[r] for h, r in region.items() if h not in elevated}
    ground.update({h: "built_up" for h in runs(NEW_CITY_BUILT_UP)})
    ground.update({h: "clear" for h in runs(CLEAR_PATCHES)})
    ground.update({h: "building" for h in runs(BUILDINGS)})
    ground[hx(TEMPLE)] = "temple"
    stray = [NAMES.name(h) for h in ground if h in elevated or h not in region]
    assert not stray, f"terrain patches on walls or outside the city areas: {stray}"
    slopes, level = outside_levels(grid, elevated, region)
    ground.update(dict.fromkeys(slopes, "slope"))
    terrain = {h: elevated.get(h) or ground.get(h, "clear") for h in grid.hexes()}
    elevation = {h: level.get(h, GROUND_LEVEL) for h in grid.hexes()}
    missing = [grid.name(h) for h in grid.hexes() if h not in level and h not in region and h not in elevated]
    assert not missing, f"hexes no area or seed reaches: {missing[:10]}"
    return {
        "terrain": terrain, "elevation": elevation, "region": region,
        "gate_entry": gate_entries(elevated, region), "stairway": stairways(elevated, region, ground),
        "crest": crests(slopes, elevation), "roads": roads(elevated, region),
        "connected": connections(elevated), "bridge_entry": bridge_entries(elevated),
        "temple_west": temple_west(region, ground), "north_wall": north_wall(elevated),
    }


def spec_of(grid_spec: dict) -> dict:
    """The whole map spec."""
    spec = {
        "id": MAP_ID, "title": TITLE, "grid": grid_spec, "coverage": 0.5,
        "terrain": {**{name: {**attrs, "base": True} for name, attrs in TERRAIN.items()},
                    **{name: {**attrs, "base": False} for name, attrs in OVERLAYS.items()}},
        "features": FEATURES, "los": LOS,
    }
    grid = grid_of(spec)
    m = compose(grid)
    areas = []
    by_kind: dict[tuple[str, int], list[Hex]] = {}
    for h in grid.hexes():
        by_kind.setdefault((m["terrain"][h], m["elevation"][h]), []).append(h)
    for (terrain, level), hexes in sorted(by_kind.items()):
        if (terrain, level) != ("clear", 0):
            areas += areas_from_hexes(grid, hexes, terrain=terrain, elevation=level)
    areas += areas_from_hexes(grid, m["north_wall"], terrain="north_wall")
    for name in REGIONS:
        areas += areas_from_hexes(grid, [h for h, r in m["region"].items() if r == name], region=name)
    lines = [{"feature": "city_road", "points": [[round(c, 4) for c in grid.layout.centre(h)] for h in road]}
             for road in m["roads"]]
    sides = [{"between": [grid.name(a), grid.name(b)], "set": {feature: True}}
             for feature in ("gate_entry", "stairway", "crest", "bridge_entry", "connected", "temple_west")
             for a, b in m[feature]]
    places = {"W36": "Damascus Gate", "P51": "Jaffa Gate", "QQ36": "Gate of Susa", "P55": "Mariamne",
              "P53": "Hippicus", "T51": "Phasael", "P36": "Psephinus", TEMPLE: "Temple",
              "LL34": "Antonia", "AA48": "Hasmonean Palace", "R57": "Herod's Palace", "HH59": "Pool of Siloam"}
    return {**spec, "areas": areas, "lines": lines,
            "overrides": {"hexes": {n: {"place": p} for n, p in places.items()}, "hexsides": sides}}


GRID = {"orientation": "flat", "size": 10, "naming": {"scheme": "diagonal", "shifted": "odd"},
        "columns": list(COLUMNS), "rows": list(ROWS)}


def build(maps_dir: Path) -> Path:
    """Write ``maps/siege-of-jerusalem/map.yaml``."""
    spec = spec_of(GRID)
    header = [
        "The Siege of Jerusalem (70 AD): reconstructed map, about 50 m per hex (rule 2.1).",
        "Generated by scripts/mapbuild/siege_of_jerusalem.py from hand tables; do not edit by hand.",
        "Hex names follow rule 2.14 (column letters, diagonal numbers).  See README.md.",
    ]
    return write_map(maps_dir / MAP_ID / "map.yaml", spec, header)
