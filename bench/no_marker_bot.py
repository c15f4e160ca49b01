"""An ablation for issue 22 (not part of the package): the search bot kept from taking the
first-player marker at its own turn whenever another decision exists, played against the
package's bots through bench/bot_strength.py under the name ``mcts-nomarker``:

    python bench/no_marker_bot.py mcts mcts-nomarker --games 100 --playouts 1000 --seed nm

Does taking the marker pay? If the default bot beats this one, it does (bench/README.md).

A milder ablation, ``mcts-shy<N>`` (``mcts-shy3``): the search bot that counts the marker N
points dearer than the rules do, in its own copies of the game only (the game it plays is
scored by the rules):

    python bench/no_marker_bot.py mcts-shy3 greedy --games 48 --playouts 1000 --seed q1000
"""

from __future__ import annotations

import copy
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bot_strength  # noqa: E402

from azul_core.engine.state import CENTRE, MARKER  # noqa: E402
from azul_core.players.search import MctsBot  # noqa: E402


class NoMarkerBot(MctsBot):
    """Searches as the package's bot, but its root never holds a draft from the centre while
    the marker is there, unless nothing else is legal."""

    def choose(self, state):
        self._at_root = True
        return super().choose(state)

    def _candidates(self, state):
        found = super()._candidates(state)
        if getattr(self, "_at_root", False):
            self._at_root = False  # the root is expanded first
            if state.marker_in_centre:
                kept = [d for d in state.legal_decisions() if not (len(d) == 3 and d[0] == CENTRE)]
                if kept:
                    allowed = set(kept)
                    found = [d for d in found if d in allowed] or kept[:len(found)]
        return found


class ShyBot(MctsBot):
    """Searches as the package's bot on copies of the game whose floor penalty counts the
    marker ``extra`` points more (the game's own rules are left as they are)."""

    def __init__(self, extra: float, **options):
        super().__init__(**options)
        self.extra = extra
        self._shy_rules: dict = {}

    def choose(self, state):
        rules = state.rules
        shy = self._shy_rules.get(id(rules))
        if shy is None:
            shy = copy.copy(rules)
            penalty, extra = rules.floor_penalty, self.extra

            def shy_penalty(floor, *context):
                return penalty(floor, *context) - (extra if MARKER in floor else 0)
            shy.floor_penalty = shy_penalty
            self._shy_rules[id(rules)] = shy
        state = state.clone()
        state.rules = shy
        return super().choose(state)


_package_bot = bot_strength.make


def make(spec, seed, think, iterations, cpu):
    budget = {"seed": seed, "think": think, "iterations": iterations,
              "clock": time.process_time if cpu else time.perf_counter}
    if spec == "mcts-nomarker":
        return NoMarkerBot(**budget)
    if spec.startswith("mcts-shy"):
        return ShyBot(float(spec.removeprefix("mcts-shy")), **budget)
    return _package_bot(spec, seed, think, iterations, cpu)


bot_strength.make = make

if __name__ == "__main__":
    sys.argv = ["bot_strength.py", *sys.argv[1:]]
    bot_strength.main()
