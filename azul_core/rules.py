"""The value types and sizes a rule plugin works with.

Part of the public plugin API: ``TableSetup`` (the answer of
``azul_game_setup``), ``MarkerRule`` (the answer of ``azul_marker_rule``) and
the fixed board sizes. The variant resolved for play, ``Rules``, lives in the
engine (``azul_core.engine.rulebook``).
"""

from __future__ import annotations

from dataclasses import dataclass

PATTERN_LINES = 5
WALL_SIZE = 5


@dataclass(frozen=True)
class TableSetup:
    """What is laid out for a given number of players."""

    factories: int
    tiles_per_factory: int = 4
    tiles_per_colour: int = 20


@dataclass(frozen=True)
class MarkerRule:
    """What taking the start marker does (the answer of ``azul_marker_rule``).

    placement: ``"floor"`` (leftmost free floor space, counts like a tile) or
        ``"aside"`` (kept in front of its holder, no space, no cost).
    full_floor: with ``"floor"``, what happens when the floor is full:
        ``"keep"`` (taken all the same, no space, no extra cost) or ``"bump"``
        (it takes the last space; the tile there is discarded like a full
        floor's overflow, see ``azul_discard_pile``).
    unclaimed: who starts the next round when nobody took it: ``"same"``
        player again or the ``"next"`` seat.

    A part left ``None`` is no opinion: the next plugin's answer fills it, so
    a plugin can change one part and leave the others to their owner.
    """

    placement: str | None = None
    full_floor: str | None = None
    unclaimed: str | None = None

    CHOICES = {"placement": ("floor", "aside"), "full_floor": ("keep", "bump"),
               "unclaimed": ("same", "next")}
