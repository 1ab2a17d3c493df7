"""One whole attack of a ``rules.yaml`` game as one action (the viewer's and the log's combat, toolkit.game.actions):
the odds (:mod:`.combat`), the roll, the result, then the result applied to the defenders and to the attackers
(:mod:`.retreat`: eliminations, step losses, exchanges by steps, retreats to the hex the owner chooses)."""
from __future__ import annotations

from typing import Callable, Sequence

from ...game import Position
from ...game.retreat import apply_retreats
from .combat import combat
from .facts import rules_of
from .retreat import retreat

Choose = Callable[[str, Sequence], object]


def resolve(position: Position, attackers: Sequence[str], defenders: Sequence[str], *, kind: str | None = None,
            roll: Callable[[int], int], choose: Choose) -> tuple[Position, list[dict]]:
    """The position after the attack of ``attackers`` on ``defenders`` and notes saying what happened, each with
    its rule; ``ValueError`` naming the rule when the attack is refused."""
    rules = rules_of(position)
    c = rules.combat
    res = combat(position, attackers, defenders)
    if res.refused is not None:
        raise ValueError(f"{res.refused.rule}: {res.refused.message}")
    n, sides = c.table.die
    total = sum(roll(sides) for _ in range(n))
    code = next(r["result"] for r in res.results if r["die"] == total)
    notes = [{"rule": s.rule, "text": s.why} for s in (*res.shifts, *res.modifiers)]
    notes.append({"rule": c.table.rule or c.rule, "text": f"{float(res.attack):g} against {float(res.defence):g}: "
                  f"{res.raw_odds}, column {res.odds}; roll {total}: {code} ({c.results[code]})"})
    if rules.retreat is None or code not in rules.retreat.results:
        notes.append({"rule": c.rule, "text": f"{code}: rules.yaml gives it no effect (retreat.results); apply it "
                                              "by hand"})
        return position, notes
    after = position
    for side, enemy in ((list(defenders), list(attackers)), (list(attackers), list(defenders))):
        after = _applied(after, side, enemy, code, choose, notes)
    return after, notes


def _applied(position: Position, units: list[str], enemy: list[str], code: str, choose: Choose,
             notes: list[dict]) -> Position:
    """The result applied to one side's units still on the map, each retreat to the hex chosen among its legal
    ones."""
    units = [u for u in units if position.by_id[u].hex is not None]
    enemy_hexes = sorted({position.by_id[u].hex for u in enemy if position.by_id[u].hex is not None},
                         key=position.game.map.name)
    if not units:
        return position
    found = retreat(position, units, enemy_hexes, result=code)
    name, picks = position.game.map.name, {}
    for f in found.units:
        for what, reason in (("eliminated", f.eliminated), ("turned to its back face", f.order.flipped)):
            if reason is not None:
                notes.append({"rule": reason.rule, "text": f"{f.unit.id} {what}: {reason.message}"})
        if len(f.destinations) > 1:
            picks[f.unit.id] = choose(f"{f.order.retreat.rule}: the hex {f.unit.id} retreats to",
                                      [name(d.hex) for d in f.destinations])
    return apply_retreats(found, picks)
