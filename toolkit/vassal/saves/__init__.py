"""VASSAL saves (``.vsav``) and logs (``.vlog``): read (untrusted), written, mapped to positions, replayed.

Imports :mod:`toolkit.vassal.engine`, :mod:`toolkit.vassal.design` (saves of the toolkit's own modules lay
pieces as the modules define them) and the game layer; never :mod:`~toolkit.vassal.build` nor
:mod:`~toolkit.vassal.published`, which use it.
"""
