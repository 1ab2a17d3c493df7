"""Hex-and-counter wargame toolkit: maps, exact line of sight, rules assistant, VASSAL export."""

__version__ = "0.1.0"
