"""Pictures a user hands the toolkit (counter faces, imported boards): read as untrusted files.

A picture is a regular file of at most :data:`MAX_PICTURE_BYTES` (read with the data-file guards of
:func:`toolkit.datafile.read_regular`); its width and height are read from its header, and checked against the
caller's pixel budget, before a single pixel is decoded; a picture drawn smaller than it is (a counter face, a
board drawn over a budget) is decoded reduced where the format allows it (JPEG's draft mode) and scaled down
in steps (Pillow's ``reducing_gap``).  Pillow's own decompression-bomb warning is never printed: the budget
here is the check, and its refusal names the file, the size and the limit.
"""
from __future__ import annotations

import io
import math
import os
import warnings

from PIL import Image, UnidentifiedImageError

from .datafile import DataFileError, read_regular

MAX_PICTURE_BYTES = 64 << 20     # a picture file
#: A picture decoded whole (a board image built into a module, or drawn over): 64 million pixels take 256 MB
#: decoded (4 bytes a pixel), the importer's joined boards' limit too.
MAX_DECODED_PIXELS = 64_000_000
#: A picture drawn as a counter face (60 px): 4,000 x 4,000 is far finer than any scan of a counter.
MAX_FACE_PIXELS = 16_000_000


class PictureError(DataFileError):
    """A picture the toolkit cannot use: ``file: key: problem``."""


def open_picture(path: str | os.PathLike[str], what: str, max_pixels: int, key: str = "",
                 draft: tuple[int, int] | None = None) -> Image.Image:
    """The picture at ``path`` (``what`` it is, for messages; ``key``: the setting that names it), opened from
    its bytes but not decoded; refused (:class:`PictureError`) when it is not a picture Pillow reads or holds
    more than ``max_pixels`` -- counted after a JPEG's ``draft`` reduction to about ``draft`` pixels, when given."""
    file = os.fspath(path)
    raw = read_regular(path, file, PictureError, MAX_PICTURE_BYTES)
    try:
        with warnings.catch_warnings():   # the size is checked below, against the caller's budget
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(raw))
            if draft is not None:
                img.draft("RGB", draft)
    except Image.DecompressionBombError:
        raise PictureError(file, key, f"{what}: its header declares more than {Image.MAX_IMAGE_PIXELS * 2:,} "
                                      f"pixels (limit {max_pixels:,}); give a smaller picture") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as err:
        raise PictureError(file, key, f"{what}: not a picture the toolkit reads (PNG, JPEG, GIF …): "
                                      f"{str(err)[:120]}") from None
    width, height = img.size
    if width * height > max_pixels:
        raise PictureError(file, key, f"{what}: {width} x {height} pixels, over the limit of {max_pixels:,} "
                                      f"pixels; give a smaller picture")
    return img


def decoded(img: Image.Image, mode: str, file: str, key: str = "") -> Image.Image:
    """``img`` decoded in ``mode``: a truncated or corrupt picture is refused naming ``file``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            return img.convert(mode)
    except (OSError, SyntaxError, ValueError) as err:
        raise PictureError(file, key, f"the picture cannot be decoded: {str(err)[:120]}") from None


def picture_at(path: str | os.PathLike[str], what: str, size: tuple[int, int], key: str = "",
               max_pixels: int = MAX_FACE_PIXELS) -> Image.Image:
    """A picture drawn at ``size`` pixels (RGB): decoded reduced where the format allows, then scaled down in
    steps (a box reduction first, then Lanczos over the last factor of 3)."""
    img = open_picture(path, what, max_pixels, key, draft=size)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            return img.convert("RGB").resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
    except (OSError, SyntaxError, ValueError) as err:
        raise PictureError(os.fspath(path), key, f"the picture cannot be decoded: {str(err)[:120]}") from None


def reduction(size: tuple[int, int], budget: int) -> int:
    """The smallest whole factor that brings a picture of ``size`` within ``budget`` pixels.

    >>> reduction((4000, 3000), 16_000_000), reduction((13000, 13000), 16_000_000)
    (1, 4)
    """
    return max(1, math.ceil(math.sqrt(size[0] * size[1] / budget)))


def reduced(img: Image.Image, budget: int, mode: str, file: str, key: str = "") -> Image.Image:
    """An opened picture (:func:`open_picture`) decoded in ``mode`` and reduced by a whole factor until it holds
    at most ``budget`` pixels (a JPEG decoded reduced at once by its draft mode)."""
    factor = reduction(img.size, budget)
    if factor > 1:
        img.draft("RGB", (img.size[0] // factor, img.size[1] // factor))
    out = decoded(img, mode, file, key)
    step = reduction(out.size, budget)
    return out.reduce(step) if step > 1 else out
