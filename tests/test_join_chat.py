"""``azul play --join`` prints the table's chat as the page's log shows it ("Ann: good luck"),
escaped like everything a server sends: a hostile server's markup or control characters stay text."""

from __future__ import annotations

import io

from azul_core.players.render import make_console
from azul_core.web.remote import RemoteSession


def session() -> tuple[RemoteSession, io.StringIO]:
    out = io.StringIO()
    player = RemoteSession("http://127.0.0.1:1/t/abc#seat=xyz", console=make_console(file=out, width=100),
                           read=lambda prompt: "")
    return player, out


def test_a_message_to_the_table_is_told_with_its_senders_name():
    player, out = session()
    move = {"round": 1, "move": "1B1", "text": "Ann takes 1 blue from factory 1 to line 1"}
    player._tell_log({"log": [move]}, first=True)  # what was said before the player sat down
    chat = {"round": 1, "seat": 1, "chat": True, "name": "Bob", "text": "good luck [bold]Ann[/]\x1b[31m", "action": 1}
    player._tell_log({"log": [move, chat]}, first=False)
    told = out.getvalue()
    assert "Bob: good luck [bold]Ann[/]" in told  # markup is text, never read as rich markup
    assert "\x1b" not in told and "Ann takes" not in told  # the earlier move is not told again
