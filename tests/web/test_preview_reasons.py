"""On your turn at the online table: the points preview of each legal draft (worked out on the
server through the variant's rules, checked here against the engine playing the round out), and
the reason a line or a wall space that can't take the picked tiles gives, which is the server's
reason for that move sent.

In process (Starlette's TestClient, and the engine directly) and in Chromium (Playwright, as
test_browser.py).
"""

from __future__ import annotations

import json
import random
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from test_browser import DESKTOP, Person, browser, play, server, shots  # noqa: E402,F401  (fixtures)
from test_server import Seat, create, make_config, receive_json, secret_of, serving  # noqa: E402

from azul_core.engine.state import DRAFT, FLOOR, GameState  # noqa: E402
from azul_core.players.refusal_words import line_refusal_words  # noqa: E402
from azul_core.players.render import new_placements  # noqa: E402
from azul_core.records.game_record import record_from_data, replay_state  # noqa: E402
from azul_core.variants import load_variant  # noqa: E402
from azul_core.web.views import build_legal, build_legal_json  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def round_played_out(state: GameState) -> GameState:
    """The round to its end, every later draft sent to the floor (so no other tile reaches the
    mover's wall or lines): the engine tiles the walls and scores."""
    played = state.clone()
    round_number = played.round
    while played.round == round_number and played.phase == DRAFT:
        played.apply(next(d for d in played.legal_decisions() if not hasattr(d, "notation") and d[2] == FLOOR))
    return played


def engine_figures(state: GameState, decision: tuple) -> dict:
    """What the engine does with a draft: the tiles (and the marker) it sends to the floor, what
    the floor then costs more, and, when it fills its line, what that line's tile scores when
    the round is played out."""
    seat = state.to_move
    before = state.players[seat]
    after = state.clone()
    after.apply(decision)
    board = after.players[seat]
    penalty = state.rules.floor_penalty
    figures = {"fallen": len(board.floor) - len(before.floor),
               "cost": penalty(board.floor, seat, after) - penalty(before.floor, seat, state)}
    line = decision[2]
    if line != FLOOR and board.line_count[line] == state.rules.capacity[line]:
        ended = round_played_out(after)
        figures["points"] = [points for who, row, _column, _colour, points in new_placements(after, ended)
                             if who == seat and row == line]
    return figures


@pytest.mark.parametrize("variant", ["standard", "double-red", "family-floor", "marker-fee"])
def test_the_preview_of_each_draft_is_what_the_engine_does(catalog, variant):
    rules = catalog.variants[variant].variant.rules
    rng = random.Random(variant)
    checked = full = falling = 0
    for game in range(12):
        state = GameState(rules, 3)
        state.deal(random.Random(f"{variant}:{game}"))
        for _ in range(rng.randrange(0, 9)):
            state.apply_random(rng.random)
            if state.phase != DRAFT:
                break
        if state.phase != DRAFT:
            continue
        legal = build_legal(state)
        assert json.loads(build_legal_json(state)) == legal, "the fast JSON is the plain one"
        for draft in legal["drafts"]:
            decision = (draft["source"], ["blue", "yellow", "red", "black", "white"].index(draft["colour"]), draft["line"])
            if state.sources[decision[0]][decision[1]] == state.tiles_on_table:
                continue  # the draft ends the round: the floor is scored and cleared at once
            preview, engine = legal["previews"][draft["preview"]], engine_figures(state, decision)
            assert preview["floor"] + preview["marker"] == engine["fallen"], (draft, engine)
            assert preview["cost"] == engine["cost"], (draft, engine)
            if "points" in engine:
                assert preview["complete"] and preview["missing"] == 0
                assert [space["points"] for space in preview["wall"]] == engine["points"], (draft, engine)
                full += 1
            elif draft["line"] != FLOOR:
                assert not preview["complete"] and preview["missing"] > 0 and len(preview["wall"]) == 1
            else:
                assert preview["wall"] == []
            falling += bool(engine["fallen"])
            checked += 1
    assert checked > 100 and full > 10 and falling > 10, (checked, full, falling)


def test_a_grey_wall_preview_offers_each_column_and_its_points():
    rules = load_variant("grey-wall").rules
    state = GameState(rules, 2)
    state.deal(random.Random("grey"))
    legal = build_legal(state)
    drafts = [d for d in legal["drafts"] if d["line"] == 0]
    # An empty grey wall: line 1's tile may go to any column, for 1 point each.
    assert drafts and all(legal["previews"][d["preview"]]["wall"] == [{"column": c, "points": 1} for c in range(5)] for d in drafts)


def test_a_check_says_what_a_sent_move_would_be_told_and_changes_nothing(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as client:
        created = create(client).json()
        table = created["table"]
        north = Seat(client, table, secret_of(created["seats"][0]["url"]))
        east = Seat(client, table, secret_of(created["seats"][1]["url"]))
        version = north.state["version"]
        first = north.state["legal"]["drafts"][0]
        north.move(first["move"])
        north.wait_version(version + 1)
        east.wait_version(version + 1)

        def check(seat: Seat, move: str, at: int | None = None) -> dict:
            seat.ws.send_json({"type": "check", "version": seat.state["version"] if at is None else at, "move": move})
            while True:
                message = receive_json(seat.ws)
                if message["type"] == "checked":
                    return message

        def sent(seat: Seat, move: str) -> str:
            seat.move(move)
            return seat.refused()["reason"]

        legal = {d["move"] for d in east.state["legal"]["drafts"]}
        # A colour a factory lacks: the engine's refusal.
        factories = east.state["view"]["factories"]
        illegal = next(f"{number}{letter}1" for number, tiles in enumerate(factories, 1) if tiles
                       for letter, colour in zip("BYRKW", ("blue", "yellow", "red", "black", "white"))
                       if colour not in tiles)
        for seat, move, at in ((east, illegal, None), (north, "1B1", None), (east, "zz", None),
                               (east, next(iter(legal)), version)):
            answer = check(seat, move, at)
            assert answer["move"] == move and answer["reason"]
            assert answer["reason"] == sent(seat, move) if at is None else "moved on" in answer["reason"]
        assert check(east, next(iter(legal)))["reason"] is None
        # Nothing was taken: the table is where it was.
        assert east.state["version"] == version + 1
        east.ws.send_json({"type": "sync"})
        synced = receive_json(east.ws)
        while synced["type"] != "state":
            synced = receive_json(east.ws)
        assert synced["version"] == version + 1
        north.close()
        east.close()


def test_a_check_of_a_wall_space_gives_the_placement_s_refusal(tmp_path, catalog):
    with serving(make_config(tmp_path), catalog) as client:
        created = create(client, "grey-wall").json()
        table = created["table"]
        seats = {entry["seat"]: Seat(client, table, secret_of(entry["url"])) for entry in created["seats"]}
        rng = random.Random(4)
        for _ in range(200):
            state = seats[0].wait_for(lambda s: True)
            mover = seats[state["view"]["to_move"]]
            mover.wait_version(state["version"])
            legal = mover.state["legal"]
            if legal["columns"]:
                break
            mover.move(rng.choice(legal["drafts"])["move"])
            for seat in seats.values():
                seat.wait_version(state["version"] + 1)
        else:
            raise AssertionError("no wall column was asked for")
        row = legal["columns"][0]["row"]
        taken = {c["column"] for c in legal["columns"]}
        for move in [f"w{row + 1}:{column + 1}" for column in range(5) if column not in taken] + [f"w{(row + 1) % 5 + 1}:1"]:
            mover.ws.send_json({"type": "check", "version": mover.state["version"], "move": move})
            answer = receive_json(mover.ws)
            while answer["type"] != "checked":
                answer = receive_json(mover.ws)
            mover.move(move)
            assert answer["reason"] and answer["reason"] == mover.refused()["reason"], move
        for seat in seats.values():
            seat.close()


def test_help_and_question_mark_are_answered_as_at_the_terminal(tmp_path, catalog):
    from azul_core.players.render import draw_legal, render_text
    with serving(make_config(tmp_path), catalog) as client:
        created = create(client).json()
        table = created["table"]
        north = Seat(client, table, secret_of(created["seats"][0]["url"]))
        east = Seat(client, table, secret_of(created["seats"][1]["url"]))

        def ask(seat: Seat, query: str) -> str:
            seat.ws.send_json({"type": "help", "query": query})
            while True:
                message = receive_json(seat.ws)
                if message["type"] == "help":
                    return message["text"]

        state = client.app.server.tables[table].state
        assert ask(north, "?") == render_text(draw_legal(state)).rstrip()
        assert ask(north, "? 3") == render_text(draw_legal(state, 3, None)).rstrip()
        assert "filter by a factory number" in ask(north, "? purple")
        assert "It is North's turn" in ask(east, "?")
        text = ask(east, "help")
        assert text.startswith("Type a move in record notation or in words")
        assert "w1:3" in text and "? C" in text and "undo" not in text  # the page's commands, not the terminal's
        north.close()
        east.close()


# ---------------------------------------------------------------------------- in the browser


def engine_state(running, table: dict) -> GameState:
    secret = secret_of(table["seats"][0]["url"])
    request = urllib.request.Request(f"{running.url}/api/tables/{table['table']}/record",
                                     headers={"Authorization": f"Bearer {secret}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return replay_state(record_from_data(json.load(answer)))


def test_the_page_previews_each_line_and_explains_a_line_that_can_t_take_the_tiles(browser, server, shots):  # noqa: F811
    errors: list[str] = []
    table = server.create("standard", [{"name": "Ana"}, {"name": "Bob"}])
    ana = Person(browser.new_context(viewport=DESKTOP), table["seats"][0]["url"], "Ana", errors)
    bob = Person(browser.new_context(viewport=DESKTOP), table["seats"][1]["url"], "Bob", errors)
    play([ana, bob], until=lambda: ana.moves + bob.moves >= 6 and ana.my_turn())
    page = ana.page
    state = engine_state(server, table)
    assert state.to_move == 0
    letters = {"blue": 0, "yellow": 1, "red": 2, "black": 3, "white": 4}
    previewed = full = explained = 0
    picks = page.locator("#supply button.tile.pickable")
    for index in range(picks.count()):
        tile = picks.nth(index)
        source, colour = int(tile.get_attribute("data-source")), tile.get_attribute("data-colour")
        if state.sources[source][letters[colour]] == state.tiles_on_table:
            continue
        tile.click()
        page.wait_for_selector(".board.mine .preview-list")
        for item in page.locator(".board.mine .preview-list li").all():
            where = item.get_attribute("data-line")
            line = FLOOR if where == "floor" else int(where)
            engine = engine_figures(state, (source, letters[colour], line))
            text = item.inner_text()
            if engine["cost"]:
                assert f"{engine['cost']} point" in text, (text, engine)
            if "points" in engine:
                assert f"full, +{engine['points'][0]} on the wall" in text, (text, engine)
                full += 1
            previewed += 1
        # A line that is not highlighted says why not, in a player's words: the server's reason
        # for that move sent, which the move box then gives too.
        closed = page.locator(".board.mine .lines div[data-line]")
        if closed.count() and not page.locator("#why-not").count():
            line = int(closed.first.get_attribute("data-line"))
            closed.first.click()
            page.wait_for_selector("#why-not")
            why = page.inner_text("#why-not")
            page.screenshot(path=str(shots / "log-preview-and-reason.png"))
            assert why == f"{line_refusal_words(state, 0, letters[colour], line)}.", why
            assert why[0].isupper() and "refused" not in why and "not legal" not in why and "pattern line" not in why
            move = f"{'C' if source == 0 else source}{'BYRKW'[letters[colour]]}{line + 1}"
            page.fill("input[name=move]", move)
            page.press("input[name=move]", "Enter")
            page.wait_for_selector("#message:not([hidden])")
            assert page.inner_text("#message") == why
            explained += 1
    assert previewed >= 5 and full >= 1 and explained >= 1, (previewed, full, explained)
    assert not errors, errors
