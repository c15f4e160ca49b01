"""bench/bot_strength.py: where a bot's end bonuses come from, label by label (issue 22).

The bench is how the project judges its bots; its report must add up, and a house
rule's own bonus must show under its own label."""

from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOUBLE_COLUMNS = str(ROOT / "examples" / "double-columns" / "double-columns.yaml")


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bot_strength", ROOT / "bench" / "bot_strength.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
