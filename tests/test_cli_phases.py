"""The plugins' phases at the terminal, ``azul play`` (issue 40): the heading names the stage;
in examples/colour-bid (a pick at the round's start, chosen at once, in secret) the bot at seat
0 picks first and the screen tells only that it has chosen until the person has picked too,
then every pick; examples/lid-market's phase at the round's end is played by typing.

colour-bid, seed 4: greedy (seat 0) then the person; greedy picks white (+pick:4)."""

from __future__ import annotations

import io
import random
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

import azul_core.cli.play  # noqa: F401  (registers the command)
from azul_core.cli.app import app
from azul_core.engine.notation import format_decision
from azul_core.engine.state import CHOOSE
from azul_core.players.session import GameSession
from azul_core.records.game_record import read_record, replay_state
from azul_core.variants.loading import load_variant

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
COLOUR_BID = EXAMPLES / "colour-bid" / "colour-bid.yaml"
LID_MARKET = EXAMPLES / "lid-market" / "lid-market.yaml"
BOTS_PICK = "+pick:4"
BOTS_LABEL = "Pick white: double points for it this round"


def run(*args, input: str | None = None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input, env=ENV)


def without_the_offer(screen: str) -> str:
    """The screen without the numbered list of the picks on offer (every pick is offered)."""
    return "\n".join(line for line in screen.splitlines() if " +pick:" not in line)


def test_the_bots_pick_is_not_shown_before_the_person_has_picked(tmp_path):
    path = tmp_path / "game.json"
    result = run("play", "--variant", COLOUR_BID, "--players", "greedy,human", "--seed", 4,
                 "--record", path, input="3\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    mine = "you play +pick:2: Pick red: double points for it this round"
    before, after = out[:out.index(mine)], out[out.index(mine):]
    assert "round 1   Round's start: you choose in secret" in before
    assert "Round's start: choose before the first draft, in secret" in before
    assert "greedy has chosen, in secret" in before
    shown = without_the_offer(before)
    assert "+pick" not in shown and "Pick " not in shown, shown
    assert after.splitlines()[0].endswith(
        f"Everyone has chosen: greedy: {BOTS_LABEL} ({BOTS_PICK}); you: Pick red: double points for it "
        "this round (+pick:2)")
    assert read_record(path).rounds[0].actions[:2] == [BOTS_PICK, "+pick:2"]


def test_a_mistyped_pick_is_answered_with_the_choices_on_offer_now(tmp_path):
    result = run("play", "--variant", COLOUR_BID, "--players", "greedy,human", "--seed", 4,
                 "--record", tmp_path / "game.json", input="9\nblack\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Choose 1 to 5: 1 +pick:0 (Pick blue: double points for it this round);" in result.stdout
    assert "you play +pick:3: Pick black" in result.stdout


def test_the_lid_market_at_the_rounds_end_is_played_by_typing(tmp_path):
    """The person drafts by typing the first legal draft, and at the round's end types the
    market's words ("buy a red tile for line 1") or its number."""
    out = io.StringIO()
    typed: list[str] = []
    prompts: list[str] = []
    session_box: list[GameSession] = []

    def read(prompt: str) -> str:
        session = session_box[0]
        state = session.state
        prompts.append(prompt)
        if state.phase == CHOOSE and state.stage == "round_end":
            buys = [move for move in state.choices if move.name == "buy"]
            if buys and not typed:
                words = buys[0].label.lower().replace("(2 points)", "").strip()
                typed.append(words)
                return words
            typed.append("1")
            return "1"  # Buy nothing
        if len(typed) >= 2 or state.round > 3:
            return "quit"
        legal = state.legal_decisions()
        return format_decision(random.Random(len(prompts)).choice(legal))

    session = GameSession.new(str(LID_MARKET), "human,random", 6, tmp_path / "g.json", None,
                              console=Console(file=out, width=120), read=read)
    session_box.append(session)
    session.run()
    screen = out.getvalue()
    assert typed, "the market was never offered"
    assert "Round's end: you choose" in screen
    assert "Round's end: choose after the wall tiling, before the floors are paid. Buy a tile from the lid " \
           "for 2 points, or nothing." in screen
    assert "   1 +no-buy   Buy nothing" in screen
    label = typed[0]
    assert "you play +buy:" in screen and label in screen.lower()
    record = read_record(tmp_path / "g.json")
    actions = [action for entry in record.rounds for action in entry.actions]
    assert any(action.startswith("+buy:") for action in actions)
    replayed = replay_state(record, load_variant(str(LID_MARKET)))  # the record replays, the buy with it
    assert replayed.scores() == session.state.scores()


def test_hot_seat_hands_the_keyboard_over_and_shows_nobody_the_others_pick(tmp_path):
    result = run("play", "--variant", COLOUR_BID, "--players", "human,human", "--seed", 4,
                 "--record", tmp_path / "game.json", input="\n3\n\n5\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    handed = "player 2's turn: the screen will show player 2's choices made in secret; player 2, press Enter>"
    assert handed in out
    second = out[out.index(handed):out.index("Everyone has chosen")]
    assert "player 1 has chosen, in secret" in second
    assert "Pick " not in without_the_offer(second) and "+pick" not in without_the_offer(second)
    assert "Everyone has chosen: player 1: Pick red: double points for it this round (+pick:2); " \
           "player 2: Pick white: double points for it this round (+pick:4)" in out
