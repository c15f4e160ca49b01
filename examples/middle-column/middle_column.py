"""Middle column: a tile placed in the middle column (column 3) scores one point more than
the variant would give it. It builds on the answer of the plugins listed before it, so it
works over the standard run-length scoring, over duel's neighbour scoring, or over another
house rule that changes scores."""

from azul_core import hookimpl

AZUL_API = 1
__version__ = "1.0"

MIDDLE = 2  # columns count from 0 in code


@hookimpl
def azul_placement_score(column, answer):
    if column == MIDDLE:
        return answer + 1
    return answer
