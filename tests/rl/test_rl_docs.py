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


def test_the_observation_table_matches_the_layout():
    from azul_core.rl import encoding
    rows = re.findall(r"^\| (\d+)(?:-(\d+))? \| `([^`]+)`", DOC.read_text(), re.M)
    shown = {name: (int(first), int(last or first)) for first, last, name in rows}
    layout = {name: (start, start + size - 1) for name, start, size in encoding.observation_layout(2)}
    for name in ("factories", "centre", "marker_in_centre", "bag", "lid", "round", "placing_row",
                 "to_move", "seat+0.lines", "seat+0.wall"):
        assert shown[name] == layout[name], name
    assert shown["seat+k.score"] == (layout["seat+0.score"][0], layout["seat+1.score"][1])
    assert shown["seat+1.lines"][1] == encoding.observation_size(2) - 1
