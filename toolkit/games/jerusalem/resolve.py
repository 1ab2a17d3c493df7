"""*Jerusalem!* one whole combat applied to the position (docs/plugins.md ``resolve``), and its consequences.

:func:`resolve` runs one battle as the rulebook orders it: the defender's first fire (9.4.1, 9.7; before a
terrorist attack only when a real leader is there, 13.2.6), the attack on the CRT (9.4.5) or the automatic
elimination of a lone leader or convoy (9.10, 6.7.1), then every consequence: units eliminated, a leader left
alone dying with his hex (12.7, 12.9.4; never to artillery alone, 10.3), a transport whose load artillery
destroyed (10.8.1), the convoy going back to its entrance (6.4.1), dummies revealed by Jewish fire (12.1), the
Davidka's explosion (10.10), the morale rolls of Khader's loss and of the EEF (12.9.1.2, 14.7.2), the attackers
that failed ``stopped`` (3.4, 7.7, 9.8.2), the defenders that survived ``attacked`` (9.9), artillery ``fired``
(10.1).  Every die is ``roll(6)``; every choice a player has is ``choose(what, options)``.

:func:`aftermath` (the consequences of a K) is shared with the ``toolkit retreat --result K`` hook
(:mod:`.retreat`).  Readings the rulebook leaves open:

* Defensive first fire is offered target by target (``choose("9.7.2: ... at U?", [False, True])``), the
  targets in one hex (a fire at attackers in several hexes is several fires, see :mod:`.combat`), then firer by
  firer among the units that may fire at those targets; a combination :func:`.combat.combat` refuses is not
  fired (noted with its rule).
* An attack the first fire leaves without a legal fire (every attacker eliminated, or EEF odds now below
  3-1, 14.7.1) has failed: the survivors are stopped and the defenders count as attacked (9.9).
* 10.8.1 (the transport dies with its load) is applied to artillery fire, the rule it belongs to; the
  transport's leaders (never hit by artillery, 10.3) are set down in the hex.
* A failed terrorist attack stops nobody (13.2.5 note); its garrison is ``attacked`` so that only the
  terrorist battle goes on against it.  Abandonment (12.8) is not offered.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from ...game import Position, Unit
from ...hexgrid import Hex
from .combat import KINDS, LEADERS, ONLY_WHEN_ALONE, TERROR, CombatResult, combat
from .tables import load_tables
from .units import is_city_bound_commander

#: Terrain where the owner declares the units protected before the enemy fires (9.6.3), with the modifier that
#: carries the limit.
PROTECTING = {"police_fort": "police_fort_protected", "greek_monastery": "monastery_cathedral_protected",
              "notre_dame": "monastery_cathedral_protected"}
FIRST_FIRE_ATTACKABLE = ("halftrack", "bus")   # 9.11: attackable once they first-fired


class CombatRefused(ValueError):
    """A combat the rules do not allow; ``rule`` names the rule."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"{rule}: {message}")
        self.rule = rule


@dataclass
class _Run:
    """One combat in progress: the position as it stands, the notes so far, the dice and the choices."""

    position: Position
    roll: Callable[[int], int]
    choose: Callable[[str, Sequence[Any]], Any]
    notes: list[dict[str, str]] = field(default_factory=list)

    def note(self, rule: str, text: str) -> None:
        """Say what happened, with its rule."""
        self.notes.append({"rule": rule, "text": text})

    def change(self, units: Sequence[Unit]) -> None:
        """Replace units in the position."""
        self.position = self.position.moved({u.id: u for u in units})

    def flag(self, ids: Sequence[str], flag: str) -> None:
        """Add a flag to the units still on the map."""
        by_id = self.position.by_id
        self.change([replace(by_id[i], flags=by_id[i].flags | {flag}) for i in ids if by_id[i].hex is not None])

    def die(self, why: str, rule: str) -> int:
        """One d6, noted."""
        d = self.roll(6)
        self.note(rule, f"{why}: rolled {d}")
        return d


# -- eliminations and their consequences ---------------------------------------------------------------
def _on_map(position: Position, ids: Sequence[str]) -> list[str]:
    return [i for i in ids if position.by_id[i].hex is not None]


def _eliminate(run: _Run, ids: Sequence[str], rule: str, why: str, morale: bool = True) -> None:
    """Eliminate units (to the eliminated box; the convoy back to its entrance, 6.4.1), set down what they
    carried, then the morale rolls their loss calls for (12.9.1.2, 14.7.2) unless ``morale`` is False."""
    pos = run.position
    gone = [pos.by_id[i] for i in ids if pos.by_id[i].hex is not None]
    if not gone:
        return
    box = pos.game.spec.eliminated_box
    changes = [_convoy_back(run, u) if u.type == "convoy" else replace(u, hex=None, box=box, carried_by=None)
               for u in gone]
    ids_gone = {u.id for u in gone}
    changes += [replace(u, carried_by=None, flags=u.flags - {"picked_up"}) for u in pos.units
                if u.carried_by in ids_gone and u.id not in ids_gone]
    run.change(changes)
    run.note(rule, f"{', '.join(sorted(ids_gone))} eliminated: {why}")
    if morale:
        for u in sorted(gone, key=lambda u: u.id):
            _morale_rolls(run, u)


def _convoy_back(run: _Run, convoy: Unit) -> Unit:
    """6.4.1: the eliminated convoy is placed at once at one of its entrances (the Jewish player's choice)."""
    cmap = run.position.game.map
    names = sorted(cmap.name(cmap.resolve(p)) for p in load_tables().special_hexes["convoy_restart"].places)
    chosen = run.choose("6.4.1: the eliminated convoy restarts at", names)
    run.note("6.4.1", f"the convoy {convoy.id} is placed at {chosen}, to set out again next road phase")
    return replace(convoy, hex=cmap.resolve(chosen), carried_by=None, spent=0.0)


def _morale_rolls(run: _Run, lost: Unit) -> None:
    """The rolls a unit's loss calls for: Khader's Mufti units (12.9.1.2), the EEF's morale (14.7.2)."""
    for key in ("khader_mufti_go_home", "eef_morale_breaks"):
        event = load_tables().die_rolls[key]
        if not event.names(lost):
            continue
        affected = sorted(u.id for u in run.position.units
                          if u.hex is not None and u.counter.nationality in event.affects)
        if key == "eef_morale_breaks":
            if event.hit(run.die(f"{lost.id} eliminated: the EEF morale roll", event.rule)):
                _eliminate(run, affected, event.rule, "the EEF's morale broke: every Egyptian unit goes home",
                           morale=False)
            continue
        for uid in affected:
            if event.hit(run.die(f"{lost.id} eliminated: morale roll for {uid}", event.rule)):
                _eliminate(run, [uid], event.rule, "its morale broke when Khader fell", morale=False)


def loads(position: Position, h: Hex) -> dict[str, set[str]]:
    """Each transport in a hex (not the convoy, 10.8.1) with the non-leader units it carries."""
    return {t.id: {u.id for u in position.carried(t) if u.type not in LEADERS}
            for t in position.at(h) if t.type != "convoy" and position.carried(t)}


def aftermath(position: Position, h: Hex, side: str, artillery_alone: bool,
              loads_before: dict[str, set[str]]) -> list[tuple[str, str, str]]:
    """What a K in hex ``h`` brings down besides the units it hit: ``(unit, rule, why)`` for each transport whose
    whole load artillery destroyed (10.8.1) and each ``side`` leader left without other units (12.7, 12.9.4;
    never by artillery alone, 10.3).  ``loads_before``: :func:`loads` before the fire."""
    out: list[tuple[str, str, str]] = []
    here = position.at(h)
    if artillery_alone:
        for tid, load in sorted(loads_before.items()):
            if load and not _on_map(position, sorted(load)) and position.by_id[tid].hex == h:
                out.append((tid, "10.8.1", "artillery destroyed every unit it carried"))
    dead = {u for u, _, _ in out}
    rest = [u for u in here if u.side == side and u.id not in dead]
    for leader in (u for u in rest if u.type in LEADERS):
        if any(u.type not in LEADERS for u in rest):
            continue
        if artillery_alone:
            continue   # 10.3: artillery alone never eliminates a leader
        rule = "12.9.4" if is_city_bound_commander(leader) else "12.7"
        out.append((leader.id, rule, "every other unit in his hex is eliminated"))
    return out


def _apply_aftermath(run: _Run, h: Hex, side: str, artillery_alone: bool, before: dict[str, set[str]]) -> None:
    for uid, rule, why in aftermath(run.position, h, side, artillery_alone, before):
        _eliminate(run, [uid], rule, why)
    if artillery_alone and any(u.type in LEADERS and u.side == side for u in run.position.at(h)) and \
            not any(u.type not in LEADERS and u.side == side for u in run.position.at(h)):
        run.note("10.3", "the leader left alone survives: artillery alone never eliminates a leader")


# -- one fire ----------------------------------------------------------------------------------------------
def _artillery_alone(units: list[Unit]) -> bool:
    real = [u for u in units if u.type not in LEADERS]
    return bool(real) and all(u.type == "artillery" for u in real)


def _protect(run: _Run, h: Hex) -> list[str]:
    """9.6.3: the owner declares, before the fire, which units of a fort / monastery / cathedral hex are protected
    (at most the modifier's ``max_units``)."""
    pos = run.position
    terrain = set(pos.game.map.hexes[h].terrain) & set(PROTECTING)
    if not terrain:
        return []
    cap = load_tables().modifier(PROTECTING[sorted(terrain)[0]]).max_units or 0
    chosen: list[str] = []
    for u in sorted((u for u in pos.at(h) if u.type not in LEADERS), key=lambda u: u.id):
        if len(chosen) < cap and run.choose(f"9.6.3: declare {u.id} protected in {pos.game.map.name(h)}?",
                                            [False, True]):
            chosen.append(u.id)
    return chosen


def _davidka(run: _Run, firers: list[str]) -> list[str]:
    """10.10: before the Davidka fires, a roll; on a 6 it blows up and each other unit in its hex may be disrupted.
    The firers that are left."""
    t = load_tables().die_rolls
    explodes, disrupts = t["davidka_explodes"], t["davidka_disrupts"]
    left = []
    for uid in firers:
        u = run.position.by_id[uid]
        if not explodes.names(u) or not explodes.hit(run.die(f"{uid} fires: the Davidka roll", "10.10")):
            left.append(uid)
            continue
        _eliminate(run, [uid], "10.10", "the Davidka blew up")
        for other in sorted(w.id for w in run.position.at(u.hex)):
            if disrupts.hit(run.die(f"the Davidka blew up: roll for {other}", "10.10")):
                run.flag([other], "disrupted")
                run.note("10.10", f"{other} is disrupted until the next Jewish player turn")
    return left


def _refusal(res: CombatResult) -> CombatRefused:
    return CombatRefused(res.refused.rule, res.refused.message)


def _fire(run: _Run, firers: list[str], targets: list[str], kind: str, *, attacked: Sequence[str] = (),
          fired: Sequence[str] = ()) -> bool | None:
    """One fire on the CRT (or automatic, 9.10), applied: True when it killed, False when it missed, None when
    it was not made (the Davidka blew up and nobody else fires).  Refused fires raise :class:`CombatRefused`."""
    pos = run.position
    h = pos.by_id[targets[0]].hex
    protected = _protect(run, h)
    firers = _davidka(run, firers)
    if not _on_map(run.position, firers):
        return None
    pos = run.position
    res = combat(pos, firers, targets, kind=kind, protected=protected, fired=fired, attacked=attacked)
    if res.refused is not None:
        raise _refusal(res)
    shooters = [pos.by_id[f] for f in firers]
    artillery_alone = _artillery_alone(shooters)
    side = pos.by_id[targets[0]].side
    before = loads(pos, h)
    run.flag([u.id for u in shooters if u.type == "artillery"], "fired")   # 10.1
    what = f"{kind} by {', '.join(firers)} at {', '.join(targets)}"
    if res.odds == "auto":
        killed = True
        run.note("9.10", f"{what}: a lone leader or convoy attacked is eliminated, no roll (9.10, 6.7.1)")
    else:
        d = run.roll(6)
        killed = d <= (res.kills_on or 0)
        run.note("9.4.5", f"{what}: {res.odds} (raw {res.raw_odds}), modifier {res.total_modifier:+d}, rolled {d} "
                          f"(modified {d + res.total_modifier}): {'K' if killed else 'no result'}")
    if shooters[0].side == "jewish":
        dummies = sorted(u.id for u in run.position.at(h) if u.type == "dummy_leader")
        _eliminate(run, dummies, "12.1", "a dummy leader is revealed and removed when Jewish units fire at its hex")
    if killed:
        _eliminate(run, targets, "9.4.5", "a K eliminates the units fired at")
        _apply_aftermath(run, h, side, artillery_alone, before)
    return killed


# -- defensive first fire -------------------------------------------------------------------------------------
def _may_fire(pos: Position, firer: str, targets: list[str], attacked: Sequence[str]) -> bool:
    return combat(pos, [firer], targets, kind="first_fire", attacked=attacked).refused is None


def _in_range(u: Unit, hexes: list[Hex]) -> bool:
    """An artillery unit that has not fired this player turn (10.1) and reaches one of the hexes (1.2.1)."""
    reach = u.counter.value("range") if u.type == "artillery" and not u.has("fired") else None
    return bool(reach) and any(u.hex.distance(h) <= reach for h in hexes)


def _first_fire(run: _Run, attackers: Sequence[str], defenders: Sequence[str]) -> list[str]:
    """9.4.1, 9.7: the defender's first fire at the attackers; returns the halftracks / buses that fired (9.11)."""
    pos = run.position
    hexes = {pos.by_id[d].hex for d in defenders}
    side = pos.by_id[defenders[0]].side
    near = [pos.by_id[a].hex for a in _on_map(pos, attackers)]
    candidates = sorted(u.id for u in pos.units if u.side == side and u.hex is not None and u.type not in LEADERS
                        and (u.hex in hexes or _in_range(u, near)))
    targets: list[str] = []
    for a in sorted(_on_map(pos, attackers)):
        if targets and pos.by_id[a].hex != pos.by_id[targets[0]].hex:
            continue
        if any(_may_fire(pos, f, [*targets, a], defenders) for f in candidates) and \
                run.choose(f"9.7.2: {side} first fire at {a}?", [False, True]):
            targets.append(a)
    if not targets:
        return []
    firers = [f for f in candidates if _may_fire(pos, f, targets, defenders)
              and run.choose(f"9.7.2: {f} first-fires at {', '.join(targets)}?", [False, True])]
    if not firers:
        return []
    try:
        _fire(run, firers, targets, "first_fire", attacked=defenders)
    except CombatRefused as r:
        run.note(r.rule, f"no first fire: {r}")
        return []
    return [f for f in firers if pos.by_id[f].type in FIRST_FIRE_ATTACKABLE]


# -- the whole combat -----------------------------------------------------------------------------------------
def _real_leader_with(pos: Position, defenders: Sequence[str]) -> bool:
    h = pos.by_id[defenders[0]].hex
    side = pos.by_id[defenders[0]].side
    return any(u.type == "leader" and u.side == side for u in pos.at(h))


def resolve(position: Position, attackers: Sequence[str], defenders: Sequence[str], *, kind: str | None = None,
            roll: Callable[[int], int], choose: Callable[[str, Sequence[Any]], Any]
            ) -> tuple[Position, list[dict[str, str]]]:
    """One whole combat applied (docs/plugins.md): ``kind`` None is the phasing player's attack (``"attack"``);
    also ``"barrage"`` (10.5), ``"terrorist"`` / ``"terrorist_battle"`` (13.2.4, 13.2.5) and ``"first_fire"`` (a
    fire of the non-phasing side on its own, e.g. artillery at a moving unit, 10.2).  Raises
    :class:`CombatRefused` (a ``ValueError`` whose message starts with the rule) when the rules forbid it."""
    kind = kind or "attack"
    if kind not in KINDS:
        raise ValueError(f"kind {kind!r}: expected one of {', '.join(KINDS)}")
    attackers, defenders = list(attackers), list(defenders)
    first = combat(position, attackers, defenders, kind=kind)
    if first.refused is not None:
        raise _refusal(first)
    run = _Run(position, roll, choose)
    if kind == "first_fire":
        _fire(run, attackers, defenders, kind)
        return run.position, run.notes
    surprised = kind == "terrorist" and _real_leader_with(position, defenders)
    if surprised:
        run.note("13.2.6", "a real Arab leader is with the garrison: the terrorists are surprised and the "
                           "garrison first-fires")
    fired = _first_fire(run, attackers, defenders) if kind != "terrorist" or surprised else []
    left = _on_map(run.position, attackers)
    killed = None
    try:
        killed = _fire(run, left, defenders, kind, fired=fired) if left else None
    except CombatRefused as r:
        run.note(r.rule, f"the attack cannot be made after the first fire: {r}")
    if not killed:
        _failed(run, attackers, defenders, kind)
    if kind == "terrorist" and not surprised and killed is False:
        _first_fire(run, _on_map(run.position, attackers), defenders)   # 13.2.4: the garrison fires back
    return run.position, run.notes


def _failed(run: _Run, attackers: Sequence[str], defenders: Sequence[str], kind: str) -> None:
    """A failed attack: the defenders that survived may not be attacked again this player turn (9.9); the
    attackers are stopped (3.4, 7.7, 9.8.2) except after a terrorist attack (13.2.5 note)."""
    alive = _on_map(run.position, defenders)
    run.flag(alive, "attacked")
    if alive:
        run.note("9.9", f"{', '.join(alive)} survived: not to be attacked again this player turn")
    if kind in TERROR:
        run.note("13.2.5", "the terrorists may go on with the battle or move off the garrison; they are not stopped")
        return
    stopped = _on_map(run.position, attackers)
    run.flag(stopped, "stopped")
    if stopped:
        run.note("9.8.2", f"{', '.join(stopped)} failed to eliminate what they attacked: stopped for the rest of "
                          "the player turn (3.4, 7.7)")


# -- candidates for the random playouts ----------------------------------------------------------------------
def _may_attack(u: Unit) -> bool:
    """A phasing unit that may take part in an attack (1.2.1, 3.4, 6.5.2, 9.4.1, 10.10)."""
    return (u.hex is not None and u.type not in (*LEADERS, "garrison") and not u.has("stopped")
            and not u.has("disrupted") and not u.has("demobilized")
            and (u.counter.value("strength_use") == "attack" or u.counter.value("targeted_strength") is not None))


def attack_options(position: Position) -> list[tuple[tuple[str, ...], tuple[str, ...], str | None]]:
    """Cheap candidates (attackers, defenders, kind) for the phasing side, sorted: each enemy unit not yet
    attacked (9.9), a leader, truck or the convoy only when no other unit is with it (9.10), by every able unit
    adjacent to its hex (9.1), by each unfired artillery unit in range alone (``"barrage"``, 10.1, 10.5; never
    at a leader, 10.3), and terrorists on an Arab garrison in the overland phase (13.2).  ``resolve`` may
    still refuse one (9.10, 9.11, 10.6, spotting ...)."""
    side = position.phasing_side
    mine = [u for u in position.units if u.side == side and _may_attack(u)]
    enemy: dict[Hex, list[Unit]] = {}
    for u in position.units:
        if u.side != side and u.hex is not None and not u.has("attacked"):
            enemy.setdefault(u.hex, []).append(u)
    out: set[tuple[tuple[str, ...], tuple[str, ...], str | None]] = set()
    for h, targets in enemy.items():
        near = tuple(sorted(u.id for u in mine if u.type != "artillery" and u.hex.distance(h) == 1))
        alone = all(t.type in ONLY_WHEN_ALONE for t in position.at(h) if t.side != side)
        for t in (t for t in targets if alone or t.type not in ONLY_WHEN_ALONE):   # 9.10
            if near:
                out.add((near, (t.id,), None))
            for art in (a for a in mine if t.type not in LEADERS):   # 10.3
                reach = art.counter.value("range")
                if art.type == "artillery" and not art.has("fired") and reach and art.hex.distance(h) <= reach:
                    out.add(((art.id,), (t.id,), "barrage"))
    for h in ({u.hex for u in mine if u.counter.value("terrorist")} if position.phase == "overland" else ()):
        terrorists = tuple(sorted(u.id for u in mine if u.hex == h and u.counter.value("terrorist")))
        for g in (t for t in position.at(h) if t.side != side and t.type == "garrison"):
            out.add((terrorists, (g.id,), "terrorist_battle" if g.has("attacked") else "terrorist"))
    return sorted(out, key=lambda o: (o[0], o[1], o[2] or ""))
