"""The test module docs/testing.md shows for rules with moves, memory and secrets runs and passes:
a reader who copies it starts from tests that work (issue 40)."""

from __future__ import annotations

import re

import pytest
from test_doc_links import ROOT

PAGE = ROOT / "docs" / "testing.md"


def shown_tests() -> dict:
    """The test functions of the page's ``test_secret_rules.py`` block, by name."""
    block = re.search(r"```python\n(# test_secret_rules\.py.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    assert block, "docs/testing.md no longer shows test_secret_rules.py"
    names: dict = {}
    exec(compile(block.group(1), f"{PAGE}:test_secret_rules.py", "exec"), names)
    return {name: test for name, test in names.items() if name.startswith("test_")}


def test_the_page_shows_a_test_of_moves_of_memory_and_of_secrets():
    assert len(shown_tests()) == 3


@pytest.mark.parametrize("name", sorted(shown_tests()))
def test_each_shown_test_passes(name, monkeypatch):
    monkeypatch.chdir(ROOT)  # the page's variant paths are the repository's
    shown_tests()[name]()
