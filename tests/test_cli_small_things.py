"""The small things of issue 42: a bad record's JSON message, ``azul serve`` at 80 columns (its
help in panels, its startup lines at a terminal), the plugin-package example in a listing, the
RL adapters without the ``rl`` extra, one shape for every command's errors, and seats counted
from 1 wherever people read or type them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from azul_core.cli.app import _register, app

ROOT = Path(__file__).resolve().parents[1]
WIDTH = 80
ENV = {"COLUMNS": str(WIDTH), "NO_COLOR": "1", "AZUL_DEBUG": "", "TERMINAL_WIDTH": ""}
ONE_ROUND = {"rounds": [{"factories": ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"],
                         "actions": ["1B4", "2Y3", "3R-", "4K4", "5W1"]}]}

_register()


@pytest.fixture(autouse=True)
def _terminal_width_from_columns(monkeypatch):
    # typer reads TERMINAL_WIDTH once, when it is first imported: a test run earlier under a
    # wide TERMINAL_WIDTH would fix every help at that width. Here COLUMNS decides, as at a shell.
    import typer.rich_utils
    monkeypatch.setattr(typer.rich_utils, "MAX_WIDTH", None)


def azul(*args, env: dict | None = None):
    return CliRunner().invoke(app, [str(a) for a in args], env={**ENV, **(env or {})})


def words_of(text: str) -> str:
    """The help's text without its boxes, each run of spaces one space."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


# ------------------------------------------------------------------ 1. a record that is not JSON


def test_a_json_error_at_a_line_reads_at_once(tmp_path):
    record = tmp_path / "game.json"
    lines = ["{"] + [f'"key{n}": {n},' for n in range(6)] + ['"players": ["ana, "bo"]', "}"]
    record.write_text("\n".join(lines))  # the string at line 8 runs on past the comma
    result = azul("validate", record)
    assert result.exit_code == 1
    assert "at at" not in result.stdout
    assert re.search(r"not JSON: [A-Z][a-z ',]+ at line 8 column \d+", result.stdout), result.stdout

    record.write_text('{\n"format": "x",\n"players": ["an')  # json says: "Unterminated string starting at"
    result = azul("replay", record)
    assert result.exit_code == 1
    assert result.stderr.strip() == (f"azul: {record}: not JSON: Unterminated string starting at line 3 "
                                     "column 13")


# ------------------------------------------------------------------ 2, 3. azul serve at 80 columns


def option_rows(help_text: str) -> dict[str, list[str]]:
    """Each option of a help's panels: the lines of its help, without the default's."""
    rows: dict[str, list[str]] = {}
    current = None
    for line in help_text.splitlines():
        inner = line.strip("│ ")
        if not line.startswith("│"):
            current = None
        elif inner.startswith("--"):
            current = inner.split()[0]
            rows[current] = [line]
        elif current and not inner.startswith("[default:"):
            rows[current].append(line)
    return rows


def test_serve_help_groups_its_options_in_panels_of_short_help():
    result = azul("serve", "--help")
    assert result.exit_code == 0
    text = result.stdout
    for line in text.splitlines():
        assert cell_len(line) <= WIDTH, line
    assert "…" not in text
    panels = re.findall(r"╭─ (.+?) ─", text)
    assert panels == ["Options", "Where it listens", "Where the tables are kept", "The tables",
                      "Limits against hostile clients"]
    rows = option_rows(text)
    assert len(rows) == 28  # every option (and --help) is in a panel
    for option, lines in rows.items():
        assert len(lines) <= 2, f"{option}: {len(lines)} lines of help:\n" + "\n".join(lines)
    assert len(text.splitlines()) < 100  # it was about 150
    words = words_of(text)
    for phrase in ("Port to listen on; 0: a free one, another at each start.",
                   "Connections per address (0: no limit).",
                   "A postgresql:// URL: keep the tables there (the 'postgres' extra)."):
        assert phrase in words


@pytest.mark.parametrize("command", ["", "play", "replay", "simulate", "compare", "validate", "rules",
                                     "plugins", "serve", "variants", "variants show"])
def test_every_help_fits_80_columns_with_whole_words(command):
    result = azul(*command.split(), "--help")
    assert result.exit_code == 0
    for line in result.stdout.splitlines():
        assert cell_len(line) <= WIDTH, line
    assert "…" not in result.stdout


def test_serve_startup_lines_wrap_between_words_at_a_terminal(tmp_path):
    pytest.importorskip("pty")
    sys.path.insert(0, str(Path(__file__).parent))
    from test_play_pty import Terminal

    term = Terminal("serve", "--port", "0", "--data", "data", "--variants",
                    str(ROOT / "examples"), cwd=tmp_path)
    try:
        term.read_until(lambda text: "must survive a restart" in " ".join(text.split()))
    finally:
        term.send("\x03")  # Ctrl-C
        assert term.finish() == 0
    shown = term.seen.split("Serving on", 1)[1].split("^C")[0]  # up to the Ctrl-C the terminal echoes
    lines = [line for line in shown.splitlines() if line.strip()]
    for line in lines:
        assert cell_len(line) <= WIDTH, line
    assert len(lines) > 4  # the list of variants and the note took more than a line each
    words = " ".join(shown.split())
    # Every variant's name is whole: no name is cut at the end of a line.
    offered = re.search(r"Offering \d+ variants: (.*?); tables kept in", words).group(1).split(", ")
    assert {"standard", "double-red-middle-column", "factory-one-shift", "wild-tiles"} <= set(offered)
    assert "the table links name it, so they break if the server restarts on another port" in words


# ------------------------------------------------------------------ 5. the plugin-package example


def test_the_plugin_package_example_is_told_as_a_package_not_installed(tmp_path):
    from importlib.metadata import entry_points

    if "generous_tiles" in {point.name for point in entry_points(group="azul.plugins")}:
        pytest.skip("the example package is installed here")
    from azul_core.web.catalog import build_catalog
    catalog = build_catalog([ROOT / "examples"])
    assert catalog.problems == []  # no warning: every other example is offered
    package = ROOT / "examples" / "plugin-package"
    assert catalog.notes == [f"{package / 'generous-tiles.yaml'} is not offered: its plugin comes from the "
                             f"plugin package {package}, which is not installed (pip install {package})"]
    assert "generous-tiles" not in catalog.variants and "take-a-tile" in catalog.variants

    # Listed from its folder, the package's pyproject.toml is no variant file.
    result = azul("variants", env={"AZUL_VARIANTS_PATH": str(package)})
    assert result.exit_code == 0
    assert "pyproject" not in result.stdout and "INVALID" not in result.stdout
    assert "generous-tiles" in result.stdout
    assert "plugin package not installed: pip install" in " ".join(result.stdout.split())


# ------------------------------------------------------------------ 7. RL without the rl extra


@pytest.mark.parametrize("missing, use", [
    ("numpy", "import azul_core.rl; azul_core.rl.env()"),
    ("numpy", "import azul_core.rl.openspiel"),
    ("pyspiel", "import azul_core.rl.openspiel"),
    ("pettingzoo", "import azul_core.rl; azul_core.rl.env()"),
])
def test_the_rl_adapters_without_the_rl_extra_say_what_to_install(missing, use):
    code = f"import sys; sys.modules[{missing!r}] = None; {use}"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last == ("azul_core.rl.extra.RLExtraMissing: the RL adapters need the rl extra: "
                    f"pip install 'azul-variants[rl]' (no module named '{missing}')")
    assert "During handling" not in result.stderr  # the bare ImportError is not shown as well


def test_the_rl_extra_named_in_the_message_is_the_projects():
    import tomllib

    from azul_core.rl.extra import INSTALL_RL, RL_EXTRA_MODULES
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert INSTALL_RL == "pip install 'azul-variants[rl]'" and "rl" in extras
    packages = {re.split(r"[<>=\[ ]", requirement)[0] for requirement in extras["rl"]}
    assert {"open_spiel" if name == "pyspiel" else name for name in RL_EXTRA_MODULES} == packages


# ------------------------------------------------------------------ 8. one shape for errors


def bad_files(folder: Path) -> tuple[Path, Path]:
    record = folder / "bad.json"
    record.write_text('{"format": 1,')
    variant = folder / "bad.yaml"
    variant.write_text("name: [bad\n")
    return record, variant


COMMANDS_WITH_A_BAD_FILE = [
    ("play", ["--resume", "{record}"]),
    ("play", ["--variant", "{variant}"]),
    ("replay", ["{record}"]),
    ("simulate", ["--variant", "{variant}", "-n", "2"]),
    ("compare", ["{variant}", "standard", "-n", "2"]),
    ("rules", ["{variant}"]),
    ("variants show", ["{variant}"]),
    ("plugins", ["--variant", "{variant}"]),
    ("serve", ["--variants", "{record}"]),
]


@pytest.mark.parametrize("command, args", COMMANDS_WITH_A_BAD_FILE)
def test_a_bad_file_is_one_line_and_exit_1(tmp_path, command, args):
    record, variant = bad_files(tmp_path)
    given = [a.format(record=record, variant=variant) for a in args]
    result = azul(*command.split(), *given)
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("azul: "), result.stderr
    assert "Traceback" not in result.output and "╭" not in result.output


def test_validate_reports_a_bad_file_and_exits_1(tmp_path):
    record, variant = bad_files(tmp_path)
    result = azul("validate", record, variant)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == f"{record}: invalid record"
    assert result.stderr == ""


@pytest.mark.parametrize("command", ["play", "replay", "simulate", "compare", "validate", "rules",
                                     "plugins", "serve", "variants", "variants show"])
def test_a_wrong_option_is_one_line_and_exit_2(command):
    result = azul(*command.split(), "--no-such-option")
    assert result.exit_code == 2, result.output
    assert result.stderr == f"azul: No such option: --no-such-option (see 'azul {command} -h')\n"
    assert result.stdout == ""


@pytest.mark.parametrize("args, message", [
    (["simulate", "-n", "x"], "azul: Invalid value for '--games' / '-n': 'x' is not a valid int "
                              "(see 'azul simulate -h')"),
    (["replay"], "azul: Missing argument 'RECORD' (see 'azul replay -h')"),
    (["no-such-command"], "azul: No such command 'no-such-command' (see 'azul -h')"),
    (["simulate", "-n", "0"], "azul: --games must be 1 or more, not 0"),
    (["simulate", "-n", "2", "--workers", "-1"], "azul: --workers must be 0 (one per CPU) or more, not -1"),
    (["validate", "--games", "0", "x.json"], "azul: --games must be 1 or more, not 0"),
    (["compare", "standard", "duel", "-n", "1"], "azul: --games must be 2 or more, not 1"),
])
def test_wrong_usage_is_exit_2_whoever_finds_it(args, message):
    result = azul(*args)
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == message


# ------------------------------------------------------------------ 4. seats counted from 1


def test_simulate_counts_seats_from_1_in_its_report_and_from_0_in_its_data():
    result = azul("simulate", "-n", "4", "--bots", "greedy,random", "--seed", "1", "-q")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert re.match(r"\s+1\s+greedy\s", lines[2]) and re.match(r"\s+2\s+random\s", lines[3])
    assert "start player (seat 1): win share" in result.stdout
    assert "games won, by the winners the rules named: seat 1 4" in result.stdout  # greedy won all 4
    assert "seat 0" not in result.stdout
    data = json.loads(azul("simulate", "-n", "4", "--bots", "greedy,random", "--seed", "1", "-q",
                           "--json").stdout)
    assert [seat["seat"] for seat in data["seats"]] == [0, 1]  # the data keeps indexes


def test_validate_names_the_seats_from_1_and_its_json_from_0(tmp_path):
    simulate = azul("simulate", "-n", "1", "--bots", "greedy,random", "--seed", "1", "-q",
                    "--record-dir", tmp_path / "games")
    assert simulate.exit_code == 0, simulate.output
    [record] = (tmp_path / "games").glob("*.json")
    data = json.loads(record.read_text())
    assert data["result"]["winners"] == [0]  # greedy, at the first seat
    result = azul("validate", record)
    assert result.stdout.splitlines()[0].endswith("winner: seat 1")

    data["rounds"][0]["actions"][0] = "9B1"  # no factory 9: the first seat's first draft is wrong
    record.write_text(json.dumps(data))
    lines = azul("validate", record).stdout.splitlines()
    assert lines[1].startswith("  round 1 action 1 (seat 1, '9B1'): ")
    report = json.loads(azul("validate", "--json", record).stdout)
    assert report["errors"][0]["seat"] == 0  # the JSON report's fields count from 0, as records do


def test_rules_count_seats_from_1():
    result = azul("rules", ROOT / "examples" / "shared-ties" / "shared-ties.yaml")
    assert "seats 1 and 2 share the victory (standard: seat 1 wins)" in result.stdout
