"""Reading published VASSAL modules (untrusted) and importing one as a game folder (``toolkit import-vmod``).

Imports :mod:`toolkit.vassal.engine`, the game layer, and one way :mod:`toolkit.vassal.saves` (the import
record, which :mod:`toolkit.vassal.saves.imported` reads saves with); nothing imports it back.
"""
