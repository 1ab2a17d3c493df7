"""VASSAL log files (``.vlog``): the game state at the start of the log, then the logged steps.

A ``.vlog`` is a zip like a ``.vsav`` (``savedGame``, ``savedata``,
``moduledata``).  ``BasicLogger.write`` (VASSAL 3.6) stores in ``savedGame``
the restore command of the game when logging began (``begin_save`` ...
``end_save``, exactly a save) with one ``LogCommand`` appended per logged
command, all encoded by ``GameModule.encode``:

* commands are joined with ESC (``SequenceEncoder``), a compound command's
  sub-commands nested as an escaped token (``\\`` before each inner ESC);
* ``BasicLogger.encode``: a ``LogCommand`` is ``LOG`` TAB + the logged
  command (its sub-commands stripped and wrapped in ``LogCommand``s of their
  own, appended after it), so one *step* of "Step forward" is one top-level
  token starting ``LOG\\t`` and every leaf inside it starts ``LOG\\t`` too;
* the logged commands (``BasicCommandEncoder``, ``/``-separated):
  AddPiece ``+/id/type/state``; RemovePiece ``-/id`` (id not encoded);
  ChangePiece ``D/id/newState[/oldState]``; MovePiece
  ``M/id/newMap/newX/newY/newUnder/oldMap/oldX/oldY/oldUnder/playerId``
  (``null`` for no map / no piece underneath); the turn tracker
  ``TURN<id>`` TAB ``<state>``; chat ``CHAT<text>``; other components'
  commands by their prefixes (``PLAYER\\t``, ``NOTES\\t``, ``SPP\\t`` ...).

:func:`read_log` reads a file through the untrusted-archive guards of
:mod:`toolkit.vassal.engine.safezip` with limits on sizes, steps, commands and
nesting; every refusal is a :class:`LogError` naming the file.  Unknown
commands are kept (kind ``unknown``), never refused.  :func:`encode_log` /
:func:`log_bytes` write logs (for tests and tools).

>>> text = encode_log("begin_save" + ESC + "end_save", [[move_piece_command("7", "Main", 10, 20, None,
...                                                                          "Main", 0, 0, None)]])
>>> log = parse_log_text(text)
>>> [(c.kind, c.data["id"], c.data["new_x"]) for c in log.steps[0].commands]
[('move', '7', 10)]
"""
from __future__ import annotations

import io
import os
import re
import zipfile
from dataclasses import dataclass, field
from typing import IO, Any, Iterable, Sequence

from ..engine.pieces import fast_decode
from ..engine.safezip import open_archive
from .savefile import (ESC, MAX_SAVED_GAME_BYTES, SaveContents, SaveError, deobfuscate, obfuscate, parse_saved_game,
                       read_saved_game_entries)
from ..engine.seqenc import decode, encode

__all__ = ["LOG", "LogError", "LoggedCommand", "LogStep", "LogContents", "LogLimits", "read_log", "parse_log_text",
           "decode_command", "split_commands", "encode_log", "log_bytes", "move_piece_command",
           "change_piece_command", "remove_piece_command", "turn_command", "chat_command"]

LOG = "LOG\t"                     # BasicLogger.LOG
MOVE, ADD, REMOVE, CHANGE = "M/", "+/", "-/", "D/"
TURN, CHAT = "TURN", "CHAT"

#: Components' command prefixes (VASSAL 3.6 encoders) reported by name, not applied.
KNOWN_PREFIXES = {
    "PLAYER\t": "player roster", "NOTES\t": "scenario notes", "PNOTES\t": "public notes",
    "PNOTE\t": "private note", "SNOTE\t": "secret note", "SPP\t": "persistent property",
    "MutableProperty\t": "global property", "GlobalProperty\t": "global property",
    "GlobalTranslatable\t": "translatable message", "DECK\t": "deck", "SETUP_STACK\t": "setup stack",
    "LOS\t": "line of sight thread", "SHOW_RESULTS\t": "special dice", "SEMAIL\t": "internet dice",
    "AUDIO\t": "audio clip", "PLAY\t": "sound", "UNMASK\t": "obscured pieces", "EXT\t": "extension",
    "PLUGIN\t": "plugin", "FLARE": "flare", "CLOCK": "chess clock", "CLOCKCONTROL": "chess clock",
    "DECKREPOS": "deck reposition", "PRIV_CHAT": "private chat", "SYNC": "synchronise", "INVITE\t": "invite",
    "Events": "event log",
}


class LogError(SaveError):
    """A log file that cannot be read (names the file and the problem)."""


@dataclass(frozen=True)
class LogLimits:
    """Bounds on what a (possibly hostile) log may hold."""

    max_bytes: int = MAX_SAVED_GAME_BYTES     # the de-obfuscated command string
    max_steps: int = 20_000                   # LOG steps
    max_commands: int = 200_000               # leaf commands in all the steps
    max_command_chars: int = 1 << 20          # one leaf command
    max_depth: int = 16                       # nesting of compound commands


@dataclass
class LoggedCommand:
    """One leaf command of a step: its kind, its text (``LOG\\t`` removed) and decoded fields."""

    kind: str      # add, add_stack, remove, change, move, turn, chat, null, setup, boards, component, bad, unknown
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def brief(self, limit: int = 80) -> str:
        """The command's text, shortened for reports."""
        t = self.text.replace(ESC, "<ESC>").replace("\t", "<TAB>")
        return t if len(t) <= limit else t[:limit] + "…"


@dataclass
class LogStep:
    """One step of the log (one "Step forward"): a ``LOG`` command with its sub-commands, in order."""

    number: int    # 1-based
    commands: list[LoggedCommand] = field(default_factory=list)


@dataclass
class LogContents:
    """A decoded log: the state when logging began (a save) and the steps."""

    source: str
    initial: SaveContents
    steps: list[LogStep] = field(default_factory=list)

    @property
    def command_count(self) -> int:
        """Leaf commands in all the steps."""
        return sum(len(s.commands) for s in self.steps)


# ---------------------------------------------------------------- splitting

def split_commands(text: str) -> list[str]:
    """One level of ``GameModule``'s ESC sequence: ``SequenceEncoder.Decoder(text, ESC)`` in linear time."""
    return decode(text, ESC)


def _leaves(text: str, out: list[str], limits: LogLimits, where: str, budget: list[int] | None = None) -> None:
    """Every leaf command of a (nested) compound command, in order (``GameModule.decode``), iteratively.

    ``budget`` (one-element list) counts down the characters decoded over all nesting levels, so
    deep nesting cannot multiply the work.
    """
    budget = budget if budget is not None else [4 * limits.max_bytes]
    stack: list[tuple[str, int]] = [(text, 0)]
    while stack:
        cmd, depth = stack.pop()
        if ESC not in cmd:
            out.append(cmd)
            continue
        if depth >= limits.max_depth:
            raise LogError(f"{where}: commands nested more than {limits.max_depth} deep")
        budget[0] -= len(cmd)
        if budget[0] < 0:
            raise LogError(f"{where}: nested commands decode to more than {4 * limits.max_bytes} characters (limit)")
        stack.extend((part, depth + 1) for part in reversed(split_commands(cmd)))


# ---------------------------------------------------------------- decoding one command


def _null(tok: str) -> str | None:
    return None if tok == "null" else tok


def _parse_int(tok: str) -> int:
    """Java's ``Integer.parseInt`` (a ``ValueError`` where Java throws)."""
    t = tok.strip() if tok is not None else ""
    if t != tok or not re.fullmatch(r"[+-]?[0-9]+", t):
        raise ValueError(f"not an integer: {tok[:20]!r}")
    v = int(t)
    if not -(1 << 31) <= v < (1 << 31):
        raise ValueError(f"integer out of range: {tok[:20]!r}")
    return v


def decode_command(text: str) -> LoggedCommand:
    """Classify and decode one leaf command (what ``BasicCommandEncoder``, ``TurnTracker`` ... would decode)."""
    if text in ("", "null"):   # a null sub-command: the engine writes it as the word null and reads back nothing
        return LoggedCommand("null", text)
    if text.startswith(MOVE):
        toks = fast_decode(text[len(MOVE):], "/")
        if len(toks) < 9:
            return LoggedCommand("bad", text, {"problem": f"MovePiece has {len(toks)} fields, needs 9 or 10"})
        try:
            data = {"id": _null(toks[0]), "new_map": _null(toks[1]), "new_x": _parse_int(toks[2]),
                    "new_y": _parse_int(toks[3]), "new_under": _null(toks[4]), "old_map": _null(toks[5]),
                    "old_x": _parse_int(toks[6]), "old_y": _parse_int(toks[7]), "old_under": _null(toks[8]),
                    "player": toks[9] if len(toks) > 9 else None}
        except ValueError as err:
            return LoggedCommand("bad", text, {"problem": f"MovePiece: {err}"})
        return LoggedCommand("move", text, data)
    if text.startswith(ADD):
        parts = fast_decode(text, "/")
        if len(parts) >= 3 and parts[2] == "stack":
            return LoggedCommand("add_stack", text, {"id": _null(parts[1]),
                                                     "state": "/".join(parts[3:]) if len(parts) > 3 else ""})
        if len(parts) < 3:
            return LoggedCommand("bad", text, {"problem": "AddPiece without a type"})
        return LoggedCommand("add", text, {"id": _null(parts[1])})
    if text.startswith(REMOVE):
        return LoggedCommand("remove", text, {"id": text[len(REMOVE):]})
    if text.startswith(CHANGE):
        toks = fast_decode(text[len(CHANGE):], "/")
        if len(toks) < 2:
            return LoggedCommand("bad", text, {"problem": "ChangePiece without a new state"})
        return LoggedCommand("change", text, {"id": toks[0], "new_state": toks[1],
                                              "old_state": toks[2] if len(toks) > 2 else None})
    if text.startswith(TURN):
        toks = fast_decode(text, "\t")
        return LoggedCommand("turn", text, {"tracker": toks[0][len(TURN):], "state": toks[1] if len(toks) > 1 else ""})
    if text.startswith(CHAT):
        return LoggedCommand("chat", text, {"text": text[len(CHAT):]})
    if text in ("begin_save", "end_save"):
        return LoggedCommand("setup", text, {"starting": text == "end_save"})
    head = text.split("\t", 1)[0]
    if head.endswith("BoardPicker") and "\t" in text:
        return LoggedCommand("boards", text, {"map": head[: -len("BoardPicker")]})
    for prefix, what in KNOWN_PREFIXES.items():
        if text.startswith(prefix):
            return LoggedCommand("component", text, {"component": what})
    return LoggedCommand("unknown", text)


# ---------------------------------------------------------------- reading


def parse_log_text(text: str, source: str = "<savedGame>", limits: LogLimits = LogLimits()) -> LogContents:
    """Decode a (de-obfuscated) log command string: the initial state and the steps."""
    if len(text) > limits.max_bytes:
        raise LogError(f"{source}: the log is {len(text)} characters, over the limit of {limits.max_bytes}")
    head: list[str] = []
    steps: list[LogStep] = []
    total = 0
    budget = [4 * limits.max_bytes]
    for token in split_commands(text):
        if not token.startswith(LOG):
            if steps:  # VASSAL appends every LogCommand after the restore command: keep stray ones in order
                step = steps[-1]
                step.commands.append(decode_command(token) if ESC not in token else LoggedCommand(
                    "unknown", token, {"problem": "a compound command after the logged steps"}))
                total += 1
            else:
                head.append(token)
            continue
        if len(steps) >= limits.max_steps:
            raise LogError(f"{source}: more than {limits.max_steps} logged steps (limit)")
        leaves: list[str] = []
        _leaves(token, leaves, limits, f"{source}: step {len(steps) + 1}", budget)
        step = LogStep(len(steps) + 1)
        for leaf in leaves:
            total += 1
            if total > limits.max_commands:
                raise LogError(f"{source}: more than {limits.max_commands} logged commands (limit)")
            if len(leaf) > limits.max_command_chars:
                raise LogError(f"{source}: step {step.number}: a command of {len(leaf)} characters, over the "
                               f"limit of {limits.max_command_chars}")
            if leaf.startswith(LOG):
                step.commands.append(decode_command(leaf[len(LOG):]))
            else:
                cmd = decode_command(leaf)
                cmd.data.setdefault("problem", "not wrapped in LOG inside a logged step")
                step.commands.append(cmd)
        steps.append(step)
    if not head:
        raise LogError(f"{source}: no game state before the logged steps -- not a VASSAL log")
    if head[0] == "begin_save" and "end_save" not in head:
        raise LogError(f"{source}: the game state at the start ends before its end_save -- the file is cut off; "
                       "ask for the whole log")
    initial = parse_saved_game(encode(head, ESC), source)
    if not initial.setup and not initial.pieces:
        raise LogError(f"{source}: no saved game state (begin_save/end_save or pieces) at the start -- "
                       "not a VASSAL log")
    return LogContents(source, initial, steps)


def read_log(path: str | os.PathLike[str] | IO[bytes], limits: LogLimits = LogLimits()) -> LogContents:
    """Read a ``.vlog`` (an untrusted archive): the state when logging began and the logged steps.

    Raises :class:`~toolkit.vassal.engine.safezip.ArchiveError` (bad archive or XML) or
    :class:`LogError` (no ``savedGame``, bad obfuscation, over a limit), naming the file.
    """
    label = str(getattr(path, "name", None) or "<log>") if not isinstance(path, (str, os.PathLike)) \
        else os.fspath(path)
    # the hex of the obfuscated entry is twice the text
    entry_limit = 2 * limits.max_bytes + 16
    text, savedata, moduledata = read_saved_game_entries(path, label, entry_limit, entry_limit + (8 << 20),
                                                         LogError, "a VASSAL log or save")
    log = parse_log_text(text, label, limits)
    log.initial.savedata, log.initial.moduledata = savedata, moduledata
    return log


# ---------------------------------------------------------------- writing


def move_piece_command(pid: str, new_map: str | None, new_x: int, new_y: int, new_under: str | None,
                       old_map: str | None, old_x: int, old_y: int, old_under: str | None,
                       player: str = "") -> str:
    """A MovePiece command exactly as ``BasicCommandEncoder.encode`` writes it."""
    w = lambda s: "null" if s is None else s  # noqa: E731 -- wrapNull
    return MOVE + encode([pid, w(new_map), int(new_x), int(new_y), w(new_under), w(old_map), int(old_x), int(old_y),
                          w(old_under), player], "/")


def change_piece_command(pid: str, new_state: str, old_state: str | None = None) -> str:
    """A ChangePiece command ``D/id/newState[/oldState]``."""
    return CHANGE + encode([pid, new_state] + ([old_state] if old_state is not None else []), "/")


def remove_piece_command(pid: str) -> str:
    """A RemovePiece command ``-/id``."""
    return REMOVE + pid


def turn_command(tracker_id: str, state: str) -> str:
    """A turn tracker's SetTurn command ``TURN<id>`` TAB ``<state>``."""
    return encode([TURN + tracker_id, state], "\t")


def chat_command(text: str) -> str:
    """A chat line ``CHAT<text>``."""
    return CHAT + text


def _log_token(commands: Sequence[str]) -> str:
    """One step: the first command wrapped in ``LOG``, its sub-commands appended (``LogCommand``)."""
    wrapped = [LOG + c for c in commands] or [LOG]
    return encode(wrapped, ESC) if len(wrapped) > 1 else wrapped[0]


def encode_log(initial: str, steps: Iterable[Sequence[str]]) -> str:
    """The command string of a log: the initial state's command string (a save's) with each step appended.

    ``initial`` is ``begin_save`` ESC ... ESC ``end_save`` (a compound command); each step is a list
    of leaf commands that VASSAL would log as one ``LogCommand`` with sub-commands.
    """
    return encode(split_commands(initial) + [_log_token(s) for s in steps], ESC)


def log_bytes(save: bytes | str | os.PathLike[str], steps: Iterable[Sequence[str]], key: int = 0x2A) -> bytes:
    """A ``.vlog`` (bytes) that starts from a ``.vsav`` (bytes or path) and logs ``steps``.

    The save's ``savedata`` and ``moduledata`` are copied; ``savedGame`` is obfuscated as VASSAL does.
    """
    src = io.BytesIO(save) if isinstance(save, bytes) else save
    with open_archive(src) as arc:
        initial = deobfuscate(arc.read("savedGame"))
        extra = {n: arc.read(n, 1 << 20) for n in ("savedata", "moduledata") if n in arc}
    text = encode_log(initial, steps)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in (("savedGame", obfuscate(text, key)), *extra.items()):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    return buf.getvalue()
