"""The ``toolkit`` command: wires maps, line of sight and rendering together.

Every sub-command's ``--json`` output is documented in ``docs/cli.md``.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence

from .hexgrid import HexNameError
from .los import Convention, LosEngine
from .los.explain import explain, map_obstacles, result_json
from .mapdata import CompiledMap, MapError, list_maps, map_json_schema, open_map
from .render import Highlight, LosOverlay, write_image


def _print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def cmd_maps(args: argparse.Namespace) -> None:
    """List the bundled maps."""
    maps = list_maps()
    if args.json:
        _print_json([{"id": i, "title": t, "path": str(p)} for i, t, p in maps])
        return
    for map_id, title, path in maps:
        print(f"{map_id:24} {title}  ({path})")


def hex_json(cmap: CompiledMap, text: str) -> dict[str, Any]:
    """The stable JSON description of one hex (see docs/cli.md)."""
    h = cmap.resolve(text)
    info = cmap.hexes[h]
    neighbors = [n for n in h.neighbors() if n in cmap.hexes]
    return {
        "map": cmap.id,
        "hex": cmap.name(h),
        "terrain": list(info.terrain),
        "elevation": info.elevation,
        "place": info.place,
        "region": info.region,
        "features": dict(info.features),
        "neighbors": [cmap.name(n) for n in neighbors],
        "hexsides": {cmap.name(n): dict(cmap.hexside(h, n)) for n in neighbors if cmap.hexside(h, n)},
    }


def cmd_hex(args: argparse.Namespace) -> None:
    """Describe one hex, given by name or by place name."""
    cmap = open_map(args.map)
    data = hex_json(cmap, args.hex)
    if args.json:
        _print_json(data)
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


def cmd_los(args: argparse.Namespace) -> None:
    """Line of sight between two hexes with the map's obstacles."""
    cmap = open_map(args.map)
    a, b = cmap.resolve(args.origin), cmap.resolve(args.target)
    convention = args.convention or cmap.los.convention
    result = LosEngine(cmap.grid).check(a, b, convention, map_obstacles(cmap), rule=cmap.los.rule)
    if args.svg:
        lay = cmap.grid.layout
        overlay = LosOverlay(lay.centre(a), lay.centre(b), result.visible, result.block_point,
                             list(result.blocked_by), [c.hex for c in result.touched])
        print(f"wrote {write_image(args.svg, cmap, [overlay])}", file=sys.stderr)
    if args.json:
        _print_json(result_json(cmap, result))
    else:
        print(explain(cmap, result))


def cmd_render(args: argparse.Namespace) -> None:
    """Draw a map as SVG or PNG, optionally highlighting hexes."""
    cmap = open_map(args.map)
    marks = {}
    for item in args.highlight:
        where, _, label = item.partition("=")
        marks[cmap.resolve(where)] = label or None
    overlays = [Highlight(marks)] if marks else []
    print(write_image(args.output, cmap, overlays, width_px=args.width))


def cmd_schema(args: argparse.Namespace) -> None:
    """Print the JSON Schema of a file format."""
    _print_json(map_json_schema())


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``toolkit`` command."""
    p = argparse.ArgumentParser(prog="toolkit", description="Hex-and-counter wargame toolkit.")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("maps", help="list the bundled maps")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_maps)

    s = sub.add_parser("hex", help="a hex's attributes, neighbours and hexside features")
    s.add_argument("map", help="bundled map id or path to a map.yaml")
    s.add_argument("hex", help="hex name (e.g. 0507, QQ36) or place name")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_hex)

    s = sub.add_parser("los", help="line of sight between two hexes")
    s.add_argument("map")
    s.add_argument("origin", metavar="FROM")
    s.add_argument("target", metavar="TO")
    s.add_argument("--convention", choices=[c.value for c in Convention],
                   help="default: the map's own convention")
    s.add_argument("--json", action="store_true")
    s.add_argument("--svg", metavar="OUT", help="also draw the line on the map (.svg or .png)")
    s.set_defaults(func=cmd_los)

    s = sub.add_parser("render", help="draw a map as SVG or PNG")
    s.add_argument("map")
    s.add_argument("-o", "--output", required=True, help="OUT.svg or OUT.png")
    s.add_argument("--highlight", nargs="*", default=[], metavar="HEX[=LABEL]",
                   help="hexes (or places) to highlight, each optionally with a label such as an MP cost")
    s.add_argument("--width", type=int, help="PNG width in pixels (default 80 px per hex)")
    s.set_defaults(func=cmd_render)

    s = sub.add_parser("schema", help="print the JSON Schema of a file format")
    s.add_argument("kind", choices=["map"])
    s.set_defaults(func=cmd_schema)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        args.func(args)
    except (MapError, HexNameError, ValueError) as err:
        print(f"toolkit: error: {err}", file=sys.stderr)
        return 2
    return 0
