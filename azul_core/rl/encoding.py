"""Actions and observations as numbers: one action space and one observation layout for every
variant of a board's size, plus the numbers of its plugins' own moves, memory and secrets where it
has them.

The board's size ``n`` is the variant's number of colours (``rules.size``, 4 to 8; the standard
game's 5): n colours make an n x n wall and n pattern lines. Everything sized by it is worked out
once per size and kept on a ``BoardShape`` (``board_shape(rules)``); the module's constants
(``NUM_ACTIONS``, ``PLACE_BASE``, ``MOVE_BASE``...) are the standard board's, whose numbers never
change.

Actions (``board_shape(rules).move_base``: 305 on the standard board for every variant and player
count, then one more for each move the variant's plugins declare: ``num_actions(rules)``):

* a draft ``(source, colour, line)`` is ``source * (n * (n + 1)) + colour * (n + 1) + line``
  (standard: ``source * 30 + colour * 6 + line``): source 0 is the centre and
  1..9 the factories (room for the 9 factories of 4 players, whatever the
  size), colour 0..n-1 (standard: blue, yellow, red, black, white), line
  0..n-1 a pattern line and n the floor: actions 0 .. 10 * n * (n + 1) - 1
  (standard: 0..299);
* a wall placement ``(row, column)`` (variants where the player chooses the
  column, such as the grey wall) is ``10 * n * (n + 1) + column`` (standard:
  ``300 + column``): the row is always the pattern line being tiled, so only
  the column is chosen;
* a plugin's move (``azul_core.rules.Move``: a pass, a choice after a draft) is
  ``move_base + i`` (standard: ``305 + i``), ``i`` its place in
  ``rules.plugin_hooks.moves`` (the moves the plugins declare, in a fixed
  order): a variant without plugin moves has exactly ``move_base`` actions.

The legal actions are the engine's own ``GameState.legal_decisions()``,
encoded: an adapter never decides what is legal.

Observations: a float32 vector of ``observation_size(players, rules)`` numbers,
from the point of view of one seat (the "viewer"): boards are listed from
the viewer's own, then the seats after it in turn order. The layout is
``observation_layout(players, rules)``; docs/ai.md draws it as a table. A variant
whose plugins declare moves, keep memory, deal secrets or draw the first player
has more numbers after the boards (``plugin_layout``): whether a choice is on
offer, the viewer's seat, each plugin's memory and the viewer's own secrets,
each value in a block of ``memory_size`` numbers (``value_numbers``), and the
seat that starts the round. Another seat's secret is never in it:
secrets are read through the engine's ``seen_secrets`` (what ``state.for_seat``
does), whatever state is given.

The boards' blocks are sized by ``n`` too: a seat's pattern lines ``n * n`` numbers (line x
colour), its wall ``n * n * n`` (row x column x colour), ``placing_row`` ``n``, and each count of
tiles has one number per kind of tile (the n colours, then any extra kinds).

A variant with extra kinds of tile (``TableSetup.extra_tiles``: a wild tile) counts
every kind where tiles are counted, and shows the extra tiles on the floors and
standing in on the pattern lines (``observation_layout``); its actions are the same:
a draft names a colour, and the variant's hooks say what comes along.
``observation_bounds`` gives each number's range, from the variant's tile counts.
"""

from __future__ import annotations

import zlib
from itertools import chain
from typing import Any, Final
from weakref import WeakKeyDictionary

try:
    import numpy as np
except ModuleNotFoundError as missing:
    from azul_core.rl.extra import missing_rl_extra
    raise missing_rl_extra(missing) from None

from azul_core.colours import LETTERS, MARKER
from azul_core.engine.moves import seen_secrets
from azul_core.engine.state import CHOOSE, DEAL, DRAFT, OVER, PLACE, GameState, PlayerBoard
from azul_core.rules import MAX_COLOURS, MIN_COLOURS, PATTERN_LINES, PHASE_STAGES, Move

MAX_FACTORIES: Final = 9
SOURCES: Final = MAX_FACTORIES + 1
#: Extra kinds of tile a table may have besides its colours (``TableSetup.extra_tiles``).
MAX_EXTRA_KINDS = 3


def _one_hot(size: int, index: int | None) -> tuple[int, ...]:
    return tuple(1 if i == index else 0 for i in range(size))


class BoardShape:
    """The action numbers and the observation's block sizes of a board of ``size`` colours (an
    n x n wall, n pattern lines): what every step reads, worked out once per size
    (``board_shape``) rather than per step."""

    __slots__ = ("size", "floor", "draft_lines", "per_source", "draft_actions", "place_base",
                 "move_base", "lines_size", "wall_cells", "wall_block", "placing",
                 "lines_blocks", "wall_blocks", "drafts")

    def __init__(self, size: int):
        self.size = size
        #: the floor's line in a draft: the line after the last (``rules.floor_line``)
        self.floor = size
        #: the lines a draft may name: the pattern lines and the floor
        self.draft_lines = size + 1
        #: the draft actions of one source: a colour's ``draft_lines`` after another
        self.per_source = size * self.draft_lines
        self.draft_actions = SOURCES * self.per_source
        #: the first wall placement (column 0), right after the drafts
        self.place_base = self.draft_actions
        #: the first plugin move, right after the placements (one per column)
        self.move_base = self.draft_actions + size
        #: a seat's pattern lines: line x colour, the tiles it holds
        self.lines_size = size * size
        self.wall_cells = size * size
        #: a seat's wall: row x column x colour, 1 where that colour's tile lies
        self.wall_block = self.wall_cells * size
        #: ``placing_row`` by the row being placed, then (at index ``size``) none
        self.placing = [_one_hot(size, row) for row in range(size)] + [_one_hot(size, None)]
        #: a board's lines, a wall -> their blocks: pure functions of the keys, shared by every game
        self.lines_blocks: dict[tuple, bytes] = {}
        self.wall_blocks: dict[tuple, bytes] = {}
        #: the draft of each draft action: (source, colour, line)
        self.drafts = tuple((source, colour, line) for source in range(SOURCES) for colour in range(size)
                            for line in range(self.draft_lines))


#: by size: every size a variant may have, made once (looked up at every step)
_SHAPES: dict[int, BoardShape] = {size: BoardShape(size) for size in range(MIN_COLOURS, MAX_COLOURS + 1)}


def board_shape(rules=None) -> BoardShape:
    """The ``BoardShape`` of ``rules``' board (``rules.size`` colours; the standard board's
    without rules), one per size, shared."""
    size = PATTERN_LINES if rules is None else rules.size
    shape = _SHAPES.get(size)
    if shape is None:
        raise ValueError(f"a board of {size} colours: the RL adapters know {MIN_COLOURS} to {MAX_COLOURS}")
    return shape


#: The standard board's shape, and its numbers, which stay as they are for every variant of
#: five colours (trained agents and records of actions rely on them).
STANDARD_SHAPE = board_shape()
COLOUR_COUNT: Final = STANDARD_SHAPE.size
DRAFT_LINES = STANDARD_SHAPE.draft_lines  # the pattern lines and the floor
DRAFT_ACTIONS = STANDARD_SHAPE.draft_actions
PLACE_BASE = STANDARD_SHAPE.place_base
NUM_ACTIONS = STANDARD_SHAPE.move_base
#: The action number of a standard board's first declared plugin move.
MOVE_BASE = NUM_ACTIONS

#: Every observation number lies in [OBS_LOW, OBS_HIGH] (a score beyond is clipped).
OBS_LOW: Final = -1000.0
OBS_HIGH: Final = 1000.0

#: per variant (its PluginHooks): each declared move -> its action number
_move_numbers: WeakKeyDictionary = WeakKeyDictionary()


def num_actions(rules) -> int:
    """The size of ``rules``' action space: the board's drafts and placements
    (``board_shape(rules).move_base``, ``NUM_ACTIONS`` on the standard board) and one per
    declared plugin move."""
    return board_shape(rules).move_base + len(rules.plugin_hooks.moves)


def move_numbers(rules) -> dict[Move, int]:
    """Each plugin move ``rules`` declares -> its action number (``move_base`` + its place)."""
    hooks = rules.plugin_hooks
    numbers = _move_numbers.get(hooks)
    if numbers is None:
        base = board_shape(rules).move_base
        numbers = _move_numbers[hooks] = {move: base + i for i, move in enumerate(hooks.moves)}
    return numbers


def encode(decision: tuple | Move, rules=None) -> int:
    """The action number of an engine decision: a draft, a placement, or a plugin's move, on
    the board of the variant's ``rules`` (the standard board's numbers without them; a
    plugin's move needs them)."""
    if isinstance(decision, Move):
        if rules is None:
            raise ValueError(f"{decision.notation}: a plugin move's action number depends on the "
                             "variant: encode(decision, rules)")
        number = move_numbers(rules).get(decision)
        if number is None:
            raise ValueError(f"{decision.notation} is not a move of variant '{rules.name}'")
        return number
    shape = STANDARD_SHAPE if rules is None else board_shape(rules)
    if len(decision) == 3:
        source, colour, line = decision
        return source * shape.per_source + colour * shape.draft_lines + line
    return shape.place_base + decision[1]


def decode(action: int, state) -> tuple | Move:
    """The engine decision an action number stands for in ``state`` (not checked for legality)."""
    shape = _SHAPES[state.rules.size]
    if action >= shape.move_base:
        moves = state.rules.plugin_hooks.moves
        if action - shape.move_base >= len(moves):
            raise ValueError(f"action {action} is outside the action space "
                             f"(0 to {shape.move_base + len(moves) - 1})")
        return moves[action - shape.move_base]
    if action >= shape.place_base:
        row = state.placing[1] if state.placing is not None else 0
        return (row, action - shape.place_base)
    source, rest = divmod(action, shape.per_source)
    colour, line = divmod(rest, shape.draft_lines)
    return (source, colour, line)


def action_name(action: int, rules=None) -> str:
    """An action in words, in the record's notation where it has one: ``2R4``, ``CK-``,
    ``wall column 3``, ``+pass`` (on the board of the variant's ``rules``, in its colours'
    letters; a plugin's move needs them; the standard board without)."""
    moves = rules.plugin_hooks.moves if rules is not None else ()
    shape = STANDARD_SHAPE if rules is None else board_shape(rules)
    if not 0 <= action < shape.move_base + len(moves):
        return f"action {action} (out of range)"
    if action >= shape.move_base:
        return moves[action - shape.move_base].notation
    if action >= shape.place_base:
        return f"wall column {action - shape.place_base + 1}"
    source, rest = divmod(action, shape.per_source)
    colour, line = divmod(rest, shape.draft_lines)
    letters = LETTERS if rules is None else rules.colour_letters
    return f"{'C' if source == 0 else source}{letters[colour]}{'-' if line == shape.floor else line + 1}"


def legal_actions(state) -> list[int]:
    """The encoded ``state.legal_decisions()``, sorted."""
    decisions = state.legal_decisions()
    if state.rules.offers_moves:
        return sorted(_with_moves(decisions, state.rules))
    return sorted(_encoded(decisions, _SHAPES[state.rules.size]))


def _encoded(decisions: list, shape: BoardShape) -> list[int]:
    if decisions and len(decisions[0]) == 2:
        base = shape.place_base
        return [base + column for _row, column in decisions]
    per_source, lines = shape.per_source, shape.draft_lines
    return [source * per_source + colour * lines + line for source, colour, line in decisions]


def _with_moves(decisions: list, rules) -> list[int]:
    """The action numbers of decisions that may mix drafts, placements and plugin moves."""
    numbers = move_numbers(rules)
    return [numbers[decision] if isinstance(decision, Move) else encode(decision, rules)
            for decision in decisions]


def mask_of(decisions: list, rules=None) -> np.ndarray:
    """An int8 vector of ``num_actions(rules)`` (``NUM_ACTIONS``, the standard board's, without
    rules): 1 at the actions of ``decisions``. Plugin moves, and a board of other than five
    colours, need the variant's ``rules``."""
    if rules is not None and rules.plugin_hooks.moves:
        mask = bytearray(num_actions(rules))
        for number in _with_moves(decisions, rules):
            mask[number] = 1
        return np.frombuffer(mask, np.int8)
    shape = STANDARD_SHAPE if rules is None else _SHAPES[rules.size]
    mask = bytearray(shape.move_base)
    if decisions and len(decisions[0]) == 2:
        base = shape.place_base
        for _row, column in decisions:
            mask[base + column] = 1
    else:
        per_source, lines = shape.per_source, shape.draft_lines
        for source, colour, line in decisions:
            mask[source * per_source + colour * lines + line] = 1
    return np.frombuffer(mask, np.int8)


def action_mask(state) -> np.ndarray:
    """An int8 vector of ``num_actions(state.rules)``: 1 where the action is legal now."""
    return mask_of(state.legal_decisions(), state.rules)


def check_table(state) -> None:
    """Refuse a table the fixed layout has no room for (more than 9 factories)."""
    factories = len(state.sources) - 1
    if factories > MAX_FACTORIES:
        raise ValueError(f"this variant lays {factories} factories; the RL adapters have room "
                         f"for {MAX_FACTORIES} (the record notation's limit)")


# ---------------------------------------------------------------- observations

#: Per board of the standard game: pattern lines (line x colour: the tiles it holds), then the
#: wall (row x column x colour: 1 where that colour's tile lies). Other sizes: ``BoardShape``.
LINES_SIZE = STANDARD_SHAPE.lines_size
WALL_CELLS = STANDARD_SHAPE.wall_cells
WALL_BLOCK = STANDARD_SHAPE.wall_block
BOARD_SIZE = LINES_SIZE + WALL_BLOCK
SEAT_FIELDS = ("floor_tiles", "marker_on_floor", "holds_marker")


def table_kinds(players: int, rules=None) -> int:
    """How many kinds of tile ``rules``' table for ``players`` has: the variant's colours, then
    its extra tiles (``TableSetup.extra_tiles``, such as a wild tile); 5 without rules."""
    return COLOUR_COUNT if rules is None else len(rules.table(players).kind_counts)


def _table_fields(kinds: int, size: int) -> tuple[tuple[str, int], ...]:
    """The table's parts: a count per kind of tile wherever tiles are counted."""
    return (("factories", MAX_FACTORIES * kinds), ("centre", kinds), ("marker_in_centre", 1),
            ("bag", kinds), ("lid", kinds), ("round", 1), ("placing_row", size))


#: Numbers per plugin memory or secret in the observation, unless the adapter is told otherwise.
MEMORY_SIZE: Final = 16


def observation_layout(players: int, rules=None, memory_size: int = MEMORY_SIZE) -> list[tuple[str, int, int]]:
    """``(name, start, size)`` of every part of the observation vector, in order. ``seat+k``
    is the board ``k`` seats after the viewer's (``seat+0`` is the viewer's own). With the
    variant's ``rules``, its plugins' parts follow (``plugin_layout``).

    The board's size n (``rules.size``: the variant's colours; 5 without rules) sizes the
    boards' blocks (``BoardShape``): ``lines`` n * n, ``wall`` n * n * n, ``placing_row`` n,
    and a count of n colours wherever tiles are counted.

    A variant with extra kinds of tile (``table_kinds(players, rules)`` above n) counts every
    kind in the factories, the centre, the bag and the lid, and has two more parts per seat:
    ``floor_extra`` (the tiles of each extra kind on the floor) and ``line_extra`` (pattern
    line x extra kind: the extra tiles standing in for the line's colour, counted in
    ``lines`` too). A variant of the five colours keeps this layout whatever their counts."""
    shape = STANDARD_SHAPE if rules is None else board_shape(rules)
    size = shape.size
    extra = table_kinds(players, rules) - size
    parts = list(_table_fields(size + extra, size)) + [("to_move", players)]
    for k in range(players):
        parts += [(f"seat+{k}.{name}", 1) for name in SEAT_FIELDS]
        if extra:
            parts.append((f"seat+{k}.floor_extra", extra))
    parts += [(f"seat+{k}.score", 1) for k in range(players)]
    for k in range(players):
        parts.append((f"seat+{k}.lines", shape.lines_size))
        if extra:
            parts.append((f"seat+{k}.line_extra", size * extra))
        parts.append((f"seat+{k}.wall", shape.wall_block))
    if rules is not None:
        parts += plugin_layout(players, rules, memory_size)
    layout, start = [], 0
    for name, size in parts:
        layout.append((name, start, size))
        start += size
    return layout


def observation_size(players: int, rules=None, memory_size: int = MEMORY_SIZE) -> int:
    _name, start, size = observation_layout(players, rules, memory_size)[-1]
    return start + size


def observation_bounds(players: int, rules, memory_size: int = MEMORY_SIZE) -> tuple[np.ndarray, np.ndarray]:
    """The least and the greatest value of each number of ``rules``' observation for
    ``players`` (two float32 vectors of ``observation_size``). A count of tiles of one kind
    lies from 0 to the variant's number of that kind (``table.kind_counts``), and within a
    pattern line's capacity or the floor's spaces where it counts their tiles; the factories a
    table lacks are always 0; flags and one-hot parts lie in [0, 1], the round in [1, 255];
    scores, memory and secrets in [-1000, 1000]."""
    table = rules.table(players)
    counts = table.kind_counts
    colours = range(rules.size)
    extras = counts[rules.size:]
    floor_room = min(rules.floor_spaces, sum(counts) + 1)
    capacity = rules.capacity
    low: list[float] = []
    high: list[float] = []
    for name, _start, size in observation_layout(players, rules, memory_size):
        field = name.split(".", 1)[1] if name.startswith(("seat+", "memory.", "secret.")) else name
        if name.startswith(("memory.", "secret.")) or field == "score":
            low += [OBS_LOW] * size
            high += [OBS_HIGH] * size
            continue
        if field == "factories":
            tops = list(counts) * table.factories + [0] * (size - len(counts) * table.factories)
        elif field in ("centre", "bag", "lid"):
            tops = list(counts)
        elif field == "round":
            low.append(1.0)
            high.append(255.0)
            continue
        elif field == "floor_tiles":
            tops = [floor_room]
        elif field == "floor_extra":
            tops = [min(floor_room, count) for count in extras]
        elif field == "lines":
            tops = [min(capacity[row], counts[colour] + sum(extras))
                    for row in colours for colour in colours]
        elif field == "line_extra":
            tops = [min(capacity[row], count) for row in colours for count in extras]
        else:  # flags, one-hot parts, the wall's cells
            tops = [1] * size
        low += [0.0] * size
        high += tops
    return np.asarray(low, np.float32), np.asarray(high, np.float32)


def observation_high(players: int, rules, memory_size: int = MEMORY_SIZE) -> float:
    """The ``Box`` bound of the observation: 1000 (``OBS_HIGH``), or more where a count of
    tiles may be greater (a variant with more than 1000 tiles of a kind)."""
    return max(OBS_HIGH, float(observation_bounds(players, rules, memory_size)[1].max()))


def plugin_layout(players: int, rules, memory_size: int = MEMORY_SIZE) -> list[tuple[str, int]]:
    """``(name, size)`` of the parts a variant's plugins add after the boards (none for a
    variant without plugin moves, memory or secrets):

    * ``choosing`` (where plugins declare moves): 1 while the seat to move must choose
      among the moves offered after its draft or in a plugin's phase (phase ``choose``);
    * ``viewer_seat`` (where plugins keep memory): one-hot, the viewer's own seat number,
      since a memory speaks of seats by number (0 = the first seat), not relative to the viewer;
    * ``memory.PLUGIN``: each plugin's memory (public), in ``memory_size`` numbers;
    * ``secret.PLUGIN``: the viewer's own secret from each plugin that deals secrets, in
      ``memory_size`` numbers (another seat's secret is never shown);
    * ``first_player`` (where a plugin draws who starts round 1, ``azul_first_player``):
      one-hot, relative to the viewer as ``to_move`` is: the seat that starts the round
      (public; once a round is over, the seat that starts the next);
    * ``stage`` (where plugins add phases, ``rules.Phase``): one-hot over the variant's
      phases (``phase_stages``): the phase under way, zeros outside one;
    * ``sealed_seats`` and ``own_choice`` (where a phase is chosen at once, in secret):
      relative to the viewer, the seats whose choice in the phase under way is made but
      sealed (public: they choose in seat order), and one-hot over the declared moves
      (``rules.plugin_hooks.moves``), the viewer's own sealed choice. Another seat's sealed
      choice is never shown: it is read through ``seen_choices``, whatever state is given.

    Memory and secrets are coded by ``value_numbers``."""
    hooks = rules.plugin_hooks
    parts: list[tuple[str, int]] = []
    if hooks.moves:
        parts.append(("choosing", 1))
    if hooks.memory_plugins:
        parts.append(("viewer_seat", players))
    parts += [(f"memory.{plugin}", memory_size) for plugin in hooks.memory_plugins]
    parts += [(f"secret.{plugin}", memory_size) for plugin in hooks.secret_plugins]
    if rules.first_player is not None:
        parts.append(("first_player", players))
    if rules.phases:
        parts.append(("stage", len(phase_stages(rules))))
        if chosen_at_once(rules):
            parts += [("sealed_seats", players), ("own_choice", len(hooks.moves))]
    return parts


def phase_stages(rules) -> tuple[str, ...]:
    """The stages of the phases ``rules``' plugins add, in the order of play (``PHASE_STAGES``)."""
    return tuple(stage for stage in PHASE_STAGES if stage in rules.phases)


def chosen_at_once(rules) -> bool:
    """Whether one of ``rules``' phases is chosen at once, in secret (``Phase.at_once``): then
    a seat's choice is hidden from the others until every seat has chosen."""
    return any(phase.at_once for phase in rules.phases.values())


def seen_choices(sealed: tuple, viewer: int | None) -> tuple:
    """The sealed choices of a phase chosen at once as ``viewer`` may know them: every
    ``(seat, move)`` pair, with the move of every other seat replaced by ``None`` (what
    ``GameState.for_seat`` does), so that an encoding given the whole game still can't show
    another seat's choice."""
    return tuple((seat, move if seat == viewer else None) for seat, move in sealed)


def check_memory_size(memory_size: Any) -> int:
    if not isinstance(memory_size, int) or isinstance(memory_size, bool) or not 1 <= memory_size <= 1000:
        raise ValueError(f"memory_size must be a whole number from 1 to 1000, not {memory_size!r}")
    return memory_size


def _leaves(value: Any, into: list) -> list:
    if value.__class__ is tuple:
        for item in value:
            _leaves(item, into)
    else:
        into.append(value)
    return into


def _number(leaf: Any) -> float:
    if leaf is None:
        return 0.0
    if leaf.__class__ is str:  # a stable code (zlib's CRC-32, not hash(), which changes per process)
        return float(1 + zlib.crc32(leaf.encode()) % 999)
    return float(min(max(leaf, OBS_LOW), OBS_HIGH))  # bool and int


def value_numbers(value: Any, size: int = MEMORY_SIZE) -> list[float]:
    """A plugin's memory or secret (None, bool, int, str and tuples of these) as ``size``
    numbers: first how many plain values it holds (its *leaves*: a tuple's items, nested
    tuples flattened in reading order; a value that is not a tuple is one leaf, ``None`` none),
    then the first ``size - 1`` leaves, zeros after. A leaf: ``None`` 0, ``False``/``True``
    0/1, a whole number itself (clipped to [-1000, 1000]), a string ``1 + crc32(utf-8) % 999``.
    A longer value is cut short (its count says so)."""
    leaves = [] if value is None else _leaves(value, [])
    numbers = [float(min(len(leaves), OBS_HIGH))] + [_number(leaf) for leaf in leaves[:size - 1]]
    return numbers + [0.0] * (size - len(numbers))


def plugin_numbers(state, viewer: int, memory_size: int = MEMORY_SIZE) -> list[float]:
    """The numbers of ``plugin_layout`` for ``state`` as ``viewer`` sees it: the secrets are
    read through ``seen_secrets(state.secrets, viewer)`` and the sealed choices of a phase
    chosen at once through ``seen_choices(state.sealed, viewer)`` (the engine's hiding, as in
    ``state.for_seat``), so another seat's secret or sealed choice is never in them, whatever
    state is given."""
    hooks = state.rules.plugin_hooks
    numbers: list[float] = []
    if hooks.moves:
        numbers.append(1.0 if state.phase == CHOOSE else 0.0)
    if hooks.memory_plugins:
        numbers += _one_hot(len(state.players), viewer)
        memory = state.memory
        for plugin in hooks.memory_plugins:
            numbers += value_numbers(memory.get(plugin), memory_size)
    secrets = seen_secrets(state.secrets, viewer) if state.secrets else {}
    for plugin in hooks.secret_plugins:
        values = secrets.get(plugin)
        numbers += value_numbers(None if values is None else values[viewer], memory_size)
    rules = state.rules
    if rules.first_player is not None:
        players = len(state.players)
        numbers += _one_hot(players, (state.first_player - viewer) % players)
    if rules.phases:
        stages = phase_stages(rules)
        numbers += _one_hot(len(stages), stages.index(state.stage) if state.stage is not None else None)
        if chosen_at_once(rules):
            players = len(state.players)
            chosen = [0.0] * players
            own = [0.0] * len(hooks.moves)
            for seat, move in seen_choices(state.sealed, viewer):
                chosen[(seat - viewer) % players] = 1.0
                if move is not None:
                    own[move_numbers(rules)[move] - board_shape(rules).move_base] = 1.0
            numbers += chosen + own
    return numbers


def has_plugin_part(rules) -> bool:
    """Whether ``rules``' observations have a plugin part (``plugin_layout``)."""
    hooks = rules.plugin_hooks
    return bool(hooks.moves or hooks.memory_plugins or hooks.secret_plugins) or rules.first_player is not None


_CACHE_LIMIT = 50_000


def _lines_block(key: tuple, shape: BoardShape) -> bytes:
    """The lines block of ``key`` = (n line colours, n line counts), made and remembered."""
    size = shape.size
    block = bytearray(shape.lines_size)
    for row in range(size):
        if key[size + row]:
            block[row * size + key[row]] = key[size + row]
    remembered = shape.lines_blocks
    if len(remembered) > _CACHE_LIMIT:
        remembered.clear()
    made = remembered[key] = bytes(block)
    return made


def _wall_block(wall: tuple, shape: BoardShape) -> bytes:
    """The wall block of ``wall`` (n rows of n cells), made and remembered."""
    size = shape.size
    block = bytearray(shape.wall_block)
    for cell, colour in enumerate(chain.from_iterable(wall)):
        if colour is not None:
            block[cell * size + colour] = 1
    remembered = shape.wall_blocks
    if len(remembered) > _CACHE_LIMIT:
        remembered.clear()
    made = remembered[wall] = bytes(block)
    return made


def _line_extra_block(line_extra: list[tuple[int, ...]], extra: int, size: int) -> bytes:
    """Pattern line x extra kind: how many tiles of that kind stand in on the line."""
    block = bytearray(size * extra)
    for row, kinds in enumerate(line_extra):
        for kind in kinds:
            block[row * extra + kind - size] += 1
    return bytes(block)


def bag_counts(state) -> list[int]:
    """The bag's tiles of each kind (``state.kinds`` counts: the colours, then any extra tiles)."""
    counts = [0] * state.kinds
    for tile in state.bag:  # one pass over the bag, not one per kind
        counts[tile] = counts[tile] + 1
    return counts


#: prepared pieces: padding for the factories a table lacks (by sources and kinds of tile),
#: seat orders
_PADDING = {(sources, kinds): (0,) * (kinds * (MAX_FACTORIES + 1 - sources))
            for sources in range(1, SOURCES + 1)
            for kinds in range(MIN_COLOURS, MAX_COLOURS + MAX_EXTRA_KINDS + 1)}
_RELATIVE: dict[tuple[int, int], tuple[int, ...]] = {}
_ORDER: dict[tuple[int, int], tuple[int, ...]] = {}


def observation(state, viewer: int, bag: list[int] | None = None,
                memory_size: int = MEMORY_SIZE) -> np.ndarray:
    """The observation vector of ``state`` as ``viewer`` sees it (see ``observation_layout``).

    ``bag``: the bag's colour counts when the caller keeps them (they change only when the
    factories are filled); worked out otherwise. Of the plugins' secrets, the vector holds
    the viewer's own only (``plugin_numbers``).
    """
    vector = _board_observation(state, viewer, bag)
    if has_plugin_part(state.rules):
        vector = np.concatenate((vector, np.asarray(plugin_numbers(state, viewer, memory_size), np.float32)))
    return vector


def _board_observation(state, viewer: int, bag: list[int] | None) -> np.ndarray:
    players = len(state.players)
    sources = state.sources
    phase = state.phase
    playing = phase != DEAL and phase != OVER  # drafting, placing, or choosing after a draft
    mover = (state.to_move - viewer) % players if playing else players
    to_move = _RELATIVE.get((players, mover))
    if to_move is None:
        to_move = _RELATIVE[(players, mover)] = _one_hot(players, mover)
    order = _ORDER.get((players, viewer))
    if order is None:
        order = _ORDER[(players, viewer)] = tuple((viewer + k) % players for k in range(players))
    size = state.rules.size
    shape = _SHAPES[size]
    # Every number before the scores is a count (from 0 to 255 as a rule): one byte each.
    small = [*chain.from_iterable(sources[1:]), *_PADDING[(len(sources), state.kinds)], *sources[0],
             1 if state.marker_in_centre and playing else 0,
             *(bag if bag is not None else bag_counts(state)), *state.lid, min(state.round, 255),
             *shape.placing[state.placing[1] if phase == PLACE else size], *to_move]
    holder = state.marker_holder
    boards = state.players
    scores = []
    # Every number is a byte (counts, flags, cells), the scores too as a rule: the vector is
    # the bytes joined, widened to float32 once.
    parts = [b""]
    extra = state.kinds - size
    lines_blocks, wall_blocks = shape.lines_blocks, shape.wall_blocks
    for seat in order:
        board = boards[seat]
        floor = board.floor
        small += (len(floor), 1 if MARKER in floor else 0, 1 if holder == seat else 0)
        scores.append(board.score)
        key = (*board.line_colour, *board.line_count)
        block = lines_blocks.get(key)
        parts.append(block if block is not None else _lines_block(key, shape))
        if extra:  # extra kinds of tile: those on the floor, and those standing in on each line
            small += [floor.count(kind) for kind in range(size, size + extra)]
            parts.append(_line_extra_block(board.line_extra, extra, size))
        # A wall is read-only, rows of tuples (the engine builds a new one for a change): its
        # own key, without a flat copy to build at each step.
        wall = board.wall
        block = wall_blocks.get(wall)
        parts.append(block if block is not None else _wall_block(wall, shape))
    numbers = small + scores
    try:
        parts[0] = bytes(numbers)
    except ValueError:  # a score (or a variant's count of tiles) beyond a byte: patched in below
        parts[0] = bytes(len(numbers))
        vector = np.frombuffer(b"".join(parts), np.uint8).astype(np.float32)
        vector[:len(small)] = small  # counts as they are (a kind may have up to 10,000 tiles)
        vector[len(small):len(numbers)] = np.clip(scores, OBS_LOW, OBS_HIGH)
        return vector
    return np.frombuffer(b"".join(parts), np.uint8).astype(np.float32)


#: a count as a flag: 0 stays 0, any other byte becomes 1 (``bytes.translate``)
_HELD: Final = bytes([0] + [1] * 255)
#: board rows -> their part of a wall block; started afresh beyond this many
_ROWS_KEPT: Final = 20_000
#: accept keys -> their draft codes; started afresh beyond this many
_CODES_KEPT: Final = 4_096


class StepEncoder:
    """The observations and action masks of one game played step by step (the PettingZoo
    environment's): the same numbers as ``observation`` and ``mask_of(state.legal_decisions(),
    rules)``, made from pieces worked out once per variant, each seat's lines and wall blocks
    kept until they change, and a draft's mask in two ``bytes.translate`` calls.

    The drafts' mask (what ``legal_decisions`` lists in phase draft: a source holding a colour,
    and each line the seat's ``accept_key`` lets take it, and the floor) is a table of codes
    translated by the sources' counts: the code of (source, colour) stands at each draft action
    whose line takes that colour (``_draft_codes``, per key), and the translation turns a code
    into 1 where the source holds the colour, else 0. Where the engine lists the drafts through
    a plugin (``rules.drafts_listed``: a draft a plugin may forbid, plugin moves) and in a
    plugin's phase, the mask is ``mask_of(legal_decisions())``. A variant with extra kinds of
    tile, or a count or a score a byte can't hold, gets ``observation``'s numbers."""

    def __init__(self, rules, players: int, memory_size: int = MEMORY_SIZE):
        self.rules = rules
        self.memory_size = memory_size
        shape = self.shape = board_shape(rules)
        size = shape.size
        self.kinds = kinds = table_kinds(players, rules)
        #: no extra kinds of tile: a board's numbers are its lines block and its wall block
        self.plain_boards = kinds == size
        self.plugin_part = has_plugin_part(rules)
        self.num_actions = num_actions(rules)
        self.drafts_listed = rules.drafts_listed
        self.line_bits: int = rules.line_bits
        # A (source, colour) pair's code: its index among the sources' counts (centre first,
        # ``kinds`` counts a source): at most 10 * 11 - 1, a byte; 255 stands for no draft.
        actions = self.num_actions
        #: by a colour and the bits of the lines that take it: that colour's draft actions from
        #: the centre (source 0), the colour's code at the lines that take it, else 255
        self.colour_lines = [[bytes(colour if line in lines else 255 for line in range(shape.draft_lines))
                              for lines in rules.draft_lines] for colour in range(size)]
        #: by a source: the translation of the centre's codes into that source's (255 stays)
        self.to_source = [bytes(code + source * kinds if code < kinds else 255 for code in range(256))
                          for source in range(SOURCES)]
        #: by the number of sources: 255 at the actions after theirs (none a draft)
        self.after_drafts = {sources: b"\xff" * (actions - sources * shape.per_source)
                             for sources in range(1, SOURCES + 1)}
        #: by the number of sources: the translation table after the sources' flags (255: no draft)
        self.codes_end = {sources: bytes(256 - sources * kinds) for sources in range(1, SOURCES + 1)}
        #: (accept key, number of sources) as one number -> the draft codes (``_draft_codes``)
        self.codes_kept: dict[int, bytes] = {}
        #: the columns a wall tile may go to -> the mask
        self.placements: dict[tuple[int, ...], bytes] = {}
        #: by the number of sources: the counts of the factories the table lacks (zeros)
        self.padding = {sources: bytes(kinds * (SOURCES - sources)) for sources in range(1, SOURCES + 1)}
        self.players = players
        self.orders = [tuple((viewer + k) % players for k in range(players)) for viewer in range(players)]
        #: (placing row, or size for none; the mover relative to the viewer, or players for none)
        #: -> those two one-hot parts
        self.heads = [[bytes(shape.placing[row] + _one_hot(players, mover)) for mover in range(players + 1)]
                      for row in range(size + 1)]
        #: per seat: its board's lines and wall blocks and what they were made from (``_blocks``)
        self.blocks_kept: list[tuple | None] = [None] * players
        self.wall_rows: dict[tuple, bytes] = {}
        #: by a pattern line's count (up to the longest line: at most ``rulebook.MAX_LINE_CAPACITY``, and a
        #: line never holds more) and colour: its part of the lines block
        self.line_parts = [[bytes(count if kind == colour and count else 0 for kind in range(size))
                            for colour in range(size)] for count in range(max(rules.capacity) + 1)]
        #: (the marker in the centre, the bag's counts, the lid's, the round) and their bytes
        self.table_kept: tuple = (None, None, None, None, b"")
        #: the observation's boards part as bytes, made into float32 numbers at each step
        self.numbers = np.zeros(observation_size(players, rules, memory_size)
                                - sum(length for _name, length in plugin_layout(players, rules, memory_size)), np.uint8)
        self.numbers_view = self.numbers.data

    def encode(self, state: GameState, viewer: int, bag: list[int] | None,
               with_mask: bool) -> tuple[np.ndarray, bytes | None]:
        """``state``'s observation as ``viewer`` sees it, and (``with_mask``) the mask of the
        legal actions now as bytes (the seat to move's; ``None`` without)."""
        if bag is None:
            bag = bag_counts(state)
        # The sources' counts joined as a list, then bytes: a third faster than
        # ``bytes(chain.from_iterable(...))``'s iterator, and a typed loop once compiled.
        flat: list[int] = []
        for source in state.sources:
            flat += source
        try:
            counts: bytes | None = bytes(flat)
        except ValueError:  # a count beyond a byte
            counts = None
        mask = self.mask(state, counts) if with_mask else None
        vector = self._board_observation(state, viewer, bag, counts) if counts is not None and self.plain_boards \
            else None
        if vector is None:
            return observation(state, viewer, bag, self.memory_size), mask
        if self.plugin_part:
            vector = np.concatenate((vector, np.asarray(plugin_numbers(state, viewer, self.memory_size), np.float32)))
        return vector, mask

    def mask(self, state: GameState, counts: bytes | None) -> bytes:
        """The legal actions of the seat to move as bytes, 1 where legal; ``counts``: the
        sources' counts as bytes, centre first (``None`` if one is beyond a byte)."""
        phase = state.phase
        if phase == DRAFT and not self.drafts_listed and counts is not None:
            key = state.players[state.current].accept_key
            sources = len(state.sources)
            kept_as = key * 16 + sources  # at most SOURCES (10) sources: one number
            codes = self.codes_kept.get(kept_as)
            if codes is None:
                if len(self.codes_kept) >= _CODES_KEPT:
                    self.codes_kept.clear()
                codes = self.codes_kept[kept_as] = self._draft_codes(key, sources)
            # the code of (source, colour) -> 1 if the source holds the colour; 255 (no draft) -> 0
            return codes.translate(counts.translate(_HELD) + self.codes_end[sources])
        placing = state.placing
        if phase == PLACE and placing is not None:
            columns = placing[2]
            mask = self.placements.get(columns)
            if mask is None:
                made = bytearray(self.num_actions)
                for column in columns:
                    made[self.shape.place_base + column] = 1
                mask = self.placements[columns] = bytes(made)
            return mask
        return mask_of(state.legal_decisions(), self.rules).tobytes()

    def _draft_codes(self, key: int, sources: int) -> bytes:
        """The draft actions of ``sources`` sources for a seat of accept key ``key``: at each,
        the code of its (source, colour) where its line takes the colour, else 255. The
        centre's part is joined from the colours' parts; each factory's is the centre's with
        the codes moved to that source."""
        size, full, colour_lines = self.shape.size, self.line_bits, self.colour_lines
        centre = b"".join([colour_lines[colour][key >> size * colour & full] for colour in range(size)])
        to_source = self.to_source
        return b"".join([centre.translate(to_source[source]) for source in range(sources)]) \
            + self.after_drafts[sources]

    def _board_observation(self, state: GameState, viewer: int, bag: list[int], counts: bytes) -> np.ndarray | None:
        """``_board_observation``'s numbers, or ``None`` when one of them is beyond a byte."""
        players = self.players
        phase = state.phase
        playing = phase != DEAL and phase != OVER
        marker = 1 if playing and state.marker_in_centre else 0
        lid = state.lid
        table = self.table_kept  # the marker, the bag, the lid, the round: new at a round's end
        try:
            if table[0] != marker or table[1] != bag or table[2] != lid or table[3] != state.round:
                table = self.table_kept = (marker, bag[:], lid[:], state.round,
                                           bytes([marker, *bag, *lid, min(state.round, 255)]))
            placing = state.placing
            if phase == PLACE and placing is not None:
                head = self.heads[placing[1]][(placing[0] - viewer) % players]
            elif playing:
                head = self.heads[self.shape.size][(state.current - viewer) % players]
            else:
                head = self.heads[self.shape.size][players]
            boards = state.players
            holder = state.marker_holder
            seats: list[int] = []
            scores: list[int] = []
            kinds = self.kinds
            parts = [counts[kinds:], self.padding[len(state.sources)], counts[:kinds], table[4], head, b""]
            blocks_kept = self.blocks_kept
            for seat in self.orders[viewer]:
                board = boards[seat]
                floor = board.floor
                seats += (len(floor), MARKER in floor, holder == seat)
                scores.append(board.score)
                # A wall is read-only (a change builds a new one): the same object, the same wall.
                kept = blocks_kept[seat]
                if kept is None or board.wall is not kept[0] or board.line_count != kept[1] \
                        or board.line_colour != kept[2]:
                    kept = blocks_kept[seat] = self._blocks(board, kept)
                parts.append(kept[3])
            parts[5] = bytes(seats + scores)
        except ValueError:  # a score, a count, or a line's tiles beyond a byte
            return None
        self.numbers_view[:] = b"".join(parts)
        return self.numbers.astype(np.float32)

    def _blocks(self, board: PlayerBoard, kept: tuple | None) -> tuple[tuple, list[int], list[int], bytes, bytes]:
        """(the board's wall, its line counts, its line colours, as they are now), its lines and
        wall blocks together, and its wall block (``kept``'s when the wall is the same)."""
        # a line's part by its count and colour (a count of 0: zeros, whatever the colour)
        by_count = self.line_parts
        lines = b"".join([by_count[count][colour] for colour, count in zip(board.line_colour, board.line_count)])
        wall = kept[4] if kept is not None and kept[0] is board.wall else self._wall_block(board.wall)
        return (board.wall, board.line_count[:], board.line_colour[:], lines + wall, wall)

    def _wall_block(self, wall: tuple) -> bytes:
        rows = self.wall_rows
        parts = []
        for row in wall:
            part = rows.get(row)
            if part is None:
                if len(rows) >= _ROWS_KEPT:
                    rows.clear()
                size = self.shape.size
                made = bytearray(size * size)
                for column, colour in enumerate(row):
                    if colour is not None:
                        made[column * size + colour] = 1
                part = rows[row] = bytes(made)
            parts.append(part)
        return b"".join(parts)


def observation_text(state, viewer: int) -> str:
    """The same information as ``observation`` in a short text (OpenSpiel's observation string).
    As there, of the secrets and of the sealed choices of a phase chosen at once it shows the
    viewer's own only (``sealed seat+0:+pick:2 seat+1:?``; none that ``state`` hides: give
    ``state.for_seat(None)`` to show none). Tiles are written with the variant's letters
    (``table.kind_letters``: ``J`` for the wild tile of examples/wild-tiles); a pattern line
    holding extra tiles that stand in for its colour shows them after a colon (``R3:J``: three
    tiles on the line, one of them wild)."""
    from azul_core.engine.state import letters
    kind_letters = state.table.kind_letters
    players = len(state.players)
    parts = [f"round {state.round} {state.phase}"]
    if state.phase != DEAL and state.phase != OVER:
        parts.append(f"to move seat+{(state.to_move - viewer) % players}")
    if state.phase == PLACE:
        parts.append(f"placing line {state.placing[1] + 1}")
    if state.phase == CHOOSE:
        during = f" in {state.stage}" if state.stage is not None else ""
        parts.append(f"choosing{during} " + " ".join(move.notation for move in state.choices))
    if state.sealed:
        parts.append("sealed " + " ".join(f"seat+{(seat - viewer) % players}:{'?' if move is None else move.notation}"
                                          for seat, move in seen_choices(state.sealed, viewer)))
    factories = " ".join(letters(s, kind_letters) or "-" for s in state.sources[1:])
    centre = letters(state.sources[0], kind_letters) + \
        ("M" if state.marker_in_centre and state.phase != "deal" else "")
    parts.append(f"factories {factories} | centre {centre or '-'}")
    bag = bag_counts(state)
    kinds = range(state.kinds)
    parts.append("bag " + " ".join(f"{kind_letters[k]}{bag[k]}" for k in kinds)
                 + " | lid " + " ".join(f"{kind_letters[k]}{state.lid[k]}" for k in kinds))
    for k in range(players):
        seat = (viewer + k) % players
        board = state.players[seat]
        lines = ",".join(_line_text(board, row, kind_letters) for row in range(state.rules.size))
        wall = "/".join("".join("." if cell is None else kind_letters[cell] for cell in row) for row in board.wall)
        floor = "".join("M" if t == MARKER else kind_letters[t] for t in board.floor)
        marker = " holds marker" if state.marker_holder == seat else ""
        parts.append(f"seat+{k}: score {board.score} lines {lines} wall {wall} floor {floor or '-'}{marker}")
    hooks = state.rules.plugin_hooks
    if hooks.memory_plugins:
        parts.append(f"viewer is seat {viewer}")
        parts += [f"memory {plugin}: {state.memory.get(plugin)!r}" for plugin in hooks.memory_plugins]
    secrets = seen_secrets(state.secrets, viewer) if state.secrets else {}
    for plugin in hooks.secret_plugins:
        values = secrets.get(plugin)
        if values is not None and values[viewer] is not None:
            parts.append(f"own secret {plugin}: {values[viewer]!r}")
    if state.rules.first_player is not None:  # a plugin drew who started round 1
        parts.append(f"first player seat+{(state.first_player - viewer) % players}")
    return "\n".join(parts)


def _line_text(board, row: int, kind_letters: str) -> str:
    """A pattern line in words: ``.`` when empty, else its colour and count (``R3``), and the
    extra tiles standing in among them after a colon (``R3:J``)."""
    count = board.line_count[row]
    if not count:
        return "."
    standing = "".join(kind_letters[kind] for kind in board.line_extra[row])
    return f"{kind_letters[board.line_colour[row]]}{count}" + (f":{standing}" if standing else "")
