"""``toolkit moves``, ``check``, ``victory``, ``fire``, ``odds`` and ``phase``: a position's moves, legality,
victory, fire, combat odds and phase, every game."""
from __future__ import annotations

import argparse
import sys

from .common import game_command, load_position, print_json, rules_parser, write_position_data

#: ``toolkit check GAME.vlog``'s exit status for each verdict (docs/cli.md).
LOG_VERDICT_STATUS = {"legal": 0, "illegal": 1, "not proven": 3}


def mp_label(mp: float) -> str:
    """Movement points as a player writes them: 2½, ½, 3."""
    whole, half = int(mp), mp % 1
    return (f"{whole}" if whole else "") + ("½" if half else "") or "0"


def cmd_moves(args: argparse.Namespace) -> None:
    """Legal moves of a unit or stack in a position."""
    from ..answers import moves_json, search_moves

    position = load_position(args.position, args.game)
    unit_ids = [args.unit, *args.with_units]
    result = search_moves(position, args.position, unit_ids, args.pickup, args.terrorist, args.enter, args.kind)
    data = moves_json(position, unit_ids, result)
    if args.svg:
        from ..render import Highlight, write_image

        cmap = position.game.map
        marks = {d.hex: mp_label(d.mp) + ("*" if d.stop else "") for d in result.destinations.values()}
        print(f"wrote {write_image(args.svg, cmap, [Highlight(marks)])}", file=sys.stderr)
    if args.json:
        print_json(data)
        return
    if data["refused"]:
        print(f"{', '.join(unit_ids)} cannot move: {data['refused']['reason']} ({data['refused']['rule']})")
        return
    mp = "unlimited" if data["mp"] is None else f"{data['mp']:g}"
    phase = position.game.spec.phase_name(data["phase"])
    phase = f"the {phase} phase" if phase == data["phase"] else phase   # game.yaml names it (a name says "Phase")
    print(f"{', '.join(unit_ids)} from {data['from'] or 'off the map'} in {phase}, {mp} MP: "
          f"{len(data['destinations'])} destinations")
    for d in data["destinations"]:
        stop = f"  stops ({d['stop_rule']})" if d["stop"] else ""
        print(f"  {d['hex']}  {mp_label(d['cost'])} MP  via {' '.join(d['path'][1:-1]) or '-'}{stop}")
    for e in data["exits"]:
        print(f"  may leave the map by the {e['exit']} road from {e['hex']} ({mp_label(e['cost'])} MP to get there)")


def cmd_check_log(args: argparse.Namespace) -> int:
    """Every move of a VASSAL log checked with the game's legal-move generator; exit status 1 when any is illegal,
    3 when the log holds something the checker could not judge (not proven legal)."""
    from ..answers import clean_text
    from ..vassal.saves.replay import check_log_file

    report = check_log_file(args.position, getattr(args, "game", None))
    if args.json:
        print_json(report.json())
    else:
        print("\n".join(clean_text(line, 100_000) for line in report.text()))  # commands from the log, escaped
    return LOG_VERDICT_STATUS[report.verdict]


def cmd_check(args: argparse.Namespace) -> int:
    """Every rule a position breaks; exit status 1 when there is any."""
    from ..answers import check_answer

    if str(args.position).lower().endswith(".vlog"):
        return cmd_check_log(args)
    position, _ = game_command(args)
    data = check_answer(position, args.turn_end)
    if args.json:
        print_json(data)
    elif data["legal"]:
        print(f"{args.position}: legal")
    else:
        print(f"{args.position}: {len(data['violations'])} violation(s)")
        for v in data["violations"]:
            print(f"  [{v['rule']}] {v['message']}")
    return 0 if data["legal"] else 1


def cmd_victory(args: argparse.Namespace) -> None:
    """Whether the victory conditions hold in a position."""
    from ..answers import victory_answer

    position, _ = game_command(args)
    data = victory_answer(position, args.road_cut_by)  # Jerusalem! 2.0: what cuts the road
    if args.json:
        print_json(data)
    else:
        print(data["explanation"])


def cmd_fire(args: argparse.Namespace) -> None:
    """Whether a unit may fire at another: range, sight, spotters."""
    from ..answers import require_units

    position, rules = game_command(args)
    require_units(position, args.position, [args.firer, args.target])
    data = rules.fire_json(rules.fire(position, args.firer, args.target, higher_terrain=args.higher_terrain))
    if args.json:
        print_json(data)
        return
    verdict = "MAY FIRE" if data["verdict"] else "MAY NOT FIRE"
    print(f"{data['firer']} -> {data['target']}, range {data['range']}: {verdict} ({data['rule']})")
    for r in data["reasons"]:
        print(f"  [{r['rule']}] {r['reason']}")


def cmd_odds(args: argparse.Namespace) -> None:
    """Combat odds, die modifiers and the chance to kill."""
    from ..answers import odds_answer

    if not args.defend and not getattr(args, "target", None):
        raise ValueError("--defend: name the defending units (or, for a Siege Breach attack, --target HEX)")
    position, _ = game_command(args)
    extra = {key: getattr(args, key, None) for key in ("attacked", "primary", "target", "level", "fired_at")}
    data = odds_answer(position, args.position, args.attack, args.defend or [], args.kind, args.protected,
                       args.fired, **extra)   # the Siege of Jerusalem's 13.2, 10.1, 9.11, 9.6
    if args.json:
        print_json(data)
        return
    if data.get("phase_warning"):   # the position is not in a combat phase (No Prisoners)
        print(f"NOT IN A COMBAT PHASE ({data['phase_warning']['rule']}): {data['phase_warning']['reason']}")
    if data["refused"]:
        print(f"not allowed ({data['refused']['rule']}): {data['refused']['reason']}")
        _print_notes(data)
        return
    _print_odds(data)


def _print_odds(data: dict) -> None:
    """``toolkit odds``'s answer in words: the odds (or row and column), modifiers, shifts, results, notes."""
    line = f"{data['attack']:g} against {data['defence']:g}: odds {data['odds']}"
    if data.get("row") is not None and data["odds"] is None:   # Siege missile / Breach: row and column
        line = f"{data['attack']:g} AF on the {data['row']} row: column {data['column']}"
    if data.get("table"):
        why = data.get("table_why") or {}
        line += f" on the {data['table'].upper()}" + (f" ({why['reason']}, {why['rule']})" if why else "")
    if data["kills_on"] is not None:
        line += f", die modifier {data['total_modifier']:+d}, kills on {data['kills_on']} or less"
    print(line + ("" if data["probability"] is None else f" (chance {data['probability']:.0%})"))
    for role, units in (("attacker", data["attackers"]), ("defender", data["defenders"])):
        for s in units:   # each unit's strength and how it was obtained (terrain, supply …, with the rules)
            print(f"  {role} {s['unit']}: {s['strength']:g}" + (f" ({s['how']})" if s.get("how") else ""))
    for m in data["modifiers"]:
        print(f"  {m['value']:+d} {m['id']} ({m['rule']}): {m['why']}")
    for shift in data.get("shifts", []):
        print(f"  {shift['columns']:+d} column ({shift['id']}, {shift['rule']}): {shift['why']}")
    for roll in data.get("results", []):
        meaning = f" ({roll['meaning']})" if roll.get("meaning") else ""
        print(f"  die {roll['die']}: {roll['result']}{meaning}" + ("  (erratic shot, 9.31)" if roll.get("erratic")
                                                                   else ""))
    if (data.get("flank") or {}).get("flank"):   # Siege of Jerusalem 11.85, 9.31, 9.11-9.12
        print("  Flank Attack (11.85): " + "; ".join(h["why"] for h in data["flank"]["hexes"]))
    if data.get("erratic"):
        print(f"  erratic shot ({data['erratic']['rule']}): a natural 1 also Disrupts one of "
              f"{', '.join(data['erratic']['friendly_units'])}")
    if data.get("immune"):
        print(f"  target {', '.join(data.get('targets') or [])}; immune {', '.join(data['immune'])} (9.11, 9.12)")
    _print_notes(data)


def _print_notes(data: dict) -> None:
    """A game's or a rules plugin's notes on an answer (text, or ``{rule, text}``), a line each."""
    for note in data.get("notes", []):
        print(f"  note: [{note['rule']}] {note['text']}" if isinstance(note, dict) else f"  note: {note}")


def cmd_phase(args: argparse.Namespace) -> None:
    """The position's phase: what it allows and what the phasing player may do now (every game)."""
    from ..answers import phase_answer

    position, _ = game_command(args)
    data = phase_answer(position)
    if args.json:
        print_json(data)
        return
    rule = f" ({data['rule']})" if data["rule"] else ""
    print(f"{data['name']} of the {data['phasing_side']} player{rule}")
    allows = "; ".join(a["text"] for a in data["allows"]) or "game.yaml does not say (phases[].allows)"
    print(f"  the phasing player may: {allows}")
    for n in data["notes"]:
        print(f"  [{n['rule']}] {n['text']}")
    nxt = data["next"]
    if nxt["game_over"]:
        print(f"  next: none, {nxt['name']}")
        return
    turn = f"turn {nxt['turn']}, " if nxt["turn"] != position.turn else ""
    whose = f" ({turn}a new player turn: {nxt['side']})" if nxt["new_player_turn"] else ""
    others = "".join(f", or {o['name']} (the phases of a player turn in any order)" for o in nxt["others"])
    print(f"  next: {nxt['name']}{whose}{others}")


def cmd_combat(args: argparse.Namespace) -> None:
    """One whole combat made as an action: the game's resolve with the rolls and choices given (or drawn from a
    seed), every consequence applied, the position after and its check."""
    from ..answers import combat_answer

    position, _ = game_command(args)
    data = combat_answer(position, args.attack, args.defend, args.kind, args.roll, args.choose, args.seed)
    if args.output:
        write_position_data(args.output, data["after"]["position"])
    if args.json:
        print_json(data)
        return
    made = data["action"]
    print(data["text"] + (f"; choices {' '.join(map(str, made['choices']))}" if made.get("choices") else ""))
    for n in data["notes"]:
        print(f"  [{n['rule']}] {n['text']}" if n.get("rule") else f"  {n['text']}")
    check = data["after"]["check"]
    print(f"position after the combat: {'legal' if check['legal'] else 'NOT LEGAL'} (toolkit check)")
    for v in check["violations"]:
        print(f"  {v['message']}")


def add_moves(sub) -> None:
    """``toolkit moves POSITION UNIT``."""
    s = sub.add_parser("moves", help="legal moves of a unit or stack in a position")
    s.add_argument("position", help="position file (YAML)")
    s.add_argument("unit", help="unit id")
    s.add_argument("--game", help="your game's folder, for a position of your own game (its `game` is the id)")
    s.add_argument("--with", dest="with_units", nargs="*", default=[], metavar="UNIT",
                   help="other units moving together")
    s.add_argument("--pickup", nargs="*", default=[], metavar="UNIT", help="units a transport picks up first")
    s.add_argument("--terrorist", action="store_true", help="an Irgun / Stern Gang terrorist move (13.2)")
    s.add_argument("--enter", metavar="HEX", help="off-map units (reinforcements) enter at this map-edge hex")
    s.add_argument("--kind", help="the kind of movement, for games with several (No Prisoners: normal, strategic "
                                  "8.1, rail 8.8, amphibious 20.x; your game: its rules.yaml movement.kinds)")
    s.add_argument("--json", action="store_true")
    s.add_argument("--svg", metavar="OUT", help="draw the destinations with their costs (.svg or .png)")
    s.set_defaults(func="cmd_moves")


def add_check(sub) -> None:
    """``toolkit check POSITION|LOG``."""
    s = rules_parser(sub, "check", "every rule a position (or a VASSAL save) breaks, or every move of a VASSAL "
                                   "log (.vlog) checked (exit status 1 when any)", "cmd_check")
    s.add_argument("--turn-end", action="store_true", help="judge the position as the end of the player turn")


def add_victory(sub) -> None:
    """``toolkit victory POSITION``."""
    s = rules_parser(sub, "victory", "whether the victory conditions hold", "cmd_victory")
    s.add_argument("--road-cut-by", choices=["zoc", "zoc-or-unit"],
                   help="Jerusalem! 2.0: what cuts the road: Arab ZOC only (default, as the rule is written) or "
                        "also every hex holding an Arab unit (the stricter reading)")


def add_fire(sub) -> None:
    """``toolkit fire POSITION FIRER TARGET``."""
    s = rules_parser(sub, "fire", "may FIRER fire at TARGET: range, sight, spotters", "cmd_fire")
    s.add_argument("firer")
    s.add_argument("target")
    s.add_argument("--higher-terrain", choices=["higher-than-both", "higher-than-either"],
                   default="higher-than-both", help="the reading of 'higher terrain' in 10.7.1")


def add_odds(sub) -> None:
    """``toolkit odds POSITION --attack UNIT... --defend UNIT...``: every game's combat kinds."""
    s = rules_parser(sub, "odds", "combat odds, modifiers and kill chance", "cmd_odds")
    s.add_argument("--attack", nargs="+", required=True, metavar="UNIT")
    s.add_argument("--defend", nargs="*", default=None, metavar="UNIT",
                   help="the defending units (required, except for a Siege of Jerusalem Breach attack with --target)")
    s.add_argument("--target", metavar="HEX",
                   help="Siege of Jerusalem: the attacked hex, so a Breach attack needs no defending units (10.1)")
    s.add_argument("--level", choices=["both", "riders", "pushers"],
                   help="Siege of Jerusalem missile fire at a Tower hex: the level fired at (9.11)")
    s.add_argument("--fired-at", nargs="*", default=[], metavar="HEX",
                   help="Siege of Jerusalem: hexes already attacked on the same table this phase (9.6)")
    s.add_argument("--kind", choices=["attack", "first_fire", "barrage", "terrorist", "terrorist_battle", "melee",
                                      "missile", "breach"],
                   default="attack", help="Jerusalem!: attack, defensive first fire, artillery barrage, terrorist "
                                          "attack (13.2.4) or the terrorist battle going on (13.2.5); Siege of "
                                          "Jerusalem: melee (= attack), missile or breach")
    s.add_argument("--primary", choices=["infantry", "artillery"],
                   help="Siege of Jerusalem missile fire: the Primary Target type in a Ground hex (13.2)")
    s.add_argument("--protected", nargs="*", default=[], metavar="UNIT",
                   help="defenders declared protected by a fort, monastery or cathedral (9.6.3)")
    s.add_argument("--fired", nargs="*", default=[], metavar="UNIT",
                   help="defending halftracks/buses that fired defensively (9.11); Siege of Jerusalem: units that "
                        "already fired this phase (9.1)")
    s.add_argument("--attacked", nargs="*", default=[], metavar="UNIT",
                   help="first fire: the units the attack is aimed at (only their hexes first-fire, 9.4.2)")


def add_phase(sub) -> None:
    """``toolkit phase POSITION``."""
    rules_parser(sub, "phase", "the position's phase: what it allows and what the phasing player may do now "
                               "(game.yaml phases; the Siege 4.1-4.3)", "cmd_phase")


def add_combat(sub) -> None:
    """``toolkit combat POSITION --attack UNIT... --defend UNIT... [--roll N...] [--choose I...] [--seed S]``."""
    s = rules_parser(sub, "combat", "make one whole combat: the game's result for the rolls given (or drawn from "
                                    "--seed), every consequence applied with its rule, the position after (-o)",
                     "cmd_combat")
    s.add_argument("--attack", nargs="+", required=True, metavar="UNIT")
    s.add_argument("--defend", nargs="+", required=True, metavar="UNIT")
    s.add_argument("--kind", help="the kind of combat where the game has several (Jerusalem!: barrage, first_fire, "
                                  "terrorist; No Prisoners: rcrt, mocrt; the Siege: melee, missile); default the "
                                  "phase's own")
    s.add_argument("--roll", nargs="+", type=int, default=[], metavar="N", help="the dice thrown, in order")
    s.add_argument("--choose", nargs="+", type=int, default=[], metavar="I",
                   help="each choice the result gives, by the number of the option (the error lists them)")
    s.add_argument("--seed", type=int, help="draw the rolls and choices from this seed instead")
    s.add_argument("-o", "--output", metavar="POSITION.yaml", help="write the position after the combat")


PARSERS = {"moves": add_moves, "check": add_check, "victory": add_victory, "fire": add_fire, "odds": add_odds,
           "phase": add_phase, "combat": add_combat}
