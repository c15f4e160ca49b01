"""A pytest plugin for bench/mutation.py's runs: a mutant's tests quickest first, and a test
that hangs ends the mutant's run at once.

mutmut runs, for each mutant, the tests that reach the mutated function and stops at the
first failure (``-x``):

- A mutant that stops the bots, or a server's answer, makes a test wait, and mutmut gives up
  only at its own limit: (the time of all the function's tests + 10 s) x 15 for the run, ten
  minutes and more for a function most server tests reach. Here a test past
  ``FLOOR_S + FACTOR x`` its own recorded time ends the run with mutmut's code for a timeout
  (caught, as mutmut counts it). That is what took the ``web`` scope hours.
- A mutant is usually caught by many of its tests, the quick ones as well as the slow: run
  first, the quick ones catch it in a fraction of the time. mutmut's usual runner orders them
  so; the one of the confirming pass in fresh processes (``--recheck``) does not: here both do.

Both use the time each test took in mutmut's first pass over the tests (``mutmut-stats.json``,
beside the tests mutmut runs) and apply only while a mutant is under test; the pass that
measures the tests, and plain pytest, are left alone. mutation.py loads it with ``-p``.
"""

from __future__ import annotations

import json
import math
import os
import sys
import threading
from pathlib import Path

import pytest

#: mutmut's record of each test's time, in the folder it runs the tests from (``mutants/``).
STATS = Path("mutmut-stats.json")
#: The exit code mutmut reads as "timeout".
TIMEOUT_EXIT = 36
#: A test's limit: this many seconds (its set-up, a busy machine) ...
FLOOR_S = 10.0
#: ... plus this many times the time it took in mutmut's measuring pass.
FACTOR = 5.0
#: The recorded time assumed for a test mutmut has not measured (a test newer than its pass).
UNMEASURED_S = 60.0


def _under_a_mutant() -> bool:
    return "__mutmut_" in os.environ.get("MUTANT_UNDER_TEST", "")


def _recorded_times() -> dict[str, float]:
    try:
        return dict(json.loads(STATS.read_text(encoding="utf-8"))["duration_by_test"])
    except (OSError, ValueError, KeyError, TypeError):
        return {}


_times: dict[str, float] = {}


def pytest_configure(config: pytest.Config) -> None:
    if _under_a_mutant():
        _times.update(_recorded_times())


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if _times:  # a stable sort: tests of the same time keep their order
        items.sort(key=lambda item: _times.get(item.nodeid, math.inf))


def _hung(nodeid: str, limit: float) -> None:
    sys.stderr.write(f"\nmutation_pytest: {nodeid} ran past {limit:.0f} s: the mutant made it hang\n")
    sys.stderr.flush()
    os._exit(TIMEOUT_EXIT)  # the test's own threads may hang too: nothing is waited for


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    if not _under_a_mutant():
        return (yield)
    limit = FLOOR_S + FACTOR * _times.get(item.nodeid, UNMEASURED_S)
    timer = threading.Timer(limit, _hung, args=(item.nodeid, limit))
    timer.daemon = True
    timer.start()
    try:
        return (yield)
    finally:
        timer.cancel()
