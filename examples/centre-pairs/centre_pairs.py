"""Centre pairs: a draft from the centre must take at least two tiles.

When no other draft is left, the engine allows every draft (a rule may
restrict a game, never stall it), so a lone tile in the centre can still
be taken at the end of a round.
"""

from azul_core import hookimpl

AZUL_API = 1
__version__ = "1.0"

CENTRE = 0


@hookimpl
def azul_draft_allowed(source, count):
    if source == CENTRE and count < 2:
        return False
    return None  # no opinion: allowed, as far as this rule goes
