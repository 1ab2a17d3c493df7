"""Regenerate the committed map sources from public data and hand tables.

    python scripts/build_maps.py [MAP_ID ...]      # default: every map

Each map has a builder module in ``scripts/mapbuild/`` exposing ``MAP_ID`` and
``build(maps_dir) -> Path``.  Public data (``scripts/mapbuild/sources.py``) is
read at build time only; install it with ``pip install -e '.[mapbuild]'``.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

BUILDERS = ("jerusalem_1948", "siege_of_jerusalem", "no_prisoners")


def main(argv: list[str] | None = None) -> int:
    """Build the named maps (default all) into ``maps/``."""
    modules = {m.MAP_ID: m for m in (importlib.import_module(f"mapbuild.{name}") for name in BUILDERS
                                      if (ROOT / "scripts" / "mapbuild" / f"{name}.py").exists())}
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("maps", nargs="*", help=f"map ids (default: all of {', '.join(sorted(modules))})")
    args = p.parse_args(argv)
    unknown = set(args.maps) - set(modules)
    if unknown:
        p.error(f"unknown map id(s) {', '.join(sorted(unknown))}; expected: {', '.join(sorted(modules))}")
    for map_id in args.maps or sorted(modules):
        print(f"{map_id}: wrote {modules[map_id].build(ROOT / 'maps')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
