"""The read-only view of a game that a hook asks for with a ``game`` argument.

Built only for a plugin that asks for it, and cheap to build: every figure
is read from the game state when the plugin reads it. Everything returned
is a copy or an immutable value; ``walls`` are the players' own walls, which
are read-only tuples of row tuples, as everywhere.

A view can't change the game: it keeps the state in a closure, not in an
attribute, so nothing a plugin reaches through the view's attributes (or
what they return) is the live game. Only Python's introspection
(``__closure__``, ``gc``) would reach it, which no rule does by accident.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Callable, Mapping, Sequence

#: a line's accepted colours (a bitmask of the colours) as a set
_COLOUR_SETS = [frozenset(colour for colour in range(8) if mask >> colour & 1) for mask in range(256)]


class ReadOnlyView(AttributeError):
    """A plugin tried to set or delete something of a game view or its pattern lines."""


def _refuse_change(self, name: str, value: Any = None) -> None:
    raise ReadOnlyView(f"the game view is read-only: '{name}' can't be changed")


class PatternLines(Sequence):
    """Every seat's pattern lines, read-only: ``lines[seat][row] == (colour or None, count)``.

    Worked out only when a seat is read: most end-of-round questions never need them.
    """

    __slots__ = ("_seats", "_lines_of")

    _seats: int
    _lines_of: Callable[[int], tuple]

    def __init__(self, boards: Sequence):
        set_slot = object.__setattr__
        set_slot(self, "_seats", len(boards))
        # The boards stay in this closure: no attribute hands a plugin a live board.
        set_slot(self, "_lines_of", lambda seat: boards[seat].pattern_lines())

    __setattr__ = __delattr__ = _refuse_change

    def __len__(self) -> int:
        return self._seats

    def __getitem__(self, seat):
        if isinstance(seat, slice):
            return [self[i] for i in range(len(self))[seat]]
        return self._lines_of(seat)


class GameView:
    """What a rule may know about the game it decides in. Seats count from 0.

    ``players`` (how many), ``round_number`` (from 1), ``current`` (the seat
    drafting now), ``first_player`` (who started this round),
    ``marker_holder`` (who took the start marker this round, or ``None``),
    ``marker_in_centre``, ``scores`` (per seat), ``walls``, ``lines`` (per
    seat, its pattern lines as ``(colour or None, count)``), ``floors`` (per
    seat, what lies on it, ``MARKER`` for the start marker), ``factories``
    (per factory, its tile count per kind: the colours, then any extra tiles), ``centre``, ``bag`` and ``lid``
    (tile counts per colour), ``line_capacity`` (per pattern line, its size),
    ``stand_ins`` (per seat, per pattern line, the kinds of the extra tiles
    standing in for its colour there, counted in ``lines`` too: ``()`` for
    none), ``accepts`` (per seat, per pattern line, the colours it takes
    now, as a frozenset: the rules asked, a full line or one tiled this round
    takes none), ``floor_spaces`` (the floor's size), ``size`` (the board's:
    its number of colours, pattern lines, wall rows and columns; 5 in the
    standard game; the floor is line ``size`` in a draft and an ``Outcome.shift``),
    ``colour_names`` (each colour's name, in order), ``tiles_per_factory``
    (how many tiles a deal lays on each factory),
    ``memory`` (every plugin's memory, by plugin name; secrets are not in the
    view: a hook asks for its seat's own with a ``secret`` argument).
    """

    __slots__ = ("_read",)

    _read: Callable[[str], Any]

    def __init__(self, state) -> None:
        # The state stays in this closure, which gives only the figures of _FIGURES (copies
        # or immutable values): the view has no attribute that is the live game.
        object.__setattr__(self, "_read", lambda figure: _FIGURES[figure](state))

    # Nothing of a view is set or deleted, not even by one plugin for the next one asked.
    __setattr__ = __delattr__ = _refuse_change

    def __repr__(self) -> str:
        return f"<GameView round {self.round_number}, scores {list(self.scores)}>"

    @property
    def players(self) -> int:
        return self._read("players")

    @property
    def round_number(self) -> int:
        return self._read("round_number")

    @property
    def current(self) -> int:
        return self._read("current")

    @property
    def first_player(self) -> int:
        return self._read("first_player")

    @property
    def marker_holder(self) -> int | None:
        return self._read("marker_holder")

    @property
    def marker_in_centre(self) -> bool:
        return self._read("marker_in_centre")

    @property
    def scores(self) -> tuple[int, ...]:
        return self._read("scores")

    @property
    def walls(self) -> Sequence:
        return self._read("walls")

    @property
    def lines(self) -> Sequence:
        return self._read("lines")

    @property
    def floors(self) -> tuple[tuple[int, ...], ...]:
        return self._read("floors")

    @property
    def factories(self) -> tuple[tuple[int, ...], ...]:
        return self._read("factories")

    @property
    def centre(self) -> tuple[int, ...]:
        return self._read("centre")

    @property
    def bag(self) -> tuple[int, ...]:
        return self._read("bag")

    @property
    def lid(self) -> tuple[int, ...]:
        return self._read("lid")

    @property
    def memory(self) -> Mapping[str, Any]:
        return self._read("memory")

    @property
    def line_capacity(self) -> tuple[int, ...]:
        return self._read("line_capacity")

    @property
    def stand_ins(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        return self._read("stand_ins")

    @property
    def accepts(self) -> tuple[tuple[frozenset, ...], ...]:
        return self._read("accepts")

    @property
    def floor_spaces(self) -> int:
        return self._read("floor_spaces")

    @property
    def size(self) -> int:
        return self._read("size")

    @property
    def colour_names(self) -> tuple[str, ...]:
        return self._read("colour_names")

    @property
    def tiles_per_factory(self) -> int:
        return self._read("tiles_per_factory")


#: What a view may read of a game state, each a copy or an immutable value.
_FIGURES: dict[str, Callable[[Any], Any]] = {
    # memory values are immutable; the dict itself is read-only here
    "memory": lambda state: MappingProxyType(state.memory),
    "players": lambda state: len(state.players),
    "round_number": lambda state: state.round,
    "current": lambda state: state.current,
    "first_player": lambda state: state.first_player,
    "marker_holder": lambda state: state.marker_holder,
    "marker_in_centre": lambda state: state.marker_in_centre,
    "scores": lambda state: tuple([board.score for board in state.players]),
    "walls": lambda state: tuple([board.wall for board in state.players]),
    "lines": lambda state: PatternLines(state.players),
    "floors": lambda state: tuple([tuple(board.floor) for board in state.players]),
    "factories": lambda state: tuple([tuple(source) for source in state.sources[1:]]),
    "centre": lambda state: tuple(state.sources[0]),
    "bag": lambda state: tuple([state.bag.count(kind) for kind in range(state.kinds)]),
    "lid": lambda state: tuple(state.lid),
    "line_capacity": lambda state: state.rules.capacity,
    "stand_ins": lambda state: tuple([tuple(board.line_extra) for board in state.players]),
    "floor_spaces": lambda state: state.rules.floor_spaces,
    "size": lambda state: state.rules.size,
    "colour_names": lambda state: state.rules.colour_names,
    "tiles_per_factory": lambda state: state.table.tiles_per_factory,
    "accepts": lambda state: tuple([tuple([_COLOUR_SETS[mask] for mask in board.accept])
                                    for board in state.players]),
}
