"""The line-of-sight conventions, apart from the engine so naming them (``toolkit los --convention``) loads no
numpy."""
from enum import Enum


class Convention(str, Enum):
    """When an obstacle hex met by the line blocks it."""

    TOUCH = "touch"
    CROSS = "cross"
    BOTH_SIDES = "both-sides"
