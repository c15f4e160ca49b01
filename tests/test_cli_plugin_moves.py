"""``azul play``, ``replay``, ``validate``, ``simulate`` and ``compare`` with plugins' moves,
memory and secrets (issue 20), on examples/pass-once, factory-one-shift and secret-goal."""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

import azul_core.cli.compare  # noqa: F401  (registers the command)
import azul_core.cli.play  # noqa: F401
import azul_core.cli.replay  # noqa: F401
import azul_core.cli.simulate  # noqa: F401
import azul_core.cli.validate  # noqa: F401
from azul_core.cli.app import app
from azul_core.colours import NAMES
from azul_core.engine.state import CHOOSE
from azul_core.records.game_record import check_record, dumps_record, read_record, replay_state, sealed_for
from azul_core.variants.loading import Trust, load_variant

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def example(name: str) -> Path:
    return EXAMPLES / name / f"{name}.yaml"


def run(*args, input: str | None = None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input, env=ENV)


def play(tmp_path, name: str, players: str, input: str, seed: int = 3, record: str = "game.json"):
    path = tmp_path / record
    result = run("play", "--variant", example(name), "--players", players, "--seed", seed,
                 "--record", path, input=input)
    return result, path


def position(path, name: str):
    return replay_state(read_record(path), load_variant(str(example(name))))


# ------------------------------------------------------------------ azul play: a pass


def test_play_shows_the_pass_on_offer_and_accepts_its_name(tmp_path):
    result, path = play(tmp_path, "pass-once", "human,greedy", "?\nhelp\npass\npass\n+pass\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Also on offer: +pass Pass this turn (once a round)" in out       # under the board
    assert "Moves of this variant's rules" in out and "+pass  Pass this turn (once a round)" in out  # ?
    assert "The moves this variant's rules add (when on offer):" in out       # help
    assert "you play +pass: Pass this turn (once a round)" in out
    assert "You may still pass this round" in out and "You have passed this round" in out
    assert "[true, false]" not in out and "Memory:" not in out
    # Once a round: the second pass is refused by the rule, by name or by notation.
    assert out.count("Pass this turn (once a round) (+pass) is not on offer now. Type ?") == 2
    saved = read_record(path)
    assert saved.rounds[0].actions[0] == "+pass" and len(saved.rounds[0].actions) == 2
    assert saved.memory == {"pass_once": (True, False)}


def test_resume_restores_the_plugins_memory(tmp_path):
    _result, path = play(tmp_path, "pass-once", "human,greedy", "pass\nquit\n")
    result = run("play", "--resume", path, "--variant", example("pass-once"), input="pass\nquit\n")
    assert result.exit_code == 0, result.output
    assert "You have passed this round" in result.stdout
    assert "Pass this turn (once a round) (+pass) is not on offer now" in result.stdout
    assert read_record(path).rounds[0].actions[0] == "+pass"


# ------------------------------------------------------------------ azul play: a choice after a draft


def test_play_asks_for_a_choice_after_a_draft_from_factory_one(tmp_path):
    result, path = play(tmp_path, "factory-one-shift", "human,greedy",
                        "1Y1\n?\nline\nblue\n9\nfloor\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "you choose after the draft" in out
    assert "you: choose 1-6 or a move> " in out
    assert " 6 +shift:5  Move a tile to the floor" in out
    assert "'line' could be +shift:1 (Move a tile to line 2)" in out              # ambiguous
    assert "'blue' is none of the choices after your draft" in out
    assert "Choose 1 to 6:" in out
    assert "you play +shift:5: Move a tile to the floor" in out
    assert read_record(path).rounds[0].actions[:2] == ["1Y1", "+shift:5"]


def test_a_choice_by_its_number_and_a_quit_in_the_middle_of_it_resumes_there(tmp_path):
    result, path = play(tmp_path, "factory-one-shift", "human,greedy", "1Y1\nquit\n")
    assert result.exit_code == 0, result.output
    assert position(path, "factory-one-shift").phase == CHOOSE
    result = run("play", "--resume", path, "--variant", example("factory-one-shift"), input="1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "you play +keep: Keep the tiles where they are" in result.stdout
    assert read_record(path).rounds[0].actions[:2] == ["1Y1", "+keep"]


# ------------------------------------------------------------------ azul play: secrets


def goals(path):
    return read_record(path).secrets["secret_goal"]


def goal(colour: int) -> str:
    """A goal in the words of examples/secret-goal."""
    return f"{NAMES[colour]}, 2 points a tile"


def test_the_screen_shows_only_the_secret_of_the_person_at_the_keyboard(tmp_path):
    result, path = play(tmp_path, "secret-goal", "human,greedy", "quit\n")
    assert result.exit_code == 0, result.output
    mine, _theirs = goals(path)
    assert f"Your goal: {goal(mine)}" in result.stdout
    assert re.findall(r"Secret \(secret_goal\): .*", result.stdout) == ["Secret (secret_goal): greedy: hidden"]
    assert "had the goal" not in result.stdout and "you: " not in result.stdout


def test_every_secret_is_shown_when_the_game_is_over(tmp_path):
    result, path = play(tmp_path, "secret-goal", "greedy,random", "", seed=5)
    assert result.exit_code == 0, result.output
    first, second = goals(path)
    assert "Final scores" in result.stdout and "+secret" in result.stdout
    assert f"greedy had the goal {goal(first)}" in result.stdout
    assert f"random had the goal {goal(second)}" in result.stdout


def test_hot_seat_hands_the_keyboard_over_and_shows_each_person_their_own(tmp_path):
    result, path = play(tmp_path, "secret-goal", "human,human", "\nquit\n")  # to see the deal
    factories = read_record(path).rounds[0].factories
    first_move = f"1{factories[0][0]}-"
    path.unlink()
    result, path = play(tmp_path, "secret-goal", "human,human", f"\n{first_move}\n\nquit\n")
    assert result.exit_code == 0, result.output
    one, two = goals(path)
    out = result.stdout
    handed = [out.index("player 1's turn: the screen will show player 1's secret; player 1, press Enter> "),
              out.index("player 2's turn: the screen will show player 2's secret; player 2, press Enter> ")]
    shown = [m.start() for m in re.finditer(r"Your goal|Secret \(secret_goal\)", out)]
    assert f"Your goal: {goal(one)}" in out[handed[0]:handed[1]]
    assert "Secret (secret_goal): player 2: hidden" in out[handed[0]:handed[1]]
    assert f"Your goal: {goal(two)}" in out[handed[1]:] and "Secret (secret_goal): player 1: hidden" in out[handed[1]:]
    # nothing of player 2's before the handover: the only goal shown is player 1's
    assert set(re.findall(r"Your goal: .*", out[:handed[1]])) == {f"Your goal: {goal(one)}"}
    assert all(position > handed[0] for position in shown)


def test_resume_keeps_the_secrets_and_refuses_a_sealed_copy(tmp_path):
    _result, path = play(tmp_path, "secret-goal", "human,greedy", "quit\n")
    dealt = goals(path)
    result = run("play", "--resume", path, "--variant", example("secret-goal"), "--players", "greedy,greedy")
    assert result.exit_code == 0, result.output
    saved = read_record(path)
    assert saved.secrets["secret_goal"] == dealt and saved.result is not None
    part = tmp_path / "part.json"
    _result, whole = play(tmp_path, "secret-goal", "human,greedy", "quit\n", record="whole.json")
    copy = sealed_for(read_record(whole), 0, finished=False)
    part.write_text(dumps_record(dict(copy.to_dict(), variant=read_record(whole).variant)))
    assert json.loads(part.read_text())["secrets"]["secret_goal"][1] == {"sealed": True}
    result = run("play", "--resume", part, "--variant", example("secret-goal"))
    assert result.exit_code == 1
    assert "it is a copy for one seat, the secrets of seat 2 are sealed until the game is over" in result.stderr


SECRET_BID = """\
    from azul_core import hookimpl
    from azul_core.colours import COLOURS, NAMES
    from azul_core.rules import Move, Outcome

    AZUL_API = 1


    @hookimpl
    def azul_declare_moves():
        return [Move("bid", label="Bid on the secret colour")]


    @hookimpl
    def azul_initial_memory(players):
        return (False,) * players  # per seat: has bid


    @hookimpl
    def azul_deal_secrets(players, rng):
        return [rng.choice(COLOURS) for _ in range(players)]


    @hookimpl
    def azul_offer_moves(stage, seat, memory, secret):
        if stage == "turn" and not memory[seat]:
            return [Move("bid", label=f"Bid {NAMES[secret]}, the colour of my secret")]
        return None


    @hookimpl
    def azul_apply_move(seat, memory):
        return Outcome(points=10, memory=memory[:seat] + (True,) + memory[seat + 1:])
"""


def test_another_seats_plugin_move_is_told_by_its_declared_label(tmp_path):
    """The label offered to a seat may be made from its secret: the person at the keyboard
    reads a bot's move by the label its plugin declared, and their own by the one offered."""
    (tmp_path / "secret_bid.py").write_text(textwrap.dedent(SECRET_BID))
    variant = tmp_path / "secret-bid.yaml"
    variant.write_text("name: secret-bid\nextends: standard\n"
                       "plugins: [standard, colour_wall, secret_bid.py]\n")
    path = tmp_path / "game.json"
    result = run("play", "--variant", variant, "--players", "greedy,human", "--seed", 4,
                 "--record", path, input="bid\nquit\n")
    assert result.exit_code == 0, result.output
    bots, mine = (NAMES[colour] for colour in read_record(path).secrets["secret_bid"])
    assert bots != mine                                   # else the test could not tell them apart
    assert read_record(path).rounds[0].actions[:2] == ["+bid", "+bid"]
    out = result.stdout
    assert "greedy plays +bid: Bid on the secret colour" in out
    assert "Last: greedy plays +bid: Bid on the secret colour" in out
    assert f"you play +bid: Bid {mine}, the colour of my secret" in out
    assert f"Bid {bots}" not in out


# ------------------------------------------------------------------ azul replay


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """A simulated game of each example, with its record (greedy against greedy)."""
    folder = tmp_path_factory.mktemp("records")
    found = {}
    for name in ("pass-once", "factory-one-shift", "secret-goal"):
        result = run("simulate", "--variant", example(name), "--games", "1", "--bots", "greedy",
                     "--seed", "2", "--record-dir", folder / name, "--quiet")
        assert result.exit_code == 0, result.output
        found[name] = folder / name / "game-00001.json"
    return found


def test_replay_describes_plugin_moves_in_words(records):
    rounds = read_record(records["pass-once"]).rounds
    number = next(i for i, r in enumerate(rounds, 1) if "+pass" in r.actions)
    at = f"{number}:{rounds[number - 1].actions.index('+pass') + 1}"
    result = run("replay", records["pass-once"], "--variant", example("pass-once"), "--at", at)
    assert result.exit_code == 0, result.output
    assert re.search(r"Last: \d+\. greedy plays \+pass: Pass this turn \(once a round\)", result.stdout)


def test_replay_shows_the_secrets_and_a_sealed_copy_says_sealed(records):
    path = records["secret-goal"]
    first, second = read_record(path).secrets["secret_goal"]
    result = run("replay", path, "--variant", example("secret-goal"), "--at", "1:0")
    both = [f"greedy (seat 1) had the goal {goal(first)}", f"greedy (seat 2) had the goal {goal(second)}"]
    assert all(words in result.stdout for words in both)
    final = run("replay", path, "--variant", example("secret-goal"), "--final")
    assert all(words in final.stdout for words in both)
    assert "+secret" in final.stdout and "Final scores" in final.stdout
    data = json.loads(path.read_text())
    data["secrets"]["secret_goal"][1] = {"sealed": True}
    data.pop("result")
    data["rounds"] = data["rounds"][:2]
    sealed = path.parent / "sealed-at-2.json"  # beside the original: its variant path is relative
    sealed.write_text(json.dumps(data))
    result = run("replay", sealed, "--variant", example("secret-goal"), "--at", "2:0")
    assert result.exit_code == 0, result.output
    assert both[0] in result.stdout and "Secret (secret_goal): greedy (seat 2): sealed" in result.stdout
    assert "greedy (seat 2) had the goal" not in result.stdout


# ------------------------------------------------------------------ azul validate


def test_validate_records_with_moves_memory_and_secrets(records):
    for name, path in records.items():
        result = run("validate", "--variant", example(name), path)
        assert result.exit_code == 0, result.output
        assert "valid record" in result.stdout


def test_validate_reports_a_wrong_memory_field(records):
    data = json.loads(records["pass-once"].read_text())
    data["memory"] = {"pass_once": [7, 7]}
    wrong = records["pass-once"].parent / "wrong.json"  # beside the original: its variant path is relative
    wrong.write_text(json.dumps(data))
    result = run("validate", "--variant", example("pass-once"), wrong)
    assert result.exit_code == 1
    assert "the plugins' memory differs from the replay: pass_once: recorded (7, 7), replay (" in result.output


def sealed_copy(path: Path, target: Path, rounds: int | None = None) -> Path:
    """A copy for seat 0 of the record at ``path`` (cut to ``rounds`` rounds, unfinished)."""
    record = read_record(path)
    if rounds is not None:
        record.rounds = record.rounds[:rounds]
        record.result = None
        record.memory = None
    copy = sealed_for(record, 0, finished=False)
    target.write_text(dumps_record(copy.to_dict()))
    return target


def test_a_sealed_copy_validates_while_the_secrets_are_not_needed(records):
    path = sealed_copy(records["secret-goal"], records["secret-goal"].parent / "sealed.json", rounds=3)
    result = run("validate", "--variant", example("secret-goal"), path, "--json")
    report = json.loads(result.stdout)
    assert result.exit_code == 0 and report["valid"] and not report["finished"], result.output
    assert report["sealed"] == [1]


def test_a_sealed_copy_of_a_finished_game_says_why_it_does_not_replay(records):
    path = sealed_copy(records["secret-goal"], records["secret-goal"].parent / "sealed-end.json")
    result = run("validate", "--variant", example("secret-goal"), path)
    assert result.exit_code == 1
    assert "the result's scores differ from the replay" in result.output
    assert ("this is a copy for one seat: the secrets of seat 2 are sealed until the game is over, "
            "and the replay can't check what depends on them") in result.output


# ------------------------------------------------------------------ azul simulate and compare


@pytest.mark.parametrize("name", ["pass-once", "factory-one-shift", "secret-goal"])
def test_simulate_in_two_processes_writes_records_that_validate(tmp_path, name):
    folder = tmp_path / "records"
    one = run("simulate", "--variant", example(name), "--games", "4", "--bots", "greedy,random",
              "--seed", "9", "--json", "--quiet")
    two = run("simulate", "--variant", example(name), "--games", "4", "--bots", "greedy,random",
              "--seed", "9", "--json", "--quiet", "--workers", "2", "--record-dir", folder)
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    first, second = json.loads(one.stdout), json.loads(two.stdout)
    first.pop("record_dir"), second.pop("record_dir")
    assert first == second
    result = run("validate", "--variant", example(name), folder)
    assert result.exit_code == 0, result.output
    assert "4 valid, 0 invalid" in result.stdout


def test_simulate_with_the_search_bot_and_playouts_repeats(tmp_path):
    args = ("simulate", "--variant", example("factory-one-shift"), "--games", "2", "--bots", "mcts,greedy",
            "--playouts", "6", "--seed", "1", "--json", "--quiet")
    first, second = run(*args), run(*args)
    assert first.exit_code == 0, first.output
    assert json.loads(first.stdout)["seats"] == json.loads(second.stdout)["seats"]


def test_compare_a_house_rule_with_standard(tmp_path):
    result = run("compare", "standard", example("pass-once"), example("secret-goal"), "--games", "6",
                 "--bots", "greedy", "--seed", "1", "--json", "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [entry["variant"] for entry in data["variants"]] == ["standard", "pass-once", "secret-goal"]


def test_a_failing_plugin_stops_the_game_with_the_secrets_saved(tmp_path):
    """The record left by a failing plugin keeps the secrets: without them it can't replay."""
    shutil.copy(EXAMPLES / "secret-goal" / "secret_goal.py", tmp_path / "secret_goal.py")
    (tmp_path / "boom.py").write_text(textwrap.dedent("""
        def azul_placement_score(wall, row, column):
            if sum(cell is not None for line in wall for cell in line) > 3:
                raise RuntimeError("the scorer broke")
    """))
    (tmp_path / "boom.yaml").write_text(
        "name: boom\nextends: standard\nplugins: [standard, colour_wall, secret_goal.py, boom.py]\n")
    path = tmp_path / "g.json"
    result = run("play", "--variant", tmp_path / "boom.yaml", "--players", "greedy,greedy",
                 "--seed", "1", "--record", path)
    assert result.exit_code == 1
    assert "a rule plugin failed, the game stops" in result.stdout
    saved = read_record(path)
    assert len(saved.secrets["secret_goal"]) == 2 and None not in saved.secrets["secret_goal"]
    report = check_record(saved, trust=Trust(everything=True))
    assert report["valid"] and not report["finished"], report["errors"]


# ------------------------------------------------------------------ at a real terminal


def _read_until(master: int, seen: bytearray, marker: bytes, patience: float = 60.0) -> None:
    import os
    import select
    import time
    start = time.monotonic()
    while marker not in seen:
        if time.monotonic() - start > patience:
            raise AssertionError(f"waited for {marker!r}; last: {bytes(seen[-400:])!r}")
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                raise AssertionError(f"ended before {marker!r}; last: {bytes(seen[-400:])!r}")
            seen += chunk


def test_hot_seat_at_a_terminal_clears_the_last_players_secret_before_the_handover(tmp_path):
    import os
    import subprocess
    import sys
    pty = pytest.importorskip("pty")
    record = tmp_path / "game.json"
    master, slave = pty.openpty()
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm", "COLUMNS": "80", "LINES": "50"}
    env.pop("AZUL_DEBUG", None)
    process = subprocess.Popen([sys.executable, "-m", "azul_core.cli", "play", "--variant",
                                str(example("secret-goal")), "--players", "human,human", "--seed", "3",
                                "--record", str(record)],
                               stdin=slave, stdout=slave, stderr=slave, env=env, cwd=tmp_path, close_fds=True)
    os.close(slave)
    seen = bytearray()
    try:
        _read_until(master, seen, b"player 1, press Enter> ")
        os.write(master, b"\n")
        _read_until(master, seen, b"player 1> ")
        one, two = goals(record)
        first_move = f"1{read_record(record).rounds[0].factories[0][0]}-"
        os.write(master, f"{first_move}\n".encode())
        _read_until(master, seen, b"player 2, press Enter> ")
        handover = seen.rindex(b"player 2's turn")
        cleared = seen.rindex(b"\x1b[2J", 0, handover)
        assert seen.rindex(f"Your goal: {goal(one)}".encode()) < cleared
        assert seen.rindex(b"Secret (secret_goal): player 2: hidden") < cleared
        assert set(re.findall(rb"Your goal: [^\r\n]*", bytes(seen))) == {f"Your goal: {goal(one)}".encode()}
        os.write(master, b"\n")
        _read_until(master, seen, b"player 2> ")
        assert f"Your goal: {goal(two)}".encode() in seen[handover:]
        assert b"Secret (secret_goal): player 1: hidden" in seen[handover:]
        os.write(master, b"quit\n")
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
