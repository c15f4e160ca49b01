"""A house rule for the RL adapters' tests: 1200 blue tiles (a count of tiles beyond the
observation's usual bound of 1000, which the observation must keep, not clip)."""

from dataclasses import replace

from azul_core import hookimpl

AZUL_API = 1


@hookimpl
def azul_game_setup(answer):
    if answer is None or isinstance(answer, str):
        return None
    return replace(answer, colour_counts=(1200, 20, 20, 20, 20))
