"""The search bot ``mcts``: Monte Carlo tree search over the rest of the round.

Within a round Azul has no chance: every tile on the table is in view, and
only the next deal is random. The tree therefore grows from the current
position to the end of the round (the next deal, or the game's end), and a
leaf is judged by a short playout with a cheap greedy policy to that point,
then by each player's ``board_value`` (score, the floor's cost, the worth of
unfinished lines) relative to the best opponent. At the game's end the
result is exact: a win, a loss or a share.

Rewards are kept per seat (max^n), so the same tree serves 2 to 4 players.
The budget is a time (``think`` seconds) or a number of iterations; with
``iterations`` the bot is deterministic for a given seed.
"""

from __future__ import annotations

import math
import random as _random
import time
from typing import Any

from azul_core.engine.state import CENTRE, DEAL, FLOOR, OVER, PLACE
from azul_core.players.bots import GreedyBot, board_value, line_worth

#: The think time when neither ``think`` nor ``iterations`` is given.
DEFAULT_THINK = 0.5


class _Node:
    __slots__ = ("state", "mover", "children", "untried", "visits", "value")

    def __init__(self, state, mover: int):
        self.state = state
        self.mover = mover  # the seat whose decision led here: the value is theirs
        self.children: list[tuple[tuple, _Node]] = []
        self.untried: list[tuple] | None = None
        self.visits = 0
        self.value = 0.0


def round_over(state) -> bool:
    """Whether the round's drafting and tiling are done (the horizon of the search)."""
    return state.phase == DEAL or state.phase == OVER


def quick_gains(state) -> list[tuple[float, tuple]]:
    """Every legal decision with an estimate of the mover's gain, computed without cloning.

    Counts the floor spaces the tiles (and the start marker) would take now,
    and the share of the line's worth the tiles add; a placement is worth
    the points it scores.
    """
    decisions = state.legal_decisions()
    rules = state.rules
    seat = state.to_move
    board = state.players[seat]
    if state.phase == PLACE:
        gains = []
        wall = board.wall
        for row, column in decisions:
            colour = board.line_colour[row]
            wall[row][column] = colour  # scored in place and put back
            try:
                points = rules.placement_score(wall, row, column)
            finally:
                wall[row][column] = None
            gains.append((points, (row, column)))
        return gains
    floor = board.floor
    penalty = rules.floor_penalty
    spaces = rules.floor_spaces
    marker_cost = rules.marker.placement == "floor" and state.marker_in_centre
    before = penalty(floor)
    floor_cost = {}  # extra tiles on the floor -> change of penalty
    worth = {}
    gains = []
    for source, colour, line in decisions:
        taken = state.sources[source][colour]
        on_floor = taken
        share = 0.0
        if line != FLOOR:
            count = board.line_count[line]
            put = min(taken, line + 1 - count)
            on_floor = taken - put
            key = (line, colour)
            if key not in worth:
                worth[key] = line_worth(rules, board, line, colour, True)
            share = worth[key] * put / (line + 1)
        extra = on_floor + (1 if source == CENTRE and marker_cost else 0)
        if extra not in floor_cost:
            room = min(len(floor) + extra, spaces)
            floor_cost[extra] = penalty(floor + [0] * (room - len(floor))) - before
        gains.append((share + floor_cost[extra], (source, colour, line)))
    return gains


def _greedy_pick(state, random) -> tuple:
    """The playout policy: the best quick gain, ties broken at random."""
    gains = quick_gains(state)
    best = max(g for g, _ in gains)
    top = [d for g, d in gains if g >= best - 1e-9]
    return top[int(random() * len(top))] if len(top) > 1 else top[0]


def seat_rewards(state, scale: float) -> list[float]:
    """Each seat's reward in [0, 1]: exact at the game's end, else from ``board_value``
    against the best opponent, squashed so that a few points matter most."""
    players = state.num_players
    if state.phase == OVER:
        winners = state.winners
        return [(1.0 / len(winners) if seat in winners else 0.0) for seat in range(players)]
    rules = state.rules
    values = [board_value(rules, board) for board in state.players]
    rewards = []
    for seat in range(players):
        rival = max(values[other] for other in range(players) if other != seat) if players > 1 else 0.0
        rewards.append(1.0 / (1.0 + math.exp(-(values[seat] - rival) / scale)))
    return rewards


class MctsBot:
    """UCT over the rest of the round with greedy playouts; see the module's description."""

    name = "mcts"

    def __init__(self, seed: Any = None, think: float | None = None, iterations: int | None = None,
                 exploration: float = 0.4, width: int = 12, scale: float = 6.0,
                 playout: bool = True):
        self.rng = _random.Random(seed)
        self.think = think if think is not None or iterations is not None else DEFAULT_THINK
        self.iterations = iterations
        self.exploration = exploration
        self.width = width
        self.scale = scale
        self.playout = playout
        self.last_iterations = 0

    def _candidates(self, state) -> list[tuple]:
        """The decisions worth searching, best estimate first (at most ``width``)."""
        gains = quick_gains(state)
        self.rng.shuffle(gains)  # equal estimates in a random order
        gains.sort(key=lambda item: -item[0])
        return [decision for _gain, decision in gains[:self.width]]

    def choose(self, state) -> tuple:
        decisions = state.legal_decisions()
        if len(decisions) == 1:
            return decisions[0]
        if not decisions:
            raise ValueError("no decision to take now")
        root = _Node(state.clone(), -1)
        deadline = None if self.think is None else time.perf_counter() + self.think
        limit = self.iterations
        done = 0
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root)
            done += 1
        self.last_iterations = done
        if not root.children:
            return GreedyBot(self.rng.random()).choose(state)
        return max(root.children, key=lambda item: (item[1].visits, item[1].value))[0]

    def _iterate(self, root: _Node) -> None:
        node = root
        path = [root]
        # Selection: follow UCT while the node is fully expanded.
        while True:
            state = node.state
            if round_over(state):
                break
            if node.untried is None:
                node.untried = self._candidates(state)
                node.untried.reverse()  # pop() gives the best estimate first
            if node.untried:
                decision = node.untried.pop()
                child_state = state.clone()
                child_state.apply(decision)
                child = _Node(child_state, state.to_move)
                node.children.append((decision, child))
                path.append(child)
                node = child
                break
            node = self._select(node)
            path.append(node)
        rewards = self._evaluate(node.state)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.value += rewards[visited.mover]

    def _select(self, node: _Node) -> _Node:
        log_n = math.log(node.visits)
        c = self.exploration
        best, best_score = None, -1.0
        for _decision, child in node.children:
            score = child.value / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def _evaluate(self, state) -> list[float]:
        if self.playout and not round_over(state):
            state = state.clone()
            random = self.rng.random
            while not round_over(state):
                state.apply(_greedy_pick(state, random))
        return seat_rewards(state, self.scale)
