"""Colour bid: at the start of each round every player secretly picks a colour; the picks
are revealed together, and each player's tiles of the colour they picked score double this
round.

A phase chosen at once, in secret (``Phase("round_start", at_once=True)``):
nobody sees another's pick (their page, bot or record) before every seat has
picked, and the picks are carried out together; no cryptography needed.
"""

from azul_core import hookimpl
from azul_core.rules import Move, Outcome, Phase

AZUL_API = 1
__version__ = "1.0"

COLOURS = ("blue", "yellow", "red", "black", "white")
PICKS = [Move("pick", (colour,), label=f"Pick {name}: double points for it this round")
         for colour, name in enumerate(COLOURS)]


@hookimpl
def azul_declare_phases():
    return [Phase("round_start", at_once=True, words="Choose a colour whose tiles score double for you this round")]


@hookimpl
def azul_declare_moves():
    return PICKS


@hookimpl
def azul_initial_memory(players):
    return (None,) * players  # per seat: the colour it picked this round


@hookimpl
def azul_round_start(game):
    return (None,) * game.players


@hookimpl
def azul_offer_moves(stage):
    return PICKS if stage == "round_start" else None


@hookimpl
def azul_apply_move(move, seat, memory):
    return Outcome(memory=memory[:seat] + (move.args[0],) + memory[seat + 1:])


@hookimpl
def azul_placement_score(wall, row, column, seat, memory, answer):
    if answer is None or memory is None or memory[seat] != wall[row][column]:
        return None
    return 2 * answer


@hookimpl
def azul_describe(kind, value, seat, you):
    if kind != "memory" or seat is None:
        return None
    picked = value[seat]  # set only once every seat has picked: nothing sealed is told
    if picked is None:
        return "You have picked no colour yet this round" if you else "has picked no colour yet this round"
    if you:
        return f"Your colour this round: {COLOURS[picked]}, double points"
    return f"picked {COLOURS[picked]} this round: double points for it"
