"""A save's pieces matched to the piece slots of the module a game was imported from, and its decks set aside.

* **Slots**: a piece carries its slot's ``gpid`` (VASSAL 3); where it has none the engine knows (an old save,
  a piece placed before the slot got one), it is matched by its name and image together (several slots often
  share a name -- "Infantry" of each nation -- and differ by image), then by name alone when that is one slot's.
* **Decks**: a ``Deck`` (a ``deck;`` piece) and the cards in it are not part of a position: they are listed
  as a deck of so many cards and as cards in it, never as unknown counters or units on the deck's hex.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ..engine.pieces import SavePiece, fast_decode
from ..saves.savefile import SaveContents, Unplaced

SLOT_GPID = "slot:"   # the gpid given to a piece matched by name and image (a counter id follows)


def slot_keys(manifest: list[dict]) -> dict[tuple[str, str], str]:
    """``(name, image)`` -> counter of a pieces.yaml manifest, and ``(name, "")`` for a name only one slot has."""
    out: dict[tuple[str, str], str] = {}
    names: dict[str, set[str]] = {}
    for p in manifest:
        name, counter = str(p.get("name") or p.get("slot") or ""), str(p.get("counter") or "")
        for image in [p.get("image") or "", *(p.get("faces") or [])]:
            out.setdefault((name, str(image)), counter)
        names.setdefault(name, set()).add(counter)
    out.update({(n, ""): next(iter(cs)) for n, cs in names.items() if len(cs) == 1})
    return out


def _images(p: SavePiece) -> list[str]:
    """A piece's BasicPiece image, then its layers' images (the face it shows may be a layer's)."""
    out = [p.image] if p.image else []
    for t in p.traits:
        out += [i for i in t.layer_images() if i]
    return out


def match_slots(save: SaveContents, gpids: dict[str, str], slots: dict[tuple[str, str], str]) -> SaveContents:
    """The save with each piece whose gpid names no slot given the counter its name and image (else its name
    alone) match, as the gpid ``slot:<counter>`` (:data:`SLOT_GPID`); other pieces are left as they are."""
    pieces = []
    for p in save.pieces:
        counter = None
        if p.gpid not in gpids and p.name:
            counter = next((slots[(p.name, i)] for i in _images(p) if (p.name, i) in slots), None) \
                or slots.get((p.name, ""))
        pieces.append(replace(p, gpid=SLOT_GPID + counter) if counter else p)
    return replace(save, pieces=pieces)


def deck_name(p: SavePiece) -> str | None:
    """The name of a ``Deck`` piece (its type's 14th field), or None for any other piece."""
    if not p.basic_type.startswith("deck;"):
        return None
    f = fast_decode(p.basic_type, ";")
    return f[13] if len(f) > 13 else ""


def set_aside_decks(save: SaveContents) -> tuple[SaveContents, list[Unplaced]]:
    """The save without its decks and the cards in them, and each listed (a deck with its count of cards, each
    card with its deck)."""
    decks = {p.id: p for p in save.pieces if deck_name(p) is not None}
    if not decks:
        return save, []
    held: dict[str, SavePiece] = {}
    for d in decks.values():   # Deck.getState: map;x;y;faceDown;id,id,...
        state = fast_decode(d.basic_state, ";")
        for cid in fast_decode(state[4], ",") if len(state) > 4 and state[4] else []:
            held[cid] = d
    counts = Counter(d.id for d in held.values())
    out, kept = [], []
    for p in save.pieces:
        if p.id in decks:
            out.append(Unplaced(p.id, deck_name(p) or "", p.map, p.x, p.y,
                                f"a deck of {counts[p.id]} cards (decks are not part of a position)", p.gpid))
        elif p.id in held:
            out.append(Unplaced(p.id, p.name, p.map, p.x, p.y, f"a card in the deck {deck_name(held[p.id])!r}",
                                p.gpid))
        else:
            kept.append(p)
    return replace(save, pieces=kept), out
