"""Counter and marker faces for a VASSAL module, drawn with Pillow.

Each counter face is a square (75 px by default) in its nationality's colours
(``game.yaml``) with a NATO-style unit-type symbol, the factors printed on
real counters (``4-6``, ``(1)-24/3``, leader ``x3``) and a short name line.
Counters with a ``back`` get a back face drawn from their back values.
Markers are labelled squares in their own colours.

Everything is deterministic: the same game gives byte-identical PNG files
(no timestamps or text chunks; fixed fonts and compression).

>>> counter_image_name("hgh-4-6"), counter_image_name("hgh-4-6", back=True), marker_image_name("stop")
('c_hgh-4-6.png', 'c_hgh-4-6_back.png', 'm_stop.png')
>>> factors_text({"strength": 1, "strength_use": "none", "mp": 24, "capacity": 3}, ["strength", "mp"])
'(1)-24/3'
>>> factors_text({"leader_multiplier": 0.5, "command_radius": 1}, ["strength", "mp"])
'x0.5'
>>> factors_text({"melee": 7, "movement": 8}, ["melee", "movement"])
'7-8'
"""
from __future__ import annotations

import io
import re
from typing import Mapping, Sequence

from PIL import Image, ImageDraw

from ..game.module import Game
from ..game.schema import Counter, Marker
from ..render.png import text_font

COUNTER_SIZE = 75



def counter_image_name(counter_id: str, back: bool = False) -> str:
    """File name (under ``images/``) of a counter face."""
    return f"c_{counter_id}{'_back' if back else ''}.png"


def marker_image_name(marker_id: str) -> str:
    """File name (under ``images/``) of a marker."""
    return f"m_{marker_id}.png"


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
    """The factors line of a face from the game's ``counter_factors`` keys (strength then movement):
    ``S-M``, ``(S)-M`` for strength that does not attack, ``/C`` capacity; ``xN`` leaders."""
    if values.get("leader_multiplier") is not None:
        return "x" + _num(values["leader_multiplier"])
    if len(keys) < 2:
        return ""
    strength, mp, cap = values.get(keys[0]), values.get(keys[1]), values.get("capacity")
    if strength is None and mp is None:
        return ""
    s = "" if strength is None else _num(strength)
    if s and values.get("strength_use") == "none":
        s = f"({s})"
    text = s if mp is None else (f"{s}-{_num(mp)}" if s else _num(mp))
    if cap is not None:
        text += f"/{_num(cap)}"
    return text


_FACTORS_IN_NAME = re.compile(r"\s*(\(?\d+\)?(-\d+)?(/\d+)?|\([^()]*\))$")


def short_name(name: str) -> str:
    """The name line: the counter name without its trailing factors or parenthesised tag."""
    base, prev = name, None
    while prev != base:
        prev = base
        base = _FACTORS_IN_NAME.sub("", base).strip()
    return base or name


def _fit_font(draw: ImageDraw.ImageDraw, text: str, width: int, start: int, bold: bool = False):
    size = start
    while size > 7:
        f = text_font(size, bold)
        if draw.textlength(text, font=f) <= width:
            return f, text
        size -= 1
    f = text_font(7, bold)
    while text and draw.textlength(text + ".", font=f) > width:
        text = text[:-1]
    return f, text + "." if text else text


def _symbol(d: ImageDraw.ImageDraw, unit_type: str, box: tuple[int, int, int, int], fg, bg) -> None:
    """A NATO-style symbol for ``unit_type`` in ``box`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w, h = x1 - x0, y1 - y0
    t = unit_type.lower()
    if any(k in t for k in ("leader", "general", "commander")):
        # a five-pointed star, no box
        import math
        r_out, r_in = h * 0.62, h * 0.25
        pts = []
        for i in range(10):
            r = r_out if i % 2 == 0 else r_in
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((cx + r * math.cos(a), cy + 2 + r * math.sin(a)))
        d.polygon(pts, fill=fg)
        if "dummy" in t:
            f = text_font(int(h * 0.6), True)
            d.text((cx, cy + 3), "?", fill=bg, font=f, anchor="mm")
        return
    d.rectangle(box, outline=fg, width=2)
    if "inf" in t:
        d.line([(x0, y0), (x1, y1)], fill=fg, width=2)
        d.line([(x0, y1), (x1, y0)], fill=fg, width=2)
    elif "cav" in t:
        d.line([(x0, y1), (x1, y0)], fill=fg, width=2)
    elif any(k in t for k in ("tank", "armo", "halftrack", "mech")):
        d.ellipse([x0 + w * 0.18, y0 + h * 0.25, x1 - w * 0.18, y1 - h * 0.25], outline=fg, width=2)
        if "armored_car" in t or "recon" in t:
            d.line([(x0, y1), (x1, y0)], fill=fg, width=1)
        if "halftrack" in t:
            for fx in (0.3, 0.5, 0.7):
                rx = x0 + w * fx
                d.ellipse([rx - 2, y1 - 6, rx + 2, y1 - 2], fill=fg)
    elif any(k in t for k in ("art", "mortar", "gun")):
        r = h * 0.16
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fg)
    elif any(k in t for k in ("hq", "headquarter")):
        d.line([(x0 + 3, y1 + 6), (x0 + 3, y0 + 2)], fill=fg, width=2)
        d.rectangle([x0 + 3, y0 + 3, cx + 2, cy], fill=fg)
    elif any(k in t for k in ("truck", "bus", "transport", "wagon", "convoy", "motor")):
        d.line([(x0 + 3, cy), (x1 - 3, cy)], fill=fg, width=2)
        for fx in (0.3, 0.7):
            rx = x0 + w * fx
            d.ellipse([rx - 3, y1 - 8, rx + 3, y1 - 2], outline=fg, width=2)
        if "convoy" in t:
            d.polygon([(x1 - 8, y0 + 3), (x1 - 3, y0 + 6), (x1 - 8, y0 + 9)], fill=fg)
    elif any(k in t for k in ("dozer", "engineer")):
        d.line([(x0 + 5, y1 - 5), (x0 + 5, y0 + 5), (x1 - 5, y0 + 5), (x1 - 5, y1 - 5)], fill=fg, width=2)
        d.line([(cx, y0 + 5), (cx, y1 - 5)], fill=fg, width=2)
    elif "garrison" in t or "fort" in t:
        d.rectangle([x0, y1 - h * 0.3, x1, y1], fill=fg)
        d.line([(x0, y0), (x1, y1 - h * 0.3)], fill=fg, width=1)
        d.line([(x0, y1 - h * 0.3), (x1, y0)], fill=fg, width=1)
    else:
        letters = "".join(p[0] for p in re.split(r"[_\s-]+", t) if p).upper()[:3] or "?"
        f = text_font(int(h * 0.6), True)
        d.text((cx, cy), letters, fill=fg, font=f, anchor="mm")


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=6, optimize=False)
    return buf.getvalue()


def counter_colours(game: Game, counter: Counter) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(background, figure) colours of a counter."""
    nat = next(n for n in game.spec.nationalities if n.id == counter.nationality)
    bg, fg = _rgb(nat.color), _rgb(nat.text)
    if counter.type in game.spec.counter_white_types:
        bg, fg = (255, 255, 255), _rgb(nat.color)
    return bg, fg


def draw_counter(game: Game, counter: Counter, back: bool = False, size: int = COUNTER_SIZE) -> Image.Image:
    """One face of a counter."""
    bg, fg = counter_colours(game, counter)
    img = Image.new("RGB", (size, size), bg)
    d = ImageDraw.Draw(img)
    s = size / 75
    d.rectangle([0, 0, size - 1, size - 1], outline=(0, 0, 0), width=1)
    values = dict(counter.values)
    if back and counter.back:
        values.update(counter.back)
    # name line at the top
    f, text = _fit_font(d, short_name(counter.name), size - 6, round(10 * s), bold=True)
    d.text((size / 2, 3 * s), text, fill=fg, font=f, anchor="mt")
    # symbol in the middle
    bw, bh = round(34 * s), round(22 * s)
    box = (round((size - bw) / 2), round(17 * s), round((size + bw) / 2), round(17 * s) + bh)
    _symbol(d, counter.type, box, fg, bg)
    # range of artillery at the symbol's right
    if values.get("range") is not None:
        fr = text_font(round(9 * s), True)
        d.text((box[2] + 3 * s, box[1] + bh / 2), _num(values["range"]), fill=fg, font=fr, anchor="lm")
    # formation tag at the symbol's left (first letters)
    formation = values.get("formation")
    if isinstance(formation, str) and formation:
        tag = re.sub(r"[^0-9A-Za-z]", "", formation)[:3].upper()
        fr = text_font(round(8 * s), False)
        d.text((box[0] - 2 * s, box[1] + bh / 2), tag, fill=fg, font=fr, anchor="rm")
    # factors at the bottom
    factors = factors_text(values, game.spec.counter_factors)
    if counter.type.lower().find("leader") >= 0 and values.get("command_radius") is not None and factors:
        factors += f" r{_num(values['command_radius'])}"
    if factors:
        f, text = _fit_font(d, factors, size - 6, round(16 * s), bold=True)
        d.text((size / 2, size - 4 * s), text, fill=fg, font=f, anchor="mb")
    if back:
        # a band across the top-right corner tells the back face at a glance
        d.polygon([(size - 1 - 14 * s, 1), (size - 2, 1), (size - 2, 14 * s)], fill=fg)
    return img


def draw_marker(marker: Marker, size: int = COUNTER_SIZE) -> Image.Image:
    """A marker: a labelled square in the marker's colours."""
    bg, fg = _rgb(marker.color), _rgb(marker.text)
    img = Image.new("RGB", (size, size), bg)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, size - 1, size - 1], outline=(0, 0, 0), width=2)
    words = marker.name.split()
    lines: list[str] = []
    for w in words:  # greedy wrap
        f = text_font(max(8, round(12 * size / 75)), True)
        if lines and d.textlength(lines[-1] + " " + w, font=f) <= size - 8:
            lines[-1] += " " + w
        else:
            lines.append(w)
    lines = lines[:4]
    step = size / (len(lines) + 1)
    for i, line in enumerate(lines):
        f, text = _fit_font(d, line, size - 8, max(8, round(12 * size / 75)), bold=True)
        d.text((size / 2, step * (i + 1)), text, fill=fg, font=f, anchor="mm")
    return img


def counter_images(game: Game, size: int = COUNTER_SIZE) -> dict[str, bytes]:
    """Every counter face and marker as PNG bytes, by file name (under ``images/``)."""
    out: dict[str, bytes] = {}
    for c in game.manifest.counters:
        out[counter_image_name(c.id)] = _png(draw_counter(game, c, False, size))
        if c.back is not None:
            out[counter_image_name(c.id, back=True)] = _png(draw_counter(game, c, True, size))
    for m in game.manifest.markers:
        out[marker_image_name(m.id)] = _png(draw_marker(m, size))
    return out
