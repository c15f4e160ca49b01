"""A test rule whose fair setting is known by construction (tests/test_tune.py): the first seat
gets a head start of HEAD_START points at the end, every seat after it ``compensation`` points.
Without the head start greedy bots give the first seat a little less than half the games, so
the value that levels the seats lies a little below HEAD_START. The bots' moves don't depend on a bonus that no
wall earns, so the same seeds give the same games for every value and only the final scores
move: the first seat's win share falls step by step as the compensation grows."""

from azul_core import hookimpl
from azul_core.settings import Setting

AZUL_API = 1
HEAD_START = 5
__version__ = "1.0"


@hookimpl
def azul_declare_settings():
    return [Setting("compensation", "int", 0, "points at the end for every seat after the first",
                    minimum=0, maximum=30)]


@hookimpl
def azul_end_bonuses(seat, settings):
    return [("compensation", settings.compensation)] if seat > 0 else [("head start", HEAD_START)]
