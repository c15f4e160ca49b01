"""Free marker: the start marker still takes a floor space, but that space costs nothing.

The marker goes onto the leftmost free floor space as usual, so the tiles
after it land one space further right (and pay that space's penalty), and
a full floor still sends tiles to the lid. Only the marker's own space is
free. The penalties per space are the variant's ``floor_penalties`` setting
(declared by the standard plugin).
"""

from azul_core import hookimpl
from azul_core.colours import MARKER

AZUL_API = 1
__version__ = "1.0"


@hookimpl
def azul_floor_penalty(floor, settings):
    return sum(penalty for penalty, tile in zip(settings.floor_penalties, floor) if tile != MARKER)
