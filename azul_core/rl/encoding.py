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
from azul_core.rules import PATTERN_LINES, WALL_SIZE
from azul_core.engine.state import DRAFT, FLOOR, PLACE

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


_ENCODED: dict[tuple, int] = {}
for _s in range(SOURCES):
    for _c in COLOURS:
        for _l in range(DRAFT_LINES):
            _ENCODED[(_s, _c, _l)] = encode((_s, _c, _l))
for _r in range(WALL_SIZE):
    for _col in range(WALL_SIZE):
        _ENCODED[(_r, _col)] = encode((_r, _col))


def legal_actions(state) -> list[int]:
    """The encoded ``state.legal_decisions()``, sorted."""
    return sorted(map(_ENCODED.__getitem__, state.legal_decisions()))


def action_mask(state) -> np.ndarray:
    """An int8 vector of ``NUM_ACTIONS``: 1 where the action is legal now."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    decisions = state.legal_decisions()
    if decisions:
        mask[list(map(_ENCODED.__getitem__, decisions))] = 1
    return mask


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
SEAT_FIELDS = ("score", "floor_tiles", "marker_on_floor", "holds_marker")
TABLE_FIELDS = (("factories", MAX_FACTORIES * COLOUR_COUNT), ("centre", COLOUR_COUNT),
                ("marker_in_centre", 1), ("bag", COLOUR_COUNT), ("lid", COLOUR_COUNT),
                ("round", 1), ("placing_row", PATTERN_LINES))


def observation_layout(players: int) -> list[tuple[str, int, int]]:
    """``(name, start, size)`` of every part of the observation vector, in order."""
    parts = list(TABLE_FIELDS) + [("to_move", players)]
    parts += [(f"seat+{k}.{name}", 1) for k in range(players) for name in SEAT_FIELDS]
    for k in range(players):
        parts += [(f"seat+{k}.lines", LINES_SIZE), (f"seat+{k}.wall", WALL_BLOCK)]
    layout, start = [], 0
    for name, size in parts:
        layout.append((name, start, size))
        start += size
    return layout


def observation_size(players: int) -> int:
    name, start, size = observation_layout(players)[-1]
    return start + size


_ZERO_LINES = np.zeros(LINES_SIZE, np.float32)
_ZERO_WALL = np.zeros(WALL_BLOCK, np.float32)
_NO_SOURCE = [0] * COLOUR_COUNT
_CACHE_LIMIT = 50_000
#: exact content -> block: pure functions of their key, so shared by every game and clone
_lines_blocks: dict[tuple, np.ndarray] = {}
_wall_blocks: dict[tuple, np.ndarray] = {}


def _lines_block(board) -> np.ndarray:
    key = (*board.line_colour, *board.line_count)
    block = _lines_blocks.get(key)
    if block is None:
        block = _ZERO_LINES.copy()
        for row in range(PATTERN_LINES):
            if board.line_count[row]:
                block[row * COLOUR_COUNT + board.line_colour[row]] = board.line_count[row]
        if len(_lines_blocks) > _CACHE_LIMIT:
            _lines_blocks.clear()
        _lines_blocks[key] = block
    return block


def _wall_block(board) -> np.ndarray:
    key = tuple(chain.from_iterable(board.wall))
    block = _wall_blocks.get(key)
    if block is None:
        block = _ZERO_WALL.copy()
        for cell, colour in enumerate(key):
            if colour is not None:
                block[cell * COLOUR_COUNT + colour] = 1.0
        if len(_wall_blocks) > _CACHE_LIMIT:
            _wall_blocks.clear()
        _wall_blocks[key] = block
    return block


def observation(state, viewer: int) -> np.ndarray:
    """The observation vector of ``state`` as ``viewer`` sees it (see ``observation_layout``)."""
    players = len(state.players)
    sources = state.sources
    numbers = list(chain.from_iterable(sources[1:]))
    numbers += _NO_SOURCE * (MAX_FACTORIES - len(sources) + 1)
    numbers += sources[0]
    numbers.append(1 if state.marker_in_centre and state.phase in (DRAFT, PLACE) else 0)
    bag = state.bag
    numbers += (bag.count(0), bag.count(1), bag.count(2), bag.count(3), bag.count(4))
    numbers += state.lid
    numbers.append(state.round)
    placing = [0] * PATTERN_LINES
    if state.phase == PLACE:
        placing[state.placing[1]] = 1
    numbers += placing
    to_move = [0] * players
    if state.phase in (DRAFT, PLACE):
        to_move[(state.to_move - viewer) % players] = 1
    numbers += to_move
    order = [(viewer + k) % players for k in range(players)]
    holder = state.marker_holder
    blocks = [None]
    for seat in order:
        board = state.players[seat]
        floor = board.floor
        score = board.score
        numbers += (OBS_LOW if score < OBS_LOW else OBS_HIGH if score > OBS_HIGH else score,
                    len(floor), 1 if MARKER in floor else 0, 1 if holder == seat else 0)
        blocks.append(_lines_block(board))
        blocks.append(_wall_block(board))
    blocks[0] = np.array(numbers, np.float32)
    return np.concatenate(blocks)


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
    parts.append(f"bag {letters([state.bag.count(c) for c in COLOURS]) or '-'} lid {letters(state.lid) or '-'}")
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
