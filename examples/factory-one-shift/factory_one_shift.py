"""Factory one's gift: whoever drafts from factory 1 onto a pattern line may then move
one of those tiles to another line (or the floor) before the turn passes.

A power after a draft: the draft is remembered (``azul_after_draft``), the
choice is offered before the turn passes (stage ``after_draft``), and the
engine moves the tile (``Outcome.shift``) after checking the line takes it.
"""

from azul_core import hookimpl
from azul_core.rules import Move, Outcome

AZUL_API = 1
__version__ = "1.0"

FLOOR = 5
KEEP = Move("keep", label="Keep the tiles where they are")
SHIFTS = [Move("shift", (to,), label=f"Move a tile to {'the floor' if to == FLOOR else f'line {to + 1}'}")
          for to in range(6)]


@hookimpl
def azul_declare_moves():
    return [KEEP, *SHIFTS]


@hookimpl
def azul_after_draft(source, line):
    return (line,) if source == 1 and line != FLOOR else ()  # the line holding the gift, or none


@hookimpl
def azul_offer_moves(stage, seat, game, memory):
    if stage != "after_draft" or not memory:
        return None
    line = memory[0]
    colour, count = game.lines[seat][line]
    stand_ins = len(game.stand_ins[seat][line])  # extra tiles standing in for the colour
    if stand_ins and count - stand_ins < 2:
        return [KEEP]  # a tile of the colour itself stays with the tiles standing in for it
    open_lines = [to for to in range(5) if to != line and colour in game.accepts[seat][to]]
    return [KEEP, *(SHIFTS[to] for to in open_lines + [FLOOR])]


@hookimpl
def azul_apply_move(move, memory):
    if move.name == "shift":
        return Outcome(memory=(), shift=(memory[0], move.args[0], 1))
    return Outcome(memory=())
