"""The build: pyproject.toml holds the package; this adds the compiled engine (issue 44).

``pip install .`` compiles the modules of ``azul_core.engine.compiled.COMPILED_MODULES``
with mypyc when it can, and installs their ``.py`` source beside them in every case. It
falls back to pure Python, with a warning, when

* ``AZUL_PURE_PYTHON=1`` is set (the build is asked for none),
* the install is editable (``pip install -e``): a compiled module would hide its source, and
  a contributor's change to it would silently do nothing,
* mypyc refuses the source, or there is no C compiler, or compiling fails.

``azul --version`` says which engine runs.
"""

from __future__ import annotations

import inspect
import os
import runpy
import sys
import sysconfig
import traceback
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def warn(message: str) -> None:
    print(f"azul-variants: {message}", file=sys.stderr)


def building_editable() -> bool:
    # setuptools runs ``editable_wheel`` for ``pip install -e`` (PEP 660)
    return "editable_wheel" in sys.argv


def compiled_extensions() -> list:
    if building_editable():
        warn("an editable install runs the pure-Python engine (compiled modules would hide their source)")
        return []
    # Only the build commands compile; ``egg_info`` and the like need no extensions.
    if not {"bdist_wheel", "build_ext", "build", "install"} & set(sys.argv[1:]):
        return []
    if os.environ.get("AZUL_PURE_PYTHON", "") not in ("", "0"):
        warn("AZUL_PURE_PYTHON is set: the pure-Python engine is installed")
        return []
    modules = runpy.run_path(str(HERE / "azul_core" / "engine" / "compiled.py"))["COMPILED_MODULES"]
    paths = [str(Path(*module.split("."))) + ".py" for module in modules]
    try:
        from mypyc.build import mypycify
        # the shared library's name (older mypyc names it by a hash of the modules)
        named = {"group_name": "azul_core_engine"} if "group_name" in inspect.signature(mypycify).parameters else {}
        # mypy's notes on untyped functions' bodies would stop mypyc: they are not errors. The
        # build's own environment lacks the runtime dependencies (pluggy): their types are Any.
        return mypycify(["--disable-error-code", "annotation-unchecked", "--ignore-missing-imports", *paths],
                        opt_level="3", **named)
    except BaseException as error:  # mypy reports a refusal as SystemExit
        if isinstance(error, KeyboardInterrupt):
            raise
        traceback.print_exc()
        warn(f"mypyc could not compile the engine ({error!r}): the pure-Python engine is installed")
        return []


class OptionalBuildExt(build_ext):
    """Builds the compiled engine, or nothing if that fails: the ``.py`` modules run instead."""

    def run(self) -> None:
        self._remove_stale_modules()
        try:
            super().run()
        except Exception as error:  # no compiler, a compiler error, a missing header
            self._remove_partial_build()
            warn(f"compiling the engine failed ({error}): the pure-Python engine is installed")

    def _remove_stale_modules(self) -> None:
        # A module an earlier build of this tree compiled and this one does not (the list in
        # azul_core/engine/compiled.py changed) would still be in build/ and go into the wheel,
        # where it fails to import against this build's shared library.
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
        wanted = {Path(self.get_ext_fullpath(extension.name)).resolve() for extension in self.extensions}
        for built in Path(self.build_lib).rglob(f"*{suffix}"):
            if built.resolve() not in wanted:
                built.unlink()

    def _remove_partial_build(self) -> None:
        # A module compiled before the failure needs the shared library that failed: none may stay.
        for output in self.get_outputs():
            Path(output).unlink(missing_ok=True)
        self.extensions = []

    def get_outputs(self) -> list[str]:
        return super().get_outputs() if self.extensions else []


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
