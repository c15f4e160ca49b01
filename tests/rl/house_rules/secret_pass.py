"""Secret pass: each seat is secretly dealt (or not) the right to pass once in the game (a house
rule of the RL tests: a secret that decides which moves are legal, so a pass tells the others
the passer's secret)."""

from azul_core import hookimpl
from azul_core.rules import Move, Outcome

AZUL_API = 1
__version__ = "1.0"

PASS = Move("pass", label="Pass (once, if your secret allows it)")


@hookimpl
def azul_declare_moves():
    return [PASS]


@hookimpl
def azul_deal_secrets(players, rng):
    return [rng.random() < 0.5 for _ in range(players)]


@hookimpl
def azul_initial_memory(players):
    return (False,) * players  # per seat: passed already?


@hookimpl
def azul_offer_moves(stage, seat, secret, memory):
    if stage == "turn" and secret and not memory[seat]:
        return [PASS]
    return None


@hookimpl
def azul_apply_move(seat, memory):
    return Outcome(memory=memory[:seat] + (True,) + memory[seat + 1:])
