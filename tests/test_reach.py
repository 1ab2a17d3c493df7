"""The enemy-reach layer (toolkit.game.reach) and each game's per-unit ZOC (side_zoc), on small positions."""
import json
from dataclasses import replace

from toolkit.cli import main
from toolkit.game.moves import Destination, MoveResult
from toolkit.game.reach import reach
from toolkit.games import load_game_position, rule, side_reach

SCENARIO_II = "modules/jerusalem-1948/scenarios/scenario-ii.yaml"
NP_1 = "modules/no-prisoners/scenarios/scenario-1.yaml"


def _only(position, *ids):
    """The position with only the named units."""
    return replace(position, units=tuple(u for u in position.units if u.id in ids))


def _names(position, hexes):
    return sorted(position.game.map.name(h) for h in hexes)


def test_reach_is_own_hex_destinations_and_their_neighbours_with_counts():
    """A stub move generator: the unit at 1813 reaches 1913 in one phase and nothing in the other; the unit at
    0215 is refused everywhere.  Expected hexes worked out by hand from the CCRR neighbours (flat-top, odd
    columns half a hex lower)."""
    position = _only(load_game_position(SCENARIO_II), "a-al4-1", "a-mufti-1")
    cmap = position.game.map
    position = replace(position, units=(replace(position.by_id["a-al4-1"], hex=cmap.resolve("1813")),
                                        replace(position.by_id["a-mufti-1"], hex=cmap.resolve("0215"))))
    seen = []

    def stub_moves(pos, ids):
        seen.append((pos.phase, pos.phasing_side, tuple(ids)))
        result = MoveResult(pos.by_id[ids[0]].hex, 8)
        if ids == ["a-al4-1"] and pos.phase == "road":
            to = cmap.resolve("1913")
            result.destinations[to] = Destination(to, 2)
        return result

    found = reach(position, "arab", stub_moves, ["overland", "road"])
    assert seen == [("overland", "arab", ("a-al4-1",)), ("road", "arab", ("a-al4-1",)),
                    ("overland", "arab", ("a-mufti-1",)), ("road", "arab", ("a-mufti-1",))]
    by_name = {cmap.name(h): units for h, units in found.items()}
    around_1813 = {"1813", "1913", "1814", "1713", "1712", "1812", "1912"}
    around_1913 = {"1913", "2013", "2014", "1914", "1814", "1813", "1912"}
    around_0215 = {"0215", "0315", "0216", "0115", "0114", "0214", "0314"}
    assert set(by_name) == around_1813 | around_1913 | around_0215
    assert all(by_name[h] == ("a-al4-1",) for h in around_1813 | around_1913)
    assert all(by_name[h] == ("a-mufti-1",) for h in around_0215)
    assert reach(position, "jewish", stub_moves, ["overland"]) == {}


def test_a_garrison_that_never_moves_reaches_its_hex_and_attacks_its_neighbours():
    position = _only(load_game_position(SCENARIO_II), "j-gar6-1")   # Hulda, 0215: a garrison never moves (7.1)
    found = side_reach(position, "jewish")
    assert _names(position, found) == ["0114", "0115", "0214", "0215", "0216", "0314", "0315"]
    assert set(found.values()) == {("j-gar6-1",)}


def _cli_moves(capsys, path, unit, *extra):
    assert main(["moves", path, unit, "--json", *extra]) in (0, None)
    return json.loads(capsys.readouterr().out)


def test_jerusalem_reach_is_the_cli_moves_of_both_phases_plus_attacks(capsys, tmp_path):
    """The armoured car in Scenario II: its hexes in the reach layer are its own hex, the destinations `toolkit
    moves` gives it in the overland and in the road phase, and every on-map neighbour of those."""
    position = load_game_position(SCENARIO_II)
    cmap = position.game.map
    found = {cmap.name(h) for h, ids in side_reach(position, "jewish").items() if "j-ac-1" in ids}
    text = open(SCENARIO_II, encoding="utf-8").read()
    reached = {cmap.name(position.by_id["j-ac-1"].hex)}
    for phase in ("overland", "road"):
        path = tmp_path / f"{phase}.yaml"
        path.write_text(text.replace("phase: overland", f"phase: {phase}", 1), encoding="utf-8")
        reached |= {d["hex"] for d in _cli_moves(capsys, str(path), "j-ac-1")["destinations"]}
    attacked = {cmap.name(n) for h in reached for n in cmap.resolve(h).neighbors() if n in cmap.hexes}
    assert len(reached) > 100 and found == reached | attacked


def test_each_hex_lists_each_unit_of_the_side_once():
    position = load_game_position(SCENARIO_II)
    found = side_reach(position, "arab")
    assert all(len(set(ids)) == len(ids) and all(position.by_id[u].side == "arab" for u in ids)
               for ids in found.values())
    on_map = [u.id for u in position.units if u.side == "arab" and u.hex is not None]
    assert {u for ids in found.values() for u in ids} == set(on_map)


def test_jerusalem_zoc_by_unit_outside_the_city_and_none_from_a_city_hex():
    position = _only(load_game_position(SCENARIO_II), "a-al4-1", "a-mufti-1")   # Latrun 1913; Arab Quarter 6224
    zoc = rule(position.game, "side_zoc")(position, "arab")
    assert _names(position, zoc) == ["1813", "1814", "1912", "1914", "2013", "2014"]   # 4.1; none from a city hex, 4.3
    assert set(map(tuple, zoc.values())) == {(("a-al4-1", "4.1"),)}
    assert rule(position.game, "side_zoc")(position, "jewish") == {}


def test_no_prisoners_zoc_by_unit_agrees_with_the_supply_rules_zoc():
    from toolkit.games.no_prisoners.mapfacts import map_facts
    from toolkit.games.no_prisoners.supply import zoc_of
    from toolkit.games.no_prisoners.tables import load_tables

    position = load_game_position(NP_1)
    facts = map_facts(position.game.map, load_tables(position.game.folder).rail)
    for side in ("allied", "cp"):
        zoc = rule(position.game, "side_zoc")(position, side)
        assert set(zoc) == zoc_of(position, facts, side) and zoc
        assert {r for src in zoc.values() for _, r in src} == {"10.1 A"}


def test_no_prisoners_moves_in_its_sector_movement_phases():
    position = load_game_position(NP_1)
    assert rule(position.game, "movement_phases")(position.game.spec, "allied") == [
        "west_allied_movement", "east_allied_movement"]
    assert side_reach(position, "allied")
