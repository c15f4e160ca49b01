"""Bots: players that choose among ``state.legal_decisions()``.

A bot is any object with ``choose(state) -> decision``; bots are found by
name in ``azul_core.players.registry``.

Every bot here reads the rules only through the state and its ``Rules``
(wall spaces, placement score, floor penalty), so it plays any variant.
"""

from __future__ import annotations

import random as _random
from typing import Any


class RandomBot:
    """Uniformly random over the legal decisions."""

    name = "random"

    def __init__(self, seed: Any = None, think: float | None = None):
        self.random = _random.Random(seed).random

    def choose(self, state) -> tuple:
        return state.random_decision(self.random)

    def play(self, state) -> tuple:
        """Choose and apply in one step, the same game as ``state.apply(self.choose(state))``
        but faster: a game runner calls ``play`` where a bot has it."""
        return state.apply_random(self.random)


# ------------------------------------------------------------------ evaluation


def floor_space_penalties(rules) -> list[int]:
    """The cost of each floor space, left to right, as the variant's floor hook says."""
    costs, before = [], 0
    for spaces in range(1, rules.floor_spaces + 1):
        total = rules.floor_penalty([0] * spaces)
        costs.append(total - before)
        before = total
    return costs


def line_worth(rules, board, row: int, colour: int | None = None, full: bool | None = None) -> int:
    """The points pattern line ``row`` would score if tiled now onto ``board``'s wall.

    ``colour`` and ``full`` default to what the line holds. Where the player
    chooses the column, the best legal one. A full line whose tile has no
    legal space is worth minus what its tiles would cost on the floor.
    """
    if colour is None:
        colour = board.line_colour[row]
    if full is None:
        full = board.line_count[row] == row + 1
    wall = board.wall
    columns = rules.wall_spaces(wall, row, colour)
    if not columns:
        if not full:
            return 0
        floor = board.floor
        return rules.floor_penalty(floor + [colour] * (row + 1)) - rules.floor_penalty(floor)
    best = 0
    cells = wall[row]
    for column in columns:
        cells[column] = colour  # scored in place and put back: the wall is the clone's own
        try:
            points = rules.placement_score(wall, row, column)
        finally:
            cells[column] = None
        if points > best:
            best = points
    return best


def board_value(rules, board) -> float:
    """A player's score as it will stand at the round's end if nothing more happens, plus the
    worth of unfinished lines in proportion to how full they are (the hope of completing them)."""
    value = board.score + rules.floor_penalty(board.floor)
    for row in range(5):
        count = board.line_count[row]
        if count:
            worth = line_worth(rules, board, row)
            value += worth if count == row + 1 else worth * count / (row + 1)
    return value


class GreedyBot:
    """The best immediate gain: each legal decision is tried on a clone of the state and
    judged by the mover's change in ``board_value`` (score, the floor's cost now, the
    worth of the line the tiles went to). Ties are broken by a seeded random choice."""

    name = "greedy"

    def __init__(self, seed: Any = None, think: float | None = None):
        self.rng = _random.Random(seed)

    def scored_decisions(self, state) -> list[tuple[float, tuple]]:
        """Every legal decision with the mover's gain, in ``legal_decisions()`` order."""
        seat = state.to_move
        rules = state.rules
        before = board_value(rules, state.players[seat])
        scored = []
        for decision in state.legal_decisions():
            after = state.clone()
            after.apply(decision)
            scored.append((board_value(rules, after.players[seat]) - before, decision))
        return scored

    def choose(self, state) -> tuple:
        scored = self.scored_decisions(state)
        if len(scored) == 1:
            return scored[0][1]
        best = max(gain for gain, _ in scored)
        top = [decision for gain, decision in scored if gain >= best - 1e-9]
        return top[0] if len(top) == 1 else self.rng.choice(top)
