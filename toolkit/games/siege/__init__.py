"""*The Siege of Jerusalem* (70 AD) rules package: for now the counter-value model (issue 6, game data)."""
from .units import check_counter

__all__ = ["check_counter"]
