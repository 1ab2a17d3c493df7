"""The Siege of Jerusalem demonstration position (ours, issue 13): it loads and follows what it claims."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from toolkit.games import load_game_position

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "modules" / "siege-of-jerusalem" / "scenarios" / "demonstration.yaml"
ELEVATED = {"fortress", "fort", "bastion", "wall", "gate", "bridge"}
FACINGS = {"facing_n", "facing_ne", "facing_se", "facing_s", "facing_sw", "facing_nw"}


def test_demonstration_position():
    pos = load_game_position(DEMO)
    m = pos.game.map
    assert (pos.turn, pos.phase, pos.phasing_side) == ("AP I/1", "movement", "roman")
    on_map = [u for u in pos.units if u.hex is not None]
    garrisons = Counter((u.counter.values["garrison_area"], u.counter.type) for u in on_map
                        if u.counter.nationality == "garrison")
    assert garrisons == {("AF", "regulars"): 4, ("HP", "regulars"): 6, ("TQ", "regulars"): 8, ("TQ", "zealots"): 2}  # 18.4
    areas = {"AF": {"Antonia Fortress"}, "HP": {"Herod's Palace", "Fortress Triangle", "Jaffa Gate"},
             "TQ": {"Temple District"}}
    for u in on_map:
        info = m.hexes[u.hex]
        if u.counter.nationality == "garrison":
            assert info.region in areas[u.counter.values["garrison_area"]], u.id                 # 18.4
        if u.counter.side == "jewish" and u.counter.values["unit_class"] == "artillery":
            assert info.terrain[0] in ELEVATED, u.id                                              # 8.4
        if u.counter.side == "roman":
            assert info.region is None and info.terrain[0] not in ELEVATED, u.id                  # outside the walls
    engines = [u for u in on_map if u.counter.values["unit_class"] == "siege_engine"]
    assert {u.counter.type for u in engines} == {"ram", "siege_tower", "armored_tower"}
    for e in engines:
        (face,) = set(e.flags) & FACINGS                                                          # 10.11
        pushers = [u for u in on_map if u.hex == e.hex and "pushing" in u.flags]
        assert len(pushers) == 2 and all(p.counter.values["unit_class"] == "heavy_infantry" for p in pushers)  # 6.4
        if e.counter.type != "armored_tower":
            assert all(p.counter.values["formation"] == e.counter.values["formation"] for p in pushers)      # 8.6
    flags = Counter(f for u in on_map for f in u.flags)
    assert flags["ladder_base"] == 1 and flags["testudo"] == 3 and flags["riding"] >= 4
    assert {mk.marker for mk in pos.markers} >= {"ladder", "testudo"}
