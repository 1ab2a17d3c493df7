"""Building a game's VASSAL module (``.vmod``): ``buildFile.xml``, help and charts, the zip, and the validator.

Imports :mod:`toolkit.vassal.engine`, :mod:`toolkit.vassal.design`, the game layer, and one way
:mod:`toolkit.vassal.saves` (a module carries its scenarios as saves); nothing imports it back.
"""
