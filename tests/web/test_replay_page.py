"""The replay page's server side (issue 23): a record replayed through the engine into the table
page's views, step by step; ``azul replay --web`` serving one record on loopback (with the same
trust rules as ``azul replay``); a finished online table's ``/t/{table}/replay``, refused while
the game goes on. The page itself in a browser: ``test_browser_replay.py``.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import warnings
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("starlette")
with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
from test_server import client, config, create, join_all, play_to_end, secret_of
from typer.testing import CliRunner

import azul_core.cli.replay  # noqa: F401  (registers the command)
from azul_core.cli.app import app
from azul_core.records.game_record import FORMAT, read_record, record_variant
from azul_core.web.replay_page import Replay, seat_events_by_step
from azul_core.web.replay_server import replay_app

ROOT = Path(__file__).resolve().parents[2]
STANDARD = ROOT / "tests" / "reference" / "records" / "standard.json"
#: test_server's fixtures, used here under their names
FIXTURES = (client, config)
ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}


def replay_of(path: Path) -> Replay:
    record = read_record(path)
    return Replay(record, record_variant(record), title=path.name)


# ---------------------------------------------------------------------------- the steps


def test_each_step_is_the_engines_position_told_in_words_with_each_rounds_scoring():
    record = read_record(STANDARD)
    replay = replay_of(STANDARD)
    index = replay.index()
    steps = index["steps"]
    # A step per deal and per action, in the record's order.
    assert len(steps) == sum(1 + len(entry.actions) for entry in record.rounds)
    assert [s["move"] for s in steps if s["move"]] == [a for entry in record.rounds for a in entry.actions]
    assert steps[0] == {"round": 1, "action": 0, "move": None, "text": "Round 1: the factories are filled",
                        "seat": None, "round_end": False}
    assert steps[1]["text"].startswith(f"{record.players[0]} takes ")  # table.describe's words
    # The round ends are the last action of each round, and each step shown there tells the
    # scoring of that round: the scores the record wrote.
    ends = [i for i, s in enumerate(steps) if s["round_end"]]
    assert [steps[i]["round"] for i in ends] == list(range(1, len(record.rounds) + 1))
    for number, at in enumerate(ends, 1):
        assert steps[at]["action"] == len(record.rounds[number - 1].actions)
        scoring = replay.step(at)["view"]["last_round"]
        assert scoring["round"] == number
        round_scores = record.rounds[number - 1].scores
        if number < len(record.rounds):  # the last round's scores come before the end bonuses
            assert [seat["score"] for seat in scoring["seats"]] == round_scores
        # Inside the next round, the last finished round is still shown (as on the table page).
        if at + 2 < len(steps):
            assert replay.step(at + 2)["view"]["last_round"]["round"] == number
    assert replay.step(1)["view"]["last_round"] is None
    final = replay.step(len(steps) - 1)["view"]
    assert final["phase"] == "over" and final["final"]["scores"] == record.result.scores
    assert index["over"] is True and index["problem"] is None
    assert replay.step(len(steps)) is None and replay.step(-1) is None


def test_a_record_that_stops_replaying_keeps_the_steps_before_and_says_where(tmp_path):
    data = json.loads(STANDARD.read_text())
    data["rounds"][1]["actions"][3] = "9R1"  # there is no factory 9
    data.pop("result", None)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    replay = replay_of(path)
    index = replay.index()
    assert "round 2 action 4" in index["problem"] and "9R1" in index["problem"]
    assert index["steps"][-1]["round"] == 2 and index["steps"][-1]["action"] == 3
    assert index["over"] is False


# ---------------------------------------------------------------------------- azul replay --web


def test_the_local_app_serves_the_page_the_index_and_each_step_to_loopback_only():
    replay = replay_of(STANDARD)
    with TestClient(replay_app(replay), base_url="http://127.0.0.1:8000") as client:
        page = client.get("/")
        assert page.status_code == 200 and "/static/js/replay.js" in page.text
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert client.get("/static/js/replay.js").status_code == 200
        assert client.get("/static/replay-cli.css").status_code == 200
        index = client.get("/api/replay").json()
        assert index["title"] == "standard.json" and len(index["steps"]) == len(replay.steps)
        step = client.get("/api/replay/5").json()
        assert step["step"] == 5 and step["text"] == index["steps"][5]["text"]
        assert {"seats", "factories", "centre", "last_round"} <= set(step["view"])
        missing = client.get(f"/api/replay/{len(replay.steps)}")
        assert missing.status_code == 404 and "steps 0 to" in missing.json()["error"]
        # A page of another site renamed to this address (DNS rebinding) is refused.
        assert client.get("/api/replay", headers={"host": "evil.example:8000"}).status_code == 421
        assert client.get("/api/replay", headers={"host": "localhost:8000"}).status_code == 200


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], env=ENV)


def test_replay_web_refuses_what_does_not_go_with_it(tmp_path):
    result = run("replay", "--web", "--final", STANDARD)
    assert result.exit_code == 2 and "--final and --at don't apply" in result.output
    result = run("replay", "--port", "8000", STANDARD)
    assert result.exit_code == 2 and "go with --web" in result.output
    result = run("replay", "--web", "--port", "70000", STANDARD)
    assert result.exit_code == 2 and "--port must be 0 to 65535" in result.output


def plugin_record(folder: Path, marker: Path) -> Path:
    """A finished-looking record whose variant file, beside it, runs a plugin file (which
    writes ``marker`` when imported)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "evil.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    (folder / "evil.yaml").write_text("name: evil\nextends: standard\nplugins: [standard, colour_wall, evil.py]\n")
    data = json.loads(STANDARD.read_text())
    path = folder / "game.json"
    path.write_text(json.dumps({**data, "variant": "evil.yaml", "format": FORMAT}))
    return path


def test_replay_web_runs_no_plugin_file_without_consent(tmp_path):
    marker = tmp_path / "ran"
    record = plugin_record(tmp_path / "recs", marker)
    result = run("replay", "--web", "--no-browser", record)
    assert result.exit_code == 1 and not marker.exists()
    assert "allow it with --variant" in result.output and "--trust" in result.output
    assert "Replay of" not in result.output  # nothing was served


class ReplayProcess:
    """``azul replay --web FILE --no-browser`` in a subprocess: its URL from the line it prints."""

    def __init__(self, *args: str):
        command = [sys.executable, "-m", "azul_core.cli", "replay", "--web", "--no-browser", *args]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            self._wait_until_it_answers()
        except BaseException:  # not started: the test's finally never holds it
            self.stop()
            raise

    def _wait_until_it_answers(self) -> None:
        line = self.process.stdout.readline()
        match = re.fullmatch(r"Replay of (.+) on (http://127\.0\.0\.1:(\d+)/)\n", line)
        if not match:
            self.stop()
            raise AssertionError((line, self.process.stderr.read()))
        self.title, self.url = match.group(1), match.group(2)
        assert self.process.stdout.readline() == "Ctrl-C stops.\n"
        deadline = time.monotonic() + 20
        while True:  # the line is printed just before uvicorn starts answering
            try:
                self.get("api/replay")
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.url + path, timeout=10) as answer:
            return json.loads(answer.read())

    def stop(self) -> int:
        """Ctrl-C, as the user stops it (SIGKILL if it still runs 10 s later, or if waiting failed)."""
        try:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGINT)
                self.process.wait(10)
        except subprocess.TimeoutExpired:
            pass
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def test_replay_web_serves_the_record_until_ctrl_c(tmp_path):
    served = ReplayProcess(str(STANDARD))
    try:
        assert served.title == "standard.json"
        index = served.get("api/replay")
        assert index["players"] == ["ref0", "ref1"] and index["over"] is True
        assert served.get("api/replay/0")["view"]["round"] == 1
    finally:
        assert served.stop() == 0


def test_replay_web_runs_the_records_plugin_file_when_the_user_allows_it(tmp_path):
    marker = tmp_path / "ran"
    record = plugin_record(tmp_path / "recs", marker)
    served = ReplayProcess("--variant", str(tmp_path / "recs" / "evil.yaml"), str(record))
    try:
        assert marker.exists()
        assert served.get("api/replay")["variant"] == "evil"
    finally:
        served.stop()


# ---------------------------------------------------------------------------- a finished online table


def test_a_finished_table_has_a_replay_for_its_links_and_an_unfinished_one_none(client):
    created = create(client, seats=[{"name": "North"}, {"bot": "greedy"}]).json()
    table = created["table"]
    watch = {"authorization": f"Bearer {secret_of(created['watch_url'])}"}
    # While the game goes on: the page sends back to the table, the API tells nothing.
    page = client.get(f"/t/{table}/replay", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == f"/t/{table}"
    refused = client.get(f"/api/tables/{table}/replay", headers=watch)
    assert refused.status_code == 409 and "once the game is over" in refused.json()["error"]
    assert client.get(f"/api/tables/{table}/replay/0", headers=watch).status_code == 409
    seats = join_all(client, created)
    last = play_to_end(seats, random.Random(4))
    assert last["view"]["phase"] == "over"
    page = client.get(f"/t/{table}/replay")
    assert page.status_code == 200 and "/static/js/replay.js" in page.text
    assert client.get(f"/api/tables/{table}/replay").status_code == 401  # a link's secret is needed
    assert client.get(f"/api/tables/{table}/replay",
                      headers={"authorization": "Bearer nope"}).status_code == 401
    index = client.get(f"/api/tables/{table}/replay", headers=watch).json()
    record = client.get(f"/api/tables/{table}/record", headers=watch).json()
    assert index["players"] == ["North", "greedy"]
    assert [s["move"] for s in index["steps"] if s["move"]] == [a for r in record["rounds"] for a in r["actions"]]
    final = client.get(f"/api/tables/{table}/replay/{len(index['steps']) - 1}", headers=watch).json()
    assert final["view"]["final"]["scores"] == last["view"]["final"]["scores"]
    assert final["view"]["seats"][1]["bot"] == "greedy"
    seat = {"authorization": f"Bearer {secret_of(created['seats'][0]['url'])}"}
    assert client.get(f"/api/tables/{table}/replay/3", headers=seat).json()["step"] == 3
    assert client.get(f"/api/tables/{table}/replay/99999", headers=seat).status_code == 404
    assert client.get("/t/nosuchtable/replay").status_code == 404
    for open_seat in seats.values():
        open_seat.close()


def test_the_replay_of_a_secret_game_shows_the_secrets_only_once_it_is_over(client, monkeypatch):
    created = create(client, variant="secret-goal", seats=[{"name": "Ann"}, {"bot": "random"}]).json()
    table = created["table"]
    watch = {"authorization": f"Bearer {secret_of(created['watch_url'])}"}
    ann = {"authorization": f"Bearer {secret_of(created['seats'][0]['url'])}"}
    for headers in (watch, ann):
        assert client.get(f"/api/tables/{table}/replay/0", headers=headers).status_code == 409
    seats = join_all(client, created)
    play_to_end(seats, random.Random(8))
    view = client.get(f"/api/tables/{table}/replay/1", headers=watch).json()["view"]
    # Over: every seat's secret is told, from the first step on.
    assert all(value is not None for values in view["secrets"].values() for value in values)
    for open_seat in seats.values():
        open_seat.close()



def test_a_finished_tables_replay_tells_a_seat_handed_to_a_bot_under_the_move_it_followed(client):
    created = create(client, seats=[{"name": "North"}, {"name": "East"}]).json()
    table = created["table"]
    watch = {"authorization": f"Bearer {secret_of(created['watch_url'])}"}
    seats = join_all(client, created)
    play_to_end(seats, random.Random(5), moves=3)
    admin = {"Authorization": f"Bearer {created['admin_secret']}"}
    assert client.post(f"/api/tables/{table}/seats/1/bot", json={"bot": "greedy"}, headers=admin).status_code == 200
    seats.pop(1).close()
    seats[0].wait_for(lambda state: state["view"]["seats"][1]["bot"] == "greedy")
    play_to_end(seats, random.Random(5))
    index = client.get(f"/api/tables/{table}/replay", headers=watch).json()
    third_move = [i for i, step in enumerate(index["steps"]) if step["move"]][2]
    assert index["seat_events"] == [{"step": third_move, "seat": 1, "event": "bot",
                                     "text": "East's seat is played by the bot 'greedy' from now on"}]
    # A rematch made once the replay was read is told too, under the last move.
    north = {"authorization": f"Bearer {secret_of(created['seats'][0]['url'])}"}
    assert client.post(f"/api/tables/{table}/rematch", json={}, headers=north).status_code in (200, 201)
    index = client.get(f"/api/tables/{table}/replay", headers=watch).json()
    last_move = [i for i, step in enumerate(index["steps"]) if step["move"]][-1]
    assert [(event["step"], event["event"], event["text"]) for event in index["seat_events"]] == [
        (third_move, "bot", "East's seat is played by the bot 'greedy' from now on"),
        (last_move, "rematch", "North made a rematch: a new table with the same seats and variant")]
    for open_seat in seats.values():
        open_seat.close()


def _step(move: str | None) -> SimpleNamespace:
    return SimpleNamespace(move=move)


@pytest.mark.parametrize("log, expected", [
    ([], []),
    # before any move: under the first deal
    ([{"event": "bot", "seat": 0, "text": "a"}, {"move": "1B1"}], [0]),
    # after the second move (step 3: deal, move, move); a round's points in between count for nothing
    ([{"move": "1B1"}, {"round": 1, "points": [1, 0]}, {"move": "2R2"}, {"event": "reclaim", "seat": 1, "text": "b"},
      {"move": "3K3"}], [2]),
    # a rematch after the last move, and more moves in the log than the replay's steps (a record
    # that stopped replaying): under the last step there is
    ([{"move": "1B1"}, {"move": "2R2"}, {"move": "3K3"}, {"move": "4Y4"}, {"event": "rematch", "seat": None,
                                                                         "text": "c"}], [4]),
])
def test_each_seat_event_is_placed_under_the_step_of_the_last_move_before_it(log, expected):
    steps = [_step(None), _step("1B1"), _step("2R2"), _step(None), _step("3K3")]
    assert [event["step"] for event in seat_events_by_step(log, steps)] == expected


def test_a_replay_with_no_step_places_no_seat_event():
    assert seat_events_by_step([{"event": "bot", "seat": 0, "text": "a"}], []) == []


def test_a_records_replay_has_no_seat_event():
    assert replay_of(STANDARD).index()["seat_events"] == []
