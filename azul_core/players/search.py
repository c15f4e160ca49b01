"""The search bot ``mcts``: Monte Carlo tree search over the rest of the round, with
playouts into the next one.

Within a round Azul has no chance: every tile on the table is in view, and
only the next deal is random. The tree therefore grows from the current
position to the end of the round (the next deal, or the game's end), and a
leaf is judged by a playout with a cheap greedy policy to that point, then
(``beyond``) through the next round on a deal sampled from the bag and lid,
then by each player's whole-game value (score, the floor's cost, the worth of
unfinished lines, the end bonuses the wall and lines may still bring:
``evaluation``) relative to the best opponent. At the game's end the result
is exact: a win, a loss or a share.

The next round is played by the cheap policy for both sides on one sampled
deal. In a game against the bot before issue 22 this bot takes more of the
floor than its opponent (the tiles a round leaves over go to somebody's
floor, and it takes them to finish its lines); against the same opponent its
floor losses are smaller than the old bot's facing that bot, larger facing
greedy (bench/README.md). ``beyond_weight``
blends the verdict after the next round with the position at the round's end:
at 0.5 the bot takes less of the floor, but it collects fewer end bonuses and
wins less, so the default keeps 1.

Where a wall's outlook is asked of the hooks (a wall whose columns the player
chooses, a bonus that reads the game: tens of hook calls a wall, more than the
rest of a playout costs), the walls after the sampled round are valued from
the outlooks at its start, each tile placed since adding its slot's bonus
(``Outlook.after_round``: exact for one tile, first order for more; the round
gone by is not taken off the chances). A grey-wall search then plays about
1.7 times the playouts in the same time. A printed wall's outlook costs a few
lookups and is worked out afresh.

A plugin's move (a pass, a choice after a draft: phase ``CHOOSE``) is a child
like a draft; its estimate for ordering and playouts is tried on a clone.

Rewards are kept per seat (max^n), so the same tree serves 2 to 4 players.
The budget is a time (``think`` seconds) or a number of iterations; with
``iterations`` the bot is deterministic for a given seed (the sampled deals
come from its own seeded generator).
"""

from __future__ import annotations

import math
import random as _random
import time
from typing import Any, Final, cast

from mypy_extensions import mypyc_attr

from azul_core.engine.state import CENTRE, CHOOSE, DEAL, DRAW, OVER, PLACE, Decision, wall_with
from azul_core.players.bots import (
    GreedyBot,
    best_placement_points,
    board_value,
    line_capacity,
    line_worth,
    per_seat_walls,
)
from azul_core.players.evaluation import Outlooks, for_rules
from azul_core.rules import Move

#: The think time when neither ``think`` nor ``iterations`` is given.
DEFAULT_THINK: Final = 0.5
#: Rounds a playout goes on past the end of the round, on sampled deals.
BEYOND: Final = 1
#: How much the position after those rounds counts against the one at the round's end.
BEYOND_WEIGHT: Final = 1.0


class _Node:
    __slots__ = ("state", "mover", "children", "untried", "visits", "value")

    def __init__(self, state, mover: int):
        self.state = state
        self.mover = mover  # the seat whose decision led here: the value is theirs
        self.children: list[tuple[Decision, _Node]] = []
        self.untried: list[Decision] | None = None
        self.visits = 0
        self.value = 0.0


def _take(state, decision, rng) -> None:
    """Take ``decision`` in ``state``; tiles a rule then draws from the bag (phase DRAW) are
    drawn at once with ``rng``: chance, sampled as the next round's deal is."""
    state.apply(decision)
    while state.phase == DRAW:
        state.draw(rng)


def round_over(state) -> bool:
    """Whether the round's drafting and tiling are done (the horizon of the search)."""
    return state.phase == DEAL or state.phase == OVER


class Memo:
    """What a search asks again and again, kept for one variant's ``Rules``: the points a
    tile of a colour would score at the end of a line for a given wall, and the floor's
    cost of extra tiles for a given floor. The rules' hooks are pure functions of these
    (as the engine's own caches assume), so the answers are the same as asking anew."""

    __slots__ = ("rules", "walls", "floor_costs", "outlooks", "per_seat")

    #: Entries each table keeps at most, then it starts afresh (a few MB at most). A memo is
    #: its bot's: it goes with the bot.
    LIMIT = 50_000

    def __init__(self, rules, whole_game: bool = True):
        self.rules = rules
        self.walls: dict = {}
        self.floor_costs: dict = {}
        #: the end bonuses each wall may expect (``evaluation``), or None: the round alone
        self.outlooks: Outlooks | None = for_rules(rules) if whole_game else None
        #: a wall's spaces or points may differ from seat to seat: not kept by wall alone
        self.per_seat = per_seat_walls(rules)

    def wall_points(self, wall, seat: int | None = None, state=None) -> "WallPoints":
        """The best points of each (row, colour) for this wall (``seat``'s in ``state``), filled
        in as asked."""
        if self.per_seat:  # the hooks answer per seat or with the game: asked each time
            return WallPoints(self.rules, wall, seat, state)
        table = self.walls.get(wall)  # walls are tuples of row tuples: their own key
        if table is None:
            if len(self.walls) >= self.LIMIT:
                self.walls.clear()
            table = self.walls[wall] = WallPoints(self.rules, wall)
        return table

    def floor_cost(self, floor: list, extra: int) -> int:
        """The change of the floor's penalty when ``extra`` more spaces are taken."""
        key = (tuple(floor), extra)
        cost = self.floor_costs.get(key)
        if cost is None:
            if len(self.floor_costs) >= self.LIMIT:
                self.floor_costs.clear()
            penalty = self.rules.floor_penalty
            room = min(len(floor) + extra, self.rules.floor_spaces)
            cost = self.floor_costs[key] = penalty(floor + [0] * (room - len(floor))) - penalty(floor)
        return cost


class WallPoints:
    """For one wall: the most points a tile of each colour can score at the end of each
    line (``None``: no legal space), worked out when first asked."""

    __slots__ = ("rules", "wall", "known", "seat", "state", "size")

    _UNKNOWN = object()

    def __init__(self, rules, wall, seat: int | None = None, state=None):
        self.rules = rules
        self.wall = wall
        self.seat = seat
        self.state = state
        #: the board's size: the points of (row, colour) are kept at ``row * size + colour``
        self.size = size = len(wall)
        self.known: list[object] = [self._UNKNOWN] * (size * size)

    def best(self, row: int, colour: int) -> int | None:
        slot = row * self.size + colour
        points = self.known[slot]
        if points is self._UNKNOWN:
            points = self.known[slot] = best_placement_points(self.rules, self.wall, row, colour,
                                                              self.seat, self.state)
        return cast("int | None", points)


def memo_board_value(memo: Memo, board, outlook=None, seat: int | None = None, state=None) -> float:
    """``board_value`` with the wall's worths from ``memo``: the same number."""
    rules = memo.rules
    value = board.score + rules.floor_penalty(board.floor)
    if outlook is not None:
        value += outlook.board_bonus(board, rules.capacity)
    table = None
    for row in range(rules.size):
        count = board.line_count[row]
        if count:
            capacity = line_capacity(rules, row)
            if table is None:
                table = memo.wall_points(board.wall, seat, state)
            worth = table.best(row, board.line_colour[row])
            if worth is None:
                worth = line_worth(rules, board, row, None, None, seat, state)
            value += worth if count == capacity else worth * count / capacity
    return value


def quick_gains(state, memo: Memo | None = None) -> list[tuple[float, Any]]:
    """Every legal decision with an estimate of the mover's gain, computed without cloning
    (but for plugins' moves).

    Counts the floor spaces the tiles (and the start marker) would take now,
    and the share of the line's worth the tiles add (with the end bonuses the
    line's slot may bring, when ``memo`` looks at the whole game); a placement
    is worth the points it scores; a plugin's move, the change of the mover's
    value it makes (tried on a clone: its effect is the plugin's). ``memo``
    keeps answers between calls (a search's).
    """
    decisions = state.legal_decisions()
    rules = state.rules
    seat = state.to_move
    board = state.players[seat]
    if memo is None or memo.rules is not rules:
        memo = Memo(rules)
    if rules.offers_moves:
        if state.phase == CHOOSE:
            return move_gains(state, decisions, memo)
        moves = [decision for decision in decisions if isinstance(decision, Move)]
        if moves:
            drafts = [decision for decision in decisions if not isinstance(decision, Move)]
            return (_draft_gains(state, drafts, memo) if drafts else []) + move_gains(state, moves, memo)
    if state.phase == PLACE:
        gains = []
        wall = board.wall
        for row, column in decisions:
            points = rules.placement_score(wall_with(wall, row, column, board.line_colour[row]), row, column,
                                           seat, state)
            gains.append((points, (row, column)))
        return gains
    return _draft_gains(state, decisions, memo)


def mover_value(memo: Memo, state, seat: int) -> float:
    """``seat``'s value in ``state``, with its expected end bonuses when ``memo`` looks at the
    whole game."""
    board = state.players[seat]
    if memo.outlooks is None:
        return memo_board_value(memo, board, None, seat, state)
    if state.phase == OVER:
        return board.score
    return memo_board_value(memo, board, memo.outlooks.for_state(state)[seat], seat, state)


def move_gains(state, moves, memo: Memo) -> list[tuple[float, Move]]:
    """Each plugin's move with the change of the mover's value it makes."""
    seat = state.to_move
    before = mover_value(memo, state, seat)
    gains = []
    in_phase = state.stage is not None
    for move in moves:
        if in_phase:  # a plugin's phase: the move's own outcome, not the next seats' offers
            after = state.with_outcome(move)
        else:
            after = state.clone()
            after.apply(move)
        gains.append((mover_value(memo, after, seat) - before, move))
    return gains


def _draft_gains(state, decisions, memo: Memo) -> list[tuple[float, Any]]:
    # Each draft's gain is worked out afresh from two small tables (a line and colour's
    # worth, the floor's cost of so many extra tiles): the same arithmetic, so the same gain,
    # as keeping it per (tiles, colour, line), and cheaper than building that key.
    rules = state.rules
    seat: int = state.to_move
    board = state.players[seat]
    slot_bonus = memo.outlooks.for_state(state)[seat].slot_bonus if memo.outlooks is not None else None
    floor = board.floor
    wall = board.wall
    marker_cost: bool = rules.marker.placement == "floor" and state.marker_in_centre
    size: int = rules.size
    floor_line: int = rules.floor_line
    capacities: tuple[int, ...] = rules.capacity
    free: int = rules.floor_spaces - len(floor)
    if free < 0:
        free = 0
    # extra tiles on the floor (past ``free`` they cost as ``free`` do) -> change of penalty
    floor_costs: list[Any] = [None] * (free + 1)
    # line * size + colour -> the line's worth for a tile of that colour
    worths: list[Any] = [None] * (size * size)
    table = None
    sources = state.sources
    counts: list[int] = board.line_count
    gains: list[tuple[float, Any]] = []
    source: int
    colour: int
    line: int
    taken: int
    for decision in decisions:
        source, colour, line = decision
        taken = sources[source][colour]
        on_floor = taken
        share = 0.0
        if line != floor_line:
            capacity = capacities[line]
            room = capacity - counts[line]
            put = taken if taken < room else room
            on_floor = taken - put
            slot = line * size + colour
            line_points = worths[slot]
            if line_points is None:
                if table is None:
                    table = memo.wall_points(wall, seat, state)
                line_points = table.best(line, colour)
                if line_points is None:  # no space: the tiles would fall, a cost of the floor
                    line_points = line_worth(rules, board, line, colour, True, seat, state)
                if slot_bonus is not None:
                    line_points += slot_bonus[slot]
                worths[slot] = line_points
            share = line_points * put / capacity
        extra = on_floor + 1 if marker_cost and source == CENTRE else on_floor
        if extra > free:
            extra = free
        cost = floor_costs[extra]
        if cost is None:
            cost = floor_costs[extra] = memo.floor_cost(floor, extra)
        gains.append((share + cost, decision))
    return gains


def _greedy_pick(state, random, memo: Memo | None = None) -> Decision:
    """The playout policy: the best quick gain, ties broken at random.

    One pass that keeps only the best decisions so far: gains are sums of whole points
    and fifths, so two gains are either equal up to rounding or far more than 1e-9 apart,
    and this picks among the same decisions as ``quick_gains`` then a maximum."""
    best = -1e300
    top: list = []
    for gain, decision in quick_gains(state, memo):
        if gain > best + 1e-9:
            best = gain
            top = [decision]
        elif gain >= best - 1e-9:
            top.append(decision)
            if gain > best:
                best = gain
    return top[int(random() * len(top))] if len(top) > 1 else top[0]


def seat_rewards(state, scale: float, memo: Memo | None = None, outlooks=None) -> list[float]:
    """Each seat's reward in [0, 1]: exact at the game's end, else from ``board_value``
    against the best opponent, squashed so that a few points matter most. ``outlooks``:
    the seats' outlooks to value the end bonuses with, instead of ``memo``'s for ``state``."""
    players = state.num_players
    if state.phase == OVER:
        winners = state.winners
        return [(1.0 / len(winners) if seat in winners else 0.0) for seat in range(players)]
    rules = state.rules
    if memo is None or memo.rules is not rules:
        values = [board_value(rules, board, None, seat, state) for seat, board in enumerate(state.players)]
    elif memo.outlooks is not None:
        if outlooks is None:
            outlooks = memo.outlooks.for_state(state)
        values = [memo_board_value(memo, board, outlook, seat, state)
                  for seat, (board, outlook) in enumerate(zip(state.players, outlooks))]
    else:
        values = [memo_board_value(memo, board, None, seat, state) for seat, board in enumerate(state.players)]
    rewards = []
    for seat in range(players):
        rival = max(values[other] for other in range(players) if other != seat) if players > 1 else 0.0
        rewards.append(1.0 / (1.0 + math.exp(-(values[seat] - rival) / scale)))
    return rewards


@mypyc_attr(allow_interpreted_subclasses=True)  # a bot may build on it (see bots.RandomBot)
class MctsBot:
    """UCT over the rest of the round with greedy playouts; see the module's description.

    ``whole_game``: value positions with the end bonuses still to come
    (``evaluation``); ``beyond``: rounds each playout goes on past the end of
    the round, on deals sampled from the bag and lid with the bot's own seeded
    generator (so ``iterations`` stays deterministic); ``beyond_weight``: how
    much the position after them counts against the one at the round's end;
    ``clock``: what ``think`` is measured with."""

    name = "mcts"

    def __init__(self, seed: Any = None, think: float | None = None, iterations: int | None = None,
                 exploration: float = 0.4, width: int = 12, scale: float = 6.0,
                 playout: bool = True, whole_game: bool = True, beyond: int = BEYOND,
                 beyond_weight: float = BEYOND_WEIGHT, clock=None):
        self.rng = _random.Random(seed)
        self.think = think if think is not None or iterations is not None else DEFAULT_THINK
        self.iterations = iterations
        self.exploration = exploration
        self.width = width
        self.scale = scale
        self.playout = playout
        self.last_iterations = 0
        self.memo: Memo | None = None
        #: value positions with the end bonuses to come (``evaluation``)
        self.whole_game = whole_game
        #: rounds a playout goes on past the round's end, on sampled deals
        self.beyond = beyond
        self.beyond_weight = beyond_weight
        #: what the think time is measured with (``None``: ``time.perf_counter``, the wall
        #: clock; ``time.process_time``: CPU time)
        self.clock = clock

    def _candidates(self, state) -> list[Decision]:
        """The decisions worth searching, best estimate first (at most ``width``)."""
        gains = quick_gains(state, self.memo)
        self.rng.shuffle(gains)  # equal estimates in a random order
        gains.sort(key=lambda item: -item[0])
        return [decision for _gain, decision in gains[:self.width]]

    def choose(self, state) -> Decision:
        decisions = state.legal_decisions()
        if len(decisions) == 1:
            return decisions[0]
        if not decisions:
            raise ValueError("no decision to take now")
        if self.memo is None or self.memo.rules is not state.rules:
            self.memo = Memo(state.rules, self.whole_game)
        root = _Node(state.clone(), -1)
        clock = self.clock or time.perf_counter
        deadline = None if self.think is None else clock() + self.think
        limit = self.iterations
        done = 0
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and done and clock() >= deadline:
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
                _take(child_state, decision, self.rng)
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
        best: _Node | None = None
        best_score = -1.0
        for _decision, child in node.children:
            score = child.value / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None  # a node is selected from only once it has children
        return best

    def _evaluate(self, state) -> list[float]:
        moved = None  # the outlooks carried across the sampled round (``after_round``), if any
        if self.playout and state.phase != OVER and (self.beyond or not round_over(state)):
            state = state.clone()
            random = self.rng.random
            memo = self.memo
            rounds = self.beyond
            at_round_end = None
            # Where a new wall's outlook is asked of the hooks (tens of questions, more than
            # the rest of a playout), the walls after the sampled round are valued from the
            # outlooks at its start: see ``Outlook.after_round``.
            outlooks = memo.outlooks if memo is not None else None
            carry = outlooks is not None and not outlooks.cheap
            start = None
            while True:
                while not round_over(state):
                    _take(state, _greedy_pick(state, random, memo), self.rng)
                if not rounds or state.phase == OVER:
                    break
                if at_round_end is None and self.beyond_weight < 1.0:
                    at_round_end = seat_rewards(state, self.scale, self.memo)
                state.deal(self.rng)  # a sampled deal of the next round, from its bag and lid
                rounds -= 1
                if carry and outlooks is not None:
                    start = ([board.wall for board in state.players], outlooks.for_state(state))
            if start is not None and state.phase != OVER:
                moved = [outlook.after_round(wall, board.wall)
                         for wall, outlook, board in zip(start[0], start[1], state.players)]
            if at_round_end is not None:
                # The rounds past this one are played on a sampled deal by the cheap policy
                # for both sides, which finishes lines more surely than real play does:
                # their verdict is blended with this round's end.
                later = seat_rewards(state, self.scale, self.memo, moved)
                weight = self.beyond_weight
                return [(1.0 - weight) * now + weight * then for now, then in zip(at_round_end, later)]
        return seat_rewards(state, self.scale, self.memo, moved)
