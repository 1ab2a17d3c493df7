"""Drawing style shared by the scene builder: sizes, colours, shading.

Lengths here are in *style units*.  :func:`toolkit.render.scene.build_scene`
turns them into map units with its ``scale`` (by default a hex's
centre-to-corner ``size`` is :data:`HEX_RADIUS` style units), so a map looks
the same whatever unit its layout is written in.  Feature widths and dash
patterns of the map's vocabulary are read in the same style units.
"""
from __future__ import annotations

from PIL import ImageColor

#: Style units from a hex centre to its corners.
HEX_RADIUS = 30.0
#: Default image size: pixels between adjacent hex centres.
DEFAULT_PIXELS_PER_HEX = 80.0

BACKGROUND = "#ffffff"
DEFAULT_TERRAIN = "#f2efe2"
INK = "#222222"
HALO = "#ffffff"

OUTLINE_COLOR = "#8a8a8a"
OUTLINE_WIDTH = 0.8
INSET_FACTORS = (0.5, 0.33, 0.2)  # sizes of successive non-base terrain insets, as fractions of the hex
INSET_OUTLINE_WIDTH = 0.8
ELEVATION_SHADE = 0.1  # darkening per level above 0 (lightening per level below)

NAME_SIZE = 6.5
NAME_COLOR = "#3d3d3d"
NAME_HALO = 2.0  # halo width of hex names: they are drawn over roads and railways
NAME_HALO_LIGHTEN = 1.6  # the halo is the hex's colour lightened by this factor (see shade)
ELEVATION_SIZE = 6.5
ELEVATION_COLOR = "#6b4a1f"
PLACE_SIZE = 8.5
PLACE_HALO = 2.2
TITLE_SIZE = 18.0
MARGIN = 15.0  # style units of blank border around the hexes
TITLE_BAND = 30.0

HIGHLIGHT_OPACITY = 0.5
HIGHLIGHT_TEXT_SIZE = 16.0
PATH_WIDTH = 3.0
PATH_HEAD = 10.0
PATH_OPACITY = 0.9
PATH_DOT = 3.5
LOS_VISIBLE = "#0a9a2a"
LOS_BLOCKED = "#e01010"
LOS_WIDTH = 2.5
LOS_DOT = 3.0
LOS_MARK = 6.0
LOS_BLOCKING_WIDTH = 3.5
LOS_TOUCHED = "#2a5fd0"
LOS_TOUCHED_WIDTH = 1.4


def shade(color: str, factor: float) -> str:
    """``color`` darkened (``factor`` < 1) or lightened towards white (``factor`` > 1), as ``#rrggbb``.

    >>> shade("#808080", 0.5), shade("#808080", 1.5)
    ('#404040', '#c0c0c0')
    """
    rgb = ImageColor.getrgb(color)[:3]
    if factor <= 1:
        out = [round(c * factor) for c in rgb]
    else:
        out = [round(c + (255 - c) * (factor - 1)) for c in rgb]
    return "#" + "".join(f"{max(0, min(255, c)):02x}" for c in out)


def elevation_color(color: str, elevation: int) -> str:
    """A terrain colour shaded for its elevation: darker per level up, lighter per level down."""
    if elevation >= 0:
        return shade(color, max(0.35, 1 - ELEVATION_SHADE * elevation))
    return shade(color, min(1.6, 1 - ELEVATION_SHADE * elevation))
