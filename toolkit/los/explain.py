"""Turning a map's LOS defaults into obstacles, and a verdict into words and JSON.

The obstacles come from the map file's ``los`` section (data, not code): the
terrains and hexside features that block, and the elevation rule.
"""
from __future__ import annotations

from typing import Any

from ..mapdata.compiled import CompiledMap
from .engine import LosResult, Obstacles


def map_obstacles(cmap: CompiledMap) -> Obstacles:
    """The obstacles a map's ``los`` section declares."""
    d = cmap.los
    blocking = set(d.blocking_terrain)
    features = set(d.blocking_hexside_features)
    return Obstacles(
        hexes=frozenset(h for h, info in cmap.hexes.items() if blocking & set(info.terrain)),
        levels={h: info.elevation for h, info in cmap.hexes.items() if info.elevation},
        elevation=d.elevation,
        hexsides=frozenset(s for s, attrs in cmap.hexsides.items() if features & set(attrs)),
    )


def why_obstacle(cmap: CompiledMap, h, threshold: float = float("inf")) -> str:
    """Short reason a hex is an obstacle: its blocking terrain, and its level when above ``threshold``."""
    info = cmap.hexes[h]
    parts = [t for t in info.terrain if t in cmap.los.blocking_terrain]
    if info.elevation > threshold:
        ends = "both ends" if cmap.los.elevation == "higher-than-both" else "an end"
        parts.append(f"level {info.elevation}, above {ends}")
    return ", ".join(parts) or "obstacle"


def _rule(result: LosResult) -> str:
    return f"rule {result.rule}, " if result.rule else ""


def _label(cmap: CompiledMap, h) -> str:
    place = cmap.hexes[h].place
    return f"{cmap.name(h)} ({place})" if place else cmap.name(h)


def explain(cmap: CompiledMap, result: LosResult) -> str:
    """A player-readable account of a verdict, citing the convention and rule."""
    n = cmap.name
    head = f"{_label(cmap, result.origin)} -> {_label(cmap, result.target)}, range {result.range}: "
    conv = f"({_rule(result)}{result.convention.value} convention)"
    if result.visible:
        met = len(result.touched)
        return head + f"CLEAR {conv}; the line meets {met} hex{'es' * (met != 1)} in between, none blocks."
    lines = [head + f"BLOCKED {conv}."]
    by_hex = {c.hex: c for c in result.touched}
    threshold = map_obstacles(cmap).threshold(result.origin, result.target)
    for h in result.blocked_by:
        c = by_hex[h]
        how = {"interior": "passes through", "hexside": "runs along a side of", "corner": "touches a corner of"}[c.how]
        lines.append(f"  the line {how} {n(h)} ({why_obstacle(cmap, h, threshold)})")
    for s in result.blocking_hexsides:
        feats = ", ".join(k for k in cmap.hexsides.get(s, {}) if k in cmap.los.blocking_hexside_features)
        lines.append(f"  the line meets the {feats or 'blocking'} hexside {n(s.a)}|{n(s.b)}")
    if result.block_point:
        x, y = result.block_point
        lines.append(f"  first blocked at ({x:.2f}, {y:.2f}) map units, {float(result.block_t):.0%} of the way")
    return "\n".join(lines)


def result_json(cmap: CompiledMap, result: LosResult) -> dict[str, Any]:
    """The stable JSON form of a verdict (documented in docs/cli.md)."""
    n = cmap.name
    return {
        "map": cmap.id,
        "from": n(result.origin),
        "to": n(result.target),
        "visible": result.visible,
        "convention": result.convention.value,
        "rule": result.rule,
        "range": result.range,
        "blocked_by": [n(h) for h in result.blocked_by],
        "blocking_hexsides": [[n(s.a), n(s.b)] for s in result.blocking_hexsides],
        "touched": [{"hex": n(c.hex), "how": c.how} for c in result.touched],
        "block_point": None if result.block_point is None else [round(v, 6) for v in result.block_point],
    }
