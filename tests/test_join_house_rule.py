"""``azul play --join URL --variant FILE`` at a table of a house rule, against a real ``azul serve``
(issue 42): the file named on the command line is the table's variant (no $AZUL_VARIANTS_PATH,
no ./variants), its moves on offer are listed once a screen, its memory and the table's log are
told in words, and a refused move says why in a player's words.

The server offers examples/pass-once from a folder of its own; the player names a copy of the
house rule elsewhere, as a friend who was sent the file would.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

ROOT = Path(__file__).resolve().parents[1]
PASS_ONCE = ROOT / "examples" / "pass-once"
AZUL = [sys.executable, "-m", "azul_core.cli"]
#: the longest wait for one line of a process's output: a guard against a hang, not a timing
WAIT = 60


def environment() -> dict:
    """The environment of a subprocess: no variant folder named, output unbuffered."""
    env = {key: value for key, value in os.environ.items() if key != "AZUL_VARIANTS_PATH"}
    return {**env, "PYTHONUNBUFFERED": "1", "COLUMNS": "100"}


class Server:
    """``azul serve`` on a free port, offering the house rules of ``folder``."""

    def __init__(self, data: Path, folder: Path, cwd: Path):
        self.process = subprocess.Popen([*AZUL, "serve", "--port", "0", "--data", str(data), "--bot-delay", "0",
                                         "--think", "0.05", "--variants", str(folder)],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                        cwd=cwd, env=environment())
        try:
            line = self.process.stdout.readline()
            match = re.fullmatch(r"Serving on (http://127\.0\.0\.1:\d+)\n", line)
            assert match, line
        except BaseException:
            self.stop()
            raise
        self.url = match.group(1)

    def post(self, path: str, body: dict, secret: str | None = None) -> dict:
        headers = {"Content-Type": "application/json"}
        if secret:
            headers["Authorization"] = f"Bearer {secret}"
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), headers=headers,
                                         method="POST")
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Player:
    """``azul play --join`` in a subprocess: lines are typed on its standard input (read one per
    prompt, as piped lines are), its output is read line by line as it comes."""

    def __init__(self, url: str, cwd: Path, *options: str):
        self.process = subprocess.Popen([*AZUL, "play", "--join", url, *options], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
                                        env=environment())
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def type(self, *lines: str) -> None:
        self.process.stdin.write("".join(f"{line}\n" for line in lines))
        self.process.stdin.flush()

    def until(self, text: str) -> None:
        """Read the output until a line holds ``text``."""
        while True:
            line = self.lines.get(timeout=WAIT)
            assert line is not None, f"the client ended before saying {text!r}:\n{''.join(self.seen)}"
            self.seen.append(line)
            if text in line:
                return

    def finish(self) -> tuple[int, str, str]:
        self.process.stdin.close()
        code = self.process.wait(WAIT)
        while (line := self.lines.get(timeout=WAIT)) is not None:
            self.seen.append(line)
        return code, "".join(self.seen), self.process.stderr.read()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def house(tmp_path):
    """(the server's folder of house rules, the player's own copy of pass-once's file)."""
    served, mine = tmp_path / "served", tmp_path / "mine"
    shutil.copytree(PASS_ONCE, served / "pass-once")
    shutil.copytree(PASS_ONCE, mine)
    return served, mine / "pass-once.yaml"


@pytest.fixture
def server(tmp_path, house, outside_the_tree):
    running = Server(tmp_path / "data", house[0], outside_the_tree)
    yield running
    running.stop()


def screens(output: str) -> list[str]:
    """The output cut at each drawing of the board (its heading names the variant and round)."""
    return re.split(r"(?m)^pass-once {3}round ", output)[1:]


def test_join_plays_a_house_rule_from_the_file_named(server, house, outside_the_tree):
    created = server.post("/api/tables", {"variant": "pass-once", "seats": [{"name": "Ana"}, {"name": "Bob"}]})
    bob = next(seat for seat in created["seats"] if seat["name"] == "Bob")
    ana = Player(created["seats"][0]["url"], outside_the_tree, "--variant", str(house[1]))
    try:
        ana.type("9B1", "+pass")  # not a factory, then the house rule's move
        ana.until("Waiting for Bob")
        # Bob's seat is handed to a bot while Ana waits: the table's log says so, and so does she.
        server.post(f"/api/tables/{created['table']}/seats/{bob['seat']}/bot", {"bot": "greedy"},
                    created["admin_secret"])
        ana.until("Bob takes")
        ana.type("+pass", "quit")  # a second pass in the round: refused, in words
        code, output, errors = ana.finish()
    finally:
        ana.stop()
    assert code == 0, errors
    assert "unknown variant" not in output + errors and not errors.strip(), errors
    assert "pass-once: Ana, Bob; you sit at seat 1 as Ana." in output
    # A refused move in a player's words, without the engine's "not legal:".
    assert "There is no factory 9: the factories are numbered 1 to 5. Type ? for the legal moves." in output
    assert "Pass this turn (once a round) (+pass) is not on offer now. Type ? for the legal moves." in output
    assert "not legal" not in output.lower()
    # The moves on offer, once a screen; the memory in the plugin's words.
    drawn = screens(output)
    assert drawn and all(screen.count("Also on offer") <= 1 for screen in drawn), output
    assert "Also on offer: +pass Pass this turn (once a round)" in drawn[0]
    assert "You may still pass this round" in drawn[0] and "Bob may still pass this round" in drawn[0]
    assert "You have passed this round" in drawn[-1] and "Also on offer" not in drawn[-1]
    assert "pass_once remembers" not in output and "[false" not in output and "Memory" not in output
    # The table's log, as the page's: the pass by its label, the seat handed to a bot, the bot's move.
    assert output.count("Ana: Pass this turn (once a round) (+pass)") == 1  # not again at the seat event
    assert "Bob's seat is played by the bot 'greedy' from now on" in output
    assert output.index("Bob's seat is played by the bot") < output.index("Bob takes")


def test_join_says_which_variant_a_file_is_that_is_not_the_table_s(server, outside_the_tree):
    created = server.post("/api/tables", {"variant": "pass-once", "seats": [{"name": "Ana"}, {"bot": "greedy"}]})
    other = ROOT / "examples" / "take-a-tile" / "take-a-tile.yaml"
    result = subprocess.run([*AZUL, "play", "--join", created["seats"][0]["url"], "--variant", str(other)],
                            input="quit\n", capture_output=True, text=True, cwd=outside_the_tree,
                            env=environment(), timeout=WAIT)
    assert result.returncode == 1
    assert result.stderr.strip() == ("azul: --join: the table plays 'pass-once', and take-a-tile.yaml is the "
                                     "variant 'take-a-tile': name the file of 'pass-once' with --variant")
    missing = subprocess.run([*AZUL, "play", "--join", created["seats"][0]["url"], "--variant", "nowhere.yaml"],
                             capture_output=True, text=True, cwd=outside_the_tree, env=environment(),
                             timeout=WAIT)
    assert missing.returncode == 2 and "'nowhere.yaml': no such file" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1


def test_without_the_file_join_says_to_name_it(server, outside_the_tree):
    created = server.post("/api/tables", {"variant": "pass-once", "seats": [{"name": "Ana"}, {"bot": "greedy"}]})
    result = subprocess.run([*AZUL, "play", "--join", created["seats"][0]["url"]], input="quit\n",
                            capture_output=True, text=True, cwd=outside_the_tree, env=environment(),
                            timeout=WAIT)
    assert result.returncode == 1
    assert "the table plays 'pass-once', a variant this machine can't use" in result.stderr
    assert result.stderr.strip().endswith("name its file with --variant FILE")
