"""What a game record may make ``azul`` run (issue 24, docs/security.md).

A record's variant that lists a Python module (``pkg.mod``) which no installation put there
runs it only with the user's consent, as a ``.py`` file; ``--trust`` allows variant files
inside the record's folder only: a record naming one outside (an absolute path, ``..``) is
still refused. The plugins write a marker file when imported: no marker, no code run.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import azul_core.cli.replay  # noqa: F401  (registers the commands)
import azul_core.cli.validate  # noqa: F401
from azul_core.cli.app import app
from azul_core.records.game_record import FORMAT, validate_record
from azul_core.variants.loading import Trust

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
GOOD_RECORD = {
    "format": FORMAT, "variant": "standard", "players": ["ana", "bo"],
    "rounds": [{"factories": ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"],
                "actions": ["1B4", "2Y3", "3R-", "4K4", "5W1"], "scores": [0, 1]}],
}


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], env=ENV)


def record_naming(path: Path, variant: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**GOOD_RECORD, "variant": variant}))
    return path


@pytest.fixture
def evil_module(site_folder, tmp_path) -> Path:
    """A package ``guard_evil`` on sys.path whose module ``guard_evil.rules`` writes the
    returned marker when it is imported."""
    marker = tmp_path / "ran"
    package = site_folder / "guard_evil"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    return marker


def test_a_record_variant_listing_a_dotted_module_runs_it_only_with_consent(tmp_path, evil_module):
    recs = tmp_path / "recs"
    recs.mkdir()
    (recs / "mod.yaml").write_text("name: mod\nextends: standard\nplugins: [standard, colour_wall, guard_evil.rules]\n")
    record = record_naming(recs / "game.json", "mod.yaml")
    result = run("validate", record)
    assert result.exit_code == 1 and not evil_module.exists()
    assert "would run the code of the Python module 'guard_evil.rules'" in result.output
    assert "allow it with --variant" in result.output and "--trust" in result.output
    assert not validate_record(record)["valid"] and not evil_module.exists()
    assert run("replay", "--final", record).exit_code == 1 and not evil_module.exists()
    # Allowed, it runs.
    assert run("validate", "--trust", record).exit_code == 0 and evil_module.exists()


def test_a_record_naming_a_dotted_module_as_its_variant_imports_nothing(tmp_path, evil_module):
    record = record_naming(tmp_path / "game.json", "guard_evil.rules")
    result = run("validate", "--trust", record)
    assert result.exit_code == 1 and not evil_module.exists()
    assert "guard_evil.rules" in result.output


def evil_variant(folder: Path, marker: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "evil.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    path = folder / "evil.yaml"
    path.write_text("name: evil\nextends: standard\nplugins: [standard, colour_wall, evil.py]\n")
    return path


@pytest.mark.parametrize("how", ["absolute", "dotdot"])
def test_trust_does_not_reach_outside_the_records_folder(tmp_path, how):
    marker = tmp_path / "ran"
    evil = evil_variant(tmp_path / "elsewhere", marker)
    recs = tmp_path / "recs"
    record = record_naming(recs / "game.json", str(evil) if how == "absolute" else "../elsewhere/evil.yaml")
    result = run("validate", "--trust", record)
    assert result.exit_code == 1 and not marker.exists()
    assert "only inside its own folder" in result.output and "refused" in result.output
    assert not validate_record(record, trust=Trust(everything=True))["valid"] and not marker.exists()
    # The user names that very file: now it may run.
    assert run("validate", "--variant", evil, record).exit_code == 0 and marker.exists()
