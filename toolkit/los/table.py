"""A growing cache of segment contacts, shared by every viewer of a grid.

Contacts depend only on the offset between viewer and target, so the table
is keyed by offset: a one-to-all query from any hex reuses every offset an
earlier query already classified.  Entries live in one CSR layout so a query
gathers all its segments with a handful of numpy operations.
"""
from __future__ import annotations

import numpy as np

from ..hexgrid import Grid
from .contacts import ContactTable, classify_offsets

_FIELDS = ("dq", "dr", "kind", "side", "pdq", "pdr", "lo", "hi", "cell", "pcell")


class OffsetTable:
    """Contacts of every segment between two hexes of ``grid``, built lazily.

    ``cell`` and ``pcell`` are the entry's hex and partner hex as flat offsets
    ``dq * stride + dr``, ready to index a caller's flattened hex arrays.
    """

    def __init__(self, grid: Grid, stride: int):
        self.stride = stride
        qs = [h.q for h in grid.hex_list]
        rs = [h.r for h in grid.hex_list]
        self.q_span = max(qs) - min(qs)
        self.r_span = max(rs) - min(rs)
        shape = (2 * self.q_span + 1, 2 * self.r_span + 1)
        self._slot = np.full(shape, -1, dtype=np.int64)
        self.indptr = np.zeros(1, dtype=np.int64)
        self.scale = np.zeros(0, dtype=np.int64)
        for name in _FIELDS:
            setattr(self, name, np.zeros(0, dtype=np.int8 if name in ("kind", "side") else np.int64))

    def __len__(self) -> int:
        return len(self.scale)

    def slots(self, offsets: np.ndarray) -> np.ndarray:
        """Slot numbers of the given ``(n, 2)`` offsets, classifying new ones first."""
        iq = offsets[:, 0] + self.q_span
        ir = offsets[:, 1] + self.r_span
        found = self._slot[iq, ir]
        missing = found < 0
        if missing.any():
            new = np.unique(offsets[missing], axis=0)
            self._append(classify_offsets(new))
            self._slot[new[:, 0] + self.q_span, new[:, 1] + self.r_span] = np.arange(
                len(self) - len(new), len(self))
            found = self._slot[iq, ir]
        return found

    def _append(self, t: ContactTable) -> None:
        base = self.indptr[-1]
        self.indptr = np.concatenate([self.indptr, t.indptr[1:] + base])
        self.scale = np.concatenate([self.scale, t.scale])
        cols = {name: getattr(t, name) for name in _FIELDS[:-2]}
        cols["cell"] = t.dq * self.stride + t.dr
        cols["pcell"] = t.pdq * self.stride + t.pdr
        for name, col in cols.items():
            old = getattr(self, name)
            setattr(self, name, np.concatenate([old, col.astype(old.dtype)]))

    def gather(self, slots: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Entry indices of the given slots, concatenated, and the position of each entry's slot."""
        starts = self.indptr[slots]
        counts = self.indptr[slots + 1] - starts
        owner = np.repeat(np.arange(len(slots)), counts)
        first = np.cumsum(counts) - counts
        entries = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(first - starts, counts)
        return entries, owner
