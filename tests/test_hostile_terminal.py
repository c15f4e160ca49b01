"""Hostile text reaching the terminal, and near-miss input (issue 21): a hostile table server
seen through ``azul play --join``, names that look like Rich markup, Unicode digits where a
number is typed, a plugin failing in ``azul_first_player``, and where a bound refuses a record.
"""

from __future__ import annotations

import io
import json
import textwrap

import pytest
from rich.console import Console
from typer.testing import CliRunner

import azul_core.cli.play  # noqa: F401  (registers the command)
import azul_core.cli.replay  # noqa: F401
import azul_core.cli.simulate  # noqa: F401
import azul_core.cli.validate  # noqa: F401
from azul_core.cli.app import app
from azul_core.engine.notation import NotationError, is_ascii_number, parse_decision
from azul_core.lab.simulate import play_game
from azul_core.players.render import draw_game, draw_result, draw_round_summary, render_text
from azul_core.players.session import GameSession
from azul_core.records.game_record import record_from_data, replay_state, validate_record
from azul_core.variants.loading import load_variant

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
MARKUP_NAMES = ["[/]", "[link=https://evil.example/]click[/link]"]


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], env=ENV)


def finished_record(names: list[str]) -> dict:
    """A whole game of two greedy bots, its players renamed (names change no rule)."""
    rules = load_variant("standard").rules
    record = play_game(rules, 2, 5, ["greedy", "greedy"], 1, record=True).record
    return {**record, "players": names}


# ---------------------------------------------------------------- names are text, never markup


def test_names_that_look_like_markup_are_drawn_as_text():
    data = finished_record(MARKUP_NAMES)
    state = replay_state(record_from_data(data), load_variant("standard"))
    for drawn in (draw_result(state, MARKUP_NAMES), draw_game(state, MARKUP_NAMES, "[/] took"),
                  draw_round_summary(1, [], [(0, 0), (0, 0)], state, MARKUP_NAMES)):
        text = render_text(drawn)  # a console with markup on: the drawing alone must hold
        assert "[/]" in text and "[link=https://evil.example/]click[/link]" in text


def test_replay_final_of_a_record_named_with_markup_shows_the_names(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_record(MARKUP_NAMES)))
    assert validate_record(path)["valid"]
    result = run("replay", "--final", path)
    assert result.exit_code == 0, result.output
    assert "[/]" in result.output and "[link=https://evil.example/]click[/link]" in result.output
    assert "\x1b]8;" not in result.output  # no OSC 8 link


# ---------------------------------------------------------------- a hostile server, --join


class ScriptedSocket:
    """A table server's WebSocket that sends what a test says, then closes."""

    def __init__(self, messages: list[dict]):
        self.messages = [json.dumps(m) for m in messages]
        self.sent: list[dict] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def recv(self, timeout=None) -> str:
        from websockets.exceptions import ConnectionClosed
        from websockets.frames import Close
        if not self.messages:
            raise ConnectionClosed(Close(4400, "bye"), None)
        return self.messages.pop(0)

    def close(self) -> None:
        pass


ESCAPES = "\x1b]0;owned\x07\x1b[2J\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\"


def test_join_escapes_everything_a_hostile_server_sends():
    pytest.importorskip("websockets")
    from azul_core.web.remote import RemoteSession

    hostile = [f"ana{ESCAPES}", "[/]"]
    whole = finished_record(hostile)
    half = {**whole, "rounds": whole["rounds"][:1], "result": None, "seed": None}
    half["rounds"][0] = {**half["rounds"][0], "actions": half["rounds"][0]["actions"][:1]}
    del half["rounds"][0]["scores"]
    last = {"seat": 0, "move": "x", "text": f"ana took it{ESCAPES}"}
    refusal = {"type": "refused", "move": None, "version": 1, "reason": f"no{ESCAPES}"}

    def state(version, record):
        return {"type": "state", "version": version, "you": 1, "view": {}, "legal": None, "last": last,
                "record": record}

    text = ""
    for messages in ([state(1, half), state(2, half), state(3, whole)], [state(1, half), refusal]):
        output = io.StringIO()
        session = RemoteSession("http://table.example/t/abc#seat=s3cret", read=lambda prompt: "quit",
                                console=Console(file=output, width=120, force_terminal=True, color_system=None),
                                connect=lambda url, socket=ScriptedSocket(messages): socket)
        assert session.run() == 0
        text += output.getvalue()
    assert "\x1b]" not in text and "\x07" not in text and "\x1b[2J" not in text
    assert "ana\\x1b]0;owned\\x07" in text  # the name is shown, escaped
    assert "ana took it\\x1b]0;owned" in text  # so is the last move's text
    assert "No\\x1b]0;owned" in text  # and the refusal's reason
    assert "Final scores" in text
    assert "[/]" in text  # a name is not markup


def test_join_escapes_a_hostile_error_and_close_reason(tmp_path, monkeypatch):
    pytest.importorskip("websockets")
    from azul_core.web import remote

    socket = ScriptedSocket([{"type": "error", "reason": f"go away{ESCAPES}"}])
    monkeypatch.setattr(remote, "_connect", lambda url: socket)
    result = run("play", "--join", "http://table.example/t/abc#seat=s3cret")
    assert result.exit_code == 1
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "go away\\x1b]0;owned" in result.output


# ---------------------------------------------------------------- Unicode digits


@pytest.mark.parametrize("text", ["²", "٣", "w ² 1", "wall 1 ³", "² red 4", "1 red ²", "٢ red 4"])
def test_a_unicode_digit_is_not_a_number_in_a_move(text):
    with pytest.raises(NotationError, match="is not a move"):
        parse_decision(text)


def test_is_ascii_number():
    assert is_ascii_number("12") and not is_ascii_number("²") and not is_ascii_number("٣")
    assert not is_ascii_number("") and not is_ascii_number("-1")


def test_a_unicode_digit_in_a_legal_moves_filter_is_a_message():
    from azul_core.players.render import LegalFilterError, legal_filter
    with pytest.raises(LegalFilterError):
        legal_filter("²")


def test_a_unicode_digit_as_a_wall_column_at_the_terminal_is_asked_again(tmp_path):
    """A grey-wall game asks for a wall column: '²' is refused in words, then the game goes on."""
    from azul_core.engine.notation import format_decision
    tried = []

    def read(prompt):
        if "wall column" in prompt:
            if not tried:
                tried.append(prompt)
                return "²"
            return "quit"
        return format_decision(session.state.legal_decisions()[0])

    output = io.StringIO()
    session = GameSession.new("grey-wall", "human,greedy", 3, tmp_path / "game.json", None,
                              read=read, console=Console(file=output, width=120))
    session.run()
    assert tried
    assert "'²' is not a wall column: type a column, 1-5" in output.getvalue()


# ---------------------------------------------------------------- plugins and records


def test_a_plugin_failing_in_first_player_is_one_line_in_simulate(tmp_path):
    (tmp_path / "starter.py").write_text(textwrap.dedent("""
        def azul_first_player(players, rng):
            raise RuntimeError("no starter today")
    """))
    (tmp_path / "starter.yaml").write_text("extends: standard\nplugins: [standard, colour_wall, starter.py]\n")
    for workers in ("1", "2"):
        result = run("simulate", "--variant", tmp_path / "starter.yaml", "--games", "4", "--bots", "random",
                     "--workers", workers)
        assert result.exit_code == 1, result.output
        assert "Traceback" not in result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and "raised RuntimeError in azul_first_player" in lines[0], result.output


def test_a_record_refused_for_a_bound_says_which_round_and_action(tmp_path):
    data = finished_record(["ana", "bo"])
    data["rounds"][1]["actions"][2] = "x" * 10_000
    path = tmp_path / "long.json"
    path.write_text(json.dumps(data))
    report = validate_record(path)
    assert not report["valid"]
    error = report["errors"][0]
    assert "rounds[1].actions[2]" in error["message"]
    assert (error["round"], error["action"]) == (2, 3)
    result = run("validate", "--json", path)
    assert result.exit_code == 1
    assert json.loads(result.output)["errors"][0]["action"] == 3


def test_a_record_refused_in_a_round_field_names_the_round(tmp_path):
    data = finished_record(["ana", "bo"])
    data["rounds"][0]["factories"][0] = "B" * 10_000
    path = tmp_path / "long.json"
    path.write_text(json.dumps(data))
    error = validate_record(path)["errors"][0]
    assert (error["round"], error["action"]) == (1, None)



@pytest.mark.parametrize("at", ["٣:0", "1:" + "9" * 5000])
def test_replay_at_takes_ascii_numbers_only(tmp_path, at):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_record(["ana", "bo"])))
    result = run("replay", "--at", at, path)
    assert result.exit_code == 2 and result.output.startswith("azul: --at "), result.output
