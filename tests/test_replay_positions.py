"""Stepping through a long record keeps a state every ``SNAPSHOT_EVERY`` steps, not one per step
(issue 41: a 1 MB legal record took 1.9 GB in ``azul replay --final``), and any step replayed
from the nearest kept state is the state a replay from the start reaches."""

from __future__ import annotations

import gc
import random

import pytest
from typer.testing import CliRunner

import azul_core.cli.replay  # noqa: F401  (registers the command)
from azul_core.cli.app import app
from azul_core.engine.state import GameState
from azul_core.records.game_record import SNAPSHOT_EVERY, Positions, iter_replay, read_record, record_variant
from azul_core.testing import snapshot

ROUNDS = 300  # about 4,500 steps: 70 kept states, not 4,500


@pytest.fixture(scope="module")
def long_record(load_bench, tmp_path_factory):
    endless = load_bench("endless_game")
    return endless.write_endless(tmp_path_factory.mktemp("endless"), ROUNDS)


def positions_of(path, every=SNAPSHOT_EVERY) -> Positions:
    record = read_record(path)
    positions = Positions(record, record_variant(record), every)
    for _step in positions.replay():
        pass
    return positions


def test_a_long_record_keeps_a_state_every_n_steps(long_record):
    positions = positions_of(long_record)
    steps = len(positions.steps)
    assert steps > 4000
    assert positions.states_kept() == -(-steps // SNAPSHOT_EVERY)


def test_every_step_is_the_state_replayed_from_the_start(long_record):
    record = read_record(long_record)
    positions = positions_of(long_record, every=7)
    from_start = [snapshot(step.state) for step in iter_replay(record, record_variant(record))]
    assert len(from_start) == len(positions.steps)
    for index, expected in enumerate(from_start):  # forwards: each from the one before
        assert snapshot(positions.state_at(index)) == expected, index
    rng = random.Random(41)
    for index in rng.sample(range(len(from_start)), 300):  # anywhere: from the nearest kept
        assert snapshot(positions.state_at(index)) == from_start[index], index
    with pytest.raises(IndexError):
        positions.state_at(len(from_start))


def test_the_state_given_is_the_callers_own(long_record):
    positions = positions_of(long_record)
    state = positions.state_at(5)
    before = snapshot(positions.state_at(5))
    state.players[0].score += 100
    assert snapshot(positions.state_at(5)) == before
    assert snapshot(positions.state_at(6)) != before


def live_states() -> int:
    """The game states alive in this process (other tests' included: compare with a count before)."""
    gc.collect()
    return sum(1 for thing in gc.get_objects() if type(thing) is GameState)


def test_replay_final_holds_a_bounded_number_of_states(long_record, monkeypatch):
    import azul_core.players.render as render
    counted = []
    real = render.draw_game

    def counting_draw_game(*args, **kwargs):
        counted.append(live_states() - before)
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "draw_game", counting_draw_game)
    before = live_states()
    result = CliRunner().invoke(app, ["replay", "--final", str(long_record)])
    assert result.exit_code == 0, result.output
    steps = len(positions_of(long_record).steps)
    assert counted and max(counted) <= steps // SNAPSHOT_EVERY + 10, (max(counted), steps)


def test_the_replay_page_keeps_a_state_every_n_steps_and_a_few_views(long_record):
    from azul_core.web.replay_page import VIEWS_KEPT, Replay
    record = read_record(long_record)
    before = live_states()
    replay = Replay(record, record_variant(record), public=True)
    steps = len(replay.steps)
    assert replay.positions.states_kept() == -(-steps // SNAPSHOT_EVERY)
    assert live_states() - before <= steps // SNAPSHOT_EVERY + 10
    for number in range(0, steps, 37):
        assert replay.step(number)["step"] == number
    assert len(replay._views) == VIEWS_KEPT
    final = replay.step(steps - 1)["view"]
    assert replay.index()["over"] is False and final["phase"] != "over"
