"""docs/ai.md: its random-agent loops run and print what the page shows."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

DOC = Path(__file__).resolve().parents[2] / "docs" / "ai.md"
BLOCK = re.compile(r"```python\n(import .*?)```\n\n```console\n(.*?)```", re.S)


def examples():
    return BLOCK.findall(DOC.read_text())


def test_the_page_has_a_loop_for_each_library():
    texts = [code for code, _shown in examples()]
    assert len(texts) == 2
    assert "azul_core.rl.env(" in texts[0] and "python_azul" in texts[1]
    assert all(len(code.splitlines()) <= 22 for code in texts)


@pytest.mark.parametrize("index", [0, 1])
def test_each_loop_prints_what_the_page_shows(index, tmp_path, monkeypatch):
    code, shown = examples()[index]
    monkeypatch.chdir(tmp_path)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, f"docs/ai.md example {index + 1}", "exec"), {})
    expected = []
    for line in shown.splitlines():
        if line.startswith("$"):
            break
        expected.append(line)
    assert printed.getvalue().splitlines() == expected
