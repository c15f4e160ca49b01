"""The compiled engine and the pure-Python one play the same games (issue 44).

``pip install .`` compiles the engine's hot modules with mypyc where it can; the source runs as
Python where it can't (setup.py). Whichever build runs these tests, seeded ``azul simulate``
runs must write the records recorded in ``reference/engine_games.json``, byte for byte: .ci/run
runs this file in both builds, so both give those bytes.

A change that changes the games on purpose rewrites the expected records:
``python tests/test_compiled_engine.py --write`` (with the pure-Python engine, an editable
install), and says so in its commit.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from azul_core.engine.compiled import COMPILED_MODULES, engine_kind, is_compiled

EXPECTED = Path(__file__).resolve().parent / "reference" / "engine_games.json"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

#: name -> the arguments of one seeded run: random, greedy and search bots; the three
#: variants; a plugin's moves and a sixth colour (the engine's general paths)
RUNS = {
    "standard-random": ["--variant", "standard", "--players", "2", "--games", "40", "--bots", "random",
                        "--seed", "c1"],
    "standard-greedy-3p": ["--variant", "standard", "--players", "3", "--games", "4", "--bots", "greedy",
                           "--seed", "c2"],
    "standard-mcts": ["--variant", "standard", "--players", "2", "--games", "2", "--bots", "mcts,greedy",
                      "--playouts", "40", "--seed", "c3"],
    "grey-wall-greedy": ["--variant", "grey-wall", "--players", "2", "--games", "2", "--bots", "greedy,random",
                         "--seed", "c4"],
    "duel-random": ["--variant", "duel", "--players", "2", "--games", "20", "--bots", "random", "--seed", "c5"],
    "wild-tiles-greedy": ["--variant", "wild-tiles/wild-tiles.yaml", "--players", "2",
                          "--games", "3", "--bots", "greedy,random", "--seed", "c6"],
    "sixth-colour-random": ["--variant", "sixth-colour/sixth-colour.yaml", "--players", "2",
                            "--games", "10", "--bots", "random", "--seed", "c7"],
}


def play(args: list[str], cwd: Path) -> dict[str, str]:
    """The run's records (file name -> sha256 of its bytes) and the digest of its JSON summary,
    played in ``cwd`` (outside the source tree) with the example variants copied there: a
    record names its variant file by its path from the record's folder."""
    for example in ("wild-tiles", "sixth-colour"):
        shutil.copytree(EXAMPLES / example, cwd / example)
    folder = cwd / "records"
    done = subprocess.run([sys.executable, "-m", "azul_core.cli", "simulate", *args, "--workers", "1",
                           "--record-dir", "records", "--json"],
                          capture_output=True, cwd=cwd, timeout=600, check=True)
    digests = {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in sorted(folder.iterdir())}
    summary = json.loads(done.stdout)
    del summary["record_dir"]
    same_anywhere = json.dumps(summary, sort_keys=True).replace(str(cwd), "")
    digests["summary"] = hashlib.sha256(same_anywhere.encode()).hexdigest()
    return digests


@pytest.mark.parametrize("name", sorted(RUNS))
def test_seeded_games_write_the_recorded_records_in_either_build(name, tmp_path):
    expected = json.loads(EXPECTED.read_text())[name]
    assert play(RUNS[name], tmp_path) == expected


def test_the_engine_that_runs_is_the_one_ci_built():
    """.ci/run names the build it installed (AZUL_EXPECT_ENGINE): a compile that fell back to
    Python unnoticed would test the pure-Python engine twice."""
    wanted = os.environ.get("AZUL_EXPECT_ENGINE")
    if wanted is None:
        pytest.skip("AZUL_EXPECT_ENGINE is not set (.ci/run sets it)")
    assert engine_kind() == wanted


def test_the_engine_kind_follows_where_the_modules_come_from():
    compiled = [module for module in COMPILED_MODULES if is_compiled(module)]
    kind = engine_kind()
    assert (kind == "pure Python") == (not compiled)
    assert (kind == "compiled (mypyc)") == (len(compiled) == len(COMPILED_MODULES))
    assert not is_compiled("azul_core.engine.compiled")  # setup.py reads it before the build


def write_expected() -> None:
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        expected = {}
        for name, args in sorted(RUNS.items()):
            (Path(folder) / name).mkdir()
            expected[name] = play(args, Path(folder) / name)
    EXPECTED.write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    print(f"wrote {EXPECTED} with the {engine_kind()} engine")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_compiled_engine.py --write")
    write_expected()
