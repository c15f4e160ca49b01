"""Bots: players that choose among ``state.legal_decisions()``.

A bot is any object with ``choose(state) -> decision``; bots are found by
name in ``azul_core.players.registry``. A decision is a draft, a wall
placement or a plugin's move (``azul_core.rules.Move``: a pass, a power
after a draft, a choice); every bot here chooses among all of them.

Every bot here reads the rules only through the state and its ``Rules``
(wall spaces, placement score, floor penalty), so it plays any variant.

A bot sees the game as its seat may know it: where a variant deals secrets,
it is given ``seen_by_mover(state)`` (the other seats' secrets hidden), and
its decision is applied to the real game.
"""

from __future__ import annotations

import random as _random
from typing import Any, Callable, cast

from mypy_extensions import mypyc_attr

from azul_core.colours import MARKER
from azul_core.engine.state import CENTRE, DEAL, DRAFT, DRAW, OVER, PLACE, Decision, GameState, wall_with
from azul_core.players.evaluation import for_rules
from azul_core.rules import Move


def seen_by_mover(state):
    """The game as the seat to move may know it: the state itself unless the variant deals
    secrets or the other seats have made choices still sealed (a phase chosen at once), else a
    copy without them."""
    if state.rules.deals_secrets or state.sealed:
        return state.for_seat(state.to_move)
    return state


def play_until_chance(state: GameState, moves: list[Callable[[GameState], Any]]) -> None:
    """Let each seat's mover (``moves[seat](state)`` makes its move) play until the game
    needs chance (a deal, a rule's draw) or is over: a game runner's inner loop, here so that
    it runs compiled with the engine (a random game's turns cost little more than the loop)."""
    while True:
        phase = state.phase
        if phase == OVER or phase == DEAL or phase == DRAW:
            return
        moves[state.to_move](state)


# Compiled by mypyc (setup.py), a class takes Python subclasses only where it says so: a bot
# written elsewhere may build on this one.
@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot:
    """Uniformly random over the legal decisions."""

    name = "random"

    def __init__(self, seed: Any = None, think: float | None = None, playouts: int | None = None):
        self.random = _random.Random(seed).random

    def choose(self, state) -> Decision:
        return state.random_decision(self.random)

    def play(self, state) -> Decision:
        """Choose and apply in one step, the same game as ``state.apply(self.choose(state))``
        but faster: a game runner calls ``play`` where a bot has it."""
        if state.secrets or state.sealed:  # chosen from what this seat may know, applied to the game
            decision = self.choose(seen_by_mover(state))
            state.apply(decision)
            return decision
        return state.apply_random(self.random)


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


def line_worth(rules, board, row: int, colour: int | None = None, full: bool | None = None,
               seat: int | None = None, state=None) -> int:
    """The points pattern line ``row`` would score if tiled now onto ``board``'s wall.

    ``colour`` and ``full`` default to what the line holds. Where the player
    chooses the column, the best legal one. A full line whose tile has no
    legal space is worth minus what its tiles would cost on the floor.
    ``seat`` and ``state``: whose board it is, in which game, for a wall or a
    placement score that answers per seat (``per_seat_walls``).
    """
    if colour is None:
        colour = board.line_colour[row]
    if full is None:
        full = board.line_count[row] == line_capacity(rules, row)
    best = best_placement_points(rules, board.wall, row, colour, seat, state)
    if best is None:
        if not full:
            return 0
        floor = board.floor
        return rules.floor_penalty(floor + [colour] * line_capacity(rules, row)) - rules.floor_penalty(floor)
    return best


#: The most entries a variant's table of best placement points keeps (then it starts afresh).
#: The table, (wall, row, colour) -> its best placement points, is kept on the ``Rules``
#: object itself, so it goes with the rules (issue 44). The wall changes only when tiles
#: are placed, so a bot asks the same questions all round long; the hooks are asked without
#: the game, pure functions of the wall (as the engine's caches assume), unless they answer
#: per seat (``per_seat_walls``): those are asked with the seat, uncached.
BEST_POINTS_LIMIT = 100_000


def per_seat_walls(rules) -> bool:
    """Whether the wall's spaces or a placement's points may differ from seat to seat (or
    with the game): a hook of either reads the seat, the game, memory or a secret."""
    readers = rules.context_readers
    return bool(readers.get("azul_wall_spaces") or readers.get("azul_placement_score"))


def best_placement_points(rules, wall, row: int, colour: int, seat: int | None = None,
                          state=None) -> int | None:
    """The most a ``colour`` tile from line ``row`` can score on ``wall`` (``seat``'s, in
    ``state``); ``None`` when it has no space there."""
    known, per_seat = rules.kept("best placement points", lambda: ({}, per_seat_walls(rules)))
    if per_seat:
        return _best_points(rules, wall, row, colour, seat, state)
    key = (wall, row, colour)
    if key in known:
        return known[key]
    best = _best_points(rules, wall, row, colour, None, None)
    if len(known) >= BEST_POINTS_LIMIT:
        known.clear()
    known[key] = best
    return best


#: The most walls ``wall_points`` keeps tables for (then it starts afresh): a game has a few
#: dozen, a search's playouts some thousands.
WALL_TABLES_LIMIT = 20_000
#: An entry of a wall's table not yet asked for.
_NOT_ASKED = object()


def wall_points(rules, wall) -> list[object]:
    """``wall``'s table of best placement points, ``row * size + colour`` -> what
    ``best_placement_points`` answers (``_NOT_ASKED`` until it is asked, ``wall_best``),
    kept on the rules per wall: a greedy decision asks a wall a dozen times, and hashing a
    wall once is cheaper than hashing (wall, row, colour) each time. Only for walls whose
    hooks answer alike for every seat (not ``per_seat_walls``)."""
    tables: dict[Any, list[object]] = rules.kept("wall points", dict)
    table = tables.get(wall)  # walls are tuples of row tuples: their own key
    if table is None:
        if len(tables) >= WALL_TABLES_LIMIT:
            tables.clear()
        size = len(wall)
        table = tables[wall] = [_NOT_ASKED] * (size * size)
    return table


def wall_best(rules, table: list[object], wall, row: int, colour: int) -> int | None:
    """``best_placement_points(rules, wall, row, colour)`` through ``wall``'s table."""
    slot = row * len(wall) + colour
    points = table[slot]
    if points is _NOT_ASKED:
        points = table[slot] = best_placement_points(rules, wall, row, colour)
    return cast("int | None", points)


def _best_points(rules, wall, row: int, colour: int, seat: int | None, state) -> int | None:
    columns = rules.wall_spaces(wall, row, colour, seat, state)
    best: int | None = None
    if columns:
        best = 0
        for column in columns:
            points = rules.placement_score(wall_with(wall, row, column, colour), row, column, seat, state)
            if points > best:
                best = points
    return best


def board_value(rules, board, outlook=None, seat: int | None = None, state=None) -> float:
    """A player's score as it will stand at the round's end if nothing more happens, plus the
    worth of unfinished lines in proportion to how full they are (the hope of completing them).

    With ``outlook`` (the board's wall's ``evaluation.Outlook``), the end bonuses the wall
    may still expect too, and what each line's tiles add to them: the whole game's value.
    ``seat`` and ``state``: whose board, in which game (see ``line_worth``)."""
    value = board.score + rules.floor_penalty(board.floor)
    for row in range(rules.size):
        count = board.line_count[row]
        if count:
            worth = line_worth(rules, board, row, None, None, seat, state)
            capacity = line_capacity(rules, row)
            value += worth if count == capacity else worth * count / capacity
    if outlook is not None:
        value += outlook.board_bonus(board, rules.capacity)
    return value


def position_value(state, seat: int, whole_game: bool = True) -> float:
    """``seat``'s ``board_value`` in ``state``, with the end bonuses it may expect when
    ``whole_game`` (once the game is over: the score, which holds them)."""
    rules = state.rules
    board = state.players[seat]
    if not whole_game:
        return board_value(rules, board, None, seat, state)
    if state.phase == OVER:
        return board.score  # lines left part-filled are worth nothing now
    return board_value(rules, board, for_rules(rules).for_state(state)[seat], seat, state)


@mypyc_attr(allow_interpreted_subclasses=True)  # a bot may build on it (see RandomBot)
class GreedyBot:
    """The best immediate gain: each legal decision is judged by the mover's change in
    ``position_value`` (score, the floor's cost now, the worth of the line the tiles went to,
    and with ``whole_game`` the end bonuses the wall and lines may still bring: see
    ``evaluation``). Ties are broken by a seeded random choice.

    A draft's gain is worked out from the line, the floor and the wall without building
    the state it leads to (``draft_gains``); the decisions whose effect reaches further
    (a placement, a plugin's move, a draft that ends the round or fills a line tiled at
    once, a full line whose tiles would fall and so depend on the floor) are tried on a
    clone, as ``position_value`` after ``apply``. Both give the same gains, so the same games.
    A plugin's move that changes nothing on the board (a pass) gains 0, so it is taken
    when every draft would cost points.

    Where the player chooses a tile's wall column (a grey wall), a column is judged on the
    whole-game value of the wall it makes and on the points it leaves its row's and column's
    free spaces (``placement_gains``).
    """

    name = "greedy"

    def __init__(self, seed: Any = None, think: float | None = None, playouts: int | None = None,
                 whole_game: bool = True):
        self.rng = _random.Random(seed)
        self.whole_game = whole_game

    def scored_decisions(self, state) -> list[tuple[float, Decision]]:
        """Every legal decision with the mover's gain, in ``legal_decisions()`` order."""
        decisions = state.legal_decisions()
        return list(zip(decision_gains(state, decisions, self.whole_game), decisions))

    def choose(self, state) -> Decision:
        decisions = state.legal_decisions()
        if len(decisions) == 1:
            return decisions[0]
        gains = decision_gains(state, decisions, self.whole_game)
        best = max(gains) - 1e-9
        top = [decision for gain, decision in zip(gains, decisions) if gain >= best]
        return top[0] if len(top) == 1 else self.rng.choice(top)


def decision_gains(state, decisions, whole_game: bool = True) -> list[float]:
    """The mover's gain in ``position_value`` for each of ``decisions`` (legal now), in order:
    drafts worked out (``draft_gains``) where they can be, the rest tried on a clone."""
    if state.phase != DRAFT:
        if state.phase == PLACE and whole_game and state.rules.player_chooses_column:
            return placement_gains(state, decisions)
        return [gain for gain, _decision in tried_gains(state, decisions, whole_game)]
    if state.rules.offers_moves:
        drafts = [decision for decision in decisions if not isinstance(decision, Move)]
        if len(drafts) < len(decisions):  # plugins' moves on offer: tried on a clone
            moves = [decision for decision in decisions if isinstance(decision, Move)]
            worked_out = iter(decision_gains(state, drafts, whole_game) if drafts else ())
            tried = iter(gain for gain, _move in tried_gains(state, moves, whole_game))
            return [next(tried) if isinstance(decision, Move) else next(worked_out)
                    for decision in decisions]
    gains = draft_gains(state, decisions, whole_game)
    if gains is None:
        return [gain for gain, _decision in tried_gains(state, decisions, whole_game)]
    return gains


def placement_gains(state, decisions) -> list[float]:
    """The mover's gain for each wall column its tile may take (``decisions``, in the place
    phase of a wall whose columns the player chooses).

    The same tile goes to the wall whichever column it takes, so besides its points (and
    what it does to the other lines' worth) what tells the columns apart is what each does
    to the game to come: the column bonus it brings nearer (the space's share of the
    wall's outlook, ``Outlook.space_bonus``: the round's slots know a tile's colour and row,
    not its column) and the points the wall's free spaces will score (``wall_potential``).
    A tile placed for its points alone, where it scores most now, leaves columns no tile
    can complete and spaces no later tile scores much in.
    A placement that ends the game is judged on the final scores, as in ``tried_gains``."""
    seat = state.to_move
    rules = state.rules
    outlooks = for_rules(rules)
    before = board_value(rules, state.players[seat], None, seat, state)
    space_bonus, rounds = outlooks.space_bonus(state, seat)
    later = rounds - 1
    exact_before = None
    gains = []
    for decision in decisions:
        after = state.clone()
        after.apply(decision)
        if after.phase == OVER:
            if exact_before is None:
                exact_before = position_value(state, seat) - rivals_bonus(state, seat)
            gains.append(position_value(after, seat) - rivals_bonus(after, seat) - exact_before)
            continue
        board = after.players[seat]
        row, column = decision
        gain = board_value(rules, board, None, seat, after) - before + space_bonus[row * rules.size + column]
        gains.append(gain + wall_potential(rules, board.wall, later, seat, after))
    return gains


def wall_potential(rules, wall, later: int, seat: int | None = None, state=None) -> float:
    """The points ``wall``'s free spaces would score, each for a tile of a colour that may
    stand there, times the chance its row gets that far in the ``later`` rounds after this
    one (a row takes one tile a round): what the tiles to come may make of the wall's shape."""
    if later <= 0:
        return 0.0
    size = len(wall)
    spaces = rules.wall_spaces
    score = rules.placement_score
    total = 0.0
    for row in range(size):
        cells = wall[row]
        missing = cells.count(None)
        if not missing:
            continue
        reach = 1.0 if later >= missing else later / missing
        colour_of: dict[int, int] = {}  # free column -> a colour that may stand there (the first found)
        for colour in range(size):
            if colour not in cells:
                for column in spaces(wall, row, colour, seat, state):
                    colour_of.setdefault(column, colour)
                if len(colour_of) == missing:
                    break
        for column, colour in colour_of.items():
            total += reach * score(wall_with(wall, row, column, colour), row, column, seat, state)
    return total


def rivals_bonus(state, seat: int) -> float:
    """The most end bonus any other seat may expect (what it has once the game is over)."""
    if state.phase == OVER:
        bonuses = [sum(points for _label, points in board.bonuses) for board in state.players]
    else:
        outlooks = for_rules(state.rules).for_state(state)
        capacities = state.rules.capacity
        bonuses = [outlook.board_bonus(board, capacities) for outlook, board in zip(outlooks, state.players)]
    return max((bonus for other, bonus in enumerate(bonuses) if other != seat), default=0.0)


def tried_gains(state, decisions, whole_game: bool = True) -> list[tuple[float, Decision]]:
    """Each decision's gain for the mover, by applying it to a clone (the general way).

    With ``whole_game``, every decision is judged with the outlooks of the state it is
    taken in (``bonus_change``): a tile put on the wall brings its slot's whole share of
    the end bonus expected, a line's tiles their part of it. That costs no new outlook per
    candidate (a placement on a grey wall, a line tiled at once in duel, the draft that
    ends the round are judged like any draft): the outlooks are worked out once per
    decision and, where walls change only at a round's end, once per round. A decision
    that ends the game is judged on its score, end bonuses paid, and the change of the
    best rival's bonus counts against the mover's gain (ending the game takes their hopes
    too): otherwise putting off the game's end would always look better than ending it."""
    seat = state.to_move
    rules = state.rules
    board = state.players[seat]
    before = board_value(rules, board, None, seat, state)
    exact_before = None
    scored = []
    for decision in decisions:
        after = state.clone()
        after.apply(decision)
        if not whole_game:
            scored.append((board_value(rules, after.players[seat], None, seat, after) - before, decision))
            continue
        if after.phase != OVER:
            gain = board_value(rules, after.players[seat], None, seat, after) - before
            gain += bonus_change(state, after, seat)
        else:
            if exact_before is None:
                exact_before = position_value(state, seat) - rivals_bonus(state, seat)
            gain = position_value(after, seat) - rivals_bonus(after, seat) - exact_before
        scored.append((gain, decision))
    return scored


def slot_weights(capacity, before, after) -> dict[int, float]:
    """How much surer each wall slot is to be filled on board ``after`` than on ``before``:
    1 per tile now on the wall, ``count / capacity`` per line's tiles (0s left out). Slots are
    numbered ``row * size + colour``, ``size`` the board's (one capacity per line)."""
    size = len(capacity)
    weights: dict[int, float] = {}
    if before.wall is not after.wall:
        for row, (old, new) in enumerate(zip(before.wall, after.wall)):
            if old is new:
                continue
            for colour in new:
                if colour is not None and colour not in old:
                    weights[row * size + colour] = weights.get(row * size + colour, 0.0) + 1.0
            for colour in old:
                if colour is not None and colour not in new:
                    weights[row * size + colour] = weights.get(row * size + colour, 0.0) - 1.0
    old_counts, new_counts = before.line_count, after.line_count
    old_colours, new_colours = before.line_colour, after.line_colour
    if old_counts == new_counts and old_colours == new_colours:
        return {slot: weight for slot, weight in weights.items() if weight}
    for row in range(size):
        old_count, new_count = old_counts[row], new_counts[row]
        if old_count == new_count and old_colours[row] == new_colours[row]:
            continue
        if old_count:
            slot = row * size + old_colours[row]
            weights[slot] = weights.get(slot, 0.0) - old_count / capacity[row]
        if new_count:
            slot = row * size + new_colours[row]
            weights[slot] = weights.get(slot, 0.0) + new_count / capacity[row]
    return {slot: weight for slot, weight in weights.items() if abs(weight) > 1e-9}


def bonus_change(state, after, seat: int) -> float:
    """The change of ``seat``'s expected end bonus from ``state`` to ``after`` (the game not
    over), less the change of the best rival's, both on ``state``'s outlooks. A tile that
    moves from a full line to the wall changes nothing, so no outlook is asked for then."""
    capacity = state.rules.capacity
    mine = slot_weights(capacity, state.players[seat], after.players[seat])
    others = {}
    for other, (before_board, after_board) in enumerate(zip(state.players, after.players)):
        if other != seat and (before_board.wall is not after_board.wall
                              or before_board.line_count != after_board.line_count
                              or before_board.line_colour != after_board.line_colour):
            weights = slot_weights(capacity, before_board, after_board)
            if weights:
                others[other] = weights
    if not mine and not others:
        return 0.0
    outlooks = for_rules(state.rules).for_state(state)
    bonus = outlooks[seat].slot_bonus
    gain = 0.0
    for slot, weight in mine.items():
        gain += weight * bonus[slot]
    if others:
        rivals = {other: outlook.board_bonus(board, capacity)
                  for other, (outlook, board) in enumerate(zip(outlooks, state.players)) if other != seat}
        before_best = max(rivals.values())
        for other, weights in others.items():
            rival_bonus = outlooks[other].slot_bonus
            rivals[other] += sum(weight * rival_bonus[slot] for slot, weight in weights.items())
        gain -= max(rivals.values()) - before_best
    return gain


_UNKNOWN = object()


def tiled_line_gain(rules, board, line: int, colour: int, parts, slot_bonus) -> float | None:
    """The change of ``board``'s value (floor aside) when its pattern ``line``, filled with
    ``colour`` by a draft, is tiled at once: the tile's points, the line's part given up, the
    slot's whole share of the end bonus expected, and the other lines' worth on the new wall.
    ``None`` where the tile has no space or more than one (the engine then drops the line, or
    asks the player)."""
    wall = board.wall
    columns = rules.wall_spaces(wall, line, colour)
    if len(columns) != 1:
        return None
    column = columns[0]
    new_wall = wall_with(wall, line, column, colour)
    gain = rules.placement_score(new_wall, line, column) - parts[line]
    size = rules.size
    if slot_bonus is not None:
        gain += slot_bonus[line * size + colour]
    counts, colours = board.line_count, board.line_colour
    for row in range(size):
        count = counts[row]
        if count and row != line:
            old = best_placement_points(rules, wall, row, colours[row])
            new = best_placement_points(rules, new_wall, row, colours[row])
            if old != new:
                gain += ((new or 0) - (old or 0)) * count / line_capacity(rules, row)
    return gain


#: The most floors whose costs ``draft_gains`` keeps (then it starts afresh).
FLOOR_TABLES_LIMIT = 10_000


def _line_best(rules, table: list[object] | None, wall, row: int, colour: int, seat: int,
               state) -> int | None:
    """``best_placement_points`` of ``seat``'s wall, through its table where it has one."""
    if table is None:
        return best_placement_points(rules, wall, row, colour, seat, state)
    return wall_best(rules, table, wall, row, colour)


def draft_gains(state, decisions, whole_game: bool = True) -> list[float] | None:
    """The mover's gain in ``position_value`` for each legal draft, worked out from the line,
    the floor and the wall without applying it. A draft whose effect reaches beyond the
    mover's line and floor (it ends the round, or fills a line tiled at once) is tried on
    a clone instead (``tried_gains``); ``None`` when a full line with no wall space makes every draft's
    gain depend on the floor, so that all must be tried on a clone.

    A draft changes one pattern line (the tiles that fit) and the floor (the start
    marker, then what does not fit); the score changes only when a line is tiled at
    once or the round ends, and the other lines' worth only when one of them is full
    with no wall space (its tiles would fall, a cost that depends on the floor). The
    end bonuses a line's tiles bring (``whole_game``) are the slot's share of the wall's
    outlook, linear in the tiles like the line's worth.
    """
    rules = state.rules
    sources = state.sources
    left: int = state.tiles_on_table
    tiled_at_once: bool = rules.tile_at_turn_end
    seat: int = state.current
    board = state.players[seat]
    counts: list[int] = board.line_count
    colours = board.line_colour
    accept = board.accept
    floor = board.floor
    wall = board.wall
    capacities: tuple[int, ...] = rules.capacity
    penalty = rules.floor_penalty
    # A wall whose hooks answer alike for every seat is asked through its table.
    table = None if per_seat_walls(rules) else wall_points(rules, wall)
    slot_bonus = for_rules(rules).for_state(state)[state.current].slot_bonus if whole_game else None
    size: int = rules.size
    floor_line: int = rules.floor_line
    # Each line's part of board_value now; a full line with no wall space spoils the shortcut.
    parts: list[Any] = []
    for row in range(size):
        count = counts[row]
        if not count:
            parts.append(0)
            continue
        capacity = capacities[row]
        # an int plus a float bonus: mypyc would hold an int-typed local to ints
        worth: Any = _line_best(rules, table, wall, row, colours[row], seat, state)
        if worth is None:  # as line_worth: a line not full is worth 0, a full one spoils it
            if count == capacity:
                return None
            worth = 0
        if slot_bonus is not None:
            worth += slot_bonus[row * size + colours[row]]
        parts.append(worth if count == capacity else worth * count / capacity)
    marker = state.marker_in_centre and rules.marker.placement == "floor"
    bump = rules.marker.full_floor == "bump"
    spaces: int = rules.floor_spaces
    # (marker taken, colour, tiles to the floor) -> change of penalty, for this floor: kept on
    # the rules by floor where the hook reads the floor alone (a floor recurs all game long)
    floor_costs: dict[Any, Any]
    if rules.context_readers.get("azul_floor_penalty"):
        floor_costs = {}
    else:
        by_floor: dict[Any, dict[Any, Any]] = rules.kept("floor costs", dict)
        floor_now = tuple(floor)
        known_costs = by_floor.get(floor_now)
        if known_costs is None:
            if len(by_floor) >= FLOOR_TABLES_LIMIT:
                by_floor.clear()
            known_costs = by_floor[floor_now] = {}
        floor_costs = known_costs
    before_floor: Any = None  # the floor's penalty now, asked the first time it is needed
    line_gains: dict = {}   # (line, colour, tiles put) -> change of the line's part
    gains: dict = {}
    # A line tiled in the turn it is filled (duel) is worked out too where its tile has one
    # space, scored by a hook that reads the wall alone, and no plugin acts after a draft.
    tiled_worked_out = tiled_at_once and not rules.draft_asks_plugins and not rules.player_chooses_column \
        and not rules.context_readers.get("azul_placement_score") and not rules.context_readers.get("azul_wall_spaces")
    tiling_gains: dict = {}  # (line, colour) -> the change of board value a tiling makes, floor aside
    #: drafts tried on a clone, all at once: key -> [the draft, then the indexes it stands for]
    deferred: dict = {}
    result: list[float] = []
    source: int
    colour: int
    line: int
    taken: int
    for decision in decisions:
        source, colour, line = decision
        taken = sources[source][colour]
        if taken == left:  # the draft ends the round: every full line is tiled, the floor paid
            deferred.setdefault(decision, [decision]).append(len(result))
            result.append(0.0)
            continue
        with_marker = marker and source == CENTRE
        key = (taken, colour, line, with_marker)
        gain = gains.get(key)
        if gain is None:
            put = 0
            tiling = None
            if line != floor_line and accept[line] >> colour & 1:
                capacity = capacities[line]
                room = capacity - counts[line]
                put = taken if taken < room else room
                if tiled_at_once and put == room:  # the line is tiled in this turn
                    tiling = tiling_gains.get((line, colour), _UNKNOWN) if tiled_worked_out else None
                    if tiling is _UNKNOWN:
                        tiling = tiling_gains[line, colour] = tiled_line_gain(
                            rules, board, line, colour, parts, slot_bonus)
                    if tiling is None:
                        deferred.setdefault(key, [decision]).append(len(result))
                        result.append(0.0)
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
                if before_floor is None:
                    before_floor = penalty(floor)
                floor_gain = floor_costs[floor_key] = penalty(new_floor) - before_floor
            gain = floor_gain
            if tiling is not None:
                gain += tiling
            elif put:
                line_key = (line, colour, put)
                line_gain = line_gains.get(line_key)
                if line_gain is None:
                    capacity = capacities[line]
                    count = counts[line] + put
                    worth = _line_best(rules, table, wall, line, colour, seat, state)
                    if worth is None:
                        if count == capacity:
                            return None  # its tiles would fall: a cost that depends on the new floor
                        worth = 0
                    if slot_bonus is not None:
                        worth += slot_bonus[line * size + colour]
                    part = worth if count == capacity else worth * count / capacity
                    line_gain = line_gains[line_key] = part - parts[line]
                gain += line_gain
            gains[key] = gain
        result.append(gain)
    if deferred:
        tried = [places[0] for places in deferred.values()]
        for (gain, _decision), places in zip(tried_gains(state, tried, whole_game), deferred.values()):
            for index in places[1:]:
                result[index] = gain
    return result
