"""*The Siege of Jerusalem*'s Melee Phase procedures (11.9 Multiple Attacks, 11.14 Sallies and counterattacks): what
a position obliges or allows, as JSON-ready dicts naming their rules.

* :func:`multiple_attacks` -- 11.9: each unit under an "A", "B" or "C" Multiple Attack marker (flags
  ``multiple_attack_a`` …), the enemy hexes in its ZOC it must attack, or with none the adjacent hexes it may.
* :func:`multiple_attack_markers` -- 11.9: what resolving one attack does to the markers: whether it is a Multiple
  Attack, the markers removed (the participants', every marker after an attack without one, every "A" after a
  "B" attack) and the marker advancing units may take (A, then B, then C, then A again).  Units flagged
  ``attacked`` attack again only in a Multiple Attack (11.8, 11.81).
* :func:`sally` -- 11.14: a Gate opened for a Sally (parameter ``sallies``): its Entry hexes, whether the enemy
  stayed in them, and each counterattack allowed at the end of the Melee Phase with its odds.

Readings (ours): an attack joining units under different markers counts as the latest of them (C after B after A);
the counterattack goes through the Gate's inherent Stairway, so it has no 11.7 -1.
"""
from __future__ import annotations

from typing import Any, Sequence

from ...game import Position, Unit
from ...hexgrid import Hex
from .combat import ENGINES, ENTRY, _side_feature, _terrain, combat, combat_json, fresh, sallies
from .zoc import zoc

MARKERS = {"multiple_attack_a": "A", "multiple_attack_b": "B", "multiple_attack_c": "C"}   # game.yaml flags
CHAIN = "ABC"   # 11.9: A, then B, then C, then A again


def marker(u: Unit) -> str | None:
    """The letter of the Multiple Attack marker ``u`` bears, or None."""
    return next((letter for flag, letter in MARKERS.items() if u.has(flag)), None)


def _attack(position: Position, attackers: Sequence[str], h: Hex) -> dict[str, Any]:
    """The hex ``h`` and the verdict of ``attackers`` meleeing every enemy unit in it."""
    side = position.by_id[attackers[0]].side
    defenders = [d.id for d in position.at(h) if d.side != side]
    res = combat(position, attackers, defenders, kind="melee")
    return {"hex": position.game.map.name(h), "defenders": defenders, "allowed": res.allowed,
            **({"odds": res.odds} if res.allowed else {"refused": {"rule": res.refused.rule,
                                                                   "reason": res.refused.message}})}


def multiple_attacks(position: Position) -> dict[str, Any]:
    """11.9: for each unit under a Multiple Attack marker, the enemy-occupied hexes in its ZOC (it must attack one
    of them) or, with none, the adjacent enemy hexes it could attack (it may attack one)."""
    zones = zoc(position).by_side
    rows = []
    for u in position.units:
        letter = marker(u)
        if letter is None or u.hex is None:
            continue
        enemy = lambda h: any(d.side != u.side for d in position.at(h))   # noqa: E731
        in_zoc = sorted((h for h, src in zones.get(u.side, {}).items()
                         if enemy(h) and any(s.unit == u.id for s in src)), key=position.game.map.name)
        adjacent = sorted((h for h in u.hex.neighbors() if enemy(h)), key=position.game.map.name)
        rows.append({"unit": u.id, "marker": letter, "hex": position.game.map.name(u.hex),
                     "must": bool(in_zoc), "hexes": [_attack(position, [u.id], h) for h in in_zoc or adjacent],
                     "rule": "11.9" if in_zoc else "11.9 (no enemy in its ZOC: any adjacent unit it could attack)"})
    return {"rule": "11.9", "units": rows}


def multiple_attack_markers(position: Position, attackers: Sequence[str]) -> dict[str, Any]:
    """11.9: resolving one attack by ``attackers``: whether it is a Multiple Attack (a participant bears a marker),
    its letter, the markers it removes and the marker the units advancing after it may take."""
    units = [position.by_id[a] for a in attackers]
    letters = {marker(u) for u in units} - {None}
    letter = max(letters, key=CHAIN.index) if letters else None
    again = [u.id for u in units if u.has("attacked")]
    refused = None
    if again and letter is None:
        refused = {"rule": "11.8", "reason": f"{', '.join(again)} already attacked this Melee Phase: again only with a "
                                             "unit under a Multiple Attack marker (11.8, 11.81, 11.9)"}
    removed = []
    for u in position.units:
        has = marker(u)
        if has is None:
            continue
        if u.id in attackers:
            removed.append({"unit": u.id, "marker": has, "why": "it took part in the Multiple Attack (11.9)"})
        elif letter is None:
            removed.append({"unit": u.id, "marker": has, "why": "an attack with no Multiple Attack marker (11.9)"})
        elif letter == "B" and has == "A":
            removed.append({"unit": u.id, "marker": has, "why": "a \"B\" Multiple Attack removes every \"A\" (11.9)"})
    advancing = "A" if letter is None else CHAIN[(CHAIN.index(letter) + 1) % len(CHAIN)]
    return {"rule": "11.9", "attackers": list(attackers), "multiple_attack": letter is not None, "marker": letter,
            "refused": refused, "removed": removed, "advancing_marker": advancing}


def sally(position: Position, gate_text: str) -> dict[str, Any]:
    """11.14: the Gate ``gate_text`` and its Sally: its Entry hexes, whether it is open (parameter ``sallies``), and
    for each Entry hex still holding the enemy the counterattack its Fresh units may make into the Gate at the end
    of the Melee Phase (pushers included, 11.2); the Gate closes again unless that takes it."""
    cmap = position.game.map
    gate = cmap.resolve(gate_text)
    if _terrain(cmap, gate) != "gate":
        raise ValueError(f"{cmap.name(gate)} is not a Gate hex; give a Gate (11.14)")
    holders = position.at(gate)
    side = holders[0].side if holders else None
    entries = [n for n in gate.neighbors() if n in cmap.hexes and _side_feature(cmap, gate, n, ENTRY)]
    opened = gate in sallies(position)
    rows = []
    for n in entries:
        enemy = [u for u in position.at(n) if side is not None and u.side != side]
        able = [u.id for u in enemy if fresh(u) and u.type not in ENGINES and not u.has("riding")]
        row: dict[str, Any] = {"hex": cmap.name(n), "enemy": [u.id for u in enemy], "counterattackers": able}
        if opened and able:
            row["counterattack"] = combat_json(combat(position, able, [u.id for u in holders], kind="melee",
                                                      counterattack=True))
        rows.append(row)
    return {"rule": "11.14", "gate": cmap.name(gate), "held_by": side, "open": opened, "entries": rows,
            "closes": "the Gate closes again at the end of the Melee Phase unless the counterattack takes it (11.14)"}
