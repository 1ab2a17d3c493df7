"""Hex-and-counter wargame toolkit: maps, exact line of sight, rules assistant, VASSAL export."""
