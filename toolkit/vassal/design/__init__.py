"""What the toolkit's own modules are made of: board and boxes, counter faces, traits, pieces, turn tracker.

Shared by the builder (:mod:`toolkit.vassal.build`) and by the saves of those modules
(:mod:`toolkit.vassal.saves`), so both lay pieces out the same way.  Imports :mod:`toolkit.vassal.engine` and
the game layer, no other room.
"""
