"""How a variant's effective rules differ from the standard game's, in words.

Everything is derived from the two resolved ``Rules`` and ``Settings``: setup
answers are compared directly, and each situation hook is asked the same
questions (probe positions) under both variants. Nothing here looks at a
variant's name or at which plugins it lists.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from azul_core.colours import BLUE, COLOURS, MARKER, NAMES
from azul_core.engine.state import Wall
from azul_core.rules import PATTERN_LINES, WALL_SIZE

Cell = tuple[int, int]


@dataclass(frozen=True)
class Difference:
    """One rule that differs: what it is, in the variant and in the standard game."""

    rule: str
    variant: str
    standard: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.variant} (standard: {self.standard})"


def _wall(cells: dict[Cell, int] | list[Cell]) -> Wall:
    """A wall holding the given cells (1-based), coloured as the colour wall prints them
    unless colours are given."""
    wall: list[list[int | None]] = [[None] * WALL_SIZE for _ in range(WALL_SIZE)]
    items = cells.items() if isinstance(cells, dict) else ((cell, None) for cell in cells)
    for (row, column), colour in items:
        wall[row - 1][column - 1] = (column - row) % 5 if colour is None else colour
    return tuple(map(tuple, wall))  # read-only, as the engine hands walls to plugins


def _rows(text: str) -> Wall:
    """A wall from five lines of colour letters, ``.`` for an empty space."""
    return tuple(tuple(None if ch == "." else "BYRKW".index(ch) for ch in line.split()[0])
                 for line in text.strip().splitlines())


# Placement probes: the new tile at (3,3), with the neighbours listed.
_SCORE_PROBES = (
    ("a tile with no neighbour", [(3, 3)]),
    ("a tile in a run of 3 across", [(3, 2), (3, 3), (3, 4)]),
    ("a tile in a run of 3 down", [(2, 3), (3, 3), (4, 3)]),
    ("a tile with 3 across and 2 down", [(3, 2), (3, 3), (3, 4), (2, 3)]),
    ("a tile with 5 across and 5 down", [(3, c) for c in range(1, 6)] + [(r, 3) for r in (1, 2, 4, 5)]),
)

_FULL_ROW = [(1, c) for c in range(1, 6)]
_FULL_COLUMN = [(r, 1) for r in range(1, 6)]
# Yellow, not blue: on the colour wall the five blues make the main diagonal, which a
# diagonal bonus would claim as well.
_ALL_YELLOW = [(r, r % 5 + 1) for r in range(1, 6)]
#: A wall where no row can be completed without a colour twice in a column (a blocked grey wall).
_BLOCKED = _rows("""
BYW.R
RKYB.
.RKYW
YWRK.
...WB
""")

_EMPTY_LINES = [((None, 0),) * 5] * 2
_PLENTY = [20] * 5

#: (label, walls, round number, pattern lines, tiles in bag and lid) for azul_game_over.
_END_PROBES = (
    ("with no complete row, after round 1", lambda: ([_wall([])] * 2, 1, _EMPTY_LINES, _PLENTY)),
    ("with no complete row, after round 5", lambda: ([_wall([])] * 2, 5, _EMPTY_LINES, _PLENTY)),
    ("with no complete row, after round 10", lambda: ([_wall([])] * 2, 10, _EMPTY_LINES, _PLENTY)),
    ("with no complete row, after round 50", lambda: ([_wall([])] * 2, 50, _EMPTY_LINES, _PLENTY)),
    ("when a player has completed a row", lambda: ([_wall(_FULL_ROW), _wall([])], 3, _EMPTY_LINES, _PLENTY)),
    ("when a player has completed a column but no row",
     lambda: ([_wall(_FULL_COLUMN), _wall([])], 3, _EMPTY_LINES, _PLENTY)),
    ("when every row's free spaces are blocked by the colours in their columns",
     lambda: ([_BLOCKED, _BLOCKED], 1, _EMPTY_LINES, _PLENTY)),
    ("when every row misses a colour none of whose tiles is left in play",
     lambda: ([_wall([])] * 2, 1, _EMPTY_LINES, [0, 20, 20, 20, 20])),
)

_BONUS_PROBES = (
    ("a complete row", _FULL_ROW),
    ("a complete column", _FULL_COLUMN),
    ("all 5 tiles of one colour", _ALL_YELLOW),
    ("the main diagonal", [(r, r) for r in range(1, 6)]),
)

_WINNER_PROBES = (
    ("scores 30 and 20", [30, 20], [_wall([]), _wall([])]),
    ("a tie on 30, the first player with a complete row", [30, 30], [_wall(_FULL_ROW), _wall([])]),
    ("a tie on 30, neither with a complete row", [30, 30], [_wall([]), _wall([])]),
)


def _ask(function: Callable, *args) -> Any:
    try:
        return function(*args)
    except Exception as exc:  # a plugin failing on a probe is worth saying, not crashing for
        return f"error: {type(exc).__name__}"


def _columns(columns) -> str:
    if isinstance(columns, str):
        return columns
    columns = list(columns)
    if not columns:
        return "no column (the line falls to the floor)"
    words = ", ".join(str(c + 1) for c in columns)
    return f"column {words}" if len(columns) == 1 else f"columns {words}"


def _colours(mask: int) -> str:
    names = [NAMES[c] for c in COLOURS if mask >> c & 1]
    return ", ".join(names) if names else "nothing"


def _colour_words(colours) -> str:
    return f"{len(colours)}: " + ", ".join(f"{colour.name} ({colour.letter})" for colour in colours)


def _floor_costs(rules) -> list[int]:
    return [-_ask(rules.floor_penalty, [BLUE] * count) for count in range(1, rules.floor_spaces + 1)]


def _marker_costs(rules) -> list[int]:
    """What a floor costs with the start marker first, then 0 to 6 tiles."""
    return [-_ask(rules.floor_penalty, [MARKER] + [BLUE] * count)
            for count in range(rules.floor_spaces)]


def _marker(marker) -> str:
    if marker.placement == "aside":
        words = "kept in front of its holder: no floor space, no cost"
    else:
        words = "onto the leftmost free floor space, costing like a tile"
        words += ("; on a full floor it is kept without a space" if marker.full_floor == "keep"
                  else "; on a full floor it bumps the last tile to the lid")
    return words


def _unclaimed(marker) -> str:
    return "the same player starts again" if marker.unclaimed == "same" else "the next seat starts"


def _tiling(rule: tuple[bool, bool]) -> str:
    at_turn_end, line_waits = rule
    if not at_turn_end:
        return "full pattern lines are tiled at the end of the round, lines 1 to 5"
    return ("a full pattern line is tiled at the end of the turn that filled it, " +
            ("and takes no tiles again until the next round" if line_waits
             else "and takes tiles again at once, in the same round"))


def _table(rules, players: int) -> str:
    try:
        table = rules.table(players)
    except Exception as exc:
        return f"not playable ({' '.join(str(exc).split())})"
    counts = table.kind_counts
    colours = len(table.colours)
    tiles = (f"{counts[0]} tiles of each colour" if len(set(counts[:colours])) == 1 else
             "colours " + ", ".join(f"{name} {count}" for name, count in zip(table.kind_names, counts[:colours])))
    extras = "".join(f", {extra.count} {extra.name} tiles ({extra.letter})" for extra in table.extra_tiles)
    return f"{table.factories} factories of {table.tiles_per_factory} tiles, {tiles}{extras}"


#: How many random walls the placement and bonus probes try, beyond the fixed ones.
RANDOM_PROBES = 400
_PILES = {"lid": "to the lid", "bag": "back into the bag", "out": "out of the game"}
_DISCARDS = {"floor": "the floor tiles at the end of a round",
             "overflow": "tiles past a full floor",
             "line": "the rest of a tiled pattern line",
             "leftover": "extra tiles left alone on the table when no colour is left"}


def _random_walls(count: int, seed: int = 11) -> list[Wall]:
    """Walls with random spaces filled, coloured as the colour wall prints them (seeded)."""
    rng = random.Random(seed)
    walls = []
    for _ in range(count):
        density = rng.choice((0.2, 0.4, 0.6, 0.8))
        walls.append(tuple(tuple((column - row) % 5 if rng.random() < density else None
                                 for column in range(WALL_SIZE)) for row in range(WALL_SIZE)))
    return walls


def _picture(wall) -> str:
    return " / ".join("".join("." if cell is None else "BYRKW"[cell] for cell in row) for row in wall)


def undecided(variant, standard) -> list[str]:
    """The rules the probes could not compare: hooks whose answer depends on the game (they
    ask for ``seat`` or ``game``), said per hook with the plugins that read it."""
    base = standard.rules.context_readers
    return [f"{hook} ({', '.join(plugins)}): its answer depends on the game being played"
            for hook, plugins in variant.rules.context_readers.items() if base.get(hook) != plugins]


def differences(variant, standard) -> list[Difference]:
    """Every rule in which ``variant`` differs from ``standard`` (both loaded ``Variant``s).

    Hooks whose answer depends on the game (see ``undecided``) are not probed."""
    found: list[Difference] = []

    def compare(rule: str, mine: Any, theirs: Any, show: Callable[[Any], str] = str) -> None:
        if mine != theirs:
            found.append(Difference(rule, show(mine), show(theirs)))

    rules, base = variant.rules, standard.rules
    probed = set(hook for hook in rules.context_readers if hook not in base.context_readers)
    compare("players", variant.players, standard.players, lambda p: ", ".join(str(n) for n in p))
    compare("colours", rules.colours, base.colours, _colour_words)
    same_board = rules.size == base.size
    for players in variant.players:
        compare(f"table for {players} players", _table(rules, players),
                _table(base, players) if players in standard.players else "not played")
    compare("floor", (rules.floor_spaces, _floor_costs(rules)), (base.floor_spaces, _floor_costs(base)),
            lambda f: f"{f[0]} spaces; 1 to {f[0]} tiles cost {', '.join(str(c) for c in f[1])}"
            if f[0] else "no floor spaces: every tile that falls goes to the lid")
    compare("tiling", (rules.tile_at_turn_end, rules.tiled_line_waits),
            (base.tile_at_turn_end, base.tiled_line_waits), _tiling)
    compare("start marker", _marker(rules.marker), _marker(base.marker))
    if rules.marker.placement == "floor" and base.marker.placement == "floor":
        compare("a floor holding the start marker", _marker_costs(rules), _marker_costs(base),
                lambda costs: "the marker and 0 to {} tiles cost {}".format(
                    len(costs) - 1, ", ".join(str(c) for c in costs))
                if costs else "no floor space for it: the marker is kept off the floor")
    compare("when nobody took the start marker", _unclaimed(rules.marker), _unclaimed(base.marker))
    compare("a draft onto a pattern line that can't take the colour", rules.misplaced_to_floor,
            base.misplaced_to_floor,
            lambda floor: "allowed as a mistake: all the tiles taken go to the floor"
            if floor else "refused")
    compare("pattern lines", rules.capacity, base.capacity,
            lambda sizes: "hold " + ", ".join(str(size) for size in sizes) + " tiles")
    for reason, words in _DISCARDS.items():
        compare(f"where {words} go", rules.discard[reason], base.discard[reason], _PILES.get)
    compare("who starts round 1", _starters(rules, variant.players), _starters(base, variant.players))
    compare("which drafts are legal", _draft_rule(rules), _draft_rule(base))
    compare("moves besides the drafts", _moves(rules), _moves(base))
    compare("phases of choices the plugins add", _phases(rules), _phases(base))
    compare("what the rules remember during a game", _remembering(rules), _remembering(base))
    compare("secrets", _secrets(rules), _secrets(base))
    compare("what a draft takes", _decided_by(rules, "azul_draft_takes", "every tile of its colour"),
            _decided_by(base, "azul_draft_takes", "every tile of its colour"))
    compare("tiles of another kind on a pattern line",
            _decided_by(rules, "azul_stands_in", "never: they fall to the floor"),
            _decided_by(base, "azul_stands_in", "never: they fall to the floor"))
    if same_board:
        _compare_acceptance(rules, base, found)
        _compare_wall(rules, base, found)
    compare("who places a tile on the wall", rules.player_chooses_column, base.player_chooses_column,
            lambda choose: "the player chooses the column" if choose else "the rules place it")
    if not same_board:
        # A wall of another size can't be laid beside the standard one space by space.
        found.append(Difference("the wall, its scoring and the end of the game",
                                f"not compared: a {rules.size}x{rules.size} wall",
                                f"a {base.size}x{base.size} wall"))
        return found
    if "azul_placement_score" not in probed:
        before = len(found)
        for label, cells in _SCORE_PROBES:
            wall = _wall(cells)
            compare(f"scoring {label}", _ask(rules.placement_score, wall, 2, 2),
                    _ask(base.placement_score, wall, 2, 2), _points)
        if len(found) == before:  # the fixed probes saw no change: try random walls and tiles
            _first_random_difference(found, "scoring the tile at ({row},{column}) of the wall {wall}",
                                     lambda wall, row, column: _ask(rules.placement_score, wall, row, column),
                                     lambda wall, row, column: _ask(base.placement_score, wall, row, column),
                                     _points)
    if "azul_game_over" not in probed:
        for label, probe in _END_PROBES:
            situation = probe()
            compare(f"end of the game {label}", _ask(rules.game_over, *situation),
                    _ask(base.game_over, *situation),
                    lambda over: over if isinstance(over, str) else ("the game ends" if over else "the game goes on"))
    if "azul_end_bonuses" not in probed:
        before = len(found)
        for label, cells in _BONUS_PROBES:
            wall = _wall(cells)
            compare(f"end bonus for {label}", _bonus_total(rules, wall), _bonus_total(base, wall), _points)
        if len(found) == before:
            _first_random_difference(found, "end bonus for the wall {wall}",
                                     lambda wall, row, column: _bonus_total(rules, wall),
                                     lambda wall, row, column: _bonus_total(base, wall), _points)
    if "azul_winners" not in probed:
        for label, scores, walls in _WINNER_PROBES:
            compare(f"winner with {label}", _ask(rules.winners, scores, walls),
                    _ask(base.winners, scores, walls), _seats)
    return found


def _moves(rules) -> str:
    moves = rules.plugin_hooks.moves
    if not moves:
        return "none"
    return "; ".join(f"{move.label or move.notation} ({move.notation}, plugin "
                     f"'{rules.plugin_hooks.declared[move]}')" for move in moves)


#: A phase's stage in words (``rules.Phase``).
PHASE_WHEN = {"round_start": "at each round's start, before the first draft",
              "after_turn": "after each turn",
              "round_end": "at each round's end, after the wall tiling, before the floors are paid",
              "game_end": "at the game's end, before the end bonuses"}


def _phases(rules) -> str:
    if not rules.phases:
        return "none"
    who = {True: "every player at once, in secret", False: "each player in turn"}
    return "; ".join(f"{PHASE_WHEN[stage]} ({who[phase.at_once]})" for stage, phase in rules.phases.items())


def _remembering(rules) -> str:
    plugins = rules.plugin_hooks.memory_plugins
    return f"plugins {', '.join(plugins)} keep a memory" if plugins else "nothing"


def _secrets(rules) -> str:
    plugins = rules.plugin_hooks.secret_plugins
    return (f"each seat is dealt a secret by {', '.join(plugins)}, seen only by that seat until the end"
            if plugins else "none: everything is seen by everyone")


def _decided_by(rules, hook: str, default: str) -> str:
    decider = rules.deciders.get(hook)
    return f"decided by {decider} ({hook})" if decider else default


def _points(p: Any) -> str:
    return f"{p} points" if isinstance(p, int) else p


def _first_random_difference(found: list[Difference], rule: str, mine: Callable, theirs: Callable,
                             show: Callable) -> None:
    """Ask both rules about random walls (each filled space in turn as the tile just placed);
    record the first answer that differs."""
    for wall in _random_walls(RANDOM_PROBES):
        for row in range(WALL_SIZE):
            for column in range(WALL_SIZE):
                if wall[row][column] is None:
                    continue
                a, b = mine(wall, row, column), theirs(wall, row, column)
                if a != b:
                    found.append(Difference(rule.format(row=row + 1, column=column + 1,
                                                        wall=_picture(wall)), show(a), show(b)))
                    return
                if "{row}" not in rule:
                    break  # a wall's bonus does not depend on the tile: one question per wall
            else:
                continue
            break


def _starters(rules, players) -> str:
    seats = sorted({rules.opening_seat(count, seed) for count in players for seed in range(64)})
    if seats == [0]:
        return "seat 1"
    return "a seat chosen by the rules (seen: " + ", ".join(str(s + 1) for s in seats) + ")"


def _draft_rule(rules) -> str:
    if rules.draft_allowed is None:
        return "any source and colour, onto a pattern line that takes it or the floor"
    return (f"restricted by {rules.deciders.get('azul_draft_allowed')} (azul_draft_allowed): "
            "the probes can't say how")


def _bonus_total(rules, wall) -> Any:
    bonuses = _ask(rules.end_bonuses, wall)
    return bonuses if isinstance(bonuses, str) else sum(points for _label, points in bonuses)


def _seats(seats) -> str:
    if isinstance(seats, str):
        return seats
    seats = list(seats)
    if len(seats) == 1:
        return f"seat {seats[0] + 1} wins"
    return "seats " + " and ".join(str(s + 1) for s in seats) + " share the victory"


def _compare_acceptance(rules, base, found: list[Difference]) -> None:
    """The first position where a pattern line takes other colours than in the standard game."""
    for row in range(PATTERN_LINES):
        for held in (-1, *COLOURS):
            for count in ((0,) if held < 0 else range(1, row + 2)):
                for wall_mask in range(32):
                    if held >= 0 and wall_mask >> held & 1:
                        continue  # a line never holds a colour its wall row has
                    mine = rules.accept_mask(row, held, count, wall_mask)
                    theirs = base.accept_mask(row, held, count, wall_mask)
                    if mine != theirs:
                        line = f"pattern line {row + 1} " + (
                            "empty" if held < 0 else f"holding {count} {NAMES[held]}")
                        found.append(Difference(
                            f"what {line} takes, its wall row holding {_colours(wall_mask)}",
                            _colours(mine), _colours(theirs)))
                        return


def _compare_wall(rules, base, found: list[Difference]) -> None:
    """Where a tile may go: on an empty wall, then beside a tile of its colour one row up."""
    for row in range(WALL_SIZE):
        for colour in COLOURS:
            empty = _wall([])
            mine = _ask(rules.wall_spaces, empty, row, colour)
            theirs = _ask(base.wall_spaces, empty, row, colour)
            if list(mine) != list(theirs):
                found.append(Difference(
                    f"where a {NAMES[colour]} tile of line {row + 1} goes on an empty wall",
                    _columns(mine), _columns(theirs)))
                break
        else:
            continue
        break
    # A colour already in a column: may the tile of the next row go under it?
    for colour in COLOURS:
        wall = _wall({(1, colour + 1): colour})
        mine = _ask(rules.wall_spaces, wall, 1, colour)
        theirs = _ask(base.wall_spaces, wall, 1, colour)
        if list(mine) != list(theirs):
            found.append(Difference(
                f"where a {NAMES[colour]} tile of line 2 goes when row 1 has {NAMES[colour]} in "
                f"column {colour + 1}", _columns(mine), _columns(theirs)))
            return


@dataclass(frozen=True)
class SettingNote:
    """A setting whose value differs from the standard game's, or that it does not have."""

    name: str
    value: Any
    standard: Any
    owner: str
    help: str
    only_here: bool


def setting_notes(variant, standard) -> list[SettingNote]:
    notes = []
    for name, value in variant.settings.items():
        setting = variant.declared.get(name)
        owner, help_text = (setting.owner, setting.help) if setting else ("", "")
        if name not in standard.settings:
            notes.append(SettingNote(name, value, None, owner, help_text, True))
        elif standard.settings[name] != value:
            notes.append(SettingNote(name, value, standard.settings[name], owner, help_text, False))
    return notes


def explain(variant, standard) -> list[str]:
    """The lines ``azul rules`` prints."""
    found = differences(variant, standard)
    unknown = undecided(variant, standard)
    notes = setting_notes(variant, standard)
    where = f" ({_shown(variant.path)})" if variant.path else ""
    lines = [f"Rules of '{variant.name}'{where}: {variant.description}".rstrip(": ")]
    plugins = ", ".join(p.name for p in variant.plugins)
    standard_plugins = ", ".join(p.name for p in standard.plugins)
    lines.append(f"Plugins: {plugins}" + ("" if plugins == standard_plugins
                                           else f" (standard: {standard_plugins})"))
    if not found and not unknown and not any(note.only_here for note in notes):
        lines.append("It plays exactly as the standard game: no rule differs.")
        return lines
    if found:
        lines.append("Differences from the standard game:")
        lines += [f"- {difference}" for difference in found]
    elif not unknown:
        lines.append("No rule differs from the standard game in play.")
    if unknown:
        lines.append("Could not tell (these rules were not compared; read the plugins):")
        lines += [f"- {text}" for text in unknown]
    if notes:
        lines.append("Settings:")
        for note in notes:
            if note.only_here:
                lines.append(f"- {note.name} = {format_value(note.value)} (plugin '{note.owner}'; "
                             f"not in the standard game): {note.help}")
            else:
                lines.append(f"- {note.name} = {format_value(note.value)} "
                             f"(standard: {format_value(note.standard)})")
    lines.append("Everything else is as in the standard game." if not unknown
                 else "Everything else probed is as in the standard game.")
    return lines


def _shown(path) -> str:
    from azul_core.variants.loading import builtin_variants
    return "built-in" if path in builtin_variants().values() else str(path)


def format_value(value: Any) -> str:
    """A setting's value as a variant file would write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{format_value(k)}: {format_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    return str(value)
