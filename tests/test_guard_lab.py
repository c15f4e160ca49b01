"""The lab's promises a slip would break unnoticed (issue 24).

Each game of a run is dealt from its own seed and each seat's bot is seeded for its game and
seat (docs/balance.md: game ``i`` from ``(seed, i)``), and ``azul simulate --workers 2`` with a
failing plugin says one line: the pool's workers end quietly.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from azul_core.lab.simulate import simulate


def spy_bot_variant(folder: Path) -> tuple[Path, Path]:
    """A variant whose plugin offers the bot 'spy': random moves from the seed it is given;
    each seed it is made with is written, one a line, to the returned file."""
    seeds = folder / "seeds.txt"
    (folder / "spy.py").write_text(textwrap.dedent(f"""
        import random

        class Spy:
            def __init__(self, seed):
                self.random = random.Random(seed).random

            def choose(self, state):
                return state.random_decision(self.random)

        def make(seed=None, think=None):
            with open({str(seeds)!r}, "a") as out:
                out.write(f"{{seed}}\\n")
            return Spy(seed)

        def azul_register_bots():
            return {{"spy": make}}
    """))
    path = folder / "spy.yaml"
    path.write_text("name: spy\nextends: standard\nplugins: [standard, colour_wall, spy.py]\n")
    return path, seeds


def test_every_game_and_seat_gets_its_own_bot_seed_and_a_run_repeats_them(tmp_path):
    variant, seeds = spy_bot_variant(tmp_path)
    first = simulate(str(variant), 2, 3, seed=7, bots=["spy", "spy"])
    made = seeds.read_text().split()
    assert len(made) == 6 and len(set(made)) == 6, made  # 3 games x 2 seats, all different
    seeds.unlink()
    again = simulate(str(variant), 2, 3, seed=7, bots=["spy", "spy"])
    assert seeds.read_text().split() == made
    assert [r.to_json() for r in first.results] == [r.to_json() for r in again.results]
    seeds.unlink()
    simulate(str(variant), 2, 3, seed=8, bots=["spy", "spy"])
    assert not set(seeds.read_text().split()) & set(made)  # another run seed, other bots


def test_every_game_of_a_run_is_dealt_its_own_tiles(tmp_path):
    simulate("standard", 2, 4, seed=7, record_dir=tmp_path)
    deals = [json.loads(path.read_text())["rounds"][0]["factories"] for path in sorted(tmp_path.iterdir())]
    assert len(deals) == 4 and len({tuple(deal) for deal in deals}) == 4, deals
    again = tmp_path / "again"
    simulate("standard", 2, 4, seed=7, record_dir=again)
    assert [json.loads(path.read_text())["rounds"][0]["factories"] for path in sorted(again.iterdir())] == deals


def failing_variant(folder: Path) -> Path:
    (folder / "failing.py").write_text("def azul_floor_penalty(floor):\n    if len(floor) > 4:\n"
                                       "        raise RuntimeError('no')\n    return -len(floor)\n")
    path = folder / "failing.yaml"
    path.write_text("name: failing\nextends: standard\nplugins: [standard, colour_wall, failing.py]\n")
    return path


def test_simulate_in_two_processes_tells_a_failing_plugin_in_one_line(tmp_path, outside_the_tree):
    variant = failing_variant(tmp_path)
    for _ in range(3):  # the tracebacks came in every run; three runs leave no doubt
        result = subprocess.run([sys.executable, "-m", "azul_core.cli", "simulate", "--variant", str(variant),
                                 "--games", "8", "--workers", "2", "--seed", "1", "--bots", "random"],
                                cwd=outside_the_tree, capture_output=True, text=True, timeout=120)
        assert result.returncode == 1
        assert "Traceback" not in result.stderr + result.stdout, result.stderr
        lines = (result.stderr + result.stdout).strip().splitlines()
        assert lines == [f"azul: game 1: plugin 'failing' raised RuntimeError in azul_floor_penalty at "
                         f"{tmp_path / 'failing.py'}:3: no"], lines
