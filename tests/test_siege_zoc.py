"""Siege of Jerusalem ZOC (7.x) on the bundled map."""
from siege_positions import pos

from toolkit.games.siege import zoc, zoc_json


def hexes(p, side="roman"):
    z = zoc_json(zoc(p))
    return set(z["zoc"][side])


def test_ground_zoc_kk29_reaches_the_three_clear_hexes_only():
    # 7.11: KK28, LL28, LL29 are Built-up: no ZOC into them (7.2)
    assert hexes(pos([("r", "v-1-7-8", "KK29")])) == {"JJ29", "JJ30", "KK30"}


def test_sources_carry_kind_and_rule():
    z = zoc_json(zoc(pos([("r", "v-1-7-8", "KK29")])))
    assert z["zoc"]["roman"]["JJ29"] == [{"unit": "r", "from": "KK29", "kind": "ground", "rule": "7.11",
                                         "heavy_infantry_ground": True}]


def test_7_2_no_zoc():
    assert hexes(pos([("r", "v-1-7-8", "KK29", "disrupted")])) == set()                  # Disrupted (7.2, 16.6)
    assert hexes(pos([("r", "v-1-7-8", "KK29")], turn="AP I/8")) == set()                # night (7.2, 18.2)
    assert hexes(pos([("r", "v-ballista", "KK29")])) == set()                             # Artillery
    assert hexes(pos([("r", "v-1-7-8", "KK29", "testudo")])) == set()                     # Testudo
    assert hexes(pos([("e", "v-ram", "KK29"), ("r", "v-1-7-8", "KK29", "pushing")])) == set()   # with an engine
    assert hexes(pos([("r", "v-1-7-8", "Z22", "ladder_base")], [{"marker": "ladder", "hex": "Z22"}])) == set()


def test_ground_zoc_not_into_elevated_and_elevated_only_along_the_wall():
    # Z22 is Clear beside the wall hexes AA22 and Z23: no Ground ZOC onto the wall (7.2)
    assert not hexes(pos([("r", "v-1-7-8", "Z22")])) & {"AA22", "Z23"}
    # a Jew on the wall AA22: ZOC into the connected wall hexes only (7.13)
    assert hexes(pos([("j", "y-regulars-5-7", "AA22")]), "jewish") == {"Z23", "BB21"}


def test_gate_zoc_7_12():
    got = hexes(pos([("j", "y-regulars-5-7", "QQ36")]), "jewish")
    assert {"RR35", "PP37"} <= got and not got & {"RR36", "PP36"}
