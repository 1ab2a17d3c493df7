"""Draw a compiled map, with overlays, as SVG or PNG.

One backend-neutral scene (:mod:`.scene`), two serialisers (:mod:`.svg`,
:mod:`.png`).  Files are written atomically: a temporary file in the target
directory, then :func:`os.replace`.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

from ..fileio import write_atomic
from ..mapdata.compiled import CompiledMap
from .png import png_transform, rasterise, render_png
from .scene import (Arrow, Circle, Highlight, LosOverlay, Overlay, PathOverlay, Polygon, Polyline, Scene, Text,
                    build_scene)
from .svg import render_svg, scene_to_svg

__all__ = [
    "Arrow", "Circle", "Highlight", "LosOverlay", "Overlay", "PathOverlay", "Polygon", "Polyline", "Scene", "Text",
    "build_scene", "png_transform", "rasterise", "render_png", "render_svg", "scene_to_svg", "write_image",
    "write_png", "write_svg",
]

SUFFIXES = (".svg", ".png")


def write_svg(path: str | os.PathLike[str], cmap: CompiledMap, overlays: Sequence[Overlay] = (), **opts) -> Path:
    """Write :func:`render_svg` output to ``path`` (UTF-8); ``opts`` as for :func:`render_svg`.  Returns the path."""
    text = render_svg(cmap, overlays, **opts)
    return write_atomic(path, text)


def write_png(path: str | os.PathLike[str], cmap: CompiledMap, width_px: int | None = None,
              overlays: Sequence[Overlay] = (), **opts) -> Path:
    """Write :func:`render_png` output to ``path``; ``opts`` as for :func:`render_png`.  Returns the path."""
    image = render_png(cmap, width_px, overlays, **opts)
    return write_atomic(path, lambda f: image.save(f, format="PNG"))


def write_image(path: str | os.PathLike[str], cmap: CompiledMap, overlays: Sequence[Overlay] = (),
                width_px: int | None = None, **opts) -> Path:
    """Write SVG or PNG, chosen by the suffix of ``path``, ``width_px`` wide (default: 80 px per hex)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".svg":
        return write_svg(path, cmap, overlays, width_px=width_px, **opts)
    if suffix == ".png":
        return write_png(path, cmap, width_px, overlays, **opts)
    raise ValueError(f"cannot write {os.fspath(path)!r}: unsupported suffix {suffix or '(none)'!r}; "
                     f"supported: {', '.join(SUFFIXES)}")
