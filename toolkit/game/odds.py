"""Pieces every combat calculator shares: exact strengths, defender-rounded odds, JSON numbers.

>>> ratio(5, 3), ratio(10, 3), ratio(5, 6), ratio_value("1-2")
('1-1', '3-1', '1-2', Fraction(1, 2))
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import ceil, floor


def fraction(x: float | int | Fraction | str) -> Fraction:
    """An exact value of a strength or multiplier (``0.5`` -> ``1/2``)."""
    return x if isinstance(x, Fraction) else Fraction(str(x))


def number(x: Fraction) -> int | float:
    """A JSON-friendly number: whole values as ``int``."""
    return int(x) if x.denominator == 1 else float(x)


def ratio(attack: float | Fraction, defence: float | Fraction) -> str:
    """The odds ``attack : defence`` rounded down in the defender's favour: ``"3-1"``, ``"1-2"``."""
    a, d = fraction(attack), fraction(defence)
    if a <= 0 or d <= 0:
        raise ValueError("both sides need a positive strength to compute odds")
    return f"{floor(a / d)}-1" if a >= d else f"1-{ceil(d / a)}"


def ratio_value(text: str) -> Fraction:
    """The value of an odds text: ``"3-1"`` -> 3, ``"1-2"`` -> 1/2."""
    a, d = text.split("-")
    return Fraction(int(a), int(d))


@dataclass(frozen=True)
class Applied:
    """A die-roll modifier or column shift that applies to a combat: its id, value, rule and why."""

    id: str
    value: int
    rule: str
    why: str


@dataclass(frozen=True)
class Strength:
    """One unit's part in a combat: the strength used and how it was obtained (with rule numbers)."""

    unit: str
    strength: Fraction
    how: str


def strengths_json(strengths) -> list[dict]:
    """Each side's part in a combat as JSON: ``[{"unit", "strength", "how"}]`` (the shape every game's ``odds`` uses)."""
    return [{"unit": s.unit, "strength": number(s.strength), "how": s.how} for s in strengths]


def odds_json(result) -> dict:
    """The keys every game's ``odds --json`` shares (docs/cli.md), from a combat result with ``kind``,
    ``attackers``/``defenders`` (:class:`Strength`), ``attack``, ``defence``, ``raw_odds``, ``odds``,
    ``modifiers``, ``total_modifier``, ``probability``, ``refused`` and ``notes``; games add their own keys."""
    refused = result.refused
    return {
        "kind": result.kind,
        "attackers": strengths_json(result.attackers),
        "defenders": strengths_json(result.defenders),
        "attack": number(result.attack),
        "defence": number(result.defence),
        "ratio": result.raw_odds,
        "odds": result.odds,
        "modifiers": [{"id": m.id, "value": m.value, "rule": m.rule, "why": m.why} for m in result.modifiers],
        "total_modifier": result.total_modifier,
        "probability": None if result.probability is None else float(result.probability),
        "refused": None if refused is None else {"reason": refused.message, "rule": refused.rule},
        "notes": list(result.notes),
    }
