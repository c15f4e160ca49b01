"""A pytest plugin for bench/mutation.py's runs: a test that hangs ends the mutant's run at
once, and a mutant's tests run quickest first.

mutmut runs, for each mutant, the tests that reach the mutated function and stops at the
first failure (``-x``):

- A mutant that stops the bots, or a server's answer, makes a test wait, and mutmut gives up
  only at its own limit: (the time of all the function's tests + 10 s) x 15 for the run, ten
  minutes and more for a function most server tests reach. Here a test past
  ``FLOOR_S + FACTOR x`` its own measured time ends the run with mutmut's code for a timeout
  (caught, as mutmut counts it). That is what took the ``web`` scope hours.
- A mutant is usually caught by many of its tests, the quick ones as well as the slow: run
  first, the quick ones catch it in a fraction of the time. mutmut's usual runner orders them
  by the time of their calls; the one of the confirming pass in fresh processes (``--recheck``)
  does not order them at all: here both order them by their whole time.

- A mutant bench/mutation-equivalents.toml lists as equivalent (its function unchanged since it
  was read: mutation.py writes the names to the file ``AZUL_MUTATION_SKIP`` names) ends its
  test process before any test, with mutmut's code for "skipped": a survivor runs every test
  that reaches its function, a minute each for the store's, and the answer is known.

A test's time is measured in mutmut's first pass over the tests, the one that maps each
function to the tests that reach it: set-up, call and tear-down (mutmut's own record,
``mutmut-stats.json``, has only the calls, and a server test's time is mostly its set-up).
Both apply only while a mutant is under test; plain pytest is left alone. mutation.py loads
the plugin with ``-p``; the files are in the folder mutmut runs the tests from (``mutants/``).
"""

from __future__ import annotations

import json
import math
import os
import sys
import threading
from pathlib import Path

import pytest

#: Each test's whole time in mutmut's measuring pass (written by this plugin).
TIMES = Path("mutation-times.json")
#: mutmut's record, the calls' times only: used where TIMES is missing.
STATS = Path("mutmut-stats.json")
#: The exit code mutmut reads as "timeout".
TIMEOUT_EXIT = 36
#: The exit code mutmut reads as "skipped".
SKIPPED_EXIT = 34
#: The environment variable naming the file of the mutants to skip (name -> why), from mutation.py.
SKIP_VARIABLE = "AZUL_MUTATION_SKIP"
#: A test's limit: this many seconds (a busy machine, a process started) ...
FLOOR_S = 3.0
#: ... plus this many times its measured time.
FACTOR = 5.0
#: The time assumed for a test that was not measured (newer than the measuring pass).
UNMEASURED_S = 60.0
#: The environment variable that makes every limit that many times longer (mutation.py
#: ``--timeouts-again``: are a run's timeouts hangs, or tests the mutant only slowed down?).
PATIENCE_VARIABLE = "AZUL_MUTATION_PATIENCE"


def _patience() -> float:
    try:
        return max(1.0, float(os.environ.get(PATIENCE_VARIABLE, "1")))
    except ValueError:
        return 1.0


def _mutant_under_test() -> str:
    return os.environ.get("MUTANT_UNDER_TEST", "")


def _under_a_mutant() -> bool:
    return "__mutmut_" in _mutant_under_test()


def _read(path: Path, key: str | None = None) -> dict[str, float]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {str(test): float(time) for test, time in (data[key] if key else data).items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


_times: dict[str, float] = {}
_measured: dict[str, float] = {}


def _listed_as_equivalent(mutant: str) -> str | None:
    """Why ``mutant`` is listed as equivalent, or None."""
    listing = os.environ.get(SKIP_VARIABLE)
    if not listing:
        return None
    try:
        why = json.loads(Path(listing).read_text(encoding="utf-8")).get(mutant)
    except (OSError, ValueError, AttributeError):
        return None
    return str(why) if why else None


def pytest_configure(config: pytest.Config) -> None:
    if _under_a_mutant():
        why = _listed_as_equivalent(_mutant_under_test())
        if why:
            sys.stderr.write(f"\nmutation_pytest: {_mutant_under_test()} is listed as equivalent: {why}\n")
            sys.stderr.flush()
            os._exit(SKIPPED_EXIT)
        _times.update(_read(TIMES) or _read(STATS, "duration_by_test"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if _times:  # a stable sort: tests of the same time keep their order
        items.sort(key=lambda item: _times.get(item.nodeid, math.inf))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if _mutant_under_test() == "stats":  # mutmut's measuring pass
        _measured[report.nodeid] = _measured.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    # mutmut forks each mutant's test process from the one that measured, measurements and all:
    # only the measuring pass writes (mutmut measures again only the tests that are new: the
    # others' times are kept)
    if _measured and _mutant_under_test() == "stats":
        times = json.dumps({**_read(TIMES), **_measured}, indent=0, sort_keys=True)
        written = TIMES.with_name(f"{TIMES.name}.{os.getpid()}")
        written.write_text(times, encoding="utf-8")
        written.replace(TIMES)  # whole: a mutant's process may be reading it


def _hung(nodeid: str, limit: float) -> None:
    sys.stderr.write(f"\nmutation_pytest: {nodeid} ran past {limit:.1f} s: the mutant made it hang\n")
    sys.stderr.flush()
    os._exit(TIMEOUT_EXIT)  # the test's own threads may hang too: nothing is waited for


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    if not _under_a_mutant():
        return (yield)
    limit = (FLOOR_S + FACTOR * _times.get(item.nodeid, UNMEASURED_S)) * _patience()
    timer = threading.Timer(limit, _hung, args=(item.nodeid, limit))
    timer.daemon = True
    timer.start()
    try:
        return (yield)
    finally:
        timer.cancel()
