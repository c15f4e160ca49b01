"""``azul validate``: check game records and variant files, told apart by their content."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from azul_core.cli.app import app
from azul_core.cli.common import INVALID, OK, debugging

#: The suffix of a file that can only be a record (variant files are YAML or TOML).
RECORD_SUFFIX = ".json"


@app.command("validate")
def validate_command(
    files: Annotated[list[Path], typer.Argument(
        metavar="FILE...", help="Game records (JSON) and variant files (YAML/TOML); "
                                "a folder stands for the .json records in it.")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per file, one per line.")] = False,
    no_play: Annotated[bool, typer.Option(
        "--no-play", help="Variant files: only load them, play no test games.")] = False,
    games: Annotated[int, typer.Option(
        "--games", metavar="N", help="Variant files: random games to play per player count.")] = 200,
) -> None:
    """Replay game records against their variant's rules, and check variant files.

    A file whose text is a JSON object with a 'format' (or 'rounds') key is
    a record; any other file is a variant file. Exit 0 if all are valid, 1
    otherwise.
    """
    from azul_core.records.game_record import MAX_RECORD_BYTES

    if games < 1:
        typer.echo(f"azul: --games must be 1 or more, not {games}", err=True)
        raise typer.Exit(INVALID)
    all_valid = True
    counts = {True: 0, False: 0}
    expanded = _expand(files)
    for path in expanded:
        if not path.exists():
            report = _unread(path, "no such file")
            lines = [f"azul: {path}: no such file"]
        elif path.is_dir():
            report = _unread(path, "a folder with no .json records")
            lines = [f"azul: {path}: a folder with no .json records"]
        elif _is_record(path, MAX_RECORD_BYTES):
            report, lines = _check_record(path)
        else:
            report, lines = _check_variant(path, not no_play, games)
        all_valid &= bool(report["valid"])
        counts[bool(report["valid"])] += 1
        if as_json:
            typer.echo(json.dumps(report))
        else:
            for line in lines:
                typer.echo(line, err=line.startswith("azul: "))
    if not as_json and (len(expanded) > 1 or any(path.is_dir() for path in files)):
        typer.echo(f"{counts[True]} valid, {counts[False]} invalid")
    raise typer.Exit(OK if all_valid else INVALID)


def _unread(path: Path, message: str) -> dict:
    """The report of a path that holds nothing to check: a record's keys, ``kind`` null."""
    return {"path": str(path), "kind": None, "valid": False, "finished": False, "variant": None,
            "variant_name": None, "players": None, "rounds": 0, "scores": None, "winners": None,
            "round_scores": [], "to_move": None,
            "errors": [{"round": None, "action": None, "seat": None, "text": None, "message": message}]}


def _expand(files: list[Path]) -> list[Path]:
    """The files to check: a folder stands for its .json records, in name order."""
    expanded = []
    for path in files:
        if path.is_dir():
            inside = sorted(p for p in path.iterdir() if p.suffix == RECORD_SUFFIX and p.is_file())
            expanded.extend(inside or [path])
        else:
            expanded.append(path)
    return expanded


def _is_record(path: Path, max_bytes: int) -> bool:
    """A record is a JSON object with 'format' or 'rounds'; a .json file that is not valid
    JSON is a broken record (so that its reader, not the YAML reader, says why)."""
    try:
        with open(path, "rb") as stream:
            data = stream.read(max_bytes + 1)
    except OSError:
        return path.suffix.lower() == RECORD_SUFFIX
    if len(data) > max_bytes:
        return path.suffix.lower() == RECORD_SUFFIX
    try:
        parsed = json.loads(data)
    except (ValueError, RecursionError):
        return path.suffix.lower() == RECORD_SUFFIX
    if isinstance(parsed, dict):
        return "format" in parsed or "rounds" in parsed
    return path.suffix.lower() == RECORD_SUFFIX


def _check_record(path: Path) -> tuple[dict, list[str]]:
    from azul_core.records.game_record import describe_error, validate_record

    report = validate_record(path)
    lines = [_record_verdict(report)]
    lines += [f"  {describe_error(error)}" for error in report["errors"]]
    return report, lines


def _record_verdict(report: dict) -> str:
    path = report["path"]
    if report["scores"] is None:
        return f"{path}: invalid record"
    scores = ", ".join(str(s) for s in report["scores"])
    state = "invalid" if not report["valid"] else ("valid" if report["finished"] else "unfinished")
    count = len(report["players"])
    what = f"{report['variant']}, {count} player{'s' if count != 1 else ''}"
    if report["finished"]:
        winners = ", ".join(str(w) for w in report["winners"])
        detail = f"scores {scores}; winner{'s' if len(report['winners']) > 1 else ''}: seat {winners}"
    else:
        detail = f"after {report['rounds']} round{'s' if report['rounds'] != 1 else ''}: scores {scores}"
        if report["valid"]:
            detail += " (game not over)"
    return f"{path}: {state} record ({what}), {detail}"


def _check_variant(path: Path, play: bool, games: int) -> tuple[dict, list[str]]:
    from azul_core.variants.check import check_variant_file

    try:
        result = check_variant_file(path, play=play, games=games)
    except Exception as exc:  # a checker bug must not become a traceback for the user
        if debugging():
            raise
        message = f"the variant check failed: {type(exc).__name__}: {' '.join(str(exc).split())}"
        return ({"kind": "variant", "path": str(path), "valid": False, "name": None,
                 "errors": [{"file": str(path), "line": None, "column": None, "message": message}],
                 "games_played": 0},
                [f"{path}: invalid variant", f"  {message}"])
    return result.to_json(), [result.summary] + [f"  {problem}" for problem in result.problems]
