"""Greedy's per-variant tables (issue 44): each wall's best placement points and each
floor's costs are kept on the rules, bounded, and never change a decision: a greedy game
played with tables that start afresh every few entries is the game played without."""

from __future__ import annotations

import hashlib
import random

import pytest

from azul_core.engine.state import DEAL, GameState
from azul_core.players import bots as bots_module
from azul_core.players.bots import GreedyBot
from azul_core.variants.loading import load_variant

#: The kept tables: name on the rules -> the module constant that bounds it.
TABLES = {"wall points": "WALL_TABLES_LIMIT", "floor costs": "FLOOR_TABLES_LIMIT"}


class Watched(dict):
    """A table that remembers the most entries it ever held."""

    most = 0

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.most = max(self.most, len(self))


def greedy_game(rules, seed: str) -> tuple[str, list[int]]:
    state = GameState(rules, 2)
    deal = random.Random(f"{seed}:deal")
    bots = [GreedyBot(seed=f"{seed}:{seat}") for seat in range(2)]
    moves = []
    while not state.over:
        if state.phase == DEAL:
            state.deal(deal)
            continue
        decision = bots[state.to_move].choose(state)
        moves.append(repr(decision))
        state.apply(decision)
    return hashlib.sha256("\n".join(moves).encode()).hexdigest()[:16], [board.score for board in state.players]


@pytest.mark.parametrize("variant", ["standard", "duel"])
def test_greedy_tables_stay_in_their_bound_and_starting_afresh_changes_no_decision(variant, monkeypatch):
    unbounded = greedy_game(load_variant(variant).rules, "t")
    bound = 3
    for limit in TABLES.values():
        monkeypatch.setattr(bots_module, limit, bound)
    rules = load_variant(variant).rules
    watched = {name: rules.kept(name, Watched) for name in TABLES}
    assert greedy_game(rules, "t") == unbounded
    assert all(rules.kept(name, dict) is table for name, table in watched.items())  # used all along
    assert {name: table.most for name, table in watched.items()} == {name: bound for name in TABLES}
