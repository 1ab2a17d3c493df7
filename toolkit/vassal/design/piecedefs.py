"""The one definition of every piece of a game's module, shared by the palette, the prototypes and the saves.

A counter's palette piece is, outermost first: the side's prototype (Report,
Delete, Clone, Eliminate, Mark moved), a mask for the counters the game lets
a side place face down (``game.yaml`` ``hideable``), a flip layer with both
faces for counters with a back, per-piece values (``unit``, ``flags``,
``carried_by``, ``spent``: DynamicProperties, which Refresh Counters keeps),
and the counter's fixed values (a Marker trait: ``side``, ``counter``,
strengths ...) around the BasicPiece.  A marker has the ``Marker`` prototype,
a value label and its ``marker`` id.

Pieces lie in two layers of every map (``LayeredPieceCollection`` on the
property ``Layer``): units below, markers above, so a marker put on a unit
stays in view and can be grabbed; markers never stack (an ``immob;`` trait).  Counters whose
rules need a facing (``game.yaml`` ``facing``) turn one hexside a step (a
``rotate;`` trait), and the game's turn markers (``game.yaml`` ``turn_markers``)
go to the current turn's box when the turn tracker's turn changes.

A piece that enters a game has its prototypes spliced in (VASSAL's
``PieceCloner``); saves therefore carry the *expanded* chain
(:func:`expanded`) with each trait's state set from the position
(:func:`unit_piece`, :func:`marker_piece`), so a piece from a save or a
predefined setup has exactly the traits and actions of a palette piece.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...game.module import Game
from ...game.position import MarkerAt, Unit
from ...game.schema import Counter, Marker
from .entry import enters_words
from .counters import counter_image_name, game_counter_size, hidden_image_name, marker_image_name
from ..engine.pieces import Trait, basic_state, basic_type, encode_add_piece, marker_trait
from .turns import TURN_PROPERTY
from .traits import (KEY_DELETE, KEY_ELIMINATE, KEY_FLIP, KEY_MASK, KEY_TO_TURN, clone_trait, delete_trait,
                     dynamic_property_trait, flip_trait, label_trait, mark_moved_trait, mask_trait, no_stack_trait,
                     prototype_trait, report_trait, rotate_trait, send_to_zone_trait)

MAIN_MAP = "Main Map"
BOXES_MAP = "Boxes and tracks"
MOVED_IMAGE = "moved.png"
MARKER_PROTOTYPE = "Marker"
LAYER_PROPERTY = "Layer"
MARKER_LAYER, UNIT_LAYER = "Markers", "Units"
LAYERS = (UNIT_LAYER, MARKER_LAYER)  # bottom first: a marker put on a unit lies on top of it, as on a table
TURN_ZONE = "Turn {}"  # the boxes map's zone of a turn
#: Per-piece values (DynamicProperty); ``ENTERS`` is the entry hexes in words, which the Boxes window's mouse-over
#: writes beside the turn box a reinforcement waits in.
ENTERS = "enters"
UNIT_PROPERTIES = ("unit", "flags", "carried_by", "spent", "arrives", "entry", ENTERS)


@dataclass(frozen=True)
class PieceDef:
    """A palette piece: its traits (outermost first, prototypes by name), BasicPiece image and name, gpid."""

    traits: tuple[Trait, ...]
    image: str
    name: str
    gpid: str

    def add_piece(self, pid: str | None = None, map_name: str | None = None, x: int = 0, y: int = 0,
                  traits: tuple[Trait, ...] | None = None) -> str:
        """The AddPiece command of this piece (palette text when ``pid`` and ``map_name`` are None)."""
        return encode_add_piece(pid, list(self.traits if traits is None else traits), basic_type(self.image, self.name),
                                basic_state(map_name, x, y, self.gpid))


def palette(game: Game) -> dict[str, dict[str, list[Counter]]]:
    """The counter palette: side name -> group name -> counters, in module order."""
    out: dict[str, dict[str, list[Counter]]] = {}
    for side in game.spec.sides:
        for c in game.manifest.counters:
            if c.side == side.id:
                out.setdefault(side.name, {}).setdefault(group_of(c), []).append(c)
    return out


def group_of(c: Counter) -> str:
    """Palette group of a counter: its formation, else its type."""
    formation = c.values.get("formation")
    if isinstance(formation, str) and formation:
        return formation
    return c.type.replace("_", " ").capitalize()


def piece_gpids(game: Game) -> dict[str, str]:
    """The PieceSlot gpid of every counter and marker id (saves use the same numbers)."""
    ids = [c.id for groups in palette(game).values() for members in groups.values() for c in members]
    ids += [m.id for m in game.manifest.markers]
    return {pid: str(n) for n, pid in enumerate(ids, start=1)}


def _value(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def counter_properties(c: Counter) -> dict[str, str]:
    """The fixed properties of a counter's piece: side, nationality, type, counter id and every value."""
    props = {"side": c.side, "nationality": c.nationality, "type": c.type, "counter": c.id}
    props.update((k, _value(v)) for k, v in c.values.items())
    return props


def prototypes(game: Game) -> dict[str, tuple[Trait, ...]]:
    """Every PrototypeDefinition of the module: one per side, one for markers (name -> traits)."""
    half = game_counter_size(game) // 2
    moved = mark_moved_trait(MOVED_IMAGE, half - 6, -half - 6)  # on the corner, clear of the name
    out = {}
    for side in game.spec.sides:
        out[side.name] = (report_trait([KEY_ELIMINATE, KEY_DELETE]), delete_trait(), clone_trait(),
                          send_to_zone_trait("Eliminate", KEY_ELIMINATE, BOXES_MAP,
                                             game.spec.box_name(game.spec.eliminated_box)),
                          moved, marker_trait({"side_name": side.name, LAYER_PROPERTY: UNIT_LAYER}))
    out[MARKER_PROTOTYPE] = (report_trait([KEY_DELETE]), delete_trait(), clone_trait(), no_stack_trait(),
                             marker_trait({LAYER_PROPERTY: MARKER_LAYER, ENTERS: ""}))   # else a viewer writes "enters"
    return out


def hideable(game: Game, c: Counter) -> bool:
    """Whether the game lets the counter's side place it face down (``game.yaml`` ``hideable``)."""
    return c.type in game.spec.hideable.get(c.side, ())


def facing_flags(game: Game, c: Counter) -> list[str]:
    """The flags of a counter's facings, clockwise from its top (``game.yaml`` ``facing``); empty when its type has
    none."""
    facing = game.spec.facing
    return list(facing.flags) if facing is not None and c.type in facing.unit_types else []


def counter_def(game: Game, c: Counter, gpid: str) -> PieceDef:
    """The palette piece of a counter."""
    side = next(s for s in game.spec.sides if s.id == c.side)
    traits: list[Trait] = [prototype_trait(side.name)]
    own_keys = [key for key, has in ((KEY_MASK, hideable(game, c)), (KEY_FLIP, c.back is not None)) if has]
    if own_keys:  # reported by the piece that has them: a key on a mixed stack reports no empty command
        traits.append(report_trait(own_keys))
    if hideable(game, c):
        traits.append(mask_trait(hidden_image_name(c.side)))
    if facing_flags(game, c):
        traits.append(rotate_trait(len(facing_flags(game, c))))
    image = counter_image_name(c.id)
    if c.back is not None:
        traits.append(flip_trait(image, counter_image_name(c.id, back=True), c.back_name or c.name))
        image = ""
    traits += [dynamic_property_trait(k) for k in UNIT_PROPERTIES]
    traits.append(marker_trait(counter_properties(c)))
    return PieceDef(tuple(traits), image, c.name, gpid)


def marker_def(game: Game, m: Marker, gpid: str) -> PieceDef:
    """The palette piece of a marker; a turn marker (``game.yaml`` ``turn_markers``) also goes to the turn
    tracker's current turn on the module's "follow the turn" key."""
    current_turn = TURN_ZONE.format(f"${TURN_PROPERTY}$")
    follow = (send_to_zone_trait("", KEY_TO_TURN, BOXES_MAP, current_turn, "Follow the turn"),) \
        if m.id in game.spec.turn_markers else ()
    return PieceDef((prototype_trait(MARKER_PROTOTYPE), *follow, label_trait(), dynamic_property_trait("toward"),
                     marker_trait({"marker": m.id})), marker_image_name(m.id), m.name, gpid)


def expanded(game: Game, traits: tuple[Trait, ...]) -> tuple[Trait, ...]:
    """The chain with every prototype reference replaced by the prototype's traits, as a piece in a game has it."""
    protos = prototypes(game)
    out: list[Trait] = []
    for t in traits:
        if t.kind == "prototype":
            out += protos[t.type.split(";", 2)[1]]
        else:
            out.append(t)
    return tuple(out)


def _with_state(t: Trait, state: str) -> Trait:
    return Trait(t.type, state)


def unit_values(game: Game, unit: Unit) -> dict[str, str]:
    """A unit's own values as a save carries them (DynamicProperties): id, carrier, MP spent, arrival turn and
    entry hexes of a reinforcement (``|``-joined), and those hexes in words (:func:`.entry.enters_words`)."""
    name = game.map.name
    return {"unit": unit.id, "carried_by": unit.carried_by or "", "spent": f"{unit.spent:g}",
            "arrives": unit.arrives or "", "entry": "|".join(name(h) for h in unit.entry),
            ENTERS: enters_words(game, unit.entry)}


def unit_piece(game: Game, unit: Unit, gpid: str, pid: str, map_name: str, x: int, y: int) -> str:
    """The AddPiece command of a unit of a position: its counter's full piece, with the unit's state."""
    spec = game.spec
    d = counter_def(game, unit.counter, gpid)
    flags = set(unit.flags)
    values = unit_values(game, unit)
    traits = []
    for t in expanded(game, d.traits):
        if t.kind == "emb2":
            t = _with_state(t, "2" if spec.back_flag in flags else "1")
        elif t.kind == "obs":
            t = _with_state(t, f"{_side_name(game, unit.counter.side)};" if spec.hidden_flag in flags else "null;")
        elif t.kind == "rotate":
            t = _with_state(t, str(facing_index(game, unit)))
        elif t.kind == "PROP":
            name = t.type.split(";", 2)[1]
            t = _with_state(t, values.get(name, "|".join(sorted(flags - _face_flags(game, unit.counter)))))
        traits.append(t)
    return d.add_piece(pid, map_name, x, y, tuple(traits))


def _face_flags(game: Game, c: Counter) -> set[str]:
    """The flags a piece shows by its face (flip layer, mask) rather than by its ``flags`` property."""
    out = set()
    if c.back is not None and game.spec.back_flag:
        out.add(game.spec.back_flag)
    if hideable(game, c):
        out.add(game.spec.hidden_flag)
    return out | set(facing_flags(game, c))


def facing_index(game: Game, unit: Unit) -> int:
    """The rotation of a unit's piece: the index of its facing flag among its counter's facings (0 without one)."""
    faces = facing_flags(game, unit.counter)
    return next((i for i, f in enumerate(faces) if unit.has(f)), 0)


def _side_name(game: Game, side_id: str) -> str:
    return next(s.name for s in game.spec.sides if s.id == side_id)


def marker_piece(game: Game, marker: MarkerAt, gpid: str, pid: str, map_name: str, x: int, y: int) -> str:
    """The AddPiece command of a marker of a position: its value on the label, the hex it points toward."""
    d = marker_def(game, game.markers[marker.marker], gpid)
    states = {"label": "" if marker.value is None else _value(marker.value),
              "PROP": "" if marker.toward is None else game.map.name(marker.toward)}
    traits = tuple(_with_state(t, states[t.kind]) if t.kind in states else t for t in expanded(game, d.traits))
    return d.add_piece(pid, map_name, x, y, traits)
