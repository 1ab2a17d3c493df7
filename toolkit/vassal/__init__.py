"""VASSAL export: board images with exactly laid grids, modules and saved games."""
