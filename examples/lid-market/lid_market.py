"""Lid market: at the round's end, after the wall tiling, each player in turn may buy one
tile from the lid for 2 points and put it on a pattern line that takes it.

A phase at the round's end (``Phase("round_end")``): its moves are the seat's
only choices, so a way to decline is offered too; the outcome moves the tile
from the lid to the line (a ``Transfer``) and takes the points.
"""

from azul_core import hookimpl
from azul_core.rules import LID, Move, Outcome, Phase, Transfer, line

AZUL_API = 1
__version__ = "1.0"

PRICE = 2
COLOURS = ("blue", "yellow", "red", "black", "white")
NO = Move("no-buy", label="Buy nothing")
BUYS = {(colour, row): Move("buy", (colour, row), label=f"Buy a {name} tile for line {row + 1} ({PRICE} points)")
        for colour, name in enumerate(COLOURS) for row in range(5)}


@hookimpl
def azul_declare_phases():
    return [Phase("round_end", words="Buy a tile from the lid for 2 points, or nothing")]


@hookimpl
def azul_declare_moves():
    return [NO, *BUYS.values()]


@hookimpl
def azul_offer_moves(stage, seat, game):
    if stage != "round_end" or game.scores[seat] < PRICE:
        return None
    lid, accepts = game.lid, game.accepts[seat]  # each read of the view makes a copy: read once
    buys = [BUYS[colour, row] for colour in range(5) if lid[colour] for row in range(5) if colour in accepts[row]]
    return [NO, *buys] if buys else None


@hookimpl
def azul_apply_move(move, seat):
    if move.name == "buy":
        colour, row = move.args
        return Outcome(points=-PRICE, transfers=(Transfer(LID, line(seat, row), colour),))
    return Outcome()
