"""``azul play --join`` while the others play (issue 23): ``quit``, ``help`` and ``?`` answer at
once; a move typed out of turn, or typed ahead just before the turn's prompt, is discarded (and
said so), never sent later; each finished round is told as ``azul play`` tells it.

The server is scripted: the states it sends are prefixes of a reference record, and the lines
the player types arrive between them, as a person types while waiting.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

pytest.importorskip("websockets")

from azul_core.web.remote import RemoteSession, TypedLines  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RECORD = json.loads((ROOT / "tests" / "reference" / "records" / "standard.json").read_text())
URL = "http://table.example/t/abc#seat=s3cret"


def record_until(round_number: int, actions: int) -> dict:
    """The reference game up to ``actions`` actions of round ``round_number`` (the rounds
    before it whole), as the server sends it to a seat."""
    rounds = [dict(entry) for entry in RECORD["rounds"][:round_number]]
    last = rounds[-1]
    if actions < len(last["actions"]):
        last["actions"] = last["actions"][:actions]
        last.pop("scores", None)
    data = {**RECORD, "rounds": rounds, "result": None}
    data.pop("seed")
    return data


def state(version: int, record: dict, you: int, mover: int) -> dict:
    return {"type": "state", "version": version, "you": you, "view": {},
            "legal": {"drafts": [], "columns": [], "moves": []} if mover == you else None,
            "last": {"seat": mover, "move": "x", "text": f"move {version}"}, "record": record}


class Typed:
    """The player types ``line`` while the server is silent."""

    def __init__(self, line: str | None):
        self.line = line


class Ahead:
    """The player types ``line`` just as the server's next message arrives: read after it."""

    def __init__(self, line: str):
        self.line = line


class ScriptedServer:
    """A table's WebSocket: recv gives the script's messages in order; a ``Typed`` line is typed
    while recv waits (recv times out, as the real one does every POLL_TYPED seconds)."""

    def __init__(self, script: list, typed: TypedLines):
        self.script = list(script)
        self.typed = typed
        self.sent: list[dict] = []

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def recv(self, timeout=None) -> str:
        from websockets.exceptions import ConnectionClosed
        from websockets.frames import Close
        if not self.script:
            raise ConnectionClosed(Close(4400, "bye"), None)
        item = self.script.pop(0)
        if isinstance(item, Typed):
            assert timeout is not None, "the client must look at typed lines while waiting"
            if item.line is None:
                self.typed.end()
            else:
                self.typed.put(item.line)
            raise TimeoutError
        while isinstance(item, Ahead):
            self.typed.put(item.line)
            item = self.script.pop(0)
        return json.dumps(item)

    def close(self) -> None:
        pass


def session_with(script: list, moves: list[str]):
    typed = TypedLines()
    socket = ScriptedServer(script, typed)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return moves.pop(0)

    output = io.StringIO()
    session = RemoteSession(URL, console=Console(file=output, width=120, color_system=None),
                            read=read, connect=lambda url: socket, typed=typed)
    return session, socket, output, prompts


def sent_moves(socket: ScriptedServer) -> list[str]:
    return [message["move"] for message in socket.sent if message["type"] == "move"]


def test_commands_answer_while_waiting_and_moves_typed_out_of_turn_are_never_sent():
    # Seat 1 (ref1) waits while ref0 opens round 1.
    script = [
        state(1, record_until(1, 0), you=1, mover=0),
        Typed("?"), Typed("help"), Typed("2R4"), Typed("board"),
        Ahead("1B1"),  # typed just before the turn's prompt: typed-ahead
        state(2, record_until(1, 1), you=1, mover=1),
        state(3, record_until(1, 2), you=1, mover=0),
        Typed("5Y2"),
        state(4, RECORD, you=1, mover=0),  # the rest of the game, then the end
    ]
    session, socket, output, prompts = session_with(script, ["1W2"])
    assert session.run() == 0
    text = output.getvalue()
    assert "Waiting for ref0..." in text
    assert "Not your turn: ref0 is to move. ? lists your legal moves when it is yours." in text
    assert "Type a move in record notation" in text  # help's text, while waiting
    assert "what you type is not sent until your turn's prompt" in text
    assert "Not your turn (ref0 is to move): '2R4' was discarded, not sent." in text
    assert "'1B1' was typed before your turn: discarded, not sent. Type your move now." in text
    assert "Not your turn (ref0 is to move): '5Y2' was discarded, not sent." in text
    # Only what was typed at the prompt went to the server.
    assert sent_moves(socket) == ["1W2"]
    assert prompts == ["your move> "]
    assert "Final scores" in text


def test_a_command_typed_ahead_is_answered_at_the_turn_not_discarded():
    script = [
        state(1, record_until(1, 0), you=1, mover=0),
        Ahead("?"),
        state(2, record_until(1, 1), you=1, mover=1),
        state(3, RECORD, you=1, mover=0),
    ]
    session, socket, output, _prompts = session_with(script, ["1W2"])
    assert session.run() == 0
    text = output.getvalue()
    assert "discarded" not in text
    assert "1W 2 white: " in text.split("Waiting for ref0...", 1)[1]  # the legal moves were listed
    assert sent_moves(socket) == ["1W2"]


@pytest.mark.parametrize("leave", ["quit", None])  # None: Ctrl-D
def test_quit_or_ctrl_d_while_waiting_leaves_at_once(leave):
    script = [state(1, record_until(1, 0), you=1, mover=0), Typed(leave),
              state(2, record_until(1, 1), you=1, mover=1)]
    session, socket, output, prompts = session_with(script, ["1W2"])
    assert session.run() == 0
    assert "You left the table; open the same link again to come back." in output.getvalue()
    assert sent_moves(socket) == [] and prompts == []
    assert len(socket.script) == 1  # left before the next state came


def test_each_finished_round_is_told_as_azul_play_tells_it():
    rounds = RECORD["rounds"]
    script = [
        state(1, record_until(1, 7), you=0, mover=1),
        state(2, record_until(2, 0), you=0, mover=0),  # round 1 over, round 2 dealt
        state(3, record_until(2, 11), you=0, mover=0),
        state(4, record_until(3, 0), you=0, mover=0),
        state(5, RECORD, you=0, mover=0),
    ]
    session, _socket, output, _prompts = session_with(script, ["1B1"] * 5)
    assert session.run() == 0
    text = output.getvalue()
    for number in range(1, 6):
        assert text.count(f"Round {number} scored:") == 1
    # The accounts: as azul play writes them, from the record's scores.
    round_1 = text.split("Round 1 scored:", 1)[1].split("\n\n", 1)[0]
    assert f"score 0 -> {rounds[0]['scores'][1]}" in round_1
    assert "line 2 white to wall column" in round_1 or "to wall column" in round_1
    round_2 = text.split("Round 2 scored:", 1)[1]
    assert f"score {rounds[0]['scores'][1]} -> {rounds[1]['scores'][1]}" in round_2
    # Told before the result.
    assert text.index("Round 5 scored:") < text.index("Final scores")


def test_rounds_finished_before_sitting_down_are_not_told():
    script = [state(1, record_until(3, 2), you=0, mover=1), state(2, RECORD, you=0, mover=1)]
    session, _socket, output, _prompts = session_with(script, [])
    assert session.run() == 0
    text = output.getvalue()
    assert "Round 1 scored:" not in text and "Round 2 scored:" not in text
    assert "Round 3 scored:" in text and "Round 5 scored:" in text


# ---------------------------------------------------------------- at a real terminal


def test_at_a_terminal_lines_typed_while_the_bot_thinks_are_answered_and_not_sent(tmp_path):
    """``azul play --join`` in a pseudo-terminal against a real ``azul serve`` whose bot waits
    3 s before each move: what is typed meanwhile is answered at once."""
    pytest.importorskip("pty")
    pytest.importorskip("uvicorn")
    import sys
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(ROOT / "tests" / "web"))
    from test_play_pty import PROMPT, Terminal, first_legal
    from test_server_cli import RunningServer

    server = RunningServer(tmp_path / "data", "--bot-delay", "3", "--seed", "join-waiting")
    term = None
    try:
        created = server.post("/api/tables", {"variant": "standard", "seats": [{"name": "Ana"}, {"bot": "greedy"}]})
        term = Terminal("play", "--join", created["seats"][0]["url"], cwd=tmp_path)
        shown = term.read_until(lambda text: text.endswith(PROMPT) or "Waiting for greedy..." in text)
        if not shown.endswith(PROMPT):  # the bot opens: wait for it
            term.prompt()
        move = first_legal(term)
        term.send(move + "\n")
        term.read_until(lambda text: "Waiting for greedy..." in text)
        # The bot thinks for 3 s: a move typed now is discarded, help and ? answer.
        term.send("1B1\n")
        assert "'1B1' was discarded, not sent" in term.read_until(lambda text: "discarded" in text)
        term.send("help\n")
        assert "Type a move in record notation" in term.read_until(lambda text: "not sent until" in text)
        term.send("?\n")
        assert "? lists your legal moves when it is yours" in term.read_until(lambda text: "when it is yours" in text)
        term.prompt()  # the bot moved: our turn, nothing was sent meanwhile
        record = json.loads(server.get(f"/api/tables/{created['table']}/record", created["watch_url"].split("=", 1)[1]))
        actions = record["rounds"][0]["actions"]
        assert len(actions[actions.index(move) + 1:]) == 1  # the bot's move only
        term.send("quit\n")
        assert term.finish() == 0
        assert "You left the table" in term.seen and "Traceback" not in term.seen
    finally:
        try:
            if term is not None and not term.closed:
                term.process.kill()
        finally:
            server.stop()
        server.stop()


def test_an_update_made_against_a_version_this_client_does_not_hold_asks_for_the_whole_state():
    """An update says which version its changes were made against (``base``). One made against a
    version this client does not hold (a message lost, a server out of step) would make its board
    drift from the table's without a word: it is dropped, the client asks for a sync and takes
    the whole state that answers. An update made against the version held is applied."""
    first = state(5, record_until(1, 0), you=1, mover=0)
    drifting = {"type": "update", "base": 4, "version": 6, "legal": None,
                "changes": [{"path": ["last", "text"], "set": "a move never made"}]}
    whole = state(6, record_until(1, 1), you=1, mover=0)
    following = {"type": "update", "base": 6, "version": 7, "legal": None,
                 "changes": [{"path": ["last", "text"], "set": "move 7"}]}
    session, socket, _output, _prompts = session_with([first, drifting, whole, following], [])
    session.open(None)
    assert session.receive() == first
    assert session.receive() == whole
    assert [message["type"] for message in socket.sent] == ["hello", "sync"]
    applied = session.receive()
    assert (applied["version"], applied["last"]["text"]) == (7, "move 7")
    assert applied["record"] == whole["record"]
    assert [message["type"] for message in socket.sent] == ["hello", "sync"]
