"""Faults found while writing harder house rules from the docs alone (issue 20), each fixed:
end bonuses judged from one set of scores, a line that can't change colour, a game view
that can't change the game, ``variants show --resolved`` and the winning sets of a run."""

from __future__ import annotations

import json

import pytest

from azul_core import hookimpl
from azul_core.colours import RED, WHITE
from azul_core.engine.plugins import PluginError
from azul_core.testing import new_game, play, scores, set_lines, set_table, snapshot, winners

# ---------------------------------------------------------------- end bonuses


class OneRound:
    """The game ends after its first round."""

    @hookimpl
    def azul_game_over(self):
        return True


class LeaderBonus:
    """+5 at the end for every player leading on points (ties included)."""

    @hookimpl
    def azul_end_bonuses(self, seat, game):
        return [("leader", 5)] if game.scores[seat] == max(game.scores) else []


def test_every_seats_end_bonuses_are_decided_from_the_scores_before_any_bonus():
    game = new_game(plugins=[OneRound(), LeaderBonus()])
    game.players[0].score, game.players[1].score = 9, 10
    set_table(game, ["B"])
    play(game, ["1B1"])  # seat 0's blue scores 1: tied on 10 when the game ends
    assert game.over
    # Seat 0's bonus must not make seat 1 look behind when seat 1 is asked.
    assert [dict(board.bonuses).get("leader") for board in game.players] == [5, 5]
    assert scores(game) == [15, 15] and winners(game) == [0, 1]


def test_the_end_bonuses_see_the_same_scores_from_every_seat():
    seen = []

    class Watcher:
        @hookimpl
        def azul_end_bonuses(self, seat, game):
            seen.append((seat, game.scores))

    game = new_game(plugins=[OneRound(), Watcher(), LeaderBonus()])
    set_table(game, ["B"])
    play(game, ["1B1"])
    assert seen == [(0, (1, 0)), (1, (1, 0))]


# ---------------------------------------------------------------- one colour per line


class AnyColourWhileRoom:
    """A careless rule: any colour goes on a line that has room."""

    @hookimpl
    def azul_line_accepts(self, line_count, capacity):
        return line_count < capacity


def test_a_line_accepting_another_colour_than_it_holds_is_refused_with_the_plugin_named():
    game = new_game(plugins=[AnyColourWhileRoom()])
    set_table(game, ["RRWW", "WWWB"])
    before = snapshot(game)
    with pytest.raises(PluginError) as excinfo:
        play(game, ["1R3"])  # RR on line 3 would take white next: WWW, two reds gone
    error = excinfo.value
    assert (error.plugin, error.hook) == ("AnyColourWhileRoom", "azul_line_accepts")
    assert error.location.startswith(__file__ + ":")
    assert "pattern line 3 holds red, and a line holds one colour: it can't take" in str(error)
    assert snapshot(game) == before


def test_a_line_accepting_its_own_colour_or_refusing_another_is_fine():
    class OwnColourAlways:
        @hookimpl
        def azul_line_accepts(self, line_colour, line_count, capacity, colour):
            if line_colour is not None:
                return colour == line_colour and line_count < capacity
            return None

    game = new_game(plugins=[OwnColourAlways()])
    set_lines(game, 0, {3: "RR"})
    set_table(game, ["RRWW"])
    lines = {line for source, colour, line in game.legal_decisions() if colour == RED}
    assert 2 in lines
    assert not any(line == 2 for source, colour, line in game.legal_decisions() if colour == WHITE)
    assert sum(game.tile_counts()) == 100


# ---------------------------------------------------------------- the game view


class Vandal:
    """Sets the scores through the game view's state: it must not get at it."""

    @hookimpl
    def azul_floor_penalty(self, game):
        for board in game._state.players:
            board.score = 50


def test_a_plugin_cant_reach_the_live_game_through_its_view():
    game = new_game(plugins=[Vandal()])
    set_table(game, ["B"])
    with pytest.raises(PluginError) as excinfo:
        play(game, ["1B1"])  # the round ends: the floor penalties are asked
    assert (excinfo.value.plugin, excinfo.value.hook) == ("Vandal", "azul_floor_penalty")
    assert "has no attribute '_state'" in str(excinfo.value)
    assert scores(game) == [0, 0]


@pytest.mark.parametrize("change", [
    "game.scores = (50, 50)",
    "del game.round_number",
    "game._read = None",
    "game.scores[0] = 50",
    "game.lines[0] = ((0, 1),) * 5",
    "game.lines._lines_of = None",
    "game.floors[0].append(0)",
])
def test_a_plugin_changing_its_game_view_is_named(change):
    namespace: dict = {}
    exec(f"def azul_floor_penalty(game):\n    {change}\n", namespace)
    plugin = type("Changer", (), {"azul_floor_penalty": staticmethod(namespace["azul_floor_penalty"])})()
    game = new_game(plugins=[plugin])
    set_table(game, ["B"])
    with pytest.raises(PluginError, match=r"plugin 'Changer' tried to change the game it was given "
                                          r"\(azul_floor_penalty\) at .*: the game view is read-only"):
        play(game, ["1B1"])


def live_parts(state) -> list:
    """The mutable objects of a game state: what a plugin must never be handed."""
    parts = [state, state.players, state.bag, state.lid, state.sources, *state.sources, state.pending,
             state.winners, state.round_scores, state.removed, state.colour_sources]
    for board in state.players:
        parts += [board, board.line_colour, board.line_count, board.accept, board.wall_rows,
                  board.floor, board.bonuses]
    return parts


def reachable(value, depth: int = 3) -> list:
    """Everything reached from ``value`` by public or private attributes and items: a
    plugin's ordinary means (not ``__closure__`` or ``gc``)."""
    found = [value]
    if depth == 0 or isinstance(value, (int, str, bool, type(None))):
        return found
    children = []
    for name in dir(value):
        if name.startswith("__"):
            continue
        try:
            child = getattr(value, name)
        except AttributeError:
            continue
        if not callable(child):  # methods are left uncalled: a list's pop() would change it
            children.append(child)
    if isinstance(value, (tuple, list)) or hasattr(value, "__getitem__") and hasattr(value, "__len__"):
        try:
            children += [value[i] for i in range(len(value))]
        except (TypeError, KeyError, IndexError):
            pass
    for child in children:
        found += reachable(child, depth - 1)
    return found


def test_nothing_reachable_from_a_game_view_is_part_of_the_live_game():
    from azul_core.engine.view import GameView

    game = new_game()
    set_table(game, ["BBYY", "RRKW"], centre="W")
    play(game, ["1B1"])
    live = {id(part) for part in live_parts(game)}
    seen = reachable(GameView(game))
    assert len(seen) > 50  # the walk did read the view
    assert not [value for value in seen if id(value) in live]


# ---------------------------------------------------------------- variants show --resolved


def test_show_resolved_names_no_base_line_for_a_name_or_description_not_inherited(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from azul_core.cli.app import _register, app

    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.yaml").write_text("extends: duel\n", encoding="utf-8")
    (tmp_path / "named.yaml").write_text("name: named\ndescription: Mine.\nextends: duel\n", encoding="utf-8")
    _register()
    env = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "AZUL_DEBUG": "", "AZUL_VARIANTS_PATH": ""}

    def shown(file: str) -> list[str]:
        result = CliRunner().invoke(app, ["variants", "show", file, "--resolved"], env=env)
        assert result.exit_code == 0, result.output
        return result.stdout.splitlines()[:2]

    assert shown("mine.yaml") == [
        "name: mine  # the file name of mine.yaml (a base's is not inherited)",
        "description:   # none in mine.yaml (a base's is not inherited)"]
    assert shown("named.yaml") == ["name: named  # named.yaml:1", "description: Mine.  # named.yaml:2"]
    result = CliRunner().invoke(app, ["variants", "show", "mine.yaml", "--resolved", "--json"], env=env)
    origins = json.loads(result.stdout)["origins"]
    assert "duel.yaml" not in origins["name"] + origins["description"]
    assert "duel.yaml:" in origins["players"]  # what is inherited still names the base's line


# ---------------------------------------------------------------- winning sets in simulate

TEAMS = '''
def azul_winners(scores):
    """Seats 0 and 2 play against seats 1 and 3: the team with the best player wins."""
    best = scores.index(max(scores))
    return [best % 2, best % 2 + 2]
'''


def test_simulate_reports_the_winning_sets_the_rules_named_not_shared_victories(tmp_path):
    from azul_core.lab.report import summary_lines
    from azul_core.lab.simulate import simulate
    from azul_core.variants.loading import load_variant

    (tmp_path / "teams.py").write_text(TEAMS, encoding="utf-8")
    (tmp_path / "teams.yaml").write_text("extends: standard\nplayers: [4]\n"
                                         "plugins: [standard, colour_wall, teams.py]\n", encoding="utf-8")
    summary = simulate(load_variant(tmp_path / "teams.yaml"), 4, 12, seed=3).summary()
    sets = summary["winning_sets"]
    assert {tuple(entry["seats"]) for entry in sets} == {(0, 2), (1, 3)}
    assert sum(entry["games"] for entry in sets) == 12
    text = "\n".join(summary_lines(summary))
    assert "shared victor" not in text
    # Said with seats counted from 1, as people count them (issue 42).
    words = ", ".join(f"seats {'+'.join(str(s + 1) for s in e['seats'])} {e['games']}" for e in sets)
    assert f"games won, by the winners the rules named: {words}" in text
    standard = simulate(load_variant("standard"), 2, 30, seed=1).summary()
    assert [entry["seats"] for entry in standard["winning_sets"]][:2] == [[0], [1]]
    assert sum(entry["games"] for entry in standard["winning_sets"]) == 30
