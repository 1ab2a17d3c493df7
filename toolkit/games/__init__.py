"""Each game's rules assistant, found by game id; the loaders that check a position against its game's rules; the
enemy-reach layer in each game's own movement phases.

A game's rules are a *namespace of calculators* (``moves``, ``check``, ``combat`` …, docs/plugins.md): a module
or any object with those attributes.  They come from two places, merged:

* the game's ``rules.yaml`` (docs/rules-data.md), turned into calculators by :mod:`toolkit.games.data`, one
  for each section it declares;
* an installed plugin: an entry point of the group :data:`ENTRY_POINT_GROUP` named by the game id (the bundled
  games are declared this way in the toolkit's own ``pyproject.toml``).  Its attributes win over the data's, so a
  plugin overrides only what its game does differently.

Rules never parse files; a position or a save never names a plugin (only the installed packages do).
"""
from __future__ import annotations

import io
from functools import lru_cache, wraps
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Sequence

from ..game import Game, GameDataError, Position, load_game, load_position, position_from_file
from ..game.moves import MoveResult
from ..game.placement import placement_json
from ..game.position import position_from_yaml
from ..game.violations import check_json
from ..game.reach import reach
from ..game.sequence import sequence_problems
from ..hexgrid import Hex
from ..lazy import lazy_module
from ..vassal.saves.savefile import Unplaced
from .plugin import calculators as plugin_calculators

data = lazy_module("toolkit.games.data")   # the calculators of a rules.yaml (and los, numpy): loaded for one only

#: The entry-point group of rules plugins: ``GAME_ID = "package.module"`` (or ``"package.module:object"``).
ENTRY_POINT_GROUP = "toolkit.rules"


#: What every game's rules get unless its plugin gives its own: the shared JSON forms of answers.
SHARED = {"check_json": check_json, "placement_json": placement_json}


@lru_cache(maxsize=1)
def plugins() -> dict[str, EntryPoint]:
    """The installed rules plugins by game id."""
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def rules_for(game: Game) -> Any:
    """The rules of a game: its plugin's calculators over those its ``rules.yaml`` declares; ``ValueError``
    saying what to add when it has neither."""
    plugin = plugins().get(game.spec.id)
    declared = game.rules_data
    if plugin is None and declared is None:
        raise ValueError(f"no rules assistant for game {game.spec.id!r} yet: describe its rules in "
                         f"{game.folder / 'rules.yaml'} (docs/rules-data.md; `toolkit new` writes an example) or "
                         "install a rules plugin for it (docs/plugins.md)")
    calculators = {**SHARED, **(data.calculators(declared) if declared is not None else {})}
    found = {**calculators, **({} if plugin is None else plugin_calculators(plugin))}
    if "check" in found:
        found["check"] = _with_sequence(found["check"])
    return SimpleNamespace(**found)


def _with_sequence(check):
    """A game's ``check`` that also says where the position breaks the sequence of play (a phase its turn does not
    have, a player turn after the game's end: :func:`toolkit.game.sequence.sequence_problems`)."""
    @wraps(check)
    def checked(position: Position, *args: Any, **kwargs: Any):
        found = check(position, *args, **kwargs)   # the game's own first: its errors name it
        return [*sequence_problems(position), *found]
    return checked


def has_rules(game: Game) -> bool:
    """Whether the game has a rules assistant (a plugin or a ``rules.yaml``)."""
    return game.spec.id in plugins() or game.rules_data is not None


def rule(game: Game, name: str):
    """One calculator of a game's rules (``moves``, ``check``, ``supply`` ...), or a ``ValueError`` naming what to
    declare."""
    found = getattr(rules_for(game), name, None)
    if found is None:
        section = data.SECTION_OF.get(name.removesuffix("_json"))
        hint = (f"declare `{section}:` in {game.folder / 'rules.yaml'} (docs/rules-data.md)" if section
                else f"see docs/games/{game.spec.id}.md" if game.bundled else "a plugin may add it (docs/plugins.md)")
        raise ValueError(f"the toolkit has no {name!r} for {game.spec.id!r} yet: {hint}")
    return found


def load_game_position(path: str | Path, game: Game | None = None) -> Position:
    """A position (of ``game`` when the user gave one, see :func:`toolkit.game.load_position`), with its game's
    counter values checked by the game's rules package when the toolkit has one.

    Raises :class:`GameDataError` naming ``counters.yaml`` and the counter when a value is wrong.
    """
    return _counters_checked(load_position(path, game), game)


def game_position_from_yaml(raw: bytes, file: str, game: str | None = None) -> Position:
    """A position from the bytes of a position file (an upload, named ``file`` in errors), checked as
    :func:`load_game_position` checks a file; ``game`` is the user's ``--game`` (else the bundled game it names)."""
    own = None if game is None else load_game(game)
    return _counters_checked(position_from_yaml(raw, file, own), own)


def _counters_checked(position: Position, game: Game | None) -> Position:
    check_counter = getattr(rules_for(position.game), "check_counter", None) if has_rules(position.game) else None
    if check_counter is None:
        return position  # rules.yaml's counter values are checked when the game loads it
    for i, counter in enumerate(position.game.manifest.counters):
        problems = check_counter(counter)
        if problems:
            raise GameDataError(str(position.game.folder / "counters.yaml"), f"counters[{i}].values",
                                "; ".join(problems))
    return position


def load_position_or_save(path: str, game: str | None = None) -> tuple[Position, list[Unplaced]]:
    """A position file, or the position a VASSAL save shows (``.vsav``, read as an untrusted archive) with the
    pieces it could not place; ``game`` is the user's ``--game`` (a bundled id or a game folder)."""
    if path.lower().endswith(".vsav"):
        from ..vassal.saves.positions import read_position_save   # the VASSAL layer, loaded for a save only

        pf, unplaced = read_position_save(path, game)
        return position_from_file(pf, path, None if game is None else load_game(game)), unplaced
    return load_game_position(path, None if game is None else load_game(game)), []


def side_reach(position: Position, side: str) -> dict[Hex, tuple[str, ...]]:
    """Every hex some unit of ``side`` can reach or attack next turn, with those units
    (:func:`toolkit.game.reach.reach`, in the game's own movement phases)."""
    rules = rules_for(position.game)
    return reach(position, side, rules.moves, rules.movement_phases(position.game.spec, side))


def game_position_from_save(raw: bytes, file: str, game: str | None = None) -> tuple[Position, list[Unplaced]]:
    """The position the bytes of a VASSAL save show (an upload named ``file`` in errors; read through the
    untrusted-archive guards), with the pieces it could not place; ``game`` as for :func:`load_position_or_save`."""
    from ..vassal.saves.positions import read_position_save   # the VASSAL layer, loaded for a save only

    stream = io.BytesIO(raw)
    stream.name = file
    pf, unplaced = read_position_save(stream, game)
    return position_from_file(pf, file, None if game is None else load_game(game)), unplaced


def require_units(position: Position, label: str, ids: Sequence[str]) -> None:
    """A clear error for unit ids the position does not have (``label`` names the position to the user)."""
    unknown = [u for u in ids if u not in position.by_id]
    if unknown:
        some = list(position.by_id)
        listed = ", ".join(some[:25]) + (f" … ({len(some)} in all)" if len(some) > 25 else "")
        raise ValueError(f"{label}: no unit {', '.join(map(repr, unknown))}; units: {listed}")


def search_moves(position: Position, label: str, unit_ids: Sequence[str], pickup: Sequence[str] = (),
                 terrorist: bool = False, enter: str | None = None, kind: str | None = None) -> MoveResult:
    """The game's legal-move search for the named units moving together (``kind`` for games with several kinds
    of movement, No Prisoners 8.1, 8.8); unknown unit ids are refused naming ``label``."""
    require_units(position, label, [*unit_ids, *pickup])
    game_id = position.game.spec.id
    if kind is not None:
        known = getattr(rules_for(position.game), "MOVE_OPTIONS", {}).get("kinds", [])
        if kind not in known:
            raise ValueError(f"kind {kind!r}: {game_id} has " + (f"the kinds of movement {', '.join(known)}; give one"
                                                                  if known else "one kind of movement; drop kind"))
    kinds = {"kind": kind} if kind else {}
    return rule(position.game, "moves")(position, list(unit_ids), list(pickup), terrorist, enter, **kinds)
