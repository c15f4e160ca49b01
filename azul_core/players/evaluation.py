"""What a position is worth over the whole game: the end bonuses still to come (issue 22).

A player's score counts what is on the wall; the end bonuses (rows, columns,
colour sets, and whatever a house rule adds) come only at the game's end, so a
bot that judges a position by its score alone never plans for them. This
module gives each wall an **outlook**: the bonus its wall would collect now,
plus the bonus it may still expect, group by group, and per wall space
(``slot``: a row and a colour) what filling it would add to that expectation.

Everything is read from the variant's own compiled ``Rules``, with no code per
variant: the points come from asking ``rules.end_bonuses`` about walls the
bonus groups would complete (a house rule's bonus counts, doubled or new),
the spaces from ``rules.wall_spaces``, the line sizes from ``rules.capacity``,
how many rounds are likely left from ``rules.game_over`` asked about walls
that gain one tile per row a round.

The groups are each wall row, each column and each colour set. A group may
still pay if some way of placing its missing tiles is allowed by the wall hook
(where the player chooses columns, the spaces are searched: the first that
fits one tile may leave none for the next). Where the player chooses the
columns (a grey wall), a column misses a tile per empty row, and any colour
that may stand there fills it: a slot of that row and colour brings the
column's share, as the player will put the tile there if it pays most (its
best column's share, not every column's: a tile fills one). A group that
is not complete is expected to pay its bonus with the product of its missing
slots' chances of being filled in a later round; a slot's chance falls with
the size of its pattern line, with the rounds left after this one against the
row's missing spaces (a row takes one tile a round) and with the tiles of its
colour still off the walls. This round's chance is the pattern line's: a line
part-way to a slot raises that slot's chance in proportion to how full it is,
so the value of a line's tiles is ``slot_bonus * count / capacity``, exact for
one line as the expectation is linear in each slot's chance. In the game's
last round only the lines count: putting the end off never looks better.

The wall changes only at a round's end, so an outlook is worked out once per
round and wall (``Outlooks`` keeps them): within a round a bot pays a lookup
and a multiplication per pattern line.
"""

from __future__ import annotations

import math
import random as _random
from functools import lru_cache
from typing import Any, Final

from azul_core.engine.state import OVER, wall_with
from azul_core.rules import WALL_SIZE

#: Slots are numbered ``row * size + colour``, ``size`` the board's (``rules.size``: its
#: colours, rows and columns); on the standard board ``row * SLOTS_PER_ROW + colour``.
SLOTS_PER_ROW: Final = WALL_SIZE
#: The most rounds ahead the outlook looks for the game's end.
HORIZON: Final = 6
#: The most questions to the wall hook one group's fill may ask (a search for a way to place
#: its tiles where the columns are chosen); past it the group is given up. A grey wall needs
#: a few dozen at most; a house rule's wall that refuses only the last space of a row would
#: otherwise be searched through every order of its tiles.
FILL_TRIES = 200


@lru_cache(maxsize=None)
def empty_wall(size: int) -> tuple:
    """The wall of a board of ``size`` colours with no tile on it."""
    return ((None,) * size,) * size


def bonus_points(pairs) -> int:
    """The points of an ``end_bonuses`` answer (``None`` or ``[]``: none)."""
    return sum(points for _label, points in pairs) if pairs else 0


class Outlook:
    """One wall's end bonuses: ``now`` (if the game ended now), ``expected`` (now plus what
    the groups not yet complete may still pay) and ``slot_bonus``: per slot, how much
    ``expected`` rises when that slot is sure to be filled (``size`` per row: the board's
    size, read from the slots when not given). Where the player chooses each tile's column,
    ``space_bonus``: per wall space (``row * size + column``), how much the columns' part of
    ``expected`` rises when a tile is put there (0 in a column that can't be completed);
    else ``None``."""

    __slots__ = ("now", "expected", "slot_bonus", "size", "space_bonus")

    def __init__(self, now: float, expected: float, slot_bonus: list[float], size: int | None = None,
                 space_bonus: list[float] | None = None):
        self.now = now
        self.expected = expected
        self.slot_bonus = slot_bonus
        self.size = size if size is not None else math.isqrt(len(slot_bonus))
        self.space_bonus = space_bonus

    def line_bonus(self, row: int, colour: int, count: int, capacity: int) -> float:
        """What ``count`` tiles of ``colour`` on pattern line ``row`` add to ``expected``."""
        return self.slot_bonus[row * self.size + colour] * count / capacity

    def after_round(self, start_wall, wall) -> "Outlook":
        """This outlook (of ``start_wall``) moved on to ``wall``, the same wall a round later:
        each tile placed since adds its slot's bonus (to first order: the chances of the
        slots still missing are not lowered for the round gone by)."""
        added = 0.0
        bonus = self.slot_bonus
        size = self.size
        for row in range(size):
            before, now = start_wall[row], wall[row]
            if before is not now:
                for colour in range(size):
                    if colour in now and colour not in before:
                        added += bonus[row * size + colour]
        return Outlook(self.now, self.expected + added, bonus, size)

    def board_bonus(self, board, capacities) -> float:
        """``expected`` plus what ``board``'s pattern lines add to it."""
        value = self.expected
        counts = board.line_count
        bonus = self.slot_bonus
        size = self.size
        for row in range(size):
            count = counts[row]
            if count:
                value += bonus[row * size + board.line_colour[row]] * count / capacities[row]
        return value


def _fill_places(rules, wall, places, seat, game):
    """The wall with each (row, colour) of ``places`` it lacks put in a space the wall hook
    allows, and the slots filled; None if no way of placing them all exists.

    The spaces are tried in the hook's order and the first way found is kept: on a wall
    that prints its colours there is one space each, so this is one pass; where the
    columns are chosen (a grey wall), an early tile may take the only space a later one
    had, so the other spaces are tried before the group is given up."""
    missing = [(row, colour) for row, colour in places if colour not in wall[row]]
    filled = _place_each(rules, wall, missing, 0, seat, game, [FILL_TRIES])
    if filled is None:
        return None
    size = len(wall)
    return filled, [row * size + colour for row, colour in missing]


def _place_each(rules, wall, missing, index, seat, game, tries):
    """``wall`` with ``missing[index:]`` placed, trying each legal space in turn; None if none
    fits them all (or ``tries[0]``, the questions to the wall hook left, runs out)."""
    if index == len(missing):
        return wall
    if tries[0] <= 0:
        return None
    tries[0] -= 1
    row, colour = missing[index]
    for column in rules.wall_spaces(wall, row, colour, seat, game):
        filled = _place_each(rules, wall_with(wall, row, column, colour), missing, index + 1, seat, game, tries)
        if filled is not None:
            return filled
    return None


def _fill_row(rules, wall, row, seat, game):
    return _fill_places(rules, wall, [(row, colour) for colour in range(len(wall))], seat, game)


def _fill_column(rules, wall, column, seat, game):
    """The wall with every empty space of ``column`` given a colour the wall hook allows there,
    and the slots filled; None if no such colours exist (the colours are tried in order, and
    another is tried when a later row has nothing left, as in ``_fill_places``)."""
    rows = [row for row in range(len(wall)) if wall[row][column] is None]
    return _colour_each(rules, wall, column, rows, 0, [], seat, game, [FILL_TRIES])


def _colour_each(rules, wall, column, rows, index, slots, seat, game, tries):
    """``wall`` with ``column``'s spaces in ``rows[index:]`` coloured, and every slot filled
    (``slots`` holds those of the rows before); None if no colours fit them all (or the
    questions to the wall hook, ``tries[0]``, run out)."""
    if index == len(rows):
        return wall, list(slots)
    row = rows[index]
    size = len(wall)
    for colour in range(size):
        if colour in wall[row]:
            continue
        if tries[0] <= 0:
            return None
        tries[0] -= 1
        if column in rules.wall_spaces(wall, row, colour, seat, game):
            slots.append(row * size + colour)
            found = _colour_each(rules, wall_with(wall, row, column, colour), column, rows, index + 1, slots,
                                 seat, game, tries)
            if found is not None:
                return found
            slots.pop()
    return None


def _fill_colour(rules, wall, colour, seat, game):
    return _fill_places(rules, wall, [(row, colour) for row in range(len(wall))], seat, game)


_FILLS = (_fill_row, _fill_column, _fill_colour)


def _groups_of(rules, wall, seat, game, now: int, fills=_FILLS) -> list[tuple[float, tuple[int, ...]]]:
    """Every row, column and colour set of ``wall`` (those of ``fills``) not yet complete that
    would pay more bonus once complete: (the bonus it adds, the slots it misses)."""
    groups = []
    for fill in fills:
        for index in range(len(wall)):
            filled = fill(rules, wall, index, seat, game)
            if filled is None or not filled[1]:
                continue
            gain = bonus_points(rules.end_bonuses(filled[0], seat, game)) - now
            if gain:
                groups.append((float(gain), tuple(filled[1])))
    return groups


def _chosen_columns_of(rules, wall, seat, game, now: int, spaces) -> list[tuple[float, tuple]]:
    """Every column of ``wall``, where the player chooses each tile's column, not yet complete
    that may still be and would pay more bonus: (the bonus it adds, per empty space of the
    column the space, ``row * size + column``, and the slots that may fill it). ``spaces``:
    slot -> the columns its tile may take now.

    A column is filled by any colour its rows lack and may put there, so what it misses is a
    tile per row, not one colour each (the colours ``_fill_column`` finds are one way among
    several: the group pays if that one exists)."""
    groups = []
    size = len(wall)
    for column in range(size):
        needs = tuple([(row * size + column, tuple([row * size + colour for colour in range(size)
                                                    if column in spaces.get(row * size + colour, ())]))
                       for row in range(size) if wall[row][column] is None])
        if any(not slots for _space, slots in needs):
            continue  # a space nothing may fill: the search for a fill would only find so slowly
        filled = _fill_column(rules, wall, column, seat, game)
        if filled is None or not filled[1]:
            continue
        gain = bonus_points(rules.end_bonuses(filled[0], seat, game)) - now
        if gain:
            groups.append((float(gain), needs))
    return groups


def fixed_layout(rules) -> list[int] | None:
    """Per slot, the one wall column its colour takes in its row, when the variant's wall
    prints its colours (every ``wall_spaces`` answer on the empty wall is one column, each
    row's a permutation); ``None`` for a wall whose columns the player chooses, or whose
    spaces may differ from seat to seat (the hook reads the seat or the game)."""
    if rules.player_chooses_column or rules.context_readers.get("azul_wall_spaces"):
        return None
    size = rules.size
    empty = empty_wall(size)
    layout = []
    for row in range(size):
        columns = []
        for colour in range(size):
            answer = rules.wall_spaces(empty, row, colour)
            if len(answer) != 1:
                return None
            columns.append(answer[0])
        if sorted(columns) != list(range(size)):
            return None
        layout.extend(columns)
    return layout


class BonusModel:
    """How one variant pays end bonuses, found once per ``Rules``.

    Where the wall prints its colours and the bonus hook reads nothing but the wall,
    each group's bonus is found on the empty wall and then checked to be additive
    (the bonus of seeded walls is the sum of their complete groups'): the usual case,
    and then no hook is asked again. Otherwise (a grey wall, a bonus that reads the
    game, a bonus that is not a sum over these groups) each wall's groups are asked
    of the hooks anew, once per wall and round.
    """

    def __init__(self, rules):
        self.rules = rules
        #: the board's size: slots are numbered ``row * size + colour``
        self.size = size = rules.size
        self.empty = empty = empty_wall(size)
        self.readers = bool(rules.context_readers.get("azul_end_bonuses"))
        self.layout = fixed_layout(rules)
        self.base = 0
        #: (bonus, slots) of each group on an empty wall, when the bonus is additive over them
        self.fixed_groups: list[tuple[float, tuple[int, ...]]] | None = None
        if self.layout is not None and not self.readers:
            self.base = bonus_points(rules.end_bonuses(empty))
            groups = _groups_of(rules, empty, None, None, self.base)
            if self._additive(groups):
                self.fixed_groups = groups
        #: the fixed groups with the bit mask of their slots
        self.fixed_masks = [(gain, slots, sum(1 << slot for slot in slots))
                            for gain, slots in self.fixed_groups or ()]

    def wall_of(self, slots) -> tuple:
        """The wall (printed layout) holding exactly the given slots."""
        layout = self.layout
        assert layout is not None
        wall = self.empty
        size = self.size
        for slot in slots:
            wall = wall_with(wall, slot // size, layout[slot], slot % size)
        return wall

    def _additive(self, groups) -> bool:
        """Whether the bonus of seeded walls, and the full wall, is the sum of their complete
        groups' bonuses (so the groups found on the empty wall tell the whole bonus)."""
        rng = _random.Random("bonus model")
        slots_in_all = self.size * self.size
        trials = [list(range(slots_in_all))]
        for density in (0.3, 0.5, 0.7, 0.8, 0.9):
            for _ in range(8):
                trials.append([slot for slot in range(slots_in_all) if rng.random() < density])
        for _ in range(15):  # near-complete walls: one missing slot each
            missing = rng.randrange(slots_in_all)
            trials.append([slot for slot in range(slots_in_all) if slot != missing])
        for slots in trials:
            held = set(slots)
            expected = self.base + sum(gain for gain, group in groups if held.issuperset(group))
            if bonus_points(self.rules.end_bonuses(self.wall_of(slots))) != expected:
                return False
        return True


class Outlooks:
    """The outlook of every wall of a game, worked out once per round and remembered
    (per ``Rules``: ``for_rules``). The answers are functions of the walls, the round
    and (for a bonus that reads the game) the plugins' memory and secrets alone, so a
    bot's choices never depend on what was asked before."""

    #: Entries each table keeps at most (then it starts afresh): a few MB. A game asks far
    #: fewer, so only a long run of games with the same rules fills one.
    LIMIT = 5_000
    #: How likely a slot is to be filled before the game ends, at most: lower for longer
    #: pattern lines (the tiles are harder to gather).
    CHANCE = 0.8
    CHANCE_PER_TILE = 0.05
    #: How much a point of bonus hoped for counts against a point scored.
    WEIGHT = 1.0

    def __init__(self, rules):
        self.rules = rules
        self.model = BonusModel(rules)
        #: the board's size (``rules.size``): slots are numbered ``row * size + colour``
        self.size = rules.size
        self.known: dict = {}
        #: (wall, seat, rounds left, the colours' tiles off the walls, up to the longest
        #: line) -> its Outlook: a search meets the same wall beside many others
        self.by_wall: dict = {}
        #: (wall, seat) -> the wall with one more tile per row, 1 to HORIZON times; for a
        #: printed wall (row, its cells) -> the row with one more tile, 1 to HORIZON times
        self.levels: dict = {}
        self.row_levels: dict = {}
        #: wall -> the tiles of each colour on it
        self.held: dict = {}
        #: printed wall -> (its bonus now, its groups not complete)
        self.fixed: dict = {}
        #: (wall, seat) -> its bonus now, groups not complete, slots with a space (asked)
        self.asked: dict = {}
        self.level_reads_game = bool(rules.context_readers.get("azul_wall_spaces"))
        #: the player chooses each tile's column: a column's groups are filled by any colour
        self.columns_chosen = bool(rules.player_chooses_column) and self.model.fixed_groups is None
        #: (wall, seat) -> its bonus now, slots with a space, columns (``_chosen_columns_of``)
        self.asked_columns: dict = {}
        self.longest_line = max(rules.capacity)
        #: whether an outlook costs a few lookups (the groups found once, on a printed wall);
        #: else each new wall's groups are asked of the hooks, tens of questions
        self.cheap = self.model.fixed_groups is not None
        # The last answer, with the round and the wall objects it was for: a search asks
        # about the same walls (shared by clones until a tile is placed) again and again.
        self._last: tuple = (None, (), ())
        self.chances = [max(0.05, self.CHANCE - self.CHANCE_PER_TILE * (capacity - 1))
                        for capacity in rules.capacity]

    def for_state(self, state) -> tuple[Outlook, ...]:
        """Each seat's outlook in ``state`` (the seats' walls, the round)."""
        last_round, last_walls, last_found = self._last
        if last_round == state.round and len(last_walls) == len(state.players) and not self.model.readers:
            for board, wall in zip(state.players, last_walls):
                if board.wall is not wall:
                    break
            else:
                return last_found
        walls = tuple([board.wall for board in state.players])
        key: Any = (state.round, walls)
        if self.model.readers:
            key = (key, tuple(sorted(state.memory.items())), tuple(sorted(state.secrets.items())))
        found = self.known.get(key)
        if found is None:
            if len(self.known) >= self.LIMIT:
                self.known.clear()
            found = self.known[key] = self._work_out(state, walls)
        self._last = (state.round, walls, found)
        return found

    def value(self, state, seat: int) -> float:
        """The end bonuses ``seat`` may expect, with what its pattern lines add; 0 once the
        game is over (the score then holds them)."""
        if state.phase == OVER:
            return 0.0
        return self.for_state(state)[seat].board_bonus(state.players[seat], self.rules.capacity)

    # ------------------------------------------------------------------ working out

    def _work_out(self, state, walls) -> tuple[Outlook, ...]:
        rounds = self.rounds_left(state, walls)
        off_walls = self._off_walls(state, walls)
        if self.model.readers:
            return tuple(self._outlook(wall, seat, state, rounds, off_walls) for seat, wall in enumerate(walls))
        longest = self.longest_line
        supply = tuple([tiles if tiles < longest else longest for tiles in off_walls])
        found = []
        for seat, wall in enumerate(walls):
            key = (wall, seat, rounds, supply)
            outlook = self.by_wall.get(key)
            if outlook is None:
                if len(self.by_wall) >= self.LIMIT:
                    self.by_wall.clear()
                outlook = self.by_wall[key] = self._outlook(wall, seat, state, rounds, off_walls)
            found.append(outlook)
        return tuple(found)

    def rounds_left(self, state, walls) -> int:
        """The rounds likely left, this one included: how many rounds of one more tile in
        every row of every wall it takes before the variant's ``game_over`` says the game
        ends (a row takes at most one tile a round, so the game lasts at least that long
        by the standard end; a variant that ends by the round number says so too)."""
        rules = self.rules
        levels = [self._levels(wall, seat, state) for seat, wall in enumerate(walls)]
        for ahead in range(HORIZON):
            for seat, wall_levels in enumerate(levels):
                if len(wall_levels) <= ahead:  # worked out as far as asked (a chosen column's wall)
                    wall_levels.append(self._one_more_per_row(
                        wall_levels[-1] if wall_levels else walls[seat], seat, state))
            if rules.game_over(tuple([wall_levels[ahead] for wall_levels in levels]),
                               state.round + ahead, None, None, state):
                return ahead + 1
        return HORIZON

    def _levels(self, wall, seat, state) -> list:
        """``wall`` with one more tile in each row that has room, then two, ... HORIZON (for
        a wall whose columns are chosen, as many of them as worked out so far)."""
        layout = self.model.layout
        if layout is not None:  # a printed wall: row by row, each row's own levels remembered
            found = self.levels.get(wall)
            if found is None:
                rows = []
                for row, cells in enumerate(wall):
                    levels = self.row_levels.get((row, cells))
                    if levels is None:
                        if len(self.row_levels) >= self.LIMIT:
                            self.row_levels.clear()
                        levels = self.row_levels[row, cells] = self._row_levels(row, cells, layout, self.size)
                    rows.append(levels)
                if len(self.levels) >= self.LIMIT:
                    self.levels.clear()
                found = self.levels[wall] = [tuple([levels[ahead] for levels in rows]) for ahead in range(HORIZON)]
            return found
        # Where the player chooses the columns, each level asks the hooks: the list grows as
        # far as ``rounds_left`` needs it (and is remembered, unless the hook reads the game).
        key = (wall, seat)
        found = None if self.level_reads_game else self.levels.get(key)
        if found is None:
            found = []
            if not self.level_reads_game:
                if len(self.levels) >= self.LIMIT:
                    self.levels.clear()
                self.levels[key] = found
        return found

    @staticmethod
    def _row_levels(row: int, cells: tuple, layout: list[int], size: int) -> list[tuple]:
        """A printed wall's row with one more tile (the first colour missing, where it is
        printed), then two, ... HORIZON."""
        levels = []
        for _ in range(HORIZON):
            for colour in range(size):
                if colour not in cells:
                    column = layout[row * size + colour]
                    cells = cells[:column] + (colour,) + cells[column + 1:]
                    break
            levels.append(cells)
        return levels

    def _one_more_per_row(self, wall, seat, state):
        spaces = self.rules.wall_spaces
        layout = self.model.layout
        size = self.size
        for row in range(size):
            cells = wall[row]
            if None not in cells:
                continue
            if layout is not None:  # a printed wall: the first colour missing, where it is printed
                for colour in range(size):
                    if colour not in cells:
                        wall = wall_with(wall, row, layout[row * size + colour], colour)
                        break
                continue
            for colour in range(size):
                if colour not in cells:
                    columns = spaces(wall, row, colour, seat, state)
                    if columns:
                        wall = wall_with(wall, row, columns[0], colour)
                        break
        return wall

    def _off_walls(self, state, walls) -> list[int]:
        """Per colour, the tiles of the game on no wall: those that can still reach one
        (bag, lid, table, lines and floors; tiles out of the game are few and ignored)."""
        size = self.size
        counts = list(state.table.kind_counts[:size])
        for wall in walls:
            held = self.held.get(wall)
            if held is None:
                if len(self.held) >= self.LIMIT:
                    self.held.clear()
                held = [0] * size
                for cells in wall:
                    for cell in cells:
                        if cell is not None and cell < size:
                            held[cell] += 1
                self.held[wall] = held
            for colour in range(size):
                counts[colour] -= held[colour]
        return counts

    def _fixed_groups_of(self, wall) -> tuple[float, list]:
        """A printed wall's bonus now and its groups not yet complete (the bonus, the slots
        missing), from the groups found once on the empty wall; remembered per wall."""
        found = self.fixed.get(wall)
        if found is None:
            if len(self.fixed) >= self.LIMIT:
                self.fixed.clear()
            held = 0
            size = self.size
            for row, cells in enumerate(wall):
                for cell in cells:
                    if cell is not None:
                        held |= 1 << (row * size + cell)
            now = self.model.base
            groups = []
            for gain, slots, mask in self.model.fixed_masks:
                if held & mask == mask:
                    now += gain
                else:
                    groups.append((gain, tuple([slot for slot in slots if not held >> slot & 1])))
            found = self.fixed[wall] = (now, groups)
        return found

    def _asked_groups_of(self, wall, seat, state) -> tuple[float, list, set]:
        """A wall's bonus now, its groups not yet complete and the slots with a legal space,
        asked of the hooks (remembered per wall and seat unless the bonus or the spaces
        read the game)."""
        rules = self.rules
        reads_game = self.model.readers or self.level_reads_game
        found = None if reads_game else self.asked.get((wall, seat))
        if found is None:
            game = state if self.model.readers else None
            now = bonus_points(rules.end_bonuses(wall, seat, game))
            groups = _groups_of(rules, wall, seat, game, now)
            size = self.size
            possible = {row * size + colour for row in range(size) for colour in range(size)
                        if colour not in wall[row] and rules.wall_spaces(wall, row, colour, seat, game)}
            found = (now, groups, possible)
            if not reads_game:
                if len(self.asked) >= self.LIMIT:
                    self.asked.clear()
                self.asked[wall, seat] = found
        return found

    def _chosen_groups_of(self, wall, seat, state) -> tuple[int, list, set, list]:
        """A wall whose columns the player chooses: its bonus now, its rows and colour sets not
        yet complete (as ``_asked_groups_of``), the slots with a legal space, and its columns
        not yet complete with the slots that may fill each of their spaces
        (``_chosen_columns_of``); remembered as ``_asked_groups_of`` does."""
        reads_game = self.model.readers or self.level_reads_game
        found = None if reads_game else self.asked.get((wall, seat))
        if found is None:
            now, possible, columns = self._chosen_columns_of(wall, seat, state)
            game = state if self.model.readers else None
            groups = _groups_of(self.rules, wall, seat, game, now, (_fill_row, _fill_colour))
            found = (now, groups, possible, columns)
            if not reads_game:
                if len(self.asked) >= self.LIMIT:
                    self.asked.clear()
                self.asked[wall, seat] = found
        return found

    def _chosen_columns_of(self, wall, seat, state) -> tuple[int, set, list]:
        """A wall whose columns the player chooses: its bonus now, the slots with a legal space
        and its columns not yet complete (``_chosen_columns_of``), without its rows and colour
        sets (all a placement needs; see ``space_bonus``); remembered as ``_asked_groups_of``
        does."""
        reads_game = self.model.readers or self.level_reads_game
        found = None if reads_game else self.asked_columns.get((wall, seat))
        if found is None:
            rules = self.rules
            game = state if self.model.readers else None
            now = bonus_points(rules.end_bonuses(wall, seat, game))
            size = self.size
            spaces = {}
            for row in range(size):
                for colour in range(size):
                    if colour not in wall[row]:
                        columns = rules.wall_spaces(wall, row, colour, seat, game)
                        if columns:
                            spaces[row * size + colour] = columns
            found = (now, set(spaces), _chosen_columns_of(rules, wall, seat, game, now, spaces))
            if not reads_game:
                if len(self.asked_columns) >= self.LIMIT:
                    self.asked_columns.clear()
                self.asked_columns[wall, seat] = found
        return found

    def space_bonus(self, state, seat: int) -> tuple[list[float], int]:
        """``seat``'s ``Outlook.space_bonus`` in ``state`` (a wall whose columns the player
        chooses) and the rounds likely left, without working out its rows and colour sets
        nor the other seats' walls: between a grey wall's placements one wall changes at a
        time, and placing a tile needs no more."""
        walls = tuple([board.wall for board in state.players])
        rounds = self.rounds_left(state, walls)
        wall = walls[seat]
        now, possible, columns = self._chosen_columns_of(wall, seat, state)
        size = self.size
        chance = self._chances(wall, possible, rounds, self._off_walls(state, walls))
        space_bonus = [0.0] * (size * size)
        self._chosen_columns_bonus(columns, chance, [0.0] * (size * size), space_bonus)
        return space_bonus, rounds

    def _outlook(self, wall, seat, state, rounds: int, off_walls) -> Outlook:
        model = self.model
        columns: list = []
        now: Any  # the bonus now: an int or a float by the branch (mypyc needs one type)
        if model.fixed_groups is not None:
            now, groups = self._fixed_groups_of(wall)
            possible = None
        elif self.columns_chosen:
            now, groups, possible, columns = self._chosen_groups_of(wall, seat, state)
        else:
            now, groups, possible = self._asked_groups_of(wall, seat, state)
        size = self.size
        chance = self._chances(wall, possible, rounds, off_walls)
        expected = float(now)
        slot_bonus = [0.0] * (size * size)
        weight = self.WEIGHT
        for gain, missing in groups:
            gain *= weight
            # The product of the chances, and per slot the product of the others' (a slot
            # with no chance stops the group unless it is the one filled).
            product, hopeless, without = 1.0, 0, -1
            for slot in missing:
                odds = chance[slot]
                if odds:
                    product *= odds
                else:
                    hopeless += 1
                    without = slot
            if not hopeless:
                expected += gain * product
                for slot in missing:
                    odds = chance[slot]
                    slot_bonus[slot] += gain * product / odds * (1.0 - odds)
            elif hopeless == 1:
                slot_bonus[without] += gain * product
        space_bonus = None
        if self.columns_chosen:
            space_bonus = [0.0] * (size * size)
            expected += self._chosen_columns_bonus(columns, chance, slot_bonus, space_bonus)
        return Outlook(float(now), expected, slot_bonus, size, space_bonus)

    def _chances(self, wall, possible, rounds: int, off_walls) -> list[float]:
        """Each missing slot's chance of being filled in a later round, before the game ends
        (``possible``: the slots with a legal space, or ``None`` for all). This round's chance
        is the pattern line's (``line_bonus``): in the last round nothing more is expected,
        so a bot gains nothing by putting the end off."""
        capacity = self.rules.capacity
        size = self.size
        chance = [0.0] * (size * size)
        later = rounds - 1
        for row in range(size if later > 0 else 0):
            cells = wall[row]
            missing_here = cells.count(None)
            if not missing_here:
                continue
            reach = 1.0 if later >= missing_here else later / missing_here
            for colour in range(size):
                slot = row * size + colour
                if colour in cells or (possible is not None and slot not in possible):
                    continue
                supply = off_walls[colour] / capacity[row]
                chance[slot] = self.chances[row] * reach * (supply if supply < 1.0 else 1.0)
        return chance

    def _chosen_columns_bonus(self, columns, chance, slot_bonus, space_bonus) -> float:
        """What the columns of a wall whose columns are chosen may still pay, expected; adds
        each slot's share to ``slot_bonus`` and each space's to ``space_bonus``. A space's
        chance is that of the likeliest slot that may fill it; a slot's share is the most any
        one column gives it (its tile goes to one column)."""
        expected = 0.0
        share_of = [0.0] * len(slot_bonus)
        weight = self.WEIGHT
        for gain, needs in columns:
            gain *= weight
            odds_of = [max([chance[slot] for slot in need], default=0.0) for _space, need in needs]
            product, hopeless, without = 1.0, 0, -1
            for index, odds in enumerate(odds_of):
                if odds:
                    product *= odds
                else:
                    hopeless += 1
                    without = index
            if not hopeless:
                expected += gain * product
                for (space, need), odds in zip(needs, odds_of):
                    share = gain * product / odds * (1.0 - odds)
                    space_bonus[space] += share
                    for slot in need:
                        if share > share_of[slot]:
                            share_of[slot] = share
            elif hopeless == 1:
                share = gain * product
                space, need = needs[without]
                space_bonus[space] += share
                for slot in need:
                    if share > share_of[slot]:
                        share_of[slot] = share
        for slot, share in enumerate(share_of):
            slot_bonus[slot] += share
        return expected


def for_rules(rules) -> Outlooks:
    """The ``Outlooks`` of a variant, one per ``Rules``, kept on the rules object itself: it
    goes when the rules go. A process that loads a variant afresh for every game (a bench, a
    table server) would otherwise keep every old variant's tables alive, and every move slows
    down as the collector walks them (issue 44)."""
    return rules.kept("bot outlooks", lambda: Outlooks(rules))
