"""Hex geometry: exact coordinates, layouts, naming schemes and grids."""
from .coords import DIRECTIONS, Hex, Hexside, cube_round, cube_round_array, hexside
from .grid import Grid
from .lattice import CORNERS, lattice_centre, lattice_corners
from .layout import Layout
from .naming import CCRR, Diagonal, HexNameError, NamingScheme, VassalNumbering, column_index, column_letters

__all__ = [
    "CCRR", "CORNERS", "DIRECTIONS", "Diagonal", "Grid", "Hex", "HexNameError", "Hexside", "Layout",
    "NamingScheme", "VassalNumbering", "column_index", "column_letters", "cube_round", "cube_round_array", "hexside", "lattice_centre", "lattice_corners",
]
