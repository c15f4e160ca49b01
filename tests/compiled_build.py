"""Tests that spy on the bots' or the engine's internals by patching a module's function or a
class's method run with the pure-Python engine only: compiled by mypyc (setup.py), a module
calls its own functions and methods directly, past any patch. .ci/run runs them in its
pure-Python pass; the behaviour they watch is the same source in both builds, and
tests/test_compiled_engine.py checks that both builds play the same games."""

from __future__ import annotations

import pytest

from azul_core.engine.compiled import is_compiled


def patches_internals_of(*modules: str) -> pytest.MarkDecorator:
    """Skip the test where one of ``modules`` is compiled."""
    compiled = [module for module in modules if is_compiled(module)]
    return pytest.mark.skipif(bool(compiled), reason=f"patches the internals of {', '.join(compiled)}, "
                                                     "compiled here: run with the pure-Python engine")
