"""Search bots of the table server think in worker processes, tables take turns for a worker,
and one address has a bounded number of tables with search bots (issue 21).

The bot of these tests, from a house rule's plugin, writes its process id and its seed (which
names its table) to a log: the log shows where and in which order the bots thought.
"""

from __future__ import annotations

import os
import textwrap
import time
import warnings

import pytest

starlette = pytest.importorskip("starlette")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: F401,E402
from test_server import EXAMPLES, create, make_config, secret_of, serving  # noqa: E402

from azul_core.web.catalog import build_catalog  # noqa: E402


def logging_bot_variant(folder, log) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "logbot.py").write_text(textwrap.dedent(f"""
        import os

        class LogBot:
            def __init__(self, seed=None, think=None):
                self.seed = seed

            def choose(self, state):
                with open({str(log)!r}, "a") as log:
                    log.write(f"{{os.getpid()}} {{self.seed}}\\n")
                return state.legal_decisions()[0]

        def azul_register_bots():
            return {{"logbot": LogBot}}
    """))
    (folder / "logbot.yaml").write_text("extends: standard\nplugins: [standard, colour_wall, logbot.py]\n")


def wait_until(predicate, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def thoughts(log) -> list[tuple[int, str]]:
    """(process id, table seed) of each decision the bots made, in order."""
    if not log.exists():
        return []
    lines = [line.split(" ", 1) for line in log.read_text().splitlines()]
    return [(int(pid), seed.split(":seat:")[0]) for pid, seed in lines]


@pytest.fixture
def logbot(tmp_path):
    log = tmp_path / "thoughts.log"
    logging_bot_variant(tmp_path / "variants", log)
    return build_catalog([tmp_path / "variants"]), log


def test_search_bots_think_in_worker_processes(tmp_path, logbot):
    catalog, log = logbot
    config = make_config(tmp_path, bot_workers=1)
    with serving(config, catalog) as client:
        created = create(client, "logbot", [{"bot": "logbot"}, {"bot": "logbot"}]).json()
        table = client.app.server.table(created["table"])
        assert wait_until(lambda: table.over)
        answer = client.get(f"/api/tables/{created['table']}/record",
                            headers={"Authorization": f"Bearer {secret_of(created['watch_url'])}"})
        assert answer.json()["result"] is not None
    pids = {pid for pid, _seed in thoughts(log)}
    assert len(pids) == 1 and os.getpid() not in pids  # one worker, not the server's process


def test_tables_take_turns_for_a_worker(tmp_path, logbot):
    catalog, log = logbot
    config = make_config(tmp_path, bot_workers=1)
    with serving(config, catalog) as client:
        tables = [client.app.server.table(create(client, "logbot", [{"bot": "logbot"}] * 4).json()["table"])
                  for _ in range(3)]
        assert wait_until(lambda: all(table.over for table in tables), 120)
    order = [seed for _pid, seed in thoughts(log)][:60]
    assert len(set(order)) == 3
    for start in range(len(order) - 2):  # first come, first served: no table is asked twice in a row
        assert len(set(order[start:start + 3])) == 3, order[start:start + 3]


def test_one_address_has_a_bounded_number_of_search_bot_tables(tmp_path):
    config = make_config(tmp_path, search_tables_per_address=2)
    with serving(config, build_catalog([EXAMPLES])) as client:
        person_then_mcts = [{"name": "Ana"}, {"bot": "mcts"}]  # the person moves first: no bot thinks
        assert create(client, seats=person_then_mcts).status_code == 201
        assert create(client, seats=person_then_mcts).status_code == 201
        answer = create(client, seats=person_then_mcts)
        assert answer.status_code == 429 and "search bot" in answer.json()["error"]
        assert create(client, seats=[{"name": "Ana"}, {"bot": "greedy"}]).status_code == 201
        people = create(client, seats=[{"name": "Ana"}, {"name": "Bo"}]).json()
        answer = client.post(f"/api/tables/{people['table']}/seats/1/bot", json={"bot": "mcts"},
                             headers={"Authorization": f"Bearer {people['admin_secret']}"})
        assert answer.status_code == 429
        answer = client.post(f"/api/tables/{people['table']}/seats/1/bot", json={"bot": "greedy"},
                             headers={"Authorization": f"Bearer {people['admin_secret']}"})
        assert answer.status_code == 200


def test_a_worker_that_dies_is_replaced_and_the_table_goes_on(tmp_path):
    marker = tmp_path / "died-once"
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "diebot.py").write_text(textwrap.dedent(f"""
        import os

        class DieBot:
            def __init__(self, seed=None, think=None):
                pass

            def choose(self, state):
                if not os.path.exists({str(marker)!r}):
                    open({str(marker)!r}, "w").close()
                    os._exit(1)  # the worker process dies (killed, out of memory...)
                return state.legal_decisions()[0]

        def azul_register_bots():
            return {{"diebot": DieBot}}
    """))
    (folder / "diebot.yaml").write_text("extends: standard\nplugins: [standard, colour_wall, diebot.py]\n")
    config = make_config(tmp_path, bot_workers=1)
    with serving(config, build_catalog([folder])) as client:
        table = client.app.server.table(create(client, "diebot", [{"bot": "diebot"}] * 2).json()["table"])
        assert wait_until(lambda: table.over)
    assert marker.exists()
