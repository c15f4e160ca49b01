"""Fixtures shared by several test files."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

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


# ------------------------------------------------------------------ one code under test
#
# In-process tests import the installed azul_core and azul_plugins; a subprocess started from
# the repository root would import the source azul_core instead (its folder comes first on
# sys.path) next to the installed plugins. So subprocesses start in ``outside_the_tree``, and
# the session refuses to start when the installed packages are not the files of this tree
# (a stale non-editable install): every test then runs one and the same code.

REPOSITORY = Path(__file__).resolve().parent.parent
#: package -> its source folder in this tree (pyproject.toml's package-dir)
SOURCES = {"azul_core": REPOSITORY / "azul_core", "azul_plugins": REPOSITORY / "plugins",
           "azul_variants": REPOSITORY / "variants"}
SHIPPED = {".py", ".yaml", ".yml", ".toml"}


def _shipped_files(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.suffix in SHIPPED and "__pycache__" not in path.parts and path.is_file()}


def installed_differences() -> list[str]:
    """What differs between the imported packages and this tree's source files."""
    found = []
    for name, source in SOURCES.items():
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            found.append(f"{name} can't be imported ({exc})")
            continue
        installed = Path(module.__file__).resolve().parent
        if installed == source.resolve():
            continue  # an editable install: the tree itself
        ours, theirs = _shipped_files(source), _shipped_files(installed)
        changed = sorted(f for f in ours.keys() | theirs.keys() if ours.get(f) != theirs.get(f))
        if changed:
            found.append(f"{name} imported from {installed} differs from {source} in "
                         f"{', '.join(changed[:5])}{' ...' if len(changed) > 5 else ''}")
    return found


def pytest_sessionstart(session):
    differences = installed_differences()
    if differences:
        raise pytest.UsageError(
            "the installed azul-variants is not this tree, so tests would run other code than "
            "the one checked out:\n  " + "\n  ".join(differences)
            + "\nInstall the tree (while developing: pip install -e \".[test]\") and run pytest again.")


@pytest.fixture(scope="session")
def outside_the_tree(tmp_path_factory) -> Path:
    """A working folder for subprocesses, so that `python -m azul_core.cli` imports the
    installed package, as the in-process tests do, not the source folder beside it."""
    return tmp_path_factory.mktemp("outside-the-tree")


# ------------------------------------------------------------------ mutation testing
#
# bench/mutation.py (mutmut) first runs the tests once to learn which tests run each function,
# then forks each mutant's test process from that one. A variant that ``azul_core.testing`` or
# the record reader loaded and kept would hide its loading from both: the tests after the first
# would not be counted as running the loader, and a mutant's process would reuse a variant
# built by the unchanged code. Under mutmut, every test starts with those kept variants
# forgotten. (A variant a test module loads at import is still the old one: mutmut's second,
# fresh pass catches those.)

#: the values mutmut gives MUTANT_UNDER_TEST where no variant kept need be forgotten
_NOT_A_MUTANT = {"", "fail", "list_all_tests"}


def forget_variants_kept_by_the_unchanged_code() -> None:
    if os.environ.get("MUTANT_UNDER_TEST", "") in _NOT_A_MUTANT:
        return
    from azul_core import testing
    from azul_core.records import game_record
    testing._variants.clear()
    game_record._VARIANTS.clear()


def pytest_runtest_setup(item):
    forget_variants_kept_by_the_unchanged_code()


@pytest.fixture(scope="session")
def load_bench():
    """``load_bench("bot_strength")``: a script of bench/ imported as a module (bench/ is no
    package: its scripts are run by path)."""
    import importlib.util

    def load(name: str):
        spec = importlib.util.spec_from_file_location(f"bench_{name}", Path(__file__).resolve().parent.parent
                                                      / "bench" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    return load
