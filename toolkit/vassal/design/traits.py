"""The VASSAL 3.6 traits (piece decorators) the toolkit's modules use, as ``type``/``state`` pairs.

Each function returns a :class:`~toolkit.vassal.engine.pieces.Trait` whose type is
the exact string the engine's ``myGetType`` writes (field order checked
against VASSAL 3.6's ``VASSAL.counters`` sources) and whose state is the
trait's state at rest.  Keystrokes are ``keyCode,modifiers`` as
``NamedHotKeyConfigurer.encode`` writes them.

>>> delete_trait().type
'delete;Delete;68,130;'
>>> mask_trait("hidden.png", "Arab").type
'obs;77,130;hidden.png;Face down / up;I;Face down;side:;Peek;Face down (12.1);false'
>>> report_trait([KEY_FLIP]).type
'report;70\\\\,130;$oldLocationName$: $menuCommand$ ($oldPieceName$);;;Report;false'
"""
from __future__ import annotations

from ..engine.pieces import Trait
from ..engine.seqenc import encode

# Keystrokes: keyCode,modifiers (Ctrl = 130, Ctrl+Shift = 195).
CTRL, CTRL_SHIFT = 130, 195
KEY_DELETE = f"{ord('D')},{CTRL}"
KEY_CLONE = f"{ord('C')},{CTRL}"
KEY_FLIP = f"{ord('F')},{CTRL}"
KEY_MASK = f"{ord('M')},{CTRL}"
KEY_ELIMINATE = f"{ord('E')},{CTRL}"
KEY_MARK_MOVED = f"{ord('M')},{CTRL_SHIFT}"
KEY_LABEL = f"{ord('L')},{CTRL}"
KEY_ROTATE_CW = f"{ord(']')},{CTRL}"
KEY_ROTATE_CCW = f"{ord('[')},{CTRL}"
KEY_TO_TURN = f"{ord('T')},{CTRL_SHIFT}"   # sent to the turn markers when the turn tracker moves

#: A reported keystroke: where the piece was before it (``$oldLocationName$``: after Delete or Eliminate the
#: piece is gone from the hex), the command and the piece (VASSAL adds the "* " itself).
REPORT_FORMAT = "$oldLocationName$: $menuCommand$ ($oldPieceName$)"


def delete_trait() -> Trait:
    """Delete, on Ctrl+D."""
    return Trait("delete;" + encode(["Delete", KEY_DELETE, ""], ";"))


def clone_trait() -> Trait:
    """Clone, on Ctrl+C."""
    return Trait("clone;" + encode(["Clone", KEY_CLONE, ""], ";"))


def prototype_trait(name: str) -> Trait:
    """UsePrototype ``prototype;<name>`` (no parameters); its traits are spliced in when a piece enters a game."""
    return Trait("prototype;" + encode([name, ""], ";"))


def flip_trait(front: str, back: str, back_name: str, back_showing: bool = False) -> Trait:
    """Embellishment ``emb2;`` with the two faces, always active, Ctrl+F loops; state ``1`` front, ``2`` back."""
    images = encode([front, back], ",")
    # a level name without '+' replaces the piece name; escape '+' so it is never read as prefix/suffix
    names = encode(["", encode([back_name], "+")], ",")
    fields = [
        "", 128, "",            # activate command, modifiers, key (unused in version 1)
        "Flip", 128, "",        # up command, modifiers, key
        "", 128, "",            # down command, modifiers, key
        "", "", "1",            # reset command, reset key, reset level
        "false", 0, 0,          # draw underneath when selected, x/y offset
        images, names,
        "true", "Face",         # loop levels, layer name
        "", "",                 # random key, random text
        "false", "", 1,         # follow property, property name, first level value
        1, "true",              # version (CURRENT_VERSION), always active
        "", KEY_FLIP, "",       # activate, increase, decrease keystrokes
        "Flip", "1.0",          # description, scale
    ]
    return Trait("emb2;" + encode(fields, ";"), "2" if back_showing else "1")


def mask_trait(hidden_image: str, hidden_by: str | None = None, rule: str = "12.1") -> Trait:
    """Obscurable ``obs;``: Ctrl+M turns the piece face down for its side (``side:`` access).

    The opponent sees ``hidden_image``; the owner sees the piece with that
    image inset in a corner.  State: the side that hid it (``hidden_by``), or ``null`` face up.
    """
    fields = [KEY_MASK, hidden_image, "Face down / up", "I", "Face down", "side:", "Peek",
              f"Face down ({rule})", "false"]
    return Trait("obs;" + encode(fields, ";"), encode([hidden_by or "null", ""], ";"))


def mark_moved_trait(image: str, x_offset: int, y_offset: int) -> Trait:
    """MovementMarkable ``markmoved;``: the moved flag drawn at the offset from the centre; Ctrl+Shift+M toggles."""
    return Trait("markmoved;" + encode([image, x_offset, y_offset, "Mark moved", KEY_MARK_MOVED, ""], ";"),
                 "false")


def report_trait(keys: list[str]) -> Trait:
    """ReportState ``report;``: every listed keystroke is reported to the chat with the location and the command
    (list only keys the piece acts on: any other is reported with no command, ``0105:  (Infantry)``)."""
    return Trait("report;" + encode([encode(keys, ","), REPORT_FORMAT, "", "", "Report", "false"], ";"), "-1")


def send_to_zone_trait(command: str, key: str, map_name: str, zone: str, description: str = "") -> Trait:
    """SendToLocation ``sendto;`` to a zone of a map (destination ``Z``), e.g. the eliminated box.

    An empty ``command`` gives no menu item (the key alone moves the piece); ``zone`` may name properties,
    as ``Turn $Turn$`` names the turn tracker's current turn."""
    fields = [command, key, map_name, "", 0, 0, "", "", 0, 0, 1, 1, description or command, "Z", zone, "", "", ""]
    return Trait("sendto;" + encode(fields, ";"), encode(["", "", ""], ";"))


def dynamic_property_trait(name: str, value: str = "") -> Trait:
    """DynamicProperty ``PROP;``: a per-piece value (kept by Refresh Counters, unlike Marker values)."""
    return Trait("PROP;" + encode([name, "false,0,100,false", "", name], ";"), value)


def label_trait(value: str = "") -> Trait:
    """Labeler ``label;``: a value printed under the marker (Ctrl+L to change), e.g. victory points.

    The label starts at the marker's left edge and runs right (horizontal position and justification ``l``):
    centred, a long value (No Prisoners' four victory point indices) ran past the left edge of a box board."""
    fields = [KEY_LABEL, "Set value", 10, "255,255,255", "0,0,0", "b", 0, "l", 0, "t", "l",
              "$pieceName$ ($label$)", "Dialog", 1, 0, "TextLabel", "Value"]
    return Trait("label;" + encode(fields, ";"), value)


def rotate_trait(steps: int, index: int = 0) -> Trait:
    """FreeRotator ``rotate;`` with ``steps`` fixed angles (six on a hex grid: one hexside a step), Ctrl+] clockwise
    and Ctrl+[ counter-clockwise; state: the angle's index, clockwise from the counter's top (``validAngles[i]``
    is ``-i * 360 / steps`` degrees)."""
    fields = [steps, KEY_ROTATE_CW, KEY_ROTATE_CCW, "Turn clockwise", "Turn counter-clockwise",
              "", "", "Facing", "Facing", "", "", "", "true"]
    return Trait("rotate;" + encode(fields, ";"), str(index))


def no_stack_trait() -> Trait:
    """Immobilized ``immob;``: the piece never joins a stack (selected and moved as usual): a marker is picked
    up alone, never with the units it lies on."""
    return Trait("immob;" + encode(["", "N", "R", "Does not stack"], ";"))

