"""Random playouts: a whole game from a position, every action drawn at random among the legal ones and made
through :func:`toolkit.game.actions.apply` -- the rules' property test (a playout's log must check legal, and a
log with one step changed must not).

In each phase the phasing side places its reinforcements where its rules' ``placement`` allows (when the phase
allows reinforcements), moves some of its units to random legal destinations (when the phase allows movement), makes some of the attacks its rules offer (``attack_options``, when the phase allows combat, fire or
melee; an attack the rules refuse is skipped), then ends the phase.  An action after which the game's ``check``
finds a violation the position did not have is not made, and is counted (``Playout.refused``: where the move
search and the check disagree, a finding for the rules); the game goes on until the sequence of play
says it is over (:class:`toolkit.game.sequence.GameOver`).  The same position and seed give the same game.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..game import Position
from ..game.actions import Action, IllegalAction, Outcome, apply
from ..game.sequence import GameOver, game_over
from . import rules_for, search_moves

#: The activities (``game.yaml`` ``phases[].allows``) under which the phasing side attacks.
ATTACKS = ("combat", "fire", "melee")


@dataclass
class Playout:
    """A game played out: its first position, each action with the position it made, and how it ended."""

    start: Position
    steps: list[tuple[Action, Position]] = field(default_factory=list)
    ended: GameOver | None = None
    turns: int = 1
    refused: list[str] = field(default_factory=list)   # actions the rules offered that made a new violation

    @property
    def last(self) -> Position:
        """The position the game ended in."""
        return self.steps[-1][1] if self.steps else self.start

    def summary(self) -> str:
        """One line: how the game ended, with the number of actions and turns."""
        why = f"the game ended: {self.ended}" if self.ended else "the game did not end"
        return (f"{why}; {len(self.steps)} actions over {self.turns} turns, last {self.last.turn}"
                + (f"; {len(self.refused)} offered actions made a violation" if self.refused else ""))


def play_random(position: Position, seed: int, *, moves: int = 6, attacks: int = 3,
                max_actions: int = 100_000) -> Playout:
    """A random playout of the game from ``position`` (see the module doc): in each phase at most ``moves``
    moves and ``attacks`` attacks; ``max_actions`` bounds the whole game."""
    rng = random.Random(seed)
    game = Playout(position)
    pos = position
    while len(game.steps) < max_actions:
        allows = set(pos.game.spec.phase_allows(pos.phase, pos.phasing_side))
        if "reinforcements" in allows:
            pos = _placements(game, pos, rng)
        if "movement" in allows:
            pos = _moves(game, pos, rng, moves)
        if allows & set(ATTACKS):
            pos = _attacks(game, pos, rng, attacks)
        over = game_over(pos)
        if over is not None:
            game.ended = over
            break
        out = apply(pos, Action("end_phase"), rng)
        game.turns += out.position.turn != pos.turn
        pos = _record(game, out)
    return game


def _record(game: Playout, out: Outcome) -> Position:
    game.steps.append((out.action, out.position))
    return out.position


def _moves(game: Playout, pos: Position, rng: random.Random, most: int) -> Position:
    """Up to ``most`` moves of random phasing units to random legal destinations."""
    ids = sorted(u.id for u in pos.units if u.side == pos.phasing_side and u.hex is not None and not u.carried_by)
    rng.shuffle(ids)
    made = 0
    for uid in ids:
        if made >= most:
            break
        try:
            result = search_moves(pos, "playout", [uid])
        except ValueError:
            continue
        name = pos.game.map.name
        dests = sorted((name(h) for h in result.destinations if h != pos.by_id[uid].hex))
        if not dests:
            continue
        made += _try(game, pos, Action("move", (uid,), rng.choice(dests)), rng)
        pos = game.last
    return pos


def _placements(game: Playout, pos: Position, rng: random.Random) -> Position:
    """Every waiting reinforcement of the phasing side placed in a random hex its rules allow now."""
    placement = getattr(rules_for(pos.game), "placement", None)
    if placement is None:
        return pos
    for uid in sorted(u.id for u in pos.units if u.side == pos.phasing_side and u.hex is None):
        found = placement(pos, uid)
        if found.refused is None and found.hexes:
            name = pos.game.map.name
            _try(game, pos, Action("place", (uid,), rng.choice(sorted(name(h) for h in found.hexes))), rng)
            pos = game.last
    return pos


def _attacks(game: Playout, pos: Position, rng: random.Random, most: int) -> Position:
    """Up to ``most`` attacks drawn from the rules' ``attack_options`` (refused ones skipped)."""
    options = getattr(rules_for(pos.game), "attack_options", None)
    if options is None:
        return pos
    made = 0
    for _ in range(most * 3):
        offered = [o for o in options(pos) if all(u in pos.by_id for u in (*o[0], *o[1]))]
        if not offered or made >= most:
            break
        attackers, defenders, kind = rng.choice(offered)
        action = Action("combat", tuple(attackers), None, tuple(defenders), {"kind": kind} if kind else {})
        made += _try(game, pos, action, rng)
        pos = game.last
    return pos


def _try(game: Playout, pos: Position, action: Action, rng: random.Random) -> bool:
    """Make the action unless the rules refuse it or it leaves a violation the position did not have."""
    try:
        out = apply(pos, action, rng)
    except IllegalAction:
        return False
    check = rules_for(pos.game).check
    before = {v.message for v in check(pos)}
    new = [v for v in check(out.position) if v.message not in before]
    if new:
        game.refused.append(f"{out.action.text()}: {new[0].message}")
        return False
    _record(game, out)
    return True
