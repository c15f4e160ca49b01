"""bench/bot_strength.py: where a bot's end bonuses come from, label by label (issue 22).

The bench is how the project judges its bots; its report must add up, and a house
rule's own bonus must show under its own label."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOUBLE_COLUMNS = str(ROOT / "examples" / "double-columns" / "double-columns.yaml")


@pytest.fixture(scope="module")
def bench(load_bench):
    return load_bench("bot_strength")


def one_game(bench, variant: str, game: int) -> dict:
    return bench.play_one((variant, "greedy", "old-greedy", game, "labels", None, None, True))


def test_each_bots_bonuses_by_label_add_up_to_its_bonus(bench):
    for game in range(6):
        result = one_game(bench, "standard", game)
        for index in range(2):
            labels = result["bonuses"][index]
            assert set(labels) == {"rows", "columns", "colours"}
            assert sum(labels.values()) == result["bonus"][index]
        assert json.loads(json.dumps(result)) == result  # what --log writes


def test_a_house_rules_bonus_is_reported_under_its_own_label(bench, capsys):
    results = [{"game": game, **one_game(bench, DOUBLE_COLUMNS, game)} for game in range(8)]
    for result in results:
        for labels in result["bonuses"]:
            # the house rule pays 7 more per complete column, beside the standard 7
            assert labels["double columns"] == labels["columns"]
    options = argparse.Namespace(a="greedy", b="old-greedy", variant="double-columns", think=None,
                                 cpu=False, iterations=None, seed="labels")
    bench.report(options, results)
    lines = capsys.readouterr().out.splitlines()
    for index, line in enumerate(lines[2:4]):
        parts = {label: sum(r["bonuses"][index][label] for r in results) / len(results)
                 for label in ("rows", "columns", "colours", "double columns")}
        assert (f"(rows {parts['rows']:.1f}, columns {parts['columns']:.1f}, colours {parts['colours']:.1f}, "
                f"double columns {parts['double columns']:.1f})") in line


def test_logs_written_before_the_labels_still_summarise(bench, capsys):
    results = [{"game": game, **one_game(bench, "standard", game)} for game in range(2)]
    for result in results:
        del result["bonuses"]
    options = argparse.Namespace(a="greedy", b="old-greedy", variant="standard", think=None,
                                 cpu=False, iterations=None, seed="labels")
    bench.report(options, results)
    out = capsys.readouterr().out
    assert "end bonus" in out and "(rows" not in out


def test_the_marker_s_share_of_the_floor_is_paid_every_round_and_is_part_of_the_floor(bench):
    """Someone takes the first-player marker from the centre every round, and on the standard
    floor (-1, -1, -2, ...) it costs its holder at least 1: a game of five rounds or more costs
    the two seats at least 5 for it. What it costs a seat is part of that seat's floor."""
    for game in range(6):
        result = one_game(bench, "standard", game)
        for index in range(2):
            assert result["floor"][index] <= result["marker"][index] <= 0
        assert result["marker"][0] + result["marker"][1] <= -5


def test_the_marker_is_counted_for_the_game_and_not_for_a_bot_s_copies(bench):
    from azul_core.engine.state import MARKER, GameState
    from azul_core.variants.loading import load_variant
    rules = load_variant("standard").rules
    game, copy = GameState(rules, 2), GameState(rules, 2)
    marker = [0, 0]
    counted = bench._counting_marker(rules.floor_penalty, game, marker)
    assert counted([MARKER, 0, 1], 1, copy) == -4 and marker == [0, 0]
    assert counted([MARKER, 0, 1], 1, game) == -4 and marker == [0, -2]  # -4 with it, -2 without
    assert counted([0, 1], 0, game) == -2 and marker == [0, -2]
    assert counted([MARKER], 0, game) == -1 and marker == [-1, -2]


def test_a_log_written_before_the_marker_was_counted_still_summarises(bench, capsys):
    results = [{"game": game, **one_game(bench, "standard", game)} for game in range(2)]
    options = argparse.Namespace(a="greedy", b="old-greedy", variant="standard", think=None,
                                 cpu=False, iterations=None, seed="labels")
    bench.report(options, results)
    with_marker = capsys.readouterr().out
    mean = sum(r["marker"][0] for r in results) / 2
    assert f"(marker {mean:.1f})" in with_marker
    for result in results:
        del result["marker"]
    bench.report(options, results)
    assert "(marker" not in capsys.readouterr().out
