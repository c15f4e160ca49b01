"""Game records (azul-record/1): reading, writing, replaying and validating them."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from azul_core.engine.state import OVER, GameState
from azul_core.lab.simulate import play_game
from azul_core.records.game_record import (
    FORMAT,
    Recorder,
    RecordError,
    ReplayError,
    check_record,
    describe_error,
    dumps_record,
    iter_replay,
    parse_record,
    read_record,
    record_from_data,
    record_variant,
    replay_state,
    sealed_for,
    validate_record,
)
from azul_core.variants.loading import Trust, builtin_variants, load_variant

# A game written by hand from docs/rules/standard.md, as another program would write it.
#
# Round 1 (seat 0 starts; every factory holds one colour, so nothing reaches the centre
# and nobody takes the start marker):
#   seat 0 1B4: 4 blue fill line 4          seat 1 2Y3: 3 yellow on line 3, 1 to the floor
#   seat 0 3R-: 4 red to the floor          seat 1 4K4: 4 black fill line 4
#   seat 0 5W1: 1 white on line 1, 3 to the floor (the floor now holds 7 tiles)
# Tiling, seat 0: white to (1,5) alone: 1; blue to (4,4) alone: 1; floor of 7: -14;
#   2 - 14 is clamped to 0.
# Tiling, seat 1: yellow to (3,4) alone: 1; black to (4,2) alone: 1; floor of 1: -1 -> 1.
# Nobody took the marker, so seat 0 starts round 2.
#
# Round 2 (the spec's example fill):
#   seat 0 1B2: BB fill line 2, Y R to the centre  seat 1 3R3: RRR fill line 3, Y to the centre
#   seat 0 CY1: marker + YY: 1 on line 1, 1 to the floor (floor: marker, Y)
#   seat 1 2K-: KK to the floor, WW to the centre  seat 0 4W5: W on line 5, B K Y to the centre
#   seat 1 5Y2: YY fill line 2, B K to the centre  seat 0 CW5: WW on line 5 (3 of 5)
#   seat 1 CB1: B on line 1, B to the floor        seat 0 CK4: KK on line 4 (2 of 4)
#   seat 1 CR4: R on line 4 (1 of 4)               seat 0 CY3: Y on line 3; the centre is empty
# Tiling, seat 0: yellow to (1,2) alone: 1; blue to (2,2) under it: run of 2 down: 2;
#   floor of 2 (marker, Y): -2 -> 0 + 3 - 2 = 1.
# Tiling, seat 1: blue to (1,1) alone: 1; yellow to (2,3) alone: 1; red to (3,5) beside the
#   yellow at (3,4): run of 2 across: 2; floor of 3: -4 -> 1 + 4 - 4 = 1.
ROUND_1 = {"factories": ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"],
           "actions": ["1B4", "2Y3", "3R-", "4K4", "5W1"], "scores": [0, 1]}
ROUND_2 = {"factories": ["BBYR", "KKWW", "RRRY", "BWKY", "YYBK"],
           "actions": ["1B2", "3R3", "CY1", "2K-", "4W5", "5Y2", "CW5", "CB1", "CK4", "CR4", "CY3"],
           "scores": [1, 1]}


def hand_record(**changes) -> dict:
    data = {"format": FORMAT, "variant": "standard", "players": ["ana", "bo"], "seed": 7,
            "rounds": [copy.deepcopy(ROUND_1), copy.deepcopy(ROUND_2)]}
    data.update(changes)
    return data


def check(data: dict, folder: Path | None = None, trust=None) -> dict:
    record = record_from_data(data, str(folder / "record.json") if folder else "")
    return check_record(record, trust=trust)


def only_error(report: dict) -> dict:
    assert not report["valid"]
    assert len(report["errors"]) == 1, report["errors"]
    return report["errors"][0]


def simulated(variant: str = "standard", players: int = 2, game: int = 1, seed: int = 3) -> dict:
    rules = load_variant(variant).rules
    return play_game(rules, players, seed, ["random"] * players, game, record=True,
                     variant_ref=variant).record


# ---------------------------------------------------------------- a hand-written record


def test_hand_written_record_replays_with_the_scores_computed_by_hand(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand_record()))
    report = validate_record(path)
    assert report["valid"], report["errors"]
    assert report["kind"] == "record"
    assert report["finished"] is False  # two rounds in: an unfinished game is valid
    assert report["round_scores"] == [[0, 1], [1, 1]]
    assert report["scores"] == [1, 1]
    assert report["winners"] is None
    assert report["variant"] == "standard"
    assert report["path"] == str(path)


def test_hand_written_record_positions_match_the_rules():
    state = replay_state(parse_record(json.dumps(hand_record())))
    ana, bo = state.players
    assert ana.wall[0][1] is not None and ana.wall[1][1] is not None  # (1,2) and (2,2)
    assert ana.line_count == [0, 0, 1, 2, 3]  # lines 3, 4, 5 keep their tiles
    assert bo.line_count == [0, 0, 0, 1, 0]
    assert state.first_player == 0  # seat 0 took the marker in round 2
    assert sum(state.tile_counts()) == 100


def test_wrong_score_in_a_round_names_that_round_and_the_seat():
    data = hand_record()
    data["rounds"][1]["scores"] = [1, 3]
    error = only_error(check(data))
    assert error["round"] == 2 and error["action"] is None
    assert "seat 2 recorded 3, replay 1" in error["message"]  # seats counted from 1 (issue 42)
    assert "seat 1" not in error["message"]  # only the seats that differ


def test_only_the_first_round_whose_scores_differ_is_reported():
    data = hand_record()
    data["rounds"][0]["scores"] = [5, 1]
    data["rounds"][1]["scores"] = [9, 9]
    assert only_error(check(data))["round"] == 1


def test_round_scores_with_the_wrong_number_of_seats():
    data = hand_record()
    data["rounds"][0]["scores"] = [0, 1, 0]
    assert "3 scores recorded for 2 players" in only_error(check(data))["message"]


def test_illegal_action_gives_round_action_seat_and_the_rule():
    data = hand_record()
    data["rounds"][1]["actions"][2] = "CY2"  # seat 0's line 2 was filled by its first draft
    error = only_error(check(data))
    assert (error["round"], error["action"], error["seat"], error["text"]) == (2, 3, 0, "CY2")
    assert error["message"] == "pattern line 2 is full"
    assert describe_error(error) == "round 2 action 3 (seat 1, 'CY2'): pattern line 2 is full"


@pytest.mark.parametrize("action, words", [
    ("2B1", "factory 2 has no blue tiles"),
    ("6B1", "there is no factory 6"),
    ("CW1", "the centre has no white tiles"),
])
def test_each_illegal_draft_is_explained(action, words):
    data = hand_record()
    data["rounds"][0]["actions"][1] = action
    error = only_error(check(data))
    assert (error["round"], error["action"], error["seat"]) == (1, 2, 1)
    assert error["message"] == words


def test_wall_row_already_holding_the_colour_is_refused():
    data = hand_record()
    # Round 2, seat 1's second turn: its wall row 4 holds black since round 1.
    data["rounds"][1]["actions"][3] = "2K4"
    error = only_error(check(data))
    assert (error["round"], error["action"], error["seat"]) == (2, 4, 1)
    assert error["message"] == "wall row 4 already has black"


def test_text_that_is_not_record_notation_is_an_error_at_its_place():
    data = hand_record()
    data["rounds"][0]["actions"][0] = "2 red 4"  # words are for the prompt, not for records
    error = only_error(check(data))
    assert (error["round"], error["action"], error["seat"], error["text"]) == (1, 1, 0, "2 red 4")
    assert "not an action" in error["message"]


def test_a_placement_in_a_colour_wall_record_is_refused():
    data = hand_record()
    data["rounds"][0]["actions"].insert(1, "w1:1")
    error = only_error(check(data))
    assert (error["round"], error["action"]) == (1, 2)
    assert "places wall tiles itself" in error["message"]


# ---------------------------------------------------------------- impossible fills


def test_a_factory_with_too_many_tiles_is_an_impossible_fill():
    data = hand_record()
    data["rounds"][0]["factories"][2] = "RRRRR"
    error = only_error(check(data))
    assert error["round"] == 1 and error["action"] is None
    assert "factory 3 has 5 tiles; a factory holds 4" in error["message"]


def test_tiles_the_bag_no_longer_holds_are_an_impossible_fill():
    # Round 1 lays all 20 blue tiles; none is back in the bag for round 2.
    all_blue = {"factories": ["BBBB"] * 5, "actions": ["1B4", "2B-", "3B-", "4B-", "5B-"]}
    assert check(hand_record(rounds=[all_blue]))["valid"]
    round_2 = {"factories": ["BYRK"] * 5, "actions": []}
    error = only_error(check(hand_record(rounds=[all_blue, round_2])))
    assert error["round"] == 2 and error["action"] is None
    assert "5 blue tiles laid, but the bag held 0" in error["message"]


def test_wrong_number_of_factories_is_an_impossible_fill():
    data = hand_record()
    data["rounds"][0]["factories"] = data["rounds"][0]["factories"][:4]
    assert "expected 5 factories, got 4" in only_error(check(data))["message"]


# ---------------------------------------------------------------- the end of the game


def test_finished_record_reports_scores_and_winners():
    data = simulated()
    report = check(data)
    assert report["valid"] and report["finished"]
    assert report["scores"] == data["result"]["scores"]
    assert report["winners"] == data["result"]["winners"]
    assert [r["scores"] for r in data["rounds"]] == report["round_scores"]


def test_wrong_result_scores_are_reported_seat_by_seat():
    data = simulated()
    data["result"]["scores"][1] += 5
    error = only_error(check(data))
    assert error["round"] is None
    assert f"seat 2 recorded {data['result']['scores'][1]}" in error["message"]


def test_wrong_result_winners_are_reported():
    data = simulated()
    data["result"]["winners"] = [1 - data["result"]["winners"][0]]
    assert "winners" in only_error(check(data))["message"]


def test_a_result_before_the_game_is_over_is_an_error():
    data = hand_record(result={"scores": [1, 1], "winners": [0, 1]})
    assert "not over" in only_error(check(data))["message"]


def test_unfinished_record_is_valid_with_the_scores_so_far():
    data = simulated()
    del data["result"]
    data["rounds"] = data["rounds"][:2]
    data["rounds"][1]["actions"] = data["rounds"][1]["actions"][:3]
    del data["rounds"][1]["scores"]
    report = check(data)
    assert report["valid"] and not report["finished"]
    assert report["scores"] == data["rounds"][0]["scores"]
    assert report["round_scores"] == [data["rounds"][0]["scores"]]
    assert report["to_move"] is not None


def test_scores_for_a_round_the_record_does_not_finish_are_an_error():
    data = simulated()
    del data["result"]
    data["rounds"][0]["actions"] = data["rounds"][0]["actions"][:3]
    data["rounds"] = data["rounds"][:1]
    error = only_error(check(data))
    assert error["round"] == 1 and "does not finish" in error["message"]


def test_trailing_action_after_the_game_ended():
    data = simulated()
    data["rounds"][-1]["actions"].append("1B1")
    error = only_error(check(data))
    assert error["round"] == len(data["rounds"])
    assert error["action"] == len(data["rounds"][-1]["actions"])
    assert error["text"] == "1B1" and error["seat"] is None
    assert "game is already over" in error["message"]


def test_trailing_round_after_the_game_ended():
    data = simulated()
    data["rounds"].append({"factories": ["BYRK"] * 5, "actions": []})
    error = only_error(check(data))
    assert error["round"] == len(data["rounds"])
    assert "can't follow" in error["message"]


def test_action_after_its_round_ended_belongs_to_the_next_round():
    data = hand_record()
    data["rounds"][0]["actions"].append("1B2")
    error = only_error(check(data))
    assert (error["round"], error["action"]) == (1, 6)
    assert "already over" in error["message"]


def test_round_that_starts_before_the_previous_one_ended():
    data = hand_record()
    data["rounds"][0]["actions"].pop()
    error = only_error(check(data))
    assert error["round"] == 1 and "before round 1 is over" in error["message"]


# ---------------------------------------------------------------- players and variants


def test_player_count_the_variant_does_not_allow():
    data = hand_record(players=["a", "b", "c", "d", "e"])
    error = only_error(check(data))
    assert "played by 2, 3, 4 players" in error["message"] and "5" in error["message"]


def test_unknown_variant_is_an_error_entry_with_a_suggestion():
    error = only_error(check(hand_record(variant="standrd")))
    assert "unknown variant 'standrd'" in error["message"] and "standard" in error["message"]


def test_variant_path_is_relative_to_the_record_folder(tmp_path, monkeypatch):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "house.yaml").write_text("name: house\nextends: standard\n")
    record_path = folder / "game.json"
    record_path.write_text(json.dumps(hand_record(variant="house.yaml")))
    monkeypatch.chdir(tmp_path)  # not the record's folder
    report = validate_record(Path("games/game.json"))
    assert report["valid"], report["errors"]
    assert report["variant_name"] == "house"
    moved = tmp_path / "elsewhere.json"
    moved.write_text(record_path.read_text())
    assert "variant file not found" in only_error(validate_record(moved))["message"]


def test_a_variant_file_that_breaks_its_reader_is_an_error_entry(tmp_path):
    (tmp_path / "nul.yaml").write_bytes(b"name: x\x00\n")
    error = only_error(check(hand_record(variant="nul.yaml"), tmp_path))
    assert error["message"].startswith("variant: ") and "\n" not in error["message"]


def test_variants_are_loaded_once_per_process(monkeypatch):
    first = record_variant(parse_record(json.dumps(hand_record())))
    import azul_core.variants.loading as variant_module

    def no_reload(*args, **kwargs):
        raise AssertionError("the variant was loaded again")
    monkeypatch.setattr(variant_module, "load_variant", no_reload)
    for _ in range(3):
        assert record_variant(parse_record(json.dumps(hand_record()))) is first
        assert check(hand_record())["valid"]


def test_a_plugin_failing_during_the_replay_is_an_error_entry(tmp_path):
    (tmp_path / "boom.py").write_text(
        "from azul_core import hookimpl\n\n"
        "@hookimpl\n"
        "def azul_floor_penalty(floor):\n"
        "    if len(floor) > 5:\n"
        "        raise ValueError('floor too long')\n")
    (tmp_path / "boom.yaml").write_text(
        "name: boom\nextends: standard\nplugins: [standard, colour_wall, boom.py]\n")
    # The user allows the record's plugin file to run (--trust): its failure is an error entry.
    error = only_error(check(hand_record(variant="boom.yaml"), tmp_path, Trust(everything=True)))
    assert "boom" in error["message"] and "azul_floor_penalty" in error["message"]
    assert "floor too long" in error["message"]


# ---------------------------------------------------------------- the grey wall: placements


def test_grey_wall_placements_replay_and_score():
    # Round 1 as above, then tiling with free columns: seat 0 white line 1 -> (1,1): 1,
    # blue line 4 -> (4,1): 1, floor 7: clamped to 0; seat 1 yellow line 3 -> (3,2): 1,
    # black line 4 -> (4,2) under it: 2, floor 1: -1 -> 3 - 1 = 2.
    round_1 = copy.deepcopy(ROUND_1)
    round_1["actions"] += ["w1:1", "w4:1", "w3:2", "w4:2"]
    round_1["scores"] = [0, 2]
    report = check(hand_record(variant="grey-wall", rounds=[round_1]))
    assert report["valid"], report["errors"]
    assert report["round_scores"] == [[0, 2]]


def test_grey_wall_placement_of_the_wrong_line_and_a_missing_placement():
    round_1 = copy.deepcopy(ROUND_1)
    round_1["actions"] += ["w4:1"]  # line 1 is tiled first
    error = only_error(check(hand_record(variant="grey-wall", rounds=[round_1])))
    assert (error["round"], error["action"], error["seat"]) == (1, 6, 0)
    assert "pattern line 1 is being placed" in error["message"]
    round_1["actions"][-1] = "1B1"
    assert "wall placement is expected" in only_error(
        check(hand_record(variant="grey-wall", rounds=[round_1])))["message"]


def test_grey_wall_placement_in_a_column_holding_the_colour():
    round_1 = copy.deepcopy(ROUND_1)
    round_1["actions"] += ["w1:1", "w4:1", "w3:2", "w4:2"]
    round_1["scores"] = [0, 2]
    # Round 2: seat 0 fills line 2 with white; column 1 holds its white from line 1.
    round_2 = {"factories": ["WWWW", "BBBB", "YYYY", "RRRR", "KKKK"],
               "actions": ["1W2", "2B-", "3Y-", "4R-", "5K-", "w2:1"]}
    error = only_error(check(hand_record(variant="grey-wall", rounds=[round_1, round_2])))
    assert (error["round"], error["action"], error["seat"], error["text"]) == (2, 6, 0, "w2:1")
    assert "wall column 1 is not legal" in error["message"]


# ---------------------------------------------------------------- malformed and hostile input


@pytest.mark.parametrize("text, words", [
    ("not json", "not JSON"),
    ("[1, 2]", "a JSON object, not a list"),
    ('"azul"', "not a string"),
    ("{}", "no 'format' field"),
    ('{"format": "azul-record/2"}', "is not supported"),
    ('{"format": "azul-record/1", "variant": 3}', "'variant' must be"),
    ('{"format": "azul-record/1", "variant": "standard", "players": "ana"}', "'players' must be"),
    ('{"format": "azul-record/1", "variant": "standard", "players": []}', "'players' must be"),
    ('{"format": "azul-record/1", "variant": "standard", "players": ["a"], "seed": [1]}', "'seed'"),
    ('{"format": "azul-record/1", "variant": "standard", "players": ["a"]}', "'rounds' must be"),
    ('{"format": "azul-record/1", "variant": "standard", "players": ["a"], "rounds": [1]}',
     "round 1: a round is an object"),
    ('{"format": "azul-record/1", "variant": "standard", "players": ["a"], '
     '"rounds": [{"factories": ["BBxR"]}]}', "round 1, factory 1: 'x' is not a tile letter"),
    ('{"format": "azul-record/1", "variant": "standard", "players": ["a"], '
     '"rounds": [{"factories": "BBYR"}]}', "'factories' must be a list"),
    ('{"format": "azul-record/1", "variant": "standard", "players": ["a"], '
     '"rounds": [{"factories": [], "actions": [1]}]}', "'actions' must be a list of strings"),
    ('{"format": "azul-record/1", "variant": "standard", "players": ["a"], '
     '"rounds": [{"factories": [], "scores": [true]}]}', "'scores' must be a list of whole numbers"),
    ('{"format": "azul-record/1", "variant": "standard", "players": ["a"], "rounds": [], '
     '"result": {"scores": [1], "winners": "0"}}', "'winners' must be a list"),
    ('{"format": "azul-record/1", "variant": "standard", "players": ["a"], "rounds": [], '
     '"result": {"scores": [NaN], "winners": [0]}}', "NaN is not a JSON number"),
    ('{"format": "azul-record/1", "seed": ' + "9" * 5000 + "}", "not JSON"),
])
def test_malformed_records_are_one_line_errors(text, words):
    with pytest.raises(RecordError) as caught:
        parse_record(text, "game.json")
    message = str(caught.value)
    assert words in message
    assert message.startswith("game.json: ")
    assert "\n" not in message


def test_deeply_nested_json_is_refused_without_a_traceback(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    report = validate_record(path)
    assert not report["valid"]
    assert "nested too deeply" in report["errors"][0]["message"]


def test_records_larger_than_the_cap_are_refused_before_parsing(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(json.dumps(hand_record(padding="x" * 2000)))
    with pytest.raises(RecordError, match="larger than 1000 bytes"):
        read_record(path, max_bytes=1000)
    assert "larger than" in validate_record(path, max_bytes=1000)["errors"][0]["message"]
    assert validate_record(path)["valid"]  # the default cap is far above


def test_bytes_that_are_not_utf8_are_refused():
    with pytest.raises(RecordError, match="not UTF-8"):
        parse_record(b'{"format": "\xff"}', "x.json")


def test_missing_file_and_folder_are_record_errors(tmp_path):
    with pytest.raises(RecordError, match="no such file"):
        read_record(tmp_path / "nothing.json")
    assert validate_record(tmp_path)["errors"][0]["message"] == "is a folder, not a record file"


def test_long_values_are_shortened_in_messages():
    with pytest.raises(RecordError) as caught:
        parse_record(json.dumps({"format": "x" * 10_000}))
    assert len(str(caught.value)) < 200


def test_unknown_fields_are_kept_when_a_record_is_rewritten():
    record = parse_record(json.dumps(hand_record(event="club night")))
    assert record.extra == {"event": "club night"}
    assert record.to_dict()["event"] == "club night"


# ---------------------------------------------------------------- writing: the Recorder


def play_with_recorder(variant: str, players: int, seed: int, save_to: Path | None = None):
    import random
    rules = load_variant(variant).rules
    rng = random.Random(seed)
    state = GameState(rules, players)
    recorder = Recorder(variant, [f"p{i}" for i in range(players)], seed)
    while state.phase != OVER:
        if state.phase == "deal":
            state.deal(rng)
            recorder.dealt(state)
        else:
            decision = state.random_decision(rng.random)
            state.apply(decision)
            recorder.decided(decision)
            if save_to is not None:
                recorder.save(save_to)
    return state, recorder


def test_recorder_writes_what_the_spec_describes(tmp_path):
    state, recorder = play_with_recorder("standard", 2, 11)
    data = recorder.to_dict()
    assert list(data)[:5] == ["format", "variant", "players", "seed", "rounds"]
    assert data["format"] == FORMAT and data["players"] == ["p0", "p1"] and data["seed"] == 11
    assert len(data["rounds"]) == state.round
    assert all(len(f) <= 4 for r in data["rounds"] for f in r["factories"])
    assert [r["scores"] for r in data["rounds"]] == [list(s) for s in state.round_scores]
    assert data["result"] == {"scores": state.scores(), "winners": state.winners}
    path = tmp_path / "game.json"
    recorder.save(path)
    assert json.loads(path.read_text()) == data
    assert check_record(read_record(path))["valid"]


def test_recorder_saves_atomically_after_every_decision(tmp_path):
    path = tmp_path / "live" / "game.json"
    play_with_recorder("grey-wall", 3, 5, save_to=path)
    assert [p.name for p in path.parent.iterdir()] == ["game.json"]  # no temporary file left
    report = validate_record(path)
    assert report["valid"] and report["finished"], report["errors"]


def test_recorder_record_of_an_unfinished_game_has_no_result():
    import random
    rules = load_variant("standard").rules
    state = GameState(rules, 2)
    recorder = Recorder("standard", ["a", "b"])
    state.deal(random.Random(1))
    recorder.dealt(state)
    decision = state.legal_decisions()[0]
    state.apply(decision)
    recorder.decided(decision)
    data = recorder.to_dict()
    assert "result" not in data and "seed" not in data and "scores" not in data["rounds"][0]
    assert check_record(record_from_data(data))["valid"]


def test_recorder_continues_a_record():
    _state, recorder = play_with_recorder("standard", 2, 4)
    data = recorder.to_dict()
    data["rounds"][-1]["actions"].pop()
    del data["result"]
    state = replay_state(record_from_data(data))
    resumed = Recorder.from_record(record_from_data(data), state)
    decision = state.legal_decisions()[0]
    state.apply(decision)
    resumed.decided(decision)
    again = check_record(record_from_data(resumed.to_dict()))
    assert again["valid"] and again["finished"]


# ---------------------------------------------------------------- iter_replay


def test_iter_replay_steps_through_every_deal_and_action():
    record = parse_record(json.dumps(hand_record()))
    steps = list(iter_replay(record))
    assert [(s.round, s.action) for s in steps[:7]] == [(1, a) for a in range(6)] + [(2, 0)]
    assert steps[0].text.startswith("deal BBBB YYYY")
    assert steps[1].text == "1B4" and steps[1].state.players[0].line_count[3] == 4
    assert steps[0].state.players[0].line_count[3] == 0  # each step's state is its own copy
    assert len(steps) == 2 + 5 + 11
    assert steps[-1].state.scores() == [1, 1] and steps[-1].state.phase == "deal"


def test_iter_replay_raises_at_the_first_problem_after_the_steps_before_it():
    data = hand_record()
    data["rounds"][1]["actions"][2] = "CY2"
    record = parse_record(json.dumps(data))
    seen = []
    with pytest.raises(ReplayError) as caught:
        for step in iter_replay(record, load_variant("standard")):
            seen.append((step.round, step.action))
    assert seen[-1] == (2, 2)
    assert (caught.value.round, caught.value.action, caught.value.seat) == (2, 3, 0)
    assert str(caught.value) == "round 2 action 3 (seat 1, 'CY2'): pattern line 2 is full"


def test_iter_replay_accepts_rules_as_the_variant():
    record = parse_record(json.dumps(hand_record()))
    last = list(iter_replay(record, load_variant("standard").rules))[-1]
    assert last.state.phase == "deal" and last.round == 2


# ---------------------------------------------------------------- round trips


def variant_player_counts():
    return [(name, count) for name in builtin_variants() for count in load_variant(name).players]


@pytest.mark.parametrize("variant, players", variant_player_counts())
def test_simulated_records_validate_with_the_same_scores(variant, players, tmp_path):
    for game in range(1, 4):
        data = simulated(variant, players, game)
        path = tmp_path / f"{game}.json"
        path.write_text(dumps_record(data))
        report = validate_record(path)
        assert report["valid"] and report["finished"], report["errors"]
        assert report["scores"] == data["result"]["scores"]
        assert report["winners"] == data["result"]["winners"]
        assert report["round_scores"] == [r["scores"] for r in data["rounds"]]


def test_grey_wall_records_hold_a_placement_for_every_tile_placed():
    data = simulated("grey-wall", 2, 1)
    state = replay_state(record_from_data(data))
    placements = sum(1 for r in data["rounds"] for a in r["actions"] if a.startswith("w"))
    assert placements == sum(1 for board in state.players for row in board.wall for c in row if c is not None)


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=4))
def test_property_simulate_record_validate_agree(seed, players):
    rules = load_variant("standard").rules
    result = play_game(rules, players, seed, ["random"] * players, 1, record=True, variant_ref="standard")
    report = check_record(parse_record(dumps_record(result.record)))
    assert report["valid"] and report["finished"], report["errors"]
    assert report["scores"] == result.scores
    assert report["winners"] == result.winners
    assert report["rounds"] == result.rounds


def test_a_finished_game_whose_secret_for_a_seat_is_none_reads_back_unsealed():
    """A plugin may deal a seat no secret (None): that is not a sealed secret. A finished game's
    record, and the copy of it any seat or a watcher gets, writes it as null and reads back
    whole, no seat sealed."""
    from azul_core.records.game_record import GameRecord, ResultRecord
    record = GameRecord("standard", ["ana", "bo", "cy"], [], result=ResultRecord([3, 1, 0], [0]),
                        secrets={"goal": (None, 2, None)})
    for seat in (None, 0, 1, 2):
        copy = sealed_for(record, seat, finished=True)
        data = copy.to_dict()
        assert data["secrets"] == {"goal": [None, 2, None]}
        again = record_from_data(json.loads(dumps_record(data)), "game.json")
        assert again.sealed == () and again.secrets == {"goal": (None, 2, None)}
        assert again.to_dict() == data
