"""Duel: a two-player variant on the colour wall (``docs/rules/duel.md``).

Not the boxed game "Azul Duel" (2025). Only what differs from the standard
plugin lives here: a full line is tiled at the end of the turn that filled it
and stays closed until the next round (a setting reopens it at once), the
start marker is kept aside, a draft onto a line that can't take it sends the
tiles to the floor, and a placed tile scores 1 plus 1 per tile in its
horizontal and vertical runs. The player count, factories and the 8-space
floor are settings of ``variants/duel.yaml``.
"""

from __future__ import annotations

from azul_core import hookimpl
from azul_core.rules import MarkerRule
from azul_core.settings import Setting
from azul_core.walls import run_lengths

AZUL_API = 1

SCORING_CHOICES = ("neighbours", "standard")
REOPEN_CHOICES = ("next_round", "at_once")


@hookimpl
def azul_declare_settings():
    return [
        Setting("scoring", "str", "neighbours",
                "how a placed tile scores: 'neighbours' (1 for the tile plus 1 per tile in its "
                "horizontal and vertical runs) or 'standard' (the standard run lengths); "
                "the rules can be read either way", choices=SCORING_CHOICES),
        Setting("tiled_line_reopens", "str", "next_round",
                "when a line tiled during a round takes tiles again: 'next_round' (it stays "
                "closed for the rest of the round, so each line reaches the wall at most once a "
                "round) or 'at_once' (a line can be refilled and tiled again in the same round)",
                choices=REOPEN_CHOICES),
    ]


@hookimpl
def azul_tiling_time():
    return "turn"


@hookimpl
def azul_tiled_line_reopens(settings):
    return settings.tiled_line_reopens


@hookimpl
def azul_marker_rule():
    # Only where the marker lies changes; who starts when nobody took it stays the
    # standard plugin's answer (its setting start_without_marker).
    return MarkerRule(placement="aside")


@hookimpl
def azul_misplaced_draft():
    return "floor"


def neighbour_score(wall, row: int, column: int) -> int:
    """1 for the tile, plus 1 per other tile in its horizontal and vertical runs: h + v - 1."""
    across, down = run_lengths(wall, row, column)
    return across + down - 1


@hookimpl
def azul_placement_score(wall, row, column, settings):
    if settings.scoring == "standard":
        return None  # the standard plugin's run-length scoring answers
    return neighbour_score(wall, row, column)
