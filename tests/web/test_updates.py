"""Updates that say what changed: the diff of two JSON documents, and clients that ask for
changes (``"changes": true`` in hello) seeing exactly what a client of whole states sees."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from azul_core.web.patches import apply, diff

pytest.importorskip("starlette")

# The in-process server's helpers (pytest puts this folder on sys.path).
from test_server import OPEN_SEATS, Seat, create, make_config, secret_of, serving  # noqa: E402

from azul_core.web.catalog import build_catalog  # noqa: E402


@pytest.fixture(scope="module")
def catalog():
    return build_catalog([])


@pytest.fixture
def config(tmp_path):
    return make_config(tmp_path)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=2), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(json_values, json_values)
def test_applying_the_diff_of_two_documents_gives_the_second(old, new):
    changes = diff(old, new)
    # What goes over the wire is JSON: the changes survive it, and apply to a copy of the first.
    assert apply(copy.deepcopy(old), json.loads(json.dumps(changes))) == new
    assert (changes == []) == (old == new)


def test_a_diff_names_only_what_changed_and_appends_to_a_growing_list():
    old = {"seats": [{"score": 3, "wall": [[None, "red"]]}, {"score": 0}], "bag": 60, "rounds": [["1R1"]]}
    new = {"seats": [{"score": 5, "wall": [["blue", "red"]]}, {"score": 0}], "bag": 60, "rounds": [["1R1"], []]}
    assert diff(old, new) == [{"path": ["seats", 0, "score"], "set": 5},
                              {"path": ["seats", 0, "wall", 0, 0], "set": "blue"},
                              {"path": ["rounds"], "append": [[]]}]
    assert diff(old, None) == [{"path": [], "set": None}]
    with pytest.raises(ValueError):
        apply({"a": 1}, [{"path": ["b", 0], "set": 2}])


class ChangesSeat(Seat):
    """A client that asks for changes and keeps its state up to date by applying them."""

    def __init__(self, client, table, secret, record=False):
        self.context = client.websocket_connect(f"/ws/{table}")
        self.ws = self.context.__enter__()
        self.closed = False
        OPEN_SEATS.append(self)
        self.ws.send_json({"type": "hello", "secret": secret, "version": None, "changes": True, "record": record})
        self.state = None
        self.refusals = []
        self.sizes = []
        self.next_state()

    def next_message(self):
        text = self.ws.receive_text()
        message = json.loads(text)
        if message["type"] == "update":
            self.sizes.append(len(text))
            assert message["base"] == self.state["version"], "an update follows the state last received"
            document = {key: self.state[key] for key in ("view", "last", "record") if key in self.state}
            document = apply(document, message["changes"])
            return {**self.state, **document, "type": "state", "version": message["version"],
                    "legal": message["legal"]}
        return message


def unplugged(state):
    """A state without who is connected (presence messages, which these clients do not
    follow, say that between versions) and without the record (asked for by one client)."""
    view = {**state["view"], "seats": [{**s, "connected": None} for s in state["view"]["seats"]]}
    return {**{k: v for k, v in state.items() if k != "record"}, "view": view}


def test_a_client_of_changes_sees_what_a_client_of_whole_states_sees(config, catalog):
    with serving(config, catalog) as client:
        created = create(client, seats=[{"name": "North"}, {"name": "East"}, {"bot": "random"}]).json()
        secrets = [secret_of(created["seats"][seat]["url"]) for seat in (0, 1)]
        whole = {seat: Seat(client, created["table"], secrets[seat]) for seat in (0, 1)}
        changes = {seat: ChangesSeat(client, created["table"], secrets[seat], record=seat == 1) for seat in (0, 1)}
        watcher = ChangesSeat(client, created["table"], secret_of(created["watch_url"]))
        rng = random.Random(3)
        for _ in range(400):
            state = whole[0].wait_for(lambda s: s["view"]["phase"] == "over" or
                                      s["view"]["seats"][s["view"]["to_move"]]["bot"] is None)
            for seat in (0, 1):
                for other in (whole[seat], changes[seat], watcher):
                    other.wait_version(state["version"])
                # The same state, however it came; the legal moves go to the seat to move only.
                assert unplugged(changes[seat].state) == unplugged(whole[seat].state)
            assert unplugged(watcher.state)["view"] == unplugged(state)["view"] and watcher.state["legal"] is None
            if state["view"]["phase"] == "over":
                break
            mover = state["view"]["to_move"]
            legal = changes[mover].state["legal"]
            move = rng.choice(legal["columns"] or legal["drafts"])["move"]
            changes[mover].move(move)
            whole[0].wait_version(state["version"] + 1)
        else:
            raise AssertionError("the game did not end")
        assert changes[1].state["record"]["result"] is not None
        # Most updates are a small fraction of the whole view (a move changes a few cells).
        view_size = len(json.dumps(state["view"]))
        sizes = sorted(watcher.sizes)
        assert sizes[len(sizes) // 2] < view_size / 4, (sizes[len(sizes) // 2], view_size)


def test_a_client_that_asks_again_gets_the_whole_state(config, catalog):
    with serving(config, catalog) as client:
        created = create(client).json()
        seat = ChangesSeat(client, created["table"], secret_of(created["seats"][0]["url"]))
        seat.ws.send_json({"type": "sync"})
        message = seat.ws.receive_json()
        while message["type"] == "presence":
            message = seat.ws.receive_json()
        assert message["type"] == "state" and message["version"] == seat.state["version"]
        assert message["view"] == seat.state["view"]
        seat.move(seat.state["legal"]["drafts"][0]["move"])
        update = seat.ws.receive_json()
        assert update["type"] == "update" and update["base"] == message["version"]
        assert update["version"] == message["version"] + 1
