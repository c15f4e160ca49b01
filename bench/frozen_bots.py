"""Today's bots, frozen (issue 22): the greedy and search bots as they were before they
looked past the end of the round (commit e442100), kept here so that
``bench/bot_strength.py`` can play the package's bots against them (``old-greedy``,
``old-mcts``). Not part of the package and not maintained: only the clock the search
reads is new (``clock``: ``time.process_time`` for matches at equal CPU time per move).
They play the five colours' drafts and placements; a variant with plugin moves needs
the package's bots.
"""

from __future__ import annotations

import math
import random as _random
import time
from typing import Any

from azul_core.colours import MARKER
from azul_core.engine.state import CENTRE, DEAL, DRAFT, FLOOR, OVER, PLACE, wall_with

# ------------------------------------------------------------------ evaluation


def line_capacity(rules, row: int) -> int:
    """How many tiles pattern line ``row`` holds when full (the variant's ``azul_line_capacity``)."""
    return rules.capacity[row]


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
        full = board.line_count[row] == line_capacity(rules, row)
    best = best_placement_points(rules, board.wall, row, colour)
    if best is None:
        if not full:
            return 0
        floor = board.floor
        return rules.floor_penalty(floor + [colour] * line_capacity(rules, row)) - rules.floor_penalty(floor)
    return best


def best_placement_points(rules, wall, row: int, colour: int) -> int | None:
    """The most a ``colour`` tile from line ``row`` can score on ``wall``; ``None`` when it has
    no space there."""
    columns = rules.wall_spaces(wall, row, colour)
    if not columns:
        return None
    best = 0
    for column in columns:
        points = rules.placement_score(wall_with(wall, row, column, colour), row, column)
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
            capacity = line_capacity(rules, row)
            value += worth if count == capacity else worth * count / capacity
    return value


class OldGreedyBot:
    """The best immediate gain: each legal decision is judged by the mover's change in
    ``board_value`` (score, the floor's cost now, the worth of the line the tiles went to).
    Ties are broken by a seeded random choice.

    A draft's gain is worked out from the line, the floor and the wall without building
    the state it leads to (``draft_gains``); the decisions whose effect reaches further
    (a placement, a draft that ends the round or fills a line tiled at once, a full line
    whose tiles would fall and so depend on the floor) are tried on a clone, as
    ``board_value`` after ``apply``. Both give the same gains, so the same games.
    """

    name = "old-greedy"

    def __init__(self, seed: Any = None, think: float | None = None, playouts: int | None = None):
        self.rng = _random.Random(seed)

    def scored_decisions(self, state) -> list[tuple[float, tuple]]:
        """Every legal decision with the mover's gain, in ``legal_decisions()`` order."""
        decisions = state.legal_decisions()
        if state.phase == DRAFT:
            gains = draft_gains(state, decisions)
            if gains is not None:
                return list(zip(gains, decisions))
        return tried_gains(state, decisions)

    def choose(self, state) -> tuple:
        decisions = state.legal_decisions()
        if len(decisions) == 1:
            return decisions[0]
        gains = draft_gains(state, decisions) if state.phase == DRAFT else None
        if gains is None:
            gains = [gain for gain, _decision in tried_gains(state, decisions)]
        best = max(gains) - 1e-9
        top = [decision for gain, decision in zip(gains, decisions) if gain >= best]
        return top[0] if len(top) == 1 else self.rng.choice(top)


def tried_gains(state, decisions) -> list[tuple[float, tuple]]:
    """Each decision's gain for the mover, by applying it to a clone (the general way)."""
    seat = state.to_move
    rules = state.rules
    before = board_value(rules, state.players[seat])
    scored = []
    for decision in decisions:
        after = state.clone()
        after.apply(decision)
        scored.append((board_value(rules, after.players[seat]) - before, decision))
    return scored


def draft_gains(state, decisions) -> list[float] | None:
    """The mover's gain in ``board_value`` for each legal draft, worked out from the line,
    the floor and the wall without applying it. A draft whose effect reaches beyond the
    mover's line and floor (it ends the round, or fills a line tiled at once) is tried on
    a clone instead; ``None`` when a full line with no wall space makes every draft's
    gain depend on the floor, so that all must be tried on a clone.

    A draft changes one pattern line (the tiles that fit) and the floor (the start
    marker, then what does not fit); the score changes only when a line is tiled at
    once or the round ends, and the other lines' worth only when one of them is full
    with no wall space (its tiles would fall, a cost that depends on the floor).
    """
    rules = state.rules
    sources = state.sources
    left = state.tiles_on_table
    tiled_at_once = rules.tile_at_turn_end
    board = state.players[state.current]
    counts = board.line_count
    colours = board.line_colour
    accept = board.accept
    floor = board.floor
    penalty = rules.floor_penalty
    before_floor = penalty(floor)
    # Each line's part of board_value now; a full line with no wall space spoils the shortcut.
    parts = []
    for row in range(5):
        count = counts[row]
        if not count:
            parts.append(0)
            continue
        capacity = line_capacity(rules, row)
        if count == capacity and not rules.wall_spaces(board.wall, row, colours[row]):
            return None
        worth = line_worth(rules, board, row)
        parts.append(worth if count == capacity else worth * count / capacity)
    marker = state.marker_in_centre and rules.marker.placement == "floor"
    bump = rules.marker.full_floor == "bump"
    spaces = rules.floor_spaces
    floor_costs: dict = {}  # (marker taken, colour, tiles to the floor) -> change of penalty
    line_gains: dict = {}   # (line, colour, tiles put) -> change of the line's part
    gains: dict = {}
    result = []
    for decision in decisions:
        source, colour, line = decision
        taken = sources[source][colour]
        if taken == left:  # the draft ends the round: every full line is tiled, the floor paid
            result.append(tried_gains(state, (decision,))[0][0])
            continue
        with_marker = marker and source == CENTRE
        key = (taken, colour, line, with_marker)
        gain = gains.get(key)
        if gain is None:
            put = 0
            if line != FLOOR and accept[line] >> colour & 1:
                capacity = line_capacity(rules, line)
                room = capacity - counts[line]
                put = taken if taken < room else room
                if tiled_at_once and put == room:  # the line is tiled in this turn
                    gain = gains[key] = tried_gains(state, (decision,))[0][0]
                    result.append(gain)
                    continue
            spill = taken - put
            floor_key = (with_marker, colour, spill)
            floor_gain = floor_costs.get(floor_key)
            if floor_gain is None:
                new_floor = floor[:]
                if with_marker:
                    if len(new_floor) < spaces:
                        new_floor.append(MARKER)
                    elif bump and new_floor:
                        new_floor[-1] = MARKER
                room = spaces - len(new_floor)
                new_floor.extend([colour] * (spill if spill < room else max(room, 0)))
                floor_gain = floor_costs[floor_key] = penalty(new_floor) - before_floor
            gain = floor_gain
            if put:
                line_key = (line, colour, put)
                line_gain = line_gains.get(line_key)
                if line_gain is None:
                    capacity = line_capacity(rules, line)
                    count = counts[line] + put
                    if count == capacity and not rules.wall_spaces(board.wall, line, colour):
                        return None  # its tiles would fall: a cost that depends on the new floor
                    worth = line_worth(rules, board, line, colour, count == capacity)
                    part = worth if count == capacity else worth * count / capacity
                    line_gain = line_gains[line_key] = part - parts[line]
                gain += line_gain
            gains[key] = gain
        result.append(gain)
    return result
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


class Memo:
    """What a search asks again and again, kept for one variant's ``Rules``: the points a
    tile of a colour would score at the end of a line for a given wall, and the floor's
    cost of extra tiles for a given floor. The rules' hooks are pure functions of these
    (as the engine's own caches assume), so the answers are the same as asking anew."""

    __slots__ = ("rules", "walls", "floor_costs")

    #: Entries kept before starting afresh (a few MB at most).
    LIMIT = 50_000

    def __init__(self, rules):
        self.rules = rules
        self.walls: dict = {}
        self.floor_costs: dict = {}

    def wall_points(self, wall) -> "WallPoints":
        """The best points of each (row, colour) for this wall, filled in as asked."""
        table = self.walls.get(wall)  # walls are tuples of row tuples: their own key
        if table is None:
            if len(self.walls) > self.LIMIT:
                self.walls.clear()
            table = self.walls[wall] = WallPoints(self.rules, wall)
        return table

    def floor_cost(self, floor: list, extra: int) -> int:
        """The change of the floor's penalty when ``extra`` more spaces are taken."""
        key = (tuple(floor), extra)
        cost = self.floor_costs.get(key)
        if cost is None:
            if len(self.floor_costs) > self.LIMIT:
                self.floor_costs.clear()
            penalty = self.rules.floor_penalty
            room = min(len(floor) + extra, self.rules.floor_spaces)
            cost = self.floor_costs[key] = penalty(floor + [0] * (room - len(floor))) - penalty(floor)
        return cost


class WallPoints:
    """For one wall: the most points a tile of each colour can score at the end of each
    line (``None``: no legal space), worked out when first asked."""

    __slots__ = ("rules", "wall", "known")

    _UNKNOWN = object()

    def __init__(self, rules, wall):
        self.rules = rules
        self.wall = wall
        self.known = [self._UNKNOWN] * 25

    def best(self, row: int, colour: int) -> int | None:
        points = self.known[row * 5 + colour]
        if points is self._UNKNOWN:
            points = self.known[row * 5 + colour] = best_placement_points(self.rules, self.wall, row, colour)
        return points


def memo_board_value(memo: Memo, board) -> float:
    """``board_value`` with the wall's worths from ``memo``: the same number."""
    rules = memo.rules
    value = board.score + rules.floor_penalty(board.floor)
    table = None
    for row in range(5):
        count = board.line_count[row]
        if count:
            capacity = line_capacity(rules, row)
            if table is None:
                table = memo.wall_points(board.wall)
            worth = table.best(row, board.line_colour[row])
            if worth is None:
                worth = line_worth(rules, board, row)
            value += worth if count == capacity else worth * count / capacity
    return value


def quick_gains(state, memo: Memo | None = None) -> list[tuple[float, tuple]]:
    """Every legal decision with an estimate of the mover's gain, computed without cloning.

    Counts the floor spaces the tiles (and the start marker) would take now,
    and the share of the line's worth the tiles add; a placement is worth
    the points it scores. ``memo`` keeps answers between calls (a search's).
    """
    decisions = state.legal_decisions()
    rules = state.rules
    seat = state.to_move
    board = state.players[seat]
    if state.phase == PLACE:
        gains = []
        wall = board.wall
        for row, column in decisions:
            points = rules.placement_score(wall_with(wall, row, column, board.line_colour[row]), row, column)
            gains.append((points, (row, column)))
        return gains
    if memo is None or memo.rules is not rules:
        memo = Memo(rules)
    floor = board.floor
    wall = board.wall
    marker_cost = rules.marker.placement == "floor" and state.marker_in_centre
    floor_cost = {}  # extra tiles on the floor -> change of penalty
    worth = {}
    table = None
    sources = state.sources
    counts = board.line_count
    gains = []
    known = {}  # (tiles taken, colour, line, from the centre) -> gain: drafts that differ only there
    for decision in decisions:
        source, colour, line = decision
        taken = sources[source][colour]
        from_centre = source == CENTRE
        known_key = (taken, colour, line, from_centre)
        gain = known.get(known_key)
        if gain is not None:
            gains.append((gain, decision))
            continue
        on_floor = taken
        share = 0.0
        if line != FLOOR:
            capacity = line_capacity(rules, line)
            room = capacity - counts[line]
            put = taken if taken < room else room
            on_floor = taken - put
            key = (line, colour)
            line_points = worth.get(key)
            if line_points is None:
                if table is None:
                    table = memo.wall_points(wall)
                line_points = table.best(line, colour)
                if line_points is None:  # no space: the tiles would fall, a cost of the floor
                    line_points = line_worth(rules, board, line, colour, True)
                worth[key] = line_points
            share = line_points * put / capacity
        extra = on_floor + (1 if from_centre and marker_cost else 0)
        cost = floor_cost.get(extra)
        if cost is None:
            cost = floor_cost[extra] = memo.floor_cost(floor, extra)
        gain = known[known_key] = share + cost
        gains.append((gain, decision))
    return gains


def _greedy_pick(state, random, memo: Memo | None = None) -> tuple:
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


def seat_rewards(state, scale: float, memo: Memo | None = None) -> list[float]:
    """Each seat's reward in [0, 1]: exact at the game's end, else from ``board_value``
    against the best opponent, squashed so that a few points matter most."""
    players = state.num_players
    if state.phase == OVER:
        winners = state.winners
        return [(1.0 / len(winners) if seat in winners else 0.0) for seat in range(players)]
    rules = state.rules
    if memo is None or memo.rules is not rules:
        values = [board_value(rules, board) for board in state.players]
    else:
        values = [memo_board_value(memo, board) for board in state.players]
    rewards = []
    for seat in range(players):
        rival = max(values[other] for other in range(players) if other != seat) if players > 1 else 0.0
        rewards.append(1.0 / (1.0 + math.exp(-(values[seat] - rival) / scale)))
    return rewards


class OldMctsBot:
    """UCT over the rest of the round with greedy playouts; see the module's description."""

    name = "old-mcts"

    def __init__(self, seed: Any = None, think: float | None = None, iterations: int | None = None,
                 exploration: float = 0.4, width: int = 12, scale: float = 6.0,
                 playout: bool = True, clock=time.perf_counter):
        self.rng = _random.Random(seed)
        self.think = think if think is not None or iterations is not None else DEFAULT_THINK
        self.iterations = iterations
        self.exploration = exploration
        self.width = width
        self.scale = scale
        self.playout = playout
        self.last_iterations = 0
        self.memo: Memo | None = None
        self.clock = clock

    def _candidates(self, state) -> list[tuple]:
        """The decisions worth searching, best estimate first (at most ``width``)."""
        gains = quick_gains(state, self.memo)
        self.rng.shuffle(gains)  # equal estimates in a random order
        gains.sort(key=lambda item: -item[0])
        return [decision for _gain, decision in gains[:self.width]]

    def choose(self, state) -> tuple:
        decisions = state.legal_decisions()
        if len(decisions) == 1:
            return decisions[0]
        if not decisions:
            raise ValueError("no decision to take now")
        if self.memo is None or self.memo.rules is not state.rules:
            self.memo = Memo(state.rules)
        root = _Node(state.clone(), -1)
        deadline = None if self.think is None else self.clock() + self.think
        limit = self.iterations
        done = 0
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and done and self.clock() >= deadline:
                break
            self._iterate(root)
            done += 1
        self.last_iterations = done
        if not root.children:
            return OldGreedyBot(self.rng.random()).choose(state)
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
            memo = self.memo
            while not round_over(state):
                state.apply(_greedy_pick(state, random, memo))
        return seat_rewards(state, self.scale, self.memo)
