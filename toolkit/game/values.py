"""Checking a counter's game-specific ``values`` against the game's pydantic model, face by face."""
from __future__ import annotations

from typing import Iterator

from pydantic import BaseModel

from .schema import Counter


def counter_faces(counter: Counter, model: type[BaseModel]) -> Iterator[tuple[str, BaseModel | str]]:
    """Each face (``values``, and ``back`` when there is one) validated by ``model``, or its error text."""
    faces = [("values", counter.values)]
    if counter.back is not None:
        faces.append(("back", {**counter.values, **counter.back}))
    for face, values in faces:
        try:
            yield face, model.model_validate(values)
        except ValueError as err:
            yield face, str(err)


def check_values(counter: Counter, model: type[BaseModel]) -> list[str]:
    """Problems with a counter's values on either face (empty when valid)."""
    return [f"{counter.id}.{face}: {v}" for face, v in counter_faces(counter, model) if isinstance(v, str)]
