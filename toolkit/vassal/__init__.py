"""VASSAL: building the toolkit's modules, reading and writing saves and logs, and reading published modules.

Five rooms, each importing only the rooms before it in this list (and the game layer: ``toolkit.game``,
``hexgrid``, ``render`` ...), never its callers:

* :mod:`.engine` -- the engine's own formats and arithmetic, shared by all: SequenceEncoder, trait chains,
  untrusted archives, grids;
* :mod:`.design` -- what the toolkit's own modules are made of (board, boxes, counters, traits, piece
  definitions, turn tracker), shared by the builder and those modules' saves;
* :mod:`.saves` -- saved games and logs: read, written, mapped to positions, replayed;
* :mod:`.build` -- building and checking a ``.vmod`` (its scenarios are saves, written by :mod:`.saves`);
* :mod:`.published` -- reading published modules and importing them as game folders (the import record is
  :mod:`.saves`'s, which reads their saves).
"""
