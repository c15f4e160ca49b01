"""Every test runs one and the same code: a subprocess (started outside the source tree, as the
command-line tests start theirs) imports the very files the in-process tests import, and those
are this checkout's (conftest.py refuses to start otherwise)."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import installed_differences

import azul_core
import azul_plugins


def test_the_installed_packages_are_this_checkout():
    assert installed_differences() == []


def test_a_subprocess_imports_the_files_the_tests_import(outside_the_tree):
    done = subprocess.run(
        [sys.executable, "-c", "import json, azul_core, azul_plugins, azul_core.cli; "
                               "print(json.dumps([azul_core.__file__, azul_plugins.__file__]))"],
        capture_output=True, text=True, cwd=outside_the_tree, timeout=60, check=True)
    assert json.loads(done.stdout) == [azul_core.__file__, azul_plugins.__file__]
