"""Issue 41: the endless game and what its replay costs the table server.

Drafting only to the floor is legal, and before the round limit nothing ended such a game:
a 30,000-move game's replay blocked the event loop for 1.8 s and took 385 MB, with 8 replays
kept. Now the game ends after round 50, a finished table's replay is made in a worker thread
(the loop serves the other tables meanwhile), once however many ask, and the replays kept
are bounded in number and in steps (``replay_page.KeptReplays``). ``bench/endless_game.py``
makes the endless game's record.
"""

from __future__ import annotations

import asyncio
import random
import threading
import warnings
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("starlette")
with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: F401  (test_server's fixtures need it)
from test_server import client, config, create, join_all, play_to_end, secret_of

from azul_core.records.game_record import parse_record, read_record, record_variant, validate_record
from azul_core.web import replay_page
from azul_core.web.replay_page import KeptReplays

ROOT = Path(__file__).resolve().parents[2]
STANDARD = ROOT / "tests" / "reference" / "records" / "standard.json"
#: test_server's fixtures, used here under their names
FIXTURES = (client, config)
#: how long a replay made on the loop by mistake would wait for the loop, in vain (a guard
#: against a hung test, not a measure: the order of events is what is checked)
GUARD_SECONDS = 5


def finished_table(name: str, path: Path = STANDARD, version: int = 1) -> SimpleNamespace:
    """What ``KeptReplays`` reads of a finished table, for the game of the record at ``path``."""
    record = read_record(path)
    return SimpleNamespace(id=name, version=version, over=True, record=lambda seat: record,
                           offered=SimpleNamespace(variant=record_variant(record), key="standard"),
                           seats=[SimpleNamespace(bot=None) for _ in record.players],
                           progress=SimpleNamespace(log=[]))


@pytest.fixture
def endless_record(load_bench, tmp_path):
    """A game in which every draft went to the floor, to the round limit (50 rounds)."""
    return load_bench("endless_game").write_endless(tmp_path, None)


def test_a_replay_is_made_in_a_worker_thread_while_the_loop_goes_on(monkeypatch):
    events = []
    started, release = threading.Event(), threading.Event()

    class WatchedReplay(replay_page.Replay):
        def __init__(self, *args, **kwargs):
            try:
                asyncio.get_running_loop()
                events.append("made on the event loop")
            except RuntimeError:
                pass
            started.set()
            release.wait(GUARD_SECONDS)
            super().__init__(*args, **kwargs)
            events.append("made")

    monkeypatch.setattr(replay_page, "Replay", WatchedReplay)
    kept = KeptReplays()

    async def scenario():
        making = asyncio.ensure_future(kept.replay_of(finished_table("t1")))
        await asyncio.sleep(0)
        await asyncio.to_thread(started.wait, GUARD_SECONDS)
        events.append("the loop ran another task")  # another table's ping, a move
        release.set()
        return await making

    replay = asyncio.run(scenario())
    assert events == ["the loop ran another task", "made"]
    assert replay.index()["over"] is True


def test_a_replay_asked_for_by_many_at_once_is_made_once(monkeypatch):
    made = []

    class CountedReplay(replay_page.Replay):
        def __init__(self, *args, **kwargs):
            made.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(replay_page, "Replay", CountedReplay)
    kept = KeptReplays()
    table = finished_table("t1")

    async def scenario():
        return await asyncio.gather(*(kept.replay_of(table) for _ in range(5)))

    replays = asyncio.run(scenario())
    assert len(made) == 1 and all(replay is replays[0] for replay in replays)
    asyncio.run(kept.replay_of(table))
    assert len(made) == 1  # kept


def test_the_replays_kept_are_bounded_in_number_and_in_steps(endless_record):
    steps = len(replay_page.Replay(read_record(endless_record), record_variant(read_record(endless_record))).steps)
    assert steps > 700  # the endless game at the round limit: its replay is the largest one

    async def ask(kept, names):
        for name in names:
            await kept.replay_of(finished_table(name, endless_record))

    by_number = KeptReplays(count=3, steps=10**9)
    asyncio.run(ask(by_number, ["a", "b", "c", "d", "e"]))
    assert list(by_number._kept) == ["c", "d", "e"]
    by_steps = KeptReplays(count=8, steps=2 * steps + 1)
    asyncio.run(ask(by_steps, ["a", "b", "c", "d", "e"]))
    assert list(by_steps._kept) == ["d", "e"] and by_steps.steps_held() == 2 * steps
    # One replay larger than the budget is still kept (alone): else each step would remake it.
    small = KeptReplays(count=8, steps=10)
    asyncio.run(ask(small, ["a", "b"]))
    assert list(small._kept) == ["b"]
    # The server's own budget holds the 8 largest replays a game of 50 rounds can make.
    assert replay_page.REPLAY_STEPS_KEPT >= replay_page.REPLAYS_KEPT * 1400


def test_the_endless_game_at_the_table_ends_at_the_round_limit_and_replays(client):
    """The attack, at the server: every draft to the floor, as long as the game lets it."""
    created = create(client, seats=[{"name": "North"}, {"name": "East"}]).json()
    table = created["table"]
    watch = {"authorization": f"Bearer {secret_of(created['watch_url'])}"}
    seats = join_all(client, created)

    def to_the_floor(legal, state):
        return next(draft["move"] for draft in legal["drafts"] if draft["move"].endswith("-"))

    last = play_to_end(seats, random.Random(41), choose=to_the_floor)
    assert last["view"]["phase"] == "over"
    download = client.get(f"/api/tables/{table}/record", headers=watch)
    record = parse_record(download.text)
    assert len(record.rounds) == 50 and record.result.scores == [0, 0]
    index = client.get(f"/api/tables/{table}/replay", headers=watch).json()
    assert index["over"] is True and index["problem"] is None
    assert len(index["steps"]) == sum(1 + len(entry.actions) for entry in record.rounds)
    final = client.get(f"/api/tables/{table}/replay/{len(index['steps']) - 1}", headers=watch).json()
    assert final["view"]["phase"] == "over"
    for open_seat in seats.values():
        open_seat.close()


def test_the_endless_games_record_validates(endless_record):
    report = validate_record(endless_record)
    assert report["valid"] and report["finished"], report


def test_a_record_download_is_written_out_in_a_worker_thread(client, monkeypatch):
    import azul_core.web.app as app_module
    threads = []
    real = app_module.dumps_record

    def watched_dumps_record(data):
        try:
            asyncio.get_running_loop()
            threads.append("the event loop")
        except RuntimeError:
            threads.append("a worker")
        return real(data)

    monkeypatch.setattr(app_module, "dumps_record", watched_dumps_record)
    created = create(client, seats=[{"name": "North"}, {"name": "East"}]).json()
    watch = {"authorization": f"Bearer {secret_of(created['watch_url'])}"}
    answer = client.get(f"/api/tables/{created['table']}/record", headers=watch)
    assert answer.status_code == 200 and parse_record(answer.text).players == ["North", "East"]
    assert threads == ["a worker"]
