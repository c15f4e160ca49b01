"""A variant's pattern-line sizes at the online table and on its replay (issue 40), in process
(Starlette's TestClient): with examples/short-lines line 1 holds two tiles, so every view gives
the lines of every seat the sizes 2, 2, 3, 4, 5 (the view said ``row + 1``: the page drew one
space and "2 of 1"). The page itself in a browser: ``test_browser_line_sizes.py``.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("starlette")
from test_plugin_moves_web import Game, catalog, client, config, words_folder  # noqa: E402

#: test_plugin_moves_web's fixtures (the examples' variants), used here under their names
FIXTURES = (catalog, client, config, words_folder)
SHORT_LINES = [2, 2, 3, 4, 5]


def sizes(view: dict) -> list[list[int]]:
    return [[line["capacity"] for line in seat["lines"]] for seat in view["seats"]]


def a_pair_onto_line_one(game: Game) -> dict:
    """A legal draft of exactly two tiles of a colour onto pattern line 1."""
    view = game.view
    for draft in game.legal()["drafts"]:
        source = view["centre"]["tiles"] if draft["source"] == 0 else view["factories"][draft["source"] - 1]
        if draft["line"] == 0 and not draft["misplaced"] and source.count(draft["colour"]) == 2:
            return draft
    raise AssertionError("no factory offers a pair onto line 1 (another seed?)")


def test_the_table_and_its_replay_give_each_line_the_variants_size(client):
    game = Game(client, "short-lines", [{"name": "Ann"}, {"name": "Bob"}])
    for socket in game.sockets:  # each seat's view and the watcher's
        assert sizes(socket.state["view"]) == [SHORT_LINES, SHORT_LINES]
    draft = a_pair_onto_line_one(game)
    seat = game.view["to_move"]
    game.move(draft["move"])
    line = game.view["seats"][seat]["lines"][0]
    assert (line["capacity"], line["count"], line["colour"]) == (2, 2, draft["colour"])  # full, not "2 of 1"

    game.play_to_end(random.Random(5))
    watch = {"authorization": f"Bearer {game.watch_secret}"}
    index = client.get(f"/api/tables/{game.id}/replay", headers=watch).json()
    for step in (0, 1, len(index["steps"]) - 1):
        view = client.get(f"/api/tables/{game.id}/replay/{step}", headers=watch).json()["view"]
        assert sizes(view) == [SHORT_LINES, SHORT_LINES]
    game.close()
