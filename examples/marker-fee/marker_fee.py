"""Marker fee: the start marker takes no floor space; whoever takes it pays a flat 3 points
at the end of the round, on top of the floor penalty of their tiles."""

from azul_core import hookimpl
from azul_core.rules import MarkerRule
from azul_core.settings import Setting

AZUL_API = 1
__version__ = "1.0"


@hookimpl
def azul_declare_settings():
    return [Setting("marker_fee", "int", 3, "what the start marker costs its holder", minimum=0)]


@hookimpl
def azul_marker_rule():
    return MarkerRule(placement="aside")  # no floor space; the rest stays the standard's


@hookimpl
def azul_floor_penalty(seat, game, settings, answer):
    if game is not None and seat == game.marker_holder:
        return answer - settings.marker_fee
    return answer
