"""A third party's plugin package, for real: build examples/plugin-package, pip-install it into a
fresh virtual environment, and play with it there by its entry-point name.

The new environment sees this environment's packages (azul-variants and its
dependencies) through a .pth file, the way ``--system-site-packages`` shows a
system Python's: this works whether the tests run in a virtual environment or
not. The package is installed with pip from the copied source folder. When
setuptools here can build a wheel, the build runs without isolation and
without an index, so the test needs no network; otherwise pip fetches
setuptools from the package index, as it would for a user. It takes a few seconds and runs in CI with the other tests
(marker ``package``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import site
import subprocess
import venv
from importlib import metadata
from pathlib import Path

import pytest

from azul_core.engine.plugins import installed_plugins

pytestmark = pytest.mark.package

PACKAGE = Path(__file__).resolve().parent.parent / "examples" / "plugin-package"
TIMEOUT = 120  # seconds per command; a hung pip should fail the test, not the CI run

PLAY_GAMES = """
import json, sys
from pathlib import Path
from azul_core.testing import new_game, play_out
from azul_core.variants.loading import load_variant

house = load_variant(Path(sys.argv[1]))
result = {"plugins": [(p.name, p.origin, p.version) for p in house.plugins],
          "decides": house.rules.deciders["azul_placement_score"], "games": []}
for seed in range(20):
    games = [play_out(new_game(variant), seed=seed) for variant in (Path(sys.argv[1]), "standard")]
    result["games"].append([[board.placement_points for board in game.players] for game in games])
print(json.dumps(result))
"""


def run(*command: object) -> subprocess.CompletedProcess:
    result = subprocess.run([str(part) for part in command], capture_output=True, text=True,
                            timeout=TIMEOUT, env={**os.environ, "TERMINAL_WIDTH": "200"})
    assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
    return result


def can_build_here() -> bool:
    """Whether setuptools here can build a wheel (before 70.1 it needs the wheel package)."""
    try:
        version = metadata.version("setuptools")
    except metadata.PackageNotFoundError:
        return False
    major, minor = (int(part) if part.isdigit() else 0 for part in (version.split(".") + ["0"])[:2])
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory):
    """(python of a fresh environment with the package installed, the package's source copy)."""
    root = tmp_path_factory.mktemp("plugin-package")
    env_dir = root / "venv"
    have_pip = importlib.util.find_spec("pip") is not None
    venv.EnvBuilder(with_pip=not have_pip).create(env_dir)
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    ours = site.getsitepackages() + ([site.getusersitepackages()] if site.ENABLE_USER_SITE else [])
    # addsitedir (not a plain path line) also runs the .pth files there, e.g. an editable install's
    (purelib / "azul_parent_env.pth").write_text(
        f"import site; list(map(site.addsitedir, {ours!r}))\n", encoding="utf-8")
    source = root / "azul-generous-tiles"
    shutil.copytree(PACKAGE, source)
    install = [python, "-m", "pip", "install", "--no-deps", "--no-input", "--disable-pip-version-check",
               "--no-warn-script-location"]
    if can_build_here():
        install += ["--no-build-isolation", "--no-index"]
    run(*install, source)
    return python, source


def test_the_package_is_not_installed_here():
    """So the environment below is what makes the plugin appear."""
    assert "generous_tiles" not in installed_plugins()


def test_an_installed_package_plays_by_its_entry_point_name(plugin_env):
    python, source = plugin_env
    result = json.loads(run(python, "-c", PLAY_GAMES, source / "generous-tiles.yaml").stdout)
    assert result["plugins"][-1] == ["generous_tiles", "entry point azul_generous_tiles", "1.0.0"]
    assert result["decides"] == "generous_tiles > standard"
    # The same seed plays the same game: a lone tile scores 2 instead of 1, so never less.
    house_total = standard_total = 0
    for house, standard in result["games"]:
        assert all(h >= s for h, s in zip(house, standard))
        house_total, standard_total = house_total + sum(house), standard_total + sum(standard)
    assert house_total > standard_total


def test_azul_plugins_lists_the_installed_package(plugin_env):
    python, _source = plugin_env
    listing = json.loads(run(python, "-c", "from azul_core.cli import main; main()",
                             "plugins", "--json").stdout)
    found = {entry["name"]: entry for entry in listing["plugins"]}
    assert {"standard", "colour_wall", "generous_tiles"} <= set(found)
    generous = found["generous_tiles"]
    assert generous["version"] == "1.0.0" and generous["distribution"] == "azul-generous-tiles 1.0.0"
    assert generous["origin"] == "entry point azul_generous_tiles"
    assert generous["hooks"] == ["azul_placement_score"] and generous["api"] == [1]
    assert generous["error"] is None
