"""VASSAL's ``SequenceEncoder``: tokens joined by a one-character delimiter.

Piece definitions, piece states and saved-game commands nest sequences inside
tokens of other sequences (``/`` inside ``;`` inside tab ...), so every level
must escape its own delimiter.  These functions do exactly what
``VASSAL.tools.SequenceEncoder`` (3.6) and its ``Decoder`` do.

>>> encode(["a/b", "", "'q'"], "/")
"a\\\\/b//''q''"
>>> decode(encode(["a/b", "", "'q'"], "/"), "/")
['a/b', '', "'q'"]
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable


def _escape(token: str, delim: str) -> str:
    if not token:
        return ""
    out = token.replace(delim, "\\" + delim)
    if token[0] == "\\" or (token[0] == "'" and token[-1] == "'"):
        out = "'" + out + "'"
    return out


def encode(tokens: Iterable[object], delim: str) -> str:
    """Join tokens (``None`` as empty, others with ``str``) as VASSAL's encoder does."""
    if len(delim) != 1:
        raise ValueError("a SequenceEncoder delimiter is one character")
    return delim.join(_escape("" if t is None else str(t), delim) for t in tokens)


def unquote(token: str) -> str:
    """The token without one pair of enclosing single quotes (the encoder's quoting)."""
    return token[1:-1] if len(token) > 1 and token[0] == "'" and token[-1] == "'" else token


@lru_cache(maxsize=None)
def splitter(delim: str) -> re.Pattern[str]:
    """The pattern that splits at unescaped ``delim`` (one not right after a backslash)."""
    return re.compile(f"(?<!\\\\){re.escape(delim)}")


def decode(text: str | None, delim: str) -> list[str]:
    """Split a sequence as VASSAL's ``SequenceEncoder.Decoder`` does (escaped delimiters kept).

    A delimiter right after a backslash is part of its token and that one
    backslash is dropped; then one pair of enclosing quotes is stripped.
    Linear in the text (one regular-expression split).
    """
    if text is None:
        return []
    escaped = "\\" + delim
    return [unquote(t.replace(escaped, delim) if escaped in t else t) for t in splitter(delim).split(text)]
