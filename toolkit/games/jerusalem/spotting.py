"""*Jerusalem!* spotting and artillery fire (10.7), on the exact LOS engine.

Readings (the printed map is not available; see ``maps/jerusalem-1948/README.md``):

* 10.7.1 uses the *touch* convention: an in-between hex that the centre-to-centre
  line meets at all (inside, along a side, at a corner) blocks if it is a
  village, a Jerusalem city hex or Bevingrad (Bevingrad counts as a city hex,
  4.3), or "higher terrain".  The viewer's and the target's hexes never block.
* "Higher terrain" is ONE switch, ``higher_terrain``:
  ``"higher-than-both"`` (default, the map's reading): an in-between hex blocks
  when its level is above both ends' levels, so a unit on a hill sees over
  lower hills; ``"higher-than-either"``: it blocks when above at least one end,
  so any hill higher than the lower unit blocks.
* Range counts the target's hex but not the firer's (1.2.1 "Range"): it is the
  hex distance.  A non-artillery unit has range 1 (it fires only when adjacent, 9.1).
* 10.7.2: a unit the firer cannot see may still be fired at when any other
  friendly unit on the map sees it (the rulebook's example speaks of an
  adjacent unit; under the touch convention an adjacent unit always sees, as
  there is no hex in between).  Every friendly unit on the map counts as a
  possible spotter, leaders included.
* 10.7.3: Arab Legion artillery accepts only Arab Legion spotters.
* 10.3: artillery never fires at a leader (real or dummy).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...game import Position, Unit
from ...game.moves import Reason
from ...hexgrid import Hex
from ...mapdata import CompiledMap

if TYPE_CHECKING:   # the LOS engine (numpy) is loaded when a line of sight is asked for, not by moves (issue 31)
    from ...los import LosEngine, LosResult, Obstacles

RULE = "10.7.1"
BLOCKING_TERRAIN = ("village", "jerusalem_city", "bevingrad")  # 10.7.1 (Bevingrad: a city hex, 4.3)
HIGHER_TERRAIN_READINGS = ("higher-than-both", "higher-than-either")
LEGION = "arab_legion"
LEADERS = ("leader", "dummy_leader")

_ENGINES: dict[tuple[str, str], LosEngine] = {}
_OBSTACLES: dict[tuple[str, str, str], Obstacles] = {}


def _engine(cmap: CompiledMap) -> LosEngine:
    from ...los import LosEngine

    key = (cmap.id, cmap.source_hash)
    if key not in _ENGINES:
        _ENGINES[key] = LosEngine(cmap.grid)
    return _ENGINES[key]


def spotting_obstacles(cmap: CompiledMap, higher_terrain: str = "higher-than-both") -> Obstacles:
    """What blocks vision under 10.7.1 (villages, city hexes, Bevingrad, higher terrain)."""
    if higher_terrain not in HIGHER_TERRAIN_READINGS:
        raise ValueError(f"higher_terrain {higher_terrain!r}: expected one of {', '.join(HIGHER_TERRAIN_READINGS)}")
    from ...los import Obstacles

    key = (cmap.id, cmap.source_hash, higher_terrain)
    if key not in _OBSTACLES:
        _OBSTACLES[key] = Obstacles(
            hexes=frozenset(h for h, info in cmap.hexes.items() if set(BLOCKING_TERRAIN) & set(info.terrain)),
            levels={h: info.elevation for h, info in cmap.hexes.items() if info.elevation},
            elevation=higher_terrain,
        )
    return _OBSTACLES[key]


def can_see(position: Position, viewer_hex: Hex, target_hex: Hex,
            higher_terrain: str = "higher-than-both") -> LosResult:
    """Whether a unit in ``viewer_hex`` sees ``target_hex`` (10.7.1, touch convention; ends never block)."""
    cmap = position.game.map
    return _engine(cmap).check(viewer_hex, target_hex, "touch", spotting_obstacles(cmap, higher_terrain), rule=RULE)


@dataclass
class FireResult:
    """Whether one unit may fire at another: range, sight, spotters, verdict and the rules."""

    firer: Unit
    target: Unit
    range: int | None
    max_range: int
    in_range: bool
    sees: bool
    los: LosResult | None
    spotters: list[Unit] = field(default_factory=list)
    verdict: bool = False
    rule: str = "10.7.2"
    reasons: list[Reason] = field(default_factory=list)
    blocked_names: tuple[str, ...] = ()

    @property
    def blocked_by(self) -> tuple[Hex, ...]:
        """The in-between hexes that block the firer's own sight."""
        return () if self.los is None else self.los.blocked_by


def max_range(u: Unit) -> int:
    """An artillery unit's printed range; 1 (adjacent only, 9.1) for any other unit."""
    if u.type == "artillery":
        r = u.counter.value("range")
        return int(r) if r is not None else 1
    return 1


def fire(position: Position, firer_id: str, target_id: str, higher_terrain: str = "higher-than-both") -> FireResult:
    """May ``firer_id`` fire at ``target_id``?  Range (1.2.1), own sight (10.7.1), spotters (10.7.2, 10.7.3), 10.3."""
    firer, target = position.by_id[firer_id], position.by_id[target_id]
    reach = max_range(firer)
    res = FireResult(firer, target, None, reach, False, False, None)
    if firer.hex is None or target.hex is None:
        res.rule = "9.1"
        res.reasons.append(Reason("9.1", "both units must be on the map to fire or be fired at"))
        return res
    if firer.side == target.side:
        res.rule = "9.2"
        res.reasons.append(Reason("9.2", f"{firer.id} and {target.id} are on the same side"))
        return res
    dist = firer.hex.distance(target.hex)
    res.range = dist
    res.in_range = 1 <= dist <= reach
    if not res.in_range:
        what = (f"range {dist} counting the target's hex but not the firer's (1.2.1); {firer.id} reaches {reach}"
                if firer.type == "artillery" else f"{firer.id} is not artillery and fires only at adjacent units (9.1)")
        res.reasons.append(Reason("1.2.1" if firer.type == "artillery" else "9.1", what))
    res.los = can_see(position, firer.hex, target.hex, higher_terrain)
    res.sees = res.los.visible
    legion_only = firer.type == "artillery" and firer.counter.nationality == LEGION
    if res.sees:
        res.reasons.append(Reason("10.7.1", f"{firer.id} sees {target.id} itself (villages, city hexes and higher "
                                            "terrain touched in between would block)"))
        res.rule = "10.7.1"
    else:
        res.blocked_names = tuple(position.game.map.name(h) for h in res.los.blocked_by)
        res.reasons.append(Reason("10.7.1", f"{firer.id}'s own sight is blocked by {', '.join(res.blocked_names)}"))
        for u in position.units:
            if u.id == firer.id or u.side != firer.side or u.hex is None:
                continue
            if legion_only and u.counter.nationality != LEGION:
                continue  # 10.7.3
            if u.hex == target.hex or can_see(position, u.hex, target.hex, higher_terrain).visible:
                res.spotters.append(u)
        res.rule = "10.7.3" if legion_only else "10.7.2"
        if res.spotters:
            res.reasons.append(Reason(res.rule, "spotted by friendly unit(s) that see the target: "
                                      + ", ".join(u.id for u in res.spotters)))
        else:
            extra = " (Arab Legion artillery needs an Arab Legion spotter, 10.7.3)" if legion_only else ""
            res.reasons.append(Reason(res.rule, f"no friendly unit sees {target.id}, so it may not be fired at{extra} "
                                                "(10.7.2)"))
    seen = res.sees or bool(res.spotters)
    res.verdict = res.in_range and seen
    if target.type in LEADERS and firer.type == "artillery":
        res.verdict = False
        res.rule = "10.3"
        res.reasons.append(Reason("10.3", "artillery never fires at a leader"))
    elif not res.in_range:
        res.rule = "1.2.1" if firer.type == "artillery" else "9.1"
    return res


def fire_json(result: FireResult) -> dict[str, Any]:
    """The stable JSON form of a :func:`fire` verdict (hexes by their printed names)."""
    return {
        "firer": result.firer.id,
        "target": result.target.id,
        "range": result.range,
        "in_range": result.in_range,
        "sees": result.sees,
        "spotters": [u.id for u in result.spotters],
        "blocked_by": list(result.blocked_names),
        "verdict": result.verdict,
        "rule": result.rule,
        "reasons": [{"rule": r.rule, "reason": r.message} for r in result.reasons],
    }

