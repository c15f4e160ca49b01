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
