"""Secret words: each seat is dealt a secret word nobody else may see (a house rule of the RL
tests: a secret easy to look for in an observation's text)."""

from azul_core import hookimpl

AZUL_API = 1
__version__ = "1.0"

WORDS = ("heron", "marble", "cobalt", "saffron", "lantern", "juniper", "quartz", "velvet")


@hookimpl
def azul_deal_secrets(players, rng):
    return [f"{word}-{seat}" for seat, word in enumerate(rng.sample(WORDS, players))]
