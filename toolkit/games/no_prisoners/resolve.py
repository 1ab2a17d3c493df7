"""*No Prisoners* combat as one action: the odds, the die, the result and every consequence (11.x, 12.x, 13.x, 19.3).

:func:`resolve` makes one attack of the phasing side in a combat phase, in the order of 11.3:

* the attacker's choices first: the CRT (11.13 A; ``kind`` ``"rcrt"`` / ``"mocrt"`` names it, ``None`` asks
  ``choose`` when the MOCRT is allowed, 11.13 B) and the command bonus when one HQ may give it (11.10 A "may
  declare"); the odds, shifts and refusals are :func:`~toolkit.games.no_prisoners.combat.combat`'s;
* one die (``roll(6)``) on the chosen table's final column (11.3);
* losses (11.3): ``all`` eliminates the side's units of the combat, ``half`` half of them rounded up, ``one``
  one; the owner picks each lost unit (``choose``).  Air groups and naval squadrons are never affected, nor an HQ
  that only gave command (11.3: it is not among the attackers).  Eliminated units go to the game's eliminated box
  (game.yaml ``eliminated_box``: the Replaceable Units Holding Box, 14.2 A);
* retreats (12.x) of the survivors, one unit at a time (12.2 B), each to the hex its owner picks among the legal
  ends of :mod:`.retreat` (none: eliminated, 12.2 A; overstacked as a last resort: eliminated, 9.2 C);
* pursuit (13.x) when the result gives it to a side (tables.yaml ``results`` ``pursuit``): each of that side's
  surviving units of the combat, one at a time, may move its 13.3 length (counter value ``pursuit``; +1 for the
  attacker's units that had a command bonus, never for units of length 0 or the Lawrence HQ, 13.5): first into a
  hex the beaten side left, then on in any direction (13.2 B), ignoring EZOCs (13.4 C) but never into enemy units,
  prohibited terrain, across the sector boundary or, for the Central Powers, into Damascus (13.4 C/D, 17.1, 21.3 D).
  Its owner picks where it ends (``choose``; its own hex: it stays).  Armoured trains never advance (19.4 A);
* infiltration (19.3): from 1918-I (tables.yaml ``infiltration``) the attacker's units with the counter value
  ``infiltration`` advance up to two hexes whenever the defender's hex is left empty, pursuit result or not;
* flags: the attackers ``attacked`` (11.4 C), the air groups and naval squadrons ``used_first_combat`` /
  ``used_second_combat`` (11.11 C, 19.2 D), the HQ that gave command ``command_bonus_used`` (11.10 B).

Readings of our own: a pursuit never ends over the stacking limit (9.2 A holds it at the end of the combat; the
excess would only be eliminated, 9.2 C), nor in the pursuer's own hex (that is staying); the attacker's losses are
taken before the defender's; the units of a side retreat and pursue in the order of their ids.

:func:`attack_options` lists cheap candidates for random play: for every enemy hex next to phasing units that may
still attack in this combat phase, all of them together, and each attacking hex's units alone.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Sequence, TypeVar

from ...game import Position, Unit
from ...game.odds import number
from ...game.retreat import Order, RetreatAnswer, Span, apply_retreats, retreats
from ...hexgrid import Hex
from .combat import MOCRT, RCRT, USED_FLAG, _phase_parts, combat, is_support_counter
from .mapfacts import map_facts
from .movement import NoPrisonersMove
from .retreat import NoPrisonersRetreat, loss_count
from .supply import is_unit, unit_sector
from .tables import ResultCode, load_tables

T = TypeVar("T")
Choose = Callable[[str, Sequence[T]], T]
KINDS = {"rcrt": RCRT, "mocrt": MOCRT}
COMMAND_FLAG = "command_bonus_used"            # 11.10 B
ATTACKED_FLAG = "attacked"                     # 11.4 C


def _note(notes: list[dict], rule: str, text: str) -> None:
    notes.append({"rule": rule, "text": text})


def resolve(position: Position, attackers: Sequence[str], defenders: Sequence[str], *, kind: str | None = None,
            roll: Callable[[int], int], choose: Choose) -> tuple[Position, list[dict]]:
    """One whole attack (see the module docstring): the position after it and notes saying what happened."""
    if kind is not None and kind not in KINDS:
        raise ValueError(f"11.13 A: No Prisoners combat kinds are the two CRTs, rcrt and mocrt, not {kind!r}")
    which = _phase_parts(position.phase)[1]
    if which is None:
        raise ValueError(f"4.2.1.4: {position.phase} is not a combat phase; attacks are made only in the phasing "
                         "side's First and Second Combat Phases (11.2)")
    notes: list[dict] = []
    res, table = _declared(position, attackers, defenders, kind, choose, notes)
    die = roll(6)
    row = res.rows[table][die - 1]
    commanded = next((s.unit for s in res.shifts if s.id == "command"), None)
    _note(notes, "11.3", f"{number(res.attack)} against {number(res.defence)}: {res.raw_odds}, column {res.odds} on "
                         f"the {table}; die {die}: {row.code}")
    land = [u for u in attackers if not is_support_counter(position.by_id[u])]
    target = position.by_id[defenders[0]].hex
    from_hexes = sorted({position.by_id[u].hex for u in land}, key=position.game.map.name)
    after = _flags(position, attackers, which, commanded)
    after = _losses(after, land, row.meaning.attacker_loss, "attacker", choose, notes)
    after = _losses(after, list(defenders), row.meaning.defender_loss, "defender", choose, notes)
    after = _retreats(after, land, row.meaning.attacker_retreat, choose, notes)
    after = _retreats(after, list(defenders), row.meaning.defender_retreat, choose, notes)
    after = _advance(after, row.meaning, land, list(defenders), target, from_hexes, commanded is not None, choose,
                     notes)
    return after, notes


def _declared(position: Position, attackers, defenders, kind, choose: Choose, notes: list[dict]):
    """The combat as the attacker declares it, refused with the rule, and its CRT: the one ``kind`` names or he
    picks (11.13 A), then the command bonus if he takes it (11.10 A)."""
    res = combat(position, attackers, defenders, table=KINDS.get(kind or ""))
    if res.refused is not None:
        raise ValueError(f"{res.refused.rule}: {res.refused.message}")
    table = res.table if kind is not None or not res.mocrt_allowed else \
        choose("11.13 A: the attacker's CRT for this combat", [MOCRT, RCRT])
    hq = next((s.unit for s in res.shifts if s.id == "command"), None)
    if hq is not None and not choose(f"11.10 A: declare {hq}'s command bonus (one column right; 13.5: one more "
                                     "pursuit hex)?", [False, True]):
        res = combat(position, attackers, defenders, table=table, command=False)
        _note(notes, "11.10 A", f"the attacker does not declare {hq}'s command bonus")
    for s in res.shifts:
        _note(notes, s.rule, s.why)
    return res, table


def _flags(position: Position, attackers: Sequence[str], which: str, hq: str | None) -> Position:
    """The attackers have attacked (11.4 C), the air and naval counters are used this phase (11.11 C), the HQ has given
    its command bonus (11.10 B)."""
    changes = {}
    for uid in attackers:
        u = position.by_id[uid]
        changes[uid] = replace(u, flags=u.flags | {USED_FLAG[which] if is_support_counter(u) else ATTACKED_FLAG})
    if hq is not None:
        u = changes.get(hq, position.by_id[hq])
        changes[hq] = replace(u, flags=u.flags | {COMMAND_FLAG})
    return position.moved(changes)


def _eliminate(position: Position, ids: Sequence[str]) -> Position:
    """The units taken off the map to the game's eliminated box (14.2 A)."""
    box = position.game.spec.eliminated_box
    return position.moved({uid: replace(position.by_id[uid], hex=None, box=box) for uid in ids})


def _losses(position: Position, ids: list[str], loss, who: str, choose: Choose, notes: list[dict]) -> Position:
    """A side's loss: how many units (11.3, half rounded up), each picked by the owner."""
    n = loss_count(loss, len(ids))
    if not n:
        return position
    left, lost = sorted(ids), []
    for i in range(n):
        pick = left[0] if n - i >= len(left) else choose(
            f"11.3: the {who} eliminates {n} of {len(ids)} units ({loss}); unit {i + 1}", list(left))
        left.remove(pick)
        lost.append(pick)
    rounding = " (half, rounded up)" if loss == "half" else ""
    _note(notes, "11.3", f"the {who} loses {n} of {len(ids)} unit(s){rounding}: {', '.join(lost)}")
    return _eliminate(position, lost)


def _retreats(position: Position, ids: list[str], hexes: int, choose: Choose, notes: list[dict]) -> Position:
    """Each surviving unit retreats ``hexes`` hexes to the end its owner picks, or is eliminated (12.x)."""
    if not hexes:
        return position
    name = position.game.map.name
    for uid in sorted(ids):
        if position.by_id[uid].hex is None:
            continue
        order = Order(uid, retreat=Span(hexes, hexes, "12.1 A", away="12.2 A"))
        found = retreats(position, NoPrisonersRetreat(position), [order]).units[0]
        if found.eliminated is not None:
            _note(notes, found.eliminated.rule, f"{uid} is eliminated: {found.eliminated.message}")
            position = _eliminate(position, [uid])
            continue
        options = sorted(name(d.hex) for d in found.destinations)
        pick = options[0] if len(options) == 1 else choose(f"12.1 A: the hex {uid} retreats {hexes} hex(es) to",
                                                           options)
        fate = found.after[position.game.map.resolve(pick)]
        position = apply_retreats(RetreatAnswer(position, None, [found]), {uid: pick})
        if isinstance(fate, Unit):
            _note(notes, "12.1 A", f"{uid} retreats {hexes} hex(es) to {pick}")
        else:
            _note(notes, fate.rule, f"{uid} retreats to {pick} and is eliminated there: {fate.message}")
    return position


# -- pursuit and infiltration (13.x, 19.3) ----------------------------------------------------------------------------
def pursuit_length(position: Position, u: Unit, commanded: bool) -> int:
    """How many hexes ``u`` may pursue: its 13.3 length (counter ``pursuit``), +1 in command (13.5) unless its length
    is 0 or it is the Lawrence HQ (the one HQ with a length); never for units that do not advance (19.4 A)."""
    v = u.counter.value
    if not v("advances", default=True):
        return 0
    base = int(v("pursuit", default=0) or 0)
    bonus = load_tables(position.game.folder).pursuit.command_bonus if commanded and base and u.type != "hq" else 0
    return base + bonus


def infiltrates(position: Position, u: Unit) -> int:
    """The hexes ``u`` may advance by infiltration after a won attack (19.3), or 0."""
    spec = load_tables(position.game.folder).infiltration
    turns = position.game.spec.turns
    if not u.counter.value("infiltration", default=False) or spec.from_ not in turns or position.turn not in turns:
        return 0
    return spec.hexes if turns.index(position.turn) >= turns.index(spec.from_) else 0


def _advance(position: Position, code: ResultCode, land: list[str], defenders: list[str], target: Hex,
             from_hexes: list[Hex], commanded: bool, choose: Choose, notes: list[dict]) -> Position:
    """The pursuit the result gives (13.x) and the attacker's infiltration (19.3)."""
    cleared = not any(u.side != position.phasing_side and is_unit(u) for u in position.at(target))
    if code.pursuit == "defender":
        lengths = {uid: pursuit_length(position, position.by_id[uid], False) for uid in defenders}
        return _pursue(position, lengths, from_hexes, "13.2 A", choose, notes)
    lengths = {}
    for uid in land:
        u = position.by_id[uid]
        n = pursuit_length(position, u, commanded) if code.pursuit == "attacker" else 0
        lengths[uid] = max(n, infiltrates(position, u)) if cleared else 0
    rule = "13.2 A" if code.pursuit == "attacker" else "19.3"
    return _pursue(position, lengths, [target], rule, choose, notes)


def _pursue(position: Position, lengths: dict[str, int], first: list[Hex], rule: str, choose: Choose,
            notes: list[dict]) -> Position:
    """Each unit with a length, in id order, ends its pursuit where its owner picks (13.2, 13.4)."""
    name = position.game.map.name
    for uid in sorted(lengths):
        u = position.by_id[uid]
        if u.hex is None or lengths[uid] <= 0:
            continue
        ends = pursuit_ends(position, u, first, lengths[uid])
        if not ends:
            continue
        own = name(u.hex)
        pick = choose(f"{rule}: where {uid} ends its pursuit of up to {lengths[uid]} hex(es) ({own}: it stays)",
                      sorted([own, *ends]))
        if pick != own:
            position = position.moved({uid: replace(u, hex=position.game.map.resolve(pick))})
            _note(notes, rule, f"{uid} pursues to {pick}")
    return position


def pursuit_ends(position: Position, u: Unit, first: list[Hex], length: int) -> list[str]:
    """The hex names where ``u``'s pursuit may end: first a hex of ``first`` next to it, then on up to ``length``
    hexes in all, into hexes it could enter by movement (13.4 C/D), EZOCs ignored, within stacking limits (9.2 A)."""
    tables = load_tables(position.game.folder)
    move = NoPrisonersMove(position, [u], facts=map_facts(position.game.map, tables.rail), tables=tables)

    def enters(a: Hex, b: Hex) -> bool:
        return move.entry_refusal(a, b, False) is None and move.step_cost(a, b) is not None

    seen = {h for h in first if h.distance(u.hex) == 1 and enters(u.hex, h)}
    frontier = set(seen)
    for _ in range(length - 1):
        frontier = {b for a in frontier for b in move.facts.neighbors[a] if b not in seen and enters(a, b)}
        seen |= frontier
    name = position.game.map.name
    return sorted(name(h) for h in seen if h != u.hex and move.end_refusal(h) is None)


# -- candidates for random play ---------------------------------------------------------------------------------------
def attack_options(position: Position) -> list[tuple[tuple[str, ...], tuple[str, ...], str | None]]:
    """Cheap (attackers, defenders, kind) candidates of the phasing side in this combat phase (each may still be
    refused by :func:`resolve`), sorted."""
    sector, which = _phase_parts(position.phase)
    if which is None or (which == "second" and position.turn.endswith("-III")):       # 22.4
        return []
    facts = map_facts(position.game.map, load_tables(position.game.folder).rail)
    side = position.phasing_side
    ready = [u for u in position.units if u.side == side and u.hex is not None and is_unit(u)
             and not is_support_counter(u) and not u.has(ATTACKED_FLAG)
             and (sector is None or unit_sector(u, facts) in (None, sector))]
    out = set()
    for target in {h for u in ready for h in facts.neighbors[u.hex]}:
        held = tuple(sorted(u.id for u in position.at(target) if u.side != side and is_unit(u)))
        if not held:
            continue
        near = [u for u in ready if u.hex.distance(target) == 1]
        out.add((tuple(sorted(u.id for u in near)), held, None))
        for h in {u.hex for u in near}:
            out.add((tuple(sorted(u.id for u in near if u.hex == h)), held, None))
    return sorted(out)


def phase_end(position: Position, *, choose: Choose) -> tuple[Position, list[dict[str, Any]]]:
    """9.2 A, C: at the end of each phase every overstacked hex loses its excess units, the owner picking each
    (support, air and naval units stack free, 9.4; the limits of the position's turn, winter's too, 22.2)."""
    from .legality import stacking_limit, stacks_free

    tables = load_tables(position.game.folder)
    notes: list[dict[str, Any]] = []
    name = position.game.map.name
    for h in sorted(position.occupied(), key=name):
        limit, terrain = stacking_limit(position, tables, h)
        for side in sorted({u.side for u in position.at(h)}):
            counted = sorted(u.id for u in position.at(h) if u.side == side and not stacks_free(u, tables))
            if limit is None or len(counted) <= limit:
                continue
            lost = []
            while len(counted) > limit:
                pick = choose(f"9.2 C: {side} eliminates a unit over the limit of {limit} in {name(h)} ({terrain})",
                              list(counted))
                counted.remove(pick)
                lost.append(pick)
            _note(notes, "9.2 C", f"{name(h)} ({terrain}) over its limit of {limit} at the end of the phase: "
                                  f"{', '.join(lost)} eliminated")
            position = _eliminate(position, lost)
    return position, notes
