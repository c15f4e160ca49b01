"""Every name of the package a page of README.md, docs/ or examples/ gives in code
(`azul_core.players.registry.available_bots`) exists: a page sends no reader to a function that
moved (docs/play.md named ``azul_core.players.bots.available_bots``, issue 40)."""

from __future__ import annotations

import importlib
import re

import pytest
from test_doc_links import PAGES, ROOT

_NAME = re.compile(r"`(azul_core(?:\.[A-Za-z_]\w*)+)")


def resolves(dotted: str) -> bool:
    """Whether ``dotted`` is a module of the package, or an attribute (of an attribute...) of one."""
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def test_a_moved_or_misspelt_name_does_not_resolve():
    assert resolves("azul_core.players.registry.available_bots")
    assert resolves("azul_core.testing")
    assert not resolves("azul_core.players.bots.available_bots")
    assert not resolves("azul_core.no_such_module.thing")


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_package_name_a_page_gives_exists(page):
    names = sorted(set(_NAME.findall(page.read_text(encoding="utf-8"))))
    assert [name for name in names if not resolves(name)] == []
