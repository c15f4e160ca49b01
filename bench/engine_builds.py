"""The compiled engine against the pure-Python one (issue 44), measured in one run.

    python bench/engine_builds.py --engine main=/tmp/main-venv/bin/python \\
        --engine pure=/tmp/pure-venv/bin/python --engine compiled=/tmp/compiled-venv/bin/python

Each ``--engine NAME=PYTHON`` is an environment with azul-variants installed (``pip install .``
for the compiled engine, ``AZUL_PURE_PYTHON=1 pip install .`` for the pure-Python one, or
another commit's checkout); ``NAME=PYTHON@FOLDER`` runs that Python with ``FOLDER`` first on
``PYTHONPATH`` (a checkout of another commit). The engines take turns, ``--rounds`` times,
so that a change of the machine's load falls on all of them alike, and each measure is
printed as the median and the best of the rounds, with its ratio to the first engine's.

The measures: whole ``azul simulate`` processes (2 players, ``--workers 1``, start-up
included), standard random and greedy, grey-wall and duel random games per CPU-second of the
process; and the search bot's playouts per CPU-second inside one process (``bench/speed.py
--bots``). The games are the same in every build (tests/test_compiled_engine.py), so the
figures compare like with like.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

SPEED = Path(__file__).resolve().parent / "speed.py"
#: measure -> (the simulate arguments, games)
PROCESSES = {
    "random": (["--variant", "standard", "--bots", "random", "--games", "6000"], 6000),
    "greedy": (["--variant", "standard", "--bots", "greedy", "--games", "600"], 600),
    "grey-wall random": (["--variant", "grey-wall", "--bots", "random", "--games", "3000"], 3000),
    "duel random": (["--variant", "duel", "--bots", "random", "--games", "3000"], 3000),
}


def parse_engine(text: str) -> tuple[str, str, str | None]:
    name, _, rest = text.partition("=")
    python, _, folder = rest.partition("@")
    if not name or not python:
        raise argparse.ArgumentTypeError(f"expected NAME=PYTHON or NAME=PYTHON@FOLDER, got {text!r}")
    return name, python, folder or None


def environment(folder: str | None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if folder:
        env["PYTHONPATH"] = folder
    return env


def child_cpu(args: list[str], env: dict[str, str], cwd: str) -> tuple[float, bytes]:
    """CPU seconds (user + system) the process took, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(args, check=True, capture_output=True, env=env, cwd=cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def engine_kind(python: str, env: dict[str, str], cwd: str) -> str:
    done = subprocess.run([python, "-m", "azul_core.cli", "--version"], capture_output=True, text=True,
                          env=env, cwd=cwd)
    lines = done.stdout.splitlines()
    return lines[1] if len(lines) > 1 else "engine: pure Python (before issue 44)"


def measure_once(python: str, env: dict[str, str], cwd: str) -> dict[str, float]:
    figures = {}
    for measure, (args, games) in PROCESSES.items():
        cpu, _ = child_cpu([python, "-m", "azul_core.cli", "simulate", "--players", "2",
                            "--workers", "1", "--seed", "1", "--json", *args], env, cwd)
        figures[f"{measure} games per CPU-second"] = games / cpu
    _, printed = child_cpu([python, str(SPEED), "--bots", "--json"], env, cwd)
    bots = json.loads(printed)
    figures["greedy games per CPU-second (in-process)"] = bots["greedy_games_per_cpu_second"]
    figures["search playouts per CPU-second"] = bots["search"]["playouts_per_cpu_second"]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", action="append", type=parse_engine, required=True,
                        help="NAME=PYTHON or NAME=PYTHON@FOLDER (repeat; the first is the yardstick)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    runs: dict[str, list[dict[str, float]]] = {name: [] for name, _, _ in options.engine}
    with tempfile.TemporaryDirectory() as cwd:  # outside any checkout: the installed code runs
        kinds = {name: engine_kind(python, environment(folder), cwd) for name, python, folder in options.engine}
        for round_number in range(options.rounds):
            for name, python, folder in options.engine:
                runs[name].append(measure_once(python, environment(folder), cwd))
                print(f"round {round_number + 1}: {name} done", file=sys.stderr)
    first = options.engine[0][0]
    summary = {}
    for name in runs:
        summary[name] = {"engine": kinds[name]}
        for measure in runs[name][0]:
            values = [run[measure] for run in runs[name]]
            yardstick = statistics.median(run[measure] for run in runs[first])
            summary[name][measure] = {"median": round(statistics.median(values), 1), "best": round(max(values), 1),
                                      "ratio": round(statistics.median(values) / yardstick, 3)}
    if options.json:
        print(json.dumps(summary, indent=2))
        return
    for name, figures in summary.items():
        print(f"{name} ({figures['engine']})")
        for measure, value in figures.items():
            if measure != "engine":
                print(f"  {measure}: {value['median']} median, {value['best']} best, x{value['ratio']} of {first}")


if __name__ == "__main__":
    main()
