"""Exact line of sight on hex grids: contacts, conventions, one-to-all visibility."""
from .contacts import CORNER, HEXSIDE, INTERIOR, ContactTable, classify_offsets
from .engine import Contact, Convention, LosEngine, LosResult, Obstacles, SideContact

__all__ = ["CORNER", "HEXSIDE", "INTERIOR", "Contact", "ContactTable", "Convention", "LosEngine", "LosResult",
           "Obstacles", "SideContact", "classify_offsets"]
