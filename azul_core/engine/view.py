"""The read-only view of a game that a hook asks for with a ``game`` argument.

Built only for a plugin that asks for it, and cheap to build: every figure
is read from the game state when the plugin reads it. Everything returned
is a copy or an immutable value; ``walls`` are the players' own walls, which
are read-only tuples of row tuples, as everywhere.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Sequence

from azul_core.colours import COLOURS


class PatternLines(Sequence):
    """Every seat's pattern lines, read-only: ``lines[seat][row] == (colour or None, count)``.

    Worked out only when a seat is read: most end-of-round questions never need them.
    """

    __slots__ = ("_boards",)

    def __init__(self, boards: Sequence):
        self._boards = boards

    def __len__(self) -> int:
        return len(self._boards)

    def __getitem__(self, seat):
        if isinstance(seat, slice):
            return [self[i] for i in range(len(self))[seat]]
        board = self._boards[seat]
        return tuple([(colour if count else None, count)
                      for colour, count in zip(board.line_colour, board.line_count)])


class GameView:
    """What a rule may know about the game it decides in. Seats count from 0.

    ``players`` (how many), ``round_number`` (from 1), ``current`` (the seat
    drafting now), ``first_player`` (who started this round),
    ``marker_holder`` (who took the start marker this round, or ``None``),
    ``marker_in_centre``, ``scores`` (per seat), ``walls``, ``lines`` (per
    seat, its pattern lines as ``(colour or None, count)``), ``floors`` (per
    seat, what lies on it, ``MARKER`` for the start marker), ``factories``
    (per factory, its tile count per colour), ``centre``, ``bag`` and ``lid``
    (tile counts per colour), ``line_capacity`` (per pattern line, its size),
    ``memory`` (every plugin's memory, by plugin name; secrets are not in the
    view: a hook asks for its seat's own with a ``secret`` argument).
    """

    __slots__ = ("_state",)

    def __init__(self, state) -> None:
        self._state = state

    def __repr__(self) -> str:
        return f"<GameView round {self.round_number}, scores {list(self.scores)}>"

    @property
    def players(self) -> int:
        return len(self._state.players)

    @property
    def round_number(self) -> int:
        return self._state.round

    @property
    def current(self) -> int:
        return self._state.current

    @property
    def first_player(self) -> int:
        return self._state.first_player

    @property
    def marker_holder(self) -> int | None:
        return self._state.marker_holder

    @property
    def marker_in_centre(self) -> bool:
        return self._state.marker_in_centre

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple([board.score for board in self._state.players])

    @property
    def walls(self) -> Sequence:
        return tuple([board.wall for board in self._state.players])

    @property
    def lines(self) -> Sequence:
        return PatternLines(self._state.players)

    @property
    def floors(self) -> tuple[tuple[int, ...], ...]:
        return tuple([tuple(board.floor) for board in self._state.players])

    @property
    def factories(self) -> tuple[tuple[int, ...], ...]:
        return tuple([tuple(source) for source in self._state.sources[1:]])

    @property
    def centre(self) -> tuple[int, ...]:
        return tuple(self._state.sources[0])

    @property
    def bag(self) -> tuple[int, ...]:
        bag = self._state.bag
        return tuple([bag.count(colour) for colour in COLOURS])

    @property
    def lid(self) -> tuple[int, ...]:
        return tuple(self._state.lid)

    @property
    def memory(self) -> Mapping[str, Any]:
        return MappingProxyType(self._state.memory)

    @property
    def line_capacity(self) -> tuple[int, ...]:
        return self._state.rules.capacity
