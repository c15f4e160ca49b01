"""Bots: players that choose among ``state.legal_decisions()``.

A bot is any object with ``choose(state) -> decision``. Bots are found by
name: the built-in ones here, then those that plugins offer through the
``azul_register_bots`` hook.
"""

from __future__ import annotations

import random as _random
from typing import Any, Callable


class RandomBot:
    """Uniformly random over the legal decisions."""

    name = "random"

    def __init__(self, seed: Any = None, think: float | None = None):
        self.random = _random.Random(seed).random

    def choose(self, state) -> tuple:
        return state.random_decision(self.random)


BUILTIN_BOTS: dict[str, Callable[..., Any]] = {"random": RandomBot}


def available_bots(rules=None) -> dict[str, Callable[..., Any]]:
    """Every bot by name: built-in ones, then those the variant's plugins register."""
    bots = dict(BUILTIN_BOTS)
    if rules is not None:
        bots.update(rules.bots())
    return bots


def make_bot(name: str, rules=None, seed: Any = None, think: float | None = None):
    """A bot by name; ``KeyError`` with the known names when there is none."""
    bots = available_bots(rules)
    if name not in bots:
        raise KeyError(f"unknown bot '{name}' (known: {', '.join(sorted(bots))})")
    return bots[name](seed=seed, think=think)
