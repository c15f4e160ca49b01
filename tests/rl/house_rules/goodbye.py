"""A phase at the game's end offered to seat 0 alone: it waves goodbye, and the other seats
do nothing (a seat that does not act between the last round's pay and the end bonuses:
tests/rl/test_guard_rl_mutants.py)."""

from azul_core import hookimpl
from azul_core.rules import Move, Outcome, Phase

AZUL_API = 1
WAVE = Move("wave", label="Wave goodbye")


@hookimpl
def azul_declare_phases():
    return [Phase("game_end", words="Seat 1 waves goodbye")]


@hookimpl
def azul_declare_moves():
    return [WAVE]


@hookimpl
def azul_offer_moves(stage, seat):
    return [WAVE] if stage == "game_end" and seat == 0 else None


@hookimpl
def azul_apply_move():
    return Outcome()
