"""After each turn the seat burns a tile: one drawn from the bag into the box, for no points.
The burn after a round's last draft ends the round once the tile is drawn (a rule's draw that
ends a round: tests/rl/test_guard_rl_mutants.py, tests/test_score_sources.py)."""

from azul_core import hookimpl
from azul_core.rules import BOX, Draw, Move, Outcome, Phase

AZUL_API = 1
BURN = Move("burn", label="Burn a tile from the bag")


@hookimpl
def azul_declare_phases():
    return [Phase("after_turn", words="Burn a tile from the bag")]


@hookimpl
def azul_declare_moves():
    return [BURN]


@hookimpl
def azul_offer_moves(stage):
    return [BURN] if stage == "after_turn" else None


@hookimpl
def azul_apply_move():
    return Outcome(draws=(Draw(BOX),))
