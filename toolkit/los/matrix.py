"""Who sees whom on a whole map: a packed boolean matrix.

>>> from toolkit.mapdata import open_map
>>> m = visibility_matrix(open_map("example"), "touch")
>>> m.packed.dtype, m.packed.shape == (len(m.hexes), (len(m.hexes) + 7) // 8)
(dtype('uint8'), True)
>>> a, b = m.hexes[0], m.hexes[-1]
>>> m.sees(a, b) == m.sees(b, a)
True
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..hexgrid import Hex
from .engine import Convention, LosEngine, Obstacles


@dataclass(frozen=True)
class VisibilityMatrix:
    """``packed[i]`` holds row ``i`` as bits (``numpy.packbits`` order): bit ``j`` set when ``hexes[i]`` sees ``hexes[j]``.

    Rows and columns follow :attr:`hexes` (the map's hexes by ``q``, then
    ``r``; for flat-top maps that is the map's own column-by-column order).
    A hex always sees itself.  Memory: ``n * ceil(n / 8)`` bytes.
    """

    hexes: tuple[Hex, ...]
    packed: np.ndarray
    convention: Convention
    _index: dict = field(default_factory=dict, repr=False, compare=False)

    def index(self, h: Hex) -> int:
        """Row (and column) of a map hex; ValueError when it is not on the map."""
        if not self._index:
            self._index.update((x, i) for i, x in enumerate(self.hexes))
        try:
            return self._index[Hex(*h)]
        except KeyError:
            raise ValueError(f"hex {tuple(h)} is not on the map") from None

    def row(self, a: Hex) -> np.ndarray:
        """Boolean array over :attr:`hexes`: what ``a`` sees."""
        return np.unpackbits(self.packed[self.index(a)], count=len(self.hexes)).astype(bool)

    def column(self, b: Hex) -> np.ndarray:
        """Boolean array over :attr:`hexes`: who sees ``b``."""
        j = self.index(b)
        return (self.packed[:, j // 8] >> (7 - j % 8) & 1).astype(bool)

    def sees(self, a: Hex, b: Hex) -> bool:
        """Whether ``a`` sees ``b``."""
        j = self.index(b)
        return bool(self.packed[self.index(a), j // 8] >> (7 - j % 8) & 1)

    def dense(self) -> np.ndarray:
        """The whole matrix as ``n x n`` booleans (``n * n`` bytes)."""
        return np.unpackbits(self.packed, axis=1, count=len(self.hexes)).astype(bool)


def visibility_matrix(map_, convention: Convention | str | None = None, obstacles: Obstacles | None = None,
                      engine: LosEngine | None = None) -> VisibilityMatrix:
    """The visibility matrix of a whole map.

    ``map_`` is a compiled map, a bundled map id or a path to a ``map.yaml``;
    ``convention`` and ``obstacles`` default to the map's own ``los`` section.
    Under a symmetric convention (all three are: docs/line-of-sight.md) each
    pair is decided once and mirrored.
    """
    from ..mapdata import CompiledMap, open_map
    from .explain import map_obstacles

    cmap = map_ if isinstance(map_, CompiledMap) else open_map(str(map_) if isinstance(map_, Path) else map_)
    conv = Convention(convention or cmap.los.convention)
    obs = map_obstacles(cmap) if obstacles is None else obstacles
    return (engine or LosEngine(cmap.grid)).visibility_matrix(conv, obs)
