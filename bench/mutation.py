"""Mutation testing (mutmut) of the core's rules, records and table server.

Do the tests notice a small change to the code?

    pip install -e ".[test,mutation]"
    python bench/mutation.py                 # every scope, one after the other
    python bench/mutation.py engine records  # some scopes
    python bench/mutation.py --list          # the scopes, their files and tests
    python bench/mutation.py --recheck web   # after adding tests: try the survivors again
    python bench/mutation.py --recheck-only web  # ... and nothing else
    python bench/mutation.py --confirm-only web  # only the survivors' check in fresh processes
    python bench/mutation.py --since main web    # only the functions changed since a commit
    python bench/mutation.py --every-mutant web  # also the mutants listed as equivalent
    python bench/mutation.py web --mark-equivalent NAME... --why "..."  # list survivors read
    python bench/mutation.py web --mark-equivalent NAME... --group 3    # ... in a group already there

Each scope mutates some modules and runs only the tests written for them (the whole suite
for every mutant would take days on two cores). A scope runs in its own copy of the tree,
``build/mutation/<scope>`` (mutmut writes its ``mutants/`` folder and its cache there, so a
second run only tests what changed); the survivors of each scope are listed in
``build/mutation/<scope>/survivors.txt`` (``--diffs``: with their diffs; else ``mutmut show
NAME`` in that folder shows one) and a line per scope is printed at the end. A survivor is
then tried again in a test process that imports the code anew (``mutmut_section``) before it
is reported: mutmut forks each mutant's tests from the process that first ran them, whose
caches are warm, so a mutated line behind a cache may never run there. ``--no-confirm`` skips
that for a first pass with hundreds of survivors, most of which new tests answer before a
``--recheck``. docs/testing.md and docs/mutation/ keep the last run's figures and
what was done about each survivor.

A survivor read and found equivalent is listed, with why, in bench/mutation-equivalents.toml
(``--mark-equivalent``): later runs skip it (mutmut's "skipped") while its function's code is
unchanged, and try it again, named as stale, once the function changes. A survivor runs every
test that reaches its function, a minute for the store's: the list took a fifth off a whole
run of the ``web`` scope.

It is not part of ``pytest`` or .ci/run: a run of a scope takes from half an hour to hours.
``--since REV`` tries only the mutants of the functions (and methods) of a scope's files that
differ from commit REV, uncommitted changes included: the habit for later work, minutes
rather than hours.
Run it under ``nice -n 10`` on a shared machine; ``--children N`` sets mutmut's parallelism
(default 2). The ``web`` scope's tests of the PostgreSQL store are skipped unless
``AZUL_TEST_POSTGRES_URL`` names a database (as in .ci/run).
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent

#: scope -> (the files mutated, relative to the repository; the tests run for them)
SCOPES: dict[str, tuple[list[str], list[str]]] = {
    "records": (["azul_core/records/*.py"],
                ["tests/test_records.py", "tests/test_reference_records.py", "tests/test_replayed_fills.py",
                 "tests/test_guard_bounds.py", "tests/test_guard_trust.py", "tests/test_score_sources.py"]),
    "web": (["azul_core/web/table.py", "azul_core/web/app.py", "azul_core/web/store.py"],
            ["tests/web/test_server.py", "tests/web/test_guard_server.py", "tests/web/test_guard_server_mutants.py",
             "tests/web/test_hardening.py",
             "tests/web/test_updates.py", "tests/web/test_plugin_moves_web.py",
             "tests/web/test_tile_kinds_web.py", "tests/web/test_clocks.py", "tests/web/test_reclaim.py",
             "tests/web/test_rematch.py", "tests/web/test_seat_events_log.py", "tests/web/test_game_log.py",
             "tests/web/test_preview_reasons.py", "tests/web/test_hints.py", "tests/web/test_replay_page.py",
             "tests/web/test_guard_bot_turns.py", "tests/web/test_guard_server_survivors.py",
             # the SQLite store's own tests, and with AZUL_TEST_POSTGRES_URL set the shared
             # store's (test_postgres_servers.py starts `azul serve` processes, which would not run
             # the mutants: not here)
             "tests/web/test_postgres_store.py"]),
    "engine": (["azul_core/engine/state.py", "azul_core/engine/rulebook.py", "azul_core/engine/view.py",
                "azul_core/engine/notation.py", "azul_core/engine/moves.py"],
               ["tests/test_standard_rules.py", "tests/test_hooks.py", "tests/test_rulebook_errors.py",
                "tests/test_rule_api_traps.py", "tests/test_house_rules.py", "tests/test_grey_wall.py",
                "tests/test_duel.py", "tests/test_duel_grey_wall.py", "tests/test_guard_stacking.py",
                "tests/test_guard_hooks.py", "tests/test_guard_engine_mutants.py",
                "tests/test_examples_moves.py"]),
    # The variant files: reading, limits, loading, checking. What `azul variants` and `azul plugins`
    # show (differences, catalogue) is tested through those commands: the scope `catalogue`.
    "variants": (["azul_core/variants/check.py", "azul_core/variants/files.py", "azul_core/variants/limits.py",
                  "azul_core/variants/loading.py"],
                 ["tests/test_variant_files.py", "tests/test_variant_check.py", "tests/test_plugin_loading.py",
                  "tests/test_hostile.py", "tests/test_guard_bounds.py", "tests/test_guard_trust.py",
                  "tests/test_guard_variants.py", "tests/test_guard_variants_mutants.py"]),
    "catalogue": (["azul_core/variants/differences.py", "azul_core/variants/catalogue.py"],
                  ["tests/test_cli_variants.py", "tests/test_cli_plugins.py", "tests/test_rule_api_traps.py",
                   "tests/test_guard_variants_mutants.py", "tests/test_guard_catalogue_mutants.py"]),
    # The RL adapters' encoding and the PettingZoo environment's steps (rewritten for speed in
    # issue 44); OpenSpiel's game has its own tests and is not mutated here.
    "rl": (["azul_core/rl/encoding.py", "azul_core/rl/stepping.py", "azul_core/rl/pettingzoo_env.py"],
           ["tests/rl/test_rl_step_encoder.py", "tests/rl/test_rl_pettingzoo.py", "tests/rl/test_guard_rewards.py",
            "tests/rl/test_rl_board_size.py", "tests/rl/test_rl_tile_kinds.py", "tests/rl/test_rl_plugin_moves.py",
            "tests/rl/test_rl_phases.py", "tests/rl/test_rl_draws.py", "tests/rl/test_rl_first_player.py",
            "tests/rl/test_rl_transfers.py", "tests/rl/test_rl_docs.py", "tests/rl/test_guard_rl_mutants.py"]),
    # The plugin loader and the hook compiler: a scope of its own (a thousand mutants, most of
    # them in the messages of plugins that fail to load).
    "plugins": (["azul_core/engine/plugins.py"],
                ["tests/test_hooks.py", "tests/test_rule_api_traps.py", "tests/test_plugin_loading.py",
                 "tests/test_rulebook_errors.py", "tests/test_guard_stacking.py", "tests/test_guard_trust.py",
                 "tests/test_house_rules.py", "tests/test_guard_engine_mutants.py",
                 "tests/test_guard_plugins_mutants.py"]),
}

#: Tests left out of a scope's runs: they start ``azul`` in a process of its own, which neither
#: mutmut's trampolines nor its choice of mutant reach.
LEFT_OUT: dict[str, list[str]] = {
    "web": ["tests/web/test_replay_page.py::test_replay_web_serves_the_record_until_ctrl_c",
            "tests/web/test_replay_page.py::test_replay_web_runs_the_records_plugin_file_when_the_user_allows_it"],
}

#: What a scope's test processes are told. ``web`` mutates none of the code that builds the
#: web tests' catalog of variants (variant loading, differences, the bots' registry), so the
#: catalog is built once, where mutmut collects the tests, for every mutant (tests/web/conftest.py):
#: a second or two less for each of its thousands of mutants.
SCOPE_ENVIRONMENT: dict[str, dict[str, str]] = {
    "web": {"AZUL_MUTATION_CATALOG_UNMUTATED": "1"},
}

#: What a scope's copy of the tree holds (the tests read docs and examples too).
TREE = ["azul_core", "plugins", "variants", "tests", "docs", "examples", "bench", "README.md", "pyproject.toml"]


#: Modules a fresh test process may take ready-made from the fork server: third-party ones only.
#: Nothing of azul_core nor of the tests: see ``mutmut_section``.
PRELOADED = ["pytest", "_pytest", "hypothesis", "pluggy", "yaml", "typer", "click", "rich", "starlette",
             "starlette.applications", "starlette.testclient", "httpx", "anyio", "uvicorn", "websockets"]


def mutmut_section(mutated: list[str], tests: list[str], preloaded: Path | None = None,
                   left_out: list[str] = ()) -> str:
    """mutmut's settings for a scope.

    Without ``preloaded``, mutmut forks each mutant's test process from one that has already
    collected the tests: quick, but not always true. Whatever the tests built while being
    imported (a variant loaded at module level, a cache of loaded variants) was built by the
    unchanged code, and a mutant of that code then runs nowhere and "survives". With it, each
    test process is forked from one that has imported only the third-party modules the file
    ``preloaded`` lists, so azul_core and the tests are imported anew, under the mutant: slower,
    used to confirm the survivors of the quick pass.
    """
    def toml_list(items: list[str]) -> str:
        return "[" + ", ".join(json.dumps(item) for item in items) + "]"
    # The whole of azul_core is copied into mutants/ (it must import as one package); only the
    # scope's files are mutated. plugins/ and variants/ are copied so that the tests' check
    # "the installed package is this tree" compares equal files.
    section = (
        "\n[tool.mutmut]\n"
        'source_paths = ["azul_core"]\n'
        f"only_mutate = {toml_list(mutated)}\n"
        f"also_copy = {toml_list(['plugins', 'variants', 'docs', 'examples', 'bench', 'README.md'])}\n"
        f"pytest_add_cli_args_test_selection = {toml_list(tests)}\n"
        # mutmut's time limit for a mutant is (its tests' time + this) x 15 CPU seconds, half of
        # that in wall time. Its estimate counts only the tests' calls, not their set-up (a
        # server started, variants loaded): with the default 1 s, a mutant of a function two
        # quick tests run was a "timeout" whenever the machine was busy.
        "timeout_constant = 10.0\n"
        # the browser tests and the package builds are not mutation material; mutation_pytest
        # (bench/mutation_pytest.py) runs a mutant's quickest tests first and ends a hung test
        "pytest_add_cli_args = "
        + toml_list(["-p", "no:cacheprovider", "-p", "mutation_pytest", "-m", "not browser and not package"]
                    + [argument for test in left_out for argument in ("--deselect", test)]) + "\n"
    )
    if preloaded:
        section += ('process_isolation = "forkserver"\n'
                    'forkserver_warmup = "import"\n'
                    f"preload_modules_file = {json.dumps(str(preloaded))}\n")
    return section


def write_settings(folder: Path, scope: str, fresh: bool = False) -> None:
    """The scope's pyproject.toml: the project's own, then mutmut's section."""
    mutated, tests = SCOPES[scope]
    preloaded = folder / "preloaded.txt"
    preloaded.write_text("\n".join(PRELOADED) + "\n", encoding="utf-8")
    text = (REPOSITORY / "pyproject.toml").read_text(encoding="utf-8")
    section = mutmut_section(mutated, tests, preloaded.resolve() if fresh else None, LEFT_OUT.get(scope, []))
    (folder / "pyproject.toml").write_text(text + section, encoding="utf-8")


def tree_version() -> str:
    """The commit the copy was made from, and whether the tree had changes beyond it."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=REPOSITORY, capture_output=True, text=True,
                              check=False).stdout.strip()
    commit = git("rev-parse", "HEAD") or "unknown"
    return commit + (" (with uncommitted changes)" if git("status", "--porcelain", *TREE) else "")


def copy_tree(target: Path) -> None:
    """A fresh copy of the tree's files for this run; mutmut's own folder and cache are kept,
    so that an unchanged function is not tested again."""
    target.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", ".pytest_cache")
    for name in TREE:
        source, destination = REPOSITORY / name, target / name
        if destination.is_dir():
            shutil.rmtree(destination)
        if source.is_dir():
            shutil.copytree(source, destination, ignore=ignore)
        elif source.exists():
            shutil.copy2(source, destination)


def forget_stale_test_map(folder: Path, mutated: list[str]) -> None:
    """mutmut maps each function to the tests that run it once, and afterwards maps only new
    tests: a function that is new since (code moved into a function of its own) would have no
    tests at all. When the mutated files changed since the scope's last run, the map is made
    again (a run of the scope's tests; the verdicts of unchanged functions are kept)."""
    digest = hashlib.sha256()
    for pattern in mutated:
        for path in sorted(REPOSITORY.glob(pattern)):
            digest.update(path.relative_to(REPOSITORY).as_posix().encode() + b"\0" + path.read_bytes())
    mark = folder / "mutated.sha256"
    if not mark.exists() or mark.read_text(encoding="utf-8") != digest.hexdigest():
        (folder / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    mark.write_text(digest.hexdigest(), encoding="utf-8")


#: A hunk's header in ``git diff -U0``: where its lines are in the new file.
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


def changed_lines(since: str, paths: list[str], repository: Path = REPOSITORY) -> dict[str, set[int]]:
    """The lines of each file (relative to ``repository``) that differ from commit ``since``,
    uncommitted changes and new files included. A deletion counts the line after it. Raises ``ValueError``
    when git does not know ``since``."""
    found = subprocess.run(["git", "diff", "-U0", "--no-color", "--no-ext-diff", since, "--", *paths],
                           cwd=repository, capture_output=True, text=True, check=False)
    if found.returncode != 0:
        raise ValueError(f"git diff {since}: {found.stderr.strip() or 'failed'}")
    lines: dict[str, set[int]] = {}
    current = None
    for line in found.stdout.splitlines():
        if line.startswith("+++ "):
            current = line.removeprefix("+++ b/")  # the paths are files that exist: none deleted
            continue
        hunk = _HUNK.match(line)
        if hunk and current:
            start, count = int(hunk.group(1)), int(hunk.group(2) or 1)
            lines.setdefault(current, set()).update(range(start, start + max(count, 1)))
    untracked = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "--", *paths],
                               cwd=repository, capture_output=True, text=True, check=False).stdout
    for path in untracked.splitlines():  # a new file git does not know yet: all of it
        count = len((repository / path).read_text(encoding="utf-8").splitlines())
        lines[path] = set(range(1, count + 1))
    return lines


def changed_functions(since: str, mutated: list[str], repository: Path = REPOSITORY) -> list[str]:
    """mutmut's names (patterns) for the mutants of the functions and methods of the files
    ``mutated`` (globs) that differ from commit ``since``: ``pkg.mod.x_name__mutmut_*``,
    ``pkg.mod.xǁClassǁname__mutmut_*``. A function's decorators count as its lines; a change
    outside every function (an import, a constant) names nothing, as mutmut mutates only
    functions."""
    paths = sorted({path.relative_to(repository).as_posix()
                    for pattern in mutated for path in repository.glob(pattern)})
    patterns = []
    for path, lines in sorted(changed_lines(since, paths, repository).items()):
        module = path.removesuffix(".py").replace("/", ".")
        tree = ast.parse((repository / path).read_text(encoding="utf-8"))
        for owner, function in _functions_and_methods(tree):
            first = min([function.lineno] + [d.lineno for d in function.decorator_list])
            if lines & set(range(first, function.end_lineno + 1)):
                patterns.append(f"{module}.{_mangled(owner, function.name)}__mutmut_*")
    return patterns


def _functions_and_methods(tree: ast.Module):
    """(class name or None, function) for each function and method of a module: what mutmut
    mutates (a nested function is part of the one around it)."""
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    for node in tree.body:
        if isinstance(node, functions):
            yield None, node
        elif isinstance(node, ast.ClassDef):
            yield from ((node.name, item) for item in node.body if isinstance(item, functions))


#: Mutants read and found equivalent (no test can tell them from the code, or only a test of
#: nothing a user meets), each group with its reason and the hash of each function when its
#: mutants were read. A listed mutant is skipped (mutmut's "skipped") while its function is
#: unchanged; once the function changes it runs again, and the run names it as stale.
EQUIVALENTS = REPOSITORY / "bench" / "mutation-equivalents.toml"


def _read_toml(path: Path) -> dict:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _mangled(owner: str | None, name: str) -> str:
    """mutmut's name for a function (``x_name``) or a method (``xǁClassǁname``)."""
    return f"x\u01c1{owner}\u01c1{name}" if owner else f"x_{name}"


def function_hashes(mutated: list[str], repository: Path = REPOSITORY) -> dict[str, str]:
    """mutmut's name of each function and method of the files ``mutated`` (globs) -> a hash of
    its code (its syntax tree: comments, layout and where it sits in the file aside)."""
    hashes = {}
    for pattern in mutated:
        for path in sorted(repository.glob(pattern)):
            module = path.relative_to(repository).as_posix().removesuffix(".py").replace("/", ".")
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for owner, function in _functions_and_methods(tree):
                dumped = ast.dump(function, annotate_fields=False).encode()
                hashes[f"{module}.{_mangled(owner, function.name)}"] = hashlib.sha256(dumped).hexdigest()[:12]
    return hashes


def _function_of(mutant: str) -> str:
    return mutant.rpartition("__mutmut_")[0]


def known_equivalents(mutated: list[str], listing: Path = EQUIVALENTS,
                      repository: Path = REPOSITORY) -> tuple[dict[str, str], list[str]]:
    """The listed equivalent mutants of the files ``mutated`` whose function is unchanged since
    they were read (name -> why), and those whose function changed (stale: to be read again)."""
    if not listing.exists():
        return {}, []
    now = function_hashes(mutated, repository)
    current: dict[str, str] = {}
    stale: list[str] = []
    for group in _read_toml(listing).get("equivalent", []):
        for mutant in group.get("mutants", []):
            function = _function_of(mutant)
            if function not in now:
                continue  # another scope's file, or a function since removed
            if group.get("functions", {}).get(function) == now[function]:
                current[mutant] = group["why"]
            else:
                stale.append(mutant)
    return current, stale


def no_longer_listed(statuses: list[tuple[str, str]], listed: dict) -> list[str]:
    """The mutants an earlier run skipped as listed equivalents that the list no longer names
    (a test now kills them): mutmut keeps a verdict once given, so they are tried again."""
    return [name for name, status in statuses if status == "skipped" and name not in listed]


def _hashes_of_their_functions(mutants: list[str], mutated: list[str], repository: Path) -> dict[str, str]:
    """``function_hashes`` of the files ``mutated``; ``ValueError`` for a name that is no mutant of them."""
    now = function_hashes(mutated, repository)
    for mutant in mutants:
        if "__mutmut_" not in mutant or _function_of(mutant) not in now:
            raise ValueError(f"{mutant!r} is no mutant of {', '.join(mutated)}")
    return now


def mark_equivalent(mutants: list[str], why: str, mutated: list[str], listing: Path = EQUIVALENTS,
                    repository: Path = REPOSITORY) -> None:
    """Add a group of equivalent mutants to ``listing`` with the hashes of their functions today.
    Raises ``ValueError`` for a name that is no mutant of the files ``mutated``."""
    now = _hashes_of_their_functions(mutants, mutated, repository)
    functions = sorted({_function_of(mutant) for mutant in mutants})
    block = ["", "[[equivalent]]", f"why = {json.dumps(why, ensure_ascii=False)}", "mutants = ["]
    block += [f"    {json.dumps(mutant, ensure_ascii=False)}," for mutant in mutants]
    block += ["]", "[equivalent.functions]"]
    block += [f"{json.dumps(function, ensure_ascii=False)} = {json.dumps(now[function])}" for function in functions]
    with open(listing, "a", encoding="utf-8") as handle:
        handle.write("\n".join(block) + "\n")


def equivalent_groups(listing: Path = EQUIVALENTS) -> list[dict]:
    """The groups of ``listing`` in file order (``--group N`` counts from 1)."""
    return _read_toml(listing).get("equivalent", []) if listing.exists() else []


def add_to_group(mutants: list[str], group: int, mutated: list[str], why: str | None = None,
                 listing: Path = EQUIVALENTS, repository: Path = REPOSITORY) -> None:
    """Add equivalent mutants to the ``group``-th group (from 1) of ``listing`` with the hashes of
    their functions today, and ``why`` (if any) to the group's reason; the file's layout and
    comments stay. Raises ``ValueError`` for a name that is no mutant of the files ``mutated``, a
    group that is not there, or a function the group read in another version (its mutants there
    were read on older code: read them again, or start a new group)."""
    now = _hashes_of_their_functions(mutants, mutated, repository)
    groups = equivalent_groups(listing)
    if not 1 <= group <= len(groups):
        raise ValueError(f"there is no group {group} in {listing.name} (it has {len(groups)})")
    known = groups[group - 1].get("functions", {})
    for function in sorted({_function_of(mutant) for mutant in mutants}):
        if known.get(function, now[function]) != now[function]:
            raise ValueError(f"group {group} read {function} before it changed: read its mutants there "
                             "again, or start a new group")
    before = listing.read_text(encoding="utf-8")
    cannot = ValueError(f"group {group} of {listing.name} is laid out in a way --group cannot edit: edit it by hand")
    lines = before.split("\n")
    starts = [index for index, line in enumerate(lines) if line.strip() == "[[equivalent]]"]
    start = starts[group - 1]
    end = starts[group] if group < len(starts) else len(lines)
    section = lines[start:end]
    listed = groups[group - 1].get("mutants", [])
    added = [m for m in dict.fromkeys(mutants) if m not in listed]
    reason = f"{groups[group - 1]['why'].rstrip()} {why.strip()}" if why else groups[group - 1]["why"]
    try:  # the layout --mark-equivalent writes: one line per mutant, one per function, why on one line
        mutants_end = section.index("]", section.index("mutants = ["))
        section[mutants_end:mutants_end] = [f"    {json.dumps(m, ensure_ascii=False)}," for m in added]
        last = section.index("[equivalent.functions]")
        while last + 1 < len(section) and section[last + 1].strip() and not section[last + 1].startswith("["):
            last += 1
        section[last + 1:last + 1] = [f"{json.dumps(f, ensure_ascii=False)} = {json.dumps(now[f])}"
                                      for f in sorted({_function_of(m) for m in added} - set(known))]
        at = next(i for i, line in enumerate(section) if line.startswith("why = "))
        section[at] = f"why = {json.dumps(reason, ensure_ascii=False)}"
    except (ValueError, StopIteration):
        raise cannot from None
    listing.write_text("\n".join(lines[:start] + section + lines[end:]), encoding="utf-8")
    try:
        written = equivalent_groups(listing)[group - 1]
        readable = written["mutants"] == listed + added and written["why"] == reason
    except Exception:  # noqa: BLE001 - any error reading it back means the edit broke the file
        readable = False
    if not readable:
        listing.write_text(before, encoding="utf-8")
        raise cannot


#: How many times longer a test may run when a run's timeouts are tried again (--timeouts-again),
#: unless --patience says otherwise.
PATIENCE = 10.0

#: Verdicts that say a mutant was not caught (a timeout is a mutant that made the tests hang or
#: loop: counted as caught).
RECHECKED = ("survived", "no tests", "suspicious")


def _statuses(mutmut: list[str], folder: Path) -> list[tuple[str, str]]:
    """Every mutant of the scope and mutmut's verdict on it."""
    listing = subprocess.run(mutmut + ["results", "--all", "true"], cwd=folder, capture_output=True,
                             text=True, check=False).stdout
    found = []
    for line in listing.splitlines():
        name, _, status = line.strip().rpartition(": ")
        if name:
            found.append((name, status))
    return found


def run_scope(scope: str, work: Path, children: int, recheck: bool | str = False, diffs: bool = False,
              since: str | None = None, every_mutant: bool = False, timeouts_again: int | None = None,
              patience: float = PATIENCE, confirm: bool = True) -> dict:
    mutated, tests = SCOPES[scope]
    # With ``since``: only the mutants of the functions changed since that commit, run and reported.
    chosen = changed_functions(since, mutated) if since else []
    if since and not chosen:
        print(f"== {scope}: no function of {', '.join(mutated)} changed since {since}", flush=True)
        return {"scope": scope, "minutes": 0.0, "statuses": {}, "survivors": 0, "tests": tests,
                "mutated": mutated, "tree": tree_version(), "since": since, "functions": []}
    missing = [t for t in tests if not (REPOSITORY / t).exists()]
    if missing:  # a changed selection would throw away mutmut's cache: the list is fixed
        raise SystemExit(f"{scope}: the test file {missing[0]} is missing")
    folder = work / scope
    tree = tree_version()
    copy_tree(folder)
    forget_stale_test_map(folder, mutated)
    write_settings(folder, scope)
    mutmut = [sys.executable, "-m", "mutmut"]
    # The listed equivalents: mutation_pytest ends their test process at once, as "skipped".
    skipped, stale = ({}, []) if every_mutant else known_equivalents(mutated)
    skip_file = folder / "known-equivalents.json"
    skip_file.write_text(json.dumps(skipped, indent=0, ensure_ascii=False), encoding="utf-8")
    # where mutmut's test processes find the plugin mutation_pytest, and what it skips
    environment = dict(os.environ, **SCOPE_ENVIRONMENT.get(scope, {}), AZUL_MUTATION_SKIP=str(skip_file.resolve()),
                       PYTHONPATH=os.pathsep.join([str(REPOSITORY / "bench")] + [
                           p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))

    def run_mutants(names: list[str], **variables: str) -> None:
        """mutmut's run of the named mutants (patterns), or of every mutant not tried yet."""
        subprocess.run(mutmut + ["run", "--max-children", str(children), *names], cwd=folder, check=False,
                       env=dict(environment, **variables))

    def statuses_now() -> list[tuple[str, str]]:
        """The scope's verdicts; with ``since``, those of the chosen functions' mutants only."""
        return [(name, status) for name, status in _statuses(mutmut, folder)
                if not chosen or any(fnmatch.fnmatchcase(name, pattern) for pattern in chosen)]
    started = time.monotonic()
    print(f"== {scope}: mutating {', '.join(mutated)}; tests: {' '.join(tests)}", flush=True)
    if chosen:
        print(f"== {scope}: only the {len(chosen)} function{'s' if len(chosen) > 1 else ''} changed since {since}: "
              + ", ".join(pattern.removesuffix("__mutmut_*") for pattern in chosen), flush=True)
    if skipped:
        print(f"== {scope}: {len(skipped)} mutants listed as equivalent in {EQUIVALENTS.name} are skipped "
              "(--every-mutant tries them)", flush=True)
    if stale:
        print(f"== {scope}: {len(stale)} listed equivalents are stale (their function changed since they were "
              f"read): tried again; read the survivors among them and list them anew", flush=True)
    if recheck not in ("only", "confirm"):
        run_mutants(chosen)
    unlisted = no_longer_listed(statuses_now(), skipped) if not every_mutant else []
    if unlisted:
        print(f"== {scope}: trying {len(unlisted)} mutants skipped before as equivalent, no longer listed", flush=True)
        run_mutants(unlisted)
    if recheck in (True, "only"):
        # mutmut keeps a verdict once given: the survivors of earlier runs are tried again
        # against today's tests (new tests are found and mapped to the code they run).
        again = [name for name, status in statuses_now() if status in RECHECKED]
        if again:
            print(f"== {scope}: trying {len(again)} earlier survivors again", flush=True)
            run_mutants(again)
    # Every survivor left is tried again in test processes that import azul_core and the tests
    # anew (see mutmut_section): what survives that is a survivor to explain. (--no-confirm: not
    # after a first pass whose survivors are many, each running every test that reaches it, most
    # answered by the tests written for them before the recheck.)
    again = [name for name, status in statuses_now() if status in RECHECKED] if recheck or confirm else []
    if again:
        print(f"== {scope}: confirming {len(again)} survivors in fresh test processes", flush=True)
        write_settings(folder, scope, fresh=True)
        run_mutants(again)
        write_settings(folder, scope)
    timeouts_checked = {}
    if timeouts_again is not None:
        # mutation_pytest ends a test at 3 s + 5 times its measured time: a mutant that only made a
        # test that much slower would be a "timeout" too. Tried again with every limit PATIENCE times
        # longer, a hang is still one; a slowed test ends and says killed or survived.
        timeouts = sorted(name for name, status in statuses_now() if status == "timeout")
        tried = random.Random(0).sample(timeouts, min(timeouts_again, len(timeouts))) if timeouts_again else timeouts
        if tried:
            print(f"== {scope}: trying {len(tried)} of the {len(timeouts)} timeouts again with limits {patience:g} "
                  "times longer", flush=True)
            run_mutants(tried, AZUL_MUTATION_PATIENCE=str(patience))
            now = dict(statuses_now())
            for name in tried:
                verdict = now.get(name, "not checked")
                timeouts_checked[verdict] = timeouts_checked.get(verdict, 0) + 1
    minutes = (time.monotonic() - started) / 60
    statuses: dict[str, int] = {}
    survivors = []
    for name, status in statuses_now():
        statuses[status] = statuses.get(status, 0) + 1
        if status in RECHECKED:
            survivors.append((name, status))
    with open(folder / "survivors.txt", "w", encoding="utf-8") as handle:
        for name, status in survivors:
            handle.write(f"{name}: {status}\n")
            if diffs:  # a second or two each: mutmut starts anew for every one
                diff = subprocess.run(mutmut + ["show", name], cwd=folder, capture_output=True, text=True,
                                      check=False).stdout
                handle.write(f"{diff}\n")
    summary = {"scope": scope, "minutes": round(minutes, 1), "statuses": statuses,
               "survivors": len(survivors), "tests": tests, "mutated": mutated, "tree": tree,
               "listed_equivalents_skipped": len(skipped), "stale_equivalents": stale}
    if timeouts_again is not None:
        summary["timeouts_tried_again"] = timeouts_checked
        summary["patience"] = patience
    if since:
        summary.update(since=since, functions=[pattern.removesuffix("__mutmut_*") for pattern in chosen])
    (folder / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scopes", nargs="*", help=f"some of {', '.join(SCOPES)} (default: all)")
    parser.add_argument("--work", type=Path, default=REPOSITORY / "build" / "mutation",
                        help="where the scopes' copies and results go (default build/mutation)")
    parser.add_argument("--children", type=int, default=2, help="mutants tested at once (default 2)")
    parser.add_argument("--recheck", action="store_true",
                        help="also try the survivors of earlier runs again (after adding tests)")
    parser.add_argument("--recheck-only", action="store_true",
                        help="only try the survivors of earlier runs again (the mutants not yet tried wait)")
    parser.add_argument("--confirm-only", action="store_true",
                        help="only try the survivors again in fresh test processes (after a run that stopped "
                             "before it did)")
    parser.add_argument("--no-confirm", action="store_true",
                        help="report a run's survivors as mutmut leaves them, without trying them again in fresh "
                             "test processes (a first pass with hundreds of survivors; the --recheck "
                             "options confirm theirs anyway)")
    parser.add_argument("--diffs", action="store_true",
                        help="write each survivor's diff to survivors.txt (else its name: 'mutmut show NAME' "
                             "in the scope's folder shows it)")
    parser.add_argument("--since", metavar="REV",
                        help="only the mutants of the functions that differ from commit REV (uncommitted "
                             "changes included): minutes after a change, where a whole scope takes hours")
    parser.add_argument("--every-mutant", action="store_true",
                        help=f"also try the mutants bench/{EQUIVALENTS.name} lists as equivalent (skipped by default "
                             "while their function is unchanged)")
    parser.add_argument("--timeouts-again", type=int, nargs="?", const=0, metavar="N",
                        help="then try the timeouts again (N of them, a seeded sample; all without N) with every "
                             "test's limit --patience times longer: hangs stay timeouts, a test the mutant only "
                             "slowed down (or a busy machine) says killed or survived")
    parser.add_argument("--patience", type=float, default=PATIENCE, metavar="X",
                        help=f"with --timeouts-again: how many times longer (default {PATIENCE:g})")
    parser.add_argument("--mark-equivalent", nargs="+", metavar="MUTANT",
                        help=f"add these mutants of one scope to bench/{EQUIVALENTS.name} (with --why) and stop")
    parser.add_argument("--why", help="with --mark-equivalent: why no test can tell those mutants from the code")
    parser.add_argument("--group", type=int, metavar="N",
                        help="with --mark-equivalent: add them to the N-th group of the list (--list numbers "
                             "them) rather than a new one; --why, if given, is added to its reason")
    parser.add_argument("--list", action="store_true", help="show the scopes and stop")
    args = parser.parse_args()
    unknown = [s for s in args.scopes if s not in SCOPES]
    if unknown:
        parser.error(f"unknown scope {unknown[0]!r}: choose from {', '.join(SCOPES)}")
    if args.patience < 1:
        parser.error("--patience is how many times longer a test may run: 1 or more")
    if args.mark_equivalent:
        if len(args.scopes) != 1 or not (args.why or args.group):
            parser.error("--mark-equivalent takes one scope and --why (or --group N)")
        mutated = SCOPES[args.scopes[0]][0]
        try:
            if args.group:
                add_to_group(args.mark_equivalent, args.group, mutated, args.why)
            else:
                mark_equivalent(args.mark_equivalent, args.why, mutated)
        except ValueError as error:
            print(f"mutation.py: {error}", file=sys.stderr)
            return 1
        where = f"group {args.group} of" if args.group else "a new group of"
        print(f"{len(args.mark_equivalent)} mutants added to {where} {EQUIVALENTS}")
        return 0
    if args.group:
        parser.error("--group goes with --mark-equivalent")
    if args.list:
        for scope, (mutated, tests) in SCOPES.items():
            print(f"{scope}: {' '.join(mutated)}\n    tests: {' '.join(tests)}")
        for number, group in enumerate(equivalent_groups(), 1):
            print(f"equivalent group {number} ({len(group.get('mutants', []))} mutants): {group['why'][:90]}")
        return 0
    try:
        import mutmut  # noqa: F401
    except ImportError:
        print('mutmut is not installed: pip install -e ".[test,mutation]"', file=sys.stderr)
        return 1
    os.environ.setdefault("PYTHONHASHSEED", "0")
    recheck = "confirm" if args.confirm_only else "only" if args.recheck_only else args.recheck
    try:
        results = [run_scope(scope, args.work, args.children, recheck, args.diffs, args.since, args.every_mutant,
                             args.timeouts_again, args.patience, confirm=not args.no_confirm)
                   for scope in args.scopes or SCOPES]
    except ValueError as error:  # an unknown commit
        print(f"mutation.py: {error}", file=sys.stderr)
        return 1
    for summary in results:
        counts = ", ".join(f"{count} {status}" for status, count in sorted(summary["statuses"].items()))
        if "since" in summary and not summary["functions"]:
            print(f"{summary['scope']}: nothing changed since {summary['since']}")
            continue
        print(f"{summary['scope']}: {counts or 'no mutants'} in {summary['minutes']} min, tree {summary['tree']}; "
              f"survivors in {args.work / summary['scope'] / 'survivors.txt'}")
        if "timeouts_tried_again" in summary:
            again = ", ".join(f"{count} {status}" for status, count in sorted(summary["timeouts_tried_again"].items()))
            print(f"{summary['scope']}: timeouts tried again with {summary['patience']:g} times the limits: "
                  f"{again or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
