"""Benchmark the foundation: map compile, cache, graph, line of sight.

Prints a table of medians over repeated runs (``--json`` for machines).  The
timed map is the largest bundled map if it has at least 4,000 hexes, else (and
with ``--generated``) a generated 70 x 70 map with about 20 % blocking hexes;
every bundled map's cold compile is timed too.
The naive baseline is what one would write without the engine: float
coordinates and a shapely predicate for every (target, obstacle) pair.

    python scripts/bench.py [--repeat N] [--json] [--generated] [--only GROUP ...]

The speed targets (issue 2) are the ``target`` column; ``ok`` says if it is met.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

import numpy as np
import shapely
import yaml

from toolkit.los import LosEngine
from toolkit.los.explain import map_obstacles
from toolkit.mapdata import compile_source, list_maps, load_map, to_graph

SIZE = 10.0


def generated_map_source(columns: int = 70, rows: int = 70, seed: int = 1917) -> str:
    """YAML of a generated map: ~20 % of hexes covered by hill and village blobs, plus roads."""
    rng = random.Random(seed)
    width, height = 1.5 * SIZE * columns, SIZE * 3 ** 0.5 * rows
    areas = []
    for i in range(int(columns * rows * 0.2 / 2)):
        cx, cy, rad = rng.uniform(0, width), rng.uniform(0, height), rng.uniform(0.8, 1.8) * SIZE * 1.2
        pts = [[round(float(cx + rad * np.cos(a) * rng.uniform(0.8, 1.2)), 3),
                round(float(cy + rad * np.sin(a) * rng.uniform(0.8, 1.2)), 3)] for a in np.linspace(0, 2 * np.pi, 9)[:-1]]
        areas.append({"terrain": "hill" if i % 3 else "village", "polygon": pts})
    lines = [{"feature": "road", "points": [[rng.uniform(0, width), rng.uniform(0, height)] for _ in range(6)]}
             for _ in range(12)]
    spec = {
        "id": "generated-70x70", "title": "Generated 70 x 70 benchmark map",
        "grid": {"orientation": "flat", "size": SIZE, "naming": {"scheme": "ccrr", "shifted": "odd"},
                 "columns": [1, columns], "rows": [1, rows]},
        "terrain": {"clear": {"color": "#eae3c5"}, "hill": {"color": "#c9a66b", "elevation": 1},
                    "village": {"color": "#b04030"}},
        "features": {"road": {"kind": "path", "color": "#8b0000"}},
        "los": {"convention": "touch", "blocking_terrain": ["hill", "village"]},
        "areas": areas, "lines": lines,
    }
    return yaml.safe_dump(spec, sort_keys=False)


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn`` in milliseconds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def naive_one_to_all(cmap, viewer, blockers) -> dict:
    """Float shapely geometry, one vectorised ``intersects`` per target against every obstacle, touch convention."""
    lay = cmap.grid.layout
    polys = {h: shapely.Polygon(lay.corners(h)) for h in blockers}
    out = {}
    for target in cmap.grid.hex_list:
        line = shapely.LineString([lay.centre(viewer), lay.centre(target)])
        between = [p for h, p in polys.items() if h not in (viewer, target)]
        out[target] = not bool(np.any(shapely.intersects(line, between)))
    return out


def naive_early_exit(cmap, viewer, blockers) -> dict:
    """Float shapely, a plain loop over the obstacles that stops at the first one the line touches."""
    lay = cmap.grid.layout
    polys = [(h, shapely.Polygon(lay.corners(h))) for h in blockers]
    for _, p in polys:
        shapely.prepare(p)
    out = {}
    for target in cmap.grid.hex_list:
        line = shapely.LineString([lay.centre(viewer), lay.centre(target)])
        out[target] = not any(h != viewer and h != target and p.intersects(line) for h, p in polys)
    return out


def naive_strtree(cmap, viewer, blockers) -> dict:
    """Float shapely, one STRtree ``query(line, predicate="intersects")`` per line."""
    lay = cmap.grid.layout
    hexes = list(blockers)
    tree = shapely.STRtree([shapely.Polygon(lay.corners(h)) for h in hexes])
    out = {}
    for target in cmap.grid.hex_list:
        line = shapely.LineString([lay.centre(viewer), lay.centre(target)])
        hits = tree.query(line, predicate="intersects")
        out[target] = not any(hexes[i] != viewer and hexes[i] != target for i in hits.tolist())
    return out


def growth_rows(repeat: int) -> list[dict]:
    """One-to-all (touch, array API, warm) and the table build on square maps of growing size, ~20 % obstacles."""
    from toolkit.hexgrid import CCRR, Grid, Layout
    from toolkit.los import Obstacles

    rows = []
    for side in (30, 70, 100, 150):
        grid = Grid(Layout("flat", SIZE), CCRR(), columns=(1, side), rows=(1, side))
        rng = random.Random(side)
        obstacles = Obstacles(hexes=frozenset(h for h in grid.hex_list if rng.random() < 0.2))
        viewer = grid.hex_list[len(grid.hex_list) // 2]
        engine = LosEngine(grid)
        t0 = time.perf_counter()
        engine.prepare()
        build = (time.perf_counter() - t0) * 1e3
        engine.visible_array(viewer, "touch", obstacles)
        ms = median_ms(lambda: engine.visible_array(viewer, "touch", obstacles), repeat)
        rows.append({"benchmark": f"growth: LOS one-to-all {side} x {side} ({len(grid)} hexes; table "
                                  f"{build:.0f} ms, {engine.table.nbytes / 1e6:.0f} MB)",
                     "median_ms": round(ms, 3), "runs": repeat, "target_ms": 2 if side == 70 else None,
                     "ok": ms <= 2 if side == 70 else None})
    return rows


def run(repeat: int, generated: bool) -> list[dict]:
    """Measure every row of the table."""
    bundled = {map_id: compile_source(path.read_bytes(), str(path)) for map_id, _, path in list_maps()}
    largest = max(bundled, key=lambda i: len(bundled[i].hexes), default=None)
    use_bundled = not generated and largest is not None and len(bundled[largest].hexes) >= 4000
    with tempfile.TemporaryDirectory() as tmp:
        if use_bundled:
            path = dict((i, p) for i, _, p in list_maps())[largest]
            source = path.read_bytes()
        else:
            path = Path(tmp) / "map.yaml"
            path.write_text(generated_map_source())
            source = path.read_bytes()
        cache = Path(tmp) / "cache"
        rows = []

        def row(name: str, ms: float, target: float | None, runs: int) -> None:
            rows.append({"benchmark": name, "median_ms": round(ms, 3), "runs": runs,
                         "target_ms": target, "ok": None if target is None else ms <= target})

        row("map compile, cold", median_ms(lambda: compile_source(source, str(path)), max(3, repeat // 4)),
            3000, max(3, repeat // 4))
        load_map(path, cache)
        row("map load, cached", median_ms(lambda: load_map(path, cache), repeat), 300, repeat)
        cmap = load_map(path, cache)
        row("graph build", median_ms(lambda: to_graph(cmap), repeat), None, repeat)

        obstacles = map_obstacles(cmap)
        hexes = cmap.grid.hex_list
        viewer = hexes[len(hexes) // 2]
        far = max(hexes, key=viewer.distance)
        row("LOS one pair, cold engine", median_ms(lambda: LosEngine(cmap.grid).check(viewer, far, "touch", obstacles),
                                                   repeat), None, repeat)
        engine = LosEngine(cmap.grid)
        engine.check(viewer, far, "touch", obstacles)
        row("LOS one pair", median_ms(lambda: engine.check(viewer, far, "touch", obstacles), repeat), 0.5, repeat)
        row("LOS one-to-all, cold (fresh engine, first query)",
            median_ms(lambda: LosEngine(cmap.grid).visible_array(viewer, "touch", obstacles), max(3, repeat // 4)),
            100, max(3, repeat // 4))
        row("LOS offset table build (every offset of the map, once)",
            median_ms(lambda: LosEngine(cmap.grid).prepare(), 3), None, 3)
        engine.prepare()
        arrays = engine.obstacle_arrays(obstacles)
        timings = {}
        for conv in ("touch", "cross", "both-sides"):
            engine.visible_array(viewer, conv, arrays)
            timings[conv] = median_ms(lambda: engine.visible_array(viewer, conv, arrays), repeat)
            row(f"LOS one-to-all, {conv} (array in, array out)", timings[conv], 2, repeat)
            row(f"LOS one-to-all, {conv} (dict API)",
                median_ms(lambda: engine.visible_from(viewer, conv, obstacles), repeat), 10, repeat)
        fast = timings["touch"]
        naive_runs = 3
        baselines = {
            "naive one-to-all: vectorised intersects per target (float shapely)": naive_one_to_all,
            "naive one-to-all: early-exit shapely loop": naive_early_exit,
            "naive one-to-all: STRtree query per line": naive_strtree,
        }
        naive_ms = {}
        for name, fn in baselines.items():
            naive_ms[name] = median_ms(lambda: fn(cmap, viewer, obstacles.hexes), naive_runs)
            row(name, naive_ms[name], None, naive_runs)
        fastest = min(naive_ms, key=naive_ms.get)
        rows.append({"benchmark": f"speed-up of one-to-all over the fastest naive ({fastest.split(': ')[1]})",
                     "ratio": round(naive_ms[fastest] / fast, 1), "target_ratio": 100,
                     "ok": naive_ms[fastest] / fast >= 100})
        naive_answer = naive_strtree(cmap, viewer, obstacles.hexes)
        exact_answer = engine.visible_from(viewer, "touch", obstacles)
        differ = sum(naive_answer[h] != exact_answer[h] for h in hexes)
        rows.append({"benchmark": "targets where float predicates get it wrong", "value": differ, "ok": None})
        import tracemalloc

        for conv in ("touch", "cross", "both-sides"):
            t0 = time.perf_counter()
            matrix = LosEngine(cmap.grid).visibility_matrix(conv, obstacles)  # includes building the table
            row(f"LOS visibility matrix, whole map, {conv} ({matrix.packed.nbytes / 1e6:.1f} MB packed)",
                (time.perf_counter() - t0) * 1e3, 5000, 1)
        tracemalloc.start()  # a separate run: tracing every allocation slows numpy down
        LosEngine(cmap.grid).visibility_matrix("touch", obstacles)
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
        rows.append({"benchmark": "LOS visibility matrix: peak memory (tracemalloc, MB)", "value": round(peak, 1),
                     "ok": peak <= 100})
        for map_id, _, map_path in list_maps():
            data, game_map = map_path.read_bytes(), bundled[map_id]
            row(f"{map_id} ({len(game_map.hexes)} hexes): cold compile",
                median_ms(lambda: compile_source(data, str(map_path)), 3), 2000, 3)
            game_engine, game_obstacles = LosEngine(game_map.grid), map_obstacles(game_map)
            centre = game_map.grid.hex_list[len(game_map.grid.hex_list) // 2]
            game_engine.visible_from(centre, game_map.los.convention, game_obstacles)
            row(f"{map_id}: LOS one-to-all ({game_map.los.convention}, map obstacles)",
                median_ms(lambda: game_engine.visible_from(centre, game_map.los.convention, game_obstacles), repeat),
                10, repeat)
        rows += growth_rows(repeat)
        rows.insert(0, {"benchmark": f"map: {cmap.id} ({len(hexes)} hexes, "
                                     f"{len(obstacles.hexes) / len(hexes):.0%} blocking)", "ok": None})
    return rows


def jerusalem_rows(repeat: int) -> list[dict]:
    """Issue 4 targets on the real map and the Scenario II position: legal moves and the legality check."""
    from toolkit.games import load_game_position
    from toolkit.games.jerusalem import check, moves

    position = load_game_position(Path(__file__).resolve().parent.parent / "modules" / "jerusalem-1948" /
                                  "scenarios" / "scenario-ii.yaml")
    movable = [u.id for u in position.units if u.side == position.phasing_side and u.hex is not None
               and u.carried_by is None and moves(position, [u.id]).refused is None]
    per_unit = [median_ms(lambda uid=uid: moves(position, [uid]), 5) for uid in movable]
    worst = max(movable, key=lambda uid: len(moves(position, [uid]).destinations))
    rows = [
        {"benchmark": f"jerusalem-1948 Scenario II: legal moves, median over {len(movable)} movable stacks",
         "median_ms": round(statistics.median(per_unit), 3), "runs": 5, "target_ms": 20,
         "ok": statistics.median(per_unit) <= 20},
    ]
    ms = median_ms(lambda: moves(position, [worst]), repeat)
    rows.append({"benchmark": f"jerusalem-1948 Scenario II: legal moves of {worst} (most destinations)",
                 "median_ms": round(ms, 3), "runs": repeat, "target_ms": 20, "ok": ms <= 20})
    ms = median_ms(lambda: check(position), repeat)
    rows.append({"benchmark": "jerusalem-1948 Scenario II: legality check of the whole position",
                 "median_ms": round(ms, 3), "runs": repeat, "target_ms": 50, "ok": ms <= 50})
    return rows


def every_unit_placed(position):
    """The position with every counter of the game on a land hex of its own sector (deterministic)."""
    from toolkit.game import Unit

    cmap = position.game.map
    rng = random.Random(1917)
    land = {region: [h for h, i in cmap.hexes.items() if i.region == region and i.terrain[0] not in ("sea", "lake")]
            for region in ("Western", "Eastern")}
    units = [u for u in position.units if u.hex is not None]
    for c in position.game.manifest.counters:
        region = "Eastern" if c.values.get("sector") == "E" else "Western"
        for k in range(c.count):
            units.append(Unit(f"bench-{c.id}-{k}", c, rng.choice(land[region])))
    return replace(position, units=tuple(units))


def siege_every_unit_placed(position):
    """The Siege position with every counter of the game placed instead of its units, one a hex (deterministic):
    the Romans on open ground outside the city, Jewish Artillery on the walls, the other Jews in the city's areas."""
    from toolkit.game import Unit
    from toolkit.games.siege.zoc import ELEVATED

    cmap = position.game.map
    rng = random.Random(70)

    def free(hexes):
        pool = list(hexes)
        rng.shuffle(pool)
        return pool
    outside = free(h for h, i in cmap.hexes.items() if i.region is None and i.terrain[0] == "clear")
    walls = free(h for h, i in cmap.hexes.items() if i.terrain[0] in ELEVATED and i.terrain[0] != "bridge")
    city = free(h for h, i in cmap.hexes.items() if i.region is not None and i.terrain[0] not in ELEVATED)
    units = []
    for c in position.game.manifest.counters:
        for k in range(c.count):
            if c.side == "roman":
                pool = outside
            else:
                pool = walls if c.values.get("unit_class") == "artillery" else city
            units.append(Unit(f"bench-{c.id}-{k}", c, pool.pop()))
    return replace(position, units=tuple(units))


def siege_rows(repeat: int) -> list[dict]:
    """Issue 13 targets on the demonstration position and on one with every counter placed: moves per stack (the
    position's board and ZOC worked out once, as a position kept by the viewer has them), the check, CC for all
    units (on a fresh copy each run); the sequence-of-play check (4.1-4.3, issue 22)."""
    from toolkit.games import load_game_position
    from toolkit.games.siege import check, command, moves, sequence_check

    demo = load_game_position(Path(__file__).resolve().parent.parent / "modules" / "siege-of-jerusalem" /
                              "scenarios" / "demonstration.yaml")
    rows = []
    for label, position in (("demonstration", demo), ("every counter placed", siege_every_unit_placed(demo))):
        stacks: dict = {}
        for u in position.units:
            if u.hex is not None and u.side == position.phasing_side and not (
                    u.has("pushing") or u.has("riding") or u.has("ladder_base")):
                stacks.setdefault(u.hex, u.id)
        movable = [uid for uid in stacks.values() if moves(position, [uid]).refused is None]
        per = [median_ms(lambda uid=uid: moves(position, [uid]), 5) for uid in movable]
        med = statistics.median(per) if per else 0.0
        rows.append({"benchmark": f"siege-of-jerusalem {label}: legal moves, median over {len(movable)} stacks",
                     "median_ms": round(med, 3), "runs": 5, "target_ms": 20, "ok": med <= 20})
        ms = median_ms(lambda: check(position), repeat)
        rows.append({"benchmark": f"siege-of-jerusalem {label}: legality check ({len(position.units)} units)",
                     "median_ms": round(ms, 3), "runs": repeat, "target_ms": 50, "ok": ms <= 50})
        ms = median_ms(lambda: command(replace(position)), repeat)   # a fresh copy: nothing it kept (Position.memo)
        rows.append({"benchmark": f"siege-of-jerusalem {label}: Command Control of every unit",
                     "median_ms": round(ms, 3), "runs": repeat, "target_ms": 50, "ok": ms <= 50})
        ms = median_ms(lambda: sequence_check(position), repeat)
        rows.append({"benchmark": f"siege-of-jerusalem {label}: sequence-of-play check (4.1-4.3)",
                     "median_ms": round(ms, 3), "runs": repeat, "target_ms": 50, "ok": ms <= 50})
    return rows


def no_prisoners_rows(repeat: int) -> list[dict]:
    """Issue 5 targets: supply for every unit of both sides; legal moves of one unit including rail."""
    from toolkit.games import load_game_position
    from toolkit.games.no_prisoners import moves, supply

    long = load_game_position(Path(__file__).resolve().parent.parent / "modules" / "no-prisoners" / "scenarios" /
                              "scenario-2.yaml")
    full = every_unit_placed(long)
    supply(full)
    ms = median_ms(lambda: supply(full), repeat)
    rows = [{"benchmark": f"no-prisoners: supply of every unit, every counter placed ({len(full.units)} units)",
             "median_ms": round(ms, 3), "runs": repeat, "target_ms": 50, "ok": ms <= 50}]
    mover = replace(load_game_position(Path(__file__).resolve().parent.parent / "modules" / "no-prisoners" /
                                       "scenarios" / "scenario-1.yaml"), phase="west_allied_movement")
    ms = median_ms(lambda: moves(mover, ["a-anzac-mtd-div"], kind="rail"), repeat)
    rows.append({"benchmark": "no-prisoners scenario-1: legal moves of one unit including rail",
                 "median_ms": round(ms, 3), "runs": repeat, "target_ms": 20, "ok": ms <= 20})
    return rows


def steppe_rows(repeat: int) -> list[dict]:
    """Issue 19: the example game whose rules are data only (examples/steppe), with the bundled games' targets for
    the same answers: the moves of its fastest unit and of each stack (20 ms, as every game's moves), an attack
    worked out (20 ms: no bundled row times odds, so a player's one question, as a unit's moves) and the supply of
    every unit (50 ms, as No Prisoners')."""
    from toolkit.games import load_position_or_save, rule

    game = Path(__file__).resolve().parent.parent / "examples" / "steppe"
    position = load_position_or_save(str(game / "scenarios" / "scenario-1.yaml"), str(game))[0]
    moves, combat, supply = (rule(position.game, name) for name in ("moves", "combat", "supply"))
    results = {u.id: moves(position, [u.id]) for u in position.units if u.side == position.phasing_side
               and u.hex is not None}
    movable = [uid for uid, result in results.items() if result.refused is None]
    fastest = max(movable, key=lambda uid: (results[uid].budget or 0, len(results[uid].destinations)))
    per_unit = statistics.median(median_ms(lambda uid=uid: moves(position, [uid]), 5) for uid in movable)
    adjacent = position.game.map.resolve("0504")          # g-pz-2 next to the Soviet rifles in 0604 (ZOC stop)
    attack = replace(position, units=tuple(replace(u, hex=adjacent) if u.id == "g-pz-2" else u
                                           for u in position.units))
    assert combat(attack, ["g-pz-2"], ["s-inf-1"]).refused is None
    timed = ((f"steppe scenario 1: legal moves, median over {len(movable)} movable stacks", per_unit, 5, 20),
             (f"steppe scenario 1: legal moves of {fastest} (the most MP)",
              median_ms(lambda: moves(position, [fastest]), repeat), repeat, 20),
             ("steppe scenario 1: odds of g-pz-2 on s-inf-1 (worked out)",
              median_ms(lambda: combat(attack, ["g-pz-2"], ["s-inf-1"]), repeat), repeat, 20),
             (f"steppe scenario 1: supply of every unit ({sum(u.hex is not None for u in position.units)} on the map)",
              median_ms(lambda: supply(position), repeat), repeat, 50))
    return [{"benchmark": name, "median_ms": round(ms, 3), "runs": runs, "target_ms": target, "ok": ms <= target}
            for name, ms, runs, target in timed]


def retreat_rows(repeat: int) -> list[dict]:
    """Issue 22: one retreat answer (toolkit retreat --json, every destination and refusal with its rule) per
    game, 20 ms as a unit's legal moves: the Siege's D result through full hexes (15.3: a second search), a No
    Prisoners two-hex retreat in scenario 1, Steppe's DR in scenario 1 and Jerusalem!'s K in Scenario II."""
    from toolkit.answers import retreat_answer
    from toolkit.game import PositionFile, position_from_file
    from toolkit.games import load_game_position, load_position_or_save

    root = Path(__file__).resolve().parent.parent
    siege = position_from_file(PositionFile(
        game="siege-of-jerusalem", turn="AP I/1", phase="melee", phasing_side="roman",
        units=[{"id": "c", "counter": "v-cavalry", "hex": "KK29"}, {"id": "j", "counter": "y-regulars-5-7",
                                                                     "hex": "JJ30"}]
        + [{"id": f"m{i}", "counter": "y-militia-2-6", "hex": h} for i, h in enumerate(["JJ31", "II30", "II31"] * 3)]))
    steppe = load_position_or_save(str(root / "examples" / "steppe" / "scenarios" / "scenario-1.yaml"),
                                   str(root / "examples" / "steppe"))[0]
    np1 = load_game_position(root / "modules" / "no-prisoners" / "scenarios" / "scenario-1.yaml")
    allied = next(u.id for u in np1.units if u.hex is not None and u.side == "allied")
    turk = next(u.id for u in np1.units if u.hex is not None and u.side != "allied")
    jerusalem = load_game_position(root / "modules" / "jerusalem-1948" / "scenarios" / "scenario-ii.yaml")
    jewish = next(u.id for u in jerusalem.units if u.hex is not None and u.side == "jewish")
    arab = next(u.id for u in jerusalem.units if u.hex is not None and u.side == "arab")
    asked = (("siege-of-jerusalem: D result, every retreat hex full (Rout, 15.3)", siege, ["j"], ["c"],
              {"result": "D"}),
             (f"no-prisoners scenario 1: {allied} retreats two hexes (12.2 A)", np1, [allied], [turk], {"hexes": 2}),
             ("steppe scenario 1: DR on s-inf-1 (10.x)", steppe, ["s-inf-1"], ["g-pz-2"], {"result": "DR"}),
             (f"jerusalem-1948 Scenario II: K on {arab} (9.4.5)", jerusalem, [arab], [jewish], {"result": "K"}))
    rows = []
    for name, position, units, enemy, request in asked:
        ms = median_ms(lambda: retreat_answer(position, units, attackers=enemy, **request), repeat)
        rows.append({"benchmark": f"retreat answer: {name}", "median_ms": round(ms, 3), "runs": repeat,
                     "target_ms": 20, "ok": ms <= 20})
    return rows


def bench_log(position, n: int) -> bytes:
    """A log of ``n`` moves, one a step: the phasing side's units in turn, each to its legal destinations."""
    from toolkit.games.jerusalem import moves
    from toolkit.vassal.saves.replay import log_of_moves

    name = position.game.map.name
    plans = []
    for u in position.units:
        if u.side == position.phasing_side and u.hex is not None and u.carried_by is None:
            dest = moves(position, [u.id]).destinations
            if dest:
                plans.append([(u.id, name(h)) for h in sorted(dest, key=name)])
    steps = [[plans[i % len(plans)][(i // len(plans)) % len(plans[i % len(plans)])]] for i in range(n)]
    return log_of_moves(position, steps)


def build_peak_mb(game: str, out: Path) -> float:
    """The peak resident memory of a fresh process that builds a game's module (MB): its ``VmHWM`` (Linux's
    ``ru_maxrss`` keeps the high-water mark of the process it was forked from, this one's when it is large)."""
    code = ("import re, resource, sys; from pathlib import Path; from toolkit.vassal.build.module import build_module; "
            "build_module(sys.argv[1], sys.argv[2]); status = Path('/proc/self/status'); "
            "found = re.search(r'VmHWM:\\s*(\\d+)', status.read_text()) if status.exists() else None; "
            "print(found.group(1) if found else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    kb = subprocess.run([sys.executable, "-c", code, game, str(out)], check=True, capture_output=True, text=True)
    return round(int(kb.stdout.split()[-1]) / 1024, 1)


def vassal_rows() -> list[dict]:
    """Issue 6 targets: module build time and reading a 300-piece save."""
    from toolkit.game import load_position
    from toolkit.vassal.build.module import build_module
    from toolkit.vassal.saves.positions import position_save
    from toolkit.vassal.saves.replay import check_log_file
    from toolkit.vassal.saves.savefile import read_save

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in ("jerusalem-1948", "siege-of-jerusalem", "no-prisoners"):
            ms = median_ms(lambda: build_module(game, Path(tmp) / f"{game}.vmod"), 3)
            rows.append({"benchmark": f"VASSAL module build: {game}", "median_ms": round(ms, 1), "runs": 3,
                         "target_ms": 10_000, "ok": ms <= 10_000})
            mb = build_peak_mb(game, Path(tmp) / f"{game}-peak.vmod")
            rows.append({"benchmark": f"VASSAL module build: {game}, peak memory (MB, at most 300)", "value": mb,
                         "ok": mb <= 300})
        position = load_position(Path(__file__).resolve().parent.parent / "modules" / "jerusalem-1948" /
                                 "scenarios" / "scenario-ii.yaml")
        units = [u for u in position.units if u.hex is not None]
        many = [replace(units[i % len(units)], id=f"u{i}") for i in range(300)]
        save = Path(tmp) / "300.vsav"
        save.write_bytes(position_save(replace(position, units=tuple(many)))[0])
        ms = median_ms(lambda: read_save(save), 20)
        rows.append({"benchmark": "VASSAL save with 300 pieces: read", "median_ms": round(ms, 3), "runs": 20,
                     "target_ms": 200, "ok": ms <= 200})
        log = Path(tmp) / "200.vlog"
        log.write_bytes(bench_log(position, 200))
        ms = median_ms(lambda: check_log_file(log), 5)
        rows.append({"benchmark": "VASSAL log of 200 moves: toolkit check (Jerusalem! II)", "median_ms": round(ms, 1),
                     "runs": 5, "target_ms": 5_000, "ok": ms <= 5_000})
    return rows


def web_page_rows() -> list[dict]:
    """Issue 14: the page of ``toolkit serve`` on the largest map, in Chromium (the Performance API's map-ready
    mark: the map drawn and the counters placed), and the map SVG's size."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    import web_browser_support as web

    reason = web.missing()
    if reason:
        return [{"benchmark": f"web page: first paint of jerusalem-1948 skipped: {reason}"}]
    m = web.measure_first_paint()
    return [{"benchmark": "web page: first paint of jerusalem-1948 (map ready, Chromium)",
             "median_ms": round(m["map_ready_ms"], 1), "runs": m["runs"], "target_ms": 1500,
             "ok": m["map_ready_ms"] <= 1500},
            {"benchmark": "web page: map SVG of jerusalem-1948 (MB, at most 4)", "value": round(m["map_svg_bytes"] / 1e6, 2),
             "ok": m["map_svg_bytes"] <= 4_000_000}]


def web_rows(repeat: int) -> list[dict]:
    """Issue 14 and 24 targets: the viewer's server time (its ``Server-Timing`` header: the answer computed and
    encoded) for a unit click (GET /api/moves) asked the first time (the kept answers forgotten before each run)
    and again (answered from those kept), and for a line of sight (GET /api/los) on the largest map, through
    Starlette's TestClient; the enemy-reach layer of a whole Scenario II side, computed afresh each run (the server
    keeps it once computed)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from toolkit.answers import reach_answer
    from toolkit.games import load_game_position
    from toolkit.web import create_app
    from toolkit.web.sources import SourceBook

    source = "bundled:jerusalem-1948/scenario-ii.yaml"
    position = load_game_position(Path(__file__).resolve().parent.parent / "modules" / "jerusalem-1948" /
                                  "scenarios" / "scenario-ii.yaml")
    rows = []
    book = SourceBook()
    with TestClient(create_app(book)) as client:
        def server_ms(url: str, first: bool = False, **params) -> float:
            if first:
                book.kept.clear()
            r = client.get(url, params=params)
            assert r.status_code == 200, r.text
            return float(r.headers["server-timing"].split("dur=")[1])

        def median_server_ms(runs: int, url: str, first: bool = False, **params) -> float:
            return statistics.median(server_ms(url, first, **params) for _ in range(runs))

        server_ms("/api/source", source=source)   # opened as the page does first: its clicks answered ahead
        gc.collect()
        gc.freeze()                                 # as toolkit serve does with what it opened (toolkit/web/server.py)
        movable = [u.id for u in position.units if u.side == position.phasing_side and u.hex is not None
                   and u.carried_by is None]
        time.sleep(1.0)                             # the player looks at the position for a second
        ahead = [server_ms("/api/moves", source=source, unit=uid) for uid in movable]
        reach_ahead = max(server_ms("/api/reach", source=source, side=side) for side in ("jewish", "arab"))
        computed = [median_server_ms(5, "/api/moves", True, source=source, unit=uid) for uid in movable]
        worst = median_server_ms(repeat, "/api/moves", True, source=source, unit="j-ac-1")
        for name, ms, runs in (
                (f"1 s after opening, median of {len(movable)} stacks", statistics.median(ahead), 1),
                (f"1 s after opening, slowest of {len(movable)} stacks", max(ahead), 1),
                ("1 s after opening, the slower enemy-reach layer", reach_ahead, 1),
                (f"computed, median of {len(movable)} stacks", statistics.median(computed), 5),
                ("computed, j-ac-1 (most destinations)", worst, repeat)):
            rows.append({"benchmark": f"web: unit click, Scenario II, {name}",
                         "median_ms": round(ms, 3), "runs": runs, "target_ms": 20, "ok": ms <= 20})
        for name, params in (("jerusalem-1948 map", {"map": "jerusalem-1948"}),
                             ("Scenario II spotting (10.7)", {"source": source})):
            ms = median_server_ms(repeat, "/api/los", **params, **{"from": "Hebrew University", "to": "Greek Monastery"})
            rows.append({"benchmark": f"web: LOS request (/api/los), {name}",
                         "median_ms": round(ms, 3), "runs": repeat, "target_ms": 10, "ok": ms <= 10})
    for side in ("jewish", "arab"):
        ms = median_ms(lambda: reach_answer(position, side), max(3, repeat // 4))
        rows.append({"benchmark": f"web: enemy-reach layer, Scenario II, every {side} unit",
                     "median_ms": round(ms, 3), "runs": max(3, repeat // 4), "target_ms": 300, "ok": ms <= 300})
    return rows


def copied_position(copies: int) -> bytes:
    """Scenario II with every unit copied ``copies`` times (ids and carriers suffixed): 117 x ``copies`` units."""
    import re

    text = (Path(__file__).resolve().parent.parent / "modules/jerusalem-1948/scenarios/scenario-ii.yaml").read_text()
    head, _, units = text.partition("\nunits:\n")
    lines = [ln.split("  #")[0] for ln in units.splitlines() if ln.startswith("  - {")]
    out = [re.sub(r"(\{id|carried_by): ([^,}]+)", lambda m: f"{m.group(1)}: {m.group(2)}-{k}", ln)
           for k in range(copies) for ln in lines]
    return (head + "\nunits:\n" + "\n".join(out) + "\n").encode()


def web_busy_rows(repeat: int) -> list[dict]:
    """Issue 20: a real ``toolkit serve`` with a 4,680-unit position open computing its reach layer (seconds,
    in a worker process): the other requests' time meanwhile (the listing, a hex, the position), and how long
    Ctrl-C then takes to stop the server."""
    import http.client
    import re
    import signal
    import subprocess
    import threading
    from urllib.parse import quote

    server = subprocess.Popen([sys.executable, "-m", "toolkit", "serve", "--port", "0"], stdout=subprocess.PIPE,
                              text=True)
    port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))

    def request(method: str, url: str, body: bytes | None = None, headers=None, expect=(200,)) -> bytes:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        conn.request(method, url, body=body, headers=headers or {})
        answer = conn.getresponse()
        data = answer.read()
        conn.close()
        assert answer.status in expect, (url, answer.status, data[:200])
        return data

    try:
        big = copied_position(40)
        sid = quote(json.loads(request("POST", "/api/open", big, {"X-Filename": "big.yaml"}))["id"])
        heavy = threading.Thread(target=request, args=("GET", f"/api/reach?source={sid}&side=jewish"),
                                 kwargs={"expect": (200, 503)})   # 503: stopped by the Ctrl-C below
        heavy.start()
        time.sleep(0.3)
        times = []
        for _ in range(repeat):
            for url in ("/api/sources", f"/api/hex?source={sid}&hex=0505", f"/api/source?source={sid}"):
                t0 = time.perf_counter()
                request("GET", url)
                if heavy.is_alive():
                    times.append((time.perf_counter() - t0) * 1e3)
        busy = heavy.is_alive()
        t0 = time.perf_counter()
        server.send_signal(signal.SIGINT)
        server.wait(30)
        stop_ms = (time.perf_counter() - t0) * 1e3
        heavy.join(30)
    finally:
        if server.poll() is None:
            server.kill()
    ms = statistics.median(times) if times else float("nan")
    return [{"benchmark": "web: other requests while a heavy answer runs (4,680 units)", "median_ms": round(ms, 1),
             "runs": len(times), "target_ms": 100, "ok": bool(times) and ms <= 100},
            {"benchmark": "web: Ctrl-C while " + ("a heavy answer runs" if busy else "idle (the answer was done)"),
             "median_ms": round(stop_ms, 1), "runs": 1, "target_ms": 1_000, "ok": stop_ms <= 1_000}]


def web_load_rows() -> list[dict]:
    """Issue 24: the loopback load test, with the server's answers kept (as served) and with none kept (every
    click computed: ``TOOLKIT_KEPT_MB=0``)."""
    return web_load(kept=True) + web_load(kept=False)


def web_load(kept: bool, seconds: float = 5.0, clients: int = 8) -> list[dict]:
    """A real ``toolkit serve`` of Scenario II on loopback with its store on (an SQLite file of its own), a game
    started (one step, ``phase:overland``: the scenario's units as they stand, written to the store; the layers it
    prepares in worker processes waited for), and
    ``clients`` threads asking ``/api/moves`` of every Jewish stack in turn in the game's position (keep-alive
    connections, gzip accepted) for ``seconds``: requests per second and the 99th percentile of the answer time.
    The machine's other load counts: say what it was."""
    import http.client
    import re
    import signal
    import subprocess
    import tempfile
    import threading
    from urllib.parse import quote

    scenario = Path(__file__).resolve().parent.parent / "modules/jerusalem-1948/scenarios/scenario-ii.yaml"
    data = tempfile.TemporaryDirectory()
    server = subprocess.Popen([sys.executable, "-m", "toolkit", "serve", str(scenario), "--port", "0", "--store",
                               str(Path(data.name) / "games.sqlite")], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "TOOLKIT_KEPT_MB": "64" if kept else "0"})
    port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
    times: list[float] = []
    try:
        from toolkit.games import load_game_position
        position = load_game_position(scenario)
        units = [u.id for u in position.units if u.side == position.phasing_side and u.hex is not None
                 and u.carried_by is None]
        started = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        started.request("GET", f"/api/play?source={quote('bundled:jerusalem-1948/scenario-ii.yaml')}"
                               "&step=phase:overland")
        source = quote(json.loads(started.getresponse().read())["id"])
        started.close()
        _wait_idle(server.pid)   # the clicks and layers the step has the server prepare (app.prepare_clicks), done
        urls = [f"/api/moves?source={source}&unit={uid}" for uid in units]

        def client(k: int, stop: float) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            i = k
            while time.perf_counter() < stop:
                t0 = time.perf_counter()
                conn.request("GET", urls[i % len(urls)], headers={"Accept-Encoding": "gzip"})
                answer = conn.getresponse()
                answer.read()
                assert answer.status == 200, answer.status
                times.append((time.perf_counter() - t0) * 1e3)
                i += clients
            conn.close()

        for url in urls:   # warm: the position opened, each unit asked once
            client_once = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            client_once.request("GET", url)
            client_once.getresponse().read()
            client_once.close()
        stop = time.perf_counter() + seconds
        threads = [threading.Thread(target=client, args=(k, stop)) for k in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
        data.cleanup()
    rate = len(times) / seconds
    p99 = statistics.quantiles(times, n=100)[98] if len(times) >= 100 else max(times, default=float("nan"))
    how = "store on, answers kept" if kept else "store on, every answer computed"
    return [{"benchmark": f"web load, {how}: /api/moves, {clients} clients (requests/s, >= 200)",
             "value": round(rate, 1), "ok": rate >= 200},
            {"benchmark": f"web load, {how}: p99 answer time",
             "median_ms": round(p99, 1), "runs": len(times), "target_ms": 100, "ok": p99 <= 100}]


def _wait_idle(pid: int, seconds: float = 120.0) -> None:
    """Until the server ``pid`` has had no worker process (a forked child) for a second (Linux ``/proc``; at most
    ``seconds``)."""
    deadline, quiet = time.monotonic() + seconds, 0
    while time.monotonic() < deadline and quiet < 5:
        children = "".join(p.read_text() for p in Path(f"/proc/{pid}/task").glob("*/children"))
        quiet = 0 if children.strip() else quiet + 1
        time.sleep(0.2)


def import_rows(repeat: int) -> list[dict]:
    """Issues 15 and 23: ``toolkit import-vmod`` of a hand-written module with a 100 x 50 (5,000-hex) board and
    2,000 piece slots, end to end (archive and XML read through the guards, map files written and compiled, the
    game loaded)."""
    import contextlib
    import io

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    import vassal_modules
    from toolkit.cli import main as toolkit_main

    with tempfile.TemporaryDirectory() as tmp:
        vmod = vassal_modules.write_vmod(Path(tmp) / "large.vmod", vassal_modules.large(100, 50, 2_000))
        runs = iter(range(10**6))

        def once() -> None:
            with contextlib.redirect_stdout(io.StringIO()):
                assert toolkit_main(["import-vmod", str(vmod), "-o", f"{tmp}/game-{next(runs)}"]) == 0

        ms = median_ms(once, repeat)
    return [{"benchmark": "VASSAL import-vmod: 5,000-hex board, 2,000 pieces", "median_ms": round(ms, 1),
             "runs": repeat, "target_ms": 5_000, "ok": ms <= 5_000}]


#: Issue 31: whole ``toolkit`` processes, each as CPU time and as a ratio to a bare ``python -c pass``.
STARTUP_COMMANDS = [
    (["--version"], 100), (["--help"], 100), (["moves", "--help"], 100), (["hex", "example", "0101", "--json"], 350),
    (["moves", "modules/jerusalem-1948/scenarios/scenario-ii.yaml", "j-plm-1"], 600),   # one unit of Scenario II
]


def process_cpu_ms(argv: list[str], env: dict[str, str]) -> float:
    """The CPU time (user + system) of one whole process running ``argv``, in milliseconds."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, cwd=Path(__file__).resolve().parent.parent, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e3


def startup_rows(repeat: int) -> list[dict]:
    """Issue 31: ``python -m toolkit ...`` and the console script's ``from toolkit.cli import main`` as whole
    processes: the median CPU time after a warm-up (which compiles the bytecode, as an install does) against the
    targets, and the ratio to ``python -c pass`` measured in turn with it."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as pycache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPATH=str(root), PYTHONPYCACHEPREFIX=pycache)
        bare = [sys.executable, "-c", "pass"]
        script = [sys.executable, "-c", "import sys; from toolkit.cli import main; sys.exit(main())"]
        cases = [([sys.executable, "-m", "toolkit", *args], "toolkit " + " ".join(Path(a).name for a in args), target)
                 for args, target in STARTUP_COMMANDS] + [([*script, "--version"], "console script: --version", 100)]
        rows = []
        for argv, label, target in cases:
            process_cpu_ms(argv, env), process_cpu_ms(bare, env)   # warm-up: bytecode written
            pairs = [(process_cpu_ms(argv, env), process_cpu_ms(bare, env)) for _ in range(repeat)]
            ms = statistics.median(a for a, _ in pairs)
            ratio = statistics.median(a / max(b, 1e-3) for a, b in pairs)
            rows.append({"benchmark": f"startup: {label} (CPU; {ratio:.1f}x python -c pass)",
                         "median_ms": round(ms, 1), "runs": repeat, "target_ms": target, "ok": ms <= target,
                         "ratio_to_bare_python": round(ratio, 2)})
    return rows


#: The groups of rows, in the table's order (``--only`` names some).
def playout_rows(repeat: int) -> list[dict]:
    """Issue 29: a whole game of each game played out at random (scripts/playout.py: every action through the
    rules, its log written) and its log checked by the referee (toolkit check GAME.vlog), 60 s a game; seeds 1..N,
    the median over them, the actions and turns of the first."""
    import io

    from toolkit.games import load_game_position
    from toolkit.games.playout import play_random
    from toolkit.vassal.saves.record import log_of_game
    from toolkit.vassal.saves.replay import check_log_file

    root = Path(__file__).resolve().parent.parent
    rows = []
    for game, scenario in (("jerusalem-1948", "scenario-ii"), ("no-prisoners", "scenario-1"),
                           ("siege-of-jerusalem", "demonstration")):
        start = load_game_position(root / "modules" / game / "scenarios" / f"{scenario}.yaml")
        times, verdicts, first = [], [], None
        for seed in range(1, repeat + 1):
            t0 = time.perf_counter()
            played = play_random(start, seed)
            report = check_log_file(io.BytesIO(log_of_game(start, played.steps)))
            times.append((time.perf_counter() - t0) * 1000)
            verdicts.append(report.verdict)
            first = first or played
        ms = statistics.median(times)
        rows.append({"benchmark": f"playout {game} {scenario}: {len(first.steps)} actions, {first.turns} turns, "
                                  f"logs {'/'.join(sorted(set(verdicts)))}",
                     "median_ms": round(ms, 1), "runs": repeat, "target_ms": 60_000, "ok": ms <= 60_000})
    return rows


GROUPS: dict[str, Callable[[argparse.Namespace], list[dict]]] = {
    "foundation": lambda a: run(a.repeat, a.generated), "jerusalem": lambda a: jerusalem_rows(a.repeat),
    "no-prisoners": lambda a: no_prisoners_rows(a.repeat), "siege": lambda a: siege_rows(a.repeat),
    "steppe": lambda a: steppe_rows(a.repeat), "retreat": lambda a: retreat_rows(a.repeat),
    "vassal": lambda a: vassal_rows(), "web": lambda a: web_rows(a.repeat), "web-busy": lambda a: web_busy_rows(a.repeat),
    "web-load": lambda a: web_load_rows(), "web-page": lambda a: web_page_rows(),
    "import": lambda a: import_rows(min(a.repeat, 10)), "playout": lambda a: playout_rows(min(a.repeat, 3)),
    "startup": lambda a: startup_rows(min(a.repeat, 9)),
}


def print_table(rows: list[dict]) -> None:
    """A fixed-width table for people."""
    print(f"{'benchmark':62} {'median':>12} {'runs':>5} {'target':>10}  ok")
    for r in rows:
        if "median_ms" in r:
            tgt = f"<= {r['target_ms']} ms" if r["target_ms"] is not None else ""
            print(f"{r['benchmark']:62} {r['median_ms']:>9.3f} ms {r['runs']:>5} {tgt:>10}  "
                  f"{'' if r['ok'] is None else ('yes' if r['ok'] else 'NO')}")
        elif "ratio" in r:
            print(f"{r['benchmark']:62} {r['ratio']:>11.1f}x {'':>5} {'>= 100x':>10}  {'yes' if r['ok'] else 'NO'}")
        elif "value" in r:
            print(f"{r['benchmark']:62} {str(r['value']):>12}")
        else:
            print(r["benchmark"])


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--json", action="store_true")
    p.add_argument("--generated", action="store_true", help="use the generated 70 x 70 map")
    p.add_argument("--only", action="append", choices=list(GROUPS), help="run only these groups of rows (repeatable)")
    args = p.parse_args(argv)
    rows = [row for group in args.only or GROUPS for row in GROUPS[group](args)]
    if args.json:
        json.dump(rows, sys.stdout, indent=2)
        print()
    else:
        print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
