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


def _unquote(token: str) -> str:
    return token[1:-1] if len(token) > 1 and token[0] == "'" and token[-1] == "'" else token


def decode(text: str | None, delim: str) -> list[str]:
    """Split a sequence as VASSAL's ``SequenceEncoder.Decoder`` does (escaped delimiters kept)."""
    if text is None:
        return []
    tokens, start, stop = [], 0, len(text)
    while True:
        if start == stop:
            tokens.append("")
            return tokens
        buf, tok, i, last = "", None, start, True
        while i < stop:
            if text[i] == delim:
                if i > 0 and text[i - 1] == "\\":
                    buf += text[start:i - 1]
                    start = i
                else:
                    if buf:
                        buf += text[start:i]
                    else:
                        tok = text[start:i]
                    start, last = i + 1, False
                    break
            i += 1
        if last:
            if buf:
                buf += text[start:stop]
            else:
                tok = text[start:]
        tokens.append(_unquote(tok if tok is not None else buf))
        if last:
            return tokens
