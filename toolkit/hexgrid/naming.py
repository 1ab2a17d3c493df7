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
from functools import lru_cache
from typing import Iterator, Literal

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


_FORMAT_TOKEN = re.compile(r"\$([A-Za-z0-9_]*)\$")
VASSAL_FORMAT_PROPERTIES = ("gridLocation", "row", "column")


def vassal_coordinate(n: int, kind: str, leading: int) -> str:
    """``RegularGridNumbering.getName(n, type, leading)``: letters (``A`` .. ``Z``, ``AA`` ..) or a number
    padded with one zero per power of ten up to ``leading`` (VASSAL 3.6: 5 with leading 1 is ``05``)."""
    sign, n = ("-" if n < 0 else ""), abs(n)
    if kind == "A":
        return sign + string.ascii_uppercase[n % 26] * (n // 26 + 1)
    pad = sum(1 for k in range(1, leading + 1) if n < 10 ** k)   # one zero per power of ten above n
    return sign + "0" * pad + str(n)


def _vassal_pattern(kind: str, length: int | None = None) -> str:
    """A coordinate's pattern; with ``length``, exactly that many digits or letters (names without a
    separator are split by trying each length of the first coordinate)."""
    n = "+" if length is None else f"{{{length}}}"
    return r"-?(?:" + "|".join(f"{c}{n}" for c in string.ascii_uppercase) + ")" if kind == "A" else rf"-?[0-9]{n}"


def _vassal_value(text: str, kind: str) -> int:
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("-")
    if kind == "A":
        return sign * (string.ascii_uppercase.index(body[0]) + 26 * (len(body) - 1))
    return sign * int(body)


@dataclass(frozen=True)
class VassalNumbering:
    """The names of a VASSAL 3.6 ``HexGrid`` + ``HexGridNumbering`` (``HexGridNumbering.locationName``).

    Offsets are the engine's raw ``(column, row)``: column ``c`` lies at ``x0 + c * dx``, odd columns half a
    row lower (``sideways``: the same with x and y swapped, i.e. pointy-top hexes, "columns" running across).
    ``max_columns``/``max_rows`` are the engine's ``getMaxColumns``/``getMaxRows`` of the grid's container
    (used only when descending).  ``location_format`` may hold ``$gridLocation$``, ``$row$``, ``$column$``
    and literal text.
    """

    sideways: bool = False
    first: Literal["H", "V"] = "H"
    sep: str = ""
    h_type: Literal["N", "A"] = "N"
    v_type: Literal["N", "A"] = "N"
    h_leading: int = 1
    v_leading: int = 1
    h_off: int = 1
    v_off: int = 1
    h_descend: bool = False
    v_descend: bool = False
    stagger: bool = True
    max_columns: int = 0
    max_rows: int = 0
    location_format: str = "$gridLocation$"

    @property
    def orientation(self) -> str:
        """``flat`` for an upright grid, ``pointy`` for a sideways one."""
        return "pointy" if self.sideways else "flat"

    def from_offset(self, col: int, row: int) -> Hex:
        """The axial hex of the engine's raw column and row."""
        if self.sideways:
            return Hex(row - col // 2, col)
        return Hex(col, row - col // 2)

    def to_offset(self, h: Hex) -> tuple[int, int]:
        """The engine's raw (column, row) of an axial hex."""
        if self.sideways:
            return h.r, h.q + h.r // 2
        return h.q, h.r + h.q // 2

    def _flips(self) -> tuple[int | None, int | None, bool]:
        """(column mirror, row mirror, whether staggering counts down), as ``getColumn``/``getRow`` apply them."""
        if self.sideways:
            return (self.max_rows if self.v_descend else None, self.max_columns if self.h_descend else None,
                    self.h_descend)
        return (self.max_columns if self.h_descend else None, self.max_rows if self.v_descend else None,
                self.v_descend)

    def numbered(self, col: int, row: int) -> tuple[int, int]:
        """``(getColumn, getRow)`` of the raw column and row: mirrored when descending, odd columns staggered."""
        mcol, mrow, down = self._flips()
        c = col if mcol is None else mcol - col
        r = row if mrow is None else mrow - row
        if self.stagger and col % 2:
            r += -1 if down else 1
        return c, r

    def label(self, col: int, row: int) -> str:
        """The location name the engine gives the hex at raw column ``col``, row ``row``."""
        c, r = self.numbered(col, row)
        cs = vassal_coordinate(c + self.h_off, self.h_type, self.h_leading)
        rs = vassal_coordinate(r + self.v_off, self.v_type, self.v_leading)
        grid = cs + self.sep + rs if self.first == "H" else rs + self.sep + cs
        values = {"gridLocation": grid, "row": rs, "column": cs}
        return _FORMAT_TOKEN.sub(lambda m: values.get(m.group(1), m.group(0)), self.location_format)

    def name(self, h: Hex) -> str:
        """The printed name of a hex."""
        return self.label(*self.to_offset(h))

    def check_format(self) -> str | None:
        """Why ``location_format`` cannot be read back (it needs ``$gridLocation$``, or ``$row$`` and ``$column$``,
        each once, and no other property), or None."""
        used = _FORMAT_TOKEN.findall(self.location_format)
        unknown = [u for u in used if u not in VASSAL_FORMAT_PROPERTIES]
        if unknown:
            return f"property ${unknown[0]}$ is not one of ${'$, $'.join(VASSAL_FORMAT_PROPERTIES)}$"
        if sorted(used) not in (["gridLocation"], ["column", "row"]):
            return "it needs $gridLocation$, or $row$ and $column$, each exactly once"
        return None

    @lru_cache(maxsize=64)
    def _regex(self, first_length: int) -> re.Pattern[str]:
        """The pattern of a name whose first coordinate (in reading order) has ``first_length`` characters."""
        order = iter(range(2))

        def group(which: str, kind: str) -> str:
            return f"(?P<{which}>{_vassal_pattern(kind, first_length if next(order) == 0 else None)})"

        out, last = [], 0
        for m in _FORMAT_TOKEN.finditer(self.location_format):
            out.append(re.escape(self.location_format[last:m.start()]))
            prop = m.group(1)
            if prop == "gridLocation":
                pair = [("c", self.h_type), ("r", self.v_type)][:: 1 if self.first == "H" else -1]
                out.append(group(*pair[0]) + re.escape(self.sep) + group(*pair[1]))
            else:
                out.append(group("c", self.h_type) if prop == "column" else group("r", self.v_type))
            last = m.end()
        return re.compile("".join(out) + re.escape(self.location_format[last:]))

    def candidates(self, name: str) -> Iterator[Hex]:
        """Every hex the engine gives this name (names without a separator can be ambiguous: ``10100`` is
        column 10, row 100 and column 101, row 00), shortest first coordinate first."""
        text = name.strip()
        for length in range(1, min(len(text), 12) + 1):
            m = self._regex(length).fullmatch(text)
            if not m:
                continue
            c = _vassal_value(m.group("c"), self.h_type) - self.h_off
            r = _vassal_value(m.group("r"), self.v_type) - self.v_off
            mcol, mrow, down = self._flips()
            col = c if mcol is None else mcol - c
            if self.stagger and col % 2:
                r -= -1 if down else 1
            row = r if mrow is None else mrow - r
            if self.label(col, row) == text:   # not e.g. "5" where the engine writes "05"
                yield self.from_offset(col, row)

    def parse(self, name: str) -> Hex:
        """The axial hex of a name the engine gives (the first of :meth:`candidates`); raises
        :class:`HexNameError`."""
        for h in self.candidates(name):
            return h
        raise HexNameError(f"{name!r} is not a hex name of this VASSAL grid (e.g. {self.label(0, 0)!r})")


NamingScheme = CCRR | Diagonal | VassalNumbering
