"""After every turn and at every round's start and end, each seat thinks things over: it
chooses to ponder, again and again, as long as the engine lets it (a house rule of the RL tests:
the longest phases a variant may have)."""

from azul_core import hookimpl
from azul_core.rules import Move, Outcome, Phase

AZUL_API = 1
__version__ = "1.0"

PONDER = Move("ponder", label="Ponder once more")


@hookimpl
def azul_declare_phases():
    return [Phase("round_start"), Phase("after_turn"), Phase("round_end"), Phase("game_end")]


@hookimpl
def azul_declare_moves():
    return [PONDER]


@hookimpl
def azul_offer_moves(stage):
    return [PONDER] if stage != "turn" and stage != "after_draft" else None


@hookimpl
def azul_apply_move():
    return Outcome(ends_turn=False)
