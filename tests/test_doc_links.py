"""Every Markdown link of README.md, docs/ and examples/ leads to a file of this repository.

A clone must be complete on its own: a relative link that climbs out of the
repository (``../shared/...``), an absolute path, or a link to a file that is
not there fails. Web addresses (``https://...``) and links within a page
(``#...``) are not files and are left alone.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "examples").rglob("*.md")])

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
_CODE = re.compile(r"`[^`\n]*`")
_INLINE = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s{0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
_WEB = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)  # https:, mailto:, ...


def links(text: str) -> list[str]:
    """The targets of a Markdown text's links and images, code left out."""
    text = _CODE.sub("", _FENCE.sub("", text))
    return _INLINE.findall(text) + _REFERENCE.findall(text)


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    problems = []
    for target in links(page.read_text(encoding="utf-8")):
        if target.startswith("#") or (_WEB.match(target) and not target.lower().startswith("file:")):
            continue
        path = target.split("#", 1)[0].split("?", 1)[0]
        if target.lower().startswith("file:") or path.startswith("/"):
            problems.append(f"{target}: an absolute path, not a file of the repository")
            continue
        resolved = (page.parent / path).resolve()
        if not resolved.is_relative_to(root):
            problems.append(f"{target}: outside the repository")
        elif not resolved.exists():
            problems.append(f"{target}: no such file")
    return problems


def test_the_pages_are_found():
    names = {page.relative_to(ROOT).as_posix() for page in PAGES}
    assert {"README.md", "docs/records.md", "docs/rules/standard.md", "docs/rules/duel.md",
            "docs/rules/grey-wall.md", "examples/README.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_link_leads_to_a_file_of_the_repository(page):
    assert broken_links(page) == []


def test_a_link_out_of_the_repository_or_to_nothing_fails(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "here.md").write_text("x")
    page = tmp_path / "docs" / "page.md"
    page.write_text(
        "[ok](here.md) [ok too](here.md#part) [web](https://example.org) [anchor](#top)\n"
        "[shared](../../shared/rules/duel.md) [gone](missing.md) ![picture](/etc/passwd)\n"
        "[ref]: ../../outside.md\n"
        "`[not a link](../../x.md)`\n\n```\n[nor this](../../y.md)\n```\n")
    assert broken_links(page, tmp_path) == [
        "../../shared/rules/duel.md: outside the repository",
        "missing.md: no such file",
        "/etc/passwd: an absolute path, not a file of the repository",
        "../../outside.md: outside the repository",
    ]
