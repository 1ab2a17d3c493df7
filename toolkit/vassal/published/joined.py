"""A map's boards that form one continuous hex grid, joined into one map file and one board image.

Several boards side by side (a BoardPicker's default setup of two or more
boards) are one map to the players when their hex grids continue each
other: the same spacing and orientation, offsets that continue the lattice,
and numberings that continue the names.  Such a map is joined when every
board's hex centre is named by the engine as the joined grid names that
point, and every hex centre of the joined grid on a board too (both looked
at, so a misaligned lattice or a restarted numbering keeps the boards
apart).  The boards must tile the rectangle they cover (no gap, no overlap):
the joined image is theirs side by side, reversed ones turned half round.
"""
from __future__ import annotations

import io
import math
import warnings
from dataclasses import dataclass, replace

from ..engine import vgrid

MAX_JOINED_PIXELS = 64_000_000   # a joined board image decoded in memory (RGBA: 256 MB)


@dataclass(frozen=True)
class JoinedMap:
    """The boards of a map joined: the board they make (its grid the joined one, in joined-image pixels),
    where that image starts on the map (the edge buffer), and the boards placed on the map."""

    board: vgrid.Board
    origin: tuple[int, int]
    placed: tuple[vgrid.PlacedBoard, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the boards joined."""
        return tuple(pb.board.name for pb in self.placed)

    def map_point(self, x: int, y: int) -> tuple[int, int]:
        """The map point of a joined-image pixel."""
        return x + self.origin[0], y + self.origin[1]

    def location_name(self, x: int, y: int) -> str:
        """The engine's name of a joined-image pixel (``Map.locationName`` of its map point)."""
        return vgrid.MapLayout("", self.placed).location_name(*self.map_point(x, y))


def shifted(grid: vgrid.HexGrid, x: int, y: int) -> vgrid.HexGrid:
    """A hex grid moved ``x``, ``y`` pixels (its origin is in the grid's frame: swapped when sideways)."""
    return replace(grid, x0=grid.x0 + (y if grid.sideways else x), y0=grid.y0 + (x if grid.sideways else y))


def centres(grid: vgrid.HexGrid, width: int, height: int) -> list[tuple[int, int]]:
    """The hex centres of a grid on a ``width`` x ``height`` board, rounded to pixels."""
    w, h = (height, width) if grid.sideways else (width, height)
    out = []
    for col in range(math.ceil(-grid.x0 / grid.dx), math.floor((w - 1 - grid.x0) / grid.dx) + 1):
        shift = grid.dy / 2 if col % 2 else 0
        for row in range(math.ceil((-grid.y0 - shift) / grid.dy), math.floor((h - 1 - grid.y0 - shift) / grid.dy) + 1):
            x, y = round(grid.x0 + col * grid.dx), round(grid.y0 + shift + row * grid.dy)
            if 0 <= x < w and 0 <= y < h:
                out.append((y, x) if grid.sideways else (x, y))
    return out


def _on_map(pb: vgrid.PlacedBoard, px: int, py: int) -> tuple[int, int]:
    """The map point of a board point (``PlacedBoard.local`` reversed)."""
    if pb.reversed:
        px, py = pb.board.width - px, pb.board.height - py
    return pb.x + px, pb.y + py


def _tiles(placed: list[vgrid.PlacedBoard]) -> tuple[int, int, int, int] | None:
    """The rectangle the boards cover, when they tile it (else None)."""
    x0, y0 = min(pb.x for pb in placed), min(pb.y for pb in placed)
    x1 = max(pb.x + pb.board.width for pb in placed)
    y1 = max(pb.y + pb.board.height for pb in placed)
    area = sum(pb.board.width * pb.board.height for pb in placed)
    overlap = any(a.x < b.x + b.board.width and b.x < a.x + a.board.width and a.y < b.y + b.board.height
                  and b.y < a.y + a.board.height for i, a in enumerate(placed) for b in placed[i + 1:])
    return None if overlap or area != (x1 - x0) * (y1 - y0) else (x0, y0, x1 - x0, y1 - y0)


def join(placed: list[tuple[vgrid.PlacedBoard, vgrid.HexGrid]], name: str) -> JoinedMap | None:
    """The boards of a map (each with the hex grid covering it) joined, or None when they are not one grid."""
    boards = [pb for pb, _ in placed]
    rect = _tiles(boards) if len(placed) > 1 else None
    ref = next(((pb, g) for pb, g in placed if not pb.reversed), None)
    if rect is None or ref is None or rect[2] * rect[3] > MAX_JOINED_PIXELS or \
            any((g.dx, g.dy, g.sideways) != (ref[1].dx, ref[1].dy, ref[1].sideways) for _, g in placed):
        return None
    grid = shifted(ref[1], ref[0].x - rect[0], ref[0].y - rect[1])
    joined = JoinedMap(vgrid.Board(name, rect[2], rect[3], "", grid), rect[:2], tuple(boards))
    return joined if _names_agree(joined, placed) else None


def _names_agree(joined: JoinedMap, placed: list[tuple[vgrid.PlacedBoard, vgrid.HexGrid]]) -> bool:
    """Whether every board's hex centres and the joined grid's are named alike by both."""
    grid, layout = joined.board.grid, vgrid.MapLayout("", joined.placed)
    grids = {id(pb): g for pb, g in placed}
    for pb, g in placed:
        for px, py in centres(g, pb.board.width, pb.board.height):
            mx, my = _on_map(pb, px, py)
            if grid.location_name(mx - joined.origin[0], my - joined.origin[1]) != g.location_name(px, py):
                return False
    for x, y in centres(grid, joined.board.width, joined.board.height):
        pb, local = layout.board_at(*joined.map_point(x, y))
        if grids[id(pb)].location_name(*local) != grid.location_name(x, y):
            return False
    return True


def joined_image(joined: JoinedMap, images: list[bytes]) -> bytes:
    """The joined board image (PNG): each board's image (in ``joined.placed`` order) where the map lays it."""
    from PIL import Image

    canvas = Image.new("RGBA", (joined.board.width, joined.board.height), (255, 255, 255, 255))
    for pb, data in zip(joined.placed, images):
        if not data:
            continue
        with warnings.catch_warnings():   # the sizes were checked against MAX_JOINED_PIXELS
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                tile = img.convert("RGBA")
        canvas.paste(tile.rotate(180) if pb.reversed else tile, (pb.x - joined.origin[0], pb.y - joined.origin[1]))
    out = io.BytesIO()
    canvas.save(out, "PNG")
    return out.getvalue()
