"""House rules and shipped plugins are written against the public plugin API only.

import-linter (run by .ci/run) keeps the layers of azul_core; the examples are
not a package it can see, so their imports are read here.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PUBLIC = {"azul_core", "azul_core.hookspecs", "azul_core.settings", "azul_core.rules", "azul_core.colours",
          "azul_core.testing", "azul_core.walls"}
PLUGIN_FILES = sorted((ROOT / "examples").rglob("*.py")) + sorted((ROOT / "plugins").glob("*.py"))


def azul_imports(path: Path) -> set[str]:
    """Every ``azul_core`` module a file imports, at any depth of its code."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found.update(name for name in names if name.split(".")[0] == "azul_core")
    return found


@pytest.mark.parametrize("path", PLUGIN_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_plugins_and_examples_use_the_public_api_only(path):
    assert azul_imports(path) <= PUBLIC


def test_the_check_sees_an_import_of_the_engine(tmp_path):
    plugin = tmp_path / "sneaky.py"
    plugin.write_text("from azul_core import hookimpl\n\ndef rule():\n    from azul_core.engine.state import GameState\n")
    assert azul_imports(plugin) - PUBLIC == {"azul_core.engine.state"}


def test_there_are_plugins_to_check():
    assert len(PLUGIN_FILES) >= 8
