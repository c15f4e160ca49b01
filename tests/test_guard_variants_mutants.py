"""Tests written for the survivors of the mutation run of the `variants` scope (issue 24).

Each one was checked to fail with the mutant it answers planted by hand; docs/testing.md
lists the mutants and what was done about each.
"""

from __future__ import annotations

import pytest

from azul_core.variants.limits import InputRefused, read_regular_file


@pytest.mark.parametrize("size", [0, 1, 100])
def test_a_file_at_its_size_limit_is_read_and_one_byte_more_is_refused(tmp_path, size):
    path = tmp_path / "file.yaml"
    path.write_bytes(b"x" * size)
    assert read_regular_file(path, size) == b"x" * size
    path.write_bytes(b"x" * (size + 1))
    with pytest.raises(InputRefused) as refused:
        read_regular_file(path, size)
    assert refused.value.reason == f"larger than {size} bytes ({size + 1}): refused"


def test_a_folder_or_a_missing_file_is_refused_with_what_it_is(tmp_path):
    with pytest.raises(InputRefused) as refused:
        read_regular_file(tmp_path, 10)
    assert refused.value.reason == "a folder, not a regular file: refused"
    with pytest.raises(InputRefused) as refused:
        read_regular_file(tmp_path / "nothing.yaml", 10)
    assert refused.value.reason == "no such file"
