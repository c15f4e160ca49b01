"""Five rounds: the game ends after round 5, or earlier when someone completes a row.

It answers only when round 5 is over; before that it has no opinion
(``None``), so the standard plugin's rule (a complete row ends the game)
still decides.
"""

from azul_core import hookimpl

AZUL_API = 1
__version__ = "1.0"

LAST_ROUND = 5


@hookimpl
def azul_game_over(round_number):
    if round_number >= LAST_ROUND:
        return True
    return None  # no opinion: the next plugin (standard) decides
