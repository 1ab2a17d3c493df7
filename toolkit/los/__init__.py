"""Exact line of sight on hex grids: contacts, conventions, one-to-all visibility, the visibility matrix.

Each name is imported from its module on first use (:mod:`toolkit.lazy`): the conventions' names load no numpy.
"""
from ..lazy import lazy_exports

__getattr__ = lazy_exports(__name__, {
    ".contacts": ["CORNER", "HEXSIDE", "INTERIOR", "ContactTable", "classify_offsets"],
    ".convention": ["Convention"],
    ".engine": ["SYMMETRIC", "Contact", "LosEngine", "LosResult", "ObstacleArrays", "Obstacles", "SideContact"],
    ".matrix": ["VisibilityMatrix", "visibility_matrix"],
})

__all__ = ["CORNER", "HEXSIDE", "INTERIOR", "Contact", "ContactTable", "Convention", "LosEngine", "LosResult",
           "ObstacleArrays", "Obstacles", "SYMMETRIC", "SideContact", "VisibilityMatrix", "classify_offsets",
           "visibility_matrix"]
