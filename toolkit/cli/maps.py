"""``toolkit maps``, ``hex``, ``los``, ``seen`` and ``render``: the bundled maps, a hex, line of sight, pictures."""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from .common import LazyChoices, print_json, status_stream, verb

if TYPE_CHECKING:
    from ..mapdata import CompiledMap

MAX_RENDER_WIDTH = 20_000  # pixels of a PNG (render --width)


def _conventions() -> list[str]:
    """The line-of-sight conventions' names (``--convention``)."""
    from ..los.convention import Convention

    return [c.value for c in Convention]


def cmd_maps(args: argparse.Namespace) -> None:
    """List the bundled maps."""
    from ..mapdata import list_maps

    maps = list_maps()
    if args.json:
        print_json([{"id": i, "title": t, "path": str(p)} for i, t, p in maps])
        return
    for map_id, title, path in maps:
        print(f"{map_id:24} {title}  ({path})")


def cmd_hex(args: argparse.Namespace) -> None:
    """Describe one hex, given by name or by place name."""
    from ..answers import hex_json
    from ..game.module import open_user_map

    cmap = open_user_map(args.map)
    data = hex_json(cmap, args.hex)
    if args.json:
        print_json(data)
        return
    print(f"{data['hex']} on {cmap.title}" + (f" — {data['place']}" if data["place"] else ""))
    print(f"  terrain:   {', '.join(data['terrain'])}   elevation {data['elevation']}")
    if data["region"]:
        print(f"  region:    {data['region']}")
    if data["features"]:
        print(f"  features:  {', '.join(f'{k}={v}' for k, v in data['features'].items())}")
    print(f"  neighbors: {' '.join(data['neighbors'])}")
    for n, attrs in data["hexsides"].items():
        print(f"  hexside to {n}: {', '.join(f'{k}={v}' for k, v in attrs.items())}")


def los_all_json(cmap: CompiledMap, hex_text: str, convention: str | None, direction: str) -> dict[str, Any]:
    """Every hex a hex sees (``direction="from"``) or that sees it (``"to"``), with the map's obstacles (docs/cli.md)."""
    from ..los import SYMMETRIC, Convention, LosEngine
    from ..los.explain import map_obstacles

    h = cmap.resolve(hex_text)
    conv = Convention(convention or cmap.los.convention)
    obstacles = map_obstacles(cmap)
    engine = LosEngine(cmap.grid)
    if direction == "from" or conv in SYMMETRIC:
        vis = engine.visible_array(h, conv, obstacles)
    else:  # pragma: no cover - every convention is symmetric today
        vis = engine.visibility_matrix(conv, obstacles).column(h)
    names = [cmap.name(x) for x, v in zip(cmap.grid.hex_list, vis.tolist()) if x != h and v]
    hidden = [cmap.name(x) for x, v in zip(cmap.grid.hex_list, vis.tolist()) if x != h and not v]
    return {"map": cmap.id, ("from" if direction == "from" else "to"): cmap.name(h), "convention": conv.value,
            "rule": cmap.los.rule, "count": len(names), "of": len(names) + len(hidden), "visible": names,
            "hidden": hidden}


def _los_all(args: argparse.Namespace, cmap: CompiledMap, hex_text: str, direction: str) -> None:
    """``toolkit los MAP --from HEX --all`` and ``toolkit seen MAP HEX``: a list, JSON, a picture."""
    data = los_all_json(cmap, hex_text, args.convention, direction)
    h = cmap.resolve(hex_text)
    if args.svg:
        from ..render import Highlight, write_image

        overlays = [Highlight({cmap.resolve(x): None for x in data["hidden"]}, color="#202020"),
                    Highlight({cmap.resolve(x): None for x in data["visible"]}, color="#1a9a3a"),
                    Highlight({h: "◉" if direction == "from" else "◎"}, color="#ffcc00")]
        print(f"wrote {write_image(args.svg, cmap, overlays)}", file=sys.stderr)
    if args.json:
        print_json(data)
        return
    place = cmap.hexes[h].place
    label = f"{cmap.name(h)} ({place})" if place else cmap.name(h)
    direction_verb = "sees" if direction == "from" else "is seen from"
    rule = f"rule {data['rule']}, " if data["rule"] else ""
    print(f"{label} {direction_verb} {data['count']} of the {data['of']} other hexes ({rule}{data['convention']} "
          "convention):")
    for i in range(0, len(data["visible"]), 12):
        print("  " + " ".join(data["visible"][i:i + 12]))


def cmd_seen(args: argparse.Namespace) -> None:
    """Every hex that sees HEX, with the map's obstacles."""
    from ..game.module import open_user_map

    _los_all(args, open_user_map(args.map), args.hex, "to")


def cmd_los(args: argparse.Namespace) -> None:
    """Line of sight between two hexes: the map's obstacles, or with ``--position`` the game's spotting rules."""
    from ..answers import SightLine
    from ..game.module import open_user_map

    if args.all or args.from_hex:
        if args.all and not args.from_hex and len(args.places) == 2 and not args.position:
            args.places, args.from_hex = args.places[:1], args.places[1]  # `los MAP HEX --all` reads as --from HEX
        if not (args.all and args.from_hex) or len(args.places) != 1 or args.position:
            raise ValueError("give MAP --from HEX --all (every hex that HEX sees)")
        _los_all(args, open_user_map(args.places[0]), args.from_hex, "from")
        return
    if args.position:
        from .common import load_position

        if len(args.places) != 2:
            raise ValueError("with --position give FROM and TO only (the map is the position's)")
        sight = SightLine.in_position(load_position(args.position, args.game), *args.places)
    else:
        if len(args.places) != 3:
            raise ValueError("give MAP FROM TO (or --position POSITION FROM TO)")
        sight = SightLine.on_map(open_user_map(args.places[0]), *args.places[1:], args.convention)
    if args.svg:
        from ..render import write_image

        print(f"wrote {write_image(args.svg, sight.cmap, [sight.overlay()])}", file=sys.stderr)
    if args.json:
        print_json(sight.json())
    else:
        from ..los.explain import explain

        print("\n".join([explain(sight.cmap, sight.result), *sight.detail_lines()]))
        if sight.note:
            print(f"note: {sight.note}")


def cmd_render(args: argparse.Namespace) -> None:
    """Draw a map as SVG or PNG, optionally highlighting hexes."""
    from ..fileio import write_atomic
    from ..game.module import open_user_map, user_map_file
    from ..render import Highlight, write_image

    if args.width is not None and not 16 <= args.width <= MAX_RENDER_WIDTH:
        raise ValueError(f"--width {args.width}: give 16 to {MAX_RENDER_WIDTH} pixels")
    cmap = open_user_map(args.map)
    marks = {}
    for item in args.highlight:
        where, _, label = item.partition("=")
        marks[cmap.resolve(where)] = label or None
    overlays = [Highlight(marks)] if marks else []
    written_verb = verb(args.output)
    if cmap.board is not None and not args.no_board:   # an imported map: its grid over the board image
        from ..render.onboard import board_image_path, render_on_board

        if not args.output.lower().endswith(".png") or args.width is not None:
            raise ValueError(f"{args.output}: an imported map is drawn over its board image as PNG at the board's "
                             "own size: give -o OUT.png without --width (or --no-board for the plain map)")
        image = render_on_board(cmap, board_image_path(cmap, user_map_file(args.map)), set(marks))
        written = write_atomic(args.output, lambda f: image.save(f, format="PNG"))
    else:
        written = write_image(args.output, cmap, overlays, width_px=args.width)
    print(f"{written_verb} {written}" if written_verb == "replaced" else written, file=status_stream(args.output))


def add_maps(sub) -> None:
    """``toolkit maps``."""
    s = sub.add_parser("maps", help="list the bundled maps")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func="cmd_maps")


def add_hex(sub) -> None:
    """``toolkit hex MAP HEX``."""
    s = sub.add_parser("hex", help="a hex's attributes, neighbours and hexside features")
    s.add_argument("map", help="bundled map id, path to a map.yaml, or a game folder")
    s.add_argument("hex", help="hex name (e.g. 0507, QQ36) or place name")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func="cmd_hex")


def add_los(sub) -> None:
    """``toolkit los``: two hexes, or one hex to every hex."""
    s = sub.add_parser("los", help="line of sight between two hexes, or from one hex to every hex",
                       usage="toolkit los [MAP] FROM TO [--position POSITION] [--convention C] [--json] [--svg OUT]"
                             "\n       toolkit los MAP --from HEX --all [--convention C] [--json] [--svg OUT]")
    s.add_argument("places", nargs="+", metavar="MAP FROM TO",
                   help="a map and two hexes or places; with --position, the two hexes only; with --all, the map")
    s.add_argument("--from", dest="from_hex", metavar="HEX", help="with --all: the viewer's hex or place")
    s.add_argument("--all", action="store_true", help="every hex the --from hex sees (list, --json, --svg picture)")
    s.add_argument("--position", help="apply this position's game spotting rules (e.g. Jerusalem! 10.7)")
    s.add_argument("--game", help="with --position: your game's folder, for a position of your own game")
    s.add_argument("--convention", choices=LazyChoices(_conventions), help="default: the map's own convention")
    s.add_argument("--json", action="store_true")
    s.add_argument("--svg", metavar="OUT", help="also draw the line on the map (.svg or .png)")
    s.set_defaults(func="cmd_los")


def add_seen(sub) -> None:
    """``toolkit seen MAP HEX``."""
    s = sub.add_parser("seen", help="every hex that sees HEX (the map's obstacles and convention)")
    s.add_argument("map", help="bundled map id, path to a map.yaml, or a game folder")
    s.add_argument("hex", help="hex name or place name")
    s.add_argument("--convention", choices=LazyChoices(_conventions), help="default: the map's own convention")
    s.add_argument("--json", action="store_true")
    s.add_argument("--svg", metavar="OUT", help="also draw it: seeing hexes green, the others dark (.svg or .png)")
    s.set_defaults(func="cmd_seen")


def add_render(sub) -> None:
    """``toolkit render MAP -o OUT``."""
    s = sub.add_parser("render", help="draw a map as SVG or PNG")
    s.add_argument("map", help="bundled map id, path to a map.yaml, or a game folder")
    s.add_argument("-o", "--output", required=True, help="OUT.svg or OUT.png")
    s.add_argument("--highlight", nargs="*", default=[], metavar="HEX[=LABEL]",
                   help="hexes (or places) to highlight, each optionally with a label such as an MP cost")
    s.add_argument("--width", type=int, help="PNG width in pixels (default 80 px per hex)")
    s.add_argument("--no-board", action="store_true",
                   help="an imported map: draw the map itself, not its grid over the board image")
    s.set_defaults(func="cmd_render")


PARSERS = {"maps": add_maps, "hex": add_hex, "los": add_los, "seen": add_seen, "render": add_render}
