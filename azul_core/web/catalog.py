"""The variants a server offers: the shipped ones and the files in folders the operator named.

Loaded once when the server starts. A table names its variant by a key of
this catalog, never by a path or a file a browser sent, so a web request
never loads code: only the operator's ``--variants`` folders can (their
plugins run when the server starts).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from azul_core.engine.plugins import PluginError
from azul_core.players.registry import available_bots
from azul_core.variants import VariantError, builtin_variants, load_variant
from azul_core.variants.loading import SUFFIXES
from azul_core.variants.packages import NOT_VARIANTS, uninstalled_package


@dataclass
class Offered:
    """One variant a table may use."""

    key: str
    variant: Any
    rules_text: list[str]
    bots: list[str]
    builtin: bool
    #: the variant's file: what a search bot's worker process loads it from
    path: Path
    #: the rules that differ from the standard game, in a player's words (variants.words)
    words: list[str] = field(default_factory=list)

    def describe(self) -> dict:
        rules = self.variant.rules
        return {"name": self.key, "description": self.variant.description,
                "players": list(self.variant.players), "rules": self.rules_text,
                "bots": self.bots, "words": self.words, "column_choice": bool(rules.player_chooses_column),
                "misplaced_to_floor": bool(rules.misplaced_to_floor)}


@dataclass
class Catalog:
    variants: dict[str, Offered] = field(default_factory=dict)
    #: one line per variant file that could not be offered, for the operator
    problems: list[str] = field(default_factory=list)
    #: one line per variant file left out for a reason that is no fault of the file
    notes: list[str] = field(default_factory=list)

    def get(self, key: str) -> Offered | None:
        return self.variants.get(key) if isinstance(key, str) else None

    def describe(self) -> list[dict]:
        return [offered.describe() for offered in self.variants.values()]


def variant_files(folder: Path) -> list[Path]:
    """Variant files in ``folder`` and in its immediate subfolders (``examples/`` holds one
    house rule per subfolder)."""
    def files(where: Path) -> list[Path]:
        return [p for p in sorted(where.iterdir())
                if p.is_file() and p.suffix in SUFFIXES and p.name not in NOT_VARIANTS]
    found = files(folder)
    for sub in sorted(folder.iterdir()):
        if sub.is_dir() and not sub.name.startswith("."):
            found += files(sub)
    return found


def build_catalog(folders: list[Path] | tuple[Path, ...] = ()) -> Catalog:
    """The shipped variants, then every loadable variant file of ``folders`` by file stem (a
    name already taken is left out with a problem line)."""
    from azul_core.variants.differences import explain
    from azul_core.variants.words import rules_in_words
    catalog = Catalog()
    standard = load_variant("standard")
    candidates: list[tuple[str, Path, bool]] = [(name, path, True) for name, path in builtin_variants().items()]
    for folder in folders:
        folder = Path(folder)
        if not folder.is_dir():
            catalog.problems.append(f"--variants {folder}: not a folder")
            continue
        candidates += [(path.stem, path, False) for path in variant_files(folder)]
    for key, path, builtin in candidates:
        if key in catalog.variants:
            catalog.problems.append(f"{path}: a variant named '{key}' is already offered; left out")
            continue
        package = None if builtin else uninstalled_package(path)
        if package is not None:
            catalog.notes.append(f"{path} is not offered: its plugin comes from the plugin package "
                                 f"{package}, which is not installed (pip install {package})")
            continue
        try:
            variant = load_variant(path)
            # The rules in words, without the server's file paths.
            text = explain(dataclasses.replace(variant, path=None), standard)
            words = rules_in_words(variant, standard)
            bots = sorted(available_bots(variant.rules))
        except VariantError as exc:
            catalog.problems.append(f"{exc.problems[0]}" + (
                f" (and {len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""))
            continue
        except PluginError as exc:
            catalog.problems.append(f"{path}: {' '.join(str(exc).split())}")
            continue
        except Exception as exc:  # third-party plugin code: never stops the server
            catalog.problems.append(f"{path}: {type(exc).__name__}: {' '.join(str(exc).split())}")
            continue
        catalog.variants[key] = Offered(key, variant, text, bots, builtin, path, words)
    return catalog
