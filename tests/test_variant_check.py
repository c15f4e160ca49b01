"""check_variant_file: a variant file loads, and seeded random games with it keep the invariants."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from azul_core.variants.check import check_variant_file
from azul_core.variants.loading import builtin_variants


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["standard", "grey-wall", "duel"])
def test_the_shipped_variants_are_valid(name):
    report = check_variant_file(builtin_variants()[name], games=40)
    assert report.valid, report.problems
    assert report.name == name
    assert report.games_played == 40 * len(report.player_counts)
    assert report.summary.endswith(f"valid variant '{name}'; {report.games_played} random games played "
                                   f"({', '.join(str(c) for c in report.player_counts)} players)")


def test_the_report_as_json():
    report = check_variant_file(builtin_variants()["duel"], games=5)
    document = report.to_json()
    assert document == {"kind": "variant", "path": str(builtin_variants()["duel"]), "valid": True,
                        "name": "duel", "errors": [], "games_played": 5}


def test_without_play_only_the_file_is_checked():
    report = check_variant_file(builtin_variants()["standard"], play=False)
    assert report.valid and report.games_played == 0
    assert "random games" not in report.summary


def test_a_file_that_does_not_load_reports_every_problem(tmp_path):
    path = write(tmp_path, "bad.yaml", """\
        extends: standard
        players: [2, 0]
        settings: {row_bonus: x}
        """)
    report = check_variant_file(path)
    assert not report.valid and report.name is None and report.games_played == 0
    assert [(e["line"], e["column"]) for e in report.to_json()["errors"]] == [(2, 14), (3, 23)]
    assert report.summary == f"{path}: invalid variant: 2 problems"


def test_a_plugin_raising_during_play_is_named_with_its_hook_and_line(tmp_path):
    write(tmp_path, "fragile.py", """\
        def azul_placement_score(wall, row, column):
            if row == 2:
                return {}["no such key"]
            return None
        """)
    path = write(tmp_path, "fragile.yaml", "extends: standard\nplayers: [2]\nplugins: [standard, colour_wall, fragile.py]\n")
    report = check_variant_file(path, games=20)
    assert not report.valid and len(report.problems) == 1
    problem = report.problems[0]
    assert Path(problem.file).name == "fragile.py" and problem.line == 3
    assert "plugin 'fragile' raised KeyError in azul_placement_score" in problem.message
    assert problem.message.startswith("2 players, game 1 (seed ")


def test_a_negative_score_is_a_broken_invariant(tmp_path):
    write(tmp_path, "tax.py", "def azul_end_bonuses(wall):\n    return [('tax', -100)]\n")
    path = write(tmp_path, "tax.yaml", "extends: standard\nplayers: [2]\nplugins: [standard, colour_wall, tax.py]\n")
    report = check_variant_file(path, games=5)
    assert len(report.problems) == 1
    assert "negative score" in report.problems[0].message
    assert "azul_end_bonuses: standard + tax" in report.problems[0].message
    assert (Path(report.problems[0].file).name, report.problems[0].line) == ("tax.yaml", 3)


def test_a_game_that_never_ends(tmp_path):
    write(tmp_path, "forever.py", "def azul_game_over():\n    return False\n")
    path = write(tmp_path, "forever.yaml", "extends: standard\nplayers: [2]\nplugins: [standard, colour_wall, forever.py]\n")
    report = check_variant_file(path, games=3)
    assert len(report.problems) == 1
    assert "did not end within 100 rounds" in report.problems[0].message
    assert "azul_game_over: forever > standard" in report.problems[0].message


def test_tiles_lost_are_a_broken_invariant():
    # The hooks' answers are checked, so no plugin can lose a tile through them; the check
    # still guards the engine itself.
    from azul_core.engine.state import GameState
    from azul_core.variants.check import _broken_invariant
    from azul_core.variants.loading import load_variant
    game = GameState(load_variant("standard").rules, 2)
    assert _broken_invariant(game, [20] * 5) is None
    game.bag.remove(3)
    assert _broken_invariant(game, [20] * 5).startswith(
        "tiles were lost or made: B 20, Y 20, R 20, K 19, W 20, expected B 20, Y 20, R 20, K 20, W 20")


def test_a_broken_plugin_is_reported_for_each_player_count(tmp_path):
    write(tmp_path, "fragile.py", "def azul_floor_penalty(floor):\n    return 1\n")
    path = write(tmp_path, "fragile.yaml", "extends: standard\nplugins: [standard, colour_wall, fragile.py]\n")
    report = check_variant_file(path, games=2)
    assert [p.message.split(",")[0] for p in report.problems] == ["2 players", "3 players", "4 players"]
    assert all("a floor penalty can't be positive" in p.message for p in report.problems)
