"""Tests written for the survivors of the ``plugins`` mutation scope (bench/mutation.py): the
plugin loader and the hook compiler, as a plugin's author and a variant's user meet them."""

from __future__ import annotations

from pathlib import Path

from azul_core.engine.plugins import code_of, runs_code


def test_the_code_a_plugin_reference_stands_for_is_named_in_words(tmp_path):
    assert code_of("house.py", base_dir=tmp_path) == f"the file {tmp_path / 'house.py'}"
    assert code_of("/abs/house.py", base_dir=tmp_path) == "the file /abs/house.py"
    assert code_of("house.py") == f"the file {Path('house.py')}"
    assert code_of("house_rules") == "the Python module 'house_rules'"
    # a file or a module from the Python path runs code nobody installed; an installed plugin not
    assert runs_code("house.py") and runs_code("house_rules")
    assert not runs_code("grey_wall")
