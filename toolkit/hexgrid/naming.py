"""Hex naming schemes, chosen by the map file.

* :class:`CCRR` -- the four-digit column-then-row names of most hex-and-counter
  maps.  Columns (flat-top) or rows (pointy-top) alternate; ``shifted`` says
  whether the *odd* or the *even* ones sit half a hex lower (flat) or further
  right (pointy).
* :class:`Diagonal` -- The Siege of Jerusalem (rule 2.14): letters A..Z then
  AA..ZZ for the columns west to east, numbers read along the diagonal hex
  line.  This is exactly an axial grid: ``q`` is the letter index, ``r`` the
  number.

Both convert between names, axial hexes and *offset* ``(column, row)`` pairs,
the rectangle in which a map's extent is given.

>>> s = CCRR(orientation="flat", shifted="odd")
>>> s.name(s.from_offset(5, 7)), s.parse("0507") == s.from_offset(5, 7)
('0507', True)
>>> d = Diagonal()
>>> d.parse("QQ36"), d.name(Hex(42, 36))
(Hex(q=42, r=36), 'QQ36')
"""
from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Literal

from .coords import Hex

Parity = Literal["odd", "even"]


class HexNameError(ValueError):
    """A string that is not a hex name under the map's scheme."""


def _offset_to_axial(orientation: str, shifted: Parity, col: int, row: int) -> Hex:
    k = 1 if shifted == "even" else 0
    if orientation == "flat":
        return Hex(col, row - (col + k) // 2)
    return Hex(col - (row + k) // 2, row)


def _axial_to_offset(orientation: str, shifted: Parity, h: Hex) -> tuple[int, int]:
    k = 1 if shifted == "even" else 0
    if orientation == "flat":
        return h.q, h.r + (h.q + k) // 2
    return h.q + (h.r + k) // 2, h.r


@dataclass(frozen=True)
class CCRR:
    """Column-then-row names with leading zeros (``0507``: column 5, row 7)."""

    orientation: Literal["flat", "pointy"] = "flat"
    shifted: Parity = "odd"
    digits: int = 2

    def from_offset(self, col: int, row: int) -> Hex:
        """The axial hex at printed column ``col`` and row ``row``."""
        return _offset_to_axial(self.orientation, self.shifted, col, row)

    def to_offset(self, h: Hex) -> tuple[int, int]:
        """The printed (column, row) of an axial hex."""
        return _axial_to_offset(self.orientation, self.shifted, h)

    def name(self, h: Hex) -> str:
        """The printed name of a hex."""
        col, row = self.to_offset(h)
        if col < 0 or row < 0 or col >= 10**self.digits or row >= 10**self.digits:
            raise HexNameError(f"hex {tuple(h)} has no {2 * self.digits}-digit name")
        return f"{col:0{self.digits}d}{row:0{self.digits}d}"

    def parse(self, name: str) -> Hex:
        """The axial hex of a printed name; raises :class:`HexNameError`."""
        d = self.digits
        if not re.fullmatch(rf"\d{{{2 * d}}}", name.strip()):
            raise HexNameError(f"{name!r} is not a hex name: expected {2 * d} digits, column then row (e.g. {'05'.zfill(d)}{'07'.zfill(d)})")
        text = name.strip()
        return self.from_offset(int(text[:d]), int(text[d:]))


def column_letters(index: int) -> str:
    """Column letters of rule 2.14: 0 -> A, 25 -> Z, 26 -> AA, 51 -> ZZ."""
    if not 0 <= index < 52:
        raise HexNameError(f"column index {index} is outside A..ZZ")
    letter = string.ascii_uppercase[index % 26]
    return letter * (index // 26 + 1)


def column_index(letters: str) -> int:
    """Inverse of :func:`column_letters` (``"KK"`` -> 36)."""
    if not re.fullmatch(r"([A-Z])\1?", letters):
        raise HexNameError(f"{letters!r} is not a column: expected A..Z or a doubled letter AA..ZZ")
    return string.ascii_uppercase.index(letters[0]) + 26 * (len(letters) - 1)


@dataclass(frozen=True)
class Diagonal:
    """Letter columns and diagonal numbers (Siege of Jerusalem, rule 2.14).

    Flat-top only.  Offset rows (used for the map extent) put the odd columns
    half a hex lower.
    """

    orientation: Literal["flat"] = "flat"
    shifted: Parity = "odd"

    def from_offset(self, col: int, row: int) -> Hex:
        """The axial hex at offset column ``col`` and row ``row``."""
        return _offset_to_axial("flat", self.shifted, col, row)

    def to_offset(self, h: Hex) -> tuple[int, int]:
        """The offset (column, row) of an axial hex."""
        return _axial_to_offset("flat", self.shifted, h)

    def name(self, h: Hex) -> str:
        """The printed name, e.g. ``LL27``."""
        if h.r < 0:
            raise HexNameError(f"hex {tuple(h)} has a negative diagonal number")
        return f"{column_letters(h.q)}{h.r}"

    def parse(self, name: str) -> Hex:
        """The axial hex of a name like ``QQ36``; raises :class:`HexNameError`."""
        m = re.fullmatch(r"([A-Z]{1,2})(\d{1,3})", name.strip().upper())
        if not m:
            raise HexNameError(f"{name!r} is not a hex name: expected column letters then a number (e.g. W36, QQ36)")
        return Hex(column_index(m.group(1)), int(m.group(2)))


NamingScheme = CCRR | Diagonal
