"""Shared ties: players with the highest score share the victory, whatever their rows.

Standard Azul breaks a tie with the number of complete rows; this house rule
does not.
"""

from azul_core import hookimpl

AZUL_API = 1
__version__ = "1.0"


@hookimpl
def azul_winners(scores):
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]
