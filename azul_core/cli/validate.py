"""``azul validate``: check game records and variant files, told apart by their content."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from azul_core.cli.app import app
from azul_core.cli.common import INVALID, OK, USAGE, debugging, fail, sealed_note
from azul_core.cli.safe_text import safe_line

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
    no_code: Annotated[bool, typer.Option(
        "--no-code", help="Variant files: check syntax, keys, extends and the settings of installed "
                          "plugins, running none of their plugin files; say which were not run.")] = False,
    trusted: Annotated[Optional[list[Path]], typer.Option(
        "--variant", metavar="FILE",
        help="Records: a variant file you trust; a record naming it may use it (wherever it is) "
             "and run its plugin files. Repeat for several.")] = None,
    trust: Annotated[bool, typer.Option(
        "--trust", help="Records: let variant files inside a record's folder run their plugin "
                        "files (by default a record never runs code).")] = False,
) -> None:
    """Replay game records against their variant's rules, and check variant files.

    A file whose text is a JSON object with a 'format' (or 'rounds') key is
    a record; any other file is a variant file. A record is data: the plugin
    files its variant lists run only with --variant FILE or --trust. Exit 0
    if all are valid, 1 if any is invalid or could not be checked.
    """
    from azul_core.variants.loading import Trust

    if games < 1:
        fail(f"--games must be 1 or more, not {games}", USAGE)
    for path in trusted or []:
        if not path.is_file():
            fail(f"--variant {path}: no such variant file")
    consent = Trust.of(trusted or [], trust)
    paths = _expand(files)
    all_valid = True
    from azul_core.engine.plugins import user_interrupts
    counts = {True: 0, False: 0}
    with user_interrupts() as interrupted:
        for index, path in enumerate(paths):
            try:
                report, lines = _check_one(path, consent, not no_play, games, no_code)
            except KeyboardInterrupt:
                interrupted.seen = True
            if interrupted.seen:
                _report_interruption(path, paths[index + 1:])
                raise typer.Exit(INVALID)
            all_valid &= report["valid"] is True
            counts[report["valid"] is True] += 1
            _emit(report, lines, as_json)
    if not as_json and (len(paths) > 1 or any(path.is_dir() for path in files)):
        typer.echo(f"{counts[True]} valid, {counts[False]} invalid")
    raise typer.Exit(OK if all_valid else INVALID)


def _report_interruption(path: Path, rest: list[Path]) -> None:
    typer.echo(f"azul: interrupted while checking {safe_line(str(path))}: it and "
               f"{len(rest)} more file{'s' if len(rest) != 1 else ''} not checked", err=True)
    for other in rest[:20]:
        typer.echo(f"azul:   not checked: {safe_line(str(other))}", err=True)
    if len(rest) > 20:
        typer.echo(f"azul:   ... and {len(rest) - 20} more", err=True)


def _check_one(path: Path, consent, play: bool, games: int, no_code: bool) -> tuple[dict, list[str]]:
    """The report and the lines for one file; a failure of the checker itself (or of a plugin
    that got past its boundary) makes the file invalid, never the run."""
    from azul_core.records.game_record import MAX_RECORD_BYTES
    try:
        if not path.exists() and not path.is_symlink():
            return _unchecked(path, "no such file")
        if path.is_dir():
            return _unchecked(path, "a folder with no .json records")
        kind = _file_kind(path, MAX_RECORD_BYTES)
        if kind is not None and kind.startswith("refused:"):
            return _unchecked(path, kind.partition(":")[2])
        if kind == "record":
            return _check_record(path, consent)
        if no_code:
            return _check_variant_without_code(path)
        return _check_variant(path, play, games)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # SystemExit from third-party code included: this file only
        if debugging():
            raise
        return _unchecked(path, f"could not be checked: {type(exc).__name__}: {exc}")


def _unchecked(path: Path, message: str) -> tuple[dict, list[str]]:
    message = safe_line(message)
    return _unread(path, message), [f"azul: {path}: {message}"]


def _unread(path: Path, message: str) -> dict:
    """The report of a path that holds nothing to check: a record's keys, ``kind`` null."""
    return {"path": str(path), "kind": None, "valid": False, "finished": False, "variant": None,
            "variant_name": None, "players": None, "rounds": 0, "scores": None, "winners": None,
            "round_scores": [], "to_move": None, "sealed": [],
            "errors": [{"round": None, "action": None, "seat": None, "text": None, "message": message}]}


def _emit(report: dict, lines: list[str], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(_bounded(report)))
        return
    for line in lines[:_MAX_DETAIL_LINES]:
        typer.echo(safe_line(line), err=line.startswith("azul: "))
    if len(lines) > _MAX_DETAIL_LINES:
        typer.echo(f"  ... and {len(lines) - _MAX_DETAIL_LINES} more problems")


#: Lines printed per file: a 1 MB broken file gives a few lines, not 60,000.
_MAX_DETAIL_LINES = 21


def _bounded(value):
    """A report for --json: strings cut and made valid Unicode, lists of errors bounded."""
    if isinstance(value, str):
        return safe_text_json(value)
    if isinstance(value, list):
        return [_bounded(v) for v in value[:200]]
    if isinstance(value, dict):
        return {k: _bounded(v) for k, v in value.items()}
    return value


def safe_text_json(text: str, limit: int = 2000) -> str:
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[:limit - 1] + "…"


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


def _file_kind(path: Path, max_bytes: int) -> str | None:
    """'record' for a JSON object with 'format' or 'rounds' (or a broken .json file, so that
    its reader, not the YAML reader, says why), ``None`` for a variant file, or
    'refused:REASON' for a file that is not read at all (a FIFO, a device, too large)."""
    from azul_core.variants.limits import InputRefused, read_regular_file
    try:
        data = read_regular_file(path, max_bytes)
    except InputRefused as exc:
        return f"refused:{exc.reason}"
    try:
        parsed = json.loads(data)
    except (ValueError, RecursionError):
        return "record" if path.suffix.lower() == RECORD_SUFFIX else None
    if isinstance(parsed, dict):
        return "record" if "format" in parsed or "rounds" in parsed else None
    return "record" if path.suffix.lower() == RECORD_SUFFIX else None


def _check_record(path: Path, consent=None) -> tuple[dict, list[str]]:
    from azul_core.records.game_record import describe_error, validate_record

    report = validate_record(path, trust=consent)
    if report["sealed"] and report["errors"]:  # the first problem may come from a sealed secret
        first = report["errors"][0]
        first["message"] = f"{first['message']} ({sealed_note(report['sealed'])})"
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
        winners = ", ".join(str(w + 1) for w in report["winners"])  # the report's winners count from 0
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


def _check_variant_without_code(path: Path) -> tuple[dict, list[str]]:
    from azul_core.variants.loading import check_without_code

    problems, skipped = check_without_code(path)
    notes = [f"not run: {line}" for line in skipped]
    report = {"kind": "variant", "path": str(path), "valid": not problems, "code_checked": False,
              "errors": [p.to_json() for p in problems], "not_run": skipped}
    if problems:
        head = f"{path}: invalid variant: {len(problems)} problem{'s' if len(problems) != 1 else ''}"
    else:
        head = f"{path}: valid variant as far as checked without code"
        if skipped:
            head += f" ({len(skipped)} plugin{'s' if len(skipped) != 1 else ''} not run)"
    return report, [head] + [f"  {p}" for p in problems] + [f"  {n}" for n in notes]
