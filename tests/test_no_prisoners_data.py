"""The No Prisoners! game data: vocabulary, counters, tables and the two scenario set-ups (issue 5)."""
from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import pytest
import yaml

from toolkit.game import load_game, load_position
from toolkit.games.no_prisoners import check_counter
from toolkit.games.no_prisoners.units import UnitValues

ROOT = Path(__file__).resolve().parent.parent
MOD = ROOT / "modules" / "no-prisoners"
SCENARIOS = {"1": MOD / "scenarios" / "scenario-1.yaml", "2": MOD / "scenarios" / "scenario-2.yaml"}
SECTOR_REGION = {"W": "Western", "E": "Eastern"}
LAND_TERRAINS = ["clear", "desert", "sand", "dry_lake", "rough", "mountain"]

# Units the issue and the scenario rules name, by counter id -> type.
NAMED = {
    "a-hq-murray": "hq", "c-hq-sxf": "hq", "c-hq-hxf": "hq", "a-hq-lawrence": "hq",
    "a-train-w": "armoured_train", "c-train-e": "armoured_train",
    "a-air-5": "air_group", "c-air-pasha-i": "air_group", "a-air-x-flight": "air_group",
    "a-nav-emed": "naval_squadron", "a-nav-red-sea": "naval_squadron",
    "a-tribal": "tribal", "c-e-gar": "garrison", "c-13-gar": "garrison", "c-17-gar": "garrison",
    "a-gar-a": "garrison", "a-gar-b": "garrison",
    # 25.x / 26.x orders of battle
    "c-3-div": "infantry", "c-8-div": "infantry", "c-10-div": "infantry", "c-16-div": "infantry",
    "c-23-div": "infantry", "c-24-div": "infantry", "c-25-div": "infantry", "c-26-div": "infantry",
    "c-27-div": "infantry", "c-44-div": "infantry", "c-df-grp": "composite", "c-arab-cav": "cavalry",
    "c-8-cav": "cavalry", "c-syr-camel": "camel_corps", "c-pasha-i": "composite",
    "c-42-regt": "infantry", "c-55-regt": "infantry", "c-160-regt": "infantry", "c-hxf-camel": "camel_corps",
    "c-kb-grp": "composite", "c-1p-grp": "composite", "c-rashid-camel": "camel_corps",
    "a-42-div": "infantry", "a-52-div": "infantry", "a-53-div": "infantry", "a-54-div": "infantry",
    "a-10-ind-div": "infantry", "a-11-ind-div": "infantry", "a-29-ind-bde": "infantry",
    "a-anzac-inf-bde": "infantry", "a-anzac-mtd-div": "cavalry", "a-yeo-mtd-div": "cavalry",
    "a-iscb": "cavalry", "a-bcc": "camel_corps",
    # 19.3, 19.6, 19.7
    "c-sturm": "assault_infantry", "a-1-aus-div": "infantry", "a-2-aus-div": "infantry", "a-cf-div": "composite",
    "c-alpk": "infantry", "c-2-cav-div": "cavalry", "c-111-div": "infantry", "c-acar-bn": "armored_car",
    "c-11-rj": "infantry",
}
OPTIONAL = {  # 19.6, 19.7: id -> (turn, sector, VPs to the opponent)
    "a-1-aus-div": ("1915-I", "W", 3), "a-2-aus-div": ("1916-I", "W", 3), "a-cf-div": ("1918-I", "E", 3),
    "c-alpk": ("1916-II", "W", 3), "c-2-cav-div": ("1916-II", "W", 3), "c-111-div": ("1918-I", "W", 3),
    "c-acar-bn": ("1916-II", "E", 1), "c-11-rj": ("1917-III", "E", 1),
}
PURSUIT = {"cavalry": 2, "camel_corps": 2, "armored_car": 2, "tribal": 2, "infantry": 1, "assault_infantry": 1,
           "composite": 1, "tank": 1}


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def game():
    return load_game("no-prisoners")


@pytest.fixture(scope="module")
def cmap(game):
    return game.map


@pytest.fixture(scope="module")
def tables():
    return load(MOD / "tables.yaml")


@pytest.fixture(scope="module")
def positions():
    return {k: load_position(p) for k, p in SCENARIOS.items()}


def stack_limit(tables, info) -> int:
    limits = tables["stacking"]["limit"]
    for special in ("city", "town"):
        if special in info.terrain:
            return limits[special]
    return limits[info.terrain[0]]


def counts_for_stacking(counter) -> bool:
    return not counter.value("stacks_free") and counter.type not in ("air_group", "naval_squadron")


# ------------------------------------------------------------------ vocabulary and counters

def test_files_name_the_game(game, tables):
    assert game.spec.id == game.manifest.game == tables["game"] == "no-prisoners"
    assert game.spec.map == "no-prisoners"
    assert [s.id for s in game.spec.sides] == ["allied", "cp"]
    for p in SCENARIOS.values():
        assert load(p)["game"] == "no-prisoners"


def test_turns_and_phases(game):
    turns = game.spec.turns
    assert len(turns) == 16 and turns[0] == "1915-I" and turns[-1] == "1918-IV"        # 26.1
    assert len(turns[turns.index("1916-II"):]) == 11                                    # 25.1
    phases = game.spec.phases
    assert len(phases) == 4 * 6 + 2                                                     # 4.2
    assert phases[0] == "west_cp_random_events" and phases[-1] == "turn_advancement"
    order = [p.removesuffix("_movement") for p in phases if p.endswith("_movement")]
    assert order == ["west_cp", "west_allied", "east_allied", "east_cp"]                # 4.2.1-4.2.4


def test_every_face_validates(game):
    for c in game.manifest.counters:
        assert check_counter(c) == [], c.id


def test_check_counter_reports_problems(game):
    bad = game.counters["a-mgc"].model_copy(update={"values": {**game.counters["a-mgc"].values, "zoc": True}})
    assert check_counter(bad) and "ZOC" in check_counter(bad)[0]
    bad = game.counters["c-hq-sxf"].model_copy(update={"back": {"command_radius": None}})
    assert any("command_radius" in p for p in check_counter(bad))
    bad = game.counters["c-8-div"].model_copy(update={"values": {**game.counters["c-8-div"].values, "morale": 3}})
    assert check_counter(bad)


def test_ids_unique_and_keys_known(game):
    ids = [c.id for c in game.manifest.counters] + [m.id for m in game.manifest.markers]
    assert len(ids) == len(set(ids))
    keys = set(UnitValues.model_fields)
    for c in game.manifest.counters:
        assert set(c.values) == keys, c.id                       # every counter carries every key
        assert set(c.back or {}) <= keys, c.id
        assert set(c.reconstructed) <= keys | {"count"}, c.id
        assert c.rules and c.count >= 1, c.id


@pytest.mark.parametrize("cid", sorted(NAMED))
def test_named_unit_exists(game, cid):
    assert game.counters[cid].type == NAMED[cid]


def test_hq_flips(game):
    murray, sxf = game.counters["a-hq-murray"], game.counters["c-hq-sxf"]
    assert murray.back_name == "Allenby HQ" and sxf.back_name == "Yildirim HQ"          # 19.2A, 19.2B
    for hq in (murray, sxf):                                                           # 2.4.2A: stronger back
        assert hq.value("command_radius", back=True) > hq.value("command_radius")
        assert hq.value("combat", back=True) >= hq.value("combat")
    assert [c.id for c in game.manifest.counters if c.back] == ["a-hq-murray", "c-hq-sxf"]


def test_lawrence_and_tribes(game):
    law = game.counters["a-hq-lawrence"].values
    assert law["always_supplied"] and law["supplies_stacked_tribal"] and law["pursuit"] == 2   # 15.5, 13.3
    assert law["sector"] == "E"
    tribal = game.counters["a-tribal"]
    assert tribal.values["tribal"] and not tribal.values["amphibious"] and tribal.count >= 12  # 18.2A 2d6, 20.4


def test_values_follow_the_rules(game):
    for c in game.manifest.counters:
        v = c.values
        if c.type in ("air_group", "naval_squadron"):
            assert (v["column_shift"], v["zoc"], v["stacks_free"], v["always_supplied"]) == (1, False, True, True), c.id
            assert v["sector"] in ("W", "E"), c.id                                     # 11.8B, 11.9B
            continue
        assert v["sector"] in ("W", "E"), c.id                                         # 6.2C
        assert v["zoc"] == (not v["support"]), c.id                                    # 10.2A
        if c.type == "hq":
            assert v["command_radius"] >= 1 and v["pursuit"] == (2 if c.id == "a-hq-lawrence" else 0), c.id
        else:
            assert v["pursuit"] == PURSUIT.get(c.type, 0), c.id                       # 13.3
        assert v["rail_only"] == (c.type == "armoured_train"), c.id                    # 19.4A
        if v["rail_only"]:
            assert v["ignores_ezoc"] and not v["advances"] and not v["uses_rail_capacity"], c.id
        assert v["amphibious"] == (c.side == "allied" and c.type not in ("tribal", "armoured_train")), c.id   # 20.1, 20.4
        assert v["always_supplied"] == (c.id == "a-hq-lawrence"), c.id                 # 15.5
    supports = [c.id for c in game.manifest.counters if c.values["support"]]
    assert supports and all(game.counters[s].type == "artillery" for s in supports)   # 2.5: artillery*


def test_optional_units(game):
    opt = {c.id for c in game.manifest.counters if c.values["optional"]}
    assert opt == set(OPTIONAL)
    for cid, (turn, sector, vp) in OPTIONAL.items():
        v = game.counters[cid].values
        assert (v["arrival"], v["sector"], v["optional_vp"]) == (turn, sector, vp), cid
    assert game.counters["c-2-cav-div"].nationality == "german"                        # 2.9.3A


def test_infiltration(game):
    inf = {c.id for c in game.manifest.counters if c.values["infiltration"]}
    for cid in inf:
        c = game.counters[cid]
        assert cid == "c-sturm" or (c.nationality == "german" and c.type == "infantry"), cid   # 19.3
    assert "c-sturm" in inf and "c-pasha-i" not in inf


def test_arrivals_are_turns(game):
    turns = set(game.spec.turns)
    for c in game.manifest.counters:
        a = c.values["arrival"]
        assert a in turns or a in {"start", "pool"} or a in {f"AR+{i}" for i in range(1, 6)}, c.id
        if a not in ("start", "pool") and not c.values["optional"]:
            assert "arrival" in c.reconstructed, c.id


def test_historic_withdrawals_can_be_met(game, tables):
    for w in tables["historic_withdrawals"]:                                            # 19.10
        for need in w["units"]:
            have = [c for c in game.manifest.counters if c.side == w["side"] and c.values["size"] == need["size"]
                    and (c.values["combat"], c.values["ma"]) == (need["combat"], need["ma"])
                    and not c.values["optional"]]
            assert len(have) >= need["n"], (w["turn"], need)


def test_markers(game):
    assert {"railhead", "fsd", "turn", "vp", "out_of_supply", "arab_revolt"} <= set(game.markers)


def _reached_from_the_west_edge_without_crossing_the_canal(cmap):
    land = {h for h, info in cmap.hexes.items() if info.terrain[:1] not in (("sea",), ("lake",))}
    edge = min(h.q for h in cmap.hexes)
    seen = {h for h in land if h.q == edge}
    todo = list(seen)
    while todo:
        h = todo.pop()
        for n in cmap.grid.neighbors(h):
            side = cmap.hexside(h, n)
            if n in land and n not in seen and not any(side.get(f) for f in ("suez_canal", "all_sea_hexside",
                                                                            "all_lake_hexside")):
                seen.add(n)
                todo.append(n)
    return seen


def test_place_lists(game, cmap):
    for name, places in game.spec.place_lists.items():
        for p in places:
            assert cmap.resolve(p) in cmap.hexes, (name, p)
    lists = game.spec.place_lists
    assert lists["allied_red_sea_depots"] == ["Aqaba", "Wejh", "Yenbo"]
    for p in lists["allied_red_sea_depots"]:
        info = cmap.hexes[cmap.resolve(p)]
        assert info.features.get("depot") == "allied" and "port" in info.terrain and info.region == "Eastern"
    for p in lists["west_of_suez_canal"]:
        assert cmap.hexes[cmap.resolve(p)].region == "Western"
    west = {cmap.resolve(p) for p in lists["west_of_suez_canal"]}
    assert west == _reached_from_the_west_edge_without_crossing_the_canal(cmap)
    for p in lists["east_of_suez_canal"]:                                       # across a canal hexside
        h = cmap.resolve(p)
        assert h not in west and any("suez_canal" in cmap.hexside(h, n) for n in cmap.grid.neighbors(h) if n in west)
    for p in lists["cp_west_entry"]:
        assert cmap.hexes[cmap.resolve(p)].region == "Western"
    for p in lists["cp_east_entry"]:
        assert cmap.hexes[cmap.resolve(p)].region == "Eastern"


# ------------------------------------------------------------------ tables

def test_movement_in_half_mp(tables):
    mv = tables["movement"]
    assert mv["unit"] == "half_mp"
    assert mv["terrain"]["clear"] == 2 and mv["road"] == 1                    # 8.6A 1 MP, 8.7A 1/2 MP
    assert set(LAND_TERRAINS) <= set(mv["terrain"])
    assert mv["terrain"]["sea"] is None and mv["hexside"]["sector_boundary"] is None
    assert mv["strategic_multiplier"] == 2 and mv["disengage_fraction"] == 0.5     # 8.1C, 10.6B
    for t, cost in mv["terrain"].items():
        assert cost is None or (isinstance(cost, int) and cost >= 1), t
    assert set(mv["reconstructed"]) <= set(mv["terrain"]) | {"city", "town"}


def test_stacking_and_defence(tables):
    limits = tables["stacking"]["limit"]
    assert tables["stacking"]["reconstructed"] and tables["defence"]["reconstructed"]
    assert set(LAND_TERRAINS) | {"city", "town"} <= set(limits)
    assert set(LAND_TERRAINS) | {"city", "town"} <= set(tables["defence"]["terrain"])
    assert tables["defence"]["hexside"]["suez_canal"] > 1                         # 11.12E example


def test_supply(tables):
    s = tables["supply"]
    assert (s["allied_line"], s["cp_line"], s["fsd_trace"]) == (5, 4, 12)        # 15.2A, 15.3A, 15.8B


def test_crts(tables):
    cols = tables["odds_columns"]
    assert cols[0] == "1-2" and tables["base_columns"] == {"lowest": "1-2", "highest": "6-1", "rule": "11.14"}
    assert cols.index("5-1") - cols.index("2-1") == 3                            # 11.11 example
    assert len(cols) - 1 - cols.index("6-1") >= 3                                 # room for three shifts (11.11A)
    shifts = tables["column_shifts"]
    assert {k: (v["shift"], v["max"]) for k, v in shifts.items()} == \
        {"air_group": (1, 1), "naval_squadron": (1, 1), "command": (1, 1)}
    assert shifts["air_group"]["range_to_friendly_city_or_town"] == 6             # 11.8A
    for table in ("rcrt", "mocrt"):
        crt = tables[table]
        assert crt["reconstructed"]
        for col in cols:
            assert len(crt[col]) == 6 and set(crt[col]) <= set(tables["results"]), (table, col)


def test_setup_zones_name_known_things(game, tables, cmap):
    for scen, zones in tables["setup_zones"].items():
        for z in zones:
            for cid in z.get("units", []):
                assert cid in game.counters, (scen, cid)
            for box, ids in z.get("boxes", {}).items():
                assert box in game.spec.boxes and set(ids) <= set(game.counters), (scen, box)
            places = z.get("places")
            if isinstance(places, str):
                assert places in game.spec.place_lists, (scen, places)
            elif places:
                assert all(cmap.resolve(p) for p in places)
            assert z["rule"]


# ------------------------------------------------------------------ scenarios

def zone_hexes(game, cmap, z):
    places = z.get("places")
    names = game.spec.place_lists[places] if isinstance(places, str) else places
    hexes = {cmap.resolve(p) for p in names}
    if z.get("radius", 0) >= 1:
        hexes |= {n for h in hexes for n in cmap.grid.neighbors(h) if n in cmap.hexes}
    return hexes


@pytest.mark.parametrize("scen", ["1", "2"])
def test_scenario_header(positions, scen):
    raw = load(SCENARIOS[scen])
    assert raw["scenario"] == scen
    assert (raw["turn"], raw["phasing_side"]) == {"1": ("1916-II", "allied"), "2": ("1915-I", "cp")}[scen]
    assert raw["phase"] == {"1": "west_allied_random_events", "2": "west_cp_random_events"}[scen]   # 25.5A, 4.2.1


@pytest.mark.parametrize("scen", ["1", "2"])
def test_every_counter_accounted_for(positions, game, scen):
    used = Counter(u.counter.id for u in positions[scen].units)
    assert used == Counter({c.id: c.count for c in game.manifest.counters})


@pytest.mark.parametrize("scen", ["1", "2"])
def test_units_in_their_sector(positions, cmap, scen):
    for u in positions[scen].units:
        if u.hex is None:
            continue
        region = cmap.hexes[u.hex].region
        sector = u.counter.values["sector"]
        if region == "Damascus":                                                 # 21.3A-C
            assert u.side == "allied", u.id
        else:
            assert region == SECTOR_REGION[sector], u.id
        assert not {"sea", "lake"} & set(cmap.hexes[u.hex].terrain), u.id


@pytest.mark.parametrize("scen", ["1", "2"])
def test_stacking_limits(positions, cmap, tables, scen):
    by_hex = defaultdict(list)
    for u in positions[scen].units:
        if u.hex is not None:
            by_hex[u.hex].append(u)
    for h, units in by_hex.items():
        assert len({u.side for u in units}) == 1, h                               # 9.3
        n = sum(counts_for_stacking(u.counter) for u in units)
        assert n <= stack_limit(tables, cmap.hexes[h]), (cmap.grid.name(h), n)  # 9.5


@pytest.mark.parametrize("scen", ["1", "2"])
def test_setup_zones_respected(positions, game, cmap, tables, scen):
    p = positions[scen]
    where = defaultdict(list)
    boxes = defaultdict(set)
    for u in p.units:
        if u.hex is not None:
            where[u.counter.id].append(u.hex)
        else:
            boxes[u.box].add(u.counter.id)
    for z in tables["setup_zones"][f"scenario_{scen}"]:
        for box, ids in z.get("boxes", {}).items():
            assert set(ids) <= boxes[box], (z["rule"], box)
        for cid in z.get("units", []):
            hexes = where[cid]
            assert len(hexes) == game.counters[cid].count, (z["rule"], cid)
            for h in hexes:
                info = cmap.hexes[h]
                if "terrain" in z:
                    assert info.terrain[0] == z["terrain"] and info.region == SECTOR_REGION[z["sector"]], cid
                else:
                    assert h in zone_hexes(game, cmap, z), (z["rule"], cid, cmap.grid.name(h))
            if z.get("each_place_one"):
                assert sorted(hexes) == sorted(cmap.resolve(x) for x in game.spec.place_lists[z["places"]])
        if z.get("max_per_hex"):
            hexes = [h for cid in z["units"] for h in where[cid]]
            assert max(Counter(hexes).values()) <= z["max_per_hex"], z["rule"]
    for m in p.markers:
        if m.marker == "railhead":
            assert scen == "1" and m.hex == cmap.resolve("Qantara")                     # 25.4.1


def test_scenario_1_pools(positions):
    p = positions["1"]
    box = defaultdict(set)
    for u in p.units:
        if u.box:
            box[u.box].add(u.counter.id)
    assert box["replaceable"] == {"c-3-div"}
    assert box["eliminated"] == {"c-8-div", "c-10-div", "c-25-div", "a-10-ind-div", "a-11-ind-div", "a-anzac-inf-bde"}
    assert box["air_naval"] == {"a-air-5", "a-nav-emed", "c-air-pasha-i"}
    assert box["tribal_pool"] == {"a-tribal"}


def test_8_6_a_every_terrain_but_clear_costs_more_than_1_mp(tables):
    # 8.6 A: clear costs 1 MP; every other kind of hex costs more, for every unit type and in winter too.
    # The exact costs beyond that are reconstructions (the TEC is not in our copy): each cites its source.
    mv = tables["movement"]
    clear = mv["terrain"]["clear"]
    assert clear == 2
    assert {t: c for t, c in mv["terrain"].items()} == {"clear": 2, "desert": 3, "dry_lake": 3, "sand": 4,
                                                          "rough": 4, "mountain": 6, "sea": None, "lake": None}
    for t, cost in mv["terrain"].items():
        assert cost is None or t == "clear" or cost > clear, t
    for utype, costs in mv["type_costs"].items():
        if utype == "reconstructed":
            continue
        for t, cost in costs.items():
            assert cost is None or t == "clear" or cost > clear, (utype, t)
    for t, cost in tables["weather"]["winter"]["movement"].items():
        assert cost is None or cost > clear, t
    assert set(mv["sources"]) == set(mv["terrain"]) | {"city", "town", "type_costs", "suez_canal"}
    assert mv["sources"]["clear"].startswith("8.6A")
    for t in mv["reconstructed"]:
        assert "reconstructed" in mv["sources"][t], t


def test_flags_cleared(game):
    # The flags the sequence of play takes off again, and when (8.1 C, 8.3 A, 8.8 B, 10.6 B, 11.4 C, 11.10 B,
    # 11.11 C, 20.2 B); the others are states (out_of_supply, with_lawrence) or last the game (flipped).
    spec = game.spec
    assert spec.flags_cleared == {"moved": "phase_end", "strategic_moved": "phase_end", "disengaged": "phase_end",
                                  "rail_moved": "turn_end", "amphibious_moved": "turn_end", "attacked": "phase_end",
                                  "command_bonus_used": "phase_end", "used_first_combat": "player_turn_end",
                                  "used_second_combat": "player_turn_end"}
    assert set(spec.flags) - set(spec.flags_cleared) == {"out_of_supply", "with_lawrence", "flipped"}
    assert spec.eliminated_box == "replaceable"                       # 14.2 A
