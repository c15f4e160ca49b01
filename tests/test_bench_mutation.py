"""bench/mutation.py --since: which functions a change reaches (issue 24's habit of running the
mutation tests on what one changed, in minutes rather than the hours of a whole scope).

mutmut names a mutant after its function: ``pkg.mod.x_name__mutmut_3`` for a function,
``pkg.mod.xǁClassǁname__mutmut_3`` for a method; ``mutmut run PATTERN`` tries only those."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

BEFORE = '''\
import os


def untouched(a):
    return a + 1


def edited(a):
    return a * 2


class Table:
    def kept(self):
        return 1

    @property
    def decorated(self):
        return 2

    def shortened(self):
        first = 1
        second = 2
        return first + second
'''


@pytest.fixture(scope="module")
def bench(load_bench):
    return load_bench("mutation")


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=folder,
                          capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(BEFORE, encoding="utf-8")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "first")
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_nothing_changed_names_nothing(bench, repository):
    assert bench.changed_functions("HEAD", ["pkg/*.py"], repository) == []


def test_an_edited_function_and_a_method_with_a_deleted_line_are_named_and_nothing_else(bench, repository):
    module = repository / "pkg" / "mod.py"
    edit(module, "return a * 2", "return a * 3")
    edit(module, "        second = 2\n", "")  # a deletion: counted at the line after it
    assert bench.changed_functions("HEAD", ["pkg/*.py"], repository) == [
        "pkg.mod.x_edited__mutmut_*", "pkg.mod.x\u01c1Table\u01c1shortened__mutmut_*"]


def test_a_decorator_counts_as_its_function_s_line(bench, repository):
    edit(repository / "pkg" / "mod.py", "    @property\n", "    @staticmethod\n")
    assert bench.changed_functions("HEAD", ["pkg/*.py"], repository) == [
        "pkg.mod.x\u01c1Table\u01c1decorated__mutmut_*"]


def test_a_change_outside_every_function_names_nothing(bench, repository):
    edit(repository / "pkg" / "mod.py", "import os\n", "import os\nimport sys\n")
    assert bench.changed_functions("HEAD", ["pkg/*.py"], repository) == []


def test_committed_changes_since_an_older_commit_count_and_files_outside_the_scope_do_not(bench, repository):
    edit(repository / "pkg" / "mod.py", "return 1\n", "return 10\n")
    (repository / "pkg" / "other.py").write_text("def elsewhere():\n    return 0\n", encoding="utf-8")
    git(repository, "add", ".")
    git(repository, "commit", "-q", "-m", "second")
    assert bench.changed_functions("HEAD~1", ["pkg/mod.py"], repository) == ["pkg.mod.x\u01c1Table\u01c1kept__mutmut_*"]
    assert bench.changed_functions("HEAD", ["pkg/mod.py"], repository) == []


def test_a_new_file_git_does_not_know_yet_is_all_changed(bench, repository):
    (repository / "pkg" / "fresh.py").write_text("def new_one():\n    return 0\n", encoding="utf-8")
    assert bench.changed_functions("HEAD", ["pkg/*.py"], repository) == ["pkg.fresh.x_new_one__mutmut_*"]


def test_an_unknown_commit_is_a_clear_error(bench, repository):
    with pytest.raises(ValueError, match="git diff no-such-commit"):
        bench.changed_functions("no-such-commit", ["pkg/*.py"], repository)


# The list of equivalent mutants (bench/mutation-equivalents.toml): skipped while their function
# is unchanged since they were read.

EDITED_4 = "pkg.mod.x_edited__mutmut_4"
KEPT_1 = "pkg.mod.x\u01c1Table\u01c1kept__mutmut_1"


def test_marked_equivalents_are_skipped_with_their_reason_while_their_function_is_unchanged(bench, repository):
    listing = repository / "equivalents.toml"
    bench.mark_equivalent([EDITED_4, KEPT_1], "a reason", ["pkg/*.py"], listing, repository)
    bench.mark_equivalent(["pkg.mod.x_untouched__mutmut_2"], "another \"quoted\" reason", ["pkg/*.py"],
                          listing, repository)
    assert bench.known_equivalents(["pkg/*.py"], listing, repository) == (
        {EDITED_4: "a reason", KEPT_1: "a reason", "pkg.mod.x_untouched__mutmut_2": 'another "quoted" reason'}, [])
    # comments, blank lines and moving a function change nothing; its code does
    module = repository / "pkg" / "mod.py"
    edit(module, "def untouched(a):\n", "\n\ndef untouched(a):  # unchanged\n")
    edit(module, "return a * 2", "return a * 3")
    assert bench.known_equivalents(["pkg/*.py"], listing, repository) == (
        {KEPT_1: "a reason", "pkg.mod.x_untouched__mutmut_2": 'another "quoted" reason'}, [EDITED_4])


def test_only_the_scope_s_files_count_and_a_missing_list_skips_nothing(bench, repository):
    listing = repository / "equivalents.toml"
    assert bench.known_equivalents(["pkg/*.py"], listing, repository) == ({}, [])
    bench.mark_equivalent([EDITED_4], "a reason", ["pkg/*.py"], listing, repository)
    (repository / "pkg" / "other.py").write_text("def elsewhere():\n    return 0\n", encoding="utf-8")
    assert bench.known_equivalents(["pkg/other.py"], listing, repository) == ({}, [])


@pytest.mark.parametrize("name", ["pkg.mod.x_no_such__mutmut_1", "pkg.mod.x_edited", "elsewhere.x_f__mutmut_1"])
def test_marking_a_name_that_is_no_mutant_of_the_scope_is_refused_and_writes_nothing(bench, repository, name):
    listing = repository / "equivalents.toml"
    with pytest.raises(ValueError, match="is no mutant of pkg/"):
        bench.mark_equivalent([EDITED_4, name], "a reason", ["pkg/*.py"], listing, repository)
    assert not listing.exists()


def test_the_shipped_list_reads_and_names_only_mutants_of_the_scopes_functions(bench):
    # every group has its reason and the hash of each function it names: a typo in a name or a
    # group without hashes would silently run (or skip) the wrong mutants
    mutated = [pattern for files, _ in bench.SCOPES.values() for pattern in files]
    functions = bench.function_hashes(mutated)
    groups = bench._read_toml(bench.EQUIVALENTS)["equivalent"]
    assert groups
    for group in groups:
        assert group["why"].strip()
        assert group["mutants"]
        for mutant in group["mutants"]:
            assert "__mutmut_" in mutant and bench._function_of(mutant) in group["functions"], mutant
        for function in group["functions"]:
            assert function in functions, f"{function} is no function of a scope (renamed or removed?)"


def test_a_mutant_skipped_before_and_taken_off_the_list_is_tried_again(bench):
    statuses = [("m.x_f__mutmut_1", "skipped"), ("m.x_f__mutmut_2", "skipped"), ("m.x_f__mutmut_3", "killed"),
                ("m.x_g__mutmut_1", "survived")]
    listed = {"m.x_f__mutmut_1": "why"}
    assert bench.no_longer_listed(statuses, listed) == ["m.x_f__mutmut_2"]
    assert bench.no_longer_listed(statuses, {"m.x_f__mutmut_1": "why", "m.x_f__mutmut_2": "why"}) == []


def _two_groups(bench, repository: Path) -> Path:
    listing = repository / "equivalents.toml"
    listing.write_text("# read by hand: keep this comment\n", encoding="utf-8")
    bench.mark_equivalent([EDITED_4], "first reason", ["pkg/*.py"], listing, repository)
    bench.mark_equivalent([KEPT_1], "second reason.", ["pkg/*.py"], listing, repository)
    return listing


def test_mutants_added_to_a_group_already_there_share_its_reason_and_the_file_keeps_its_layout(bench, repository):
    listing = _two_groups(bench, repository)
    bench.add_to_group(["pkg.mod.x\u01c1Table\u01c1kept__mutmut_7", "pkg.mod.x_untouched__mutmut_2", KEPT_1], 2,
                       ["pkg/*.py"], "Also a third.", listing, repository)
    text = listing.read_text(encoding="utf-8")
    assert text.startswith("# read by hand: keep this comment\n")
    groups = bench.equivalent_groups(listing)
    assert groups[0] == {"why": "first reason", "mutants": [EDITED_4],
                         "functions": {"pkg.mod.x_edited": bench.function_hashes(["pkg/*.py"], repository)
                                       ["pkg.mod.x_edited"]}}
    assert groups[1]["why"] == "second reason. Also a third."
    assert groups[1]["mutants"] == [KEPT_1, "pkg.mod.x\u01c1Table\u01c1kept__mutmut_7", "pkg.mod.x_untouched__mutmut_2"]
    current, stale = bench.known_equivalents(["pkg/*.py"], listing, repository)
    assert current["pkg.mod.x_untouched__mutmut_2"] == "second reason. Also a third." and stale == []
    # once the function changes, the mutant added to the group is stale like the others
    edit(repository / "pkg" / "mod.py", "return a + 1", "return a + 5")
    assert bench.known_equivalents(["pkg/*.py"], listing, repository)[1] == ["pkg.mod.x_untouched__mutmut_2"]


def test_adding_to_a_group_without_a_reason_keeps_its_reason(bench, repository):
    listing = _two_groups(bench, repository)
    bench.add_to_group(["pkg.mod.x_edited__mutmut_9"], 1, ["pkg/*.py"], None, listing, repository)
    assert bench.equivalent_groups(listing)[0]["why"] == "first reason"
    assert bench.equivalent_groups(listing)[0]["mutants"] == [EDITED_4, "pkg.mod.x_edited__mutmut_9"]


@pytest.mark.parametrize("group, names, reason", [
    (3, [EDITED_4], "there is no group 3 in equivalents.toml"),
    (0, [EDITED_4], "there is no group 0"),
    (1, ["pkg.mod.x_no_such__mutmut_1"], "is no mutant of pkg/"),
])
def test_adding_to_a_group_that_is_not_there_or_a_name_that_is_no_mutant_is_refused(bench, repository, group,
                                                                                       names, reason):
    listing = _two_groups(bench, repository)
    before = listing.read_text(encoding="utf-8")
    with pytest.raises(ValueError, match=reason):
        bench.add_to_group(names, group, ["pkg/*.py"], "why", listing, repository)
    assert listing.read_text(encoding="utf-8") == before


def test_a_group_that_read_an_older_version_of_the_function_takes_no_new_mutant_of_it(bench, repository):
    # the group's hash vouches for every mutant of that function it lists: updating it for the new
    # mutant would vouch for the old ones, read on other code
    listing = _two_groups(bench, repository)
    edit(repository / "pkg" / "mod.py", "return a * 2", "return a * 3")
    before = listing.read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="group 1 read pkg.mod.x_edited before it changed"):
        bench.add_to_group(["pkg.mod.x_edited__mutmut_9"], 1, ["pkg/*.py"], None, listing, repository)
    assert listing.read_text(encoding="utf-8") == before


@pytest.mark.parametrize("why, mutants", [
    ('"a reason"', '["%s"]'),  # the mutants on one line: nowhere to add a line
    ('"""a reason\non two lines"""', '[\n    "%s",\n]'),  # found, but a new why on one line breaks the file
])
def test_a_group_laid_out_by_hand_in_another_way_is_left_as_it_was(bench, repository, why, mutants):
    listing = repository / "equivalents.toml"
    hashes = bench.function_hashes(["pkg/*.py"], repository)
    listing.write_text(f'[[equivalent]]\nwhy = {why}\nmutants = {mutants % EDITED_4}\n'
                       f'[equivalent.functions]\n"pkg.mod.x_edited" = "{hashes["pkg.mod.x_edited"]}"\n',
                       encoding="utf-8")
    before = listing.read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="laid out in a way --group cannot edit"):
        bench.add_to_group(["pkg.mod.x_edited__mutmut_9"], 1, ["pkg/*.py"], "more", listing, repository)
    assert listing.read_text(encoding="utf-8") == before
