"""*Jerusalem!* victory (2.0) on the bundled reconstructed map, with hand-built positions.

The positions use a small test copy of the counters (the value keys of
``modules/jerusalem-1948/counters.yaml``) so they do not depend on the module's data
while it is being written.  On this map the Latrun hex (1914) is the one hex every road
from Jerusalem to "to Tel Aviv" (0102) and Hulda (0215) goes through.
"""
from jerusalem_fixtures import pos  # the `game` fixture comes from jerusalem_fixtures via conftest
from toolkit.game import MarkerAt
from toolkit.games.jerusalem.movement import MapFacts
from toolkit.games.jerusalem.victory import road_graph, victory, victory_json

FIVE = ["Jewish HQ", "Katamon", "Talbiyeh", "Musrara", "Mea Shearim"]


def held(n):
    return [(f"g{i}", "j-gar", place) for i, place in enumerate(FIVE[:n])]


def test_five_city_hexes_and_an_open_road_win(game):
    res = victory(pos(game, held(5), turn_end=True))
    assert res.jewish_wins and res.final_turn
    assert res.city_hexes_held == ("5924", "5926", "6023", "6026", "6223")
    facts = MapFacts(game.map)
    graph = road_graph(pos(game, []), facts)
    path = [game.map.resolve(n) for n in res.path]
    assert path[0] in facts.city and "jerusalem_city" in game.map.hexes[path[0]].terrain
    assert res.path[-1] in ("0102", "0215")
    assert all(graph.has_edge(a, b) for a, b in zip(path, path[1:]))
    assert "1914" in res.path  # Latrun
    out = victory_json(res)
    assert list(out) == ["jewish_wins", "city_hexes_held", "needed", "road", "cut_by", "rule", "explanation"]
    assert out["road"]["from"] == res.path[0] and out["road"]["to"] == res.path[-1]
    assert out["needed"] == 5 and out["rule"] == "2.0" and out["cut_by"] == []
    assert "Note" not in out["explanation"]


def test_four_city_hexes_and_bevingrad_are_not_enough(game):
    res = victory(pos(game, held(4) + [("b", "hgh", "Bevingrad"), ("b2", "hgh", "Jewish HQ")], turn_end=True))
    assert len(res.city_hexes_held) == 4 and not res.jewish_wins
    assert res.road_open
    assert "4 of the 12" in res.explanation and "2.0" in res.explanation


def test_a_city_hex_shared_with_arab_units_is_not_held(game):
    res = victory(pos(game, held(5) + [("amin", "amin", "Katamon")]))
    assert "5926" not in res.city_hexes_held and not res.jewish_wins


def test_an_arab_unit_on_latrun_cuts_every_road(game):
    # 2.0: its ZOC cuts the two road hexes west of Latrun (1815 and the Police Fort 1913), not its own hex (4.1.1).
    res = victory(pos(game, held(5) + [("m", "mufti", "Latrun")], turn_end=True))
    assert not res.jewish_wins and not res.road_open
    assert res.cut_by == ("1815", "1913")
    out = victory_json(res)
    assert out["road"] is None and out["cut_by"] == ["1815", "1913"]
    assert "1815 in Arab ZOC (4.1); 1913 (Latrun Police Fort) in Arab ZOC (4.1)" in out["explanation"]
    # The stricter reading also cuts at the hex the unit stands in: Latrun alone cuts every road.
    strict = victory(pos(game, held(5) + [("m", "mufti", "Latrun")], turn_end=True), road_cut_by="zoc_or_unit")
    assert strict.cut_by == ("1914",) and "1914 (Latrun) occupied by Arab units (4.2)" in strict.explanation


def test_arab_zoc_off_the_road_cuts_it(game):
    # 1915 has no road: the Mufti unit blocks only through its ZOC on Latrun and the road hexes round it.
    res = victory(pos(game, held(5) + [("m", "mufti", "1915")]))
    assert not res.road_open and res.cut_by == ("1914",)
    assert "in Arab ZOC (4.1)" in res.explanation


def test_jewish_units_do_not_cancel_arab_zoc(game):
    res = victory(pos(game, held(5) + [("m", "mufti", "1915"), ("h", "hgh", "Latrun")]))
    assert not res.road_open and res.cut_by == ("1914",)


def test_garrison_has_zoc_only_with_a_leader(game):
    alone = victory(pos(game, held(5) + [("a", "a-gar", "1915")]))
    assert alone.road_open  # 4.1: an Arab garrison has no ZOC ...
    led = victory(pos(game, held(5) + [("a", "a-gar", "1915"), ("l", "ghory", "1915")]))
    assert not led.road_open and led.cut_by == ("1914",)  # ... unless stacked with a leader (4.6)


def test_zoc_in_the_end_hexes_counts(game):
    # 0103 and 0216 are off the road, next to "to Tel Aviv" and Hulda: both end hexes are in Arab ZOC.
    res = victory(pos(game, held(5) + [("m1", "mufti", "0103"), ("m2", "mufti", "0216")]))
    assert not res.road_open
    assert len(res.cut_by) == 2


def test_units_in_the_city_have_no_zoc_on_the_road(game):
    res = victory(pos(game, held(5) + [("m", "mufti", "Arab Quarter")]))
    assert res.road_open  # 4.3


def test_bulldozer_roads_join_the_graph_from_the_next_turn(game):
    facts = MapFacts(game.map)
    a, b = game.map.resolve("1915"), game.map.resolve("1814")
    old = MarkerAt("secondary_road", a, turn="June I", toward=b)
    new = MarkerAt("secondary_road", a, turn="June IV", toward=b)
    assert road_graph(pos(game, [], markers=[old]), facts).has_edge(a, b)
    assert not road_graph(pos(game, [], markers=[new]), facts).has_edge(a, b)  # 15.4


def test_the_verdict_notes_when_the_position_is_not_the_final_turn_end(game):
    res = victory(pos(game, held(5), turn="May IV"))
    assert res.jewish_wins and not res.final_turn
    assert "3.5" in res.explanation and "May IV" in res.explanation


def test_2_0_a_lone_arab_unit_without_zoc_does_not_cut_the_road(game):
    units = held(5) + [("a", "a-gar", "Latrun")]
    res = victory(pos(game, units, turn_end=True))
    assert res.road_open and res.jewish_wins and "1914" in res.path     # 2.0 asks only for no Arab ZOC
    assert "Arab ZOC" in res.explanation and "no Arab unit" not in res.explanation
    strict = victory(pos(game, units, turn_end=True), road_cut_by="zoc_or_unit")   # the stricter reading
    assert not strict.road_open and strict.cut_by == ("1914",)
    assert "1914 (Latrun) occupied by Arab units (4.2)" in strict.explanation


def test_2_0_the_road_reading_switch_on_the_command_line(tmp_path, capsys):
    import json

    from toolkit.cli import main

    units = "".join(f'  - {{id: g{i}, counter: j-gar-12-0, hex: "{h}"}}\n' for i, h in enumerate(FIVE))
    path = tmp_path / "end.yaml"
    path.write_text('game: jerusalem-1948\nturn: "June IV"\nphase: road\nphasing_side: jewish\n'
                    "params: {turn_end: true}\nunits:\n" + units + '  - {id: a, counter: a-gar-4-0, hex: Latrun}\n')
    assert main(["victory", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["jewish_wins"] is True
    assert main(["victory", str(path), "--json", "--road-cut-by", "zoc-or-unit"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["jewish_wins"] is False and out["cut_by"] == ["1914"]
