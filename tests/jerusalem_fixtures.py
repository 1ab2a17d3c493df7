"""A small test copy of the *Jerusalem!* counters on the bundled map, for hand-built positions.

The values use the keys of ``modules/jerusalem-1948/counters.yaml``; the tests that use it
do not depend on the module's data.
"""
from pathlib import Path

import pytest

from toolkit.game import Game, Position, Unit
from toolkit.game.schema import Counter, CounterManifest, GameSpec, Marker

GAME_SPEC = dict(
    id="jerusalem-1948", title="test copy", map="jerusalem-1948",
    sides=[{"id": "jewish", "name": "Jewish"}, {"id": "arab", "name": "Arab"}],
    nationalities=[{"id": n, "name": n, "side": s} for n, s in [
        ("israeli", "jewish"), ("arab_legion", "arab"), ("mufti", "arab"), ("arab_irregular", "arab"),
        ("syrian", "arab"), ("eef", "arab")]],
    unit_types=["infantry", "artillery", "armored_car", "halftrack", "truck", "bus", "garrison", "leader",
                "dummy_leader", "convoy"],
    flags=["stopped", "demobilized", "terrorist_attack", "bombing"],
    turns=["May I", "May II", "May III", "May IV", "June I", "June II", "June III", "June IV"],
    phases=["overland", "road"],
)
C = {  # id: (side, nationality, type, values) with the keys of modules/jerusalem-1948/counters.yaml
    "hgh": ("jewish", "israeli", "infantry", {"strength": 4, "mp": 6, "zoc": True, "transportable": True}),
    "irgun": ("jewish", "israeli", "infantry", {"strength": 2, "mp": 6, "zoc": True, "transportable": False,
                                                "terrorist": True}),
    "j-gar": ("jewish", "israeli", "garrison", {"strength": 12, "mp": 0, "zoc": True, "transportable": False}),
    "j-ac": ("jewish", "israeli", "armored_car", {"strength": 4, "mp": 30, "zoc": True, "mechanized": True}),
    "j-truck": ("jewish", "israeli", "truck", {"mp": 24, "zoc": False, "transport": True, "capacity": 3}),
    "j-bus": ("jewish", "israeli", "bus", {"mp": 12, "zoc": False, "transport": True, "capacity": 2}),
    "jc": ("jewish", "israeli", "convoy", {"zoc": True, "transport": True, "capacity": 3}),
    "shaltiel": ("jewish", "israeli", "leader", {"mp": 12, "zoc": False, "jeep": True, "transportable": True, "max_city_distance": 4}),
    "mufti": ("arab", "mufti", "infantry", {"strength": 2, "mp": 8, "zoc": True, "transportable": True}),
    "syr": ("arab", "syrian", "infantry", {"strength": 3, "mp": 4, "zoc": True, "transportable": True}),
    "eef": ("arab", "eef", "infantry", {"strength": 6, "mp": 6, "zoc": True, "transportable": True}),
    "legion": ("arab", "arab_legion", "infantry", {"strength": 12, "mp": 8, "zoc": True, "transportable": True}),
    "al-truck": ("arab", "arab_legion", "truck", {"mp": 24, "zoc": False, "transport": True, "capacity": 3}),
    "a-gar": ("arab", "arab_irregular", "garrison", {"strength": 4, "mp": 0, "zoc": False}),
    "ghory": ("arab", "arab_irregular", "leader", {"mp": 12, "zoc": False, "transportable": True}),
    "kaukji": ("arab", "arab_irregular", "leader", {"mp": 12, "zoc": False, "transportable": True}),
    "amin": ("arab", "arab_irregular", "leader", {"zoc": False, "city_only": True, "moves_through_enemy": True}),
    "kutub": ("arab", "arab_irregular", "leader", {"mp": 12, "zoc": False, "moves_through_enemy": True,
                                                   "bomber": True}),
    "tell": ("arab", "arab_legion", "leader", {"mp": 12, "zoc": False, "transportable": True}),
}


@pytest.fixture(scope="module")
def game():
    spec = GameSpec(**GAME_SPEC)
    manifest = CounterManifest(game=spec.id, counters=[
        Counter(id=cid, name=cid, side=s, nationality=n, type=t, values=v) for cid, (s, n, t, v) in C.items()],
        markers=[Marker(id="secondary_road", name="Secondary road")])
    return Game(spec, manifest, Path("."))


def pos(game, units, turn="June IV", side="jewish", phase="overland", markers=(), **params):
    """A position from (id, counter, hex[, carried_by[, flags]]) tuples; hexes by map name or place."""
    m = game.map
    out = []
    for u in units:
        uid, cid, where, *rest = u
        carried = rest[0] if rest else None
        flags = frozenset(rest[1]) if len(rest) > 1 else frozenset()
        out.append(Unit(uid, game.counters[cid], m.resolve(where), None, flags, carried))
    return Position(game, turn, phase, side, tuple(out), tuple(markers), dict(params))
