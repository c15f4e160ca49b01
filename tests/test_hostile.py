"""Hostile input: records, variant files and plugins written to break ``azul`` or to run code.

One test per class of attack (issue 12). The trust tests use a plugin that
writes a file when it is imported: that the file is absent proves the code
did not run.
"""

from __future__ import annotations

import json
import os
import socket
import textwrap
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import azul_core.cli.play  # noqa: F401  (registers the command)
import azul_core.cli.replay  # noqa: F401
import azul_core.cli.simulate  # noqa: F401
import azul_core.cli.validate  # noqa: F401
import azul_core.cli.variants  # noqa: F401
from azul_core.cli.app import app
from azul_core.cli.safe_text import safe_line
from azul_core.engine.plugins import PluginError
from azul_core.engine.state import GameState
from azul_core.lab.simulate import SimulationError, simulate
from azul_core.records.game_record import FORMAT, parse_record, validate_record, write_record
from azul_core.testing import new_game, play_out
from azul_core.variants.loading import Trust, VariantError, load_variant

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
GOOD_RECORD = {
    "format": FORMAT, "variant": "standard", "players": ["ana", "bo"],
    "rounds": [{"factories": ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"],
                "actions": ["1B4", "2Y3", "3R-", "4K4", "5W1"], "scores": [0, 1]}],
}


def run(*args, env=None):
    return CliRunner().invoke(app, [str(a) for a in args], env={**ENV, **(env or {})})


def evil_variant(folder: Path, marker: Path, name: str = "evil") -> Path:
    """A variant whose plugin file, if it is ever imported, writes ``marker``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\nextends: standard\nplugins: [standard, colour_wall, {name}.py]\n")
    return path


def record_naming(path: Path, variant: str, **changes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**GOOD_RECORD, "variant": variant, **changes}))
    return path


# ================================================================ the trust boundary


@pytest.mark.parametrize("how", ["absolute", "dotdot", "symlink"])
def test_a_record_naming_a_variant_outside_its_folder_runs_nothing(tmp_path, how):
    marker = tmp_path / "ran"
    evil = evil_variant(tmp_path / "elsewhere", marker)
    recs = tmp_path / "recs"
    recs.mkdir()
    if how == "absolute":
        ref = str(evil)
    elif how == "dotdot":
        ref = "../elsewhere/evil.yaml"
    else:
        (recs / "link.yaml").symlink_to(evil)
        ref = "link.yaml"
    record_naming(recs / "game.json", ref)
    result = run("validate", recs)
    assert result.exit_code == 1
    assert not marker.exists()
    assert "--variant" in result.output and "refused" in result.output


def test_a_record_naming_a_variant_in_its_folder_runs_its_plugin_only_with_consent(tmp_path):
    marker = tmp_path / "ran"
    recs = tmp_path / "recs"
    evil = evil_variant(recs, marker)
    record = record_naming(recs / "game.json", "evil.yaml")
    result = run("validate", record)
    assert result.exit_code == 1 and not marker.exists()
    # One line says which file would run which code, and how to allow it.
    assert f"would run the code of the file {recs / 'evil.py'}" in result.output
    assert "allow it with --variant" in result.output and "--trust" in result.output
    assert run("validate", "--trust", record).exit_code == 0 and marker.exists()
    marker.unlink()
    assert run("validate", "--variant", evil, record).exit_code == 0 and marker.exists()


def test_replay_and_resume_of_a_record_run_no_code_without_consent(tmp_path):
    marker = tmp_path / "ran"
    recs = tmp_path / "recs"
    evil_variant(recs, marker)
    record = record_naming(recs / "game.json", "evil.yaml")
    assert run("replay", "--final", record).exit_code == 1
    assert run("play", "--resume", record, "--players", "greedy,greedy").exit_code == 1
    assert not marker.exists()
    assert run("replay", "--final", "--trust", record).exit_code == 0 and marker.exists()


def test_the_library_default_for_a_record_is_no_code(tmp_path):
    marker = tmp_path / "ran"
    evil_variant(tmp_path, marker)
    report = validate_record(record_naming(tmp_path / "game.json", "evil.yaml"))
    assert not report["valid"] and not marker.exists()
    assert validate_record(tmp_path / "game.json", trust=Trust(everything=True))["valid"]


def test_listing_variants_imports_no_plugin(tmp_path, monkeypatch):
    marker = tmp_path / "ran"
    evil_variant(tmp_path / "variants", marker)
    extra = tmp_path / "more"
    evil_variant(extra, marker, "other")
    monkeypatch.chdir(tmp_path)
    for args in (["variants"], ["variants", "--json"]):
        result = run(*args, env={"AZUL_VARIANTS_PATH": str(extra)})
        assert result.exit_code == 0, result.output
        assert "evil" in result.output and "other" in result.output
    assert not marker.exists()
    # Used by name, the user chose it: now its plugin runs.
    assert run("variants", "show", "evil").exit_code == 0 and marker.exists()


def test_validate_no_code_checks_the_file_and_says_what_it_did_not_run(tmp_path):
    marker = tmp_path / "ran"
    evil = evil_variant(tmp_path, marker)
    result = run("validate", "--no-code", evil)
    assert result.exit_code == 0, result.output
    assert "plugin 'evil.py'" in result.output and "was not run" in result.output
    assert not marker.exists()
    # Settings of installed plugins are still judged, without running the file.
    evil.write_text(evil.read_text() + "settings: {row_bonus: -3}\n")
    result = run("validate", "--no-code", "--json", evil)
    assert result.exit_code == 1 and "row_bonus" in result.output and not marker.exists()
    report = json.loads(result.stdout)
    assert report["not_run"] and report["code_checked"] is False


def test_a_variant_named_on_the_command_line_may_run_its_plugins(tmp_path):
    marker = tmp_path / "ran"
    evil = evil_variant(tmp_path, marker)
    assert run("validate", "--no-play", evil).exit_code == 0 and marker.exists()


# ================================================================ a plugin can't end the program


def plugin_variant(folder: Path, body: str, name: str = "bad") -> Path:
    (folder / f"{name}.py").write_text(textwrap.dedent(body))
    path = folder / f"{name}.yaml"
    path.write_text(f"name: {name}\nextends: standard\nplugins: [standard, colour_wall, {name}.py]\n")
    return path


@pytest.mark.parametrize("exception", ["SystemExit(0)", "KeyboardInterrupt()", "GeneratorExit()"])
def test_a_plugin_raising_a_base_exception_in_a_hook_makes_validate_exit_1(tmp_path, exception):
    variant = plugin_variant(tmp_path, f"""
        def azul_placement_score(wall, row, column):
            raise {exception}
    """)
    record = record_naming(tmp_path / "game.json", "bad.yaml")
    result = run("validate", "--trust", "--games", "2", variant, record)
    assert result.exit_code == 1, result.output
    name = exception.split("(")[0]
    assert f"plugin 'bad' raised {name} in azul_placement_score at {tmp_path / 'bad.py'}:3" in result.output
    assert result.output.count("invalid") >= 2  # both files reported


def test_a_plugin_raising_system_exit_at_import_is_named(tmp_path):
    variant = plugin_variant(tmp_path, "raise SystemExit(0)\n")
    result = run("validate", variant)
    assert result.exit_code == 1
    assert "failed to import: SystemExit" in result.output and "bad.py:1" in result.output


def test_a_failing_setting_check_of_a_plugin_is_a_problem(tmp_path):
    variant = plugin_variant(tmp_path, """
        from azul_core.settings import Setting
        def _boom(value):
            raise SystemExit(3)
        def azul_declare_settings():
            return [Setting("odd", "int", 1, "a setting", check=_boom)]
    """)
    variant.write_text(variant.read_text() + "settings: {odd: 2}\n")
    result = run("validate", "--no-play", variant)
    assert result.exit_code == 1 and "check of 2 raised SystemExit" in result.output


# ================================================================ plugin answers read exactly


def test_a_generator_answer_is_read_once(tmp_path):
    variant = load_variant(plugin_variant(tmp_path, """
        def azul_winners(scores, walls):
            return (seat for seat, score in enumerate(scores) if score == max(scores))
        def azul_end_bonuses(wall):
            yield ("bonus", 1)
    """))
    run_ = simulate(variant, 2, 5, seed=1)
    assert all(game.winners for game in run_.results)
    assert all(("bonus", 1) in seat.bonuses for game in run_.results for seat in game.seats)


def test_duplicate_winners_are_refused(tmp_path):
    variant = load_variant(plugin_variant(tmp_path, """
        def azul_winners(scores, walls):
            return [0, 0]
    """))
    with pytest.raises(SimulationError, match="a seat is named twice"):
        simulate(variant, 2, 1, seed=1)


@pytest.mark.parametrize("hook,change", [
    ("azul_placement_score(wall, row, column)", "wall[0][0] = 4"),
    ("azul_placement_score(wall, row, column)", "wall[0] = (4,) * 5"),
    ("azul_placement_score(wall, row, column)", "wall[row].append(column)"),
    ("azul_end_bonuses(wall)", "del wall[0]"),
    ("azul_game_over(walls)", "walls[0][1] = (0,) * 5"),
    ("azul_floor_penalty(floor, game)", "game.walls[0][0] = (0,) * 5"),
])
def test_a_plugin_changing_the_wall_is_named_in_play_and_simulate(tmp_path, hook, change):
    name = hook.split("(")[0]
    variant = load_variant(plugin_variant(tmp_path, f"""
        def {hook}:
            {change}
    """, "vandal"))
    said = "plugin 'vandal' tried to change the " + ("game" if "game)" in hook else "wall")
    with pytest.raises(SimulationError) as caught:
        simulate(variant, 2, 1, seed=1)
    assert caught.value.plugin == "vandal" and said in str(caught.value)
    why = "the game view is read-only" if "game)" in hook else "walls are read-only"
    assert f"({name}) at " in str(caught.value) and why in str(caught.value)
    assert "vandal.py:3" in str(caught.value)  # the line that tried
    result = run("validate", "--games", "1", tmp_path / "vandal.yaml")
    assert result.exit_code == 1 and said in result.output, result.output
    with pytest.raises(PluginError, match=said):  # in play, outside simulate too
        play_out(new_game(tmp_path / "vandal.yaml"))


def test_a_plugin_raising_typeerror_of_its_own_is_not_called_a_wall_changer(tmp_path):
    variant = load_variant(plugin_variant(tmp_path, """
        def azul_placement_score(wall, row, column):
            mine = [1]
            return mine["x"]
    """))
    with pytest.raises(SimulationError, match="raised TypeError in azul_placement_score") as caught:
        simulate(variant, 2, 1, seed=1)
    assert "read-only" not in str(caught.value)


@pytest.mark.parametrize("body,message", [
    ("def azul_placement_score(wall, row, column):\n    return 10**400\n", "more than 1000000 points"),
    ("def azul_end_bonuses(wall):\n    return [('huge', -10**30)]\n", "more than 1000000 points"),
    ("from azul_core.rules import TableSetup\n"
     "def azul_game_setup(players):\n    return TableSetup(5, 4, 10**8)\n", "out of range"),
])
def test_plugin_answers_are_bounded(tmp_path, body, message):
    variant = plugin_variant(tmp_path, body)
    result = run("validate", "--games", "2", variant)
    assert result.exit_code == 1 and message in result.output, result.output


# ================================================================ bots


@pytest.mark.parametrize("body,message", [
    ("    def choose(self, state):\n        raise SystemExit(0)\n", "raised SystemExit in choose"),
    ("    def choose(self, state):\n        return None\n", "returned nothing from choose"),
])
def test_a_bot_that_fails_is_a_message(tmp_path, body, message):
    (tmp_path / "botty.py").write_text(
        "class Bad:\n    def __init__(self, seed=None, think=None):\n        pass\n" + body +
        "\ndef azul_register_bots():\n    return {'bad': Bad}\n")
    (tmp_path / "botty.yaml").write_text("extends: standard\nplugins: [standard, colour_wall, botty.py]\n")
    with pytest.raises(SimulationError, match=message):
        simulate(str(tmp_path / "botty.yaml"), 2, 1, bots="bad")
    result = run("play", "--variant", tmp_path / "botty.yaml", "--players", "bad,greedy",
                 "--record", tmp_path / "g.json")
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output


# ================================================================ limits on input


@pytest.mark.parametrize("kind", ["fifo", "device", "socket"])
@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_only_regular_files_are_read(tmp_path, kind, suffix):
    path = tmp_path / f"special{suffix}"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
    result = run("validate", path)  # returns at once: a FIFO has no writer, /dev/zero no end
    assert result.exit_code == 1
    assert "not a regular file" in result.output
    assert run("replay", path).exit_code == 1


def test_a_record_too_large_is_refused_before_reading(tmp_path):
    path = tmp_path / "big.json"
    with open(path, "wb") as stream:
        stream.truncate(11 * 1024 * 1024)  # sparse: the size alone refuses it
    result = run("validate", path)
    assert result.exit_code == 1 and "larger than" in result.output


@pytest.mark.parametrize("text,message", [
    ("extends: standard\nsettings: {row_bonus: " + "9" * 5000 + "}\n", "out of range"),
    ("extends: standard\nsettings: {row_bonus: " + "9" * 30 + "}\n", "out of range"),
    ("extends: standard\nsettings: {row_bonus: 10000000}\n", "out of range"),
    ("extends: standard\ndescription: " + "x" * 3000 + "\n", "3000 characters"),
    ("extends: standard\ndescription: \"\\ud800\"\n", "lone surrogate"),
    ("extends: standard\nsettings: {factories: {3: 7, '3': 8}}\n", "same key once read as text"),
    ("extends: standard\nx: " + "[" * 40 + "]" * 40 + "\n", "nested more than"),
    ("extends: standard\nx: " + "[" * 5000 + "]" * 5000 + "\n", "nested more than"),
    ("extends: standard\nx: [" + ",".join(["1"] * 5000) + "]\n", "refused unparsed"),
])
def test_variant_file_limits(tmp_path, text, message):
    path = tmp_path / "v.yaml"
    path.write_text(text)
    result = run("validate", "--no-play", path)
    assert result.exit_code == 1 and message in result.output, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("text,message", [
    ("extends = 'standard'\n[settings]\nrow_bonus = " + "9" * 5000 + "\n", "TOML error"),
    ("extends = 'standard'\n[settings]\nrow_bonus = " + "9" * 25 + "\n", "out of range"),
    ("extends = 'standard'\n" + "a" + ".a" * 400_000 + " = 1\n", "larger than"),
    ("extends = 'standard'\n" + "a" + ".a" * 30_000 + " = 1\n", "dotted key of more than"),
    ("extends = 'standard'\n" + "a" + ".a" * 100 + " = 1\n", "dotted key of more than"),
    ("extends = 'standard'\n" + "x = [\n" + "1,\n" * 70_000 + "]\n", "larger than"),
])
def test_toml_limits(tmp_path, text, message):
    path = tmp_path / "v.toml"
    path.write_text(text)
    result = run("validate", "--no-play", path)
    assert result.exit_code == 1 and message in result.output, result.output


def test_a_large_bad_toml_file_gives_a_few_lines(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text("".join(f"k{i} = 1\nk{i} = 2\n" for i in range(1900)))
    result = run("validate", "--no-play", path)
    assert result.exit_code == 1 and len(result.output.splitlines()) <= 25


@pytest.mark.parametrize("change,message", [
    ('"players": ["a", "b"], "variant": "duel", "variant": "standard"', "appears twice"),
    ('"seed": ' + "9" * 5000, "out of range"),
    ('"seed": ' + "9" * 30, "out of range"),
    ('"seed": "\\ud800"', "lone surrogate"),
    ('"seed": "' + "x" * 5000 + '"', "5000 characters"),
])
def test_record_limits(tmp_path, change, message):
    base = json.dumps(GOOD_RECORD)[1:-1]
    path = tmp_path / "r.json"
    path.write_text("{" + base + ", " + change + "}")
    result = run("validate", path)
    assert result.exit_code == 1 and message in result.output, result.output


def test_a_lone_surrogate_is_an_error_for_its_file_and_the_others_are_still_reported(tmp_path):
    bad = tmp_path / "a.json"
    bad.write_text(json.dumps({**GOOD_RECORD, "players": ["\ud800", "bo"]}))
    good = record_naming(tmp_path / "b.json", "standard")
    result = run("validate", bad, good)
    assert result.exit_code == 1
    assert "lone surrogate" in result.output and f"{good}: unfinished record" in result.output


def test_a_setting_too_large_for_statistics_is_refused_before_simulate(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text("extends: standard\nsettings: {row_bonus: 1000000000}\n")
    with pytest.raises(VariantError, match="out of range"):
        load_variant(path)


# ================================================================ output that can't be forged


def test_control_characters_in_a_record_or_a_variant_file_are_refused(tmp_path):
    fake = "\x1b]0;owned\x07\r\x1b[2Kgame.json: valid record"
    record = record_naming(tmp_path / "game.json", fake)
    names = record_naming(tmp_path / "names.json", "standard", players=[fake, "bo"])
    variant = tmp_path / "v.yaml"
    variant.write_text('extends: standard\nname: "\\e]0;owned\\a"\n')
    result = run("validate", "--no-play", record, names, variant)
    assert result.exit_code == 1
    assert "\x1b" not in result.output and "\r" not in result.output and "\x07" not in result.output
    assert result.output.count("the control character 0x1b") == 3, result.output
    assert run("replay", "--final", names).exit_code == 1


def test_control_characters_reaching_the_terminal_are_escaped(tmp_path):
    path = tmp_path / "\x1b]0;owned\x07.json"  # a file name is input too
    path.write_text("{")
    result = run("validate", path)
    assert result.exit_code == 1
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "\\x1b]0;owned\\x07.json" in result.output


def test_a_huge_action_is_not_echoed_whole(tmp_path):
    rounds = [{"factories": GOOD_RECORD["rounds"][0]["factories"], "actions": ["x" * 1500]}]
    path = record_naming(tmp_path / "game.json", "standard", rounds=rounds)
    result = run("validate", path)
    assert result.exit_code == 1 and max(len(line) for line in result.output.splitlines()) <= 500


def test_safe_line():
    assert safe_line("a\x1b[2Kb\u202ec") == "a\\x1b[2Kb\\u202ec"
    assert safe_line("\ud800") == "\\ud800"
    assert len(safe_line("x" * 10_000)) == 500


# ================================================================ saved games


def test_a_second_process_resuming_the_same_game_is_refused(tmp_path):
    from azul_core.players.game_lock import GameLock
    path = tmp_path / "g.json"
    assert run("play", "--players", "greedy,greedy", "--seed", "1", "--record", path).exit_code == 0
    data = json.loads(path.read_text())
    data["rounds"] = data["rounds"][:1]
    data.pop("result", None)
    for entry in data["rounds"]:
        entry.pop("scores", None)
    path.write_text(json.dumps(data))
    lock = GameLock.acquire(path)  # another azul playing it
    try:
        before = path.read_text()
        result = run("play", "--resume", path, "--players", "greedy,greedy")
        assert result.exit_code == 1 and "being played by another azul process" in result.output
        assert path.read_text() == before
    finally:
        lock.release()
    assert run("play", "--resume", path, "--players", "greedy,greedy").exit_code == 0


def test_a_failed_save_says_so_and_exits_1(tmp_path, monkeypatch):
    import azul_core.records.game_record as game_record
    path = tmp_path / "g.json"
    real = game_record.write_record
    calls = []

    def full_disk(target, data, durable=True):
        calls.append(target)
        if len(calls) > 3:
            raise OSError(28, "No space left on device")
        real(target, data, durable)
    monkeypatch.setattr(game_record, "write_record", full_disk)
    result = run("play", "--players", "greedy,greedy", "--seed", "1", "--record", path)
    assert result.exit_code == 1
    assert "was NOT saved" in result.output and "No space left on device" in result.output
    assert "Game saved" not in result.output


def test_saved_records_get_the_umask_mode_and_stale_temporaries_go(tmp_path):
    old = os.umask(0o027)
    try:
        write_record(tmp_path / "r.json", GOOD_RECORD)
    finally:
        os.umask(old)
    assert (tmp_path / "r.json").stat().st_mode & 0o777 == 0o640
    stale = tmp_path / ".g.json.abc123.tmp"
    stale.write_text("half a record")
    run("play", "--players", "greedy,greedy", "--seed", "1", "--record", tmp_path / "g.json")
    assert not stale.exists()


def test_simulate_to_a_full_disk_is_a_message(tmp_path, monkeypatch):
    import azul_core.records.game_record as game_record

    def full_disk(target, data, durable=True):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(game_record, "write_record", full_disk)
    result = run("simulate", "--games", "2", "--bots", "random", "--record-dir", tmp_path)
    assert result.exit_code == 1 and "No space left on device" in result.output
    assert "Traceback" not in result.output


# ================================================================ signals (real processes)


def _azul(*args, cwd=None):
    import subprocess
    import sys
    code = "from azul_core.cli.app import run; run()"
    return subprocess.Popen([sys.executable, "-c", code, *map(str, args)], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _wait_for(condition, seconds: float = 60) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to find the workers")
def test_sigterm_to_simulate_ends_its_workers():
    import signal
    process = _azul("simulate", "--games", "1000000", "--bots", "random", "--workers", "2", "--quiet")
    try:
        assert _wait_for(lambda: len(_children(process.pid)) >= 2)
        workers = _children(process.pid)
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 1 and "stopped by SIGTERM" in err
    assert _wait_for(lambda: not any(Path(f"/proc/{pid}").exists() and
                                     "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]
                                     for pid in workers), 30)


def test_ctrl_c_during_validate_says_where_it_stopped(tmp_path):
    import signal
    (tmp_path / "slow.py").write_text(textwrap.dedent("""
        import time
        def azul_placement_score(wall, row, column):
            time.sleep(0.5)
    """))
    (tmp_path / "slow.yaml").write_text("extends: standard\nplugins: [standard, colour_wall, slow.py]\n")
    later = [record_naming(tmp_path / f"r{i}.json", "standard") for i in range(3)]
    process = _azul("validate", tmp_path / "slow.yaml", *later)
    try:
        time.sleep(3)  # importing azul and starting the slow games
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 1
    assert f"interrupted while checking {tmp_path / 'slow.yaml'}" in err
    assert "3 more files not checked" in err and str(later[-1]) in err
    assert "Traceback" not in err


def test_parse_record_refuses_before_parsing_large_text():
    with pytest.raises(Exception, match="larger than"):
        parse_record("x" * 20, max_bytes=10)


def test_a_plugin_error_is_still_a_plugin_error(tmp_path):
    variant = load_variant(plugin_variant(tmp_path, """
        def azul_floor_penalty(floor):
            raise KeyboardInterrupt
    """))
    state = GameState(variant.rules, 2)
    with pytest.raises(PluginError, match="raised KeyboardInterrupt in azul_floor_penalty"):
        variant.rules.floor_penalty([0] * 8)
    assert state.round == 1


@pytest.mark.parametrize("bots", ["random", "greedy", "mcts"])
def test_every_wall_a_hook_is_given_is_read_only(tmp_path, bots):
    """Engine, bots (which score a tile tried on a new wall) and end of game: tuples only."""
    variant = load_variant(plugin_variant(tmp_path, """
        def _frozen(wall):
            if type(wall) is not tuple or any(type(row) is not tuple for row in wall):
                raise AssertionError(f"a writable wall: {wall!r}")
        def azul_placement_score(wall):
            _frozen(wall)
        def azul_end_bonuses(wall):
            _frozen(wall)
        def azul_game_over(walls):
            assert type(walls) is tuple
            for wall in walls:
                _frozen(wall)
        def azul_winners(walls):
            assert type(walls) is tuple
            for wall in walls:
                _frozen(wall)
    """, "watcher"))
    simulate(variant, 2, 2, seed=2, bots=bots, playouts=20)
