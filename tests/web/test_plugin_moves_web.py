"""A house rule's moves, memory and secrets at the online table, in process (Starlette's
TestClient): moves typed and judged by the server, the choice after a draft, bots, per-seat
views and records, a restart, and ``azul play --join``.

The examples ``pass-once``, ``factory-one-shift`` and ``secret-goal`` are offered from
``examples/``; ``secret-words`` (written here) deals secrets that are words no view could hold
by chance, so a secret's absence is checked in the raw text of every message and record.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import random
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from azul_core.records.game_record import record_from_data, replay_state  # noqa: E402
from azul_core.web.app import Config, create_app  # noqa: E402
from azul_core.web.catalog import build_catalog  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

SECRET_WORDS = '''"""Each seat is dealt a secret word: long and unlike anything else a view holds."""
from azul_core import hookimpl

AZUL_API = 1
__version__ = "1.0"


@hookimpl
def azul_deal_secrets(players, rng):
    return [f"hush-{seat}-{rng.randrange(10**12):012d}" for seat in range(players)]
'''


@pytest.fixture(scope="module")
def words_folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("secret-words")
    (folder / "secret_words.py").write_text(SECRET_WORDS)
    (folder / "secret-words.yaml").write_text(
        "name: secret-words\ndescription: Standard Azul where each player is dealt a secret word.\n"
        "extends: standard\nplugins: [standard, colour_wall, secret_words.py]\n")
    return folder


@pytest.fixture(scope="module")
def catalog(words_folder):
    built = build_catalog([EXAMPLES, words_folder])
    assert {"pass-once", "factory-one-shift", "secret-goal", "secret-words"} <= set(built.variants), built.problems
    return built


@pytest.fixture
def config(tmp_path, words_folder):
    seeds = itertools.count(1)
    return Config(data=tmp_path / "data", variant_dirs=(EXAMPLES, words_folder), bot_delay=0, think=0.05,
                  seed_factory=lambda: f"moves-{next(seeds)}")


#: the sockets open now: closed before a server stops (it waits for them), a failed test's too
OPEN: list = []


@contextlib.contextmanager
def serving(config, catalog):
    with TestClient(create_app(config, catalog)) as test_client:
        try:
            yield test_client
        finally:
            while OPEN:
                OPEN.pop().close()


@pytest.fixture
def client(config, catalog):
    with serving(config, catalog) as test_client:
        yield test_client


def secret_of(url: str) -> str:
    return url.split("#", 1)[1].split("&")[0].split("=", 1)[1]


class Socket:
    """One client of a table: every raw message it received is kept."""

    def __init__(self, client, table: str, secret: str, record: bool = False):
        self.context = client.websocket_connect(f"/ws/{table}")
        self.ws = self.context.__enter__()
        OPEN.append(self)
        self.ws.send_json({"type": "hello", "secret": secret, "version": None, "record": record})
        self.texts: list[str] = []
        self.state: dict = {}
        self.refusals: list[dict] = []
        self.next_state()

    def next_state(self) -> dict:
        while True:
            text = self.ws.receive_text()
            self.texts.append(text)
            message = json.loads(text)
            if message["type"] == "state":
                self.state = message
                return message
            if message["type"] == "refused":
                self.refusals.append(message)
                return message

    def wait_version(self, version: int) -> dict:
        while self.state.get("version", -1) < version:
            self.next_state()
        return self.state

    def send(self, move: str) -> None:
        self.ws.send_json({"type": "move", "version": self.state["version"], "move": move})

    def refused(self, move: str) -> str:
        self.send(move)
        answer = self.next_state()
        assert answer["type"] == "refused", answer
        return answer["reason"]

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
        try:
            self.context.__exit__(None, None, None)
        except Exception:  # closed by the server already
            pass


class Game:
    """A table and a socket per person's seat, plus the watch link's."""

    def __init__(self, client, variant: str, seats: list[dict], record: bool = False):
        answer = client.post("/api/tables", json={"variant": variant, "seats": seats})
        assert answer.status_code == 201, answer.text
        self.client = client
        self.created = answer.json()
        self.id = self.created["table"]
        self.secrets = {s["seat"]: secret_of(s["url"]) for s in self.created["seats"] if s["url"]}
        self.watch_secret = secret_of(self.created["watch_url"])
        self.seats = {seat: Socket(client, self.id, secret, record) for seat, secret in self.secrets.items()}
        self.watch = Socket(client, self.id, self.watch_secret, record)

    @property
    def sockets(self) -> list[Socket]:
        return [*self.seats.values(), self.watch]

    @property
    def view(self) -> dict:
        return self.watch.state["view"]

    def mover(self) -> Socket:
        return self.seats[self.view["to_move"]]

    def move(self, move: str) -> None:
        """The seat to move sends ``move``; every client then has the new state."""
        mover = self.mover()
        version = mover.state["version"]
        mover.send(move)
        answer = mover.next_state()
        assert answer["type"] == "state", answer
        for socket in self.sockets:
            socket.wait_version(answer["version"])
        assert answer["version"] > version

    def legal(self) -> dict:
        return self.mover().state["legal"]

    def play_to_end(self, rng: random.Random, prefer=None, limit: int = 400) -> list[str]:
        """Random legal moves (``prefer(legal)`` may pick one) until the game is over."""
        played = []
        for _ in range(limit):
            if self.view["phase"] == "over":
                return played
            legal = self.legal()
            choice = prefer(legal) if prefer else None
            if choice is None:
                choice = rng.choice(legal["drafts"] + legal["columns"] + legal["moves"])["move"]
            self.move(choice)
            played.append(choice)
        raise AssertionError("the game did not end")

    def record(self, secret: str) -> dict:
        answer = self.client.get(f"/api/tables/{self.id}/record", headers={"Authorization": f"Bearer {secret}"})
        assert answer.status_code == 200, answer.text
        return answer.json()

    def close(self) -> None:
        for socket in self.sockets:
            socket.close()


def server_of(client):
    return client.app.server


def replays_to_its_result(record: dict, catalog, variant: str) -> None:
    """The record replays through the engine to the scores it states, and states the memory of
    each plugin that keeps one (as ``azul play``'s records do)."""
    state = replay_state(record_from_data(record), catalog.get(variant).variant)
    assert state.over and state.scores() == record["result"]["scores"]
    assert record.get("memory") == (json.loads(json.dumps(state.memory)) or None)


# ---------------------------------------------------------------------------- moves


def test_a_pass_is_offered_typed_judged_and_recorded(client, catalog):
    game = Game(client, "pass-once", [{"name": "Ann"}, {"name": "Bob"}])
    ann, bob = game.seats[0], game.seats[1]
    assert ann.state["legal"]["moves"] == [{"move": "+pass", "name": "pass", "args": [],
                                            "label": "Pass this turn (once a round)", "exclusive": False}]
    assert bob.state["legal"] is None
    assert game.view["memory"] == {"pass_once": [False, False]}
    assert "turn" in bob.refused("+pass")  # only the seat to move
    game.move("+pass")
    assert game.view["to_move"] == 1 and game.view["memory"] == {"pass_once": [True, False]}
    assert bob.state["last"] == {"seat": 0, "move": "+pass",
                                 "text": "Ann: Pass this turn (once a round) (+pass)"}
    game.move(bob.state["legal"]["drafts"][0]["move"])
    # Once a round: Ann's second pass is not on offer, and the server says so.
    assert ann.state["legal"]["moves"] == []
    assert "not on offer" in ann.refused("+pass")
    assert ann.refused("+shift:2") == "This variant has no move +shift:2"
    assert "is not a move" in ann.refused("+Pass!")
    game.play_to_end(random.Random(5))
    record = game.record(game.secrets[0])
    actions = [action for entry in record["rounds"] for action in entry["actions"]]
    assert actions[0] == "+pass" and actions.count("+pass") >= 2
    replays_to_its_result(record, catalog, "pass-once")
    game.close()


def test_after_a_draft_from_factory_one_the_drafter_chooses(client, catalog):
    game = Game(client, "factory-one-shift", [{"name": "Ann"}, {"name": "Bob"}])
    assert game.view["phase"] == "draft" and game.legal()["moves"] == []
    # A draft from factory 1 onto a pattern line: then only the plugin's choices are legal.
    onto_a_line = next(d for d in game.legal()["drafts"] if d["source"] == 1 and d["line"] < 5)
    drafter = game.view["to_move"]
    game.move(onto_a_line["move"])
    assert game.view["phase"] == "choose" and game.view["to_move"] == drafter
    legal = game.legal()
    assert legal["drafts"] == [] and legal["columns"] == []
    labels = {move["move"]: move["label"] for move in legal["moves"]}
    assert labels["+keep"] == "Keep the tiles where they are"
    assert labels["+shift:5"] == "Move a tile to the floor"
    other = game.seats[1 - drafter]
    assert other.state["legal"] is None
    assert "turn" in other.refused("+keep")
    assert game.mover().refused("CB1").startswith("Choose first: Keep the tiles where they are, ")  # no draft until the choice is made
    floor_before = sum(1 for space in game.view["seats"][drafter]["floor"] if space["tile"])
    game.move("+shift:5")
    assert game.view["phase"] == "draft" and game.view["to_move"] != drafter
    assert sum(1 for space in game.view["seats"][drafter]["floor"] if space["tile"]) == floor_before + 1
    assert game.watch.state["last"]["text"] == "Ann: Move a tile to the floor (+shift:5)"

    def from_factory_one(legal):  # choose often, to go through the phase many times
        shifts = [m["move"] for m in legal["moves"] if m["move"] != "+keep"]
        if shifts:
            return shifts[0]
        ones = [d["move"] for d in legal["drafts"] if d["source"] == 1 and d["line"] < 5]
        return ones[0] if ones else None

    played = game.play_to_end(random.Random(8), prefer=from_factory_one)
    assert sum(move.startswith("+shift") for move in played) >= 3
    replays_to_its_result(game.record(game.watch_secret), catalog, "factory-one-shift")
    game.close()


@pytest.mark.parametrize("variant", ["pass-once", "factory-one-shift"])
def test_bots_play_a_house_rule_with_moves(client, catalog, variant):
    game = Game(client, variant, [{"bot": "random"}, {"bot": "random"}])
    watch = game.watch
    while watch.state["view"]["phase"] != "over":
        watch.next_state()
    record = game.record(game.watch_secret)
    actions = [action for entry in record["rounds"] for action in entry["actions"]]
    assert any(action.startswith("+") for action in actions), "the bots never took a plugin's move"
    replays_to_its_result(record, catalog, variant)
    game.close()


# ---------------------------------------------------------------------------- secrets


def test_each_seat_sees_its_own_secret_and_the_watch_link_none_until_the_end(client, catalog):
    game = Game(client, "secret-words", [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}], record=True)
    dealt = server_of(client).tables[game.id].state.secrets["secret_words"]
    assert len(set(dealt)) == 3 and all(word.startswith("hush-") for word in dealt)
    for seat, socket in game.seats.items():
        assert socket.state["view"]["secrets"] == {"secret_words": [dealt[s] if s == seat else None
                                                                    for s in range(3)]}
    assert game.view["secrets"] == {"secret_words": [None, None, None]}
    # The records each link may download: the others' secrets sealed.
    for seat, secret in game.secrets.items():
        record = game.record(secret)
        assert record["secrets"] == {"secret_words": [dealt[s] if s == seat else {"sealed": True}
                                                      for s in range(3)]}
    admin = game.created["admin_secret"]
    for secret in (game.watch_secret, admin):
        assert game.record(secret)["secrets"] == {"secret_words": [{"sealed": True}] * 3}

    rng = random.Random(2)
    while True:
        legal = game.legal()
        game.move(rng.choice(legal["drafts"] + legal["columns"] + legal["moves"])["move"])
        if game.view["phase"] == "over":
            break
        # Every message so far, the record in it included, holds only the seat's own word.
        for seat, socket in game.seats.items():
            text = "".join(socket.texts)
            assert dealt[seat] in text
            assert not any(dealt[other] in text for other in range(3) if other != seat), seat
        assert not any(word in "".join(game.watch.texts) for word in dealt)
    # At the end everything is told, to every link.
    for socket in game.sockets:
        assert socket.state["view"]["secrets"] == {"secret_words": list(dealt)}
        assert socket.state["record"]["secrets"] == {"secret_words": list(dealt)}
    for secret in (*game.secrets.values(), game.watch_secret):
        assert game.record(secret)["secrets"] == {"secret_words": list(dealt)}
    replays_to_its_result(game.record(game.watch_secret), catalog, "secret-words")
    game.close()


def test_secret_goal_is_scored_and_revealed_at_the_end(client, catalog):
    game = Game(client, "secret-goal", [{"name": "Ann"}, {"name": "Bob"}])
    goals = server_of(client).tables[game.id].state.secrets["secret_goal"]
    assert game.seats[0].state["view"]["secrets"] == {"secret_goal": [goals[0], None]}
    assert game.seats[1].state["view"]["secrets"] == {"secret_goal": [None, goals[1]]}
    assert game.view["secrets"] == {"secret_goal": [None, None]}
    game.play_to_end(random.Random(4))
    final = game.view["final"]
    assert all(any(b["kind"] == "secret goal" for b in seat["bonuses"]) for seat in final["seats"])
    assert game.view["secrets"] == {"secret_goal": list(goals)}
    record = game.record(game.secrets[1])
    assert record["secrets"] == {"secret_goal": list(goals)}
    replays_to_its_result(record, catalog, "secret-goal")
    game.close()


class SpyBot:
    """A random bot that notes the secrets in each state it is given."""

    seen: list[dict] = []

    def __init__(self, bot):
        self.bot = bot

    def choose(self, state):
        SpyBot.seen.append(dict(state.secrets))
        return self.bot.choose(state)


def test_a_bot_chooses_on_its_own_seats_view(client, monkeypatch):
    import azul_core.web.app as web_app
    make_bot = web_app.make_bot
    monkeypatch.setattr(web_app, "make_bot", lambda *args, **kwargs: SpyBot(make_bot(*args, **kwargs)))
    SpyBot.seen.clear()
    game = Game(client, "secret-words", [{"name": "Ann"}, {"bot": "random"}])
    dealt = server_of(client).tables[game.id].state.secrets["secret_words"]
    game.move(game.legal()["drafts"][0]["move"])
    while game.view["to_move"] != 0:
        game.watch.next_state()
    assert SpyBot.seen and all(seen == {"secret_words": (None, dealt[1])} for seen in SpyBot.seen)
    game.close()


def test_secrets_survive_a_restart(config, catalog):
    with serving(config, catalog) as client:
        game = Game(client, "secret-words", [{"name": "Ann"}, {"name": "Bob"}])
        dealt = server_of(client).tables[game.id].state.secrets
        for _ in range(5):
            game.move(game.legal()["drafts"][0]["move"])
        before = [socket.state["view"] for socket in game.seats.values()]
        game.close()
    with serving(config, catalog) as client:
        again = Socket(client, game.id, game.secrets[0])
    # Dealt again from the table's seed when its events are replayed: the same secrets.
    assert again.state["view"]["secrets"] == before[0]["secrets"] == {"secret_words": [dealt["secret_words"][0], None]}
    assert [board["wall"] for board in again.state["view"]["seats"]] == [board["wall"] for board in before[0]["seats"]]


# ---------------------------------------------------------------------------- azul play --join


class SocketOverTestClient:
    """What ``RemoteSession`` needs of a WebSocket (send, recv, close), over the TestClient."""

    def __init__(self, client, path: str):
        self.context = client.websocket_connect(path)
        self.ws = self.context.__enter__()
        OPEN.append(self)

    def send(self, text: str) -> None:
        self.ws.send_text(text)

    def recv(self, timeout=None) -> str:
        return self.ws.receive_text()

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
        try:
            self.context.__exit__(None, None, None)
        except Exception:  # closed by the server already
            pass


def join(client, url: str, read, variant: str, folder: Path):
    from rich.console import Console

    from azul_core.variants.loading import Trust
    from azul_core.web.remote import RemoteSession

    output = io.StringIO()
    path = "/ws/" + url.split("/t/", 1)[1].split("#", 1)[0]
    session = RemoteSession(url, console=Console(file=output, width=100),
                            read=read, connect=lambda _url: SocketOverTestClient(client, path),
                            trust=Trust.of([folder / f"{variant}.yaml"]))
    return session, output


def play_joined(client, game, variant: str, folder: Path, choose) -> str:
    """Seat 1 of ``game`` plays it to the end through ``azul play --join`` (a ``RemoteSession``),
    typing ``choose(state)`` at each prompt; then the table is closed. What the terminal
    printed."""
    joined: dict = {}
    try:
        session, output = join(client, game.created["seats"][0]["url"],
                               lambda prompt: choose(joined["session"].state), variant, folder)
        joined["session"] = session
        assert session.run() == 0
    finally:
        game.close()
        while OPEN:
            OPEN.pop().close()
    return output.getvalue()


def test_join_lists_and_takes_a_pass(client, monkeypatch):
    from azul_core.engine.notation import format_decision
    folder = EXAMPLES / "pass-once"
    monkeypatch.setenv("AZUL_VARIANTS_PATH", str(folder))
    game = Game(client, "pass-once", [{"name": "Ana"}, {"bot": "random"}])
    game.seats[0].close()
    rng = random.Random(3)
    prompts: list[str] = []
    session = None

    def read(prompt):
        prompts.append(prompt)
        if len(prompts) == 1:
            return "?"
        if len(prompts) == 2:
            return "+pass"
        return format_decision(rng.choice(session.state.legal_decisions()))

    session, output = join(client, game.created["seats"][0]["url"], read, "pass-once", folder)
    assert session.run() == 0
    text = output.getvalue()
    assert "Also on offer: +pass Pass this turn (once a round)" in text
    assert "+pass  Pass this turn (once a round)" in text  # the list ? shows
    assert "Ana: Pass this turn (once a round) (+pass)" in text  # the server's words for it
    record = game.record(game.watch_secret)
    assert record["rounds"][0]["actions"][0] == "+pass"
    assert "Final scores" in text
    game.close()


def test_join_shows_only_its_own_secret_until_the_end(client, monkeypatch, words_folder):
    from azul_core.engine.notation import format_decision
    monkeypatch.setenv("AZUL_VARIANTS_PATH", str(words_folder))
    game = Game(client, "secret-words", [{"name": "Ana"}, {"bot": "random"}])
    game.seats[0].close()
    dealt = server_of(client).tables[game.id].state.secrets["secret_words"]
    rng = random.Random(6)
    shown_before_the_end: list[str] = []
    session = None

    def read(prompt):
        shown_before_the_end.append(output.getvalue())
        return format_decision(rng.choice(session.state.legal_decisions()))

    session, output = join(client, game.created["seats"][0]["url"], read, "secret-words", words_folder)
    assert session.run() == 0
    # The plugin says nothing of its secret: it is told plainly, in words.
    assert shown_before_the_end and all(f"Your secret from secret_words: {dealt[0]}" in text and dealt[1] not in text
                                        for text in shown_before_the_end)
    assert f"random has the secret from secret_words: {dealt[1]}" in output.getvalue()
    game.close()
