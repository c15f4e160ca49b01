"""Lookup tables of a board's size, for the engine's bitmask arithmetic.

A seat's ``accept_key`` holds, colour-major, one bit per (colour, pattern
line): bit ``size * colour + line``. So the lines that take a colour are the
``size`` bits ``key >> size * colour & full``, and these tables turn such a
field into the drafts it allows. Built once per size and shared.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple


class BoardTables(NamedTuple):
    #: for the bits "line 0..size-1 takes this colour": the lines a draft may name (the floor,
    #: line ``size``, last)
    draft_lines: tuple[tuple[int, ...], ...]
    #: how many lines that is
    draft_count: tuple[int, ...]
    #: scatter[line][colours]: a line's colour mask moved to the colour-major accept_key layout
    scatter: tuple[tuple[int, ...], ...]
    #: accept_key bits that do not belong to a line
    other_lines: tuple[int, ...]
    #: every bit of a colour's field: ``(1 << size) - 1``
    full: int


@lru_cache(maxsize=None)
def board_tables(size: int) -> BoardTables:
    full = (1 << size) - 1
    draft_lines = tuple(tuple(line for line in range(size) if bits >> line & 1) + (size,)
                        for bits in range(full + 1))
    scatter = tuple(tuple(sum(1 << (size * colour + line) for colour in range(size) if colours >> colour & 1)
                          for colours in range(full + 1)) for line in range(size))
    return BoardTables(draft_lines, tuple(len(lines) for lines in draft_lines), scatter,
                       tuple(~scatter[line][full] for line in range(size)), full)
