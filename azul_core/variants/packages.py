"""Plugin packages beside variant files: a folder with a ``pyproject.toml`` that declares
``azul.plugins`` entry points (``examples/plugin-package``). Its variant files name plugins
that exist once the package is installed, so until then they are not offered, and the
reason is that, not a broken file."""

from __future__ import annotations

import sys
from importlib.metadata import entry_points
from pathlib import Path

#: TOML files that are a Python project's, not a variant
NOT_VARIANTS = ("pyproject.toml",)


def declared_plugins(folder: Path) -> list[str]:
    """The plugin names a package folder's ``pyproject.toml`` declares (none when it has no
    such file, or one that can't be read)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - older Pythons
        import tomli as tomllib
    try:
        project = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return []
    declared = project.get("project", {}).get("entry-points", {}).get("azul.plugins", {})
    return sorted(declared) if isinstance(declared, dict) else []


def uninstalled_package(variant_file: Path) -> Path | None:
    """The folder of the plugin package ``variant_file`` sits in when a plugin the package
    declares is not installed; None otherwise (no package, or it is installed)."""
    folder = Path(variant_file).parent
    declared = declared_plugins(folder)
    installed = {point.name for point in entry_points(group="azul.plugins")}
    return folder if declared and not set(declared) <= installed else None
