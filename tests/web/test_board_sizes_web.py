"""A board of other than five colours at the online table, in process (Starlette's TestClient;
issue 40, "the board as data"): a variant of six colours (the standard plugin's setting
``colours: 6`` adds orange) has a 6x6 wall and six pattern lines in every view, a colour legend
with each colour's letter and look, drafts in notation with the variant's letters, line 6 and the
floor (line 6 in the protocol) taken by notation; the game goes on after a restart, a bot plays it
to the end, its replay draws 6x6 walls and ``azul play --join`` plays it. Eight colours and four
render too. The page in a browser: ``test_browser_board_sizes.py``.
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from test_plugin_moves_web import Game, Socket, join, serving  # noqa: E402

from azul_core.engine.notation import format_decision  # noqa: E402
from azul_core.web.app import Config  # noqa: E402
from azul_core.web.bots import think  # noqa: E402
from azul_core.web.catalog import build_catalog  # noqa: E402

SIZES = {"four-colours": 4, "six-colours": 6, "eight-colours": 8}
LOOKS = {"blue": "#2166c4", "yellow": "#f2c42c", "red": "#c8372d", "black": "#262626", "white": "#fbfaf5",
         "orange": "#e8772e", "green": "#3a9a4a", "purple": "#7b4fb0"}
LETTERS = dict(zip(LOOKS, "BYRKWOGP"))


def write_sized_variants(folder: Path) -> Path:
    for name, size in SIZES.items():
        (folder / f"{name}.yaml").write_text(f"name: {name}\nextends: standard\nsettings:\n  colours: {size}\n")
    return folder


@pytest.fixture(scope="module")
def sized_folder(tmp_path_factory) -> Path:
    return write_sized_variants(tmp_path_factory.mktemp("sizes"))


@pytest.fixture(scope="module")
def catalog(sized_folder):
    built = build_catalog([sized_folder])
    assert set(SIZES) <= set(built.variants), built.problems
    return built


@pytest.fixture
def config(tmp_path, sized_folder):
    seeds = itertools.count(1)
    return Config(data=tmp_path / "data", variant_dirs=(sized_folder,), bot_delay=0, think=0.05,
                  seed_factory=lambda: f"sizes-{next(seeds)}")


@pytest.fixture
def client(config, catalog):
    with serving(config, catalog) as test_client:
        yield test_client


def check_board_size(view: dict, size: int) -> None:
    """Every seat's board has ``size`` pattern lines (1 to ``size`` spaces) and a ``size`` x
    ``size`` wall whose every row and column has each colour printed once."""
    names = [colour["name"] for colour in view["colours"]]
    assert len(names) == size and view["floor_line"] == size
    for seat in view["seats"]:
        assert [line["capacity"] for line in seat["lines"]] == list(range(1, size + 1))
        wall = seat["wall"]
        assert len(wall) == size and all(len(row) == size for row in wall)
        printed = [[cell["pattern"] for cell in row] for row in wall]
        assert all(sorted(row) == sorted(names) for row in printed)
        assert all(sorted(column) == sorted(names) for column in zip(*printed))


def check_notation(legal: dict, view: dict) -> None:
    """Each draft is written with its colour's letter (the legend's), its line 1 to n or - ."""
    letter = {colour["name"]: colour["letter"] for colour in view["colours"]}
    floor = view["floor_line"]
    for draft in legal["drafts"]:
        line = "-" if draft["line"] == floor else str(draft["line"] + 1)
        source = "C" if draft["source"] == 0 else str(draft["source"])
        assert draft["move"] == f"{source}{letter[draft['colour']]}{line}", draft
        assert 0 <= draft["line"] <= floor


def test_a_six_colour_table_draws_a_six_by_six_board_and_its_colours(client):
    game = Game(client, "six-colours", [{"name": "Ann"}, {"name": "Bob"}])
    for socket in game.sockets:  # each seat's view and the watcher's
        view = socket.state["view"]
        check_board_size(view, 6)
        assert view["colours"] == [{"name": name, "letter": LETTERS[name], "look": LOOKS[name]}
                                   for name in ["blue", "yellow", "red", "black", "white", "orange"]]
        assert "kinds" not in view  # orange is a colour, not an extra tile
    tiles = [tile for factory in game.view["factories"] for tile in factory]
    assert len(tiles) == 20 and "orange" in tiles
    legal = game.legal()
    check_notation(legal, game.view)
    lines = {draft["line"] for draft in legal["drafts"]}
    assert lines == set(range(7))  # six pattern lines and the floor
    assert {draft["colour"] for draft in legal["drafts"]} == set(tiles)
    game.close()


def test_drafts_to_line_six_and_to_the_floor_by_the_variants_letters(client):
    game = Game(client, "six-colours", [{"name": "Ann"}, {"name": "Bob"}])
    # Orange onto line 6, as the page sends it: "<factory>O6".
    orange = next(d for d in game.legal()["drafts"] if d["colour"] == "orange" and d["line"] == 5)
    assert re.fullmatch(r"[1-9]O6", orange["move"])
    seat = game.view["to_move"]
    taken = game.view["factories"][orange["source"] - 1].count("orange")
    game.move(orange["move"])
    line = game.view["seats"][seat]["lines"][5]
    assert (line["colour"], line["count"], line["capacity"]) == ("orange", taken, 6)
    assert game.watch.state["last"]["text"].endswith("to line 6")
    assert game.watch.state["last"]["move"] == orange["move"]

    # Then a draft to the floor: line 6 in the protocol, "-" in notation.
    seat = game.view["to_move"]
    floor = next(d for d in game.legal()["drafts"] if d["line"] == 6)
    assert floor["move"].endswith("-")
    game.move(floor["move"])
    fallen = [space["tile"] for space in game.view["seats"][seat]["floor"] if space["tile"]]
    assert fallen and set(fallen) <= {floor["colour"], "marker"}
    assert all(line["count"] == 0 for line in game.view["seats"][seat]["lines"])

    # Words work too, and a letter the variant lacks is refused in one line.
    mover = game.mover()
    assert "\n" not in mover.refused("1G1")
    legal = game.legal()
    by_words = next(d for d in legal["drafts"] if d["source"] > 0 and d["line"] == 5)
    game.move(f"{by_words['source']} {by_words['colour']} 6")
    assert game.watch.state["last"]["move"] == by_words["move"]

    # The record holds the variant's letters and replays through the engine.
    record = game.record(game.watch_secret)
    assert record["rounds"][0]["actions"][:3] == [orange["move"], floor["move"], by_words["move"]]
    assert any("O" in factory for factory in record["rounds"][0]["factories"])
    game.close()


def board_parts(view: dict) -> list:
    return [(seat["lines"], seat["wall"], seat["floor"], seat["score"]) for seat in view["seats"]]


def ann_to_move(ann: Socket) -> bool:
    """Wait until it is Ann's turn (True) or the game is over (False)."""
    while ann.state["view"]["phase"] != "over":
        if ann.state.get("legal") is not None and ann.state["view"]["to_move"] == 0:
            return True
        ann.next_state()
    return False


def test_a_six_colour_table_survives_a_restart_and_a_bot_plays_it_to_its_end(config, catalog):
    rng = random.Random(11)
    played = []
    with serving(config, catalog) as client:
        game = Game(client, "six-colours", [{"name": "Ann"}, {"bot": "greedy"}])
        table, secret = game.id, game.secrets[0]
        game.watch.close()
        ann = game.seats[0]
        while len(played) < 8 and ann_to_move(ann):
            drafts = ann.state["legal"]["drafts"]
            # Orange and line 6 first: the moves the standard letters can't write.
            wide = [d for d in drafts if d["colour"] == "orange" or d["line"] == 5]
            move = rng.choice(wide or drafts)["move"]
            ann.send(move)
            assert ann.next_state()["type"] == "state"
            played.append(move)
        assert ann_to_move(ann)
        before = board_parts(ann.state["view"])
        ann.close()
    assert any(re.fullmatch(r"[C1-9]O[1-6-]", move) for move in played), played
    # A new server reads the table's moves back from its store, in the variant's letters.
    with serving(config, catalog) as client:
        ann = Socket(client, table, secret)
        assert board_parts(ann.state["view"]) == before
        check_board_size(ann.state["view"], 6)
        while ann_to_move(ann):
            ann.send(rng.choice(ann.state["legal"]["drafts"])["move"])
            assert ann.next_state()["type"] == "state"
        final = ann.state["view"]["final"]
        assert final is not None and len(final["scores"]) == 2
        answer = client.get(f"/api/tables/{table}/record", headers={"Authorization": f"Bearer {secret}"})
        actions = [action for entry in answer.json()["rounds"] for action in entry["actions"]]
        assert len(actions) > len(played)
        # The replay of the finished table draws every step's board 6 x 6.
        watch = {"authorization": f"Bearer {secret}"}
        index = client.get(f"/api/tables/{table}/replay", headers=watch).json()
        assert index["over"] and index["problem"] is None
        for step in (0, 1, len(index["steps"]) // 2, len(index["steps"]) - 1):
            check_board_size(client.get(f"/api/tables/{table}/replay/{step}", headers=watch).json()["view"], 6)
        ann.close()


@pytest.mark.parametrize("variant", ["eight-colours", "four-colours"])
def test_eight_and_four_colours_render_and_play(client, variant):
    size = SIZES[variant]
    game = Game(client, variant, [{"name": "Ann"}, {"name": "Bob"}])
    check_board_size(game.view, size)
    assert [colour["letter"] for colour in game.view["colours"]] == list("BYRKWOGP"[:size])
    assert all(colour["look"] == LOOKS[colour["name"]] for colour in game.view["colours"])
    for _ in range(6):
        legal = game.legal()
        check_notation(legal, game.view)
        last_line = [d for d in legal["drafts"] if d["line"] == size - 1]
        game.move((last_line or legal["drafts"])[-1]["move"])
    check_board_size(game.view, size)
    assert any(line["count"] for seat in game.view["seats"] for line in seat["lines"][size - 1:])
    game.close()


def test_the_search_bots_worker_writes_the_variants_letters(client, sized_folder):
    """``bots.think`` (the search bots' worker, the hints' too) answers in the variant's notation:
    each answer is one of the moves the table offers."""
    game = Game(client, "six-colours", [{"name": "Ann"}, {"name": "Bob"}])
    answers = []
    for turn in range(10):
        seat = game.view["to_move"]
        record = game.record(game.secrets[seat])
        answer = think(str(sized_folder / "six-colours.yaml"), record, "greedy", f"think-{turn}", None)
        assert answer in {d["move"] for d in game.legal()["drafts"]}, answer
        answers.append(answer)
        game.move(answer)
    assert any(re.fullmatch(r"[C1-9](O.|.6)", answer) for answer in answers), answers
    game.close()


def test_join_plays_a_six_colour_table_by_its_letters(client, monkeypatch, sized_folder):
    """``azul play --join``: the moves typed with orange's letter and line 6 are read, sent and
    played (the client checks the notation with the variant's letters before sending)."""
    monkeypatch.setenv("AZUL_VARIANTS_PATH", str(sized_folder))
    game = Game(client, "six-colours", [{"name": "Ana"}, {"bot": "greedy"}])
    game.seats[0].close()
    rng = random.Random(4)
    session = output = None
    typed: list[str] = []

    def read(prompt):
        # A move the client would not send is asked for again: a game has far fewer turns.
        assert len(typed) < 200, f"the client keeps asking: {output.getvalue()[-500:]}"
        state = session.state
        letters = state.rules.colour_letters
        decisions = [d for d in state.legal_decisions() if len(d) == 3]
        wide = [d for d in decisions if d[1] == 5 or d[2] == 5]
        move = format_decision(rng.choice(wide or decisions), letters)
        typed.append(move)
        return move

    session, output = join(client, game.created["seats"][0]["url"], read, "six-colours", sized_folder)
    assert session.run() == 0
    text = output.getvalue()
    assert "Final scores" in text
    record = game.record(game.watch_secret)
    actions = [action for entry in record["rounds"] for action in entry["actions"]]
    assert typed and all(move in actions for move in typed)  # every move typed was played
    assert any("O" in move for move in typed) and any(move.endswith("6") for move in typed)
    game.close()
