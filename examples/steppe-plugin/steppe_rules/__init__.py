"""Steppe's rules that need code: a rules plugin for the toolkit (docs/plugins.md).

The toolkit merges this module over the calculators it builds from the game's ``rules.yaml``: movement, zones
of control, supply, command, reinforcements and victory still come from the data; only ``check`` and
``combat`` are defined here, each calling the data layer's own and adding one rule.

* 15.1 Armour in a city hex next to an enemy unit must share the hex with friendly infantry.
* 15.2 An attack on a hex whose six neighbours are each held by the attacker's units or in their zone of
  control is shifted one column to the right (an encircled defender).
"""
from __future__ import annotations

from typing import Any, Sequence

from toolkit.game import Position, Unit
from toolkit.game.violations import Violation, violation
from toolkit.games.data.combat import Applied, CombatResult, with_shifts
from toolkit.games.data.combat import combat as data_combat
from toolkit.games.data.facts import zoc_of
from toolkit.games.data.legality import check as data_check
from toolkit.hexgrid import Hex

#: The calculators this plugin defines; the toolkit takes these names only (the rest come from rules.yaml).
__all__ = ["check", "combat"]

#: The 15.2 shift, as ``toolkit odds`` lists it among the column shifts.
ENCIRCLED = Applied("encircled", 1, "15.2", "every hex around the defender is held by the attacker or in his zone "
                                            "of control")


def check(position: Position, turn_end: bool | None = None, **options: Any) -> list[Violation]:
    """Every rule the position breaks: those of ``rules.yaml``, then 15.1."""
    found = data_check(position, turn_end, **options)
    for h in sorted(position.occupied(), key=position.game.map.name):
        found += _armour_without_infantry(position, h)
    return found


def _armour_without_infantry(position: Position, h: Hex) -> list[Violation]:
    """15.1 in hex ``h``: each side's armour there, when it is a city next to an enemy and holds no infantry of
    that side."""
    if "city" not in position.game.map.hexes[h].terrain:
        return []
    out = []
    units = position.at(h)
    for side in sorted({u.side for u in units}):
        armour = [u for u in units if u.side == side and u.type == "armour"]
        infantry = [u for u in units if u.side == side and u.type == "infantry"]
        if armour and not infantry and _enemy_next_to(position, h, side):
            out.append(violation("15.1", f"{', '.join(u.id for u in armour)} in the city "
                                         f"{position.game.map.name(h)} next to the enemy without infantry",
                                 position, [h], armour))
    return out


def _enemy_next_to(position: Position, h: Hex, side: str) -> bool:
    """Whether a unit of another side stands next to hex ``h``."""
    return any(u.side != side for n in h.neighbors() for u in position.at(n))


def combat(position: Position, attack: Sequence[str], defend: Sequence[str], kind: str | None = None,
           protected: Sequence[str] = (), fired: Sequence[str] = (), **options: Any) -> CombatResult:
    """The attack worked out by ``rules.yaml`` (strengths, terrain, its shifts), then 15.2's shift."""
    result = data_combat(position, attack, defend, kind, protected, fired, **options)
    if result.refused is None and _encircled(position, position.by_id[attack[0]], position.by_id[defend[0]]):
        result = with_shifts(position, result, [ENCIRCLED])
    return result


def _encircled(position: Position, attacker: Unit, defender: Unit) -> bool:
    """15.2: every hex around the defender (six of them: never at the map's edge) is held by the attacker's side
    or in its zone of control."""
    held = set(zoc_of(position, attacker.side)) | {u.hex for u in position.units if u.side == attacker.side}
    return all(n in held for n in defender.hex.neighbors())
