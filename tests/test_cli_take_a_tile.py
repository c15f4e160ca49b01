"""examples/take-a-tile at the terminal (issue 40): a move on another seat's board. A person
types the take in ``azul play`` (in process and in a real pseudo-terminal), the screen shows
the line one tile shorter on the bot's board and the tile on the person's, ``--resume``
continues with the take remembered, and ``azul replay`` of the saved record shows it.

The game: seed 4, a random bot (seat 0) then the person. The bot's first draft puts two white
tiles on its line 4; the take moves one of them to the person's line 4."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import azul_core.cli.play  # noqa: F401  (registers the command)
import azul_core.cli.replay  # noqa: F401
from azul_core.cli.app import app
from azul_core.records.game_record import read_record, replay_state, validate_record
from azul_core.variants.loading import Trust, load_variant

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
TAKE_A_TILE = Path(__file__).resolve().parent.parent / "examples" / "take-a-tile" / "take-a-tile.yaml"
SEED = 4
TAKE = "+take:1:3"
LABEL = "Take a tile from line 4 of the next player"


def run(*args, input: str | None = None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input, env=ENV)


def line_rows(screen: str, row: int) -> list[str]:
    """Pattern line ``row`` (from 1) of each board on the last board drawn in ``screen``, as its
    tiles and empty spaces (``. . W W``), the boards in seat order."""
    drawn = [line for line in screen.splitlines() if re.match(rf"\s*{row} [.A-Z ]+\|", line)]
    assert drawn, screen[-800:]
    return [found.strip() for found in re.findall(rf"(?:^|\s){row} ([.A-Z ]+?) \|", drawn[-1])]


def before_and_after(screen: str, marker: str) -> tuple[str, str]:
    cut = screen.index(marker)
    return screen[:cut], screen[cut:]


def test_a_person_types_the_take_and_both_boards_show_it(tmp_path):
    path = tmp_path / "game.json"
    result = run("play", "--variant", TAKE_A_TILE, "--players", "random,human", "--seed", SEED,
                 "--record", path, input=f"?\n{TAKE}\nquit\n")
    assert result.exit_code == 0, result.output
    before, after = before_and_after(result.stdout, f"you play {TAKE}: {LABEL}")
    assert f"Also on offer: {TAKE} {LABEL}" in before and f"  {TAKE}  {LABEL}" in before  # ? lists it
    assert line_rows(before, 4) == [". . W W", ". . . ."]
    assert line_rows(after, 4) == [". . . W", ". . . W"]     # the bot's line one shorter, the tile on mine
    assert f"Also on offer: {TAKE}" not in after                # once a game
    saved = read_record(path)
    assert saved.rounds[0].actions[:2] == ["3W4", TAKE]
    assert saved.memory == {"take_a_tile": (False, True)}


def test_resume_remembers_the_take_and_replay_shows_it(tmp_path):
    path = tmp_path / "game.json"
    run("play", "--variant", TAKE_A_TILE, "--players", "random,human", "--seed", SEED, "--record", path,
        input=f"{TAKE}\nquit\n")
    result = run("play", "--resume", path, "--variant", TAKE_A_TILE, input=f"{TAKE}\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert line_rows(out, 4) == [". . . W", ". . . W"]
    assert "Also on offer" not in out
    assert f"({TAKE}) is not on offer now" in out      # once a game
    state = replay_state(read_record(path), load_variant(str(TAKE_A_TILE)))
    assert [board.line_count[3] for board in state.players] == [1, 1]

    replayed = run("replay", path, "--variant", TAKE_A_TILE, "--at", "1:2")
    assert replayed.exit_code == 0, replayed.output
    assert f"Last: 2. you play {TAKE}: {LABEL}" in replayed.stdout
    assert line_rows(replayed.stdout, 4) == [". . . W", ". . . W"]
    assert line_rows(run("replay", path, "--variant", TAKE_A_TILE, "--at", "1:1").stdout, 4) == \
        [". . W W", ". . . ."]


#: the person's drafts (seed 4, the person first) after which the random bot takes from them
MOVES_UNTIL_THE_BOT_TAKES = ["1B5", "5B5", "CY4", "CK3"]


def test_a_bots_take_from_the_persons_line_is_told_and_drawn(tmp_path):
    """The bot takes from the person's board: the person's own line is drawn one tile shorter."""
    path = tmp_path / "game.json"
    result = run("play", "--variant", TAKE_A_TILE, "--players", "human,random", "--seed", SEED,
                 "--record", path, input="\n".join(MOVES_UNTIL_THE_BOT_TAKES) + "\nquit\n")
    assert result.exit_code == 0, result.output
    actions = read_record(path).rounds[0].actions
    take = next(action for action in actions if action.startswith("+take:"))
    row = int(take.rsplit(":", 1)[1]) + 1
    before, after = before_and_after(result.stdout, f"random plays {take}")
    mine_before, mine_after = line_rows(before, row)[0], line_rows(after, row)[0]
    assert mine_after.count(".") == mine_before.count(".") + 1
    assert f"Last: random plays {take}" in after
    report = validate_record(path, trust=Trust.of([str(TAKE_A_TILE)]))
    assert report["valid"], report["errors"]


def test_at_a_real_terminal_the_take_is_typed_and_resumed(tmp_path):
    pty_test = pytest.importorskip("test_play_pty")
    record = tmp_path / "game.json"
    term = pty_test.Terminal("play", "--variant", str(TAKE_A_TILE), "--players", "random,human", "--seed",
                             str(SEED), "--record", str(record), cwd=tmp_path)
    shown = term.prompt()
    assert f"Also on offer: {TAKE} {LABEL}" in shown and line_rows(shown, 4) == [". . W W", ". . . ."]
    term.send(TAKE + "\n")
    shown = term.prompt()
    assert f"you play {TAKE}: {LABEL}" in shown and line_rows(shown, 4) == [". . . W", ". . . W"]
    term.send("\x04")  # Ctrl-D: saved, to be resumed
    assert term.finish() == 0 and "Traceback" not in term.seen

    term = pty_test.Terminal("play", "--resume", str(record), "--variant", str(TAKE_A_TILE), cwd=tmp_path)
    shown = term.prompt()
    assert line_rows(shown, 4) == [". . . W", ". . . W"] and "Also on offer" not in shown
    term.send("\x04")
    assert term.finish() == 0
    saved = read_record(record)
    assert saved.rounds[0].actions[:2] == ["3W4", TAKE] and saved.memory == {"take_a_tile": (False, True)}
