"""``toolkit supply``, ``place``, ``railhead``, ``command``, ``zoc``, ``control``, ``actions``, ``advance`` and
``retreat``: the rules assistant's answers about a position (each game's own calculators)."""
from __future__ import annotations

import argparse

from .common import draw_or_dump, game_command, print_json, rules_parser, write_position_data


def cmd_supply(args: argparse.Namespace) -> None:
    """Supply of every unit (or one side / one unit): in supply or not, the line hex by hex, the source."""
    from ..answers import supply_answer

    position, _ = game_command(args)
    data = supply_answer(position, args.side, args.unit)

    def layers(at):
        from ..render import Highlight, PathOverlay

        units = data["units"]
        cut = {at(u["cut"]["hex"]): "cut" for u in units if u.get("cut") and u["cut"].get("hex")}
        paths = [PathOverlay([at(h) for h in u["path"]], "#1f8f3f" if u["supplied"] else "#c0392b")
                 for u in units if len(u["path"]) > 1]
        return [Highlight(cut, "#e74c3c"), *paths]
    if draw_or_dump(args, position, data, layers):
        return
    for u in data["units"]:
        if u["supplied"]:
            src = u["source"]
            print(f"  {u['unit']:16} {u['hex'] or 'off-map'}  in supply from {src['kind']} {src.get('hex') or ''} "
                  f"via {' '.join(u['path'])}" + (f" ({u['rule']})" if src['kind'] == "always" else ""))
        else:
            cut = u.get("cut") or {}
            print(f"  {u['unit']:16} {u['hex']}  OUT OF SUPPLY: {cut.get('reason', '')} ({cut.get('rule', '')})")


def cmd_command(args: argparse.Namespace) -> None:
    """Command radius of every HQ and the units in command."""
    from ..answers import command_answer

    position, _ = game_command(args)
    data = command_answer(position)

    def layers(at):
        from ..render import Highlight

        marks = {at(h): None for hq in data["hqs"] for h in hq["hexes"]} | {at(hq["hex"]): "HQ" for hq in data["hqs"]}
        return [Highlight(marks, "#9b59b6")]
    if draw_or_dump(args, position, data, layers):
        return
    if not data["hqs"]:
        print("no HQ on the map")
    for hq in data["hqs"]:
        units = ", ".join(hq.get("units", [])) or "none"
        sector = f" ({hq['sector']})" if hq.get("sector") else ""
        print(f"{hq['hq']} at {hq['hex']}, radius {hq['radius']}{sector}: in command: {units}")
    for out in data.get("out_of_command", []):
        print(f"  {out['unit']} at {out['hex']}: OUT OF COMMAND: {out['reason']} ({out['rule']})")


def cmd_zoc(args: argparse.Namespace) -> None:
    """The hexes in the ZOC of a side's units, each with the units exerting it and the rule (every game)."""
    from ..answers import zoc_answer

    position, _ = game_command(args)
    data = zoc_answer(position, args.side)

    def layers(at):
        from ..render import Highlight

        return [Highlight({at(h["hex"]): str(len(h["units"])) for h in data["hexes"]}, "#d35400")]
    if draw_or_dump(args, position, data, layers):
        return
    print(f"{len(data['hexes'])} hexes in the ZOC of the {args.side} units:")
    for h in data["hexes"]:
        print(f"  {h['hex']}  {', '.join(h['units'])} ({h['rule']})")


def cmd_control(args: argparse.Namespace) -> None:
    """Who holds each city area and wall, whether the Assault Period may end, where a Breach may be opened."""
    position, rules = game_command(args)
    data = rules.control_json(rules.control(position))

    def layers(at):
        from ..render import Highlight

        return [Highlight({at(h): "B" for h in data["breach_sites"]}, "#1f8f3f"),
                Highlight({at(h): "x" for h in data["breach_refused"]}, "#c0392b")]
    if draw_or_dump(args, position, data, layers):
        return
    ap = data["assault_period"]
    light = "night" if ap["night"] else "daylight"
    print(f"Assault Period {ap['period']}, turn {ap['turn']} of at most {ap['last_turn']} ({light}), judged "
          f"{ap['judged']} (18.1)")
    ends = "must end after this Jewish Melee Phase" if ap["must_end"] else (
        "may end alone: " + "; ".join(ap["roman_may_end_because"]) if ap["roman_may_end"] else
        "may end only by agreement")
    print(f"  the Roman {ends}" + ("; he may extend it by up to three night turns" if ap["may_extend"] else ""))
    people = {"roman": "the Romans", "jewish": "the Jews"}
    for a in data["areas"]:
        lack = "" if a["holder"] == "roman" else f"; the Romans lack {' and '.join(a['roman']['lacking'])}"
        print(f"  {a['area']}: {people[a['holder']]} ({a['rule']}; {people[a['held_by']]} held it before){lack}")
    print(f"  19.7: a Breach may be opened in {len(data['breach_sites'])} Roman wall hexes"
          + (f", not in {len(data['breach_refused'])} within two hexes of a Jewish one" if data["breach_refused"]
             else ""))


def cmd_actions(args: argparse.Namespace) -> None:
    """The Siege of Jerusalem: forming or disbanding a Testudo, placing or withdrawing a Ladder, legal or why not."""
    from ..answers import require_units

    position, rules = game_command(args)
    require_units(position, args.position, args.units)
    data = rules.actions_json(position, rules.actions(position, args.units))
    if args.json:
        print_json(data)
        return
    print(f"{', '.join(data['units'])} in {data['hex'] or 'no hex'}:")
    for a in data["actions"]:
        why = "legal" if a["legal"] else f"no: {a['refused']['reason']} ({a['refused']['rule']})"
        print(f"  {a['action']:16} {a['mf']:g} MF ({a['rule']}): {why}")


def cmd_advance(args: argparse.Namespace) -> None:
    """The Siege of Jerusalem: where the victorious attackers may advance after combat (11.86, 11.9)."""
    from ..answers import require_units

    position, rules = game_command(args)
    require_units(position, args.position, args.attackers + args.defenders)
    data = rules.advances(position, args.attackers, args.hex, args.excess, args.defenders)

    def layers(at):
        from ..render import Highlight

        return [Highlight({at(d["hex"]): str(d["steps"]) for u in data["units"].values()
                           for d in u["destinations"]}, "#1f8f3f")]
    if draw_or_dump(args, position, data, layers):
        return
    if data.get("refused"):
        print(f"no advance into {data['vacated']}: {data['refused']['reason']} ({data['refused']['rule']})")
        return
    print(f"advance after combat into {data['vacated']} ({data['rule']}), {data['excess_e']} hexes beyond:")
    for uid, row in data["units"].items():
        if row["refused"]:
            print(f"  {uid}: stays ({row['refused']['reason']}, {row['refused']['rule']})")
        else:
            beyond = row.get("beyond")
            print(f"  {uid}: {' '.join(d['hex'] for d in row['destinations'])}"
                  + (f"; no further: {beyond['reason']} ({beyond['rule']})" if beyond else ""))


def cmd_retreat(args: argparse.Namespace) -> None:
    """Apply a combat result: each unit's legal retreats (or why it is eliminated or stays), the position after."""
    from ..answers import retreat_answer

    if args.output and args.apply is None:
        raise ValueError("-o: give --apply (the retreat hexes, or none for units with one) to write the position "
                         "after the result")
    position, _ = game_command(args)
    data = retreat_answer(position, args.units, args.from_attack_hex, args.attackers or (), args.hexes, args.result,
                          args.apply)
    if args.output:
        write_position_data(args.output, data["after"]["position"])

    def layers(at):
        from ..render import Highlight

        return [Highlight({at(d["hex"]): f"{d['cost']:g}" for u in data["units"] for d in u["destinations"]},
                          "#1f8f3f"),
                Highlight({at(u["from"]): "x" for u in data["units"] if u["eliminated"] and u["from"]}, "#c0392b")]
    if draw_or_dump(args, position, data, layers):
        return
    print(f"result {data['result']}:" if data["result"] else f"a retreat of {args.hexes} hex(es):")
    for u in data["units"]:
        _print_unit_result(u)
    if "after" in data:
        verdict = "legal" if data["after"]["check"]["legal"] else "NOT LEGAL"
        print(f"position after the result: {verdict} (toolkit check)")
        for v in data["after"]["check"]["violations"]:
            print(f"  {v['message']}")


def _print_unit_result(u: dict) -> None:
    """One unit of ``toolkit retreat``: what the result does to it, with the rule of each restriction."""
    where = f"{u['unit']} in {u['from'] or 'no hex'}"
    for key in ("flipped", "note"):
        if u[key]:
            print(f"  {where}: {u[key]['reason']} ({u[key]['rule']})")
    if u["eliminated"]:
        print(f"  {where}: ELIMINATED: {u['eliminated']['reason']} ({u['eliminated']['rule']})")
    elif u["stays"]:
        print(f"  {where}: stays: {u['stays']['reason']} ({u['stays']['rule']})")
    if u["retreat"] and not u["eliminated"]:
        r = u["retreat"]
        length = f"{r['most']:g} MF" if r["unit_of_length"] == "mf" else (
            f"{r['least']}-{r['most']} hexes" if r["least"] != r["most"] else f"{r['most']} hex(es)")
        print(f"  {where}: retreats {length} ({r['rule']}):")
        for d in u["destinations"]:
            fate = (f", then eliminated: {d['eliminated']['reason']} ({d['eliminated']['rule']})"
                    if d["eliminated"] else f", then {', '.join(d['flags'])}" if u["last_resorts"] else "")
            print(f"    {d['hex']}  via {' '.join(d['path'][1:-1]) or '-'}{fate}")
    if u["retreat"]:
        for x in u["refused"]:
            print(f"    not {x['hex']}: {x['reason']} ({x['rule']})")


def cmd_railhead(args: argparse.Namespace) -> None:
    """Where the Allied railhead marker may be placed or moved now (No Prisoners 16.2)."""
    position, rules = game_command(args)
    data = rules.railhead_json(rules.railhead_options(position), position)

    def layers(at):
        from ..render import Highlight, PathOverlay

        marks = {at(h): None for h in data["hexes"]} | {at(h): "no" for h in data["blocked"]}
        return [Highlight(marks, "#c0392b"),
                *(PathOverlay([at(h) for h in p], "#1f8f3f") for p in data["hexes"].values() if len(p) > 1)]
    if draw_or_dump(args, position, data, layers):
        return
    print(f"{data['reason']} ({data['rule']})")
    sup = data["supply"]
    if sup and sup["supplied"]:
        print(f"  in supply from {sup['source']['kind']} {sup['source']['hex']} via {' '.join(sup['path'])} "
              f"({sup['rule']})")
    elif sup:
        print(f"  out of supply: {sup['cut']['reason']} ({sup['cut']['rule']})")
    for h, p in data["hexes"].items():
        print(f"  {h}" + (f"  via {' '.join(p)}" if len(p) > 1 else ""))
    for h, why in data["blocked"].items():
        print(f"  not {h}: {why['reason']} ({why['rule']})")


def cmd_place(args: argparse.Namespace) -> None:
    """Where off-map units may be placed as reinforcements now (No Prisoners 6.x, 18.4)."""
    position, rules = game_command(args)
    data = rules.placement_json([rules.placement(position, u) for u in args.units], position)

    def layers(at):
        from ..render import Highlight

        units = data["units"]
        marks = {at(h): None for u in units for h in u["hexes"]} | {at(h): "no" for u in units for h in u["blocked"]}
        return [Highlight(marks, "#2471a3")]
    if draw_or_dump(args, position, data, layers):
        return
    for u in data["units"]:
        if u["refused"]:
            print(f"{u['unit']}: may not be placed: {u['refused']['reason']} ({u['refused']['rule']})")
        else:
            print(f"{u['unit']}: {len(u['hexes'])} hexes ({u['rule']}): {' '.join(u['hexes'])}")
        for h, why in u["blocked"].items():
            print(f"  not {h}: {why['reason']} ({why['rule']})")


def add_supply(sub) -> None:
    """``toolkit supply POSITION``."""
    s = rules_parser(sub, "supply", "supply lines of every unit (No Prisoners 15.x; your game: rules.yaml supply)",
                     "cmd_supply", svg="draw every line (green in supply, red cut)")
    s.add_argument("--side")
    s.add_argument("--unit")


def add_place(sub) -> None:
    """``toolkit place POSITION UNIT...``."""
    s = rules_parser(sub, "place", "where off-map units may be placed as reinforcements (No Prisoners 6.x, 18.4; "
                                   "your game: rules.yaml reinforcements)", "cmd_place", svg="draw the hexes")
    s.add_argument("units", nargs="+", metavar="UNIT", help="unit ids in a box of the position")


def add_railhead(sub) -> None:
    """``toolkit railhead POSITION``."""
    rules_parser(sub, "railhead", "where the Allied railhead may be placed or moved (No Prisoners 16.2)",
                 "cmd_railhead", svg="draw the hexes and paths")


def add_command(sub) -> None:
    """``toolkit command POSITION``."""
    rules_parser(sub, "command", "HQ command radii and the units in command (No Prisoners 7.x)", "cmd_command",
                 svg="draw every HQ's command radius")


def add_zoc(sub) -> None:
    """``toolkit zoc POSITION --side SIDE``."""
    s = rules_parser(sub, "zoc", "the hexes in the ZOC of a side's units, with the units and rule (Jerusalem! "
                                 "4.x, No Prisoners 10.1, the Siege 7.1-7.2; your game: rules.yaml zoc)", "cmd_zoc",
                     svg="draw the hexes (each with the number of units exerting ZOC)")
    s.add_argument("--side", required=True, help="the side whose ZOC is asked")


def add_control(sub) -> None:
    """``toolkit control POSITION`` (the Siege)."""
    rules_parser(sub, "control", "Siege of Jerusalem: who holds each city area and wall, whether the Assault "
                                 "Period may end, where a Breach may be opened (18.1, 18.3x, 19.7)", "cmd_control",
                 svg="draw the 19.7 Breach sites (B) and the refused ones (x)")


def add_actions(sub) -> None:
    """``toolkit actions POSITION UNIT...`` (the Siege)."""
    s = rules_parser(sub, "actions", "Siege of Jerusalem: form or disband a Testudo, place or withdraw a Ladder "
                                     "(6.5, 6.6, 8.7, 8.8): each legal, or why not", "cmd_actions")
    s.add_argument("units", nargs="+", metavar="UNIT", help="the units acting together, in one hex")


def add_advance(sub) -> None:
    """``toolkit advance POSITION --attackers UNIT... --hex HEX`` (the Siege)."""
    s = rules_parser(sub, "advance", "Siege of Jerusalem: where victorious attackers may advance after combat "
                                     "(11.86, 11.9)", "cmd_advance", svg="draw the destinations")
    s.add_argument("--attackers", nargs="+", required=True, metavar="UNIT")
    s.add_argument("--hex", required=True, help="the hex the defenders vacated")
    s.add_argument("--excess", type=int, default=0, metavar="N",
                   help="further hexes: one per E result that eliminated no one (11.86)")
    s.add_argument("--defenders", nargs="*", default=[], metavar="UNIT",
                   help="defenders still shown in the hex, to take off first (they retreated or died)")


def add_retreat(sub) -> None:
    """``toolkit retreat POSITION --units UNIT... (--from-attack-hex HEX | --attackers UNIT...) (--result CODE |
    --hexes N)``."""
    s = rules_parser(sub, "retreat", "apply a combat result: each unit's legal retreats with the rule of every "
                                     "restriction, or why it is eliminated, and the position after (--apply)",
                     "cmd_retreat", svg="draw the destinations (and x where a unit is eliminated)")
    s.add_argument("--units", nargs="+", required=True, metavar="UNIT",
                   help="the units of one side the result affects (the Siege: in the order of the code's letters)")
    enemy = s.add_mutually_exclusive_group(required=True)
    enemy.add_argument("--from-attack-hex", metavar="HEX", help="the hex the enemy attacked from (for the "
                                                                "attacker's own retreat: the defenders' hex)")
    enemy.add_argument("--attackers", nargs="+", metavar="UNIT", help="the enemy units of the combat")
    s.add_argument("--result", metavar="CODE", help="the combat result, a code of the game's table (AR, DR, B, "
                                                    "D, K ...)")
    s.add_argument("--hexes", type=int, metavar="N", help="instead of --result: a retreat of N hexes")
    s.add_argument("--apply", nargs="*", metavar="HEX", help="apply the result: the hex each retreating unit goes "
                                                             "to, in their order (none for a unit with one)")
    s.add_argument("-o", "--output", metavar="POSITION.yaml", help="with --apply: write the position after")


PARSERS = {"supply": add_supply, "place": add_place, "railhead": add_railhead, "command": add_command,
           "zoc": add_zoc, "control": add_control, "actions": add_actions, "advance": add_advance,
           "retreat": add_retreat}
