"""Helpers for rule tests and plugin authors: build a position in a few lines, then play.

A rule test sets up the board it needs, plays record moves and checks the
result:

>>> from azul_core.testing import new_game, set_table, set_wall, play, scores
>>> game = new_game("standard", players=2)
>>> set_wall(game, 0, '''
...     . . . . .
...     x . . . .
...     . . . . .
...     . . . . .
...     . . . . .''')
>>> set_table(game, ["BRRR"])
>>> _ = play(game, ["1B1", "CR-"])  # seat 0: blue to line 1; seat 1: marker and reds to the floor
>>> scores(game)                     # (1,1) joins (2,1): 2; seat 1 loses 6, clamped at 0
[2, 0]

Pictures and strings use the record's letters: ``B Y R K W`` for the
colours, ``.`` for an empty wall space, ``M`` for the start marker on a
floor, and in a wall picture ``x`` for "the tile the rules put here".
Pattern lines, rows and columns are numbered from 1, as in a record.

The board setters take their tiles from the bag (and put replaced ones
back), so the 100 tiles stay accounted for; only ``set_bag`` breaks that,
on purpose.
"""

from __future__ import annotations

import random as _random
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable, Mapping, Sequence

from azul_core.colours import LETTERS, MARKER
from azul_core.engine.compiled import fields_of
from azul_core.engine.notation import parse_record_action
from azul_core.engine.plugins import LoadedPlugin, ask_all, load_plugin, register_plugins
from azul_core.engine.rulebook import Rules
from azul_core.engine.state import CHOOSE, DEAL, DRAFT, DRAW, OVER, PLACE, GameState, IllegalDecision, Wall, wall_with
from azul_core.settings import Settings
from azul_core.variants.loading import Variant, find_variant, load_variant

MARKER_LETTER = "M"
ANY_TILE = "x"

_variants: dict[tuple[str, int], Variant] = {}


# ------------------------------------------------------------------ games


def new_game(variant: str | Path = "standard", players: int = 2, first_player: int | None = 0,
             plugins: Sequence[Any] | None = None, settings: Mapping[str, Any] | None = None,
             decide: Mapping[str, str] | None = None, seed: Any = None) -> GameState:
    """A new game, waiting for its first deal.

    ``first_player`` starts round 1: the default 0 overrides the variant's
    ``azul_first_player`` without asking it; ``None`` lets the rules choose from
    ``seed``, as ``azul play`` and ``azul simulate`` do.

    ``variant`` is a built-in name or a variant file. ``plugins`` are added
    after the variant's own (so they are asked first): a module, an object
    whose methods are hook implementations, or a name ``load_plugin``
    understands. ``settings`` override the variant's values; ``decide`` adds
    to its ``decide`` (needed when an added plugin brings its own wall).

    >>> game = new_game("standard", players=3, settings={"row_bonus": 5})
    >>> len(game.sources) - 1          # 7 factories for 3 players
    7
    """
    base = _load(variant)
    rules = base.rules
    if plugins or settings or decide:
        rules = _rules_with(base, list(plugins or ()), dict(settings or {}), dict(decide or {}))
    if first_player is None:
        first_player = rules.opening_seat(players, seed)
    return GameState(rules, players, first_player)


def _load(ref: str | Path) -> Variant:
    """A loaded variant, reused while its file is unchanged (loading takes ~10 ms)."""
    path = ref if isinstance(ref, Path) else find_variant(str(ref))
    key = (str(Path(path).resolve()), Path(path).stat().st_mtime_ns)
    if key not in _variants:
        _variants[key] = load_variant(Path(path))
    return _variants[key]


def _as_plugin(plugin: Any) -> LoadedPlugin:
    if isinstance(plugin, LoadedPlugin):
        return plugin
    if isinstance(plugin, (str, Path)):
        return load_plugin(str(plugin))
    if isinstance(plugin, ModuleType):
        name = plugin.__name__.rsplit(".", 1)[-1]
    else:
        name = getattr(plugin, "name", None) or type(plugin).__name__
    return LoadedPlugin(str(name), plugin, "test", getattr(plugin, "__version__", ""),
                        getattr(plugin, "__file__", "") or "")


def _rules_with(base: Variant, extra: list, overrides: dict, decide: dict) -> Rules:
    """The variant's rules with extra plugins registered last and settings overridden."""
    pm = register_plugins(base.plugins + [_as_plugin(p) for p in extra])
    declared = {}
    for answer, _plugin in ask_all(pm, "azul_declare_settings"):
        declared.update({setting.name: setting for setting in answer})
    values = {name: setting.default for name, setting in declared.items()}
    values.update({name: value for name, value in base.settings.items() if name in declared})
    for name, value in overrides.items():
        if name not in declared:
            raise ValueError(f"unknown setting '{name}' (declared: {', '.join(sorted(declared))})")
        problem = declared[name].problem(value)
        if problem:
            raise ValueError(problem)
        values[name] = value
    return Rules(pm, Settings(values), name=base.name, decide={**base.decide, **decide},
                 players=base.players)


# ------------------------------------------------------------------ letters


def _colour(letter: str, kind_letters: str = LETTERS) -> int:
    index = kind_letters.find(letter.upper()) if len(letter) == 1 else -1
    if index < 0:
        raise ValueError(f"'{letter}' is not a tile letter (use {' '.join(kind_letters)})")
    return index


def counts_of(text: str, kind_letters: str = LETTERS) -> list[int]:
    """Tile counts of a string of letters: ``counts_of("BBW") == [2, 0, 0, 0, 1]``;
    ``kind_letters`` (``game.table.kind_letters``) for a variant with extra tiles."""
    counts = [0] * len(kind_letters)
    for letter in text.replace(" ", ""):
        counts[_colour(letter, kind_letters)] += 1
    return counts


def _picture_rows(text: str | Sequence[str], size: int = 5) -> list[str]:
    if isinstance(text, str):
        rows = [line.replace(" ", "") for line in text.strip().splitlines() if line.strip()]
    elif isinstance(text, (list, tuple)) and all(isinstance(row, (str, list, tuple)) for row in text):
        # A list of rows: each a string ("B . . . .") or a list of letters, "." or None.
        rows = ["".join("." if cell is None else str(cell) for cell in row).replace(" ", "")
                for row in text]
    else:
        raise ValueError(f"a wall picture is a string of {size} lines or a list of "
                         f"{size} rows, not {type(text).__name__}")
    if len(rows) != size or any(len(row) != size for row in rows):
        raise ValueError(f"a wall picture has {size} lines of {size} spaces, got {rows}")
    return rows


def wall_from(text: str, kind_letters: str = LETTERS) -> Wall:
    """A read-only wall (n row tuples of colour or ``None``), as hooks are given it, from a
    picture of letters and dots (``kind_letters``: ``game.table.kind_letters`` on a board of
    other colours; the picture's size is their number).

    >>> wall_from('''
    ...     B Y . . .
    ...     . . . . .
    ...     . . . . .
    ...     . . . . .
    ...     . . . . .''')[0]
    (0, 1, None, None, None)
    """
    wall = []
    for row in _picture_rows(text, len(kind_letters)):
        if ANY_TILE in row.lower():
            raise ValueError("'x' needs the rules to say which tile: use set_wall(state, seat, picture)")
        wall.append(tuple(None if cell == "." else _colour(cell, kind_letters) for cell in row))
    return tuple(wall)


def wall_text(state: GameState, seat: int) -> str:
    """A player's wall as a picture (the format ``wall_from`` reads)."""
    letters = state.table.kind_letters
    return "\n".join(" ".join("." if cell is None else letters[cell] for cell in row)
                     for row in state.players[seat].wall)


# ------------------------------------------------------------------ tiles in and out of the bag


def _take_from_bag(state: GameState, counts: Sequence[int], what: str) -> None:
    names = state.table.kind_names
    for colour, count in enumerate(counts):
        if state.bag.count(colour) < count:
            raise ValueError(f"{what}: needs {count} {names[colour]} tiles, "
                             f"the bag has {state.bag.count(colour)}")
    for colour, count in enumerate(counts):
        for _ in range(count):
            state.bag.remove(colour)


def _return_to_bag(state: GameState, counts: Sequence[int]) -> None:
    for colour, count in enumerate(counts):
        state.bag.extend([colour] * count)


# ------------------------------------------------------------------ board setters


def set_wall(state: GameState, seat: int, text: str | Sequence[str]) -> None:
    """Give player ``seat`` the wall in the picture; ``x`` is whatever tile the rules put there.

    The picture is a string of 5 lines or a list of 5 rows (``["B....", ...]``,
    or rows as lists of letters with ``.`` or ``None`` for an empty space);
    as many as the board's size on a board of other colours.

    Checks that the rules allow every tile where it stands, and keeps the
    pattern lines' accepted colours in step with the new wall rows.

    >>> game = new_game()
    >>> set_wall(game, 0, "x....\\nx....\\n.....\\n.....\\n.....")
    >>> wall_text(game, 0).splitlines()[1]
    'W . . . .'
    """
    rules = state.rules
    board = state.players[seat]
    size, letters, names = rules.size, state.table.kind_letters[:rules.size], rules.colour_names
    wall: Wall = ((None,) * size,) * size  # read-only, as the rules are given it
    for row, cells in enumerate(_picture_rows(text, size)):
        for column, cell in enumerate(cells):
            if cell == ".":
                continue
            if cell.lower() == ANY_TILE:
                fits = [c for c in range(size)
                        if c not in wall[row] and column in rules.wall_spaces(wall, row, c, seat, state)]
                if not fits:
                    raise ValueError(f"wall row {row + 1} column {column + 1}: no tile fits there")
                wall = wall_with(wall, row, column, fits[0])
                continue
            colour = _colour(cell, letters)
            if colour in wall[row] or column not in rules.wall_spaces(wall, row, colour, seat, state):
                raise ValueError(f"wall row {row + 1} column {column + 1}: the rules put no "
                                 f"{names[colour]} tile there")
            wall = wall_with(wall, row, column, colour)
    _return_to_bag(state, _wall_counts(board.wall))
    _take_from_bag(state, _wall_counts(wall), "set_wall")
    board.wall = wall
    board.wall_rows = [sum(1 << c for c in row if c is not None) for row in wall]
    _refresh_accept(state, board)


def _wall_counts(wall) -> list[int]:
    return [sum(row.count(colour) for row in wall) for colour in range(len(wall))]


def _refresh_accept(state: GameState, board) -> None:
    for row in range(state.rules.size):
        board.refresh_accept(state.rules, row)


def set_lines(state: GameState, seat: int, lines: Mapping[int, str]) -> None:
    """Fill pattern lines (numbered 1 to 5) of ``seat``: ``{1: "B", 3: "RR"}``; ``""`` empties one.

    Lines not named are left as they are. A line must hold one colour that
    its wall row does not have yet (``set_wall`` first).

    >>> game = new_game()
    >>> set_lines(game, 0, {3: "RR"})
    >>> lines_of(game, 0)
    {3: 'RR'}
    """
    board = state.players[seat]
    kind_letters = state.table.kind_letters
    colour_letters = kind_letters[:state.rules.size]
    for number, text in lines.items():
        row = number - 1
        if not 0 <= row < state.rules.size:
            raise ValueError(f"there is no pattern line {number}")
        text = text.replace(" ", "").upper()
        stand_ins = tuple(_colour(letter, kind_letters) for letter in text if letter not in colour_letters)
        if len(set(letter for letter in text if letter in colour_letters)) > 1 or \
                (text and text[0] not in colour_letters):
            raise ValueError(f"pattern line {number} holds one colour (its first letter), and "
                             f"extra tiles standing in for it, not '{text}'")
        capacity = state.rules.capacity[row]
        if len(text) > capacity:
            raise ValueError(f"pattern line {number} holds {capacity} tiles, not {len(text)}")
        if text and board.wall_rows[row] >> _colour(text[0], kind_letters) & 1:
            raise ValueError(f"pattern line {number}: wall row {number} already has "
                             f"{state.rules.colour_names[_colour(text[0], kind_letters)]}")
        if board.line_count[row]:
            _return_to_bag(state, counts_of(lines_of(state, seat)[number], kind_letters))
            board.line_count[row], board.line_colour[row], board.line_extra[row] = 0, -1, ()
        _take_from_bag(state, counts_of(text, kind_letters), f"set_lines line {number}")
        if text:
            board.line_colour[row], board.line_count[row] = _colour(text[0], kind_letters), len(text)
            board.line_extra[row] = stand_ins
    _refresh_accept(state, board)


def lines_of(state: GameState, seat: int) -> dict[int, str]:
    """The pattern lines of ``seat`` that hold tiles, by number: ``{3: "RR"}``."""
    board, kind_letters = state.players[seat], state.table.kind_letters
    return {row + 1: kind_letters[board.line_colour[row]] * (board.line_count[row] - len(board.line_extra[row]))
            + "".join(kind_letters[kind] for kind in board.line_extra[row])
            for row in range(state.rules.size) if board.line_count[row]}


def set_floor(state: GameState, seat: int, text: str) -> None:
    """Put tiles on the floor of ``seat``, left to right; ``M`` is the start marker
    (which then leaves the centre and belongs to ``seat``).

    >>> game = new_game()
    >>> set_floor(game, 1, "MBB")
    >>> floor_of(game, 1), game.marker_holder
    ('MBB', 1)
    """
    board = state.players[seat]
    text = text.replace(" ", "")
    if len(text) > state.rules.floor_spaces:
        raise ValueError(f"the floor has {state.rules.floor_spaces} spaces, not {len(text)}")
    kind_letters = state.table.kind_letters
    _return_to_bag(state, [board.floor.count(c) for c in range(state.kinds)])
    tiles = "".join(letter for letter in text if letter.upper() != MARKER_LETTER)
    _take_from_bag(state, counts_of(tiles, kind_letters), "set_floor")
    board.floor = [MARKER if letter.upper() == MARKER_LETTER else _colour(letter, kind_letters)
                   for letter in text]
    if MARKER in board.floor:
        state.marker_in_centre = False
        state.marker_holder = seat


def floor_of(state: GameState, seat: int) -> str:
    """The floor of ``seat`` as letters, ``M`` for the marker."""
    kind_letters = state.table.kind_letters
    return "".join(MARKER_LETTER if tile == MARKER else kind_letters[tile] for tile in state.players[seat].floor)


def set_bag(state: GameState, bag: str = "", lid: str = "") -> None:
    """Make the bag and the lid hold exactly these tiles (to test filling the factories).

    The tiles not named leave the game, so ``tile_counts()`` no longer adds up to 100.
    """
    state.bag = [_colour(letter, state.table.kind_letters) for letter in bag.replace(" ", "")]
    state.lid = counts_of(lid, state.table.kind_letters)


# ------------------------------------------------------------------ the table


def deal(state: GameState, factories: Sequence[str]) -> None:
    """Fill the factories with these tiles (``["BBYR", "KKWW", ...]``), as a replay would.

    Factories not listed stay empty. The engine checks the fill could have
    been drawn (``IllegalDecision`` otherwise): the tiles must be in the bag
    and every factory gets 4 while tiles remain.
    """
    counts = [counts_of(text, state.table.kind_letters) for text in factories]
    missing = len(state.sources) - 1 - len(counts)
    state.deal_tiles(counts + [[0] * state.kinds for _ in range(missing)])


def set_table(state: GameState, factories: Sequence[str] = (), centre: str = "",
              marker_in_centre: bool = True) -> None:
    """Lay a drafting position directly, whatever the bag would give: factories 1, 2, ...
    from the list (the rest empty) and the centre. The round's first player is to move.

    >>> game = new_game()
    >>> set_table(game, ["RRBB"], centre="K")
    >>> len(game.legal_decisions())    # 3 colours x (5 lines + floor)
    18
    """
    if state.phase not in (DEAL, DRAFT):
        raise ValueError(f"a table is laid for drafting, not during the {state.phase} phase")
    if len(factories) > len(state.sources) - 1:
        raise ValueError(f"{len(factories)} factories given, the table has {len(state.sources) - 1}")
    kinds, kind_letters = range(state.kinds), state.table.kind_letters
    _return_to_bag(state, [sum(source[c] for source in state.sources) for c in kinds])
    laid = [counts_of(centre, kind_letters)] + [counts_of(text, kind_letters) for text in factories]
    laid += [[0] * state.kinds for _ in range(len(state.sources) - len(laid))]
    _take_from_bag(state, [sum(source[c] for source in laid) for c in kinds], "set_table")
    total = sum(map(sum, laid))
    if not total:
        raise ValueError("set_table needs at least one tile on the table")
    state.sources = laid
    holder = state.marker_holder if state.phase == DRAFT else None
    state._start_drafting(total)
    if not marker_in_centre:
        state.marker_in_centre = False
        state.marker_holder = holder


# ------------------------------------------------------------------ playing


class MoveRefused(IllegalDecision):
    """A move given to ``play`` that the rules refuse (or that is not a move)."""


def play(state: GameState, moves: Iterable[str] | str) -> GameState:
    """Play record moves (``["1B3", "CK-", "w1:2"]`` or ``"1B3 CK- w1:2"``) in turn order.
    Where a rule draws tiles from the bag (``rules.Draw``), the tiles it drew come as a
    record writes them (``~RRB``).

    An illegal move raises ``MoveRefused`` (an ``IllegalDecision``) naming the
    move, the seat and the rule; the moves before it stay played.

    >>> game = new_game()
    >>> set_table(game, ["RRBB"])
    >>> set_lines(game, 0, {2: "B"})
    >>> play(game, "1R2")
    Traceback (most recent call last):
      ...
    azul_core.testing.MoveRefused: move 1 '1R2' by seat 0: pattern line 2 holds blue
    """
    if isinstance(moves, str):
        moves = moves.split()
    for number, text in enumerate(moves, 1):
        seat = state.to_move
        try:
            decision = parse_record_action(text, state.rules.colour_letters, state.table.kind_letters,
                                           state.rules.colour_names)
            if state.phase == DEAL:
                raise IllegalDecision("the factories must be filled first (deal or set_table)")
            state.apply(decision)
        except (IllegalDecision, ValueError) as exc:
            raise MoveRefused(f"move {number} '{text}' by seat {seat}: {exc}") from exc
    return state


def snapshot(state: GameState) -> tuple:
    """Everything in a game that a decision could change, to check that one changed nothing.

    >>> game = new_game()
    >>> before = snapshot(game)
    >>> snapshot(game.clone()) == before
    True
    """
    def fields(obj, skip=()):
        return tuple(repr(getattr(obj, name)) for name in fields_of(type(obj)) if name not in skip)
    return fields(state, skip=("rules", "table", "players")) + tuple(fields(b) for b in state.players)


def scores(state: GameState) -> list[int]:
    """Every player's score, in seat order."""
    return state.scores()


def winners(state: GameState) -> list[int]:
    """The winning seats of a finished game (several on a shared victory); ``[]`` before its end."""
    return list(state.winners)


def round_scores(state: GameState) -> list[list[int]]:
    """Every seat's score after each round's tiling and penalties, round 1 first.

    >>> game = new_game()
    >>> _ = run_round(game, seed=1)
    >>> len(round_scores(game)), len(round_scores(game)[0])
    (1, 2)
    """
    return [list(scores) for scores in state.round_scores]


def table_of(state: GameState) -> dict[str, Any]:
    """The table as letters: the factories (factory 1 first), the centre, whether the start
    marker is still there, the bag, the lid and the tiles out of the game.

    >>> game = new_game()
    >>> set_table(game, ["RRBB"], centre="K")
    >>> table_of(game)["factories"][:2], table_of(game)["centre"]
    (['BBRR', ''], 'K')
    """
    kind_letters = state.table.kind_letters

    def text(counts):
        return "".join(kind_letters[c] * count for c, count in enumerate(counts))
    return {"factories": [text(source) for source in state.sources[1:]],
            "centre": text(state.sources[0]), "marker_in_centre": state.marker_in_centre,
            "bag": text([state.bag.count(c) for c in range(state.kinds)]), "lid": text(state.lid),
            "out": text(state.removed)}


def first_player(state: GameState) -> int:
    """The seat that starts the current round (round 1: as ``new_game`` or the rules chose)."""
    return state.first_player


def run_round(state: GameState, seed: int = 0) -> GameState:
    """Finish the current round with random legal decisions (dealing at random first if
    the factories are empty). Stops when the next round waits for its deal or the game is over."""
    rng = _random.Random(seed)
    if state.phase == DEAL:
        state.deal(rng)
    while state.phase in (DRAFT, PLACE, CHOOSE, DRAW):
        state.apply(state.random_decision(rng.random))
    return state


def play_out(state: GameState, seed: int = 0, max_decisions: int = 10_000) -> GameState:
    """Play random legal decisions (and random deals) until the game is over."""
    rng = _random.Random(seed)
    for _ in range(max_decisions):
        if state.phase == OVER:
            return state
        if state.phase == DEAL:
            state.deal(rng)
        else:
            state.apply(state.random_decision(rng.random))
    raise AssertionError(f"the game did not end within {max_decisions} decisions")


__all__ = ["new_game", "wall_from", "wall_text", "set_wall", "set_lines", "lines_of", "set_floor",
           "floor_of", "set_bag", "counts_of", "deal", "set_table", "play", "MoveRefused", "scores",
           "winners", "round_scores", "table_of", "first_player", "run_round", "play_out"]
