"""Replaying a VASSAL log against a game's rules: every move checked with the game's legal-move generator.

:class:`LogReplay` keeps a :class:`~toolkit.vassal.saves.savefile.SaveContents`
current while the log's commands are applied as VASSAL 3.6 executes them:

* AddPiece adds a piece (or a stack, whose listed pieces join it and take its
  place); RemovePiece removes it (a stack with its pieces);
* MovePiece moves a piece -- or a whole stack -- to its new map and position:
  onto the piece named underneath when that piece is exactly there, else into
  a stack standing exactly there, else alone; a ``null`` map takes it off the
  maps (``MovePiece.executeCommand``);
* ChangePiece replaces a piece's state; with an old state, only the trait
  levels whose old and new states differ (``Decorator.mergeState``).  The
  piece is re-decoded with :func:`~toolkit.vassal.engine.pieces.parse_add_piece`; a
  piece in a stack keeps the stack's position unless its map changes
  (``BasicPiece.setState``/``getPosition``);
* the turn tracker's ``TURN<id>`` command replaces that tracker's command
  among the save's other commands, where ``contents_to_position`` reads the
  turn, phase and phasing side.

Each state is turned into a position by
:func:`toolkit.vassal.saves.positions.contents_to_position`, with each piece keeping
the unit id it had at the start of the log.  :func:`check_log` then compares
consecutive positions: units whose hex changed in a step moved; units moving
together (same hex to same hex) are one stack move.  A move is checked from
the hex where the unit began the current phase (so a counter dragged hex by
hex is judged as one move) on the position just before the step, with the
game's ``moves`` calculator, trying the game's other kinds of move (No
Prisoners: strategic, rail, amphibious; *Jerusalem!*: terrorist) before
calling it illegal with the normal move's reason and rule.  A unit that
leaves the map's hexes (off the board, into a box, removed -- a piece added
again keeps its unit id --, or hidden by a state that does not read) and
comes back within the phase is judged the same way, from where it began the
phase.  The game's ``check`` runs every ``CHECK_GROUP`` changed steps, at each
change of phase and at the end; a violation that was not there before is
traced back to the step that made it (see :func:`check_log`).  Units still
off the map's hexes at the end of a phase, entries of units that began it off
them, moves between boxes, markers, commands not applied and games without a
movement calculator are listed as not checked, with why: the verdict is then
"not proven" (:attr:`LogReport.verdict`), never legal.
"""
from __future__ import annotations

import dataclasses
import os
from collections import Counter as Multiset
from dataclasses import dataclass, field
from typing import IO, Any, Callable

from ...game import Game, GameDataError, Position, PositionFile, position_from_file
from .logfile import LogContents, LoggedCommand, LogLimits, read_log
from ..engine.pieces import SavePiece, SaveStack, fast_decode, parse_add_piece, parse_stack
from .positions import contents_to_position, game_of_save
from .referee import Referee, Ruling
from ..design.turns import read_position_turn
from .savefile import Unplaced
from ..engine.seqenc import encode

__all__ = ["LogReplay", "LogReport", "MoveCheck", "NotChecked", "check_log", "check_log_file", "log_of_moves",
           "MOVE_VARIANTS"]

TAB = "\t"
CHECK_GROUP = 16   # steps between two runs of the game's check (see check_log)

#: Other kinds of move a game's ``moves`` takes, tried before a move is called illegal.
MOVE_VARIANTS: dict[str, list[dict[str, Any]]] = {
    "no-prisoners": [{"kind": "strategic"}, {"kind": "rail"}, {"kind": "amphibious"}],
    "jerusalem-1948": [{"terrorist": True}],
}


# ---------------------------------------------------------------- replaying the commands


class LogReplay:
    """The game state of a log, command by command (see the module doc for what each command does)."""

    def __init__(self, log: LogContents, game: Game):
        self.game = game
        self.save = log.initial
        self.source = log.source
        self.pieces: dict[str, SavePiece] = {}
        self.stacks: dict[str, SaveStack] = {}
        for p in self.save.pieces:
            if p.id:
                self.pieces[p.id] = p
        for st in self.save.stacks:
            if st.id:
                self.stacks[st.id] = st
        self.dirty = True
        self.touched: set[str] = set()   # pieces moved since the last position (see moved_position)
        self.structural = False          # a command other than a move since the last position
        self._unit_of: dict[int, str] = {}   # id(SavePiece) -> unit id, kept across re-decoding
        self._gone: dict[str, str] = {}      # piece id -> unit id of a removed piece
        self._used: set[str] = set()
        self._name_units()

    # -- unit ids that do not change while pieces come and go
    def _convert(self) -> tuple[PositionFile, list[Unplaced]]:
        return contents_to_position(self.save, self.game)

    def _name_units(self) -> None:
        """Give every piece the unit id the save alone would give it, as its ``unit`` property."""
        natural, _ = self._convert()
        old = [p.properties.get("unit") for p in self.save.pieces]
        for i, p in enumerate(self.save.pieces):
            p.properties["unit"] = f"~piece~{i}"
        tagged, _ = self._convert()
        for p, v in zip(self.save.pieces, old):
            if v is None:
                p.properties.pop("unit", None)
            else:
                p.properties["unit"] = v
        if len(natural.units) == len(tagged.units):
            for nat, tag in zip(natural.units, tagged.units):
                p = self.save.pieces[int(tag.id.removeprefix("~piece~"))]
                self._set_unit(p, nat.id)

    def _set_unit(self, p: SavePiece, uid: str) -> None:
        p.properties["unit"] = uid
        self._unit_of[id(p)] = uid
        self._used.add(uid)

    def _name_new(self, pieces: list[SavePiece]) -> None:
        """Unit ids for pieces added by the log: their own ``unit`` property if free, else ``counter-n``."""
        keep = {id(p): p.properties.get("unit") for p in pieces}
        for i, p in enumerate(pieces):
            p.properties["unit"] = f"~new~{i}"
        pf, _ = self._convert()
        counters = {u.id: u.counter for u in pf.units}
        for i, p in enumerate(pieces):
            own = keep[id(p)]
            cid = counters.get(f"~new~{i}")
            if cid is None:  # not a unit (a marker, or not placed): no id needed now
                if own is None:
                    p.properties.pop("unit", None)
                else:
                    p.properties["unit"] = own
                continue
            uid = own if own and own not in self._used else None
            n = 0
            while uid is None or uid in self._used:
                n += 1
                uid = f"{cid}-{n}"
            self._set_unit(p, uid)

    # -- pieces and stacks
    def _stack_of(self, p: SavePiece) -> SaveStack | None:
        return self.stacks.get(p.stack) if p.stack else None

    def _leave_stack(self, p: SavePiece) -> None:
        st = self._stack_of(p)
        if st is not None and p.id in st.pieces:
            st.pieces.remove(p.id)
        p.stack = None

    def _join(self, st: SaveStack, p: SavePiece, after: str | None = None) -> None:
        self._leave_stack(p)
        if after is not None and after in st.pieces:
            st.pieces.insert(st.pieces.index(after) + 1, p.id)
        else:
            st.pieces.append(p.id)
        p.stack, p.map, p.x, p.y = st.id, st.map, st.x, st.y

    def _stack_at(self, map_name: str, x: int, y: int, not_id: str | None = None) -> SaveStack | None:
        for st in self.stacks.values():
            if st.map == map_name and st.x == x and st.y == y and st.pieces and st.id != not_id:
                return st
        return None

    def _remove_piece(self, pid: str) -> bool:
        if pid in self.stacks:
            st = self.stacks.pop(pid)
            for m in list(st.pieces):
                if m in self.pieces:
                    self._drop(self.pieces[m])
            self.save.stacks = [s for s in self.save.stacks if s is not st]
            return True
        p = self.pieces.get(pid)
        if p is None:
            return False
        self._drop(p)
        return True

    def _drop(self, p: SavePiece) -> None:
        if id(p) in self._unit_of:   # a piece added again later is the same unit
            self._gone[p.id] = self._unit_of.pop(id(p))
        self._leave_stack(p)
        self.pieces.pop(p.id, None)
        self.save.pieces = [q for q in self.save.pieces if q is not p]

    def _add_stack(self, pid: str | None, state: str) -> None:
        st = parse_stack(pid, state)
        if pid in self.stacks:
            self._remove_stack_only(pid)
        members = [m for m in st.pieces if m in self.pieces]  # Stack.setState skips unknown ids
        st.pieces = []
        if pid:
            self.stacks[pid] = st
        self.save.stacks.append(st)
        for m in members:
            self._join(st, self.pieces[m])

    def _remove_stack_only(self, pid: str) -> None:
        st = self.stacks.pop(pid)
        for m in st.pieces:
            if m in self.pieces:
                self.pieces[m].stack = None
        self.save.stacks = [s for s in self.save.stacks if s is not st]

    def apply(self, cmd: LoggedCommand) -> str | None:
        """Apply one command; returns why it was not applied (kept and reported), or ``None``."""
        kind, d = cmd.kind, cmd.data
        if kind == "move":
            return self._move(d)
        if kind not in ("chat", "null", "setup", "component"):
            self.structural = True
        if kind == "change":
            return self._change(d["id"], d["new_state"], d["old_state"])
        if kind == "add":
            try:
                p = parse_add_piece("+" + cmd.text[1:])
            except ValueError as err:
                return f"AddPiece not decoded: {err}"
            if p.id in self.stacks:
                return f"AddPiece: id {p.id} is a stack's"
            if p.id in self.pieces:
                self._drop(self.pieces[p.id])
            self.save.pieces.append(p)
            if p.id:
                self.pieces[p.id] = p
            if p.id in self._gone:
                self._set_unit(p, self._gone.pop(p.id))
            else:
                self._name_new([p])
            self.dirty = True
            return None
        if kind == "add_stack":
            self._add_stack(d["id"], d["state"])
            self.dirty = True
            return None
        if kind == "remove":
            if not self._remove_piece(d["id"]):
                return f"RemovePiece: no piece {d['id']!r}"
            self.dirty = True
            return None
        if kind == "turn":
            prefix = "TURN" + d["tracker"]
            self.save.other = [c for c in self.save.other if c.split(TAB, 1)[0] != prefix] + [cmd.text]
            self.dirty = True
            return None
        if kind == "boards":
            return "board placement during the log: ignored"
        if kind in ("chat", "null", "setup", "component"):
            return None
        return d.get("problem") or "unknown command"

    def _move(self, d: dict) -> str | None:
        pid = d["id"]
        target = self.pieces.get(pid) if pid is not None else None
        stack = self.stacks.get(pid) if pid is not None else None
        if target is None and stack is None:
            return f"MovePiece: no piece {pid!r}"
        self.dirty = True
        self.touched.update(stack.pieces if stack is not None else [pid])
        new_map, x, y = d["new_map"], d["new_x"], d["new_y"]
        if stack is not None:
            if new_map is None:
                stack.map = None
                for m in stack.pieces:
                    if m in self.pieces:
                        self.pieces[m].map = None
                return None
            other = self._stack_at(new_map, x, y, not_id=pid)
            if other is not None:  # StackMetrics.merge: the moving stack's pieces join the fixed one
                for m in list(stack.pieces):
                    if m in self.pieces:
                        self._join(other, self.pieces[m])
                return None
            stack.map, stack.x, stack.y = new_map, x, y
            for m in stack.pieces:
                if m in self.pieces:
                    q = self.pieces[m]
                    q.map, q.x, q.y = new_map, x, y
            return None
        p = target
        if new_map is None:
            self._leave_stack(p)
            p.map = None
            return None
        under = self.pieces.get(d["new_under"]) if d["new_under"] else None
        if under is not None and under.map == new_map and (under.x, under.y) == (x, y) and under is not p:
            st = self._stack_of(under)
            if st is None:  # merging with a lone piece makes a stack (its AddPiece follows in a real log)
                self._leave_stack(p)
                p.map, p.x, p.y = new_map, x, y
                return None
            self._join(st, p, after=under.id)
            return None
        st = self._stack_at(new_map, x, y)
        if st is not None and st.id != p.stack:
            self._join(st, p)
            return None
        if st is not None and st.id == p.stack:
            p.map, p.x, p.y = new_map, x, y
            return None
        self._leave_stack(p)
        p.map, p.x, p.y = new_map, x, y
        return None

    def _change(self, pid: str, new_state: str, old_state: str | None) -> str | None:
        if pid in self.stacks:
            st = self.stacks[pid]
            if old_state is not None and new_state == old_state:
                return None
            self._add_stack(pid, new_state)
            self.dirty = True
            return None
        p = self.pieces.get(pid)
        if p is None:
            return f"ChangePiece: no piece {pid!r}"
        levels = len(p.traits) + 1
        cur = _state_levels(p.state, levels)
        new = _state_levels(new_state, levels)
        if old_state is None:
            merged = new
        else:  # Decorator.mergeState: only the levels that changed
            old = _state_levels(old_state, levels)
            merged = [n if n != o else c for c, n, o in zip(cur, new, old)]
        basic_changed = merged[-1] != cur[-1]
        try:
            q = parse_add_piece("+/" + encode([pid, p.type, _join_levels(merged)], "/"))
        except ValueError as err:
            return f"ChangePiece not decoded: {err}"
        self.dirty = True
        uid = self._unit_of.get(id(p))
        # keep the same object (its place in the piece list and its unit id); take the new state
        st = self._stack_of(p)
        loc = (p.map, p.x, p.y)
        for f in ("state", "traits", "basic_state", "gpid", "persistent", "properties", "name", "image"):
            setattr(p, f, getattr(q, f))
        if uid is not None:
            p.properties["unit"] = uid
        if not basic_changed:
            p.map, p.x, p.y = loc
        elif st is not None and q.map == loc[0]:
            p.map, p.x, p.y = loc  # BasicPiece.getPosition: a piece in a stack is where its stack is
        else:
            if st is not None:
                self._leave_stack(p)
            p.map, p.x, p.y = q.map, q.x, q.y
        return None

    # -- the position
    def position_file(self) -> tuple[PositionFile, list[Unplaced]]:
        """The position the current state shows (turn, phase and side from the turn tracker's latest command)."""
        self.touched.clear()
        self.structural = self.dirty = False
        return self._convert()

    def moved_position(self, pos: Position) -> Position | None:
        """``pos`` (the last position) with the units moved since then in their new places -- what
        :meth:`position_file` would give, read from the moved pieces alone -- or None when that is not sure
        (another command than a move, a marker or a carried or carrying unit moved, a piece not placed):
        a full reading is needed.  A log of moves reads each step so, not its every piece."""
        if self.structural or not self.touched or not all(i in self.pieces for i in self.touched):
            return None
        pieces = [self.pieces[i] for i in sorted(self.touched)]
        uids = [p.properties.get("unit") for p in pieces]
        carriers = {p.properties.get("carried_by") for p in self.save.pieces}
        if any(u not in pos.by_id or pos.by_id[u].carried_by or u in carriers for u in uids):
            return None
        pf, unplaced = contents_to_position(dataclasses.replace(self.save, pieces=pieces), self.game)
        if unplaced or pf.markers or [u.id for u in pf.units] != uids:
            return None
        self.touched.clear()
        self.dirty = False
        resolve = self.game.map.resolve
        changes = {}
        for up in pf.units:
            u = pos.by_id[up.id]
            h = resolve(up.hex) if up.hex is not None else None
            if (h, up.box, up.turn) != (u.hex, u.box, u.arrives):
                changes[up.id] = dataclasses.replace(u, hex=h, box=up.box, arrives=up.turn)
        return pos.moved(changes) if changes else pos


def _state_levels(state: str, n: int) -> list[str]:
    """A piece state split into its ``n`` trait levels, outermost first, the BasicPiece state last."""
    out = []
    rest = state
    for _ in range(n - 1):
        parts = fast_decode(rest, TAB) if rest else [""]
        out.append(parts[0])
        rest = (parts[1] if len(parts) == 2 else TAB.join(parts[1:])) if len(parts) > 1 else ""
    out.append(rest)
    return out


def _join_levels(levels: list[str]) -> str:
    state = levels[-1]
    for s in reversed(levels[:-1]):
        state = encode([s, state], TAB)
    return state


# ---------------------------------------------------------------- checking


@dataclass
class MoveCheck:
    """One checked move: units moving together in a step, from and to, legal or not with the rule and reason."""

    step: int
    units: list[str]
    start: str                 # where the units began the phase (the move checked is from here)
    origin: str                # where they were before this step
    to: str
    legal: bool
    rule: str | None = None
    reason: str | None = None
    how: str | None = None     # the kind of move that makes it legal, when not the normal one

    def json(self) -> dict[str, Any]:
        return {"step": self.step, "units": self.units, "from": self.origin, "phase_start": self.start,
                "to": self.to, "legal": self.legal, "rule": self.rule, "reason": self.reason, "how": self.how}


@dataclass
class NotChecked:
    """Something the log did that is not checked, and why."""

    step: int
    what: str
    why: str
    units: list[str] = field(default_factory=list)
    origin: str | None = None
    to: str | None = None

    def json(self) -> dict[str, Any]:
        return {"step": self.step, "what": self.what, "why": self.why, "units": self.units, "from": self.origin,
                "to": self.to}


@dataclass
class LogReport:
    """What :func:`check_log` found."""

    source: str
    game: str
    steps: int = 0
    commands: int = 0
    moves: list[MoveCheck] = field(default_factory=list)
    illegal_changes: list[Ruling] = field(default_factory=list)   # the tracker, counters, flags, spent
    actions_replayed: int = 0   # actions the log records (*** toolkit action), made again by the rules
    not_checked: list[NotChecked] = field(default_factory=list)
    initial_violations: list[dict] = field(default_factory=list)
    violations: list[dict] = field(default_factory=list)   # {"step", "violations": [...new ones...]}
    ignored: list[dict] = field(default_factory=list)      # commands kept but not applied: {"step", "kind", ...}
    phases: list[dict] = field(default_factory=list)       # {"step", "turn", "phase", "phasing_side"}
    unplaced: list[dict] = field(default_factory=list)
    check_after: str = "step"

    @property
    def illegal_moves(self) -> list[MoveCheck]:
        return [m for m in self.moves if not m.legal]

    @property
    def verdict(self) -> str:
        """``illegal`` (an illegal move or a new violation), ``not proven`` (something the checker could not
        judge: see ``not_checked`` and ``ignored_commands``), else ``legal``."""
        if self.illegal_moves or self.illegal_changes or self.violations or self.initial_violations:
            return "illegal"
        return "not proven" if self.not_checked or self.ignored else "legal"

    @property
    def legal(self) -> bool:
        return self.verdict == "legal"

    def json(self) -> dict[str, Any]:
        """The stable JSON form (docs/cli.md)."""
        return {
            "log": self.source, "game": self.game, "legal": self.legal, "verdict": self.verdict, "steps": self.steps,
            "commands": self.commands, "check_after": self.check_after,
            "moves_checked": len(self.moves), "actions_replayed": self.actions_replayed,
            "illegal_moves": [m.json() for m in self.illegal_moves],
            "moves": [m.json() for m in self.moves],
            "illegal_changes": [r.json() for r in self.illegal_changes],
            "initial_violations": self.initial_violations,
            "violations": self.violations,
            "not_checked": [n.json() for n in self.not_checked],
            "ignored_commands": self.ignored,
            "phases": self.phases,
            "unplaced": self.unplaced,
        }

    def text(self) -> list[str]:
        """The report as lines: one per illegal move and per new violation, then what was not checked."""
        n_viol = sum(len(v["violations"]) for v in self.violations)
        changes = f", {len(self.illegal_changes)} illegal change(s)" if self.illegal_changes else ""
        replayed = f", {self.actions_replayed} recorded actions replayed" if self.actions_replayed else ""
        head = (f"{self.source}: {self.steps} steps, {len(self.moves)} moves checked{replayed}, "
                f"{len(self.illegal_moves)} illegal{changes}, {n_viol} new violation(s)")
        lines = [f"{head}: {self.verdict}"]
        if self.initial_violations:
            lines.append(f"  at the start of the log: {len(self.initial_violations)} violation(s)")
            lines += [f"    [{v['rule']}] {v['message']}" for v in self.initial_violations]
        events: list[tuple[int, int, str]] = []
        for m in self.illegal_moves:
            via = f" (began the phase in {m.start})" if m.start != m.origin else ""
            events.append((m.step, 0, f"  step {m.step}: {', '.join(m.units)} {m.origin} → {m.to}{via}: "
                                       f"ILLEGAL [{m.rule}] {m.reason}"))
        for r in self.illegal_changes:
            who = f" {', '.join(r.units)}" if r.units else ""
            events.append((r.step, 0, f"  step {r.step}: {r.what}{who}: ILLEGAL [{r.rule}] {r.reason}"))
        for v in self.violations:
            for x in v["violations"]:
                events.append((v["step"], 1, f"  step {v['step']}: new violation [{x['rule']}] {x['message']}"))
        lines += [e[2] for e in sorted(events, key=lambda e: (e[0], e[1]))]
        if self.not_checked:
            lines.append(f"  not checked: {len(self.not_checked)}")
            for n in self.not_checked[:50]:
                where = f" {n.origin or 'off-map'} → {n.to or 'off-map'}" if (n.origin or n.to) else ""
                who = f" {', '.join(n.units)}" if n.units else ""
                lines.append(f"    step {n.step}: {n.what}{who}{where}: {n.why}")
            if len(self.not_checked) > 50:
                lines.append(f"    … {len(self.not_checked) - 50} more (--json lists all)")
        if self.ignored:
            kinds = Multiset(i["kind"] for i in self.ignored)
            lines.append("  commands kept but not applied: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
        return lines


def _violation_json(v) -> dict[str, Any]:
    return {"rule": v.rule, "message": v.message, "hexes": list(v.hexes), "units": list(v.units)}


def _rule(game: Game, name: str) -> tuple[Callable | None, str | None]:
    from ...games import rule
    try:
        return rule(game, name), None
    except ValueError as err:
        return None, str(err)


def check_log(log: LogContents, game: Game, *, check_after: str = "step") -> LogReport:
    """Replay a log and check every move and every position (see the module doc).

    ``check_after``: ``"step"`` (default) reports each new violation at the step that made it.  The
    game's ``check`` runs on the position after every ``CHECK_GROUP`` steps that changed it, at a
    change of phase and at the end; when a group ends with violations its start did not have, the
    group's positions are bisected to the first step whose position has each one.  A violation made
    and undone within a group is not reported.  ``"end"`` checks only the last position.
    """
    gid = game.spec.id
    report = LogReport(log.source, gid, steps=len(log.steps), commands=log.command_count, check_after=check_after)
    moves_fn, no_moves = _rule(game, "moves")
    check_fn, no_check = _rule(game, "check")
    if check_fn is None:
        report.not_checked.append(NotChecked(0, "positions", f"no legality check: {no_check}"))
    replay = LogReplay(log, game)
    cmap = game.map
    name = cmap.name

    def build(step: int) -> tuple[PositionFile, Position | None]:
        pf, unplaced = replay.position_file()
        for u in unplaced:
            if u.id not in seen_unplaced:
                seen_unplaced.add(u.id)
                report.unplaced.append({"step": step, "piece": u.id, "name": u.name, "reason": u.reason})
        try:
            now = position_from_file(pf, f"{log.source} (step {step})", game)
        except (GameDataError, ValueError) as err:
            report.not_checked.append(NotChecked(step, "position", f"the state is not a valid position: {err}"))
            return pf, None
        if side[0] is not None and game.bundled and not referee.side_tracked(now.phase):
            now = dataclasses.replace(now, phasing_side=side[0])   # the tracker does not say it: as we know it
        return pf, now

    def run_check(pos: Position) -> list[dict]:
        return [_violation_json(v) for v in check_fn(pos)] if check_fn is not None else []

    seen_unplaced: set[str | None] = set()
    side: list[str | None] = [None]   # the phasing side where the tracker does not say it
    pf, pos = build(0)
    if pos is None:
        raise GameDataError(log.source, "initial state", "the state at the start of the log is not a valid position")
    prev_v = run_check(pos)
    report.initial_violations = prev_v
    phase_key = (pos.turn, pos.phase, pos.phasing_side)
    report.phases.append({"step": 0, "turn": pos.turn, "phase": pos.phase, "phasing_side": pos.phasing_side})
    phase_start = _hexes(pos)
    replay.dirty = False
    group: list[tuple[int, Position]] = []   # (step, position) since the last check

    def settle() -> list[dict]:
        """Check the group's last position; bisect for the step that made each new violation."""
        if check_fn is None:
            group.clear()
            return prev_v
        done: dict[int, list[dict]] = {}

        def at(i: int) -> list[dict]:
            if i not in done:
                done[i] = run_check(group[i][1])
            return done[i]

        now = at(len(group) - 1)
        found: dict[int, list[dict]] = {}
        for v in now:
            if v in prev_v:
                continue
            lo, hi = 0, len(group) - 1        # present at hi; find the first index holding it
            while lo < hi:
                mid = (lo + hi) // 2
                if v in at(mid):
                    hi = mid
                else:
                    lo = mid + 1
            found.setdefault(group[lo][0], []).append(v)
        for st, vs in sorted(found.items()):
            report.violations.append({"step": st, "violations": vs})
        group.clear()
        return now

    variants = [{}] + MOVE_VARIANTS.get(gid, [])
    referee = Referee(game, pos)
    side[0] = pos.phasing_side
    phase_spent = _spent(pos)

    for step in log.steps:
        actions = []
        for cmd in step.commands:
            why = replay.apply(cmd)
            if why is not None:
                report.ignored.append({"step": step.number, "kind": cmd.kind, "command": cmd.brief(), "why": why})
            elif cmd.kind == "turn" and game.bundled and not read_position_turn(game.spec, [cmd.text]):
                report.not_checked.append(NotChecked(step.number, "turn tracker", "the turn tracker's command does "
                                                     "not read as a turn and phase of the game: the phase that "
                                                     "follows is not known"))
            elif cmd.kind == "chat":
                actions += _recorded_action(step.number, cmd.data.get("text") or "", report)
        if not replay.dirty and not actions:
            continue
        quick = replay.moved_position(pos) if replay.dirty else pos
        if quick is not None:
            if quick is pos and not actions:
                continue
            new_pf, new_pos = None, quick
        else:
            new_pf, new_pos = build(step.number)
            if new_pos is None or (new_pf == pf and not actions):
                continue
        before, pf, pos = pos, new_pf, new_pos
        key = (pos.turn, pos.phase, pos.phasing_side)
        expected = None
        if key != phase_key:
            _left_the_map(step.number, phase_start, before, report, name)
            expected, ours = referee.phase_change(step.number, before, pos)
            if expected is not None and not referee.side_tracked(pos.phase):
                pos = dataclasses.replace(pos, phasing_side=expected.phasing_side)
                key = (pos.turn, pos.phase, pos.phasing_side)
            side[0] = pos.phasing_side
            referee.new_phase(ours, pos)
            phase_key, phase_start = key, _hexes(before)
            phase_spent = _spent(ours if ours is not None else referee.effective(pos))
            report.phases.append({"step": step.number, "turn": pos.turn, "phase": pos.phase,
                                  "phasing_side": pos.phasing_side})
            if check_after == "step" and group:
                prev_v = settle()
        if actions:   # the actions explain the whole step: what they give must be what the log shows
            referee.actions(step.number, actions, before, pos)
            _moved_by_action(before, pos, phase_start, phase_spent)
        else:
            moved = _check_moves(step.number, referee.effective(before), pos, moves_fn, no_moves, variants,
                                 phase_start, phase_spent, report, name)
            referee.units(step.number, pos, moved, expected)
        group.append((step.number, pos))
        if check_after == "step" and len(group) >= CHECK_GROUP:
            prev_v = settle()
    _left_the_map(len(log.steps), phase_start, pos, report, name)
    if check_fn is not None and group:
        if check_after != "step":
            group[:] = group[-1:]
        prev_v = settle()
    report.violations.sort(key=lambda v: v["step"])
    report.illegal_changes = [r for r in referee.rulings if r.illegal]
    report.actions_replayed = referee.replayed
    report.not_checked += [NotChecked(r.step, r.what, r.reason, r.units) for r in referee.rulings if not r.illegal]
    report.not_checked.sort(key=lambda n: n.step)
    return report


def _recorded_action(step: int, text: str, report: LogReport) -> list:
    """The action a chat line records (``*** toolkit action: {json}``, :mod:`toolkit.vassal.saves.record`), as a
    list of none or one; a line that does not read is not proven."""
    import json

    from ...game.actions import Action
    from .record import ACTION_CHAT
    text = text.lstrip()
    if not text.startswith(ACTION_CHAT):
        return []
    try:
        return [Action.from_json(json.loads(text[len(ACTION_CHAT):]))]
    except ValueError as err:   # json's errors are ValueErrors too
        report.not_checked.append(NotChecked(step, "action", f"a recorded action does not read: {err}"))
        return []


def _moved_by_action(before: Position, after: Position, phase_start: dict, phase_spent: dict[str, float]) -> None:
    """Units an action put somewhere else (a retreat, an advance, an elimination) go on from there, with what
    they have spent: later moves are judged from where the action left them."""
    for u in after.units:
        b = before.by_id.get(u.id)
        if b is None or (b.hex, b.box) != (u.hex, u.box):
            phase_start[u.id], phase_spent[u.id] = u.hex, u.spent
    for uid in set(before.by_id) - set(after.by_id):
        phase_start.pop(uid, None)


def _spent(pos: Position) -> dict[str, float]:
    """Each unit's movement points spent: what the units had spent when a phase began."""
    return {u.id: u.spent for u in pos.units}


def _hexes(pos: Position) -> dict[str, Any]:
    """Each unit's hex (None in a box): where the units begin a phase."""
    return {u.id: u.hex for u in pos.units}


def _left_the_map(step: int, phase_start: dict[str, Any], now: Position, report: LogReport, name) -> None:
    """Units on the map's hexes when the phase began and off them at its end (removed, moved off the map or
    into a box, hidden by an unreadable state): not judged."""
    for uid, start in phase_start.items():
        u = now.by_id.get(uid)
        if start is not None and (u is None or u.hex is None):
            report.not_checked.append(NotChecked(step, "unit leaves the map", "removed, or moved off the map's "
                                                 "hexes, by the end of the phase: not judged", [uid], name(start),
                                                 u.box if u else None))


def _check_moves(step: int, before: Position, after: Position, moves_fn, no_moves: str | None, variants,
                 phase_start: dict, phase_spent: dict[str, float], report: LogReport, name) -> dict[str, float | None]:
    """Every unit whose hex changed in a step, judged from where it began the phase (however it got off the
    map and back meanwhile) with what it had spent then: grouped into stack moves and checked.  Returns the units
    that moved, each with the least ``spent`` its move allows (None when not judged legal)."""
    groups: dict[tuple, list[str]] = {}
    moved: dict[str, float | None] = {}
    for uid, a in after.by_id.items():
        b = before.by_id.get(uid)
        src = b.hex if b is not None else None
        if a.hex is None:   # from a hex into a box: judged at the end of the phase
            if src is None and (b is None or b.box != a.box):
                report.not_checked.append(NotChecked(step, "unit moves into a box", "moves between boxes and "
                                                     "pieces added in one are not judged", [uid],
                                                     b.box if b else None, a.box))
            continue
        if a.hex == src:
            continue
        if phase_start.get(uid) is None:   # from here on, its moves this phase are judged from where it is
            phase_start[uid] = src if src is not None else a.hex
            if src is None:
                report.not_checked.append(NotChecked(step, "unit enters the map", "it was not on the map's hexes "
                                                     "when the phase began (added, or from a box or off the map): "
                                                     "entries are not judged", [uid], b.box if b else None,
                                                     name(a.hex)))
                moved[uid] = None
                continue
        groups.setdefault((src, a.hex), []).append(uid)
    mb = Multiset((m.marker, m.hex) for m in before.markers)
    ma = Multiset((m.marker, m.hex) for m in after.markers)
    if mb != ma:
        gone, came = mb - ma, ma - mb
        desc = ", ".join([f"{m} from {name(h) if h else 'off-map'}" for m, h in gone]
                         + [f"{m} to {name(h) if h else 'off-map'}" for m, h in came])
        report.not_checked.append(NotChecked(step, "markers", f"markers are not checked ({desc})"))
    if not groups:
        return moved
    base = before
    if (before.turn, before.phase, before.phasing_side) != (after.turn, after.phase, after.phasing_side):
        base = dataclasses.replace(before, turn=after.turn, phase=after.phase, phasing_side=after.phasing_side)
    for (src, dst), uids in groups.items():
        by_start: dict[Any, list[str]] = {}
        for uid in uids:
            by_start.setdefault(phase_start[uid], []).append(uid)
        for start, ids in by_start.items():
            origin = name(src) if src is not None else "off-map"
            moved.update(dict.fromkeys(ids))
            if moves_fn is None:
                report.not_checked.append(NotChecked(step, "move", f"no movement calculator: {no_moves}", ids,
                                                     origin, name(dst)))
                continue
            check = MoveCheck(step, ids, name(start), origin, name(dst), True)
            if start == dst:
                check.how = "back where it began the phase"
                report.moves.append(check)
                cost: float | None = 0.0
            else:
                cost = _judge(check, _placed(base, after, ids, start, phase_spent), ids, uids, dst, moves_fn,
                              variants, report)
            if cost is not None:
                moved.update({u: phase_spent.get(u, 0.0) + cost for u in ids})
    return moved


def _placed(base: Position, after: Position, ids: list[str], start, spent: dict[str, float]) -> Position:
    """``base`` with the units ``ids`` at ``start`` with what they had spent there (those not in it -- off the map
    before the step -- added)."""
    moved = {}
    for u in ids:
        unit = base.by_id.get(u) or after.by_id[u]
        moved[u] = dataclasses.replace(unit, hex=start, box=None, spent=spent.get(u, unit.spent))
    pos = base.moved(moved)
    missing = tuple(moved[u] for u in ids if u not in base.by_id)
    return dataclasses.replace(pos, units=pos.units + missing) if missing else pos


def _judge(check: MoveCheck, pos: Position, ids: list[str], uids: list[str], dst, moves_fn, variants,
           report: LogReport) -> float | None:
    """Try the normal move and the game's other kinds; record the check (or why it could not be made).  Returns
    the move's cost in movement points when legal."""
    first, cost = None, None
    try:
        for variant in variants:
            result = moves_fn(pos, ids, **variant)
            if dst in result.destinations:
                cost = result.destinations[dst].mp
                check.how = ", ".join(f"{k}={v}" for k, v in variant.items()) or None
                left = {u: why for u, why in result.bound.items() if u not in uids}
                if left:  # e.g. the convoy dragged without its escorts (6.3.3)
                    why = next(iter(left.values()))
                    check.legal, check.rule = False, why.rule
                    check.reason = f"{', '.join(sorted(left))} had to move along: {why.message}"
                    cost = None
                break
            if first is None:
                first = result.why_not(dst)
        else:
            check.legal = False
            check.rule, check.reason = (first.rule, first.message) if first else (None, None)
    except Exception as err:  # noqa: BLE001 -- a hostile log must not crash the checker
        report.not_checked.append(NotChecked(check.step, "move", f"the move calculator failed: "
                                             f"{type(err).__name__}: {err}", ids, check.origin, check.to))
        return None
    report.moves.append(check)
    return cost


def check_log_file(path: str | os.PathLike[str] | IO[bytes], game_id: str | None = None, *,
                   check_after: str = "step", limits: LogLimits = LogLimits()) -> LogReport:
    """Read a ``.vlog`` and check it (game from ``game_id`` or the log's module name)."""
    log = read_log(path, limits)
    game = game_of_save(log.initial, log.source, game_id)
    return check_log(log, game, check_after=check_after)


def log_of_moves(position: Position, steps: list[list[tuple[str, str]]]) -> bytes:
    """A ``.vlog`` for the game's module: the position's save, then each step's ``(unit, hex)`` moves.

    Each move is the MovePiece a drag of the unit's piece to the hex centre logs (for tests, benchmarks and
    tools that turn a sequence of positions into a log to check).
    """
    import io as _io

    from ..design.board import board_layout, hex_centre
    from .logfile import log_bytes, move_piece_command
    from ..design.piecedefs import MAIN_MAP
    from ..engine.safezip import open_archive
    from .savefile import deobfuscate, parse_saved_game
    from .positions import position_save

    vsav, _ = position_save(position)
    with open_archive(_io.BytesIO(vsav)) as arc:
        save = parse_saved_game(deobfuscate(arc.read("savedGame")))
    piece = {p.properties.get("unit"): p for p in save.pieces}
    cmap = position.game.map
    board = board_layout(cmap)
    out = []
    for step in steps:
        cmds = []
        for uid, hexname in step:
            if uid not in piece:
                raise ValueError(f"no unit {uid!r} on the map of the position")
            p = piece[uid]
            x, y = hex_centre(board, cmap, cmap.resolve(hexname))
            cmds.append(move_piece_command(p.id, MAIN_MAP, x, y, None, p.map, p.x, p.y, None, "toolkit"))
            p.map, p.x, p.y = MAIN_MAP, x, y
        out.append(cmds)
    return log_bytes(vsav, out)
