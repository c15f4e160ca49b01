"""Help and hints at 80 columns (issue 23): each command's help wraps its paragraphs to the width
(the source's line breaks are not kept), crops no word, and shows no text as markup; the command
``azul play`` gives to resume a game stays on one line, whatever the path's length; ``azul serve
--port 0`` says that its links break when it restarts on another port.
"""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len

WIDTH = 80
COMMANDS = ["play", "replay", "simulate", "compare", "validate", "plugins", "serve", "variants"]


def azul(*args: str, **options) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in ("TERMINAL_WIDTH", "AZUL_DEBUG")}
    env.update(COLUMNS=str(WIDTH), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "azul_core.cli", *args], capture_output=True, text=True,
                          env=env, **options)


def description(help_text: str) -> list[list[str]]:
    """The paragraphs between the usage line and the first box, each a list of its lines."""
    lines = help_text.splitlines()
    start = next(i for i, line in enumerate(lines) if "Usage:" in line) + 1
    end = next(i for i, line in enumerate(lines) if line.startswith("╭"))
    paragraphs: list[list[str]] = [[]]
    for line in lines[start:end]:
        if line.strip():
            paragraphs[-1].append(line.rstrip())
        elif paragraphs[-1]:
            paragraphs.append([])
    return [p for p in paragraphs if p]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_fits_80_columns_and_wraps_each_paragraph_to_them(command):
    result = azul(command, "--help")
    assert result.returncode == 0, result.stderr
    text = result.stdout
    for line in text.splitlines():
        assert cell_len(line) <= WIDTH, f"{cell_len(line)} columns: {line!r}"
    assert "…" not in text, "a word was cropped: " + next(line for line in text.splitlines() if "…" in line)
    paragraphs = description(text)
    assert paragraphs
    for paragraph in paragraphs:
        # Wrapped to the width: each line but the last is full, the next word would not fit.
        for line, following in zip(paragraph, paragraph[1:]):
            room = WIDTH - 1 - cell_len(line)  # the help is indented by one column on the right too
            assert cell_len(following.split()[0]) + 1 > room, \
                f"a line broken early in `azul {command} --help`:\n{line}\n{following}"


def test_serve_help_says_why_a_fixed_port_and_shows_no_markup():
    text = azul("serve", "--help").stdout
    words = " ".join(text.replace("│", " ").split())
    assert "Port to listen on; 0: a free one, another at each start." in words
    assert "'postgres' extra" in words


def test_the_resume_command_stays_on_one_line_at_80_columns(tmp_path):
    pytest.importorskip("pty")
    sys.path.insert(0, str(Path(__file__).parent))
    from test_play_pty import Terminal

    folder = tmp_path / "a folder with a rather long name, and spaces"
    folder.mkdir()
    record = folder / "standard-game-of-the-evening.json"
    term = Terminal("play", "--players", "human,greedy", "--seed", "4", "--record", str(record), cwd=tmp_path)
    term.prompt()
    term.send("quit\n")
    assert term.finish() == 0
    seen = term.seen
    match = re.search(r"Continue it with:\n  (azul play --resume .*)\n", seen)
    assert match, seen[-600:]
    command = match.group(1)
    assert len(command) > WIDTH  # longer than the line, and still whole
    assert command == f"azul play --resume '{record}'"  # quoted: it can be pasted as it is


def interrupt(server: subprocess.Popen) -> tuple[str, str]:
    """Ctrl-C to a server, then its output; SIGKILL if it has not stopped 20 s later."""
    try:
        server.send_signal(signal.SIGINT)
        return server.communicate(timeout=20)
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()


def test_serve_on_port_0_says_that_its_links_break_on_another_port(tmp_path):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "azul_core.cli", "serve", "--port", "0", "--data", str(tmp_path / "data")]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    note = ""
    try:
        first = server.stdout.readline()
        port = re.fullmatch(r"Serving on http://127\.0\.0\.1:(\d+)\n", first).group(1)
        assert server.stdout.readline().startswith("Offering")
        # The note follows, before the server serves: wait for it (a Ctrl-C sent at once on a
        # busy machine may come before it is written).
        while "must survive a restart" not in note:
            ready, _, _ = select.select([server.stderr], [], [], 20)
            line = server.stderr.readline() if ready else ""
            assert line, f"no note on stderr: {note!r}"
            note += line
    finally:
        interrupt(server)
    assert note.startswith(f"azul: note: --port 0 picked port {port}; the table links name it, so they "
                           "break if the server restarts on another port")
    assert f"--port {port}" in note
    # A fixed port: nothing to warn of.
    server = subprocess.Popen([*command[:5], port, *command[6:]], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stdout.readline().startswith(f"Serving on http://127.0.0.1:{port}")
        assert server.stdout.readline().startswith("Offering")
    finally:
        _out, errors = interrupt(server)
    assert "--port 0" not in errors
