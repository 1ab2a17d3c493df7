"""Jerusalem! spotting (10.7) on the bundled, reconstructed map, with positions built in the test."""
import pytest

from toolkit.game import PositionFile, position_from_file
from toolkit.game.module import modules_dir
from toolkit.games.jerusalem.spotting import can_see, fire, fire_json

pytestmark = pytest.mark.skipif(not (modules_dir() / "jerusalem-1948" / "counters.yaml").is_file(),
                                reason="the jerusalem-1948 game module is not present")


def pos(*units, turn="May IV", phasing="jewish"):
    return position_from_file(PositionFile(
        game="jerusalem-1948", turn=turn, phase="overland", phasing_side=phasing,
        units=[{"id": u[0], "counter": u[1], "hex": u[2]} for u in units]))


def test_hebrew_university_cannot_see_greek_monastery():
    # 10.7.2 example: the Jewish guns on Mount Scopus do not see the Greek Monastery (city hexes between).
    p = pos()
    m = p.game.map
    res = can_see(p, m.resolve("Hebrew University"), m.resolve("Greek Monastery"))
    assert not res.visible and res.rule == "10.7.1" and res.convention.value == "touch"
    assert {m.name(h) for h in res.blocked_by} >= {"6224", "6026", "5926"}


def test_end_hexes_never_block_and_adjacent_always_sees():
    p = pos()
    m = p.game.map
    # Two city hexes side by side: nothing in between, so sight is clear (10.7.1: the units' own hexes never block).
    assert can_see(p, m.resolve("Katamon"), m.resolve("Greek Monastery")).visible


def test_higher_terrain_switch():
    # 10.7.1 "higher terrain", one switch: a level-1 hex between a level-1 viewer (0132) and a level-0 target
    # (0134) is not higher than both ends (default reading) but is higher than one end (the other reading).
    p = pos()
    m = p.game.map
    with pytest.raises(ValueError):
        can_see(p, m.resolve("Latrun"), m.resolve("Hulda"), higher_terrain="sideways")
    a, b = m.resolve("0132"), m.resolve("0134")
    assert can_see(p, a, b).visible
    either = can_see(p, a, b, "higher-than-either")
    assert not either.visible and [m.name(h) for h in either.blocked_by] == ["0133"]


def test_hebrew_university_fire_needs_a_spotter_and_range():
    # 10.7.2 example on the reconstructed map: Hebrew University - Greek Monastery is 9 hexes, beyond every
    # printed range (reconstructed counters reach at most 4), so only the sight part of the example holds.
    p = pos(("gun", "j-art-3-4", "Hebrew University"), ("mufti", "mufti-2-8", "Greek Monastery"))
    r = fire(p, "gun", "mufti")
    assert r.range == 9 and not r.in_range and not r.sees and r.spotters == [] and not r.verdict
    p = pos(("gun", "j-art-3-4", "Hebrew University"), ("mufti", "mufti-2-8", "Greek Monastery"),
            ("scout", "hgh-4-6", "5828"))
    r = fire(p, "gun", "mufti")
    assert [u.id for u in r.spotters] == ["scout"] and not r.verdict  # spotted, still out of range (1.2.1)


def test_spotter_lets_artillery_fire_at_an_unseen_target():
    # Hand-built: a Jewish 3-4 (range 3) two hexes from the Greek Monastery, its sight blocked by Katamon.
    base = [("gun", "j-art-3-4", "5925"), ("mufti", "mufti-2-8", "Greek Monastery")]
    r = fire(pos(*base), "gun", "mufti")
    assert r.range == 2 and r.in_range and not r.sees and not r.verdict and r.rule == "10.7.2"
    assert fire_json(r)["blocked_by"] == ["5926"]
    r = fire(pos(*base, ("scout", "hgh-4-6", "5828")), "gun", "mufti")
    assert r.verdict and [u.id for u in r.spotters] == ["scout"]
    j = fire_json(r)
    assert j == {"firer": "gun", "target": "mufti", "range": 2, "in_range": True, "sees": False,
                 "spotters": ["scout"], "blocked_by": ["5926"], "verdict": True, "rule": "10.7.2",
                 "reasons": j["reasons"]}
    assert [x["rule"] for x in j["reasons"]] == ["10.7.1", "10.7.2"]


def test_arab_legion_artillery_needs_a_legion_spotter():
    # 10.7.3: a Mufti unit next to the target does not spot for Legion guns; a Legion unit does.
    base = [("gun", "al-art-3in", "5925"), ("hgh", "hgh-4-6", "Greek Monastery")]
    r = fire(pos(*base, ("mufti", "mufti-2-8", "5828"), phasing="arab"), "gun", "hgh")
    assert not r.verdict and r.spotters == [] and r.rule == "10.7.3"
    r = fire(pos(*base, ("legion", "al-12-8-6r", "5828"), phasing="arab"), "gun", "hgh")
    assert r.verdict and [u.id for u in r.spotters] == ["legion"] and r.rule == "10.7.3"
    # Other Arab artillery accepts the Mufti spotter (10.7.3).
    r = fire(pos(("gun", "ar-art-mix", "5925"), ("hgh", "hgh-4-6", "Greek Monastery"),
                 ("mufti", "mufti-2-8", "5828"), phasing="arab"), "gun", "hgh")
    assert r.verdict and r.rule == "10.7.2"


def test_artillery_never_fires_at_leaders():
    r = fire(pos(("gun", "j-art-3-4", "0210"), ("k", "khader", "0212"), ("g", "a-gar-4-0", "0212")), "gun", "k")
    assert not r.verdict and r.rule == "10.3"
