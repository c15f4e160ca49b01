"""The bots' caches belong to a variant's rules and are bounded (issue 44).

A process that loads a variant afresh for every game (``bench/bot_strength.py``, a table
server) used to keep up to 64 old variants' rules alive, and their tables with them, in
module-level dictionaries: every move slowed down. The caches now go with their rules, no
table holds more than its bound, and the caches never change a decision: seeded games
play the moves they played before the change (recorded from the code before it)."""

from __future__ import annotations

import copy
import gc
import hashlib
import random
import weakref

import pytest
from compiled_build import patches_internals_of

from azul_core.engine.compiled import is_compiled
from azul_core.engine.state import DEAL, GameState
from azul_core.players import bots as bots_module
from azul_core.players.bots import GreedyBot, best_placement_points
from azul_core.players.evaluation import Outlooks, empty_wall, for_rules
from azul_core.players.search import MctsBot, Memo
from azul_core.variants.loading import load_variant

#: (variant, players, playouts a move, seed) -> the digest of the game's moves and the scores,
#: as the search bot played them before issue 44 (the same with any PYTHONHASHSEED).
RECORDED_SEARCH_GAMES = {
    ("standard", 2, 12, "a"): ("2923e4ae8acb459a", [11, 24]),
    ("standard", 3, 10, "b"): ("4cc5cd81b73b008d", [54, 52, 36]),
    ("grey-wall", 2, 10, "c"): ("9cbb2f97df36636d", [23, 42]),
    ("duel", 2, 12, "d"): ("ddc35cf6d0888f1e", [28, 49]),
}
#: The same for two greedy bots in grey-wall, seed "e" (the best placement points' table).
RECORDED_GREEDY_GAME = ("97cc733728d506c9", [50, 65])

OUTLOOK_TABLES = ("known", "by_wall", "levels", "row_levels", "held", "fixed", "asked", "asked_columns")
MEMO_TABLES = ("walls", "floor_costs")


def play(rules, players: int, bots: list, seed: str, after_move=None) -> tuple[str, list[int]]:
    """A seeded game: the digest of its moves and the final scores."""
    state = GameState(rules, players)
    deal = random.Random(f"{seed}:deal")
    moves = []
    while not state.over:
        if state.phase == DEAL:
            state.deal(deal)
            continue
        decision = bots[state.to_move].choose(state.for_seat(state.to_move))
        moves.append(repr(decision))
        state.apply(decision)
        if after_move:
            after_move()
    return hashlib.sha256("\n".join(moves).encode()).hexdigest()[:16], [board.score for board in state.players]


def search_bots(players: int, playouts: int, seed: str) -> list:
    return [MctsBot(seed=f"{seed}:{seat}", iterations=playouts) for seat in range(players)]


@pytest.mark.parametrize("game", sorted(RECORDED_SEARCH_GAMES))
def test_seeded_search_games_play_the_moves_they_played_before(game):
    variant, players, playouts, seed = game
    rules = load_variant(variant).rules
    assert play(rules, players, search_bots(players, playouts, seed), seed) == RECORDED_SEARCH_GAMES[game]


def test_a_seeded_greedy_game_plays_the_moves_it_played_before():
    rules = load_variant("grey-wall").rules
    assert play(rules, 2, [GreedyBot(seed=f"e:{seat}") for seat in range(2)], "e") == RECORDED_GREEDY_GAME


def test_a_variant_loaded_afresh_for_every_game_leaves_no_old_rules_alive():
    old_rules = []
    for game in range(5):
        rules = load_variant("standard" if game % 2 else "grey-wall").rules
        state = GameState(rules, 2)
        deal = random.Random(game)
        players = [MctsBot(seed=game, iterations=20), GreedyBot(seed=game)]
        for _ in range(12):  # both bots fill their caches: the outlooks, the best points
            if state.phase == DEAL:
                state.deal(deal)
                continue
            state.apply(players[state.to_move].choose(state.for_seat(state.to_move)))
        assert for_rules(rules).known  # the caches were filled
        # A compiled Rules takes no weak reference: its plugin manager, which only it and the
        # variant hold, goes when it goes.
        old_rules.append(weakref.ref(rules.pm))
        del rules, state, players
    gc.collect()
    assert [ref() for ref in old_rules] == [None] * 5


@pytest.mark.skipif(is_compiled("azul_core.engine.rulebook"),
                    reason="a compiled Rules can't be copied (copy.copy): the pure-Python build's case")
def test_a_copy_of_the_rules_gets_caches_of_its_own():
    rules = load_variant("standard").rules
    original = for_rules(rules)
    best_placement_points(rules, empty_wall(rules.size), 0, 0)
    changed = copy.copy(rules)  # as bench/no_marker_bot.py changes a hook on a copy
    assert for_rules(changed) is not original and for_rules(changed).rules is changed
    assert for_rules(rules) is original
    def made_before():
        return rules.kept("best placement points", lambda: pytest.fail("made anew"))[0]
    table = made_before()
    assert table  # filled for the original
    best_placement_points(changed, empty_wall(rules.size), 0, 0)
    own = changed.kept("best placement points", lambda: pytest.fail("made anew"))[0]
    assert own is not table and own and made_before() is table


class Watched(dict):
    """A table that remembers the most entries it ever held."""

    most = 0

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.most = max(self.most, len(self))


@patches_internals_of("azul_core.players.evaluation", "azul_core.players.search", "azul_core.players.bots")
@pytest.mark.parametrize("game", [("standard", 2, 12, "a"), ("grey-wall", 2, 10, "c")])
def test_no_cache_holds_more_than_its_bound_and_starting_afresh_changes_no_decision(game, monkeypatch):
    bound = 12
    monkeypatch.setattr(Outlooks, "LIMIT", bound)
    monkeypatch.setattr(Memo, "LIMIT", bound)
    monkeypatch.setattr(bots_module, "BEST_POINTS_LIMIT", bound)
    variant, players, playouts, seed = game
    rules = load_variant(variant).rules
    outlooks = for_rules(rules)
    tables = {}
    for name in OUTLOOK_TABLES:
        tables[f"outlooks.{name}"] = watched = Watched()
        setattr(outlooks, name, watched)
    best_placement_points(rules, empty_wall(rules.size), 0, 0)  # the table, made
    _known, per_seat = rules.kept("best placement points", lambda: pytest.fail("made anew"))
    tables["best points"] = watched = Watched()
    rules._kept["best placement points"] = (rules, (watched, per_seat))
    bots = search_bots(players, playouts, seed)
    for seat, bot in enumerate(bots):
        bot.memo = Memo(rules)
        for name in MEMO_TABLES:
            tables[f"memo {seat}.{name}"] = watched = Watched()
            setattr(bot.memo, name, watched)

    assert play(rules, players, bots, seed) == RECORDED_SEARCH_GAMES[game]
    assert all(bot.memo.walls is tables[f"memo {seat}.walls"] for seat, bot in enumerate(bots))  # watched all along
    assert {name: table.most for name, table in tables.items() if table.most > bound} == {}
    filled = {name for name, table in tables.items() if table.most == bound}
    assert {"outlooks.known", "outlooks.by_wall", "outlooks.levels", "memo 0.walls", "memo 1.walls"} <= filled


def test_the_growth_bench_plays_the_same_games_both_ways_and_keeps_no_old_rules(load_bench):
    bench = load_bench("bot_cache_growth")
    once = bench.run("standard", 3, 5, "bench", fresh=False)
    fresh = bench.run("standard", 3, 5, "bench", fresh=True)
    assert fresh["digest"] == once["digest"] and fresh["moves"] == once["moves"] > 0
    # counted while a run ends: loaded once, its rules are still held; loaded afresh, none is
    assert fresh["rules_alive"] == once["rules_alive"] - 1
    assert fresh["slowest"] >= fresh["mean"] > 0 and fresh["collecting"] >= fresh["longest_collection"] >= 0
