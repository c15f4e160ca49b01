"""Fixtures shared by several test files."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture
def site_folder(tmp_path, monkeypatch):
    """A folder on sys.path (to import modules or install distributions by hand); what was
    imported from it is forgotten afterwards."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    yield folder
    for name, module in list(sys.modules.items()):  # only what was imported from the folder
        if str(getattr(module, "__file__", None) or "").startswith(str(folder)):
            del sys.modules[name]
