"""bench/mutation_pytest.py, the pytest plugin of bench/mutation.py's runs: in mutmut's
measuring pass it notes each test's whole time; while a mutant is under test, its tests run
quickest first and a test that hangs ends the run with mutmut's code for a timeout; otherwise
it changes nothing.

Each test runs pytest in a process of its own on a scratch folder laid out as mutmut lays out
``mutants/``: the tests and mutmut's ``mutmut-stats.json`` of their calls' times (or the
plugin's own ``mutation-times.json``)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"

TESTS = '''\
import time

def test_slow():
    print("ran slow")

def test_unmeasured():
    print("ran unmeasured")

def test_quick():
    print("ran quick")

def test_sleeps():
    time.sleep(3)
    print("ran sleeps")
'''

RECORDED = {"test_a.py::test_slow": 2.0, "test_a.py::test_quick": 0.01, "test_a.py::test_sleeps": 0.1}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "test_a.py").write_text(TESTS, encoding="utf-8")
    # the limit is FLOOR_S + FACTOR x the recorded time: 1 s + 2 x 0.1 s for test_sleeps
    (tmp_path / "conftest.py").write_text("import mutation_pytest\nmutation_pytest.FLOOR_S = 1.0\n"
                                          "mutation_pytest.FACTOR = 2.0\n", encoding="utf-8")
    (tmp_path / "mutmut-stats.json").write_text(json.dumps({"duration_by_test": RECORDED}), encoding="utf-8")
    return tmp_path


def pytest_in(folder: Path, mutant: str | None, *args: str, skip: Path | None = None,
              patience: str | None = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("MUTANT_UNDER_TEST", "AZUL_MUTATION_SKIP", "AZUL_MUTATION_PATIENCE")}
    environment["PYTHONPATH"] = str(BENCH)
    if skip is not None:
        environment["AZUL_MUTATION_SKIP"] = str(skip)
    if patience is not None:
        environment["AZUL_MUTATION_PATIENCE"] = patience
    if mutant is not None:
        environment["MUTANT_UNDER_TEST"] = mutant
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "mutation_pytest", "-p", "no:cacheprovider",
                           "-s", "-q", "--rootdir", str(folder), *args, "test_a.py"],
                          cwd=folder, env=environment, capture_output=True, text=True, timeout=60, check=False)


def order_run(output: str) -> list[str]:
    return re.findall(r"ran (\w+)", output)  # -s: each test's print, after the dots of the ones before


def test_under_a_mutant_the_tests_run_quickest_first_and_the_unmeasured_last(folder):
    done = pytest_in(folder, "azul_core.web.table.x_f__mutmut_1", "-k", "not sleeps")
    assert done.returncode == 0, done.stdout + done.stderr
    assert order_run(done.stdout) == ["quick", "slow", "unmeasured"]


def test_a_test_past_its_limit_ends_the_run_as_a_timeout_and_is_named(folder):
    done = pytest_in(folder, "azul_core.web.table.x_f__mutmut_1", "-k", "sleeps or slow")
    assert done.returncode == 36  # mutmut's "timeout"
    assert "test_a.py::test_sleeps ran past 1.2 s" in done.stderr
    assert "sleeps" not in order_run(done.stdout)  # ended, not waited for
    assert "slow" not in order_run(done.stdout)  # the quicker test_sleeps came first: nothing after it ran


def test_patience_makes_every_limit_that_many_times_longer(folder):
    # test_sleeps sleeps 3 s against a limit of 1.2 s: 3 x 1.2 s lets it end
    done = pytest_in(folder, "azul_core.web.table.x_f__mutmut_1", "-k", "sleeps", patience="3")
    assert done.returncode == 0, done.stdout + done.stderr
    assert order_run(done.stdout) == ["sleeps"]
    for unusable in ("0", "soon"):  # never shorter than the usual limit, and a typo changes nothing
        done = pytest_in(folder, "azul_core.web.table.x_f__mutmut_1", "-k", "quick", patience=unusable)
        assert done.returncode == 0, (unusable, done.stdout + done.stderr)
        assert order_run(done.stdout) == ["quick"]


@pytest.mark.parametrize("mutant", [None, "stats", ""], ids=["plain pytest", "measuring pass", "clean run"])
def test_without_a_mutant_nothing_changes(folder, mutant):
    done = pytest_in(folder, mutant)
    assert done.returncode == 0, done.stdout + done.stderr
    assert order_run(done.stdout) == ["slow", "unmeasured", "quick", "sleeps"]


def test_a_missing_or_broken_record_of_times_changes_nothing(folder):
    (folder / "mutmut-stats.json").write_text("{not json", encoding="utf-8")
    done = pytest_in(folder, "azul_core.web.table.x_f__mutmut_1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert order_run(done.stdout) == ["slow", "unmeasured", "quick", "sleeps"]


LISTED = "azul_core.web.store.x_f__mutmut_4"


@pytest.fixture
def skip_file(tmp_path: Path) -> Path:
    path = tmp_path / "known-equivalents.json"
    path.write_text(json.dumps({LISTED: "SQL keywords are case-insensitive"}), encoding="utf-8")
    return path


def test_a_mutant_listed_as_equivalent_is_skipped_before_any_test_and_says_why(folder, skip_file):
    done = pytest_in(folder, LISTED, skip=skip_file)
    assert done.returncode == 34  # mutmut's "skipped"
    assert f"{LISTED} is listed as equivalent: SQL keywords are case-insensitive" in done.stderr
    assert order_run(done.stdout) == []


@pytest.mark.parametrize("mutant", ["azul_core.web.store.x_f__mutmut_5", "stats", None],
                         ids=["another mutant", "measuring pass", "plain pytest"])
def test_what_is_not_listed_runs_its_tests(folder, skip_file, mutant):
    done = pytest_in(folder, mutant, "-k", "not sleeps", skip=skip_file)
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(order_run(done.stdout)) == ["quick", "slow", "unmeasured"]


def test_an_unreadable_list_of_equivalents_skips_nothing(folder, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("[not json", encoding="utf-8")
    for listing in (broken, tmp_path / "missing.json"):
        done = pytest_in(folder, LISTED, "-k", "quick", skip=listing)
        assert done.returncode == 0, done.stdout + done.stderr
        assert order_run(done.stdout) == ["quick"]


SET_UP = '''\
import time
import pytest

@pytest.fixture
def slow_to_set_up():
    time.sleep(0.5)

def test_quick_call_slow_set_up(slow_to_set_up):
    print("ran set_up")

def test_quick():
    print("ran quick")

def test_middling():
    time.sleep(0.2)
    print("ran middling")
'''


def test_the_measuring_pass_notes_each_test_s_whole_time_and_a_mutant_s_run_orders_by_it(folder):
    (folder / "test_a.py").write_text(SET_UP, encoding="utf-8")
    (folder / "mutmut-stats.json").unlink()  # mutmut's calls alone would put the set-up first
    measured = pytest_in(folder, "stats")
    assert measured.returncode == 0, measured.stdout + measured.stderr
    times = json.loads((folder / "mutation-times.json").read_text(encoding="utf-8"))
    assert set(times) == {"test_a.py::test_quick_call_slow_set_up", "test_a.py::test_quick",
                          "test_a.py::test_middling"}
    assert times["test_a.py::test_quick_call_slow_set_up"] >= 0.5  # its set-up counted
    assert 0.2 <= times["test_a.py::test_middling"] < 0.5
    done = pytest_in(folder, "azul_core.web.table.x_f__mutmut_1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert order_run(done.stdout) == ["quick", "middling", "set_up"]


def test_a_measuring_pass_of_new_tests_keeps_the_times_of_the_others(folder):
    (folder / "mutation-times.json").write_text(json.dumps({"test_a.py::test_gone": 1.5}), encoding="utf-8")
    measured = pytest_in(folder, "stats", "-k", "quick")
    assert measured.returncode == 0, measured.stdout + measured.stderr
    times = json.loads((folder / "mutation-times.json").read_text(encoding="utf-8"))
    assert set(times) == {"test_a.py::test_gone", "test_a.py::test_quick"}
    assert times["test_a.py::test_gone"] == 1.5


@pytest.mark.parametrize("mutant", [None, ""], ids=["plain pytest", "clean run"])
def test_only_the_measuring_pass_notes_times(folder, mutant):
    assert pytest_in(folder, mutant, "-k", "quick").returncode == 0
    assert not (folder / "mutation-times.json").exists()


MEASURE_THEN_MUTANT = '''\
import os, sys
from pathlib import Path
import pytest
os.environ["MUTANT_UNDER_TEST"] = "stats"
assert pytest.main(["-p", "mutation_pytest", "-p", "no:cacheprovider", "-q", "test_a.py", "-k", "quick"]) == 0
Path("mutation-times.json").unlink()
os.environ["MUTANT_UNDER_TEST"] = "azul_core.web.table.x_f__mutmut_1"
assert pytest.main(["-p", "mutation_pytest", "-p", "no:cacheprovider", "-q", "test_a.py", "-k", "quick"]) == 0
print("rewritten" if Path("mutation-times.json").exists() else "left alone")
'''


def test_a_mutant_s_process_forked_from_the_measuring_one_writes_no_times(folder):
    """mutmut measures in its own process and forks each mutant's from it: the measurements the
    plugin holds are inherited, and must not be written again (four processes at once would
    rewrite the file another is reading)."""
    (folder / "measure_then_mutant.py").write_text(MEASURE_THEN_MUTANT, encoding="utf-8")
    environment = dict(os.environ, PYTHONPATH=str(BENCH))
    done = subprocess.run([sys.executable, "measure_then_mutant.py"], cwd=folder, env=environment,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("left alone")
