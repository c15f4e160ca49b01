"""An ablation for issue 22 (not part of the package): the search bot kept from taking the
first-player marker at its own turn whenever another decision exists, played against the
package's bots through bench/bot_strength.py under the name ``mcts-nomarker``:

    python bench/no_marker_bot.py mcts mcts-nomarker --games 100 --playouts 1000 --seed nm

Does taking the marker pay? If the default bot beats this one, it does (bench/README.md).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bot_strength  # noqa: E402

from azul_core.engine.state import CENTRE  # noqa: E402
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


_package_bot = bot_strength.make


def make(spec, seed, think, iterations, cpu):
    if spec == "mcts-nomarker":
        clock = time.process_time if cpu else time.perf_counter
        return NoMarkerBot(seed=seed, think=think, iterations=iterations, clock=clock)
    return _package_bot(spec, seed, think, iterations, cpu)


bot_strength.make = make

if __name__ == "__main__":
    sys.argv = ["bot_strength.py", *sys.argv[1:]]
    bot_strength.main()
