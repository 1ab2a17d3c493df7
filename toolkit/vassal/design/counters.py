"""Counter and marker faces for a VASSAL module, drawn with Pillow.

**Size.**  A counter at rest lies inside its own hex, so the numbers of the
neighbouring hexes stay visible: :func:`counter_size` is the largest even
square that fits a flat-top hex ``pixels_per_hex`` high (flat to flat), even
when VASSAL rounds the hex centre to a whole pixel (56 px at the default 80).

**Faces.**  Each counter face is that square in its nationality's colours
(``game.yaml``) with the name at the top, a NATO-style unit-type symbol, the
factors printed on real counters (``4-6``, ``(1)-24/3``, leader ``x3``) and
the command radius (``r2``) at the bottom.  A back face shows the back's own
name (``back_name``) and values; when its name is the front's with a state
in brackets (``V/1 Veteran 7-8 (Disrupted)``) the state is printed in a band
of inverted colours.  A *hidden* face per side (:func:`hidden_image_name`)
shows only the side's colour and a neutral mark, for pieces played face down
(*Jerusalem!* 12.1).  Markers are labelled squares in their own colours.

**Text never clipped.**  :func:`counter_layout` and :func:`marker_layout`
place every text of a face and return it (:class:`FaceLayout`); the drawing
only paints that layout, and the tests check it.  A text is tried, in order:
whole on one line, then on two, shrinking the font from its largest size to
:data:`MIN_FONT_PX`; then with the usual abbreviations (``Infantry`` ->
``Inf``, ``Division`` -> ``Div`` ...); then with leading words cut to an
initial (``Abdul Khader Husseini`` -> ``A. K. Husseini``).  Names use DejaVu
Sans Condensed Bold.

Everything is deterministic: the same game gives byte-identical PNG files
(no timestamps or text chunks; fixed fonts and compression).

>>> counter_image_name("hgh-4-6"), counter_image_name("hgh-4-6", back=True), marker_image_name("stop")
('c_hgh-4-6.png', 'c_hgh-4-6_back.png', 'm_stop.png')
>>> hidden_image_name("arab"), counter_size(80), COUNTER_SIZE
('h_arab.png', 56, 56)
>>> factors_text({"strength": 1, "strength_use": "none", "mp": 24, "capacity": 3}, ["strength", "mp"])
'(1)-24/3'
>>> factors_text({"leader_multiplier": 0.5, "command_radius": 1}, ["strength", "mp"])
'x0.5'
>>> factors_text({"melee": 7, "movement": 8}, ["melee", "movement"])
'7-8'
>>> factors_text({"melee": 7, "melee_defense_only": True, "movement": 4}, ["melee", "movement"])
'(7)-4'
"""
from __future__ import annotations

import io
import itertools
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping, Sequence

from PIL import Image, ImageDraw

from ...game.module import Game, folder_file
from ...game.schema import Counter, GameSpec, Marker, Side
from ...picture import picture_at
from ...render.png import text_font
from .board import DEFAULT_PIXELS_PER_HEX, board_layout

#: Smallest font size (pixels, em) of any text on a counter or marker.
MIN_FONT_PX = 7
#: Texts are first fitted no smaller than this, abbreviating if need be, before going down to MIN_FONT_PX.
PREFERRED_FONT_PX = 8


def counter_size(pixels_per_hex: float) -> int:
    """The side of a counter (pixels) for a board of flat-top hexes ``pixels_per_hex`` apart.

    A flat-top hex of flat-to-flat height ``H`` has circumradius ``R = H/√3``;
    its slanted edges are ``√3·|x| + |y| = H``.  An axis-parallel square of
    half-side ``a`` centred on the hex fits when its corner does:
    ``(1 + √3)·a ≤ H``, i.e. side ``≤ 2H/(1+√3) = (√3-1)·H`` (58.56 px for
    H = 80).  VASSAL puts a piece at the hex centre rounded to a whole pixel,
    up to half a pixel off each way, which takes 1 px from the side:
    ``s ≤ (√3-1)·H - 1``; and an even ``s`` centres the image exactly
    (VASSAL draws it from ``-s/2``).  So ``s`` is the largest even whole
    number ``≤ (√3-1)·H - 1``: 56 for 80.

    >>> [counter_size(h) for h in (40, 64, 80, 96, 120)]
    [28, 44, 56, 68, 86]
    """
    if pixels_per_hex <= 0:
        raise ValueError(f"pixels_per_hex must be positive, got {pixels_per_hex}")
    return max(2, 2 * math.floor(((math.sqrt(3) - 1) * pixels_per_hex - 1) / 2))


COUNTER_SIZE = counter_size(DEFAULT_PIXELS_PER_HEX)


def game_counter_size(game: Game) -> int:
    """The side of a game's counters in its module: sized to the hexes of the game's own board picture
    (:func:`counter_size` of its pixels per hex), never below :data:`COUNTER_SIZE`, the drawn board's (the
    counters' texts are fitted from that size up)."""
    cmap = game.map
    if cmap.board is None:
        return COUNTER_SIZE
    return max(COUNTER_SIZE, counter_size(board_layout(cmap).scale * cmap.grid.layout.width))


def counter_image_name(counter_id: str, back: bool = False) -> str:
    """File name (under ``images/``) of a counter face."""
    return f"c_{counter_id}{'_back' if back else ''}.png"


def marker_image_name(marker_id: str) -> str:
    """File name (under ``images/``) of a marker."""
    return f"m_{marker_id}.png"


def hidden_image_name(side_id: str) -> str:
    """File name (under ``images/``) of a side's hidden face (a counter played face down)."""
    return f"h_{side_id}.png"


def hidden_sides(game: Game) -> list[Side]:
    """The sides that get a hidden face: those whose counters the game lets be placed face down (``hideable``)."""
    return [s for s in game.spec.sides if s.id in game.spec.hideable]


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def _num(v: object) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def factors_text(values: Mapping[str, object], keys: Sequence[str]) -> str:
    """The factors line of a face: every value of the game's ``counter_factors`` keys the face has, in order,
    joined by ``-`` (``A-D-M``); the first in brackets when it does not attack (``strength_use: none``,
    ``melee_defense_only``); ``/C`` capacity; ``xN`` leaders.

    >>> factors_text({"attack": 5, "defence": 4, "movement": 6}, ["attack", "defence", "movement"])
    '5-4-6'
    """
    if values.get("leader_multiplier") is not None:
        return "x" + _num(values["leader_multiplier"])
    parts = [_num(values[k]) for k in keys if values.get(k) is not None]
    if not parts:
        return ""
    if keys and values.get(keys[0]) is not None and (values.get("strength_use") == "none"
                                                     or values.get("melee_defense_only") is True):
        parts[0] = f"({parts[0]})"
    text = "-".join(parts)
    if values.get("capacity") is not None:
        text += f"/{_num(values['capacity'])}"
    return text


_FACTORS_IN_NAME = re.compile(r"\s*(\(?\d+\)?(-\d+)?(/\d+)?|\([^()]*\))$")
_TAG = re.compile(r"\s*\(([^()]*)\)\s*$")


def short_name(name: str) -> str:
    """The name line: the counter name without its trailing factors or parenthesised tag."""
    base, prev = name, None
    while prev != base:
        prev = base
        base = _FACTORS_IN_NAME.sub("", base).strip()
    return base or name


def name_tag(name: str) -> str | None:
    """The last parenthesised tag of a name, e.g. ``Disrupted`` in ``V/1 Veteran 7-8 (Disrupted)``."""
    m = _TAG.search(name)
    return m.group(1).strip() or None if m else None


# Abbreviations used on printed counters, tried when a text does not fit whole.
_ABBREVIATIONS = [(re.compile(rf"\b{a}\b", re.IGNORECASE), b) for a, b in (
    ("Arab Legion", "AL"), ("anti-tank", "AT"), ("Camel Corps", "Camel"), ("Armou?red Car", "Arm Car"),
    ("Armou?red Train", "Arm Train"), ("Infantry", "Inf"), ("Division", "Div"), ("Cavalry", "Cav"),
    ("Brigade", "Bde"), ("Regiment", "Regt"), ("Battalion", "Bn"), ("Composite", "Comp"), ("Artillery", "Art"),
    ("Armou?red", "Arm"), ("Mountain", "Mtn"), ("Machinegun", "MG"), ("Headquarters", "HQ"),
    ("Detachment", "Det"), ("Group", "Grp"), ("Squadron", "Sqn"), ("Australian", "Aus"),
    ("Austro-Hungarian", "A-H"), ("Indian", "Ind"), ("Yeomanry", "Yeo"), ("Imperial", "Imp"),
    ("Northern", "N."), ("Southern", "S."), ("Eastern", "E."), ("Western", "W."), ("Flamethrower", "Flame"),
    ("Homemade", "Home"), ("Halftrack", "HT"), ("Veteran", "Vet"), ("Recruit", "Rec"), ("Jerusalem", "Jer."),
    ("Syrian", "Syr"), ("Expeditionary", "Exp"), ("Mounted", "Mtd"), ("Garrison", "Gar"), ("Preparation", "Prep"),
    ("Victory Points", "VP"), ("Multiple", "Mult"), ("Command", "Cmd"),
)]


def abbreviations(text: str) -> list[str]:
    """``text`` then ever shorter sensible abbreviations of it (whole words only), without repeats.

    >>> abbreviations("Abdul Khader Husseini")
    ['Abdul Khader Husseini', 'A. Khader Husseini', 'A. K. Husseini', 'A. K. Huss.']
    >>> abbreviations("10th Indian Infantry Div")[:2]
    ['10th Indian Infantry Div', '10th Ind Inf Div']
    """
    return [a for tier in _abbreviation_tiers(text) for a in tier]


def _abbreviation_tiers(text: str) -> tuple[list[str], list[str], list[str]]:
    """Abbreviations in three tiers, each tried at every font size before the next: the text, the usual short
    forms, brackets dropped; leading words cut to initials; the longest words cut to four letters and a dot."""
    out = [text]
    t = text
    for pattern, repl in _ABBREVIATIONS:
        t = pattern.sub(repl, t)
    out.append(t)
    t = re.sub(r"[()]", "", t)  # "10th (Irish) Inf Div" -> "10th Irish Inf Div"
    out.append(t)
    plain = len(out)
    words = t.split()
    # leading words (not the last, not numbers or short ones) cut to an initial, one at a time
    for i, w in enumerate(words[:-1]):
        if len(w) > 3 and w[0].isalpha() and not any(ch.isdigit() for ch in w):
            words[i] = w[0] + "."
            out.append(" ".join(words))
    initials = len(out)
    # then the longest word cut to a prefix, until every word is at most 4 letters and a dot
    while True:
        i = max(range(len(words)), key=lambda j: (len(words[j]), -j))
        w = words[i]
        if len(w) <= 5:
            break
        words[i] = w[:4].rstrip(".") + "."
        out.append(" ".join(words))
    seen: set[str] = set()
    tiers: tuple[list[str], list[str], list[str]] = ([], [], [])
    for k, cand in enumerate(out):
        if cand not in seen:
            seen.add(cand)
            tiers[(k >= plain) + (k >= initials)].append(cand)
    return tiers


def _wraps(text: str, max_lines: int) -> list[list[str]]:
    """Ways to set ``text`` on 1 .. ``max_lines`` lines, breaking between words, fewest lines first."""
    words = text.split()
    out: list[list[str]] = [[text]]
    if max_lines >= 2:
        splits = [[" ".join(words[:i]), " ".join(words[i:])] for i in range(1, len(words))]
        splits.sort(key=lambda ls: (max(len(x) for x in ls), ls[0]))  # balanced first
        out += splits
    if max_lines >= 3:
        threes = [[" ".join(words[:i]), " ".join(words[i:j]), " ".join(words[j:])]
                  for i in range(1, len(words)) for j in range(i + 1, len(words))]
        threes.sort(key=lambda ls: (max(len(x) for x in ls), ls[0]))
        out += threes
    return out


@dataclass(frozen=True)
class TextBox:
    """One line of text on a face: drawn with ``anchor="ms"`` (middle, baseline) at ``pos``.

    ``bbox`` is the ink box Pillow reports for it there (x0, y0, x1, y1), in face pixels.
    """

    role: str
    text: str
    size: int
    bold: bool
    condensed: bool
    pos: tuple[float, float]
    bbox: tuple[int, int, int, int]
    fill: tuple[int, int, int]

    def font(self):
        return text_font(self.size, self.bold, self.condensed)


@dataclass(frozen=True)
class FaceLayout:
    """Everything drawn on a face: its size, colours, texts, symbol box and bands (filled rectangles)."""

    size: int
    background: tuple[int, int, int]
    foreground: tuple[int, int, int]
    texts: tuple[TextBox, ...]
    symbol: tuple[int, int, int, int] | None = None
    symbol_type: str = ""
    symbol_kind: str = ""
    bands: tuple[tuple[int, int, int, int], ...] = ()

    def text(self, role: str) -> str:
        """The text of a role, its lines joined by spaces ('' if none)."""
        return " ".join(t.text for t in self.texts if t.role == role)


def _box(text: str, size: int, bold: bool, condensed: bool, pos: tuple[float, float], role: str,
         fill) -> TextBox:
    font = text_font(size, bold, condensed)
    x0, y0, x1, y1 = font.getbbox(text, anchor="ms")
    bbox = (math.floor(pos[0] + x0), math.floor(pos[1] + y0), math.ceil(pos[0] + x1), math.ceil(pos[1] + y1))
    return TextBox(role, text, size, bold, condensed, pos, bbox, fill)


def _text_block(tiers: Sequence[Sequence[str]], width: float, max_size: int, max_lines: int, bold: bool = True,
                condensed: bool = True, max_height: float | None = None,
                prefer_size: bool = False) -> tuple[list[str], int]:
    """The first way to set a text within ``width`` (and ``max_height``): tier by tier, font floors
    :data:`PREFERRED_FONT_PX` then down to :data:`MIN_FONT_PX` (a larger font with abbreviations beats a
    tiny one in full), candidates in order, fewest lines then largest font (``prefer_size``: the other way
    round).  Falls back to the last candidate cut."""
    floors = sorted({min(max_size, f) for f in range(MIN_FONT_PX, PREFERRED_FONT_PX + 1)}, reverse=True)
    candidates = [c for tier in tiers for c in tier]
    for tier, floor in itertools.product(tiers, floors):
        for cand in tier:
            tries = itertools.product(_wraps(cand, max_lines), range(max_size, floor - 1, -1))
            if prefer_size:  # the largest font on any number of lines, rather than the fewest lines
                tries = sorted(tries, key=lambda t: (-t[1], len(t[0])))
            for lines, size in tries:
                if max_height is not None and _block_height(size, len(lines), bold, condensed) > max_height:
                    continue
                if all(_width(line, size, bold, condensed) <= width for line in lines):
                    return list(lines), size
    # nothing fits: cut the last candidate letter by letter (never expected with the bundled games)
    font = text_font(MIN_FONT_PX, bold, condensed)
    t = candidates[-1]
    while len(t) > 1 and font.getlength(t + ".") > width:
        t = t[:-1]
    return [t + "." if t != candidates[-1] else t], MIN_FONT_PX


@lru_cache(maxsize=4096)
def _width(text: str, size: int, bold: bool, condensed: bool) -> float:
    return text_font(size, bold, condensed).getlength(text)


@lru_cache(maxsize=None)
def _line_step(size: int) -> int:
    """Baseline to baseline: the font's ascent plus descent, so descenders never touch the next line."""
    return sum(text_font(size, True, True).getmetrics())


@lru_cache(maxsize=None)
def _block_height(size: int, lines: int, bold: bool, condensed: bool) -> int:
    """Ink height of ``lines`` lines: top of the capitals of the first to the descenders of the last."""
    return _cap_height(size, bold, condensed) + (lines - 1) * _line_step(size) + _descent(size, bold, condensed)


@lru_cache(maxsize=None)
def _cap_height(size: int, bold: bool, condensed: bool) -> int:
    """Pixels from the baseline to the top of capitals and digits."""
    return -text_font(size, bold, condensed).getbbox("H0", anchor="ls")[1]


@lru_cache(maxsize=None)
def _descent(size: int, bold: bool, condensed: bool) -> int:
    return text_font(size, bold, condensed).getbbox("gy()", anchor="ls")[3]


def counter_colours(game: Game, counter: Counter) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(background, figure) colours of a counter."""
    nat = next(n for n in game.spec.nationalities if n.id == counter.nationality)
    bg, fg = _rgb(nat.color), _rgb(nat.text)
    if counter.type in game.spec.counter_white_types:
        bg, fg = (255, 255, 255), _rgb(nat.color)
    return bg, fg


def face_values(counter: Counter, back: bool = False) -> dict[str, object]:
    """The values printed on a face: the front's, overridden by the back's on the back face."""
    values = dict(counter.values)
    if back and counter.back:
        values.update(counter.back)
    return values


def face_texts(game: Game, counter: Counter, back: bool = False) -> dict[str, str]:
    """What a face says, before fitting: ``name``, ``status`` (back faces), ``factors``, ``range``, ``formation``."""
    values = face_values(counter, back)
    name = short_name(counter.name)
    status = ""
    if back and counter.back is not None:
        if counter.back_name:
            name = short_name(counter.back_name)
            tag = name_tag(counter.back_name)
            if tag and not re.fullmatch(r"[\d()/-]+", tag):
                status = tag
        if not status and name == short_name(counter.name):
            status = "back"
    factors = factors_text(values, game.spec.counter_factors)
    if values.get("command_radius") is not None and values.get("leader_multiplier") is None:
        factors = f"{factors} r{_num(values['command_radius'])}".strip()
    rng = _num(values["range"]) if values.get("range") is not None else ""
    formation = values.get("formation")
    tag = ""
    if isinstance(formation, str) and formation:
        m = re.match(r"(\d+)\w*\s+(\w)", formation)
        tag = (m.group(1) + m.group(2).upper()) if m else re.sub(r"[^0-9A-Za-z]", "", formation)[:3].upper()
    return {"name": name, "status": status, "factors": factors, "range": rng, "formation": tag}


def counter_layout(game: Game, counter: Counter, back: bool = False, size: int = COUNTER_SIZE) -> FaceLayout:
    """Where every text and the symbol of a counter face go; every text fits the face at >= MIN_FONT_PX."""
    bg, fg = counter_colours(game, counter)
    said = face_texts(game, counter, back)
    pad = max(2, round(size * 0.045))  # inside the 1 px border
    width = size - 2 * pad
    top, bottom = pad, size - pad
    texts: list[TextBox] = []
    gap = 2
    min_symbol = round(size * 0.22)  # the name gives way to the symbol: abbreviated or on one line
    # the factors: one line at the bottom
    fbottom = bottom
    if said["factors"]:
        flines, fsize = _text_block([[said["factors"]]], width, max(MIN_FONT_PX, round(size * 0.22)), 1,
                                    condensed=True)
        if flines[0] != said["factors"]:  # cut: a factor would be lost
            raise ValueError(f"{game.folder / 'counters.yaml'}: counter {counter.id!r}: its factors "
                             f"{said['factors']!r} do not fit its {size} px face even at {MIN_FONT_PX} px; print "
                             f"fewer values (game.yaml counter_factors: {game.spec.counter_factors})")
        fy = bottom - _descent(fsize, True, True) + 1
        fbox = _box(flines[0], fsize, True, True, (size / 2, fy), "factors", fg)
        texts.append(fbox)
        fbottom = fbox.bbox[1]
    bands: list[tuple[int, int, int, int]] = []
    # the state of a back face: a band of inverted colours above the factors
    if said["status"]:
        slines, ssize = _text_block(_abbreviation_tiers(said["status"]), width - 2, max(MIN_FONT_PX, round(size * 0.15)),
                                    1)
        scap = _cap_height(ssize, True, True)
        sdesc = _descent(ssize, True, True)
        band_bottom = fbottom - 1
        band_top = band_bottom - scap - sdesc - 3
        texts.append(_box(slines[0], ssize, True, True, (size / 2, band_bottom - sdesc - 1), "status", bg))
        bands.append((1, band_top, size - 2, band_bottom))
        fbottom = band_top
    # the name: at most two lines at the top, leaving the symbol its room
    lines, nsize = _text_block(_abbreviation_tiers(said["name"]), width, max(MIN_FONT_PX, round(size * 0.19)), 2,
                               max_height=fbottom - top - 2 * gap - min_symbol)
    cap = _cap_height(nsize, True, True)
    y = top + cap
    for line in lines:
        texts.append(_box(line, nsize, True, True, (size / 2, y), "name", fg))
        y += _line_step(nsize)
    name_bottom = max(t.bbox[3] for t in texts if t.role == "name")
    # the symbol in what is left, 3:2, with the formation at its left and the range at its right
    avail_h = fbottom - name_bottom - 2 * gap
    side_size = max(MIN_FONT_PX, min(round(size * 0.15), avail_h))
    f = text_font(side_size, True, True)
    left_w = f.getlength(said["formation"]) + gap if said["formation"] else 0
    right_w = f.getlength(said["range"]) + gap if said["range"] else 0
    sh = max(4, min(avail_h, round(size * 0.34), math.floor((width - left_w - right_w) / 1.5)))
    sw = round(sh * 1.5)
    cy = name_bottom + gap + avail_h / 2
    # centred if the side texts leave room, else pushed away from the wider one
    x0 = min(max(round((size - sw) / 2), math.ceil(pad + left_w)), math.floor(size - pad - right_w - sw))
    y0 = round(cy - sh / 2)
    symbol = (x0, y0, x0 + sw, y0 + sh)
    baseline = cy + _cap_height(side_size, True, True) / 2
    if said["formation"]:
        tw = f.getlength(said["formation"])
        texts.append(_box(said["formation"], side_size, True, True, (x0 - gap - tw / 2, baseline), "formation", fg))
    if said["range"]:
        tw = f.getlength(said["range"])
        texts.append(_box(said["range"], side_size, True, True, (x0 + sw + gap + tw / 2, baseline), "range", fg))
    kind = symbol_kind(game.spec, counter.type)
    sym_text = _symbol_text(kind, counter.type, symbol, fg)
    if sym_text is not None:
        texts.append(sym_text)
    return FaceLayout(size, bg, fg, tuple(texts), symbol, counter.type, kind, tuple(bands))


def symbol_kind(spec: GameSpec, unit_type: str) -> str:
    """The symbol (a name of ``schema.SYMBOLS``) of a unit type: ``game.yaml`` ``symbols``, else guessed.

    >>> spec = GameSpec.model_validate({"id": "g", "title": "G", "map": "m", "sides": [], "nationalities": [],
    ...     "unit_types": ["panzer", "grenadier"], "turns": ["1"], "phases": ["p"], "symbols": {"panzer": "armour"}})
    >>> symbol_kind(spec, "panzer"), symbol_kind(spec, "grenadier")
    ('armour', 'letters')
    """
    return spec.symbols.get(unit_type) or guessed_symbol(unit_type)


def guessed_symbol(unit_type: str) -> str:
    """The symbol guessed from words in a unit type's name (``inf``, ``cav``, ``tank``, ``art`` ...), else
    ``letters`` (the type's initials in a box).

    >>> guessed_symbol("light_infantry"), guessed_symbol("panzer")
    ('infantry', 'letters')
    """
    t = unit_type.lower()
    for kind, keys in (("dummy", ("dummy",)), ("leader", ("leader", "general", "commander")), ("letters", ("tower", "train")),
                       ("infantry", ("inf",)), ("cavalry", ("cav",)),
                       ("armour", ("tank", "armo", "halftrack", "mech")), ("artillery", ("art", "mortar", "gun")),
                       ("hq", ("hq", "headquarter")), ("transport", ("truck", "bus", "transport", "wagon", "convoy",
                                                                    "motor")),
                       ("engineer", ("dozer", "engineer")), ("garrison", ("garrison", "fort"))):
        if any(k in t for k in keys):
            return kind
    return "letters"


def _symbol_text(kind: str, unit_type: str, box, fg) -> TextBox | None:
    """The text drawn inside a symbol: the letters of an unknown type, the '?' of a dummy leader."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if kind == "dummy":
        s = max(MIN_FONT_PX, round((y1 - y0) * 0.95))
        return _box("?", s, True, False, (cx, cy + _cap_height(s, True, False) / 2), "symbol", fg)
    if kind != "letters":
        return None
    letters = "".join(p[0] for p in re.split(r"[_\s-]+", unit_type) if p).upper()[:3] or "?"
    lines, s = _text_block([[letters]], (x1 - x0) - 4, max(MIN_FONT_PX, round((y1 - y0) * 0.6)), 1,
                           max_height=(y1 - y0))
    return _box(lines[0], s, True, True, (cx, cy + _cap_height(s, True, True) / 2), "symbol", fg)


def _draw_symbol(d: ImageDraw.ImageDraw, kind: str, unit_type: str, box: tuple[int, int, int, int], fg) -> None:
    """The NATO-style symbol ``kind`` of ``unit_type`` inside ``box`` (x0, y0, x1, y1); never outside it."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w, h = x1 - x0, y1 - y0
    lw = 2 if h >= 12 else 1
    t = unit_type.lower()
    if kind == "dummy":  # a question mark (a text of the layout), no box
        return
    if kind == "leader":  # a five-pointed star, no box
        r_out = min(w, h) / 2 + 1
        r_in = r_out * 0.4
        pts = []
        for i in range(10):
            r = r_out if i % 2 == 0 else r_in
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((cx + r * math.cos(a), cy + r_out * 0.1 + r * math.sin(a)))
        d.polygon(pts, fill=fg)
        return
    d.rectangle(box, outline=fg, width=lw)
    if kind in ("infantry", "mechanized", "airborne"):
        d.line([(x0, y0), (x1, y1)], fill=fg, width=lw)
    if kind in ("infantry", "mechanized", "airborne", "cavalry", "recon"):
        d.line([(x0, y1), (x1, y0)], fill=fg, width=lw)
    if kind in ("mechanized", "recon"):
        d.ellipse([x0 + w * 0.18, y0 + h * 0.25, x1 - w * 0.18, y1 - h * 0.25], outline=fg, width=1)
    if kind == "airborne":  # a canopy: an arc on the bottom edge, in the gap below the crossing, as thick as the box
        d.arc([cx - w * 0.22, y1 - h * 0.3, cx + w * 0.22, y1 + h * 0.3], 180, 360, fill=fg, width=lw)
    elif kind == "armour":
        d.ellipse([x0 + w * 0.18, y0 + h * 0.25, x1 - w * 0.18, y1 - h * 0.25], outline=fg, width=lw)
        if "armored_car" in t or "recon" in t:
            d.line([(x0, y1), (x1, y0)], fill=fg, width=1)
        if "halftrack" in t:
            r = max(1, h * 0.08)
            for fx in (0.3, 0.5, 0.7):
                rx = x0 + w * fx
                d.ellipse([rx - r, y1 - 2 - 2 * r, rx + r, y1 - 2], fill=fg)
    elif kind == "artillery":
        r = h * 0.16
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fg)
    elif kind == "hq":
        d.line([(x0 + 3, y1 - 2), (x0 + 3, y0 + 3)], fill=fg, width=lw)
        d.rectangle([x0 + 3, y0 + 3, cx + 2, cy], fill=fg)
    elif kind == "transport":
        d.line([(x0 + 3, cy), (x1 - 3, cy)], fill=fg, width=lw)
        r = max(1.5, h * 0.13)
        for fx in (0.3, 0.7):
            rx = x0 + w * fx
            d.ellipse([rx - r, y1 - 2 - 2 * r, rx + r, y1 - 2], outline=fg, width=1)
        if "convoy" in t:
            d.polygon([(x1 - 3 - h * 0.25, y0 + 3), (x1 - 3, y0 + 3 + h * 0.15), (x1 - 3 - h * 0.25, y0 + 3 + h * 0.3)],
                      fill=fg)
    elif kind == "engineer":
        m = max(2, h * 0.2)
        d.line([(x0 + m, y1 - m), (x0 + m, y0 + m), (x1 - m, y0 + m), (x1 - m, y1 - m)], fill=fg, width=lw)
        d.line([(cx, y0 + m), (cx, y1 - m)], fill=fg, width=lw)
    elif kind == "garrison":
        d.rectangle([x0, y1 - h * 0.3, x1, y1], fill=fg)
        d.line([(x0, y0), (x1, y1 - h * 0.3)], fill=fg, width=1)
        d.line([(x0, y1 - h * 0.3), (x1, y0)], fill=fg, width=1)


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=6, optimize=False)
    return buf.getvalue()


def paint(layout: FaceLayout) -> Image.Image:
    """The image of a face layout: background, 1 px black border, bands, symbol, then the texts."""
    size = layout.size
    img = Image.new("RGB", (size, size), layout.background)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, size - 1, size - 1], outline=(0, 0, 0), width=1)
    for band in layout.bands:
        d.rectangle(band, fill=layout.foreground)
    if layout.symbol is not None and layout.symbol_type:
        _draw_symbol(d, layout.symbol_kind, layout.symbol_type, layout.symbol, layout.foreground)
    for t in layout.texts:
        d.text(t.pos, t.text, fill=t.fill, font=t.font(), anchor="ms")
    return img


def draw_counter(game: Game, counter: Counter, back: bool = False, size: int = COUNTER_SIZE) -> Image.Image:
    """One face of a counter."""
    return paint(counter_layout(game, counter, back, size))


def marker_layout(marker: Marker, size: int = COUNTER_SIZE) -> FaceLayout:
    """Where the label of a marker goes: up to three lines, centred; the bracketed part dropped if need be."""
    bg, fg = _rgb(marker.color), _rgb(marker.text)
    pad = max(3, round(size * 0.06))
    width = size - 2 * pad
    name = marker.name.strip()
    plain = _TAG.sub("", name).strip() or name
    first, *rest = _abbreviation_tiers(plain)
    lines, s = _text_block([[name] + first, *rest], width, max(MIN_FONT_PX, round(size * 0.2)), 3,
                           max_height=size - 2 * pad, prefer_size=True)
    step = _line_step(s)
    cap = _cap_height(s, True, True)
    y = (size - _block_height(s, len(lines), True, True)) / 2 + cap
    texts = []
    for line in lines:
        texts.append(_box(line, s, True, True, (size / 2, y), "marker", fg))
        y += step
    return FaceLayout(size, bg, fg, tuple(texts))


def draw_marker(marker: Marker, size: int = COUNTER_SIZE) -> Image.Image:
    """A marker: a labelled square in the marker's colours (2 px border)."""
    layout = marker_layout(marker, size)
    img = paint(layout)
    ImageDraw.Draw(img).rectangle([0, 0, size - 1, size - 1], outline=(0, 0, 0), width=2)
    return img


def draw_hidden(side: Side, size: int = COUNTER_SIZE) -> Image.Image:
    """A side's hidden face: the side's colour and a neutral mark (an inner frame and a diamond), no text."""
    bg, fg = _rgb(side.color), _rgb(side.text)
    img = Image.new("RGB", (size, size), bg)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, size - 1, size - 1], outline=(0, 0, 0), width=1)
    m = max(3, round(size * 0.08))
    d.rectangle([m, m, size - 1 - m, size - 1 - m], outline=fg, width=max(1, size // 40))
    c, r = (size - 1) / 2, size * 0.2
    d.polygon([(c, c - r), (c + r, c), (c, c + r), (c - r, c)], outline=fg, width=max(1, size // 28))
    return img


def counter_face(game: Game, counter: Counter, back: bool = False, size: int = COUNTER_SIZE) -> Image.Image:
    """One face of a counter: its picture (``image``/``back_image`` in ``counters.yaml``, a file of the game
    folder, scaled to the counter's square) when it has one, else the drawn art."""
    picture = counter.back_image if back else counter.image
    if picture is None:
        return draw_counter(game, counter, back, size)
    key = f"counters[{game.manifest.counters.index(counter)}].{'back_image' if back else 'image'}"
    path = folder_file(game.folder, picture, str(game.folder / "counters.yaml"), key, "counter image",
                       f"`image: images/{counter.id}.png`")
    return picture_at(path, f"the counter picture of {counter.id}", (size, size))


def counter_images(game: Game, size: int = COUNTER_SIZE) -> dict[str, bytes]:
    """Every counter face, marker and hidden face as PNG bytes, by file name (under ``images/``)."""
    out: dict[str, bytes] = {}
    for c in game.manifest.counters:
        out[counter_image_name(c.id)] = _png(counter_face(game, c, False, size))
        if c.back is not None:
            out[counter_image_name(c.id, back=True)] = _png(counter_face(game, c, True, size))
    for m in game.manifest.markers:
        out[marker_image_name(m.id)] = _png(draw_marker(m, size))
    for s in hidden_sides(game):
        out[hidden_image_name(s.id)] = _png(draw_hidden(s, size))
    return out
