"""Chat at the table: short plain-text messages from a seat to the whole table.

A seat's player sends ``{"type": "chat", "text": "..."}``; the server cleans the text (control
characters, bidi overrides and lone surrogates removed, whitespace made single spaces), refuses
an empty one, one longer than ``MAX_CHARACTERS``, more than ``BURST`` from one seat within
``WINDOW`` seconds, any from a watcher, and every one at a table whose creator turned chat off.
A message taken is a ``chat`` event (its seat, its text) committed like any other event, so it
is kept in either store, survives a restart, reaches the other processes of a shared store,
and is replayed into the game log (``log_entry``) that every page of the table reads: the
table's seats and its watch link, nobody else. It is also kept in the table's record
(``record_chat``, the record's optional ``chat`` field).

Text is never markup: the pages put it in the document as text, and ``azul play --join``
passes it through ``safe_line``. A refusal is told to the sender alone, as a ``chat-refused``
message; a message taken is told to everybody through the game log.
"""

from __future__ import annotations

import json
import logging
import math
import re
import unicodedata
from collections import deque
from typing import Any

from azul_core.web import hints
from azul_core.web.store import CHAT, Event

log = logging.getLogger("azul.web")

#: the longest message, in characters, after cleaning
MAX_CHARACTERS = 200
#: a seat may send ``BURST`` messages within ``WINDOW`` seconds, then waits
BURST, WINDOW = 5, 10.0

# Controls (newlines and tabs become spaces first), DEL, the C1 controls, the line and paragraph
# separators and the bidi overrides and isolates, which would reorder the log's other lines.
_UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def clean(text: str) -> str:
    """``text`` as it is kept and shown: on one line, with single spaces, without the
    characters that can't be shown or would disturb the lines around it."""
    text = text.encode("utf-8", "ignore").decode("utf-8")  # lone surrogates can't be stored
    text = " ".join(unicodedata.normalize("NFC", text).split())
    return _UNSHOWN.sub("", text).strip()


def refusal(table, seat: int | None, text: Any, now: float) -> str | None:
    """Why the message ``text`` from ``seat`` (None: a watcher) is not taken, in words; None if
    it is. Counts the message against the seat's allowance when it is taken."""
    if not table.row.chat:
        return "chat is off at this table (the table's creator chose so)"
    if seat is None:
        return "this link can watch but not chat"
    if not isinstance(text, str):
        return "a chat message is text"
    if len(text) > MAX_CHARACTERS * 4:
        return f"a chat message has at most {MAX_CHARACTERS} characters"
    cleaned = clean(text)
    if not cleaned:
        return "the message is empty"
    if len(cleaned) > MAX_CHARACTERS:
        return f"a chat message has at most {MAX_CHARACTERS} characters (this one has {len(cleaned)})"
    sent = table.chat_times.setdefault(seat, deque())
    while sent and sent[0] <= now - WINDOW:
        sent.popleft()
    if len(sent) >= BURST:
        wait = max(1, math.ceil(sent[0] + WINDOW - now))
        return (f"{BURST} messages within {WINDOW:g} seconds is the most: "
                f"wait {wait} second{'s' if wait != 1 else ''} before the next")
    return None


def hear(server, client, message: dict) -> None:
    """Take a ``chat`` message from ``client``: commit it and tell the table, or tell the
    sender alone why not."""
    table, seat = client.table, client.seat
    text = message.get("text")
    now = table.now()
    reason = refusal(table, seat, text, now)
    if reason is None:
        assert isinstance(text, str)  # anything else is refused
        reason = _commit(server, table, Event(CHAT, clean(text), seat))
    if reason is not None:
        client.send(json.dumps({"type": "chat-refused", "reason": reason}))
        return
    table.chat_times[seat].append(now)
    server.broadcast(table)
    hints.tell_again(table)


def _commit(server, table, event: Event) -> str | None:
    """Commit ``event``; why not, in words, if it could not be."""
    for _attempt in range(2):
        try:
            table.append_seat_events([event], server.store)
            return None
        except Exception as exc:
            # Another process's event came first (a shared store): read it, then try again.
            if server.catch_up(table):
                continue
            log.error("table %s: a chat message could not be stored: %s: %s",
                      table.id[:6], type(exc).__name__, exc)
            break
    return "the server could not keep the message: send it again"


def log_entry(state, event: Event, seats, log_so_far: list) -> dict | None:
    """The game log's entry for a ``chat`` event (None for another event): the round, the
    sender's seat and name, the text, and how many actions of the round came before it."""
    if event.kind != CHAT or event.seat is None or not 0 <= event.seat < len(seats):
        return None
    round_number = state.round
    actions = sum(1 for entry in log_so_far if entry.get("round") == round_number and "move" in entry)
    return {"round": round_number, "seat": event.seat, "chat": True, "name": seats[event.seat].name,
            "text": event.text, "action": actions}


def record_chat(log_entries: list) -> list[dict]:
    """The record's ``chat`` field: each message's seat, round, the number of that round's
    actions before it, and its text, in order."""
    return [{"seat": entry["seat"], "round": entry["round"], "action": entry["action"], "text": entry["text"]}
            for entry in log_entries if entry.get("chat") is True]


def wants_chat(body: dict) -> bool:
    """The creation's ``chat``: false turns chat off at the table (on unless asked)."""
    chat = body.get("chat", True)
    if not isinstance(chat, bool):
        raise ValueError("'chat' is true or false")
    return chat


#: the most messages a replay shows from one record (a record may come from anywhere)
MOST_REPLAYED = 5000


def chat_by_step(said: Any, steps: list, names: list[str]) -> list[dict]:
    """A record's ``chat`` field for its replay: each message with the step it followed (the
    step of its round and number of actions; the last step for one past the steps replayed),
    the sender's seat and name, and its text cleaned as a message sent to the table is. A record
    may come from anywhere: what is not a message of one of its seats is left out."""
    if not isinstance(said, list) or not steps:
        return []
    step_of = {(step.round, step.action): index for index, step in enumerate(steps)}
    found = []
    for message in said[:MOST_REPLAYED]:
        if not isinstance(message, dict):
            continue
        seat, round_number, action, text = (message.get(key) for key in ("seat", "round", "action", "text"))
        if not (_whole(seat) and _whole(round_number) and _whole(action) and isinstance(text, str)) \
                or not 0 <= seat < len(names):
            continue
        text = clean(text[:MAX_CHARACTERS * 4])
        if not text:
            continue
        if len(text) > MAX_CHARACTERS:
            text = text[:MAX_CHARACTERS - 1] + "…"
        step = step_of.get((round_number, action), len(steps) - 1)
        found.append({"step": step, "seat": seat, "name": names[seat], "text": text})
    return found


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
