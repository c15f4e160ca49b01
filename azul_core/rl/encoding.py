"""Actions and observations as numbers: one action space and one observation layout for every variant.

Actions (``NUM_ACTIONS`` = 305, the same for every variant and player count):

* a draft ``(source, colour, line)`` is ``source * 30 + colour * 6 + line``:
  source 0 is the centre and 1..9 the factories (room for the 9 factories of
  4 players), colour 0..4 (blue, yellow, red, black, white), line 0..4 a
  pattern line and 5 the floor: actions 0..299;
* a wall placement ``(row, column)`` (variants where the player chooses the
  column, such as the grey wall) is ``300 + column``: the row is always the
  pattern line being tiled, so only the column is chosen.

The legal actions are the engine's own ``GameState.legal_decisions()``,
encoded: an adapter never decides what is legal.

Observations: a float32 vector of ``observation_size(players)`` numbers,
from the point of view of one seat (the "viewer"): boards are listed from
the viewer's own, then the seats after it in turn order. The layout is
``observation_layout(players)``; docs/ai.md draws it as a table.
"""

from __future__ import annotations

from itertools import chain

import numpy as np

from azul_core.colours import COLOURS, MARKER
from azul_core.engine.state import DRAFT, FLOOR, PLACE
from azul_core.rules import PATTERN_LINES, WALL_SIZE

MAX_FACTORIES = 9
SOURCES = MAX_FACTORIES + 1
COLOUR_COUNT = len(COLOURS)
DRAFT_LINES = PATTERN_LINES + 1  # the pattern lines and the floor
DRAFT_ACTIONS = SOURCES * COLOUR_COUNT * DRAFT_LINES
PLACE_BASE = DRAFT_ACTIONS
NUM_ACTIONS = DRAFT_ACTIONS + WALL_SIZE

#: Every observation number lies in [OBS_LOW, OBS_HIGH] (a score beyond is clipped).
OBS_LOW, OBS_HIGH = -1000.0, 1000.0


def encode(decision: tuple) -> int:
    """The action number of an engine decision (a draft or a placement)."""
    if len(decision) == 3:
        source, colour, line = decision
        return (source * COLOUR_COUNT + colour) * DRAFT_LINES + line
    return PLACE_BASE + decision[1]


def decode(action: int, state) -> tuple:
    """The engine decision an action number stands for in ``state`` (not checked for legality)."""
    if action >= PLACE_BASE:
        row = state.placing[1] if state.placing is not None else 0
        return (row, action - PLACE_BASE)
    source, rest = divmod(action, COLOUR_COUNT * DRAFT_LINES)
    colour, line = divmod(rest, DRAFT_LINES)
    return (source, colour, line)


def action_name(action: int) -> str:
    """An action in words, in the record's notation where it has one: ``2R4``, ``CK-``, ``w?:3``."""
    from azul_core.colours import LETTERS
    if not 0 <= action < NUM_ACTIONS:
        return f"action {action} (out of range)"
    if action >= PLACE_BASE:
        return f"wall column {action - PLACE_BASE + 1}"
    source, rest = divmod(action, COLOUR_COUNT * DRAFT_LINES)
    colour, line = divmod(rest, DRAFT_LINES)
    return f"{'C' if source == 0 else source}{LETTERS[colour]}{'-' if line == FLOOR else line + 1}"


def legal_actions(state) -> list[int]:
    """The encoded ``state.legal_decisions()``, sorted."""
    return sorted(_encoded(state.legal_decisions()))


def _encoded(decisions: list[tuple]) -> list[int]:
    if decisions and len(decisions[0]) == 2:
        return [PLACE_BASE + column for _row, column in decisions]
    return [(source * COLOUR_COUNT + colour) * DRAFT_LINES + line for source, colour, line in decisions]


def mask_of(decisions: list[tuple]) -> np.ndarray:
    """An int8 vector of ``NUM_ACTIONS``: 1 at the actions of ``decisions``."""
    mask = bytearray(NUM_ACTIONS)
    if decisions and len(decisions[0]) == 2:
        for _row, column in decisions:
            mask[PLACE_BASE + column] = 1
    else:
        for source, colour, line in decisions:
            mask[(source * COLOUR_COUNT + colour) * DRAFT_LINES + line] = 1
    return np.frombuffer(mask, np.int8)


def action_mask(state) -> np.ndarray:
    """An int8 vector of ``NUM_ACTIONS``: 1 where the action is legal now."""
    return mask_of(state.legal_decisions())


def check_table(state) -> None:
    """Refuse a table the fixed layout has no room for (more than 9 factories)."""
    factories = len(state.sources) - 1
    if factories > MAX_FACTORIES:
        raise ValueError(f"this variant lays {factories} factories; the RL adapters have room "
                         f"for {MAX_FACTORIES} (the record notation's limit)")


# ---------------------------------------------------------------- observations

#: Per board: pattern lines (line x colour: the tiles it holds), then the wall (row x column
#: x colour: 1 where that colour's tile lies).
LINES_SIZE = PATTERN_LINES * COLOUR_COUNT
WALL_CELLS = WALL_SIZE * WALL_SIZE
WALL_BLOCK = WALL_CELLS * COLOUR_COUNT
BOARD_SIZE = LINES_SIZE + WALL_BLOCK
SEAT_FIELDS = ("floor_tiles", "marker_on_floor", "holds_marker")
TABLE_FIELDS = (("factories", MAX_FACTORIES * COLOUR_COUNT), ("centre", COLOUR_COUNT),
                ("marker_in_centre", 1), ("bag", COLOUR_COUNT), ("lid", COLOUR_COUNT),
                ("round", 1), ("placing_row", PATTERN_LINES))


def observation_layout(players: int) -> list[tuple[str, int, int]]:
    """``(name, start, size)`` of every part of the observation vector, in order. ``seat+k``
    is the board ``k`` seats after the viewer's (``seat+0`` is the viewer's own)."""
    parts = list(TABLE_FIELDS) + [("to_move", players)]
    parts += [(f"seat+{k}.{name}", 1) for k in range(players) for name in SEAT_FIELDS]
    parts += [(f"seat+{k}.score", 1) for k in range(players)]
    for k in range(players):
        parts += [(f"seat+{k}.lines", LINES_SIZE), (f"seat+{k}.wall", WALL_BLOCK)]
    layout, start = [], 0
    for name, size in parts:
        layout.append((name, start, size))
        start += size
    return layout


def observation_size(players: int) -> int:
    _name, start, size = observation_layout(players)[-1]
    return start + size


_NO_SOURCE = [0] * COLOUR_COUNT
_CACHE_LIMIT = 50_000
#: a board's lines, a wall -> their blocks: pure functions of the keys, shared by every game
_lines_blocks: dict[tuple, bytes] = {}
_wall_blocks: dict[tuple, bytes] = {}


def _lines_block(key: tuple) -> bytes:
    """The lines block of ``key`` = (5 line colours, 5 line counts), made and remembered."""
    block = bytearray(LINES_SIZE)
    for row in range(PATTERN_LINES):
        if key[PATTERN_LINES + row]:
            block[row * COLOUR_COUNT + key[row]] = key[PATTERN_LINES + row]
    if len(_lines_blocks) > _CACHE_LIMIT:
        _lines_blocks.clear()
    made = _lines_blocks[key] = bytes(block)
    return made


def _wall_block(key: tuple) -> bytes:
    """The wall block of ``key`` = the 25 cells, row by row, made and remembered."""
    block = bytearray(WALL_BLOCK)
    for cell, colour in enumerate(key):
        if colour is not None:
            block[cell * COLOUR_COUNT + colour] = 1
    if len(_wall_blocks) > _CACHE_LIMIT:
        _wall_blocks.clear()
    made = _wall_blocks[key] = bytes(block)
    return made


def bag_counts(state) -> list[int]:
    bag = state.bag
    return [bag.count(0), bag.count(1), bag.count(2), bag.count(3), bag.count(4)]


def _one_hot(size: int, index: int | None) -> tuple[int, ...]:
    return tuple(1 if i == index else 0 for i in range(size))


#: prepared pieces: padding for the factories a table lacks, one-hot rows, seat orders
_PADDING = {sources: (0,) * (COLOUR_COUNT * (MAX_FACTORIES + 1 - sources)) for sources in range(2, SOURCES + 1)}
_PLACING = [_one_hot(PATTERN_LINES, row) for row in range(PATTERN_LINES)] + [_one_hot(PATTERN_LINES, None)]
_RELATIVE: dict[tuple[int, int], tuple[int, ...]] = {}
_ORDER: dict[tuple[int, int], tuple[int, ...]] = {}


def observation(state, viewer: int, bag: list[int] | None = None) -> np.ndarray:
    """The observation vector of ``state`` as ``viewer`` sees it (see ``observation_layout``).

    ``bag``: the bag's colour counts when the caller keeps them (they change only when the
    factories are filled); worked out otherwise.
    """
    players = len(state.players)
    sources = state.sources
    phase = state.phase
    playing = phase == DRAFT or phase == PLACE
    mover = (state.to_move - viewer) % players if playing else players
    to_move = _RELATIVE.get((players, mover))
    if to_move is None:
        to_move = _RELATIVE[(players, mover)] = _one_hot(players, mover)
    order = _ORDER.get((players, viewer))
    if order is None:
        order = _ORDER[(players, viewer)] = tuple((viewer + k) % players for k in range(players))
    # Every number before the scores is a count from 0 to 255 at most: one byte each.
    small = [*chain.from_iterable(sources[1:]), *_PADDING[len(sources)], *sources[0],
             1 if state.marker_in_centre and playing else 0,
             *(bag if bag is not None else bag_counts(state)), *state.lid, min(state.round, 255),
             *_PLACING[state.placing[1] if phase == PLACE else PATTERN_LINES], *to_move]
    holder = state.marker_holder
    boards = state.players
    scores = []
    # Every number is a byte (counts, flags, cells), the scores too as a rule: the vector is
    # the bytes joined, widened to float32 once.
    parts = [b""]
    for seat in order:
        board = boards[seat]
        floor = board.floor
        small += (len(floor), 1 if MARKER in floor else 0, 1 if holder == seat else 0)
        scores.append(board.score)
        key = (*board.line_colour, *board.line_count)
        block = _lines_blocks.get(key)
        parts.append(block if block is not None else _lines_block(key))
        wall = board.wall
        key = (*wall[0], *wall[1], *wall[2], *wall[3], *wall[4])
        block = _wall_blocks.get(key)
        parts.append(block if block is not None else _wall_block(key))
    numbers = small + scores
    try:
        parts[0] = bytes(numbers)
    except ValueError:  # a score (or a house rule's count) beyond a byte: patched in below
        parts[0] = bytes(len(numbers))
        vector = np.frombuffer(b"".join(parts), np.uint8).astype(np.float32)
        vector[:len(numbers)] = np.clip(numbers, OBS_LOW, OBS_HIGH)
        return vector
    return np.frombuffer(b"".join(parts), np.uint8).astype(np.float32)


def observation_text(state, viewer: int) -> str:
    """The same information as ``observation`` in a short text (OpenSpiel's observation string)."""
    from azul_core.colours import LETTERS
    from azul_core.engine.state import letters
    players = len(state.players)
    parts = [f"round {state.round} {state.phase}"]
    if state.phase in (DRAFT, PLACE):
        parts.append(f"to move seat+{(state.to_move - viewer) % players}")
    if state.phase == PLACE:
        parts.append(f"placing line {state.placing[1] + 1}")
    factories = " ".join(letters(s) or "-" for s in state.sources[1:])
    centre = letters(state.sources[0]) + ("M" if state.marker_in_centre and state.phase != "deal" else "")
    parts.append(f"factories {factories} | centre {centre or '-'}")
    bag = bag_counts(state)
    parts.append("bag " + " ".join(f"{LETTERS[c]}{bag[c]}" for c in COLOURS)
                 + " | lid " + " ".join(f"{LETTERS[c]}{state.lid[c]}" for c in COLOURS))
    for k in range(players):
        seat = (viewer + k) % players
        board = state.players[seat]
        lines = ",".join(f"{LETTERS[board.line_colour[r]]}{board.line_count[r]}" if board.line_count[r]
                         else "." for r in range(PATTERN_LINES))
        wall = "/".join("".join("." if cell is None else LETTERS[cell] for cell in row) for row in board.wall)
        floor = "".join("M" if t == MARKER else LETTERS[t] for t in board.floor)
        marker = " holds marker" if state.marker_holder == seat else ""
        parts.append(f"seat+{k}: score {board.score} lines {lines} wall {wall} floor {floor or '-'}{marker}")
    return "\n".join(parts)
