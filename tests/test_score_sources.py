"""Each player's points by source (records.score_sources): worked out from a record's steps, the
sources add up to every seat's final score, on known games of the shipped variants and of house
rules with a bonus of their own and with moves that cost points."""

from __future__ import annotations

from pathlib import Path

import pytest
from recorded_games import play_recorded
from test_hooks import Lucky

from azul_core.engine.state import GameState
from azul_core.records.game_record import GameRecord, iter_replay, read_record, replay_state
from azul_core.records.score_sources import ScoreSource, score_sources, total
from azul_core.testing import new_game
from azul_core.variants.loading import load_variant

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "tests" / "reference" / "records"
EXAMPLES = ROOT / "examples"


def by_name(sources: list[ScoreSource]) -> dict[str, int]:
    return {source.name: source.points for source in sources}


def played(variant_file: Path | str, players: int, seed: int) -> tuple[GameState, GameRecord, object]:
    """A whole game of random legal moves, and its record."""
    variant = load_variant(variant_file)
    state = GameState(variant.rules, players)
    return state, play_recorded(state, seed, str(variant_file)), variant


def assert_adds_up(state: GameState, sources: list[list[ScoreSource]]) -> None:
    """Every seat's sources add up to its score; the wall, the floor and the bonuses are what the
    board kept (the floor's nominal cost, less what a score that never goes below 0 kept)."""
    assert [total(seat) for seat in sources] == state.scores()
    for board, seat in zip(state.players, sources):
        points = by_name(seat)
        assert "other" not in points
        assert points["wall"] == board.placement_points
        for label, bonus in board.bonuses:
            assert points[label] == bonus
        assert points["floor"] <= 0 and points["floor"] >= board.penalty_points


@pytest.mark.parametrize("name", ["standard", "grey-wall", "duel"])
def test_the_sources_of_the_reference_games_add_up_to_each_final_score(name):
    record = read_record(REFERENCE / f"{name}.json")
    sources = score_sources(record)
    state = replay_state(record)
    assert_adds_up(state, sources)
    assert [total(seat) for seat in sources] == record.result.scores


def test_the_standard_reference_game_by_source():
    sources = score_sources(read_record(REFERENCE / "standard.json"))
    assert [[(s.kind, s.name, s.points) for s in seat] for seat in sources] == [
        [("wall", "wall", 3), ("floor", "floor", -3),
         ("bonus", "rows", 0), ("bonus", "columns", 0), ("bonus", "colours", 0)],
        [("wall", "wall", 60), ("floor", "floor", -14),
         ("bonus", "rows", 4), ("bonus", "columns", 0), ("bonus", "colours", 0)]]


def test_the_floor_takes_no_more_than_the_score_had():
    # Seat 0 of the standard reference game ends on 0: its floors cost more than its tiles
    # scored, and what a score at 0 could not lose is not counted against it.
    record = read_record(REFERENCE / "standard.json")
    board = replay_state(record).players[0]
    assert board.penalty_points < -board.placement_points
    assert by_name(score_sources(record)[0])["floor"] == -board.placement_points


@pytest.mark.parametrize("variant,players", [("standard", 3), ("grey-wall", 4), ("duel", 2)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_of_the_shipped_variants_add_up(variant, players, seed):
    state, record, rules = played(variant, players, seed)
    assert_adds_up(state, score_sources(record, rules))


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_house_rule_bonus_is_a_source_of_its_own(seed):
    state, record, variant = played(EXAMPLES / "secret-goal" / "secret-goal.yaml", 3, seed)
    sources = score_sources(record, variant)
    assert_adds_up(state, sources)
    for board, seat in zip(state.players, sources):
        assert [s.name for s in seat if s.kind == "bonus"] == ["rows", "columns", "colours", "secret goal"]
        assert by_name(seat)["secret goal"] == dict(board.bonuses)["secret goal"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_house_rule_s_moves_that_cost_points_are_told_by_its_plugin(seed):
    state, record, variant = played(EXAMPLES / "lid-market" / "lid-market.yaml", 2, seed)
    sources = score_sources(record, variant)
    assert_adds_up(state, sources)
    purchases = [0, 0]
    for before, step in zip(iter_replay(record, variant), list(iter_replay(record, variant))[1:]):
        if step.text.startswith("+buy"):
            purchases[before.state.to_move] += 1
    assert sum(purchases) > 0  # the seeds are chosen so that somebody buys
    for seat, bought in enumerate(purchases):
        assert by_name(sources[seat]).get("lid_market", 0) == -2 * bought
        assert all(s.kind == "move" for s in sources[seat] if s.name == "lid_market")


def test_points_nothing_explains_are_told_as_other_so_the_sources_still_add_up():
    from azul_core.records import score_sources as module
    record = read_record(REFERENCE / "standard.json")
    steps = list(iter_replay(record))
    before, after = steps[-2].state, steps[-1].state.clone()
    after.players[1].score += 5  # as a rule that gave points by a way no source knows of
    tally = module._Tally(2)
    module._split_step(before, after, steps[-1].text, tally)
    assert [(s.kind, s.points) for s in tally.sources()[1] if s.name == "other"] == [("other", 5)]
    assert "other" not in by_name(tally.sources()[0])


def test_a_record_of_a_game_in_progress_adds_up_to_the_scores_so_far():
    record = read_record(REFERENCE / "grey-wall.json")
    from dataclasses import replace
    cut = replace(record, rounds=record.rounds[:2], result=None)
    state = replay_state(cut)
    sources = score_sources(cut)
    assert [total(seat) for seat in sources] == state.scores()
    assert all(s.points == 0 for seat in sources for s in seat if s.kind == "bonus")


@pytest.mark.parametrize("seed", [1, 2])
def test_a_phase_chosen_at_once_adds_up(seed):
    """colour-bid: each seat picks a colour in secret; the picks are carried out together."""
    state, record, variant = played(EXAMPLES / "colour-bid" / "colour-bid.yaml", 3, seed)
    assert_adds_up(state, score_sources(record, variant))


def test_the_wall_and_floor_of_a_round_a_draw_ends_are_theirs_not_the_drawers():
    """A house rule burns a tile from the bag after each turn: the burn after a round's last
    draft ends the round once the tile is drawn."""
    state, record, variant = played(ROOT / "tests" / "rl" / "house_rules" / "burn.yaml", 2, 1)
    sources = score_sources(record, variant)
    assert_adds_up(state, sources)
    assert not [s for seat in sources for s in seat if s.kind == "move"]
    steps = list(iter_replay(record, variant))
    ended_by_draws = sum(step.text.startswith("~") and step.state.round != before.state.round
                         for before, step in zip(steps, steps[1:]))
    assert ended_by_draws >= 4  # every round but the last ends once a burnt tile is drawn


@pytest.mark.parametrize("seed", [0, 1])
def test_points_a_plugin_gives_for_the_tiles_its_move_drew_are_told_by_that_plugin(seed):
    state = new_game(plugins=[Lucky()])  # a red drawn onto the floor: 3 points
    record = play_recorded(state, seed, "standard")
    sources = score_sources(record, state.rules)
    assert_adds_up(state, sources)
    reds = [0, 0]
    for before, step in zip(iter_replay(record, state.rules), list(iter_replay(record, state.rules))[1:]):
        if step.text.startswith("~") and "R" in step.text:
            reds[before.state.drawing[0][1]] += 1
    assert sum(reds) > 0  # the seeds are chosen so that somebody draws a red
    for seat, drawn in enumerate(reds):
        assert by_name(sources[seat]).get("Lucky", 0) == 3 * drawn
        assert all(s.kind == "move" for s in sources[seat] if s.name == "Lucky")
