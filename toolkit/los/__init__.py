"""Exact line of sight on hex grids: contacts, conventions, one-to-all visibility, the visibility matrix."""
from .contacts import CORNER, HEXSIDE, INTERIOR, ContactTable, classify_offsets
from .engine import SYMMETRIC, Contact, Convention, LosEngine, LosResult, ObstacleArrays, Obstacles, SideContact
from .matrix import VisibilityMatrix, visibility_matrix

__all__ = ["CORNER", "HEXSIDE", "INTERIOR", "Contact", "ContactTable", "Convention", "LosEngine", "LosResult",
           "ObstacleArrays", "Obstacles", "SYMMETRIC", "SideContact", "VisibilityMatrix", "classify_offsets",
           "visibility_matrix"]
