"""``azul serve`` as a real process on loopback: the 'Serving on' line, a kill -9 in the middle of
a game and a restart on the same data, and ``azul play --join`` playing a seat at the terminal."""

from __future__ import annotations

import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

ROOT = Path(__file__).resolve().parents[2]


class RunningServer:
    def __init__(self, data: Path, *options: str):
        command = [sys.executable, "-c", "from azul_core.cli import main; main()", "serve",
                   "--port", "0", "--data", str(data), "--bot-delay", "0", "--think", "0.05", *options]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            line = self.process.stdout.readline()
            match = re.fullmatch(r"Serving on (http://127\.0\.0\.1:(\d+))\n", line)
            assert match, (line, self.process.stderr.read() if self.process.poll() is not None else "")
        except BaseException:  # not started as expected: nobody else holds it to stop it
            self.stop(signal.SIGKILL)
            raise
        self.url = match.group(1)

    def post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    def get(self, path: str, secret: str | None = None) -> str:
        headers = {"Authorization": f"Bearer {secret}"} if secret else {}
        with urllib.request.urlopen(urllib.request.Request(self.url + path, headers=headers), timeout=10) as answer:
            return answer.read().decode()

    def stop(self, sig=signal.SIGTERM) -> None:
        """``sig``, then SIGKILL if the server is still running 10 s later (or if waiting failed)."""
        try:
            if self.process.poll() is None:
                self.process.send_signal(sig)
                self.process.wait(10)
        except subprocess.TimeoutExpired:
            pass
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def servers():
    started = []

    def start(*args):
        server = RunningServer(*args)
        started.append(server)
        return server
    yield start
    stop_all(started)


def stop_all(started: list) -> None:
    """SIGKILL to every server a test started (a fixture's teardown), each one even when
    stopping another failed."""
    if started:
        try:
            started[0].stop(signal.SIGKILL)
        finally:
            stop_all(started[1:])


def test_a_server_that_did_not_start_as_expected_is_not_left_running(tmp_path, monkeypatch):
    """RunningServer's own check failing (here the URL names localhost, not 127.0.0.1) stops the
    process it started: no test holds it yet, so no finally or teardown would."""
    started: list[subprocess.Popen] = []
    popen = subprocess.Popen

    def noted(*args, **kwargs):
        started.append(popen(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(subprocess, "Popen", noted)
    try:
        with pytest.raises(AssertionError):
            RunningServer(tmp_path / "data", "--host", "localhost")
        assert len(started) == 1 and started[0].poll() is not None
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()
                process.wait()


def secret_of(url: str) -> str:
    return url.split("#", 1)[1].split("=", 1)[1]


def connect(server, created, seat):
    from websockets.sync.client import connect as ws_connect
    socket = ws_connect(server.url.replace("http", "ws") + f"/ws/{created['table']}", proxy=None).__enter__()
    socket.send(json.dumps({"type": "hello", "secret": secret_of(created["seats"][seat]["url"]),
                            "version": None}))
    return socket


def next_state(socket) -> dict:
    while True:
        message = json.loads(socket.recv(timeout=10))
        if message["type"] == "state":
            return message
        assert message["type"] != "refused", message


def test_serve_prints_its_url_and_survives_kill_9_mid_game(tmp_path, servers):
    server = servers(tmp_path / "data")
    assert "script-src 'self'" in urllib.request.urlopen(server.url + "/api/variants").headers["content-security-policy"]
    created = server.post("/api/tables", {"variant": "grey-wall", "seats": [{"name": "Ana"}, {"name": "Bo"}]})
    sockets = [connect(server, created, 0), connect(server, created, 1)]
    states = [next_state(s) for s in sockets]
    rng = random.Random(9)
    for _ in range(15):
        mover = states[0]["view"]["to_move"]
        legal = states[mover]["legal"]
        sockets[mover].send(json.dumps({"type": "move", "version": states[mover]["version"],
                                        "move": rng.choice(legal["columns"] or legal["drafts"])["move"]}))
        states = [next_state(s) for s in sockets]
    before = states[0]
    server.stop(signal.SIGKILL)
    again = servers(tmp_path / "data")
    socket = connect(again, created, before["view"]["to_move"])
    after = next_state(socket)
    socket.close()
    assert after["version"] == before["version"]
    assert after["view"] == before["view"] | {"seats": after["view"]["seats"]}
    assert [s["wall"] for s in after["view"]["seats"]] == [s["wall"] for s in before["view"]["seats"]]
    record = json.loads(again.get(f"/api/tables/{created['table']}/record", secret_of(created["watch_url"])))
    moves = sum(len(r["actions"]) for r in record["rounds"])
    assert moves >= 15


def test_a_friend_plays_a_seat_from_the_terminal_with_join(tmp_path, servers):
    from rich.console import Console

    from azul_core.engine.notation import format_decision
    from azul_core.web.remote import RemoteSession

    server = servers(tmp_path / "data")
    created = server.post("/api/tables", {"variant": "standard", "seats": [{"name": "Ana"}, {"bot": "greedy"}]})
    rng = random.Random(11)
    prompts = []
    session = None

    def read(prompt):
        prompts.append(prompt)
        if len(prompts) == 1:
            return "?"
        if len(prompts) == 2:
            return "9Z9"  # not a move: said at once, nothing sent
        if len(prompts) == 3:
            return "8B1"  # two players have 5 factories: the server refuses it, and says why
        return format_decision(rng.choice(session.state.legal_decisions()))

    output = io.StringIO()
    session = RemoteSession(created["seats"][0]["url"], console=Console(file=output, width=100),
                            read=read)
    assert session.run() == 0
    text = output.getvalue()
    assert "standard: Ana, greedy; you sit at seat 1 as Ana." in text
    assert "is not a move" in text
    assert "There is no factory 8: the factories are numbered 1 to 5. Type ? for the legal moves." in text
    assert "Final scores" in text and ("wins" in text or "share the victory" in text)
    assert "greedy takes" in text  # the bot's moves are told as they come
    assert prompts.count("your move> ") > 10
    record = json.loads(server.get(f"/api/tables/{created['table']}/record", secret_of(created["watch_url"])))
    assert record["result"] is not None


def test_join_refuses_a_link_that_is_not_a_seat_link(tmp_path):
    result = subprocess.run([sys.executable, "-c", "from azul_core.cli import main; main()", "play",
                             "--join", "http://127.0.0.1:9/t/abc"], capture_output=True, text=True)
    assert result.returncode == 1
    assert "no '#seat=SECRET' part" in result.stderr
    result = subprocess.run([sys.executable, "-c", "from azul_core.cli import main; main()", "play",
                             "--join", "http://127.0.0.1:9/t/abc#seat=x", "--players", "human,greedy"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and "--join" in result.stderr


def test_serve_refuses_bad_options_in_one_line(tmp_path):
    result = subprocess.run([sys.executable, "-c", "from azul_core.cli import main; main()", "serve",
                             "--port", "70000"], capture_output=True, text=True)
    assert result.returncode == 2 and "--port must be 0 to 65535" in result.stderr
    result = subprocess.run([sys.executable, "-c", "from azul_core.cli import main; main()", "serve",
                             "--variants", str(tmp_path / "nope")], capture_output=True, text=True)
    assert result.returncode == 1 and "no such folder" in result.stderr


def test_a_second_server_on_the_same_data_refuses_to_start(tmp_path, servers):
    first = servers(tmp_path / "data")
    result = subprocess.run([sys.executable, "-c", "from azul_core.cli import main; main()", "serve",
                             "--port", "0", "--data", str(tmp_path / "data")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert f"another azul serve (pid {first.process.pid}) is using the tables in {tmp_path / 'data'}" \
        in result.stderr
    # The first one serves on; once it has stopped (even killed), the folder is free again.
    assert json.loads(first.get("/healthz")) == {"ok": True}
    first.stop(signal.SIGKILL)
    again = servers(tmp_path / "data")
    assert json.loads(again.get("/healthz")) == {"ok": True}


def test_serve_says_in_one_line_what_is_wrong_with_a_database(tmp_path):
    command = [sys.executable, "-c", "from azul_core.cli import main; main()", "serve", "--port", "0",
               "--data", str(tmp_path / "data")]
    result = subprocess.run([*command, "--database", str(tmp_path / "tables.db")], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2 and "--database takes a PostgreSQL URL" in result.stderr
    pytest.importorskip("psycopg")
    result = subprocess.run([*command, "--database", "postgresql://azul:hunter2@127.0.0.1:1/tables"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("azul: can't use the database PostgreSQL database 'tables' on 127.0.0.1:1: ")
    assert result.stderr.count("\n") == 1 and "hunter2" not in result.stderr
