"""*Jerusalem!* combat calculator: strengths, odds, die modifiers, kill chance, refusals (9.x, 10.x, 12.x, 13.2, 14.7).

Every number comes from ``modules/jerusalem-1948/tables.yaml`` (odds columns,
CRT, modifier ids, strength multipliers) or the counters; every explanation
cites its rule.  :func:`combat` takes the firing units and the target units of
ONE fire (an attack, a defensive first fire, an artillery barrage or a
terrorist attack) and returns a :class:`CombatResult`; :func:`combat_json` is
its stable JSON form.

Readings of points the rulebook leaves open (documented here and in the
explanations):

* Odds below 1-2 (9.4.3, 9.4.4): the CRT has no such column.  The fire may be
  declared (nothing forbids it, and a defensive first fire at poor odds is
  allowed) but it is an automatic miss: ``odds`` is the true ratio (e.g.
  ``"1-3"``), ``kills_on`` is 0 and the probability 0.  EEF attacks below 3-1
  are refused (14.7.1).
* A fire with no strength at all (only leaders) is refused (9.4.3).
* Leaders, trucks and the convoy that are alone in their hex (or only with
  other such units) are attacked normally; a leader or the convoy alone is
  eliminated automatically by a non-artillery attack (9.10, 6.7.1): odds
  ``"auto"``, probability 1.
* "Higher terrain" (9.6) is the target hex's level above EVERY firing unit's
  hex level, supporting artillery included.  A village on higher terrain is
  tables.yaml ``village_on_higher`` (+2), which already includes the higher
  terrain +1 (9.6.1).
* Of the non-cumulative terrain effects (9.6.1) the largest applicable one
  counts.  Units not declared protected in the Police Fort get the fort's
  ``police_fort_other`` (0) but still the other terrain of the hex (9.6.3), e.g.
  the stream of the reconstructed fort hex.
* Several target units in one fire are allowed only in one hex (terrain is
  per hex); a first fire at attackers in several hexes is computed per hex.
* Artillery vs transported (10.8.1, 10.8.4) applies when every firer is
  artillery and every target is being carried; never against the convoy itself.
* Tell (12.9.2): counted when a firing unit is in Tell's hex, every other unit
  there is of the 6th Regiment, and the firing 6th Regiment units of that hex
  make at least half the firing strength.
* Shaltiel (12.9.4): counted when a firing Jewish unit is in Shaltiel's hex.
* Arab Legion artillery (10.9.1) joins a fire with other units only when a
  Legion infantry, armored car or halftrack unit fires too; an artillery-only
  barrage is not a "battle supported" and is allowed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

from ...game import Position, Unit
from ...game.odds import Applied, Strength, number, odds_json, ratio_value
from ...game.odds import fraction as _frac
from ...game.odds import ratio as odds_ratio
from ...game.moves import Reason
from ...hexgrid import Hex
from .movement import BRITISH_LEAVE
from .spotting import fire as spot_fire
from .tables import Tables, load_tables
from .units import is_city_bound_commander, is_legion_leader

KINDS = ("attack", "first_fire", "barrage", "terrorist", "terrorist_battle")
TERROR = ("terrorist", "terrorist_battle")  # 13.2.4 the first fire of a terrorist attack; 13.2.5 the battle going on
LEADERS = ("leader", "dummy_leader")
VEHICLES = ("bulldozer", "halftrack", "bus", "armored_car", "tank", "convoy")  # 10.9.2
ONLY_WHEN_ALONE = ("leader", "dummy_leader", "truck", "convoy")  # 9.10
FIRST_FIRE_OR_ALONE = ("halftrack", "bus")  # 9.11
LEGION = "arab_legion"
LEGION_SUPPORTED_BY = ("infantry", "armored_car", "halftrack")  # 10.9.1
SIXTH_REGIMENT = "6th Regiment"
OLD_CITY = "Old City"


# -- odds -------------------------------------------------------------------------------------
def ratio(attack: float, defence: float) -> str:
    """The raw odds, rounded down in favour of the defender (9.4.3): ``"5-1"``, ``"1-2"``, ``"1-3"``."""
    if _frac(attack) <= 0:
        raise ValueError("no attack strength: there is no fire (9.4.3)")
    if _frac(defence) <= 0:
        raise ValueError("no defence strength: use the automatic elimination of 9.10")
    return odds_ratio(attack, defence)


def odds(attack: float, defence: float, columns: Sequence[str] | None = None) -> str:
    """The CRT column of an attack (9.4.3, 9.4.4).

    Rounds down in favour of the defender (5 vs 3 is 1-1, 10 vs 3 is 3-1, 5 vs 6
    is 1-2); a ratio with no column (5-1, 7-1, 9-1) uses the next lower one and
    11-1 or more uses the highest (10-1).  Below the lowest column (1-2) the
    true ratio is returned (``"1-3"`` ...): not a CRT column, an automatic miss.
    ``columns`` defaults to tables.yaml ``odds_columns``.
    """
    cols = list(columns if columns is not None else load_tables().odds_columns)
    raw = ratio(attack, defence)
    value = ratio_value(raw)
    fitting = [c for c in cols if ratio_value(c) <= value]
    if not fitting:
        return raw
    return max(fitting, key=ratio_value)


def kill_chance(column: str, total_modifier: int, tables: Tables | None = None) -> tuple[int, Fraction]:
    """Highest natural d6 roll that kills and the exact probability (9.4.5, CRT).

    A natural roll kills when roll + modifiers is at most the column's printed
    highest killing roll (tables.yaml ``crt``; null = every roll).  A ratio below
    the lowest column never kills.
    """
    t = tables or load_tables()
    if column not in t.crt:
        return 0, Fraction(0)
    top = t.crt[column]
    if top is None:
        return 6, Fraction(1)
    n = max(0, min(6, top - total_modifier))
    return n, Fraction(n, 6)


# -- results ------------------------------------------------------------------------------------
@dataclass
class CombatResult:
    """Everything about one fire: strengths, odds, modifiers, kill chance, or why it may not happen."""

    kind: str
    attackers: list[Strength] = field(default_factory=list)
    defenders: list[Strength] = field(default_factory=list)
    attack: Fraction = Fraction(0)
    defence: Fraction = Fraction(0)
    raw_odds: str | None = None
    odds: str | None = None
    modifiers: list[Applied] = field(default_factory=list)
    total_modifier: int = 0
    kills_on: int | None = None
    probability: Fraction | None = None
    refused: Reason | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def allowed(self) -> bool:
        """Whether the fire may be made."""
        return self.refused is None


def combat_json(result: CombatResult) -> dict[str, Any]:
    """The stable JSON form of a :class:`CombatResult` (the shared keys and ``kills_on``)."""
    return {**odds_json(result), "kills_on": result.kills_on}


# -- data -----------------------------------------------------------------------------------------
def _strength_factor(mod_id: str) -> Fraction:
    return _frac(load_tables().strength_modifier(mod_id).value)


def _eef_min_odds() -> str:
    return load_tables().limits.eef_min_attack_odds


# -- the calculator ---------------------------------------------------------------------------------
class _Refuse(Exception):
    def __init__(self, rule: str, message: str):
        super().__init__(message)
        self.reason = Reason(rule, message)


def _use(u: Unit) -> str:
    if u.has("demobilized"):
        return "none"  # 6.5.2: parenthesised
    return str(u.counter.value("strength_use") or "none")


def _base(u: Unit) -> Fraction:
    s = u.counter.value("strength", back=u.has("demobilized"))
    return _frac(s) if s is not None else Fraction(0)


def _leader_factor(position: Position, u: Unit) -> tuple[Fraction, str]:
    """12.6 leader multiplier for a unit (x2/x3, Kaukji x½), with the exceptions."""
    if u.type in LEADERS or u.hex is None:
        return Fraction(1), ""
    for w in position.at(u.hex):
        if w.type != "leader" or w.side != u.side or w.id == u.id:
            continue
        m = w.counter.value("leader_multiplier")
        if m is None or _frac(m) == 1:
            continue
        if u.counter.nationality in (LEGION, "eef"):
            return Fraction(1), f"{w.id}'s x{m} does not apply to Arab Legion or EEF units (12.6)"
        if w.counter.value("multiplier_excludes") == u.counter.nationality:
            return Fraction(1), f"{w.id}'s multiplier has no effect on {u.counter.nationality} units (12.9.1.3)"
        if w.has("bombing"):
            return Fraction(1), f"{w.id} is bombing this turn and gives no leader effect (13.1.1)"
        return _frac(m), f"x{m} for leader {w.id} in the hex (12.6)"
    return Fraction(1), ""


def _defence_strength(position: Position, u: Unit, firers: list[Unit]) -> Strength:
    base = _base(u)
    parts = [f"{base} printed"]
    if u.has("demobilized"):
        parts.append("demobilized: parenthesised, used only for odds against it (6.5.2)")
    if u.type == "convoy" and firers and all(f.type == "artillery" for f in firers):
        parts.append("the convoy's (12) for odds when shelled (10.8.3)")
    factor, why = _leader_factor(position, u)
    if why:
        parts.append(why)
    if u.has("morale_broken"):
        half = _strength_factor("abandoned")
        factor *= half
        parts.append(f"x{half} abandoned by its leader (12.8.2)")
    return Strength(u.id, base * factor, "; ".join(parts))


def _targeted(u: Unit, targets: list[Unit]) -> bool:
    ts = u.counter.value("targeted_strength")
    if ts is None:
        return False
    vs = u.counter.value("targeted_vs")
    if vs == "any":
        return True  # 11.0 the flamethrower
    return all(t.type in VEHICLES for t in targets)  # 10.9.2 the 6 lb gun


def _fire_strength(position: Position, u: Unit, targets: list[Unit], kind: str) -> Strength:
    if u.type in LEADERS:
        return Strength(u.id, Fraction(0), "a leader has no strength of its own (12.6)")
    if _targeted(u, targets):
        base = _frac(u.counter.value("targeted_strength"))
        rule = "11.0" if u.counter.value("targeted_vs") == "any" else "10.9.2"
        parts = [f"{base} targeted strength ({rule})"]
    else:
        base = _base(u)
        parts = [f"{base} printed"]
    factor, why = _leader_factor(position, u)
    if why:
        parts.append(why)
    if u.has("morale_broken") and kind == "first_fire":
        half = _strength_factor("abandoned")
        factor *= half
        parts.append(f"x{half} abandoned by its leader (12.8.2)")
    return Strength(u.id, base * factor, "; ".join(parts))


def _check_firer(position: Position, u: Unit, targets: list[Unit], kind: str) -> None:
    if u.hex is None:
        raise _Refuse("9.1", f"{u.id} is not on the map")
    if u.type in LEADERS:
        return
    if u.has("disrupted"):
        raise _Refuse("10.10", f"{u.id} is disrupted and may not fire (10.10, 13.1.4)")
    if kind != "first_fire" and u.has("stopped"):
        raise _Refuse("3.4", f"{u.id} is stopped and may make no more attacks this turn (3.4, 9.8.2)")
    if u.type == "garrison" and kind != "first_fire":
        raise _Refuse("9.4.1", f"{u.id} is a garrison: garrisons only fire defensively, never attack")
    use = _use(u)
    if _targeted(u, targets):
        return
    if use == "none":
        why = "demobilized: its strength is parenthesised (6.5.2)" if u.has("demobilized") else \
            "its strength is parenthesised: used only for odds against it"
        raise _Refuse("6.5.2" if u.has("demobilized") else "1.2.1", f"{u.id} cannot fire: {why} (1.2.1, 9.10)")
    if use == "first_fire" and kind != "first_fire":
        raise _Refuse("1.2.1", f"{u.id} has a black strength: defensive first fire only, no attack (1.2.1)")


def _check_reach(position: Position, u: Unit, target_hex: Hex, targets: list[Unit], kind: str,
                 notes: list[str]) -> None:
    if kind in TERROR:
        if u.hex != target_hex:
            raise _Refuse("13.2.4", f"{u.id} must be on top of the garrison to make a terrorist attack "
                                    "(13.2.3, 13.2.4)")
        return
    if _garrison_fires_back(kind, [u], targets):
        return
    if u.type == "artillery":
        if u.has("fired"):
            raise _Refuse("10.1", f"{u.id} has already fired this player turn (10.1)")
        target = next((t for t in targets if t.type not in LEADERS), targets[0])
        res = spot_fire(position, u.id, target.id)
        if not res.in_range:
            raise _Refuse("1.2.1", f"{u.id} is out of range: {res.range} hexes counting the target's hex, range "
                                   f"{res.max_range} (1.2.1, 10.4, 10.5)")
        if not (res.sees or res.spotters):
            extra = " and no Arab Legion unit sees it (10.7.3)" if u.counter.nationality == LEGION else ""
            raise _Refuse(res.rule, f"{u.id} cannot see the target (blocked by {', '.join(res.blocked_names)}) "
                                    f"and no friendly unit spots it{extra} (10.7.1, 10.7.2)")
        notes.append(f"{u.id}: range {res.range} of {res.max_range}; "
                     + ("sees the target itself (10.7.1)" if res.sees else
                        f"spotted by {', '.join(s.id for s in res.spotters)} ({res.rule})"))
        return
    if u.hex.distance(target_hex) != 1:
        raise _Refuse("9.1", f"{u.id} is not adjacent to the target hex; only artillery fires from further away "
                             "(9.1, 9.5)")
    if kind == "barrage":
        raise _Refuse("10.5.1", f"{u.id} is not artillery: a barrage is artillery firing alone (10.5.1)")


def _garrison_fires_back(kind: str, firers: list[Unit], targets: list[Unit]) -> bool:
    """13.2.5: the garrison's first fire at the terrorists on top of it (same hex, terrain ignored)."""
    return (kind == "first_fire" and all(t.counter.value("terrorist") for t in targets)
            and all(f.hex == targets[0].hex for f in firers))


def _check_targets(position: Position, targets: list[Unit], firers: list[Unit], target_hex: Hex,
                   fired: Sequence[str]) -> bool:
    """Refuse protected targets (9.10, 9.11, 10.3, 10.6, 6.7.1); True when the fire is an automatic elimination."""
    artillery_only = all(f.type == "artillery" for f in firers if f.type not in LEADERS)
    any_artillery = any(f.type == "artillery" for f in firers)
    here = position.at(target_hex)
    ids = {t.id for t in targets}
    for t in targets:
        if t.type in LEADERS and any_artillery:
            raise _Refuse("10.3", f"artillery never fires at a leader ({t.id}) (10.3, 12.7)")
    for t in targets:
        if t.type in ONLY_WHEN_ALONE:
            if t.type == "convoy" and artillery_only:
                continue  # 10.8.2: shelling the convoy directly
            others = [w for w in here if w.type not in ONLY_WHEN_ALONE and w.id not in ids]
            if others or any(w.type not in ONLY_WHEN_ALONE for w in targets):
                raise _Refuse("9.10", f"{t.id} may be attacked only after every other unit in its hex is "
                                      "eliminated (9.10, 6.7.1, 12.7)")
        if t.type in FIRST_FIRE_OR_ALONE and t.id not in fired:
            others = [w for w in here if w.type not in ONLY_WHEN_ALONE + FIRST_FIRE_OR_ALONE and w.id not in ids]
            if others:
                raise _Refuse("9.11", f"{t.id} may be attacked only if it defensive-first-fired or every other unit "
                                      "with it is eliminated (9.11)")
        if t.type == "artillery" and not artillery_only:
            if any(w.type == "infantry" and w.id not in ids for w in here):
                raise _Refuse("10.6", f"{t.id} is protected by the infantry in its hex, which must be eliminated "
                                      "first (10.6)")
    alone = all(w.type in ONLY_WHEN_ALONE for w in here)
    return alone and all(t.type in LEADERS or (t.type == "convoy" and not artillery_only) for t in targets)


def _terrain_modifiers(position: Position, tables: Tables, firers: list[Unit], targets: list[Unit],
                       target_hex: Hex, protected: Sequence[str]) -> list[Applied]:
    cmap = position.game.map
    info = cmap.hexes[target_hex]
    terrain = set(info.terrain)
    level = info.elevation
    firing_hexes = {f.hex for f in firers}
    higher = all(cmap.hexes[h].elevation < level for h in firing_hexes)
    mod = tables.modifier
    before_may3 = position.game.turn_index(position.turn) < position.game.turn_index(BRITISH_LEAVE)
    name = cmap.name(target_hex)
    candidates: list[Applied] = []

    def add(mid: str, why: str) -> None:
        m = mod(mid)
        candidates.append(Applied(m.id, m.value, m.rule, why))

    if info.features.get("stream"):
        add("stream", f"target in the stream hex {name} (9.6)")
    if "village" in terrain:
        if higher:
            add("village_on_higher", f"village {name} on higher terrain than every firer: +1 village and +1 "
                                     "higher terrain together (9.6, 9.6.1)")
        else:
            add("village", f"target in the village {name} (9.6)")
    if "jerusalem_city" in terrain:
        if all(t.counter.nationality == LEGION for t in targets):
            add("city_vs_arab_legion", f"Arab Legion target in the Jerusalem city hex {name} (9.6)")
        else:
            add("city", f"target in the Jerusalem city hex {name} (9.6)")
    if info.region == OLD_CITY:
        if all(cmap.hexes[h].region != OLD_CITY for h in firing_hexes):
            add("old_city_wall_all_outside", "target in the Old City and every firer outside the wall (9.6)")
        else:
            add("old_city_wall_some_inside", "target in the Old City and a firer inside it (9.6)")
    guarded = [t for t in targets if t.id in protected]
    if terrain & {"greek_monastery", "notre_dame"}:
        if "notre_dame" in terrain and before_may3:
            pass  # 9.6.2: nobody uses Notre Dame before May III (the city value still applies)
        elif guarded:
            add("monastery_cathedral_protected", f"declared protected unit(s) {', '.join(t.id for t in guarded)} "
                                                 f"in {info.place or name} (9.6, 9.6.3)")
        else:
            add("monastery_cathedral_other", f"unit(s) not declared protected in {info.place or name} (9.6, 9.6.3)")
    if "police_fort" in terrain and not before_may3:
        if guarded:
            add("police_fort_protected", f"declared protected unit(s) {', '.join(t.id for t in guarded)} in the "
                                         "Latrun Police Fort (9.6, 9.6.3)")
        else:
            add("police_fort_other", "unit(s) not declared protected get no benefit from the Police Fort "
                                     "(9.6, 9.6.3)")
    if "bevingrad" in terrain and not before_may3:
        add("bevingrad", "target in Bevingrad (9.6)")
    out: list[Applied] = []
    if candidates:
        # 9.6.1: not cumulative, the best one counts; on a tie the more specific (later) entry names it.
        out.append(max(enumerate(candidates), key=lambda im: (im[1].value, im[0]))[1])
    includes_higher = bool(out) and out[0].id == "village_on_higher"
    if higher and not includes_higher:
        m = mod("higher_terrain")
        out.insert(0, Applied(m.id, m.value, m.rule, f"every firer is lower than {name} (level {level}); "
                                                             "cumulative with other terrain (9.6, 9.6.1)"))
    return [m for m in out if m.value != 0 or m.id == "police_fort_other"]


def _other_modifiers(position: Position, tables: Tables, firers: list[Unit], targets: list[Unit],
                     strengths: list[Strength]) -> list[Applied]:
    out: list[Applied] = []
    mod = tables.modifier
    firing_hexes = {f.hex for f in firers}
    side = firers[0].side
    # 12.9.4 Shaltiel in a hex with Jewish units firing at Arab units.
    for h in firing_hexes:
        if any(is_city_bound_commander(w) and w.side == side for w in position.at(h)):
            m = mod("shaltiel")
            out.append(Applied(m.id, m.value, m.rule, "Shaltiel is in a firing unit's hex (12.9.4)"))
            break
    # 12.9.2 Tell stacked with 6th Regiment units only, at least half the firing strength.
    total = sum((s.strength for s in strengths), Fraction(0))
    by_id = {s.unit: s.strength for s in strengths}
    for h in firing_hexes:
        stack = position.at(h)
        tell = [w for w in stack if is_legion_leader(w) and w.side == side]
        if not tell:
            continue
        rest = [w for w in stack if w.id != tell[0].id]
        if rest and all(w.counter.value("formation") == SIXTH_REGIMENT for w in rest):
            sixth = sum((by_id.get(w.id, Fraction(0)) for w in rest), Fraction(0))
            if total > 0 and 2 * sixth >= total:
                m = mod("tell")
                out.append(Applied(m.id, m.value, m.rule, f"Tell stacked only with 6th Regiment units making "
                                                                  f"{number(sixth)} of {number(total)} firing strength "
                                                                  "(12.9.2)"))
                break
    # 10.8.1 / 10.8.4 artillery at units being transported (not the convoy itself, 10.8.3).
    real = [f for f in firers if f.type not in LEADERS]
    if real and all(f.type == "artillery" for f in real) and all(t.carried_by for t in targets):
        m = mod("artillery_vs_transported")
        out.append(Applied(m.id, m.value, m.rule, "artillery firing at unit(s) being transported "
                                                          "(10.8.1, 10.8.4)"))
    return out


def combat(position: Position, attackers: Sequence[str], defenders: Sequence[str], *, kind: str = "attack",
           protected: Sequence[str] = (), fired: Sequence[str] = (), attacked: Sequence[str] = ()) -> CombatResult:
    """One fire of ``attackers`` (the firing units) at ``defenders`` (the target units).

    ``kind``: ``"attack"`` (the phasing player's attack, with artillery support,
    9.4, 10.4.1), ``"first_fire"`` (a defensive first fire, the firers being the
    defending player's units and the targets the attackers, 9.7, 10.4.2),
    ``"barrage"`` (artillery alone, 10.5), ``"terrorist"`` (Irgun / Stern on
    top of an Arab garrison, 13.2.4) or ``"terrorist_battle"`` (the battle going
    on after that first fire: not doubled, terrain still ignored, 13.2.5).  ``protected``: target units their owner
    declared protected by the Police Fort, Greek Monastery or Notre Dame (9.6.3).
    ``fired``: target halftracks / buses used for defensive first fire, which may
    therefore be attacked (9.11).  ``attacked`` (first fire only): the units the
    attack is aimed at; only units in their hexes (and supporting artillery) may
    defensive-first-fire (9.4.2).  Unknown unit ids raise ``KeyError``.
    """
    if kind not in KINDS:
        raise ValueError(f"kind {kind!r}: expected one of {', '.join(KINDS)}")
    if not attackers or not defenders:
        raise ValueError("give at least one firing unit and one target unit")
    unknown = [u for u in [*attackers, *defenders, *protected, *fired, *attacked] if u not in position.by_id]
    if unknown:
        raise KeyError(f"unknown unit id(s): {', '.join(unknown)}")
    res = CombatResult(kind)
    try:
        firers = [position.by_id[u] for u in attackers]
        if kind == "first_fire":
            _check_first_fire(firers, [position.by_id[u] for u in attacked])
        _compute(position, res, firers, [position.by_id[u] for u in defenders], protected, fired)
    except _Refuse as r:
        res.refused = r.reason
        res.kills_on = None
        res.probability = None
    return res


def _check_first_fire(firers: list[Unit], attacked: list[Unit]) -> None:
    """9.4.2: only units in an attacked hex first-fire (artillery may support, 10.4.2); 9.7.2: once per attack."""
    for u in firers:
        if u.has("first_fired"):
            raise _Refuse("9.7.2", f"{u.id} has already fired defensively against this attack (one first fire "
                                   "per attack, 9.7.2)")
    hexes = {t.hex for t in attacked}
    if hexes:
        outside = [u.id for u in firers if u.hex not in hexes and u.type != "artillery"]
        if outside:
            raise _Refuse("9.4.2", f"{', '.join(outside)} not in a hex being attacked: only the units of the "
                                   "attacked hex(es) first-fire, with artillery support (9.4.2, 10.4.2)")


def _compute(position: Position, res: CombatResult, firers: list[Unit], targets: list[Unit],
             protected: Sequence[str], fired: Sequence[str]) -> None:
    tables = load_tables()
    kind = res.kind
    sides = {u.side for u in firers}
    if len(sides) != 1 or any(t.side in sides for t in targets) or len({t.side for t in targets}) != 1:
        raise _Refuse("9.2", "the firing units must all be of one side and the targets all of the other (9.2)")
    side = firers[0].side
    if kind in ("attack", *TERROR) and side != position.phasing_side:
        raise _Refuse("9.2", "only the phasing player attacks; the other player's units defensive-first-fire (9.2)")
    if kind == "first_fire" and side == position.phasing_side:
        raise _Refuse("9.2", "defensive first fire is made by the non-phasing player's units (9.2, 9.7)")
    if any(t.hex is None for t in targets):
        raise _Refuse("9.1", "every target must be on the map")
    hexes = {t.hex for t in targets}
    if len(hexes) != 1:
        raise _Refuse("9.6", "targets in different hexes get different terrain effects (9.6): compute each "
                             "target hex as its own fire")
    target_hex = next(iter(hexes))
    for t in targets:
        if t.has("attacked") and kind not in ("first_fire", "terrorist_battle"):  # 13.2.5 goes on
            raise _Refuse("9.9", f"{t.id} already survived an attack this player turn (9.9)")
    if kind == "barrage" and any(f.type != "artillery" for f in firers):
        raise _Refuse("10.5.1", "a barrage is made by artillery units alone (10.5.1)")
    if kind in TERROR:
        if any(not f.counter.value("terrorist") for f in firers):
            raise _Refuse("13.2.1", "only Irgun and Stern Gang units make terrorist attacks (13.2.1)")
        if not any(w.type == "garrison" for w in position.at(target_hex)):
            raise _Refuse("13.2.3", "only a hex with an Arab garrison may be terror-attacked (13.2.3)")
        if position.phase != "overland":
            raise _Refuse("13.2.1", "terrorist attacks are made in the Jewish Overland Movement Phase (13.2.1)")
    for f in firers:
        _check_firer(position, f, targets, kind)
    for f in firers:
        _check_reach(position, f, target_hex, targets, kind, res.notes)
    legion_art = [f for f in firers if f.type == "artillery" and f.counter.nationality == LEGION]
    others = [f for f in firers if f.type != "artillery" and f.type not in LEADERS]
    if legion_art and others and not any(f.counter.nationality == LEGION and f.type in LEGION_SUPPORTED_BY
                                         for f in others):
        raise _Refuse("10.9.1", "Arab Legion artillery supports a battle only with a Legion infantry, armored car "
                                "or halftrack unit in it (10.9.1)")
    automatic = _check_targets(position, targets, firers, target_hex, fired)
    g = [p for p in protected if position.by_id[p].hex != target_hex]
    if g:
        raise _Refuse("9.6.3", f"protected unit(s) {', '.join(g)} are not in the target hex (9.6.3)")
    # Strengths.
    res.attackers = [_fire_strength(position, f, targets, kind) for f in firers]
    res.defenders = [_defence_strength(position, t, firers) for t in targets]
    res.attack = sum((s.strength for s in res.attackers), Fraction(0))
    res.defence = sum((s.strength for s in res.defenders), Fraction(0))
    if kind == "terrorist_battle":
        res.notes.append("the battle goes on: the terrorists are no longer doubled and the garrison first-fires "
                         "before each attack (13.2.5)")
    if kind == "terrorist":
        real_leader = any(w.type == "leader" and w.side != side for w in position.at(target_hex))
        if real_leader:
            res.notes.append("a real Arab leader is with the garrison: the terrorists are surprised, neither doubled "
                             "nor firing first; the garrison first-fires (13.2.6)")
        else:
            double = _strength_factor("terrorist_first_fire")
            res.attack *= double
            res.notes.append(f"terrorists' total strength x{double} in their offensive first fire (13.2.4)")
    if automatic:
        res.odds = res.raw_odds = "auto"
        res.kills_on, res.probability = 6, Fraction(1)
        res.notes.append("a leader or the convoy alone in its hex is eliminated automatically when attacked "
                         "(9.10, 6.7.1)")
        return
    if res.attack <= 0:
        raise _Refuse("9.4.3", "the firing units have no combat strength")
    # Modifiers.
    if kind in TERROR or _garrison_fires_back(kind, firers, targets):
        res.notes.append("terrain effects do not count in a terrorist attack (13.2.4, 13.2.5)")
        mods: list[Applied] = []
    else:
        mods = _terrain_modifiers(position, tables, firers, targets, target_hex, protected)
        caps = [m for m in mods if m.id in ("monastery_cathedral_protected", "police_fort_protected")]
        if caps:
            cap = tables.modifier(caps[0].id).max_units
            here = [p for p in protected if position.by_id[p].hex == target_hex]
            if cap is not None and len(here) > cap:
                raise _Refuse("9.6", f"at most {cap} units may be protected in this hex (9.6, 9.6.3)")
    mods += _other_modifiers(position, tables, firers, targets, res.attackers)
    res.modifiers = mods
    res.total_modifier = sum(m.value for m in mods)
    if res.defence <= 0:
        res.raw_odds = res.odds = tables.odds_columns[-1]
        res.notes.append("the targets have no strength: the highest column is used")
    else:
        res.raw_odds = ratio(res.attack, res.defence)
        res.odds = odds(res.attack, res.defence, tables.odds_columns)
    if kind in ("attack", "terrorist", "barrage") and any(f.counter.nationality == "eef" for f in firers):
        least = _eef_min_odds()
        if res.odds not in tables.crt or ratio_value(res.odds) < ratio_value(least):
            raise _Refuse("14.7.1", f"EEF units never attack at less than {least} (here {res.odds}) (14.7.1)")
    if res.odds != res.raw_odds:
        res.notes.append(f"{res.raw_odds} is resolved on the {res.odds} column (9.4.4)")
    if res.odds not in tables.crt:
        res.notes.append(f"{res.odds} is below the lowest CRT column ({tables.odds_columns[0]}): an automatic miss "
                         "(reading of 9.4.3/9.4.4)")
    res.kills_on, res.probability = kill_chance(res.odds, res.total_modifier, tables)
