"""Which engine runs: the hot modules compiled by mypyc at install time, or their Python source.

``setup.py`` compiles the modules listed here when ``pip install .`` finds mypy and a C
compiler (docs/architecture.md, "The compiled engine"); the ``.py`` files are installed
beside them either way, so a build that fails or is skipped (``AZUL_PURE_PYTHON=1``) runs
the same source as Python. Both play the same games for a seed. This module imports
nothing of the project, so that ``setup.py`` reads the list from it before anything is built.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util

#: The modules mypyc compiles: where a random, a greedy and a search game, and an RL step, spend their time
#: (``azul_core.walls``: the wall questions the shipped rule plugins ask at every placement).
COMPILED_MODULES = (
    "azul_core.engine.board_tables",
    "azul_core.engine.notation",
    "azul_core.engine.rulebook",
    "azul_core.engine.state",
    "azul_core.engine.transfers",
    "azul_core.players.bots",
    "azul_core.players.evaluation",
    "azul_core.players.search",
    "azul_core.rl.encoding",
    "azul_core.rl.stepping",
    "azul_core.walls",
)


def is_compiled(module: str) -> bool:
    """Whether ``module`` would be (or was) imported from a compiled extension."""
    spec = importlib.util.find_spec(module)
    origin = spec.origin if spec is not None else None
    return origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def fields_of(cls: type) -> tuple[str, ...]:
    """The names of the attributes of a class with ``__slots__`` (``GameState``, ``PlayerBoard``):
    compiled by mypyc, the class lists them in ``__mypyc_attrs__`` and has no ``__slots__``."""
    return getattr(cls, "__mypyc_attrs__", None) or cls.__slots__  # type: ignore[attr-defined]


def engine_kind() -> str:
    """``compiled (mypyc)``, ``pure Python``, or how many modules are compiled if only some are."""
    compiled = [module for module in COMPILED_MODULES if is_compiled(module)]
    if not compiled:
        return "pure Python"
    if len(compiled) == len(COMPILED_MODULES):
        return "compiled (mypyc)"
    return f"partly compiled (mypyc): {len(compiled)} of {len(COMPILED_MODULES)} modules"
