"""The predefined setups of a published module read as scenario positions of the game folder imported from it.

Each ``PredefinedSetup`` that loads a file (File menu entries, nested menus included) is read as a save of the
module (:func:`toolkit.vassal.saves.imported.imported_save_to_position`, the same as ``toolkit vsav read
--game``) and written as ``scenarios/<name>.yaml``, so ``toolkit check``, ``moves`` and ``serve`` open it.

A module's own setups are trusted as far as the module's own size (:func:`setup_limits`): the caps on the
decoded text, trait levels, pieces and commands grow with the module, up to hard ceilings; a piece that is
still too deep or does not read is skipped with a note naming it (the rest of the setup is read).  A setup
the engine would refuse is left out with a note saying so: a VASSAL 2.9 plain-text save (not a zip archive;
VASSAL 3 reads saves from zip archives only, "Invalid saveFile format").
"""
from __future__ import annotations

import io
import os
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from ...answers import clean_text
from ...game import Game
from ...game.position import position_from_yaml
from ..engine.safezip import ArchiveError, open_archive
from ..saves.imported import ImportRecord, imported_save_to_position
from ..saves.savefile import MAX_SAVED_GAME_BYTES, SaveError, SaveLimits, read_save
from .moduleread import PublishedModule, Setup

#: Hard ceilings on what a module's own setups may hold, however large the module (docs/vassal.md, 'Limits').
MAX_SETUP_CHARS = 64 << 20        # decoded text of one setup
MAX_SETUP_TRAITS = 256            # trait levels of one piece
MAX_SETUP_PIECES = 200_000        # pieces and stacks of one setup
MAX_SETUP_COMMANDS = 1_000_000    # leaf commands of one setup
SHOWN_UNPLACED = 20               # pieces not placed listed in a scenario file's header


def one_line(text: str) -> str:
    """Text from a module as one line of a written file: control characters (C0 and C1) escaped, no line break."""
    return clean_text(text.replace("\n", " "), 1 << 20)


def setup_limits(module: PublishedModule) -> SaveLimits:
    """The caps for the module's own setups: the decoded text as large as the module's entries together, trait
    levels twice its deepest piece slot, a piece per 100 bytes of it, a command per 50; never below the
    defaults for any save, never above the ceilings."""
    chars = min(MAX_SETUP_CHARS, max(MAX_SAVED_GAME_BYTES, module.size))
    deepest = max((len(p.traits) for p in module.pieces), default=0)
    base = SaveLimits()
    return replace(base, max_chars=chars, max_traits=min(MAX_SETUP_TRAITS, max(base.max_traits, 2 * deepest)),
                   max_pieces=min(MAX_SETUP_PIECES, max(base.max_pieces, module.size // 100)),
                   max_commands=min(MAX_SETUP_COMMANDS, max(base.max_commands, module.size // 50)),
                   skip_bad_pieces=True)


@dataclass
class ScenarioRow:
    """What one setup became: its scenario file (None when left out), units placed, pieces not placed, notes."""

    setup: Setup
    file: str | None = None
    units: int = 0
    unplaced: int = 0
    notes: list[str] | None = None


def read_setup(data: bytes, label: str, limits: SaveLimits):
    """A setup's save read within ``limits``; raises :class:`SaveError` (or ArchiveError) naming ``label``."""
    buf = io.BytesIO(data)
    buf.name = label
    return read_save(buf, limits)


def _scenario_text(module: PublishedModule, setup: Setup, data: dict, unplaced: list, skipped: list[str]) -> str:
    """A scenario file: a header saying where it came from and what it leaves out, then the position."""
    lines = [f"{module.name or 'Module'}: the setup {setup.title!r} ({setup.file}) as a position, read by "
             "`toolkit import-vmod`.",
             f"{len(data.get('units', []))} units placed; {len(unplaced)} pieces not placed (markers, cards, pieces "
             "off the game's map or of no counter)" + (":" if unplaced else ".")]
    lines += [f"  {u}" for u in unplaced[:SHOWN_UNPLACED]]
    if len(unplaced) > SHOWN_UNPLACED:
        lines.append(f"  ... and {len(unplaced) - SHOWN_UNPLACED} more (`toolkit vsav read` of the setup lists all)")
    lines += [f"skipped: {s}" for s in skipped]
    header = "".join("# " + one_line(ln) + "\n" for ln in lines)
    return header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120)


def write_scenarios(vmod, module: PublishedModule, game: Game, record: ImportRecord, write, slug) -> list[ScenarioRow]:
    """Each setup of the module as ``scenarios/<name>.yaml`` (``write(rel, text)`` writes a new file of the
    folder, ``slug(name, taken)`` makes a file name); what each became."""
    limits, taken, rows = setup_limits(module), set(), []
    with open_archive(vmod) as arc:
        for setup in module.setups:
            row = ScenarioRow(setup, notes=[])
            rows.append(row)
            label = f"{os.path.basename(os.fspath(vmod))}: setup {setup.title[:80]!r} ({setup.file[:80]})"
            if setup.file not in arc:
                row.notes.append(f"{label}: no such entry in the module (VASSAL cannot load it either); left out")
                continue
            try:
                save = read_setup(arc.read(setup.file, 2 * limits.max_chars + (8 << 20)), label, limits)
            except (SaveError, ArchiveError) as err:
                row.notes.append(f"{err}; left out")
                continue
            try:   # a position the game refuses (a unit id the save's properties make unusable ...) is left out
                pf, unplaced = imported_save_to_position(save, game, record)
                data = {**pf.model_dump(exclude_defaults=True), "scenario": setup.name or setup.file}
                text = _scenario_text(module, setup, data, unplaced, save.skipped)
                position_from_yaml(text.encode("utf-8"), "its position", game)
            except ValueError as err:   # GameDataError, a pydantic ValidationError
                row.notes.append(f"{label}: not a position of the game ({one_line(str(err))[:300]}); left out")
                continue
            row.file = f"scenarios/{slug(setup.name or Path(setup.file).stem, taken, 'setup')}.yaml"
            row.units, row.unplaced = len(pf.units), len(unplaced)
            row.notes += [f"{label}: {s}" for s in save.skipped]
            write(row.file, text)
    return rows


def readme_rows(rows: list[ScenarioRow]) -> list[str]:
    """The README's table of scenarios: setup, file, units placed, pieces not placed."""
    if not rows:
        return ["The module has no predefined setup that loads a file: no scenario was written."]
    out = ["| setup (File menu) | scenario file | units placed | pieces not placed |", "|---|---|---|---|"]
    for r in rows:
        title = one_line(r.setup.title).replace("|", "/")
        out.append(f"| {title} | {r.file or 'left out: ' + '; '.join(r.notes)[:200].replace('|', '/')} | "
                   f"{r.units} | {r.unplaced} |")
    return out
