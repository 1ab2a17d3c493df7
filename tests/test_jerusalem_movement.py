"""*Jerusalem!* legal moves on small hand-drawn maps with exact expected destinations and costs.

The game module here is a test copy of *Jerusalem!* (its real tables.yaml, a
few counters) played on a synthetic map, so every expectation can be worked
out by hand.
"""
import shutil
import textwrap
from fractions import Fraction

import pytest

from toolkit.game import load_position
from toolkit.game.module import _load, modules_dir
from toolkit.game.moves import Step, legal_moves
from toolkit.games import jerusalem
from toolkit.games.jerusalem.movement import JerusalemMove
from toolkit.games.jerusalem.tables import load_tables

REAL_MODULE = modules_dir() / "jerusalem-1948"

# Flat-top, odd columns half a hex lower, size 10: the centre of hex CCRR is
# x = 10 + 15 (CC-1), y = 17.32 RR (odd CC) or 17.32 RR - 8.66 (even CC).
MAP = """
id: test-jerusalem
title: test
grid: {orientation: flat, size: 10, origin: [-5, -8.660254], naming: {scheme: ccrr, shifted: odd}, columns: [1, 7], rows: [1, 24]}
terrain:
  clear: {color: "#eeeeee"}
  hill1: {color: "#cc9966", elevation: 1}
  hill2: {color: "#996633", elevation: 2}
  village: {base: false}
  jerusalem_city: {base: false}
  bevingrad: {base: false}
  police_fort: {base: false}
features:
  primary_road: {kind: path}
  secondary_road: {kind: path}
  stream: {kind: path}
  railway: {kind: path}
  map_edge_entry: {kind: path}
lines:
  # 1.3 example: five primary, three secondary, thirteen primary road hexes, all level (column 3).
  - {feature: primary_road, points: [[40, 17.32], [40, 103.92]]}
  - {feature: secondary_road, points: [[40, 103.92], [40, 155.88]]}
  - {feature: primary_road, points: [[40, 155.88], [40, 381.05]]}
overrides:
  hexes:
    "0510": {terrain: [hill1], elevation: 1}
    "0511": {terrain: [hill2], elevation: 2}
    "0710": {terrain: [clear], features: {stream: "true"}}
    "0120": {terrain: [clear, jerusalem_city]}
    "0124": {terrain: [clear, jerusalem_city]}
    "0122": {terrain: [clear, bevingrad]}
    "0715": {terrain: [clear, police_fort]}
    "0703": {terrain: [clear, village]}              # a village El Kutub may bomb (13.1.2)
    "0301": {features: {map_edge_entry: North}}      # the column-3 road leaves the map here (14.6)
"""
GAME = """
id: jerusalem-1948
title: test copy
map: {map}
sides: [{{id: jewish, name: Jewish}}, {{id: arab, name: Arab}}]
nationalities: [{{id: israeli, name: I, side: jewish}}, {{id: mufti, name: M, side: arab}},
                {{id: arab_legion, name: L, side: arab}}]
unit_types: [infantry, armored_car, truck, bus, garrison, leader, dummy_leader, convoy, halftrack, artillery]
flags: [stopped, moved_overland, moved_road, demobilized, disrupted, transported, abandoned, new_recruit, bombing]
turns: ["May I", "May II", "May III", "May IV"]
phases: [overland, road]
"""
COUNTERS = """
game: jerusalem-1948
counters:
  - {id: hgh, name: Haganah 4-6, side: jewish, nationality: israeli, type: infantry,
     values: {strength: 4, mp: 6, mp_class: both, zoc: true}}
  - {id: runner, name: 12-MP test infantry, side: jewish, nationality: israeli, type: infantry,
     values: {strength: 1, mp: 12, mp_class: both, zoc: true}}
  - {id: car, name: armoured car 4-30, side: jewish, nationality: israeli, type: armored_car,
     values: {strength: 4, mp: 30, mp_class: one, zoc: true, mechanized: true}}
  - {id: bus, name: Bus 3-12, side: jewish, nationality: israeli, type: bus,
     values: {strength: 3, mp: 12, mp_class: road, zoc: false, transport: true, capacity: 3}}
  - {id: garrison, name: Garrison 6-0, side: jewish, nationality: israeli, type: garrison,
     values: {strength: 6, mp: 0, mp_class: garrison}}
  - {id: mufti, name: Mufti 2-8, side: arab, nationality: mufti, type: infantry,
     values: {strength: 2, mp: 8, mp_class: both, zoc: true, needs_leader: true}}
  - {id: jc, name: Jerusalem Convoy, side: jewish, nationality: israeli, type: convoy,
     values: {strength: 12, mp: null, mp_class: road, zoc: true}}
  - {id: a-garrison, name: Arab Garrison 4-0, side: arab, nationality: mufti, type: garrison,
     values: {strength: 4, mp: 0, mp_class: garrison, zoc: false}}
  - {id: legion, name: Arab Legion 12-8, side: arab, nationality: arab_legion, type: infantry,
     values: {strength: 12, mp: 8, mp_class: both, zoc: true}}
  - {id: truck, name: Truck 1-24-3, side: jewish, nationality: israeli, type: truck,
     values: {strength: 1, mp: 24, mp_class: road, zoc: false, transport: true, capacity: 3}}
  - {id: kutub, name: El Kutub, side: arab, nationality: mufti, type: leader,
     values: {mp: 12, mp_class: both, zoc: false, moves_through_enemy: true, bomber: true}}
markers:
  - {id: bomb, name: Bomb}
"""


@pytest.fixture
def game(tmp_path, monkeypatch):
    if not (REAL_MODULE / "tables.yaml").exists():
        pytest.skip("modules/jerusalem-1948/tables.yaml not present")
    folder = tmp_path / "modules" / "jerusalem-1948"
    folder.mkdir(parents=True)
    (tmp_path / "map.yaml").write_text(MAP)
    (folder / "game.yaml").write_text(GAME.format(map=tmp_path / "map.yaml"))
    (folder / "counters.yaml").write_text(COUNTERS)
    shutil.copy(REAL_MODULE / "tables.yaml", folder / "tables.yaml")
    monkeypatch.setenv("TOOLKIT_MODULES_DIR", str(tmp_path / "modules"))
    _load.cache_clear()
    load_tables.cache_clear()
    yield tmp_path
    _load.cache_clear()
    load_tables.cache_clear()


def position(tmp_path, units, turn="May I", phase="overland", side="jewish", markers=""):
    text = textwrap.dedent(f"""
        game: jerusalem-1948
        turn: "{turn}"
        phase: {phase}
        phasing_side: {side}
        units:
        """) + "".join(f"  - {u}\n" for u in units) + markers
    path = tmp_path / "pos.yaml"
    path.write_text(text)
    return load_position(path)


def run(pos, *ids, **kw):
    return jerusalem.moves(pos, list(ids), **kw)


def names(pos, hexes):
    return [pos.game.map.name(h) for h in hexes]


def test_road_example_1_3(game):
    # 5 primary (2½) + 3 secondary (3) + 13 primary (6½) = 12 MP along the column-3 road.
    pos = position(game, ['{id: r, counter: runner, hex: "0301"}'])
    res = run(pos, "r")
    end = res.destinations[pos.game.map.resolve("0322")]
    assert end.mp == 12 and end.stop is None
    assert names(pos, end.path) == [f"03{r:02d}" for r in range(1, 23)]
    assert res.destinations[pos.game.map.resolve("0306")].mp == 2.5
    assert res.destinations[pos.game.map.resolve("0309")].mp == 5.5
    # The road ends at 0322: the next hex is clear terrain, 2 MP more than the unit has.
    assert pos.game.map.resolve("0323") not in res.destinations
    assert res.why_not(pos.game.map.resolve("0323")).message == "needs at least 14 MP; the stack has 12"


def test_twelve_primary_hexes_for_six_mp(game):
    pos = position(game, ['{id: h, counter: hgh, hex: "0309"}'])
    res = run(pos, "h")
    assert res.destinations[pos.game.map.resolve("0321")].mp == 6  # 12 hexes at ½
    assert pos.game.map.resolve("0322") not in res.destinations


def test_overland_costs_uphill_level_stream(game):
    pos = position(game, ['{id: h, counter: hgh, hex: "0509"}', '{id: c, counter: car, hex: "0709"}'])
    res = run(pos, "h")
    m = pos.game.map.resolve
    assert res.destinations[m("0510")].mp == 3         # uphill to hill 1
    assert res.destinations[m("0511")].mp == 6         # and up again to hill 2
    assert res.destinations[m("0409")].mp == 2         # level clear
    car = run(pos, "c")
    assert car.destinations[m("0710")].mp == 4         # mechanized into a stream hex
    assert res.destinations[m("0610")].mp == 2


def test_city_bevingrad_and_pass_through_only(game):
    m = lambda pos, n: pos.game.map.resolve(n)  # noqa: E731
    pos = position(game, ['{id: r, counter: runner, hex: "0120"}'])
    res = run(pos, "r")
    # The city roads join adjacent city hexes (1.3, 8.1 reading): 0120 and 0124 are not adjacent, so the runner
    # walks four clear hexes (8 MP) round closed Bevingrad and enters the city hex off the road (2 MP).
    walk = res.destinations[m(pos, "0124")]
    assert walk.mp == 10 and names(pos, walk.path) == ["0120", "0221", "0222", "0223", "0224", "0124"]
    assert res.why_not(m(pos, "0122")).rule == "1.3"      # Bevingrad closed before May III
    late = position(game, ['{id: r, counter: runner, hex: "0120"}'], turn="May III")
    # From May III: 2 MP to 0121, ½ into Bevingrad (1.3), 2 to 0123, 2 into the city hex off the road.
    assert run(late, "r").destinations[m(late, "0122")].mp == 2.5
    through = run(late, "r").destinations[m(late, "0124")]
    assert through.mp == 6.5 and names(late, through.path) == ["0120", "0121", "0122", "0123", "0124"]
    fort = run(position(game, ['{id: r, counter: runner, hex: "0714"}']), "r")
    assert fort.why_not(m(pos, "0715")).rule == "1.3"     # may pass through but not stop


def test_zoc_stops_and_no_zoc_to_zoc(game):
    m = lambda pos, n: pos.game.map.resolve(n)  # noqa: E731
    pos = position(game, ['{id: r, counter: runner, hex: "0305"}', '{id: e, counter: legion, hex: "0507"}'],
                   )
    res = run(pos, "r")
    zoc_hex = m(pos, "0407")
    assert res.destinations[zoc_hex].stop.rule == "4.2"
    assert res.why_not(m(pos, "0507")).rule == "4.2"      # enemy-occupied
    # Starting in a ZOC, the first step may not be into another ZOC hex (4.4).
    start_in = position(game, ['{id: r, counter: runner, hex: "0408"}', '{id: e, counter: legion, hex: "0507"}'])
    res = run(start_in, "r")
    assert res.destinations[m(start_in, "0409")].stop is None
    # 0407 is reached only by first entering a hex free of enemy ZOC: 0408 -> 0307 -> 0407, 4 MP.
    detour = res.destinations[m(start_in, "0407")]
    assert names(start_in, detour.path) == ["0408", "0307", "0407"] and detour.mp == 4
    rules = JerusalemMove(start_in, [start_in.by_id["r"]], load_tables(), jerusalem.map_facts(start_in.game.map))
    first = {s.to: s for s in rules.steps(m(start_in, "0408"), 0)}
    assert first[m(start_in, "0407")].reason.rule == "4.4"


def test_arab_garrison_alone_has_no_zoc(game):
    pos = position(game, ['{id: r, counter: runner, hex: "0305"}', '{id: g, counter: a-garrison, hex: "0507"}'])
    res = run(pos, "r")
    assert res.destinations[pos.game.map.resolve("0407")].stop is None


@pytest.mark.parametrize("unit, phase, rule", [
    ("garrison", "overland", "7.1"), ("bus", "overland", "7.3"), ("hgh", "road", "8.6"),
])
def test_who_may_not_move(game, unit, phase, rule):
    pos = position(game, [f'{{id: u, counter: {unit}, hex: "0305"}}'], phase=phase)
    assert run(pos, "u").refused.rule == rule


def test_flags_that_forbid_moving(game):
    arab = position(game, ['{id: l, counter: legion, hex: "0305", flags: [abandoned]}'], side="arab")
    assert run(arab, "l").refused.rule == "12.8.1"
    pos = position(game, ['{id: b, counter: bus, hex: "0301"}', '{id: h, counter: hgh, hex: "0301", flags: [transported]}'],
                   phase="road")
    assert run(pos, "b", pickup=["h"]).refused.rule == "8.7.5"   # no daisy-chaining
    pos = position(game, ['{id: b, counter: bus, hex: "0301"}', '{id: g, counter: garrison, hex: "0301"}'],
                   phase="road")
    assert run(pos, "b", pickup=["g"]).refused.rule == "7.1"     # a garrison never moves, carried or not


def test_convoy_moves_on_roads_without_limit_and_keeps_its_escorts(game):
    m = lambda pos, n: pos.game.map.resolve(n)  # noqa: E731
    pos = position(game, ['{id: c, counter: jc, hex: "0301"}', '{id: h, counter: hgh, hex: "0301", carried_by: c}'],
                   phase="road")
    res = run(pos, "c")
    assert res.budget is None and m(pos, "0322") in res.destinations      # unlimited MP, along the road (6.1)
    assert res.why_not(m(pos, "0201")).rule == "8.1"
    assert run(pos, "h").moving == ("h", "c")                              # naming the escort moves the convoy
    escort = position(game, ['{id: c, counter: jc, hex: "0301"}', '{id: h, counter: hgh, hex: "0301"}'])
    assert run(escort, "h").refused.rule == "6.3.3"                        # not overland either: it stays
    assert run(position(game, ['{id: c, counter: jc, hex: "0301"}'], phase="road"), "c").refused is None
    overland = position(game, ['{id: c, counter: jc, hex: "0301"}'])
    assert run(overland, "c").refused.rule == "6.1"


def test_one_phase_vehicles_and_stopped_units(game):
    pos = position(game, ['{id: c, counter: car, hex: "0305", flags: [moved_overland]}'], phase="road")
    assert run(pos, "c").refused.rule == "7.2"
    pos = position(game, ['{id: h, counter: hgh, hex: "0305", flags: [stopped]}'])
    assert run(pos, "h").refused.rule == "3.4"


def test_road_phase_only_along_roads_and_pickup_cost(game):
    m = lambda pos, n: pos.game.map.resolve(n)  # noqa: E731
    pos = position(game, ['{id: b, counter: bus, hex: "0301"}', '{id: h1, counter: hgh, hex: "0301"}',
                          '{id: h2, counter: hgh, hex: "0301"}'], phase="road")
    res = run(pos, "b", pickup=["h1", "h2"])
    # 12 MP less 2 x 2 MP pick-up = 8 MP: 5 primary (2½) + 3 secondary (3) + 5 primary (2½).
    assert res.budget == 16
    assert res.destinations[m(pos, "0314")].mp == 8
    assert m(pos, "0315") not in res.destinations
    assert res.why_not(m(pos, "0202")).rule == "8.1"


def test_stacking_limit_blocks_passing_through(game):
    m = lambda pos, n: pos.game.map.resolve(n)  # noqa: E731
    crowd = [f'{{id: f{i}, counter: hgh, hex: "0303"}}' for i in range(3)]
    pos = position(game, ['{id: r, counter: runner, hex: "0302"}', *crowd])
    res = run(pos, "r")
    assert res.why_not(m(pos, "0303")).rule == "5.1"
    # The road is cut for it at 0303: going round costs overland MP.
    assert res.destinations[m(pos, "0304")].mp > 1


def test_mufti_needs_a_leader(game):
    pos = position(game, ['{id: u, counter: mufti, hex: "0305"}'], side="arab")
    assert run(pos, "u").refused.rule == "7.4"
    with_legion = position(game, ['{id: u, counter: mufti, hex: "0305"}', '{id: l, counter: legion, hex: "0305"}'],
                           side="arab")
    assert run(with_legion, "u").refused is None


def paths_are_legal(pos, res, ids, **kw):
    """Every returned path is legal step by step, stops only at its end, ends where a move may end, and costs
    what it says."""
    rules = JerusalemMove(pos, [pos.by_id[i] for i in ids], load_tables(), jerusalem.map_facts(pos.game.map), **kw)
    for d in res.destinations.values():
        total = 0
        for i, (a, b) in enumerate(zip(d.path, d.path[1:])):
            last = i == len(d.path) - 2
            steps = [s for s in rules.steps(a, total) if isinstance(s, Step) and s.to == b
                     and (s.stop is None or last) and (s.no_end is None or not last)]
            assert steps, (d.hex, a, b)
            assert (steps[0].stop is not None) == (d.stop is not None) or not last
            total += steps[0].cost
        assert res.budget is None or total == d.cost <= res.budget
        assert total == d.cost


def test_paths_are_legal_and_more_mp_never_shrinks(game):
    pos = position(game, ['{id: h, counter: hgh, hex: "0509"}', '{id: r, counter: runner, hex: "0509"}',
                          '{id: e, counter: legion, hex: "0113"}'])
    slow, fast = run(pos, "h"), run(pos, "r")
    paths_are_legal(pos, slow, ["h"])
    paths_are_legal(pos, fast, ["r"])
    assert set(slow.destinations) <= set(fast.destinations)
    for h, d in slow.destinations.items():
        assert fast.destinations[h].cost == d.cost
    assert all(Fraction(d.cost, 2) == Fraction(d.mp) for d in fast.destinations.values())
    # Moving together, the stack goes at its slowest member's rate (7.6).
    both = run(pos, "h", "r")
    assert both.budget == slow.budget and set(both.destinations) == set(slow.destinations)


def test_generator_is_generic(game):
    pos = position(game, ['{id: h, counter: hgh, hex: "0509"}'])
    rules = JerusalemMove(pos, [pos.by_id["h"]], load_tables(), jerusalem.map_facts(pos.game.map))
    assert legal_moves(rules).destinations == run(pos, "h").destinations


def test_bus_example_8_7_7(game):
    """8.7.7: a 3 bus spends 1 + 6 + ½ + 4 + ½ = 12 MP, leaving one infantry unit behind."""
    m = lambda pos, n: pos.game.map.resolve(n)  # noqa: E731
    infantry = ['{id: h1, counter: hgh, hex: "%s"}', '{id: h2, counter: hgh, hex: "%s"}',
                '{id: h3, counter: hgh, hex: "%s"}']
    start = position(game, ['{id: b, counter: bus, hex: "0301"}'], phase="road")
    assert run(start, "b").destinations[m(start, "0303")].mp == 1            # two primary road hexes
    loaded = position(game, ['{id: b, counter: bus, hex: "0303", spent: 1}', *(u % "0303" for u in infantry)],
                      phase="road")
    res = run(loaded, "b", pickup=["h1", "h2", "h3"])                       # 3 x 2 MP to pick up
    assert res.budget == 2 * (12 - 1 - 6) and res.destinations[m(loaded, "0304")].mp == 0.5
    dropped = position(game, ['{id: b, counter: bus, hex: "0304", spent: 7.5}', *(u % "0304" for u in infantry)],
                       phase="road")
    res = run(dropped, "b", pickup=["h1", "h2"])                            # 2 x 2 MP again
    assert res.budget == 1 and set(names(dropped, res.destinations)) == {"0303", "0305"}  # on along the road, or back
    assert res.destinations[m(dropped, "0305")].mp == 0.5                   # 12 MP in all
    assert run(dropped, "b", pickup=["h1", "h2", "h3", "h3"]).refused.rule == "8.7.1"  # over capacity


def test_exact_destinations_with_two_mp_left(game):
    pos = position(game, ['{id: h, counter: hgh, hex: "0509", spent: 4}'])
    res = run(pos, "h")
    # Level clear neighbours cost 2; 0510 is uphill (3).
    assert sorted(names(pos, res.destinations)) == ["0409", "0410", "0508", "0609", "0610"]
    assert res.why_not(pos.game.map.resolve("0510")).message == "needs at least 3 MP; the stack has 2"


def test_the_checker_accepts_every_legal_move_from_scenario_ii():
    from toolkit.games import load_game_position
    from toolkit.games.jerusalem import check
    from dataclasses import replace

    pos = load_game_position(modules_dir() / "jerusalem-1948" / "scenarios" / "scenario-ii.yaml")
    assert check(pos) == []
    tried = 0
    for u in pos.units:
        if u.side != pos.phasing_side or u.hex is None or u.carried_by:
            continue
        res = jerusalem.moves(pos, [u.id])
        ends = sorted(res.destinations.values(), key=lambda d: (d.cost, d.hex))
        for d in ends[:: max(1, len(ends) // 12)]:  # a spread of each stack's destinations, near to far
            moved = pos.moved({w.id: replace(w, hex=d.hex) for w in [u, *pos.carried(u)]})
            assert check(moved) == [], (u.id, pos.game.map.name(d.hex))
            tried += 1
    assert tried > 150


def test_reinforcements_enter_at_the_map_edge_14(game):
    m = lambda pos, n: pos.game.map.resolve(n)  # noqa: E731
    pos = position(game, ['{id: r, counter: runner, box: reinforcements}'])
    assert run(pos, "r").refused.rule == "14.1"                        # where do they enter?
    res = run(pos, "r", enter="0301")
    # The first hex counts (14.1): ½ on the road, then 5 primary, 3 secondary and 12 primary road hexes.
    assert res.destinations[m(pos, "0301")].mp == 0.5
    assert res.destinations[m(pos, "0321")].mp == 12 and m(pos, "0322") not in res.destinations
    assert run(pos, "r", enter="0305").refused.rule == "14.1"          # not a map-edge hex
    # An enemy in the entrance hex: enter within three edge hexes of it instead (14.3).
    held = position(game, ['{id: r, counter: runner, box: reinforcements}', '{id: e, counter: legion, hex: "0301"}'])
    res = run(held, "r", enter="0301")
    assert res.why_not(m(held, "0301")).rule == "14.3"
    assert res.destinations[m(held, "0501")].path == (m(held, "0501"),)
    # Entering straight into an enemy ZOC is allowed, and stops there (14.4).
    zoc = position(game, ['{id: r, counter: runner, box: reinforcements}', '{id: e, counter: legion, hex: "0302"}'])
    res = run(zoc, "r", enter="0301")
    assert res.destinations[m(zoc, "0301")].stop.rule == "4.2"


def test_leaving_and_returning_by_a_road_14_6(game):
    m = lambda pos, n: pos.game.map.resolve(n)  # noqa: E731
    pos = position(game, ['{id: r, counter: runner, hex: "0305"}'])
    exit_ = run(pos, "r").exits["North"]                               # the road leaves the map at 0301
    assert exit_.hex == m(pos, "0301") and exit_.mp == 2              # four primary road hexes
    off = position(game, ['{id: r, counter: runner, box: off_map}'], markers="params: {left_by: 'r:0301'}\n")
    assert run(off, "r", enter="0101").refused.rule == "14.6"         # only back by the same road
    assert run(off, "r", enter="0301").destinations[m(off, "0301")].mp == 0.5


# -- issue 10 -------------------------------------------------------------------------------------------------
CONVOY_STACK = ['{id: c, counter: jc, hex: "0301"}', '{id: h3, counter: hgh, hex: "0301", carried_by: c}',
                '{id: t, counter: truck, hex: "0301"}', '{id: h1, counter: hgh, hex: "0301", carried_by: t}',
                '{id: h2, counter: hgh, hex: "0301", carried_by: t}', '{id: a, counter: car, hex: "0301"}',
                '{id: g, counter: garrison, hex: "0301"}']
ROAD_0301_0322 = [f"03{r:02d}" for r in range(1, 23)]


def test_6_3_3_6_3_5_the_convoy_moves_with_its_whole_stack(game):
    m = lambda pos, n: pos.game.map.resolve(n)  # noqa: E731
    pos = position(game, CONVOY_STACK, phase="road")
    res = run(pos, "c")
    assert res.refused is None and res.budget is None                       # 6.1: unlimited
    assert sorted(res.moving) == ["a", "c", "h1", "h2", "h3", "t"]         # not the garrison (6.3.3 note)
    end = res.destinations[m(pos, "0322")]
    assert names(pos, end.path) == ROAD_0301_0322 and end.mp == 12          # 2½ + 3 + 6½ along the road
    paths_are_legal(pos, res, ["c"])
    # Naming a unit the convoy carries moves the same stack; a unit on the convoy's truck may not go alone.
    assert sorted(run(pos, "h3").moving) == sorted(res.moving)
    assert run(pos, "h1").refused.rule == "6.3.3" and run(pos, "a").refused.rule == "6.3.3"
    # 6.3.5: the six moving units may join four more, not five (ten in all, 6.3.1).
    four = [f'{{id: x{i}, counter: car, hex: "0322"}}' for i in range(4)]
    assert m(pos, "0322") in run(position(game, CONVOY_STACK + four, phase="road"), "c").destinations
    five = position(game, CONVOY_STACK + four + ['{id: x4, counter: car, hex: "0322"}'], phase="road")
    assert run(five, "c").why_not(m(five, "0322")).rule == "6.3.1"
    # An escort that cannot move in the road phase on its own (8.6) holds the convoy back until picked up.
    walker = position(game, CONVOY_STACK + ['{id: h4, counter: hgh, hex: "0301"}'], phase="road")
    why = run(walker, "c").refused
    assert why.rule == "6.3.3" and "h4" in why.message and "(8.6)" in why.message
    picked = run(walker, "c", pickup=["h4"])
    assert picked.refused is None and "h4" in picked.moving and m(walker, "0322") in picked.destinations


def test_8_7_4_a_carried_unit_moves_with_its_transport(game):
    units = ['{id: b, counter: bus, hex: "0301"}', '{id: h, counter: hgh, hex: "0301", carried_by: b}']
    pos = position(game, units, phase="road")
    res = run(pos, "h")
    assert res.budget == 24 and sorted(res.moving) == ["b", "h"]            # the bus's 12 MP, not unlimited
    assert res.destinations == run(pos, "b").destinations
    overland = position(game, units)                                         # no carrying overland: h walks
    assert run(overland, "h").budget == 12 and run(overland, "h").moving == ("h",)


def test_13_1_3_el_kutub_ends_on_the_hex_he_bombs(game):
    m = lambda pos, n: pos.game.map.resolve(n)  # noqa: E731
    units = ['{id: k, counter: kutub, hex: "0701"}', '{id: h, counter: hgh, hex: "0703"}',
             '{id: o, counter: hgh, hex: "0705"}']
    pos = position(game, units, side="arab")
    res = run(pos, "k")
    bomb = res.destinations[m(pos, "0703")]                                  # a Jewish-held village (13.1.2)
    assert names(pos, bomb.path) == ["0701", "0702", "0703"] and bomb.mp == 4 and bomb.stop.rule == "13.1.3"
    assert res.why_not(m(pos, "0705")).rule == "12.5"                       # clear: pass through only
    beyond = res.destinations[m(pos, "0704")]
    assert beyond.mp == 6 and beyond.stop is None                            # he may still pass through (12.5)
    paths_are_legal(pos, res, ["k"])
    # Once per game per hex, one hex per turn (13.1.2): a Bomb marker there, or one placed this turn.
    for marker in ('{marker: bomb, hex: "0703", turn: "May I"}', '{marker: bomb, hex: "0120", turn: "May I"}'):
        done = position(game, units, side="arab", markers=f"markers:\n  - {marker}\n")
        assert run(done, "k").why_not(m(done, "0703")).rule == "13.1.2"
    older = position(game, units, side="arab", markers='markers:\n  - {marker: bomb, hex: "0120", turn: "May I"}\n',
                     turn="May II")
    assert run(older, "k").destinations[m(older, "0703")].stop.rule == "13.1.3"
    # Not with other Arab units (13.1.1): a Mufti unit with him may not enter the Jewish hex at all.
    mufti = position(game, units + ['{id: u, counter: mufti, hex: "0701"}'], side="arab")
    assert run(mufti, "k", "u").why_not(m(mufti, "0703")).rule == "4.2"


def test_8_7_2_picking_up_a_unit_elsewhere_is_refused(game):
    pos = position(game, ['{id: b, counter: bus, hex: "0301"}', '{id: h, counter: hgh, hex: "0305"}'], phase="road")
    why = run(pos, "b", pickup=["h"]).refused
    assert why.rule == "8.7.2" and "h is in 0305" in why.message


def test_14_1_enter_for_a_unit_on_the_map_is_an_error(game):
    from toolkit.cli import main

    pos = position(game, ['{id: r, counter: runner, hex: "0305"}'])
    with pytest.raises(ValueError, match=r"r is on the map at 0305.*\(14\.1\)"):
        run(pos, "r", enter="0301")
    assert main(["moves", str(game / "pos.yaml"), "r", "--enter", "0301"]) == 2


def test_5_1_an_overstacked_entry_is_refused(game):
    pos = position(game, [f'{{id: r{i}, counter: hgh, box: reinforcements}}' for i in range(4)])
    res = run(pos, "r0", "r1", "r2", "r3", enter="0301")
    assert res.refused.rule == "5.1" and "(14.5)" in res.refused.message and not res.destinations
    assert run(pos, "r0", "r1", "r2", enter="0301").refused is None


def test_1_3_8_1_city_roads_join_adjacent_city_hexes_so_enemy_hexes_block():
    from toolkit.game import Position, Unit, load_game

    real = load_game("jerusalem-1948")
    m = real.map

    def at(units):
        return Position(real, "June I", "overland", "jewish",
                        tuple(Unit(u, real.counters[c], m.resolve(h)) for u, c, h in units))

    quarter = m.resolve("Jewish Quarter")
    free = at([("h", "hgh-4-6", "Musrara")])
    res = jerusalem.moves(free, ["h"])
    # Musrara -> Arab Quarter -> Jewish Quarter: ½ MP a city hex along the city roads, not ½ for the whole way.
    assert res.destinations[quarter].mp == 1
    assert names(free, res.destinations[quarter].path) == ["6223", "6224", "6225"]
    assert res.destinations[m.resolve("Mea Shearim")].mp == 1                # 6223 -> 6123 -> 6023
    paths_are_legal(free, res, ["h"])
    # With the Arab Quarter held (4.2) the road is blocked there: ½ to Notre Dame, 2 across clear 6124 (no
    # road, not a city hex), 2 into the Jewish Quarter off the road (1.3).  City units have no ZOC (4.3).
    held = at([("h", "hgh-4-6", "Musrara"), ("a", "mufti-2-8", "Arab Quarter")])
    res = jerusalem.moves(held, ["h"])
    assert res.why_not(m.resolve("Arab Quarter")).rule == "4.2"
    round_ = res.destinations[quarter]
    assert round_.mp == 4.5 and names(held, round_.path) == ["6223", "6123", "6124", "6225"]
    paths_are_legal(held, res, ["h"])


def _arab_position(units, phase="overland"):
    from toolkit.game import Position, Unit, load_game
    real = load_game("jerusalem-1948")
    return Position(real, "June I", phase, "arab",
                    tuple(Unit(u, real.counters[c], real.map.resolve(h)) for u, c, h in units))


def test_12_9_3_haj_amin_stays_in_the_twelve_city_hexes_bevingrad_is_not_one():
    pos = _arab_position([("amin", "amin", "5923")])
    res = jerusalem.moves(pos, ["amin"])
    assert sorted(names(pos, res.destinations)) == [
        "5827", "5924", "5926", "6023", "6026", "6027", "6123", "6125", "6223", "6224", "6225"]
    refused = {pos.game.map.name(h): why for h, why in res.unreachable.items()}
    # every hex beside the city, Bevingrad (6024) included, refused by 12.9.3 (1.3 note: Bevingrad is no city hex)
    assert sorted(refused) == ["5726", "5727", "5823", "5824", "5825", "5826", "5828", "5922", "5925", "5927",
                               "6022", "6024", "6025", "6028", "6122", "6124", "6126", "6127", "6222", "6226",
                               "6322", "6323", "6324", "6325"]
    assert {why.rule for why in refused.values()} == {"12.9.3"}
    assert str(refused["6024"]) == "Haj Amin never leaves the Jerusalem city hexes (Bevingrad is not one, 1.3) (12.9.3)"


def test_12_6_the_last_arab_unit_may_not_leave_kaukji_alone():
    pos = _arab_position([("k", "kaukji", "6216"), ("s", "syr-3-4", "6216")])
    res = jerusalem.moves(pos, ["s"])
    assert res.destinations == {} and res.refused.rule == "12.6"
    assert res.refused.message == ("k would be left in 6216 without an Arab unit, and he must always be stacked "
                                   "with at least one (12.6 note): move him along or first to another Arab unit")
    together = jerusalem.moves(pos, ["s", "k"])                             # moving him along is legal
    assert together.refused is None and len(together.destinations) == 41
    # with a second Arab unit in the hex, either unit may go; Kaukji alone ends only with an Arab unit (6218)
    pos = _arab_position([("k", "kaukji", "6216"), ("s", "syr-3-4", "6216"), ("i", "irq-3-4", "6216"),
                          ("t", "irq-3-4", "6218")])
    assert jerusalem.moves(pos, ["s"]).refused is None
    alone = jerusalem.moves(pos, ["k"])
    assert names(pos, alone.destinations) == ["6218"]
    assert alone.why_not(pos.game.map.resolve("6217")).rule == "12.6"
