"""Tiles a plugin's outcome moves from one place to another (``rules.Transfer``).

Each transfer is checked against the rules of its two places and carried out
at once: the source must hold the tiles, the target must take them. A
transfer only moves tiles, so none is ever made or lost. The caller runs a
whole outcome on a game it restores when one transfer is refused, so an
outcome's transfers happen all or not at all.
"""

from __future__ import annotations

from typing import Any, Final

from azul_core.rules import PLACE_KINDS, Place, Transfer

#: A shift's target line that stands for the seat's floor (``Outcome.shift``) on the standard
#: game's board: the line after the last (``rules.floor_line``, the board's size, in general).
SHIFT_TO_FLOOR: Final = 5

#: The most transfers one outcome may make, and the most tiles one transfer may move.
MAX_TRANSFERS: Final = 32
MAX_TRANSFER_COUNT: Final = 200


def transfer_problem(transfer: Any) -> str | None:
    """Why ``transfer`` is not a well-formed ``Transfer`` (whatever the game), or None."""
    if not isinstance(transfer, Transfer):
        return f"expected a Transfer, not {type(transfer).__name__}"
    for place in (transfer.source, transfer.target):
        if not isinstance(place, Place) or place.what not in PLACE_KINDS:
            return f"{place!r} is not a Place ({', '.join(PLACE_KINDS)})"
        if any(value is not None and value.__class__ is not int
               for value in (place.seat, place.number, place.column)):
            return f"{place!r}: seat, number and column must be whole numbers"
    if transfer.kind.__class__ is not int or transfer.count.__class__ is not int:
        return "kind and count must be whole numbers"
    if not 1 <= transfer.count <= MAX_TRANSFER_COUNT:
        return f"count must be from 1 to {MAX_TRANSFER_COUNT}"
    if transfer.source == transfer.target:
        return f"{transfer.source} is both the source and the target"
    return None


def carry_out(state, transfer: Transfer) -> str | None:
    """Move the tiles of ``transfer`` in ``state``; why it can't be done, or None (a refused
    transfer may have taken its tiles already: the caller restores the game)."""
    kind, count = transfer.kind, transfer.count
    if not 0 <= kind < state.kinds:
        return f"there is no kind of tile {kind}"
    why = place_problem(state, transfer.source) or place_problem(state, transfer.target)
    if why:
        return why
    why = _take(state, transfer.source, kind, count) or _put_problem(state, transfer.target, kind, count)
    if why:
        return why
    put(state, transfer.target, kind, count)
    return None


def describe_transfer(state, transfer: Transfer) -> str:
    """A transfer in words: ``1 red from pattern line 3 of seat 1 to pattern line 3 of seat 0``."""
    kinds = state.table.kind_names
    kind = kinds[transfer.kind] if 0 <= transfer.kind < len(kinds) else f"kind {transfer.kind}"
    return f"{transfer.count} {kind} from {transfer.source} to {transfer.target}"


def place_problem(state, place: Place) -> str | None:
    """Why ``place`` is not a place of this game (no such seat, line or factory), or None."""
    what = place.what
    if what in ("line", "floor", "wall"):
        if place.seat is None or not 0 <= place.seat < len(state.players):
            return f"there is no seat {place.seat}"
        size = state.rules.size
        if what != "floor" and not 0 <= place.number < size:
            return f"there is no {'pattern line' if what == 'line' else 'wall row'} {place.number + 1}"
        if what == "wall" and not 0 <= place.column < size:
            return f"there is no wall column {place.column + 1}"
    elif what == "factory" and not 1 <= place.number < len(state.sources):
        return f"there is no factory {place.number}"
    return None


def _name(state, kind: int) -> str:
    return state.table.kind_names[kind]


def _put_problem(state, place: Place, kind: int, count: int) -> str | None:
    """Why ``place`` can't take ``count`` tiles of ``kind`` now (they are taken already)."""
    if place.what == "line":
        board, row = state.players[place.seat], place.number
        room = state.rules.capacity[row] - board.line_count[row]
        if kind < state.rules.size:
            if not board.accept[row] >> kind & 1:
                return state.why_not(place.seat, kind, row).replace(
                    f"pattern line {row + 1}", str(place), 1)
        else:
            own = board.line_count[row] - len(board.line_extra[row])
            colour = board.line_colour[row]
            stands_in = state.rules.stands_in
            if not own or stands_in is None or not stands_in(kind, colour, row, place.seat, state):
                return f"{_name(state, kind)} tiles can't stand in on {place}"
        if room < count:
            return f"{place} has room for {room}"
    elif place.what == "wall":
        board, row, column = state.players[place.seat], place.number, place.column
        if count != 1 or kind >= state.rules.size:
            return f"{place} takes one tile of a colour"
        if board.wall[row][column] is not None:
            return f"{place} already holds a tile"
        if column not in state.rules.wall_spaces(board.wall, row, kind, place.seat, state):
            return f"the wall of seat {place.seat} takes no {_name(state, kind)} tile at ({row + 1}, {column + 1})"
    return None


def _take(state, place: Place, kind: int, count: int) -> str | None:
    what = place.what
    if what == "bag":
        held = state.bag.count(kind)
        if held < count:
            return f"the bag holds {held} {_name(state, kind)}"
        for _ in range(count):
            state.bag.remove(kind)
    elif what in ("lid", "box"):
        pile = state.lid if what == "lid" else state.removed
        if pile[kind] < count:
            return f"the {what} holds {pile[kind]} {_name(state, kind)}"
        pile[kind] -= count
    elif what in ("factory", "centre"):
        source = state.sources[place.number if what == "factory" else 0]
        if source[kind] < count:
            return f"{place} holds {source[kind]} {_name(state, kind)}"
        source[kind] -= count
        if not source[kind]:
            state.colour_sources[kind] -= 1
        state.tiles_on_table -= count
    elif what == "line":
        return _take_from_line(state, place, kind, count)
    elif what == "floor":
        floor = state.players[place.seat].floor
        if floor.count(kind) < count:
            return f"{place} holds {floor.count(kind)} {_name(state, kind)}"
        for _ in range(count):
            # The rightmost: the tiles left keep their spaces (and the marker its own).
            del floor[len(floor) - 1 - floor[::-1].index(kind)]
    else:  # a wall space
        board, row, column = state.players[place.seat], place.number, place.column
        if count != 1 or board.wall[row][column] != kind:
            return f"{place} does not hold {'a' if count == 1 else count} {_name(state, kind)}"
        board.wall = wall_with(board.wall, row, column, None)
        board.wall_rows[row] &= ~(1 << kind)
        board.refresh_accept(state.rules, row)
    return None


def _take_from_line(state, place: Place, kind: int, count: int) -> str | None:
    board, row = state.players[place.seat], place.number
    extra = board.line_extra[row]
    held = board.line_count[row]
    colour = board.line_colour[row]
    if not held:
        return f"{place} is empty"
    if kind == colour:
        own = held - len(extra)
        if own < count or (extra and own == count):
            if extra:
                return (f"{place} holds {own} {_name(state, kind)} and {len(extra)} standing in for it: "
                        f"at most {own - 1} can move")
            return f"{place} holds {own} {_name(state, kind)}"
    else:
        if extra.count(kind) < count:
            return f"{place} holds {extra.count(kind) if kind >= state.rules.size else 0} {_name(state, kind)}"
        kept = list(extra)
        for _ in range(count):
            kept.remove(kind)
        board.line_extra[row] = tuple(kept)
    board.line_count[row] -= count
    if not board.line_count[row]:
        board.line_colour[row] = -1
    board.refresh_accept(state.rules, row)
    return None


def put(state, place: Place, kind: int, count: int) -> None:
    """Lay ``count`` tiles of ``kind`` on ``place``, checked to take them (a draw's places take
    any tile)."""
    what = place.what
    if what == "bag":
        state.bag.extend([kind] * count)
    elif what == "lid":
        state.lid[kind] += count
    elif what == "box":
        state.removed[kind] += count
    elif what in ("factory", "centre"):
        source = state.sources[place.number if what == "factory" else 0]
        if not source[kind]:
            state.colour_sources[kind] += 1
        source[kind] += count
        state.tiles_on_table += count
    elif what == "line":
        board, row, rules = state.players[place.seat], place.number, state.rules
        if kind < rules.size:
            board.line_colour[row] = kind
        else:
            board.line_extra[row] = board.line_extra[row] + (kind,) * count
        board.line_count[row] += count
        board.refresh_accept(rules, row)
        if rules.tile_at_turn_end and board.line_count[row] == rules.capacity[row] and \
                (place.seat, row) not in state.pending:
            state.pending.append((place.seat, row))
    elif what == "floor":
        state._to_floor(state.players[place.seat], kind, count)
    else:  # a wall space, checked to take it
        board, row = state.players[place.seat], place.number
        board.wall = wall_with(board.wall, row, place.column, kind)
        board.wall_rows[row] |= 1 << kind
        board.refresh_accept(state.rules, row)


def wall_with(wall, row: int, column: int, colour: int | None):
    """A copy of the read-only ``wall`` with ``colour`` at (``row``, ``column``)."""
    cells = wall[row]
    return wall[:row] + (cells[:column] + (colour,) + cells[column + 1:],) + wall[row + 1:]


def shift_transfer(state, seat: int, shift: tuple[int, int, int]) -> Transfer:
    """An outcome's ``shift`` ``(from_line, to_line, count)`` as the transfer it stands for."""
    source, target, count = shift
    board = state.players[seat]
    colour = board.line_colour[source] if source < len(board.line_count) and board.line_count[source] else 0
    return Transfer(Place("line", seat, source),
                    Place("floor", seat) if target == state.rules.floor_line else Place("line", seat, target),
                    colour, count)

