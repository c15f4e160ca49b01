"""The house rules that add moves, remember, and keep secrets (examples/pass-once,
factory-one-shift, secret-goal): each is in effect, and the same moves in standard Azul
are refused or score differently."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from azul_core.cli.app import _register, app
from azul_core.engine.state import CHOOSE, DRAFT, OVER, IllegalDecision
from azul_core.records.game_record import Recorder, record_from_data, sealed_for
from azul_core.rules import Move
from azul_core.testing import (
    floor_of,
    lines_of,
    new_game,
    play,
    play_out,
    scores,
    set_lines,
    set_table,
    set_wall,
    table_of,
)

_register()
ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PASS_ONCE = EXAMPLES / "pass-once" / "pass-once.yaml"
SHIFT = EXAMPLES / "factory-one-shift" / "factory-one-shift.yaml"
SECRET = EXAMPLES / "secret-goal" / "secret-goal.yaml"
WILD = EXAMPLES / "wild-tiles" / "wild-tiles.yaml"


# ---------------------------------------------------------------- pass once


def test_pass_once_a_seat_may_pass_once_a_round():
    game = new_game(PASS_ONCE)
    set_table(game, ["BYRR", "KKWW"])
    play(game, ["+pass", "1B1", "2K1", "+pass"])   # seat 0 passes, both draft, seat 1 passes
    assert game.to_move == 0 and game.memory["pass_once"] == (True, True)
    with pytest.raises(IllegalDecision, match=r"\+pass is not on offer now"):
        game.apply(Move("pass"))
    assert Move("pass") not in game.legal_decisions()


def test_pass_once_is_refused_in_standard_azul():
    game = new_game("standard")
    set_table(game, ["BYRR"])
    with pytest.raises(IllegalDecision, match="not a move of this variant"):
        game.apply(Move("pass"))


def test_pass_once_is_offered_again_next_round():
    game = new_game(PASS_ONCE)
    set_table(game, ["BYRR"])
    play(game, ["+pass", "+pass"])
    rng = random.Random(2)
    while game.round == 1:
        game.apply_random(rng.random)
    game.deal(rng)
    assert Move("pass") in game.legal_decisions() and game.memory["pass_once"] == (False, False)


def test_pass_once_games_end_and_keep_every_tile():
    for seed in range(20):
        game = play_out(new_game(PASS_ONCE, players=3), seed=seed)
        assert game.phase == OVER and game.tile_counts() == [20] * 5


# ---------------------------------------------------------------- factory one's gift


def test_factory_one_shift_offers_the_gift_after_a_draft_from_factory_one():
    game = new_game(SHIFT)
    set_lines(game, 0, {4: "B"})                  # line 4 holds blue: no red can go there
    set_table(game, ["RRBY", "KKWW"])
    play(game, ["1R3"])
    assert game.phase == CHOOSE and game.to_move == 0
    offered = {move.notation for move in game.legal_decisions()}
    assert offered == {"+keep", "+shift:0", "+shift:1", "+shift:4", "+shift:5"}  # not line 4
    play(game, ["+shift:4"])
    assert lines_of(game, 0) == {3: "R", 4: "B", 5: "R"}
    assert game.phase == DRAFT and game.to_move == 1
    play(game, ["2K1"])                            # factory 2: no gift
    assert game.phase == DRAFT and game.to_move == 0


def test_factory_one_shift_to_the_floor_costs_a_floor_space():
    game = new_game(SHIFT)
    set_table(game, ["RRBY", "KKWW"])
    play(game, ["1R3", "+shift:5"])
    assert lines_of(game, 0) == {3: "R"} and floor_of(game, 0) == "R"


def test_factory_one_shift_has_no_gift_in_standard_azul():
    game = new_game("standard")
    set_table(game, ["RRBY", "KKWW"])
    play(game, ["1R3"])
    assert game.phase == DRAFT and game.to_move == 1


# ---------------------------------------------------------------- secret goal


def test_secret_goal_scores_two_a_tile_of_the_secret_colour():
    game = new_game(SECRET)
    game.secrets = {"secret_goal": (2, 0)}          # red for seat 0, blue for seat 1
    set_wall(game, 0, ["..R..", "...R.", "....R", ".....", "....."])
    set_wall(game, 1, ["B....", ".....", ".....", ".....", "....."])
    game._finish_game()
    assert ("secret goal", 6) in game.players[0].bonuses
    assert ("secret goal", 2) in game.players[1].bonuses


def test_secret_goal_changes_the_final_scores_against_standard():
    differences = 0
    for seed in range(10):
        house = play_out(new_game(SECRET), seed=seed)
        for seat in range(2):
            goal = house.secrets["secret_goal"][seat]
            tiles = sum(cell == goal for row in house.players[seat].wall for cell in row)
            assert ("secret goal", 2 * tiles) in house.players[seat].bonuses
            differences += 2 * tiles
    assert differences > 0


def test_secret_goal_each_seat_sees_only_its_own_until_the_end():
    game = new_game(SECRET, players=3)
    game.deal(random.Random(5))
    secrets = game.secrets["secret_goal"]
    for seat in range(3):
        seen = game.for_seat(seat).secrets["secret_goal"]
        assert seen[seat] == secrets[seat]
        assert all(value is None for other, value in enumerate(seen) if other != seat)
    assert game.for_seat(None).secrets["secret_goal"] == (None, None, None)
    finished = play_out(game, seed=5)
    assert finished.for_seat(1).secrets == finished.secrets    # revealed at the end


def test_secret_goal_record_keeps_the_secrets_and_a_seat_copy_seals_the_others():
    game = new_game(SECRET)
    recorder = Recorder(str(SECRET), ["ana", "bo"], 1)
    game.deal(random.Random(1))
    recorder.dealt(game)
    data = recorder.to_dict(game)
    assert data["secrets"] == {"secret_goal": list(game.secrets["secret_goal"])}
    record = record_from_data(json.loads(json.dumps(data)))
    mine = sealed_for(record, 0, finished=False).to_dict()
    assert mine["secrets"]["secret_goal"] == [game.secrets["secret_goal"][0], {"sealed": True}]
    watcher = sealed_for(record, None, finished=False).to_dict()
    assert watcher["secrets"]["secret_goal"] == [{"sealed": True}, {"sealed": True}]


# ---------------------------------------------------------------- wild tiles


def test_wild_tiles_join_the_bag():
    game = new_game(WILD)
    assert game.table.kind_letters == "BYRKWJ" and game.tile_counts() == [20] * 5 + [10]
    assert new_game("standard").tile_counts() == [20] * 5


def test_wild_tiles_a_draft_takes_one_along_and_it_stands_in_on_the_line():
    game = new_game(WILD)
    set_table(game, ["RRJJ", "KKYW"])
    play(game, ["1R3"])
    assert lines_of(game, 0) == {3: "RRJ"} and floor_of(game, 0) == ""
    assert table_of(game)["centre"] == "J"          # the other wild tile went to the centre
    standard = new_game("standard")
    set_table(standard, ["RRBB", "KKYW"])
    play(standard, ["1R3"])
    assert lines_of(standard, 0) == {3: "RR"}       # standard: the line is not full yet


def test_wild_tiles_a_wild_tile_with_no_room_falls_to_the_floor():
    game = new_game(WILD)
    set_lines(game, 0, {2: "R"})
    set_table(game, ["RJKK", "KKYW"])
    play(game, ["1R2"])                              # line 2 had room for one: the wild falls
    assert lines_of(game, 0) == {2: "RR"} and floor_of(game, 0) == "J"


def test_wild_tiles_never_reach_the_wall_and_leftovers_go_to_the_lid():
    game = new_game(WILD)
    set_table(game, ["RRJJ"], centre="")
    play(game, ["1R3"])                              # the centre keeps a lone wild tile: swept
    assert game.phase == "deal" and game.lid[5] == 2  # the swept one and the line's discarded one
    assert game.players[0].wall[2].count(2) == 1       # the wall took a red tile
    assert game.tile_counts() == [20] * 5 + [10]


def test_wild_tiles_records_name_the_wild_letter_and_standard_refuses_it(tmp_path):
    runner = CliRunner(env=ENV)
    result = runner.invoke(app, ["simulate", "--variant", str(WILD), "--games", "4", "--seed", "2",
                                 "--bots", "random", "--quiet", "--record-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    path = sorted(tmp_path.glob("*.json"))[0]
    data = json.loads(path.read_text())
    assert any("J" in factory for r in data["rounds"] for factory in r["factories"])
    result = runner.invoke(app, ["validate", str(tmp_path), "--variant", str(WILD)])
    assert result.exit_code == 0, result.output
    data["variant"] = "standard"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["validate", str(path), "--json"])
    assert result.exit_code == 1
    assert "'J' is not a tile of this variant" in json.loads(result.stdout)["errors"][0]["message"]


# ---------------------------------------------------------------- through the command line


@pytest.mark.parametrize("variant", [PASS_ONCE, SHIFT, SECRET, WILD], ids=lambda p: p.stem)
def test_simulated_records_validate_and_hold_the_new_moves(variant, tmp_path):
    runner = CliRunner(env=ENV)
    result = runner.invoke(app, ["simulate", "--variant", str(variant), "--games", "6", "--seed", "3",
                                 "--bots", "random", "--quiet", "--record-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    texts = [path.read_text() for path in sorted(tmp_path.glob("*.json"))]
    assert len(texts) == 6
    if variant == PASS_ONCE:
        assert any('"+pass"' in text for text in texts)
    if variant == SHIFT:
        assert any('"+shift:' in text for text in texts) and any('"+keep"' in text for text in texts)
    if variant == SECRET:
        assert all('"secrets": {"secret_goal"' in text for text in texts)
    result = runner.invoke(app, ["validate", str(tmp_path), "--variant", str(variant), "--json"])
    assert result.exit_code == 0, result.output
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(reports) == 6 and all(r["valid"] and r["finished"] for r in reports)


def test_a_record_whose_memory_was_changed_is_invalid(tmp_path):
    game = play_out(new_game(PASS_ONCE), seed=8)
    assert game.phase == OVER
    runner = CliRunner(env=ENV)
    runner.invoke(app, ["simulate", "--variant", str(PASS_ONCE), "--games", "1", "--seed", "3",
                        "--bots", "random", "--quiet", "--record-dir", str(tmp_path)])
    path = next(tmp_path.glob("*.json"))
    data = json.loads(path.read_text())
    assert data["memory"]["pass_once"] in ([False, False], [True, False], [False, True], [True, True])
    data["memory"]["pass_once"] = [True, True, True]
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["validate", str(path), "--variant", str(PASS_ONCE), "--json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert "the plugins' memory differs from the replay" in report["errors"][0]["message"]
    assert scores(game) == game.scores()


def test_wild_tiles_a_draft_says_what_it_takes_along():
    from azul_core.players.render import describe_decision, short_effect
    game = new_game(WILD)
    set_table(game, ["BJKK", "RRYY"])
    assert describe_decision(game, (1, 0, 1), ["ana", "bo"]) == \
        "ana takes 1 blue and 1 wild from factory 1 to line 2 (complete)"
    assert describe_decision(game, (1, 0, 0), ["ana", "bo"]) == \
        "ana takes 1 blue and 1 wild from factory 1 to line 1 (complete), 1 to the floor"
    assert short_effect(game, (1, 0, 1)).startswith("1 blue and 1 wild to line 2 full")
    assert describe_decision(game, (2, 2, 5), ["ana", "bo"]) == "ana takes 2 red from factory 2 to the floor"
