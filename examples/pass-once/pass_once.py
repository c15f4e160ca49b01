"""Pass once: once per round, a player may pass instead of drafting.

A move the plugin adds (``+pass`` in a record) and a memory of who has
passed this round, which each round's start clears.
"""

from azul_core import hookimpl
from azul_core.rules import Move, Outcome

AZUL_API = 1
__version__ = "1.0"

PASS = Move("pass", label="Pass this turn (once a round)")


@hookimpl
def azul_declare_moves():
    return [PASS]


@hookimpl
def azul_initial_memory(players):
    return (False,) * players  # per seat: passed this round?


@hookimpl
def azul_round_start(game):
    return (False,) * game.players


@hookimpl
def azul_offer_moves(stage, seat, memory):
    if stage == "turn" and not memory[seat]:
        return [PASS]
    return None


@hookimpl
def azul_apply_move(seat, memory):
    return Outcome(memory=memory[:seat] + (True,) + memory[seat + 1:])


@hookimpl
def azul_describe(kind, value, seat, you):
    if kind != "memory" or seat is None:
        return None
    if you:
        return "You have passed this round" if value[seat] else "You may still pass this round"
    return "has passed this round" if value[seat] else "may still pass this round"
