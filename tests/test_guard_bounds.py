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
    result = CliRunner().invoke(app, ["simulate", "--games", "1", "--seed", "16", "--record-dir", str(folder)],
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
    ({"round": 2, "action": 3, "seat": 1, "text": "1B1", "message": "no"}, "round 2 action 3 (seat 1, '1B1'): no"),
    ({"round": 2, "action": None, "seat": None, "text": None, "message": "no"}, "round 2: no"),
    ({"round": None, "action": None, "seat": 1, "text": "1B1", "message": "no"}, "seat 1, '1B1': no"),
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
                 "a placement like w1:3 or a plugin's move like +pass"}),
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
        "scores after the round differ from the replay: seat 0 recorded 99, replay ")
    assert "; seat 1 recorded 98, replay " in errors[0]["message"]


def test_a_report_counts_a_finished_round_and_an_error_without_a_file_is_its_reason(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**SHELL, "rounds": [ONE_ROUND]}))   # round 1 over, round 2 not dealt
    report = validate_record(path)
    assert report["valid"] and report["rounds"] == 1 and report["to_move"] is None
    assert str(RecordError("no 'format' field")) == "no 'format' field"
