"""A whole game played by given bots (or at random), recorded as the commands record it: what
the tests of a rule's records play before they replay or validate them."""

from __future__ import annotations

import json
import random
from typing import Callable

from azul_core.engine.state import DEAL, DRAW, GameState
from azul_core.records.game_record import GameRecord, Recorder, parse_record


def play_recorded(game: GameState, seed: int, variant: str, choose: Callable | None = None,
                  limit: int | None = None, each_step: Callable | None = None) -> GameRecord:
    """Play ``game`` to its end (or ``limit`` decisions): the deals from ``seed``, each decision
    ``choose(game)`` (random legal ones when None); ``each_step(game)`` after each step (an
    invariant to check). The record, as a reader parses it."""
    rng = random.Random(seed)
    recorder = Recorder(variant, [f"p{seat}" for seat in range(game.num_players)], seed)
    decisions = 0
    while not game.over and (limit is None or decisions < limit):
        if game.phase == DEAL:
            game.deal(rng)
            recorder.dealt(game)
        elif game.phase == DRAW:  # what a rule draws from the bag: chance, as the deal
            recorder.decided(game.draw(rng), game)
        else:
            decision = choose(game) if choose is not None else game.random_decision(rng.random)
            game.apply(decision)
            recorder.decided(decision, game)
            decisions += 1
        if each_step is not None:
            each_step(game)
    return parse_record(json.dumps(recorder.to_dict(game)))
