"""VASSAL game pieces in saved games: AddPiece commands, trait chains, BasicPiece and Stack states.

An AddPiece command is ``+/id/type/state`` (SequenceEncoder, ``/``).  The
type and the state are trait chains: ``outerType TAB innerType`` nested
outward (each level escapes its own TABs), ending in a BasicPiece
``piece;cloneKey;deleteKey;image;name`` whose state is
``map;x;y;gpid;n;k1;v1;...``.  A ``Marker`` trait (``mark;k1,k2`` with state
``v1,v2``) holds named properties.  A stack is ``+/id/stack/map;x;y;id...;@@layer``.

>>> p = parse_add_piece(encode_add_piece("7", [Trait("mark;counter", "inf")],
...                                       basic_type("a.png", "Inf"), basic_state("Main", 10, 20, "3")))
>>> (p.id, p.name, p.image, p.map, p.x, p.y, p.gpid, p.properties["counter"])
('7', 'Inf', 'a.png', 'Main', 10, 20, '3', 'inf')
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .seqenc import decode as _slow_decode
from .seqenc import encode, splitter, unquote as _unquote


def tab_split(text: str, maxsplit: int = 0) -> list[str]:
    """Split at unescaped TABs (no unescaping), at most ``maxsplit`` times (0: all)."""
    return splitter("\t").split(text, maxsplit)

__all__ = ["Trait", "PieceLimitError", "TraitLimitError", "MAX_TRAITS", "SavePiece", "SaveStack", "fast_decode", "parse_add_piece", "parse_stack", "split_chain",
           "encode_add_piece", "encode_stack", "basic_type", "basic_state", "marker_trait", "java_int"]

TAB = "\t"
MAX_TRAITS = 64  # trait levels of one piece (a toolkit counter has 12; VASSAL modules rarely pass 30)


class PieceLimitError(ValueError):
    """A piece refused outright (bounded work on hostile saves): more trait levels than the limit, or a
    BasicPiece declaring more properties than its state holds (VASSAL itself fails on it)."""


TraitLimitError = PieceLimitError


def fast_decode(text: str, delim: str) -> list[str]:
    """:func:`toolkit.vassal.engine.seqenc.decode`, with a fast path when nothing is escaped or quoted."""
    if "\\" in text:
        return _slow_decode(text, delim)
    parts = text.split(delim)
    if "'" in text:
        parts = [p[1:-1] if len(p) > 1 and p[0] == "'" and p[-1] == "'" else p for p in parts]
    return parts


def java_int(text: str, default: int = 0) -> int:
    """``SequenceEncoder.Decoder.nextInt``: ``Integer.parseInt`` or the default."""
    try:
        return int(text.strip()) if text.strip().lstrip("+-").isdigit() else default
    except ValueError:
        return default


@dataclass(frozen=True)
class Trait:
    """One decorator of a piece: its own type (``id;...``) and state."""

    type: str
    state: str = ""

    @cached_property
    def kind(self) -> str:
        """The trait's id: its type up to the first ``;`` (``mark``, ``emb2``, ``prototype`` ...)."""
        return self.type.split(";", 1)[0]

    def layer_images(self) -> list[str]:
        """A layer's (``emb2``) image for each level, empty for a level with none; empty for other traits."""
        if self.kind != "emb2":
            return []
        fields = fast_decode(self.type[len("emb2;"):], ";")
        return fast_decode(fields[15], ",") if len(fields) > 15 else []

    def marker_properties(self) -> dict[str, str]:
        """The properties a trait holds: a ``Marker`` (``mark;k1,k2`` / ``v1,v2``) or a ``DynamicProperty``
        (``PROP;name;...`` / value); empty for other traits."""
        if self.kind == "PROP":
            name = fast_decode(self.type, ";")
            return {name[1]: self.state} if len(name) > 1 and name[1] else {}
        if self.kind != "mark":
            return {}
        keys = fast_decode(self.type[5:], ",") if len(self.type) > 5 else []
        values = fast_decode(self.state, ",") if self.state else []
        return {k: (values[i] if i < len(values) else "") for i, k in enumerate(keys)}


@dataclass
class SavePiece:
    """A piece added by a saved game."""

    id: str | None
    type: str
    state: str
    traits: list[Trait] = field(default_factory=list)  # outermost first, BasicPiece excluded
    basic_type: str = ""
    basic_state: str = ""
    name: str = ""
    image: str = ""
    map: str | None = None
    x: int = 0
    y: int = 0
    gpid: str = ""
    persistent: dict[str, str] = field(default_factory=dict)  # BasicPiece persistent properties
    properties: dict[str, str] = field(default_factory=dict)  # Marker and DynamicProperty values (outermost wins)
    stack: str | None = None  # id of the stack holding it, if any

    def trait_state(self, kind: str) -> str | None:
        """The state of the outermost trait of a kind (``emb2``, ``obs``, ``label`` ...), or None."""
        return next((t.state for t in self.traits if t.kind == kind), None)

    @property
    def shows_back(self) -> bool:
        """Whether its flip layer shows a level past the first: the counter's back face.  The flip layer is the
        outermost ``emb2`` with two images or more (a one-image layer above it, a highlight, is not a face), else
        the outermost ``emb2``."""
        layers = [t for t in self.traits if t.kind == "emb2"]
        flip = next((t for t in layers if sum(1 for i in t.layer_images() if i) >= 2), layers[0] if layers else None)
        return flip is not None and java_int(fast_decode(flip.state or "1", ";")[0], 1) > 1

    @property
    def masked_by(self) -> str | None:
        """The side (or player) that turned it face down (``obs`` state), or None."""
        state = self.trait_state("obs")
        token = fast_decode(state, ";")[0] if state else "null"
        return None if token in ("", "null") else token

    @property
    def is_basic(self) -> bool:
        """Whether the chain ends in a BasicPiece (``piece;...``)."""
        return self.basic_type.split(";", 1)[0] == "piece"


@dataclass
class SaveStack:
    """A stack: its map, position and the ids of its pieces, bottom first."""

    id: str | None
    map: str | None
    x: int
    y: int
    pieces: list[str]
    layer: int | None = None


def _head(text: str) -> tuple[str, str | None]:
    """The first TAB token of a trait chain and the rest decoded one level (None: no rest).

    As ``fast_decode(text, TAB)`` followed by VASSAL's ``Decoder.getRemaining``
    (a chain written without nested escaping still decodes), but splitting only
    at the first unescaped TAB, so a chain of n traits costs n splits of
    ever shorter texts instead of n full decodes.
    """
    i = text.find(TAB)
    if i < 0:
        return _unquote(text), None
    if text[i - 1:i] != "\\":  # the usual nested chain: one separator, every inner TAB escaped once more
        rest = text[i + 1:]
        if rest.count(TAB) == rest.count("\\" + TAB):
            return _unquote(text[:i]), _unquote(rest.replace("\\" + TAB, TAB))
    parts = tab_split(text, 1)
    if len(parts) == 1:
        return fast_decode(text, TAB)[0], None
    head, rest = fast_decode(parts[0], TAB)[0], parts[1]
    if tab_split(rest, 1)[0] != rest:  # more unescaped TABs: an unnested chain
        return head, TAB.join(fast_decode(rest, TAB))
    return head, fast_decode(rest, TAB)[0]


def split_chain(type_: str, state: str, max_traits: int = MAX_TRAITS) -> tuple[list[Trait], str, str]:
    """Split a piece's type and state into traits (outermost first) and the innermost type/state.

    More than ``max_traits`` levels raise :class:`TraitLimitError` (each level costs a pass over the
    rest of the chain, so the cap keeps the work linear in the piece).
    """
    traits: list[Trait] = []
    while True:
        thead, trest = _head(type_)
        if trest is None:
            return traits, type_, state
        if len(traits) >= max_traits:
            raise TraitLimitError(f"a piece with more than {max_traits} trait levels (limit)")
        shead, srest = _head(state) if state else ("", None)
        traits.append(Trait(thead, shead))
        type_, state = trest, srest or ""


def parse_add_piece(command: str, max_traits: int = MAX_TRAITS) -> SavePiece:
    """Decode an AddPiece command ``+/id/type/state`` (at most ``max_traits`` trait levels)."""
    parts = fast_decode(command, "/")
    if len(parts) < 3 or parts[0] != "+":
        raise ValueError(f"not an AddPiece command: {command[:60]!r}")
    pid = parts[1]
    type_ = parts[2]
    state = parts[3] if len(parts) > 3 else ""
    if len(parts) > 4:  # an unescaped '/' in the state: VASSAL's Decoder would stop at the 4th token
        state = "/".join(parts[3:])
    traits, btype, bstate = split_chain(type_, state, max_traits)
    piece = SavePiece(None if pid in ("", "null") else pid, type_, state, traits, btype, bstate)
    t = fast_decode(btype, ";")
    if t[0] == "piece":
        piece.image = t[3] if len(t) > 3 else ""
        piece.name = t[4] if len(t) > 4 else ""
    s = fast_decode(bstate, ";") if bstate else []
    if s:
        piece.map = None if s[0] in ("null", "") else s[0]
        piece.x = java_int(s[1]) if len(s) > 1 else 0
        piece.y = java_int(s[2]) if len(s) > 2 else 0
    if s and t[0] == "piece":   # a Deck's state goes on ``faceDown;cardIds``: only map, x and y are shared
        piece.gpid = s[3] if len(s) > 3 else ""
        n = java_int(s[4]) if len(s) > 4 else 0   # a legacy state (``null;0;0``) ends early: the engine's
        held = max(0, (len(s) - 4) // 2)           # nextToken("")/nextInt(0) read missing tokens as defaults
        if n > held:  # never loop on a count from the file: it is bounded by the tokens there are
            raise PieceLimitError(f"piece {pid[:40]!r} declares {n} properties but its state holds {held}")
        for i in range(max(0, n)):
            k = s[5 + 2 * i] if 5 + 2 * i < len(s) else ""
            v = s[6 + 2 * i] if 6 + 2 * i < len(s) else ""
            piece.persistent[k] = v
    for tr in traits:
        for k, v in tr.marker_properties().items():
            piece.properties.setdefault(k, v)
    return piece


def parse_stack(pid: str | None, state: str) -> SaveStack:
    """Decode a Stack state ``map;x;y;id...;@@layer``."""
    s = fast_decode(state, ";")
    mp = s[0] if s else "null"
    if mp == "null":
        x = y = 0
        rest = s[1:]
    else:
        x = java_int(s[1]) if len(s) > 1 else 0
        y = java_int(s[2]) if len(s) > 2 else 0
        rest = s[3:]
    ids, layer = [], None
    for tok in rest:
        if tok.startswith("@@"):
            layer = java_int(tok[2:], 0)
        elif tok:
            ids.append(tok)
    return SaveStack(pid, None if mp in ("null", "") else mp, x, y, ids, layer)


# ---------------------------------------------------------------- writing


def basic_type(image: str, name: str, clone_key: str = "", delete_key: str = "") -> str:
    """A BasicPiece type ``piece;cloneKey;deleteKey;image;name``."""
    return "piece;" + encode([clone_key, delete_key, image, name], ";")


def basic_state(map_name: str | None, x: int, y: int, gpid: str, persistent: dict[str, str] | None = None) -> str:
    """A BasicPiece state ``map;x;y;gpid;n;k1;v1;...``."""
    toks: list[object] = ["null" if map_name is None else map_name, int(x), int(y), gpid]
    props = persistent or {}
    toks.append(len(props))
    for k, v in props.items():
        toks += [k, v]
    return encode(toks, ";")


def marker_trait(props: dict[str, str]) -> Trait:
    """A ``Marker`` trait holding ``props`` (in their order)."""
    return Trait("mark;" + encode(list(props), ","), encode(list(props.values()), ","))


def encode_add_piece(pid: str | None, traits: list[Trait], btype: str, bstate: str) -> str:
    """The AddPiece command of a piece: traits (outermost first) around a BasicPiece, nested as VASSAL does."""
    type_, state = btype, bstate
    for tr in reversed(traits):
        type_ = encode([tr.type, type_], TAB)
        state = encode([tr.state, state], TAB)
    return "+/" + encode(["null" if pid is None else pid, type_, state], "/")


def encode_stack(pid: str, map_name: str | None, x: int, y: int, ids: list[str], layer: int = 0) -> str:
    """The AddPiece command of a Stack."""
    toks: list[object] = ["null" if map_name is None else map_name]
    if map_name is not None:
        toks += [int(x), int(y)]
    toks += list(ids) + [f"@@{layer}"]
    return "+/" + encode([pid, "stack", encode(toks, ";")], "/")
