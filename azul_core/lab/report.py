"""The balance lab's results as text and as a one-page HTML report."""

from __future__ import annotations

from azul_core.lab.compare import TESTS, bots_in_words
from azul_core.lab.plots import INSTALL_PLOT


def summary_lines(summary: dict) -> list[str]:
    """The whole-run lines of the text summary: every seat together."""
    score, rounds, start = summary["score"], summary["rounds_per_game"], summary["start_player"]
    points = summary["points"]
    labels = ", ".join(f"{label} {value:.2f}" for label, value in points["bonuses_by_label"].items())
    starter = f"seat {start['seat'] + 1}" if start["seat"] is not None else "the first player"
    return [
        f"scores, every seat: mean {score['mean']:.2f}, median {number(score['median'])}, "
        f"sd {score['stdev']:.2f}, quartiles {number(score['q1'])}-{number(score['q3'])}, "
        f"min {number(score['min'])}, max {number(score['max'])}",
        f"start player ({starter}): win share {share_with_interval(start)}; advantage over a fair "
        f"{start['fair_share']:.1%}: {signed_points(start['advantage'])} percentage points "
        f"(95% interval {signed_points(start['advantage_low'])} to {signed_points(start['advantage_high'])})",
        f"rounds per game: mean {summary['mean_rounds']:.2f}, median {number(rounds['median'])}, "
        f"sd {rounds['stdev']:.2f}, min {summary['min_rounds']}, max {summary['max_rounds']}",
        winning_sets_in_words(summary["winning_sets"]),
        f"floor tiles per round, per player: {summary['floor_tiles_per_round']:.2f}",
        f"points per player and game, every seat: placements {points['placements']:.2f}, bonuses "
        f"{points['bonuses']:.2f}" + (f" ({labels})" if labels else "") +
        f", penalties {points['penalties']:.2f}, spared by the zero floor {points['penalties_waived']:.2f}",
    ]


def winning_sets_in_words(winning_sets: list[dict]) -> str:
    """The games each set of winners won, as the rules named them: "seat 1 940, seats 1+2 60"
    (seats counted from 1, as people do; the summary's data counts them from 0)."""
    parts = [(f"seat {entry['seats'][0] + 1}" if len(entry["seats"]) == 1
              else "seats " + "+".join(str(seat + 1) for seat in entry["seats"])) + f" {entry['games']}"
             for entry in winning_sets]
    return "games won, by the winners the rules named: " + (", ".join(parts) or "none")


def number(value: float) -> str:
    """A whole number without decimals, else two decimals (medians and quartiles are often whole)."""
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def signed_points(share: float) -> str:
    """A difference of shares in percentage points, with its sign."""
    return f"{share * 100:+.1f}"


def share_with_interval(data: dict) -> str:
    return f"{data['win_share']:.1%} ({data['win_share_low'] * 100:.1f}-{data['win_share_high'] * 100:.1f})"


def table_rows(comparison: dict) -> list[tuple[str, list[tuple[str, bool]]]]:
    """The side-by-side table: (row label, [(cell text, differs clearly from the baseline)]).
    Rows that describe a tested value (its spread, its interval) follow it, unmarked."""
    variants = comparison["variants"]

    def row(label, cell, key=None):
        return (label, [(cell(entry), bool(key and entry["differences"] and entry["differences"][key]["clear"]))
                        for entry in variants])

    def value(key, form):
        return lambda entry: format(entry["values"][key], form)

    def described(part, key):
        return lambda entry: number(entry["summary"][part][key])

    return [
        row("mean score", value("score", ".2f"), "score"),
        row("  sd", lambda e: f"{e['summary']['score']['stdev']:.2f}"),
        row("  median", described("score", "median")),
        row("  quartiles", lambda e: f"{described('score', 'q1')(e)}-{described('score', 'q3')(e)}"),
        row("rounds per game", value("rounds", ".2f"), "rounds"),
        row("  min-max", lambda e: f"{e['summary']['min_rounds']}-{e['summary']['max_rounds']}"),
        row("start player wins", value("start_player_win_share", ".1%"), "start_player_win_share"),
        row("  95% interval", lambda e: f"{e['summary']['start_player']['win_share_low'] * 100:.1f}-"
                                        f"{e['summary']['start_player']['win_share_high'] * 100:.1f}"),
        row("several winners", value("shared_victories", ".1%"), "shared_victories"),
        row("floor tiles/round", value("floor_tiles_per_round", ".2f"), "floor_tiles_per_round"),
        row("placement points", value("placements", ".2f"), "placements"),
        row("bonus points", value("bonuses", ".2f"), "bonuses"),
        row("floor penalties", value("penalties", ".2f"), "penalties"),
    ]


def tests_used_note(comparison: dict) -> str:
    """Which tests mark a difference, in words, for under the table."""
    level = f"{comparison['confidence']:.0%}"
    return (f"* differs clearly from {comparison['baseline']} (two-sided, {level}): "
            f"{TESTS['welch']}; {TESTS['two-proportion']}.")


def html_report(comparison: dict, picture: bytes | None) -> str:
    """One self-contained page: the table, the tests used, and the picture inlined as base64."""
    import base64
    from html import escape

    head = "".join(f"<th>{escape(entry['label'])}</th>" for entry in comparison["variants"])
    body = []
    for label, cells in table_rows(comparison):
        tds = "".join(f'<td class="clear">{escape(text)} *</td>' if marked else f"<td>{escape(text)}</td>"
                      for text, marked in cells)
        heading = f'<th class="sub">{escape(label.strip())}</th>' if label.startswith(" ") \
            else f"<th>{escape(label)}</th>"
        body.append(f"<tr>{heading}{tds}</tr>")
    refs = "".join(f"<li><b>{escape(e['label'])}</b>: {escape(str(e['variant_ref']))}</li>"
                   for e in comparison["variants"])
    if picture is not None:
        image = (f'<img alt="score distributions, rounds and win shares per variant" '
                 f'src="data:image/png;base64,{base64.b64encode(picture).decode("ascii")}">')
    else:
        image = f"<p><i>No pictures: matplotlib was not installed ({escape(INSTALL_PLOT)}).</i></p>"
    title = "Azul variants compared: " + ", ".join(e["label"] for e in comparison["variants"])
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{escape(title)}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; max-width: 75em; }}
table {{ border-collapse: collapse; }}
th, td {{ padding: 0.3em 0.8em; border-bottom: 1px solid #ddd; text-align: right; }}
tr th:first-child {{ text-align: left; }}
td.clear {{ font-weight: bold; background: #fff3c4; }}
th.sub {{ font-weight: normal; padding-left: 2em; color: #555; }}
img {{ max-width: 100%; }}
</style>
</head>
<body>
<h1>{escape(title)}</h1>
<p>{comparison['games']} games per variant, {comparison['players']} players, bots
{escape(bots_in_words(comparison))}, seed {escape(str(comparison['seed']))}: every variant
played the same seeds.</p>
<ul>{refs}</ul>
<table>
<tr><th></th>{head}</tr>
{chr(10).join(body)}
</table>
<p>{escape(tests_used_note(comparison))}</p>
{image}
</body>
</html>
"""
