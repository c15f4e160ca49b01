"""The web tests' catalog of variants (conftest.py's ``catalog``), built once a process.

A module of its own because pytest imports a conftest.py anew in each test session, where a
helper module is imported once: bench/mutation.py's `web` scope builds the catalog in the
process mutmut forks every mutant's test session from (conftest.py says when)."""

from __future__ import annotations

import functools
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@functools.cache
def shipped_and_example_variants():
    """The shipped variants and the house rules of examples/. Nothing changes a catalog once built."""
    from azul_core.web.catalog import build_catalog
    return build_catalog([EXAMPLES])
