"""``azul play`` in a real pseudo-terminal (stdlib ``pty``): type moves and nonsense, leave with
Ctrl-D, check the record, then resume and play to the end with a fixed seed."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time

import pytest

from azul_core.records.game_record import check_record, read_record

pty = pytest.importorskip("pty")

PROMPT = "your move> "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
LEGAL = re.compile(r"([C1-9][BYRKW]) \d+ [a-z]+: ([1-5-])")
PATIENCE = 60.0  # seconds without any output before the test gives up (never hit when all is well)


def _own_terminal() -> None:
    """In the child: a session of its own whose controlling terminal is the pty, so that
    Ctrl-C typed there interrupts it as it would at a real terminal."""
    import fcntl
    import termios
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """A child process on a pseudo-terminal, read until what it prints matches."""

    def __init__(self, *args: str, cwd):
        master, slave = pty.openpty()
        env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "80", "LINES": "50"}
        env.pop("AZUL_DEBUG", None)
        # cwd: outside the source tree, so that the installed azul_core runs, as in the other tests
        self.process = subprocess.Popen([sys.executable, "-m", "azul_core.cli", *args], stdin=slave,
                                        stdout=slave, stderr=slave, env=env, cwd=cwd, close_fds=True,
                                        preexec_fn=_own_terminal)
        os.close(slave)
        self.master = master
        self.seen = ""     # everything printed so far, without escape codes
        self.closed = False

    def read_until(self, done) -> str:
        """Read until ``done(text since the call)`` is true or the child has exited; the text."""
        start = len(self.seen)
        last_output = time.monotonic()
        while not done(self.seen[start:]):
            if self.closed:
                break
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if not ready:
                if time.monotonic() - last_output > PATIENCE:
                    raise AssertionError(f"no output for {PATIENCE}s; last: {self.seen[-400:]!r}")
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the child closed the terminal (EIO on Linux)
                chunk = b""
            if not chunk:
                self.closed = True
                break
            last_output = time.monotonic()
            self.seen += ANSI.sub("", chunk.decode("utf-8", "replace"))
        return self.seen[start:]

    def prompt(self) -> str:
        return self.read_until(lambda text: text.endswith(PROMPT))

    def send(self, text: str) -> None:
        os.write(self.master, text.encode())

    def finish(self) -> int:
        self.read_until(lambda text: False)
        code = self.process.wait(timeout=PATIENCE)
        os.close(self.master)
        return code


def first_legal(term: Terminal) -> str:
    term.send("?\n")
    listing = term.prompt()
    moves = LEGAL.findall(listing)
    assert moves, listing[-500:]
    return "".join(moves[0])


def test_play_leave_with_ctrl_d_and_resume_to_the_end(tmp_path):
    record = tmp_path / "game.json"
    term = Terminal("play", "--players", "human,greedy", "--seed", "11", "--record", str(record), cwd=tmp_path)
    shown = term.prompt()
    assert "Factories" in shown and "b y r k w" in shown

    term.send("purple elephant\n")
    assert "is not a move" in term.prompt()
    move = first_legal(term)
    term.send(move + "\n")
    assert "greedy takes" in term.prompt()
    term.send("\x04")  # Ctrl-D at the prompt
    assert term.finish() == 0
    assert "Game saved to" in term.seen and "--resume" in term.seen
    assert "Traceback" not in term.seen

    saved = read_record(record)
    assert saved.rounds[0].actions[0] == move and len(saved.rounds[0].actions) == 2
    factories = saved.rounds[0].factories

    term = Terminal("play", "--resume", str(record), cwd=tmp_path)
    for _ in range(200):
        term.prompt()
        if term.closed:
            break
        term.send(first_legal(term) + "\n")
    assert term.finish() == 0
    assert "Final scores" in term.seen and "Traceback" not in term.seen

    finished = read_record(record)
    assert finished.rounds[0].factories == factories
    assert finished.rounds[0].actions[:2] == saved.rounds[0].actions
    report = check_record(finished)
    assert report["valid"] and report["finished"], report["errors"]


def test_ctrl_c_at_the_prompt_saves_and_leaves_cleanly(tmp_path):
    record = tmp_path / "game.json"
    term = Terminal("play", "--players", "human,greedy", "--seed", "4", "--record", str(record), cwd=tmp_path)
    term.prompt()
    # Ctrl-C: the terminal sends SIGINT. A signal that lands between the prompt being printed
    # and readline starting to wait is only noticed at the next key, so press it until it is.
    for _ in range(10):
        term.send("\x03")
        if term.process.poll() is not None or _exits_soon(term):
            break
    assert term.finish() == 0
    assert "Game saved to" in term.seen and "Traceback" not in term.seen
    assert read_record(record).rounds[0].actions == []


def _exits_soon(term: Terminal) -> bool:
    try:
        term.process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        return False
    return True
