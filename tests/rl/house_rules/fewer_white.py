"""A house rule for the RL adapters' tests: the bag holds 16 white tiles, not 20 (per-colour
counts, ``TableSetup.colour_counts``). The observation's layout stays the standard one; its
white counts are bounded by 16."""

from dataclasses import replace

from azul_core import hookimpl

AZUL_API = 1


@hookimpl
def azul_game_setup(answer):
    if answer is None or isinstance(answer, str):
        return None  # no table (or a reason why not): nothing to change
    return replace(answer, colour_counts=(20, 20, 20, 20, 16))
