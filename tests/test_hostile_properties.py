"""Property: whatever bytes a file holds, ``azul validate`` answers 0 or 1, one verdict per file,
never a traceback, and soon (hypothesis' deadline: a generous bound, not a timed assertion)."""

from __future__ import annotations

import json
from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import azul_core.cli.simulate  # noqa: F401  (registers the commands: with one, typer makes it the app)
import azul_core.cli.validate  # noqa: F401
from azul_core.cli.app import app
from azul_core.records.game_record import FORMAT

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}
RECORD = {
    "format": FORMAT, "variant": "standard", "players": ["ana", "bo"], "seed": 3,
    "rounds": [{"factories": ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"],
                "actions": ["1B4", "2Y3", "3R-", "4K4", "5W1"], "scores": [0, 1]}],
}
VARIANT = ("name: house\ndescription: a house rule\nextends: standard\nplayers: [2, 3]\n"
           "plugins: [standard, colour_wall]\nsettings: {row_bonus: 3, factories: {2: 5, 3: 7}}\n")
PROPERTY = settings(max_examples=40, deadline=timedelta(seconds=20), derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)


@st.composite
def mutated_record(draw) -> bytes:
    """The good record with one value somewhere replaced, or its text cut, or bytes spliced in."""
    data = json.loads(json.dumps(RECORD))
    how = draw(st.sampled_from(["value", "cut", "splice"]))
    if how == "value":
        target, key = data, draw(st.sampled_from(sorted(data)))
        while isinstance(target[key], (dict, list)) and draw(st.booleans()):
            target = target[key]
            key = (draw(st.integers(0, len(target) - 1)) if isinstance(target, list) and target
                   else draw(st.sampled_from(sorted(target))) if isinstance(target, dict) and target
                   else None)
            if key is None:
                break
        if key is not None:
            target[key] = draw(json_values)
        return json.dumps(data).encode()
    text = json.dumps(data).encode()
    at = draw(st.integers(0, len(text)))
    if how == "cut":
        return text[:at]
    return text[:at] + draw(st.binary(max_size=12)) + text[at:]


@st.composite
def mutated_variant(draw) -> bytes:
    text = VARIANT.encode()
    at = draw(st.integers(0, len(text)))
    end = draw(st.integers(at, min(len(text), at + 12)))
    insert = draw(st.binary(max_size=8) | st.sampled_from(
        [b"\n", b": ", b"[", b"{", b"&a", b"*a", b"'", b'"\\ud800"', b"\t", b"9" * 50, b"- "]))
    return text[:at] + insert + text[end:]


def check_verdicts(result, paths) -> None:
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    verdicts = [line for line in result.output.splitlines()
                if not line.startswith(" ") and not line.endswith(" invalid")]  # the count at the end
    for path in paths:
        mine = [line for line in verdicts
                if line.startswith(f"{path}: ") or line.startswith(f"azul: {path}: ")]
        assert len(mine) == 1, result.output
    assert len(verdicts) == len(paths), result.output


@PROPERTY
@given(random_bytes=st.binary(max_size=300), record=mutated_record(), variant=mutated_variant())
def test_validate_answers_every_file_once_whatever_it_holds(tmp_path_factory, random_bytes, record,
                                                            variant):
    folder = tmp_path_factory.mktemp("hostile")
    paths = [folder / "bytes.json", folder / "bytes.yaml", folder / "record.json", folder / "variant.yaml"]
    for path, data in zip(paths, [random_bytes, random_bytes, record, variant]):
        path.write_bytes(data)
    result = CliRunner().invoke(app, ["validate", "--no-play", *map(str, paths)], env=ENV)
    check_verdicts(result, paths)


@PROPERTY
@given(record=mutated_record(), variant=mutated_variant())
def test_validate_json_gives_one_object_per_file(tmp_path_factory, record, variant):
    folder = tmp_path_factory.mktemp("hostile")
    paths = [folder / "record.json", folder / "variant.toml", folder / "variant.yaml"]
    for path, data in zip(paths, [record, variant, variant]):
        path.write_bytes(data)
    result = CliRunner().invoke(app, ["validate", "--no-play", "--json", *map(str, paths)], env=ENV)
    assert result.exit_code in (0, 1) and "Traceback" not in result.output
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert [report["path"] for report in reports] == [str(p) for p in paths]
    assert result.exit_code == (0 if all(r["valid"] for r in reports) else 1)
