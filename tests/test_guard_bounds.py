"""Every documented limit of a game record, read at the limit and one past it (issue 24).

docs/security.md and docs/records.md: at most 10 MB, whole numbers within ±10^18 (and a number
of more than 40 characters is not even converted), strings of at most 2,000 characters,
nesting at most 32 deep, ``first_player`` a seat of the record, and a result that names
exactly the winners of the replay.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import azul_core.cli.simulate  # noqa: F401  (registers the commands)
import azul_core.cli.validate  # noqa: F401
from azul_core.cli.app import app
from azul_core.records.game_record import (
    FORMAT,
    MAX_RECORD_BYTES,
    RecordError,
    parse_record,
    read_record,
    validate_record,
)
from azul_core.variants.limits import MAX_DEPTH, MAX_INT, MAX_STRING

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
SHELL = {"format": FORMAT, "variant": "standard", "players": ["ana", "bo"], "rounds": []}


def read(**fields):
    return parse_record(json.dumps({**SHELL, **fields}))


def refused(text: str) -> str:
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    return str(caught.value)


# ---------------------------------------------------------------- size: 10 MB


def record_of_size(path: Path, size: int) -> Path:
    text = json.dumps(SHELL)
    path.write_bytes(text.encode() + b" " * (size - len(text)))
    assert path.stat().st_size == size
    return path


def test_a_record_of_exactly_the_size_limit_is_read(tmp_path):
    assert MAX_RECORD_BYTES == 10 * 1024 * 1024  # "10 MB" in docs/security.md
    assert read_record(record_of_size(tmp_path / "big.json", MAX_RECORD_BYTES)).players == ["ana", "bo"]


def test_a_record_one_byte_past_the_size_limit_is_refused(tmp_path):
    with pytest.raises(RecordError, match=f"larger than {MAX_RECORD_BYTES} bytes"):
        read_record(record_of_size(tmp_path / "big.json", MAX_RECORD_BYTES + 1))
    with pytest.raises(RecordError, match=f"larger than {MAX_RECORD_BYTES} bytes"):
        parse_record(b" " * (MAX_RECORD_BYTES + 1))


# ---------------------------------------------------------------- whole numbers: ±10^18, 40 digits


@pytest.mark.parametrize("seed", [MAX_INT, -MAX_INT])
def test_a_number_at_the_limit_is_read(seed):
    assert read(seed=seed).seed == seed


@pytest.mark.parametrize("seed", [MAX_INT + 1, -MAX_INT - 1])
def test_a_number_one_past_the_limit_is_refused(seed):
    assert "seed: the number with 19 digits is out of range" in refused(json.dumps({**SHELL, "seed": seed}))


def test_a_number_of_forty_digits_is_converted_then_refused_and_one_of_41_is_not_converted():
    # 40 digits: converted, then out of range; 41: refused by the parser before int() runs
    # (converting a number costs time quadratic in its digits).
    assert "seed: the number with 40 digits is out of range" in refused(json.dumps({**SHELL, "seed": 10**40 - 1}))
    assert refused(json.dumps({**SHELL, "seed": 10**40})).startswith("not JSON: a number of 41 digits")


def test_a_fraction_of_forty_characters_is_read_and_one_of_41_is_not():
    forty = "1." + "0" * 38
    shell = json.dumps(SHELL)[:-1]
    assert parse_record(f'{shell}, "note": {forty}}}').extra["note"] == 1.0
    assert refused(f'{shell}, "note": {forty}0}}').startswith("not JSON: a number of 41 characters")


# ---------------------------------------------------------------- strings: 2,000 characters


def test_a_name_at_the_length_limit_is_read():
    assert read(players=["a" * MAX_STRING, "bo"]).players[0] == "a" * MAX_STRING


def test_a_name_one_past_the_length_limit_is_refused():
    assert f"a string of {MAX_STRING + 1} characters" in refused(
        json.dumps({**SHELL, "players": ["a" * (MAX_STRING + 1), "bo"]}))


# ---------------------------------------------------------------- nesting: 32 levels


def nested(levels: int) -> dict:
    """A record nested ``levels`` deep: the record itself is level 1, each list one more."""
    note: list = []
    for _ in range(levels - 2):
        note = [note]
    return {**SHELL, "note": note}


def test_a_record_nested_32_levels_is_read():
    assert MAX_DEPTH == 32
    assert read(**nested(MAX_DEPTH)).extra["note"]


def test_a_record_nested_33_levels_is_refused():
    assert "nested more than 32 levels deep" in refused(json.dumps(nested(MAX_DEPTH + 1)))


# ---------------------------------------------------------------- first_player: a seat of the record


@pytest.mark.parametrize("players", [["ana", "bo"], ["ana", "bo", "cy", "di"]])
def test_the_last_seat_may_start_a_record(players):
    assert read(players=players, first_player=len(players) - 1).first_player == len(players) - 1


@pytest.mark.parametrize("players", [["ana", "bo"], ["ana", "bo", "cy", "di"]])
def test_one_past_the_last_seat_may_not_start_a_record(players):
    message = refused(json.dumps({**SHELL, "players": players, "first_player": len(players)}))
    assert f"'first_player' must be the seat that started round 1, a whole number from 0 to {len(players) - 1}" \
        in message
    assert "from 0 to" in refused(json.dumps({**SHELL, "first_player": -1}))


# ---------------------------------------------------------------- the result names the winners exactly


@pytest.fixture(scope="module")
def shared_victory(tmp_path_factory) -> dict:
    """A finished standard game (random bots, seed 16) that ends in a shared victory."""
    folder = tmp_path_factory.mktemp("shared")
    result = CliRunner().invoke(app, ["simulate", "--games", "1", "--seed", "16", "--bots", "random",
                                      "--record-dir", str(folder)],
                                env=ENV)
    assert result.exit_code == 0, result.output
    data = json.loads((folder / "game-00001.json").read_text())
    assert data["result"]["winners"] == [0, 1], data["result"]
    return data


@pytest.mark.parametrize("winners, valid", [([0, 1], True), ([1, 0], True), ([0], False), ([1], False)])
def test_a_shared_victory_must_name_every_winner(tmp_path, shared_victory, winners, valid):
    data = {**shared_victory, "result": {**shared_victory["result"], "winners": winners}}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    report = validate_record(path)
    assert report["valid"] is valid, report["errors"]
    if not valid:
        assert f"the result names winners {winners}, the replay [0, 1]" in report["errors"][0]["message"]
    result = CliRunner().invoke(app, ["validate", str(path)], env=ENV)
    assert result.exit_code == (0 if valid else 1), result.output


# ---------------------------------------------------------------- what the reader says, and what it keeps
# (survivors of bench/mutation.py, scope records: docs/testing.md)


def test_a_refusal_names_the_file_it_came_from(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff{}")
    with pytest.raises(RecordError) as caught:
        read_record(path)
    assert caught.value.origin == str(path) and caught.value.reason == "not UTF-8 text (byte 0)"
    assert str(caught.value) == f"{path}: not UTF-8 text (byte 0)"
    with pytest.raises(RecordError) as caught:
        read_record(tmp_path)
    assert str(caught.value) == f"{tmp_path}: is a folder, not a record file"
    with pytest.raises(RecordError) as caught:
        parse_record("{}" + " " * 10, origin="x.json", max_bytes=11)
    assert str(caught.value) == "x.json: larger than 11 bytes: refused"


def test_a_record_with_a_byte_order_mark_is_read():
    assert parse_record(b"\xef\xbb\xbf" + json.dumps(SHELL).encode()).players == ["ana", "bo"]


@pytest.mark.parametrize("text, reason", [
    ('{"format": "azul-record/1", "format": "azul-record/1"}', "the key 'format' appears twice in one object"),
    ('{"format": "azul-record/1", "variant": "standard", "players": ["a", "b"], "rounds": [], '
     '"note": {"y": 1, "x": 2, "x": 3}}', "the key 'x' appears twice in one object"),
])
def test_a_key_written_twice_is_refused_by_name(text, reason):
    assert reason in refused(text)


@pytest.mark.parametrize("result, reason", [
    ([1, 2], "'result' must be an object with 'scores' and 'winners'"),
    ({"scores": [1, True], "winners": [0]}, "result: 'scores' must be a list of whole numbers, one per seat"),
    ({"scores": [1, 2], "winners": "0"}, "result: 'winners' must be a list of seats (numbers from 0)"),
])
def test_a_malformed_result_is_refused_with_the_reason(result, reason):
    assert refused(json.dumps({**SHELL, "result": result})) == reason


@pytest.mark.parametrize("value, shown", [
    ("f" * 38, "'" + "f" * 38 + "'"),               # 40 characters quoted: shown whole
    ("f" * 39, "'" + "f" * 35 + "...'"),             # 41: cut to 40
])
def test_a_wrong_format_is_shown_whole_up_to_40_characters(value, shown):
    assert refused(json.dumps({**SHELL, "format": value})) == \
        f"format {shown} is not supported (expected '{FORMAT}')"


@pytest.mark.parametrize("error, line", [
    ({"round": 2, "action": 3, "seat": 1, "text": "1B1", "message": "no"}, "round 2 action 3 (seat 2, '1B1'): no"),
    ({"round": 2, "action": None, "seat": None, "text": None, "message": "no"}, "round 2: no"),
    ({"round": None, "action": None, "seat": 1, "text": "1B1", "message": "no"}, "seat 2, '1B1': no"),
    ({"round": None, "action": None, "seat": None, "text": None, "message": "no"}, "no"),
])
def test_an_error_entry_reads_as_one_line(error, line):
    from azul_core.records.game_record import ReplayError, describe_error
    assert describe_error(error) == line
    assert str(ReplayError(error["message"], error["round"], error["action"], error["seat"], error["text"])) == line


def test_who_started_is_kept_through_reading_resuming_and_writing(tmp_path):
    from azul_core.records.game_record import Recorder, dumps_record, write_record
    record = read(first_player=1, seed=5, note="kept")
    assert record.to_dict()["first_player"] == 1 and "first_player" not in read().to_dict()
    resumed = Recorder.from_record(record)
    assert (resumed.first_player, resumed.seed, resumed.extra) == (1, 5, {"note": "kept"})
    again = resumed.to_record()
    assert (again.first_player, again.seed, again.extra) == (1, 5, {"note": "kept"})
    path = tmp_path / "sub" / "game.json"
    write_record(path, again.to_dict(), durable=False)
    assert read_record(path).first_player == 1
    assert dumps_record(again.to_dict()).splitlines()[0:2] == ["{", f'  "format": "{FORMAT}",']


def test_a_recorder_refuses_a_decision_before_the_first_deal():
    from azul_core.records.game_record import Recorder
    with pytest.raises(ValueError, match="^a decision before the first deal$"):
        Recorder("standard", ["ana", "bo"]).decided((1, 0, 0))


@pytest.mark.parametrize("text, kind", [("[]", "a list"), ('"x"', "a string"), ("true", "true/false"),
                                        ("null", "null"), ("1", "a number"), ("1.5", "a number")])
def test_a_record_that_is_not_an_object_says_what_it_is(text, kind):
    assert refused(text) == f"a record is a JSON object, not {kind}"


def test_a_written_record_gets_the_users_usual_mode_and_leaves_no_temporary_file(tmp_path):
    import os
    import stat

    from azul_core.records.game_record import write_record
    previous = os.umask(0o027)
    try:
        write_record(tmp_path / "game.json", dict(SHELL))
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "game.json").stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    with pytest.raises(TypeError):  # not JSON: nothing is written, the temporary file is gone
        write_record(tmp_path / "other.json", {"format": object()})
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_crashed_write_leaves_a_temporary_that_the_cleanup_finds(tmp_path, monkeypatch):
    import os

    from azul_core.records import game_record
    target = tmp_path / "a" / "b" / "game.json"      # two folders that do not exist yet
    monkeypatch.setattr(game_record.os, "replace", lambda *_: (_ for _ in ()).throw(OSError("crash")))
    monkeypatch.setattr(game_record.os, "unlink", lambda *_: None)  # as if the process died here
    with pytest.raises(OSError, match="crash"):
        game_record.write_record(target, dict(SHELL))
    left = list(target.parent.iterdir())
    assert len(left) == 1 and left[0].name.startswith(".game.json.") and left[0].suffix == ".tmp"
    monkeypatch.undo()
    assert game_record.remove_stale_temporaries(target) == left and not left[0].exists()
    game_record.write_record(target, dict(SHELL), durable=True)
    assert sorted(os.listdir(target.parent)) == ["game.json"] and read_record(target).players == ["ana", "bo"]


def test_a_replay_under_another_variant_uses_its_rules(shared_victory):
    from azul_core.records.game_record import iter_replay, record_from_data, replay_state
    from azul_core.variants.loading import find_variant, load_variant
    record = record_from_data(shared_victory)
    family = load_variant(EXAMPLES / "family-floor" / "family-floor.yaml")
    standard = replay_state(record)
    other = replay_state(record, family)
    assert standard.scores() == shared_victory["result"]["scores"] and other.scores() != standard.scores()
    assert list(iter_replay(record, family))[-1].state.scores() == other.scores()
    assert replay_state(record, load_variant(find_variant("standard"))).scores() == standard.scores()


def test_a_report_names_its_file_and_every_error_has_the_same_fields(tmp_path, shared_victory):
    rounds = [dict(r) for r in shared_victory["rounds"]]
    rounds[-1]["actions"] = rounds[-1]["actions"][:3]   # the last round cut short, its scores kept
    path = tmp_path / "cut.json"
    path.write_text(json.dumps({**shared_victory, "rounds": rounds}))
    report = validate_record(path)
    assert report["path"] == str(path) and not report["valid"]
    assert [(e["round"], e["message"]) for e in report["errors"]] == [
        (len(rounds), "scores are recorded for a round the record does not finish"),
        (None, "a result is recorded, but the game is not over")]
    assert all(set(e) == {"round", "action", "seat", "text", "message"} for e in report["errors"])
    (tmp_path / "bad.json").write_text("[]")
    bad = validate_record(tmp_path / "bad.json")
    assert bad["path"] == str(tmp_path / "bad.json") and bad["errors"][0]["message"] == \
        "a record is a JSON object, not a list"


# The first thing a replay refuses, as `azul validate` reports it (round, action, seat, text, message).
ONE_ROUND = {"factories": ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"],
             "actions": ["1B4", "2Y3", "3R-", "4K4", "5W1"]}


@pytest.mark.parametrize("actions, error", [
    (["1B4", "2Y3", "3R-", "4K4", "5W1", "CB1"],
     {"round": 1, "action": 6, "seat": None, "text": "CB1",
      "message": "round 1 is already over (its tiles are all drafted and tiled): this action belongs to the next round"}),
    (["1B4", "take blue"],
     {"round": 1, "action": 2, "seat": 1, "text": "take blue",
      "message": "not an action: expected a draft like 2R4 or CK- (source, colour, line or - for the floor), "
                 "a placement like w1:3, a plugin's move like +pass or the tiles a rule drew from the bag "
                 "like ~RB"}),
    (["w1:1"],
     {"round": 1, "action": 1, "seat": 0, "text": "w1:1",
      "message": "this variant places wall tiles itself: a record of it holds no placements"}),
])
def test_a_replay_refusal_says_where_and_why(tmp_path, actions, error):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**SHELL, "rounds": [{**ONE_ROUND, "actions": actions}]}))
    report = validate_record(path)
    assert report["errors"] == [error] and report["path"] == str(path)


def test_a_deal_that_cant_come_out_of_the_bag_is_named(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**SHELL, "rounds": [{"factories": ["BBBBB", "", "RRRR", "KKKK", "WWWW"],
                                                     "actions": []}]}))
    message = validate_record(path)["errors"][0]["message"]
    assert message.startswith("factories 'BBBBB' '' 'RRRR' 'KKKK' 'WWWW' can't come out of the bag and lid: ")


def test_a_record_of_a_game_that_ended_says_what_follows_it(tmp_path, shared_victory):
    rounds = shared_victory["rounds"] + [ONE_ROUND]
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**shared_victory, "rounds": rounds}))
    assert validate_record(path)["errors"][0] == {
        "round": len(rounds), "action": None, "seat": None, "text": None,
        "message": f"the game ended in round {len(rounds) - 1}; round {len(rounds)} can't follow"}
    last = dict(shared_victory["rounds"][-1])
    last["actions"] = last["actions"] + ["1B1"]
    path.write_text(json.dumps({**shared_victory, "rounds": shared_victory["rounds"][:-1] + [last]}))
    assert validate_record(path)["errors"][0] == {
        "round": len(rounds) - 1, "action": len(last["actions"]), "seat": None, "text": "1B1",
        "message": "the game is already over: nothing may follow its last action"}


def test_a_variant_whose_plugin_fails_is_one_error_entry_naming_it(tmp_path):
    from azul_core.variants.loading import Trust
    (tmp_path / "bad.py").write_text("def azul_floor_spaces():\n    return 'many'\n")
    (tmp_path / "bad.yaml").write_text("name: bad\nextends: standard\nplugins: [standard, colour_wall, bad.py]\n")
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**SHELL, "variant": "bad.yaml"}))
    report = validate_record(path, trust=Trust(everything=True))
    assert report["path"] == str(path) and report["variant"] == "bad.yaml" and report["players"] == ["ana", "bo"]
    assert [e["message"] for e in report["errors"]] == [
        f"variant: {tmp_path / 'bad.yaml'}:3:34: plugin 'bad' returned 'many' from azul_floor_spaces: expected int"]


def test_refusals_inside_a_record_name_the_place(tmp_path):
    long_key = "k" * 50
    assert refused(json.dumps({**SHELL, "rounds": [{"factories": ["B" * 2001], "actions": []}]})) == \
        "rounds[0].factories[0]: a string of 2001 characters (at most 2000)"
    assert refused(json.dumps({**SHELL, long_key: "\x1b"})).startswith(f"'{long_key[:35]}...': a string with")
    assert refused("[" * 100_000 + "]" * 100_000) == "not a record: JSON nested too deeply"
    assert refused('{"a": 1, "a": 2}') == ("not a record: the key 'a' appears twice in one object "
                                           "(a reader would silently keep one of them)")



@pytest.mark.parametrize("fields, reason", [
    ({"rounds": [5]}, "round 1: a round is an object with 'factories' and 'actions', not a number"),
    ({"rounds": [{}, None]}, "round 1: 'factories' must be a list of strings of colour letters, e.g. \"BBYR\""),
    ({"variant": 3}, "'variant' must be a variant name or a path to a variant file"),
    ({"players": []}, "'players' must be a non-empty list of player names (strings), in seat order"),
    ({"seed": 1.5}, "'seed' must be a number or a string"),
    ({"rounds": {}}, "'rounds' must be a list of rounds"),
    ({"first_player": True}, "'first_player' must be the seat that started round 1, a whole number from 0 to 1"),
    ({"first_player": "1"}, "'first_player' must be the seat that started round 1, a whole number from 0 to 1"),
])
def test_each_field_of_a_record_is_refused_with_its_reason(fields, reason):
    assert refused(json.dumps({**SHELL, **fields})) == reason


def test_where_a_refused_value_sits_is_said_in_full_up_to_40_characters():
    forty = "X" + "k" * 39                       # a key may start with any letter
    assert refused(json.dumps({**SHELL, forty: "\x07"})).startswith(f"{forty}: a string with the control")
    assert refused(json.dumps("a" * 2001)) == "the record: a string of 2001 characters (at most 2000)"
    with pytest.raises(RecordError) as caught:
        parse_record('{"a": [' * 40 + "]}" * 40, origin="deep.json")
    assert str(caught.value) == "deep.json: 'a[0].a[0].a[0].a[0].a[0].a[0].a[0]....': nested more than 32 levels deep"
    for text, reason in (("[" * 100_000 + "]" * 100_000, "not a record: JSON nested too deeply"),
                         ('{"a": 1, "a": 2}', "not a record: the key 'a' appears twice")):
        with pytest.raises(RecordError) as caught:
            parse_record(text, origin="bad.json")
        assert str(caught.value).startswith(f"bad.json: {reason}")


def test_a_recorder_reads_scores_from_the_state_it_was_given_last(tmp_path, shared_victory):
    from azul_core.records.game_record import Recorder, record_from_data, replay_state
    record = record_from_data(shared_victory)
    final = replay_state(record)
    empty = Recorder("standard", ["ana", "bo"]).to_dict()
    assert empty["rounds"] == [] and "result" not in empty and "first_player" not in empty
    resumed = Recorder.from_record(record, final)
    assert resumed.to_dict()["result"] == shared_victory["result"]       # the state it was given
    fresh = Recorder.from_record(record)
    assert "result" not in fresh.to_dict()
    assert fresh.to_record(final).result.winners == [0, 1]               # a state given now wins
    fresh.decided((1, 0, 0), final)                                      # ... and is kept
    assert fresh.to_dict()["result"] == shared_victory["result"]
    path = tmp_path / "saved.json"
    Recorder.from_record(record).save(path, final)
    assert json.loads(path.read_text())["result"] == shared_victory["result"]
    # One line per round, easy to diff.
    assert sum(line.startswith('    {"factories"') for line in path.read_text().splitlines()) == len(record.rounds)


def test_a_written_record_is_readable_by_everyone_the_umask_allows(tmp_path):
    import os
    import stat

    from azul_core.records.game_record import write_record
    previous = os.umask(0)
    try:
        write_record(tmp_path / "game.json", dict(SHELL))
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "game.json").stat().st_mode) == 0o666


def test_a_record_started_by_seat_one_is_replayed_from_seat_one(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**SHELL, "first_player": 1, "rounds": [{**ONE_ROUND, "actions": ["1B4"]}]}))
    report = validate_record(path)
    assert report["valid"] and report["to_move"] == 0 and report["rounds"] == 1


def test_replaying_a_placement_the_variant_makes_itself_is_a_replay_error():
    from azul_core.records.game_record import ReplayError, iter_replay, record_from_data, replay_state
    record = record_from_data({**SHELL, "rounds": [{**ONE_ROUND, "actions": ["w1:1"]}]})
    with pytest.raises(ReplayError, match="this variant places wall tiles itself"):
        replay_state(record)
    with pytest.raises(ReplayError, match="this variant places wall tiles itself"):
        list(iter_replay(record))


def test_check_record_names_the_path_given_or_the_records_own(shared_victory):
    from azul_core.records.game_record import check_record, record_from_data
    record = record_from_data(shared_victory, origin="from/file.json")
    assert check_record(record)["path"] == "from/file.json"
    assert check_record(record, "given.json")["path"] == "given.json"
    assert check_record(record_from_data(shared_victory))["path"] == ""
    five = record_from_data({**SHELL, "players": list("abcde")}, origin="five.json")
    report = check_record(five)
    assert report["path"] == "five.json" and report["players"] == list("abcde")
    assert report["variant_name"] == "standard"
    assert report["errors"][0]["message"] == "variant 'standard' is played by 2, 3, 4 players, but the record names 5"


def test_every_round_with_wrong_scores_after_an_unscored_one_is_reported(tmp_path, shared_victory):
    rounds = [dict(r) for r in shared_victory["rounds"]]
    rounds[0] = {key: value for key, value in rounds[0].items() if key != "scores"}   # no scores
    rounds[1]["scores"] = [99, 98]
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**shared_victory, "rounds": rounds}))
    errors = validate_record(path)["errors"]
    assert errors[0]["round"] == 2 and errors[0]["message"].startswith(
        "scores after the round differ from the replay: seat 1 recorded 99, replay ")
    assert "; seat 2 recorded 98, replay " in errors[0]["message"]


def test_a_report_counts_a_finished_round_and_an_error_without_a_file_is_its_reason(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**SHELL, "rounds": [ONE_ROUND]}))   # round 1 over, round 2 not dealt
    report = validate_record(path)
    assert report["valid"] and report["rounds"] == 1 and report["to_move"] is None
    assert str(RecordError("no 'format' field")) == "no 'format' field"


# ---------------------------------------------------------------- records mutants: secrets, memory, tile kinds
# (survivors of bench/mutation.py, scope records, in the code added since its earlier run:
# docs/mutation/records.md)

SECRET_ROUND = {"factories": ["BKWW", "YKKW", "BYYR", "BRRK", "YYKW"],
                "actions": ["4R2", "3B1", "2Y1", "5Y2", "1W3", "CK5", "CW4", "CB3", "CY5", "CR4"]}
PASS_ROUND = {"factories": ["YWWW", "BYKW", "BYRK", "BRKK", "YRKW"],
              "actions": ["4K2", "2Y1", "5K1", "1W4", "3R4", "CR2", "CB5", "CW3", "+pass", "+pass", "CK-", "CY-"]}
WILD_ROUND = {"factories": ["RWWW", "BYKW", "YYKJ", "BBRK", "RKKJ"],
              "actions": ["1W3", "5K2", "4B2", "3K1", "2K1", "CR3", "CY4", "CW4", "CB5", "CK5"]}


def example_variant(name: str) -> Path:
    return EXAMPLES / name / f"{name}.yaml"


def validated(tmp_path, name: str, **fields) -> dict:
    """``azul validate --variant examples/NAME/NAME.yaml`` of a record of that variant, as a report."""
    from azul_core.variants.loading import Trust
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**SHELL, "variant": str(example_variant(name)), **fields}))
    return validate_record(path, trust=Trust.of([example_variant(name)]))


def test_a_refused_value_inside_an_action_is_reported_at_its_round_and_action(tmp_path):
    rounds = [ONE_ROUND, {"factories": ONE_ROUND["factories"], "actions": ["1B4", "2Y3", "\x07"]}]
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**SHELL, "rounds": rounds}))
    [error] = validate_record(path)["errors"]
    assert (error["round"], error["action"], error["seat"], error["text"]) == (2, 3, None, None)
    assert error["message"].startswith("rounds[1].actions[2]: a string with")
    result = CliRunner().invoke(app, ["validate", str(path)], env=ENV)
    assert result.exit_code == 1 and "round 2 action 3: rounds[1].actions[2]: a string with" in result.output
    # A round that is itself a refused value: its round, no action; a value outside the rounds: neither.
    for fields, where in (({"rounds": ["x" * 2001]}, (1, None)),
                          ({"rounds": [{**ONE_ROUND, "factories": ["B" * 2001]}]}, (1, None)),
                          ({"players": ["ana", "\x07"]}, (None, None)),
                          ({"note": {"rounds": [{"actions": ["\x07"]}]}}, (None, None))):
        path.write_text(json.dumps({**SHELL, **fields}))
        [error] = validate_record(path)["errors"]
        assert (error["round"], error["action"]) == where, (fields, error)
    with pytest.raises(RecordError) as caught:
        parse_record(json.dumps({**SHELL, "rounds": rounds}))
    assert (caught.value.round, caught.value.action) == (2, 3)
    assert (RecordError("no").round, RecordError("no").action) == (None, None)


def test_a_record_of_a_variant_with_secrets_replays_them_and_keeps_them(tmp_path):
    report = validated(tmp_path, "secret-goal", secrets={"secret_goal": [2, 0]}, rounds=[SECRET_ROUND])
    assert report["valid"] and report["rounds"] == 1 and report["sealed"] == [], report["errors"]
    record = read_record(tmp_path / "game.json")
    assert record.secrets == {"secret_goal": (2, 0)} and record.sealed == ()
    assert record.to_dict()["secrets"] == {"secret_goal": [2, 0]}
    assert list(record.to_dict()) == ["format", "variant", "players", "secrets", "rounds"]
    # A copy for seat 0 seals seat 1's secret; it reads back sealed and still replays the round.
    from azul_core.records.game_record import dumps_record, iter_replay, sealed_for
    for seat, shown, sealed in ((0, [2, {"sealed": True}], [1]), (1, [{"sealed": True}, 0], [0]),
                                (None, [{"sealed": True}, {"sealed": True}], [0, 1])):
        copy = sealed_for(record, seat, finished=False)
        assert copy.to_dict()["secrets"] == {"secret_goal": shown} and list(copy.sealed) == sealed
        # The copy itself holds no sealed secret: the web's replay page replays it as it is.
        hidden = {"secret_goal": tuple(None if s in sealed else v for s, v in enumerate((2, 0)))}
        assert copy.secrets == hidden
        assert list(iter_replay(copy, load_example("secret-goal")))[0].state.secrets == hidden
        (tmp_path / "copy.json").write_text(dumps_record(copy.to_dict()))
        again = read_record(tmp_path / "copy.json")
        assert again.sealed == tuple(sealed)
        assert again.secrets == {"secret_goal": tuple(None if s in sealed else v for s, v in enumerate((2, 0)))}
    report = validate_record(tmp_path / "copy.json", trust=_trust("secret-goal"))
    assert report["valid"] and report["sealed"] == [0, 1], report["errors"]
    # A copy of a copy keeps every seat sealed so far; a finished game, or one without secrets, is whole.
    assert sealed_for(sealed_for(record, 0, finished=False), 1, finished=False).sealed == (0, 1)
    assert sealed_for(record, 0, finished=True) is record
    plain = read(rounds=[])
    assert sealed_for(plain, 0, finished=False) is plain and "secrets" not in plain.to_dict()


def _trust(name: str):
    from azul_core.variants.loading import Trust
    return Trust.of([example_variant(name)])


@pytest.mark.parametrize("secrets, reason", [
    ([2, 0], "'secrets' must be an object: plugin name -> a list with each seat's secret"),
    ({"secret_goal": [2]}, "secrets of 'secret_goal': expected a list of 2 values, one per seat"),
    ({"secret_goal": "20"}, "secrets of 'secret_goal': expected a list of 2 values, one per seat"),
    ({"secret_goal": [2, 1.5]}, "secrets of 'secret_goal', seat 1: a float is not a plain immutable value "
                                "(use None, true/false, whole numbers, strings and tuples of these)"),
    ({"secret_goal": [{"x": 1}, 0]}, "secrets of 'secret_goal', seat 0: a dict is not a plain immutable value "
                                     "(use None, true/false, whole numbers, strings and tuples of these)"),
])
def test_malformed_secrets_are_refused_with_the_reason(secrets, reason):
    assert refused(json.dumps({**SHELL, "secrets": secrets})) == reason


@pytest.mark.parametrize("memory, reason", [
    ([1], "'memory' must be an object: plugin name -> its memory"),
    ({"pass_once": [True, 2.5]}, "memory of 'pass_once': a float is not a plain immutable value "
                                 "(use None, true/false, whole numbers, strings and tuples of these)"),
])
def test_a_malformed_memory_is_refused_with_the_reason(memory, reason):
    assert refused(json.dumps({**SHELL, "memory": memory})) == reason


def test_secrets_that_do_not_fit_the_variant_are_a_replay_error(tmp_path):
    [error] = validated(tmp_path, "secret-goal", rounds=[SECRET_ROUND])["errors"]
    assert error == {"round": None, "action": None, "seat": None, "text": None,
                     "message": "the variant deals secrets at the start, but the record has no 'secrets'"}
    [error] = validated(tmp_path, "pass-once", secrets={"other": [1, 2]}, rounds=[PASS_ROUND])["errors"]
    assert error["message"] == "secrets: secrets of plugins that deal none: other"
    # A variant that deals none, without secrets: nothing to say.
    assert validated(tmp_path, "wild-tiles", rounds=[WILD_ROUND])["valid"]


def test_a_plugins_move_and_memory_are_replayed_and_checked(tmp_path):
    from azul_core.records.game_record import replay_state
    rounds = [{**SECRET_ROUND, "factories": ["YKWW", "BYRK", "YYKW", "BBRK", "YRRK"],
               "actions": ["4B2", "5R2", "2K1", "3W1", "1W3", "CY5", "CK4", "CR3", "CB5"]}, PASS_ROUND]
    report = validated(tmp_path, "pass-once", rounds=rounds, memory={"pass_once": [True, True]})
    assert report["valid"] and report["rounds"] == 2, report["errors"]
    record = read_record(tmp_path / "game.json")
    assert record.memory == {"pass_once": (True, True)}
    assert record.to_dict()["memory"] == {"pass_once": [True, True]}
    assert replay_state(record, load_example("pass-once")).memory == {"pass_once": (True, True)}
    [error] = validated(tmp_path, "pass-once", rounds=rounds, memory={"pass_once": [True, False]})["errors"]
    assert error["message"] == ("the plugins' memory differs from the replay: pass_once: recorded (True, False), "
                                "replay (True, True)")
    [error] = validated(tmp_path, "pass-once", rounds=rounds, memory={"other": 1})["errors"]
    assert error["message"] == ("the plugins' memory differs from the replay: other: recorded 1, replay None; "
                                "pass_once: recorded None, replay (True, True)")
    [error] = validated(tmp_path, "pass-once", rounds=rounds,
                        memory={"pass_once": [True, True], "other": 1})["errors"]   # only what differs
    assert error["message"] == "the plugins' memory differs from the replay: other: recorded 1, replay None"
    # No memory field: nothing to compare; an empty one is written as none.
    assert validated(tmp_path, "pass-once", rounds=rounds)["valid"]
    assert read(memory={}).memory == {} and "memory" not in read(memory={}).to_dict()
    assert read().memory is None
    # The standard game has no such move: the replay names it.
    path = tmp_path / "standard.json"
    path.write_text(json.dumps({**SHELL, "rounds": [{**ONE_ROUND, "actions": ["+pass"]}]}))
    [error] = validate_record(path)["errors"]
    assert (error["round"], error["action"], error["seat"], error["text"]) == (1, 1, 0, "+pass")
    assert "pass" in error["message"] and not error["message"].startswith("not an action")


def load_example(name: str):
    from azul_core.variants.loading import load_variant
    return load_variant(str(example_variant(name)))


def test_a_variants_extra_tiles_are_read_replayed_and_recorded(tmp_path):
    from azul_core.records.game_record import Recorder, replay_state
    assert validated(tmp_path, "wild-tiles", rounds=[WILD_ROUND])["valid"]
    # The standard game has no J tile: the replay says which tiles it has.
    path = tmp_path / "standard.json"
    path.write_text(json.dumps({**SHELL, "rounds": [WILD_ROUND]}))
    [error] = validate_record(path)["errors"]
    assert error["round"] == 1 and error["message"] == (
        "factories 'RWWW' 'BYKW' 'YYKJ' 'BBRK' 'RKKJ' can't come out of the bag and lid: "
        "'J' is not a tile of this variant (its tiles: B Y R K W)")
    # A recorder writes a deal of the variant's tiles with their letters.
    state = replay_state(read_record(tmp_path / "game.json"), load_example("wild-tiles"))
    recorder = Recorder("wild-tiles.yaml", ["ana", "bo"])
    recorder.dealt(replay_state(parse_record(json.dumps(
        {**SHELL, "rounds": [{**WILD_ROUND, "actions": []}]})), load_example("wild-tiles")))
    assert recorder.to_dict()["rounds"][0]["factories"] == WILD_ROUND["factories"]
    assert state.round_scores and "secrets" not in recorder.to_dict()


def test_a_record_cut_while_a_seat_chooses_a_plugins_move_says_who_is_to_move(tmp_path):
    # factory-one-shift: a draft from factory 1 onto a line leaves its seat a choice to make.
    report = validated(tmp_path, "factory-one-shift", rounds=[{**ONE_ROUND, "actions": ["1B4"]}])
    assert report["valid"] and report["to_move"] == 0 and report["rounds"] == 1, report["errors"]
    report = validated(tmp_path, "factory-one-shift", first_player=1, rounds=[{**ONE_ROUND, "actions": ["1B4"]}])
    assert report["valid"] and report["to_move"] == 1, report["errors"]


def test_a_recorder_writes_the_secrets_and_memory_of_the_state_it_is_given(tmp_path):
    from azul_core.records.game_record import Recorder, replay_state
    validated(tmp_path, "secret-goal", secrets={"secret_goal": [2, 0]}, rounds=[SECRET_ROUND])
    record = read_record(tmp_path / "game.json")
    state = replay_state(record, load_example("secret-goal"))
    saved = Recorder.from_record(record, state).to_dict()
    assert saved["secrets"] == {"secret_goal": [2, 0]} and "memory" not in saved
    assert "secrets" not in Recorder.from_record(record).to_dict()      # no state: nothing to copy
    validated(tmp_path, "pass-once", rounds=[PASS_ROUND])
    record = read_record(tmp_path / "game.json")
    saved = Recorder.from_record(record, replay_state(record, load_example("pass-once"))).to_dict()
    assert saved["memory"] == {"pass_once": [True, True]} and "secrets" not in saved


def test_a_replay_shows_a_factory_left_empty_when_the_tiles_run_out(tmp_path):
    import azul_core.cli.replay  # noqa: F401  (registers the command)
    # 20 tiles: round 1 deals them all; round 2 deals the 16 in the lid, and factory 5 stays empty.
    (tmp_path / "few.yaml").write_text("name: few-tiles\nextends: standard\nplayers: [2]\n"
                                       "settings:\n  tiles_per_colour: 4\n")
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**SHELL, "variant": "few.yaml",
                                "rounds": [ONE_ROUND, {"factories": ["BBBY", "YYRR", "RRKK", "KWWW", ""]}]}))
    result = CliRunner().invoke(app, ["replay", str(path), "--at", "2:0"], env=ENV)
    assert result.exit_code == 0, result.output
    assert "round 2 dealt: BBBY YYRR RRKK KWWW (empty)" in result.stdout


def test_a_record_a_recorder_builds_replays_as_it_is():
    from azul_core.engine.notation import parse_decision
    from azul_core.records.game_record import Recorder, check_record, iter_replay
    played = read(rounds=[ONE_ROUND])
    recorder = Recorder("standard", ["ana", "bo"])
    for step in iter_replay(played):
        if step.action == 0:
            recorder.dealt(step.state)
        else:
            recorder.decided(parse_decision(step.text), step.state)
    record = recorder.to_record()           # not through a file: as a program keeps it
    assert record.first_player == 0 and record.rounds[0].actions == ONE_ROUND["actions"]
    report = check_record(record)
    assert report["valid"] and report["rounds"] == 1 and report["round_scores"] == [[0, 1]], report


def test_a_report_of_a_file_that_is_not_read_counts_no_round(tmp_path):
    (tmp_path / "bad.json").write_text("[]")
    result = CliRunner().invoke(app, ["validate", "--json", str(tmp_path / "bad.json")], env=ENV)
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and report["rounds"] == 0 and report["scores"] is None
    (tmp_path / "game.json").write_text(json.dumps({**SHELL, "variant": "no-such-variant", "rounds": [ONE_ROUND]}))
    report = validate_record(tmp_path / "game.json")
    assert not report["valid"] and report["rounds"] == 0 and report["round_scores"] == []


def test_after_wrong_scores_a_later_unfinished_round_with_scores_is_not_reported_again(tmp_path, shared_victory):
    rounds = [dict(r) for r in shared_victory["rounds"]]
    rounds[0]["scores"] = [99, 98]
    rounds[-1]["actions"] = rounds[-1]["actions"][:3]   # the last round cut short, its scores kept
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**shared_victory, "rounds": rounds}))
    errors = validate_record(path)["errors"]
    assert [(e["round"], e["message"].partition(":")[0]) for e in errors] == [
        (1, "scores after the round differ from the replay"),
        (None, "a result is recorded, but the game is not over")]


def test_a_factory_letter_that_is_not_a_tile_letter_is_named_after_an_a_and_a_z():
    # A and Z are tile letters (a variant's extra tiles): the letter named is the first that is not one.
    assert refused(json.dumps({**SHELL, "rounds": [{"factories": ["AZYx"], "actions": []}]})) == (
        "round 1, factory 1: 'x' is not a tile letter (B blue, Y yellow, R red, K black, W white, "
        "or a variant's extra tile)")


@pytest.mark.parametrize("failure, message", [
    ("plugin", "variant: {name}:1:1: plugin 'x' broke"),
    ("reader", "variant: {name}:1:1: can't be loaded: RuntimeError: " + "r" * 200),
    ("empty", "variant: {name}:1:1: can't be loaded: RuntimeError: "),
])
def test_a_variant_reader_that_fails_in_another_way_is_still_one_error_naming_the_variant(
        tmp_path, monkeypatch, failure, message):
    # A guard: today's reader turns every failure into a VariantError; should one slip through
    # (a plugin's own error, a bug in the reader), validate still reports one line, not a traceback.
    from azul_core.engine.plugins import PluginError
    from azul_core.variants import loading

    def failing_load(*_args, **_kwargs):
        if failure == "plugin":
            raise PluginError("plugin 'x' broke")
        raise RuntimeError("r" * 300 + "\nsecond line" if failure == "reader" else "")
    monkeypatch.setattr(loading, "load_variant", failing_load)
    name = f"{failure}-reader.yaml"          # a name of its own: variants are loaded once per process
    (tmp_path / name).write_text("name: x\nextends: standard\n")
    (tmp_path / "game.json").write_text(json.dumps({**SHELL, "variant": name}))
    for _ in range(2):                        # the failure is remembered as it was
        report = validate_record(tmp_path / "game.json")
        assert [e["message"] for e in report["errors"]] == [message.format(name=name)]
        assert report["variant"] == name and report["rounds"] == 0
