"""A house rule's secrets and memory in words, for every front end (the web page, ``azul play``,
``azul play --join``, ``azul replay``).

Each plugin says what its own secret and memory mean through ``azul_describe``: for each seat,
the words addressed to that seat's player ("You may still pass this round") and the words that
follow the seat's name for everybody else ("has passed this round"). A plugin that says nothing
is told plainly, still in words ("pass_once remembers: no, yes"), never as a Python repr or JSON.

Only what the given state holds is described: give ``state.for_seat(seat)`` and the other seats'
secrets are ``None`` there, so no words are ever made from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from azul_core.engine.plugins import _call, _refused, implementations

HOOK = "azul_describe"
#: the longest description a plugin may give
MAX_WORDS = 120


@dataclass(frozen=True)
class Told:
    """A plugin's secret or memory in words, about one ``seat`` (None: the table as a whole)."""

    plugin: str
    kind: str  # "secret" or "memory"
    seat: int | None
    #: addressed to the player of ``seat`` ("Your goal: black, 2 points a tile")
    you: str | None
    #: following the seat's name ("has passed this round"); the whole sentence when ``seat`` is
    #: None; None: the plugin says this to the seat's own player only
    them: str | None

    def text(self, names: Sequence[str], reader: int | None) -> str | None:
        """The sentence as ``reader`` (a seat; None: a watcher) reads it; None: nothing for them."""
        if self.seat is None:
            return self.them
        if self.seat == reader and self.you is not None:
            return self.you
        return None if self.them is None else f"{names[self.seat]} {self.them}"

    def to_dict(self) -> dict:
        return {"plugin": self.plugin, "kind": self.kind, "seat": self.seat, "you": self.you, "them": self.them}


def plain_words(value: Any) -> str:
    """A plain value (a memory or a secret) in words: yes/no, numbers, text, lists with commas."""
    if value is None:
        return "nothing"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, tuple):
        if not value:
            return "nothing"
        return ", ".join(f"({plain_words(item)})" if isinstance(item, tuple) and len(item) > 1
                         else plain_words(item) for item in value)
    return str(value)


def _short(text: str) -> str:
    return text if len(text) <= MAX_WORDS else text[:MAX_WORDS - 1] + "…"


def _ask(impls: list | None, rules, kind: str, value: Any, seat: int | None, you: bool, players: int) -> str | None:
    for impl in impls or ():
        answer = _call(impl, HOOK, {"kind": kind, "value": value, "seat": seat, "you": you,
                                    "players": players, "settings": rules.settings})
        if answer is None:
            continue
        if answer.__class__ is not str or not answer or len(answer) > MAX_WORDS or not answer.isprintable():
            raise _refused(impl, HOOK, answer, f"expected printable text of 1 to {MAX_WORDS} characters, or None")
        return answer
    return None


def plugin_words(state, ask: bool = True) -> list[Told]:
    """The secrets ``state`` holds and every plugin's memory, in words: the secrets first, in
    seat order, then the memories. A ``PluginError`` names a plugin whose words are wrong;
    ``ask=False``: no plugin is asked, every value is told plainly."""
    rules = state.rules
    players = state.num_players
    told: list[Told] = []
    for plugin, values in state.secrets.items():
        impls = implementations(rules.pm, HOOK, plugin) if ask else None
        for seat, value in enumerate(values):
            if value is None:  # another seat's, hidden from this state's reader
                continue
            you = _ask(impls, rules, "secret", value, seat, True, players)
            them = _ask(impls, rules, "secret", value, seat, False, players)
            plain = _short(plain_words(value))
            told.append(Told(plugin, "secret", seat, you or f"Your secret from {plugin}: {plain}",
                             them or f"has the secret from {plugin}: {plain}"))
    for plugin, value in state.memory.items():
        impls = implementations(rules.pm, HOOK, plugin) if ask else None
        about: list[Told] = []
        for seat in range(players):
            you = _ask(impls, rules, "memory", value, seat, True, players)
            them = _ask(impls, rules, "memory", value, seat, False, players)
            if you is not None or them is not None:
                about.append(Told(plugin, "memory", seat, you, them))
        table = _ask(impls, rules, "memory", value, None, False, players)
        if table is not None:
            about.append(Told(plugin, "memory", None, None, table))
        if not about:
            about.append(Told(plugin, "memory", None, None, _short(f"{plugin} remembers: {plain_words(value)}")))
        told += about
    return told
