"""The limits docs/plugins.md and docs/variants.md state are the engine's: on a plugin's memory,
secrets, moves and outcomes (``azul_core.engine.moves``), and the 9 factories a record can name
(issue 40: they were stated nowhere)."""

from __future__ import annotations

import pytest
from test_doc_links import ROOT

from azul_core.engine.moves import (
    MAX_DECLARED_MOVES,
    MAX_MEMORY_DEPTH,
    MAX_MEMORY_ITEMS,
    MAX_MEMORY_NUMBER,
    MAX_MEMORY_TEXT,
    MAX_OUTCOME_POINTS,
    memory_problem,
)
from azul_core.engine.plugins import PluginError
from azul_core.rules import MAX_MOVE_ARG, MAX_MOVE_ARGS
from azul_core.testing import new_game
from azul_core.variants.loading import VariantError, load_variant

PLUGINS = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
VARIANTS = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    start = text.index(heading)
    return text[start:text.index("\n## ", start + 1)]


def test_plugins_md_states_the_bounds_of_memory_secrets_and_moves_where_it_teaches_them():
    taught = " ".join(section(PLUGINS, "## Moves, memory and secrets").split())
    for stated in (f"whole numbers from -{MAX_MEMORY_NUMBER:,} to {MAX_MEMORY_NUMBER:,}",
                   f"strings of at most {MAX_MEMORY_TEXT} characters",
                   f"nested at most {MAX_MEMORY_DEPTH} deep",
                   f"at most {MAX_MEMORY_ITEMS:,} items in all",
                   f"may nest tuples {MAX_MEMORY_DEPTH - 1} deep",
                   f"at most {MAX_MOVE_ARGS} args, each a whole number from 0 to {MAX_MOVE_ARG}",
                   f"at most {MAX_DECLARED_MOVES}, all its plugins' declarations together",
                   f"a whole number from -{MAX_OUTCOME_POINTS:,} to {MAX_OUTCOME_POINTS:,}"):
        assert stated in taught


def test_the_stated_memory_bounds_are_where_the_engine_refuses():
    assert memory_problem(MAX_MEMORY_NUMBER) is None and memory_problem(-MAX_MEMORY_NUMBER - 1)
    assert memory_problem("x" * MAX_MEMORY_TEXT) is None and memory_problem("x" * (MAX_MEMORY_TEXT + 1))
    assert memory_problem((False,) * (MAX_MEMORY_ITEMS - 1)) is None          # the tuple is an item too
    assert memory_problem((False,) * MAX_MEMORY_ITEMS)
    nested = 0
    for _ in range(MAX_MEMORY_DEPTH):
        nested = (nested,)
    assert memory_problem(nested) is None and memory_problem((nested,))
    # Secrets: the seats' tuple holds each seat's, so a seat's may nest one tuple less.
    assert memory_problem((nested[0], (0,))) is None and memory_problem((nested, (0,)))


def test_the_nine_factories_are_stated_and_a_tenth_is_refused(tmp_path):
    assert "At most 9 factories: a record names a factory by one digit" in " ".join(
        section(PLUGINS, "## What the core fixes").split())
    assert "more than 9 factories for a player count" in " ".join(VARIANTS.split())
    (tmp_path / "ten.py").write_text("from azul_core import hookimpl\nfrom azul_core.rules import TableSetup\n\n\n"
                                     "@hookimpl\ndef azul_game_setup(players):\n    return TableSetup(10, 4, 20)\n")
    (tmp_path / "ten.yaml").write_text("name: ten\nextends: standard\nplayers: [2]\n"
                                       "plugins: [standard, colour_wall, ten.py]\n")
    with pytest.raises(VariantError, match=r"ten\.yaml:4:34: 2 players: plugin 'ten' returned "
                                           r"TableSetup\(factories=10.* from azul_game_setup \(.*ten\.py:5\): "
                                           r"10 factories; there can be 1 to 9"):
        load_variant(tmp_path / "ten.yaml")
    # A test game with the plugin added is refused the same way, naming the plugin.
    with pytest.raises(PluginError, match=r"plugin 'ten' .*ten\.py:5\): 10 factories"):
        new_game(plugins=[tmp_path / "ten.py"])
