"""Take a tile: once per game, instead of drafting, a player may take the top tile of an
opponent's unfinished pattern line. It goes to the same line of their own board if that
line takes it, else to their floor.

A move on another player's board: its outcome moves a tile between two places
(``Transfer`` from the opponent's line to the mover's line or floor), and the
engine checks that the tile is there and that its new place takes it.
"""

from azul_core import hookimpl
from azul_core.rules import Move, Outcome, Transfer, floor, line

AZUL_API = 1
__version__ = "1.0"

WHOSE = {1: "the next player", 2: "the player two seats on", 3: "the player three seats on"}
TAKES = {(ahead, row): Move("take", (ahead, row), label=f"Take a tile from line {row + 1} of {WHOSE[ahead]}")
         for ahead in WHOSE for row in range(5)}


@hookimpl
def azul_declare_moves():
    return list(TAKES.values())


@hookimpl
def azul_initial_memory(players):
    return (False,) * players  # per seat: has it taken its tile?


@hookimpl
def azul_offer_moves(stage, seat, game, memory):
    if stage != "turn" or memory[seat]:
        return None
    offers = []
    for ahead in range(1, game.players):
        other = (seat + ahead) % game.players
        for row, (colour, count) in enumerate(game.lines[other]):
            standing = len(game.stand_ins[other][row])  # a tile of the colour stays with them
            if colour is not None and count < game.line_capacity[row] and count - standing > (standing > 0):
                offers.append(TAKES[ahead, row])
    return offers


@hookimpl
def azul_apply_move(move, seat, game, memory):
    ahead, row = move.args
    other = (seat + ahead) % game.players
    colour = game.lines[other][row][0]
    target = line(seat, row) if colour in game.accepts[seat][row] else floor(seat)
    return Outcome(memory=memory[:seat] + (True,) + memory[seat + 1:],
                   transfers=(Transfer(line(other, row), target, colour),))


@hookimpl
def azul_describe(kind, value, seat, you):
    if kind != "memory" or seat is None:
        return None
    if you:
        return "You have taken your tile" if value[seat] else "You may still take a tile"
    return "has taken its tile" if value[seat] else "may still take a tile"
