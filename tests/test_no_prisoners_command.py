"""*No Prisoners* command radius (7.x) and the command bonus (11.10) on the synthetic supply-test map.

See ``test_no_prisoners_supply.py`` for the map (columns 1-11 Western, 12-26 Eastern) and the test module.
"""
from __future__ import annotations

from dataclasses import replace

from test_no_prisoners_supply import np_game, position  # noqa: F401  (fixture)

from toolkit.games.no_prisoners.command import attack_bonus, command, command_json

# Every hex within 2 of 0405 (the HQ's own hex counts 0, 7.2 A): 1 + 6 + 12 hexes.
RADIUS_2_AT_0405 = ["0204", "0205", "0206", "0303", "0304", "0305", "0306", "0403", "0404", "0405", "0406",
                    "0407", "0503", "0504", "0505", "0506", "0604", "0605", "0606"]


def test_radius_two_exact_hexes_and_units(np_game):  # noqa: F811
    pos = position(np_game, [("m", "murray", "0405"), ("a", "w-inf", "0406"), ("b", "w-inf", "0206"),
                             ("far", "w-inf", "0105"), ("art", "w-art", "0405"), ("t", "tw-inf", "0505")])
    report = command_json(command(pos))
    hq = report["hqs"][0]
    assert hq["hq"] == "m" and hq["radius"] == 2 and hq["rule"] == "7.2"
    assert hq["hexes"] == RADIUS_2_AT_0405 and len(hq["hexes"]) == 19
    # The HQ, its own hex's stack, one hex and two hexes off; not 0105 (3 hexes), not the enemy (7.2 C: it
    # does not block either).
    assert sorted(hq["units"]) == ["a", "art", "b", "m"]
    assert report["in_command"]["b"] == ["m"] and "far" not in report["in_command"]


def test_radius_stops_at_the_sector_boundary(np_game):  # noqa: F811
    pos = position(np_game, [("m", "murray", "1105"), ("e", "e-inf", "1205"), ("w", "w-inf", "0905")])
    hq = command(pos).hq("m")
    names = sorted(pos.game.map.name(h) for h in hq.hexes)
    assert names == ["0904", "0905", "0906", "1004", "1005", "1006", "1007", "1103", "1104", "1105", "1106",
                     "1107"]                                         # 7.2 D, 17.5: no Eastern hex
    assert "e" not in hq.units and "w" in hq.units


def test_flipped_hq_uses_its_back_radius(np_game):  # noqa: F811
    pos = position(np_game, [("m", "murray", "0405"), ("far", "w-inf", "0105")])
    assert "far" not in command(pos).hq("m").units
    flipped = pos.moved({"m": replace(pos.by_id["m"], flags=frozenset({"flipped"}))})   # 19.1 upgrade
    hq = command(flipped).hq("m")
    assert hq.radius == 3 and "far" in hq.units


def test_attack_bonus(np_game):  # noqa: F811
    units = [("m", "murray", "0405"), ("a", "w-inf", "0406"), ("b", "w-inf", "0206"), ("far", "w-inf", "0105")]
    pos = position(np_game, units, phase="combat1")
    ok, hq, why = attack_bonus(pos, ["a", "b"])
    assert ok and hq == "m" and why.rule == "11.10 A"
    ok, hq, why = attack_bonus(pos, ["a", "far"])
    assert not ok and hq is None and why.rule == "7.1 A" and "far" in why.message
    used = position(np_game, units, phase="combat1", params={"command_used": "m"})
    ok, hq, why = attack_bonus(used, ["a", "b"])
    assert not ok and why.rule == "11.10 B"
    flagged = pos.moved({"m": replace(pos.by_id["m"], flags=frozenset({"command_bonus_used"}))})
    assert attack_bonus(flagged, ["a", "b"])[0] is False


def test_attack_bonus_needs_one_hq_for_all(np_game):  # noqa: F811
    # Two HQs (two copies of Murray): a is within the radius of m only, b within that of m2 only.
    units = [("m", "murray", "0405"), ("m2", "murray", "0909"), ("a", "w-inf", "0305"), ("b", "w-inf", "0908")]
    pos = position(np_game, units, phase="combat1")
    ok, hq, why = attack_bonus(pos, ["a", "b"])
    assert not ok and hq is None and why.rule == "11.10 A"
    ok, hq, _ = attack_bonus(pos, ["b", "m2"])
    assert ok and hq == "m2"


# -- 19.2 A/B: the leaders flip in a given Reinforcement Phase of 1917-III, not for the whole turn ---------------

def _radii(tmp_path, turn, phase, side="cp"):
    from position_files import write_position
    pos = write_position(tmp_path, "no-prisoners", turn, phase, side,
                         [("murray", "a-hq-murray", "0409"), ("sxf", "c-hq-sxf", "1007")])
    return {c.hq: c.radius for c in command(pos).hqs}


def test_19_2_leaders_flip_in_their_reinforcement_phase_not_at_the_turn(tmp_path):
    # Murray 2 -> Allenby 3 in the (Western) Allied Reinforcement Phase of 1917-III (19.2 A); SXF 2 -> Yildirim 3
    # in the (Western) CP Reinforcement Phase (19.2 B), which comes first in the turn (4.2.1, 4.2.2).
    assert _radii(tmp_path, "1917-II", "east_cp_movement") == {"murray": 2, "sxf": 2}
    assert _radii(tmp_path, "1917-III", "west_cp_random_events") == {"murray": 2, "sxf": 2}
    assert _radii(tmp_path, "1917-III", "west_cp_reinforcement") == {"murray": 2, "sxf": 3}
    assert _radii(tmp_path, "1917-III", "west_cp_movement") == {"murray": 2, "sxf": 3}
    assert _radii(tmp_path, "1917-III", "west_allied_random_events", "allied") == {"murray": 2, "sxf": 3}
    assert _radii(tmp_path, "1917-III", "west_allied_reinforcement", "allied") == {"murray": 3, "sxf": 3}
    assert _radii(tmp_path, "1917-III", "east_cp_movement") == {"murray": 3, "sxf": 3}
    assert _radii(tmp_path, "1918-I", "west_cp_random_events") == {"murray": 3, "sxf": 3}


def test_hq_flipped_flag_is_declared_and_shows_the_back(tmp_path):
    # game.yaml declares the unit flag `flipped` (the game's back_flag): the loader accepts it on an HQ.
    from position_files import write_position
    pos = write_position(tmp_path, "no-prisoners", "1916-II", "west_allied_movement", "allied",
                         [("murray", "a-hq-murray", "0409", ["flipped"])])
    assert pos.by_id["murray"].has("flipped") and command(pos).hq("murray").radius == 3
