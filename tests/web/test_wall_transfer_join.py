"""``azul play --join`` tells each round as ``azul play`` does: a tile a plugin's move put on a
wall (a transfer, issue 40) is not among the tiles the round placed. The house rule is the one
of ``tests/test_wall_transfer_summaries.py``: once a game, instead of drafting, a player puts a
blue tile from the bag on their wall's first space."""

from __future__ import annotations

import itertools
import random
import re

import pytest

pytest.importorskip("starlette")

from test_plugin_moves_web import Game, play_joined, serving  # noqa: E402
from test_wall_transfer_summaries import WALL_GIFT  # noqa: E402  (the same house rule)

from azul_core.web.app import Config  # noqa: E402
from azul_core.web.catalog import build_catalog  # noqa: E402


def test_the_joined_terminal_does_not_count_a_gifted_wall_tile_as_placed(tmp_path, monkeypatch):
    from azul_core.engine.notation import format_decision
    from azul_core.rules import Move

    folder = tmp_path / "wall-gift"
    folder.mkdir()
    (folder / "wall_gift.py").write_text(WALL_GIFT)
    (folder / "wall-gift.yaml").write_text("name: wall-gift\ndescription: a blue tile from the bag on the wall\n"
                                          "extends: standard\nplugins: [standard, colour_wall, wall_gift.py]\n")
    monkeypatch.setenv("AZUL_VARIANTS_PATH", str(folder))
    seeds = itertools.count(1)
    config = Config(data=tmp_path / "data", variant_dirs=(folder,), bot_delay=0, think=0.05,
                    seed_factory=lambda: f"gift-{next(seeds)}")
    rng = random.Random(4)
    with serving(config, build_catalog([folder])) as client:
        game = Game(client, "wall-gift", [{"name": "Ana"}, {"bot": "random"}])
        game.seats[0].close()

        def choose(state):
            decisions = state.legal_decisions()
            if Move("gift") in decisions:
                return "+gift"
            return format_decision(rng.choice([d for d in decisions if not isinstance(d, Move)]))

        text = play_joined(client, game, "wall-gift", folder, choose)
    assert text.index("Ana: Put a blue tile from the bag on your wall (+gift)") < text.index("Round 1 scored:")
    told = re.search(r"Round 1 scored:\n\s+Ana +(.*)", text).group(1)
    assert "line 1 blue to wall column 1" not in told, told
