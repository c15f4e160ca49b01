"""Floor to bag: at the end of a round the floor tiles go back into the bag, not the lid,
so they can come out again at the very next deal. Tiles past a full floor (the overflow)
and the rest of a tiled line still go to the lid."""

from azul_core import hookimpl

AZUL_API = 1
__version__ = "1.0"


@hookimpl
def azul_discard_pile(reason):
    if reason == "floor":
        return "bag"
    return None  # no opinion: the lid, as in the standard game
