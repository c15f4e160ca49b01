"""A house rule for the RL adapters' tests: pattern line 1 takes white only once its wall
row holds another tile.

It changes which drafts are legal, so the environments' masks and legal
actions must follow it with no code of their own.
"""

from azul_core import hookimpl
from azul_core.colours import WHITE

AZUL_API = 1


@hookimpl
def azul_line_accepts(row, wall_row, colour):
    if row == 0 and colour == WHITE and not wall_row:
        return False
    return None  # no opinion: the standard rule decides
