"""Drawing a game with rich: factories, centre, boards, the last move, the final result.

Everything drawn is readable without colour (letters carry the colour, an
upper-case letter is a tile, a lower-case one the colour printed on an empty
wall space) and fits an 80-column terminal. Nothing here names a variant:
what a wall prints, what a floor space costs and whether the start marker
lies on the floor are asked of the game's ``Rules``.
"""

from __future__ import annotations

from typing import Sequence

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from azul_core.colours import LETTERS, MARKER, NAMES
from azul_core.engine.draws import Drawn
from azul_core.engine.notation import is_ascii_number
from azul_core.engine.plugins import PluginError
from azul_core.engine.state import CENTRE, CHOOSE, DEAL, OVER, PLACE, IllegalDecision, wall_with
from azul_core.players.move_words import declared, labelled, moves_on_offer
from azul_core.players.phase_words import STAGE_NAMES, in_secret, phase_title, stage_of, waiting_words
from azul_core.players.plugin_words import plugin_words
from azul_core.players.refusal_words import line_refusal_words
from azul_core.rules import STANDARD_COLOURS, Move

#: The width everything is laid out for.
WIDTH = 80

TILE_STYLES = ("bold white on blue", "bold black on yellow", "bold white on red",
               "bold white on grey23", "bold black on white")
PRINTED_STYLES = ("blue", "yellow", "red", "grey50", "grey82")


def _is_standard(colour: int, table) -> bool:
    """Whether kind ``colour`` is one of the standard game's colours at its usual place (drawn
    in the terminal's own colours); another colour is drawn in its ``look``."""
    colours = table.colours if table is not None else STANDARD_COLOURS
    return colour < len(STANDARD_COLOURS) and colour < len(colours) and colours[colour] == STANDARD_COLOURS[colour]


def _ink_on(look: str) -> str:
    """Black or white letters, whichever reads better on the colour ``look`` (#rrggbb)."""
    red, green, blue = (int(look[i:i + 2], 16) for i in (1, 3, 5))
    return "black" if 0.299 * red + 0.587 * green + 0.114 * blue > 140 else "white"
MARKER_STYLE = "bold black on bright_cyan"
MARKER_LETTER = "1"
EMPTY = "."
#: A space of a pattern line tiled this round that takes no tiles until the next round.
CLOSED = "x"


def make_console(**options) -> Console:
    """A console no wider than the layout (NO_COLOR and non-terminals are honoured by rich).
    Markup is off: a player's name such as ``[/]`` or ``[link=...]`` is text, never markup."""
    options.setdefault("markup", False)
    console = Console(**options)
    if console.width > WIDTH and "width" not in options:
        console.width = WIDTH
    return console


# ------------------------------------------------------------------ rules, asked once

def printed_wall(rules, seat: int | None = None, state=None) -> tuple:
    """The colour printed on each wall space (n rows of n), or ``None`` where nothing is printed.

    Asked of the wall hook on an empty wall: colour ``c`` is printed at
    (row, column) when ``c`` can go only there. A wall whose columns the
    player chooses prints nothing. Where the wall hook reads the seat or the
    game (seats' walls may differ), it is asked for ``seat``'s wall in ``state``.
    """
    per_seat = bool(rules.context_readers.get("azul_wall_spaces"))
    if per_seat:
        return _printed_wall(rules, seat, state)
    return rules.kept("printed wall", lambda: _printed_wall(rules, None, None))


def _printed_wall(rules, seat: int | None, state) -> tuple:
    size = rules.size
    empty = ((None,) * size,) * size
    rows = []
    for row in range(size):
        cells: list = [None] * size
        if not rules.player_chooses_column:
            for colour in range(size):
                columns = tuple(rules.wall_spaces(empty, row, colour, seat, state))
                if len(columns) == 1:
                    cells[columns[0]] = colour
        rows.append(tuple(cells))
    return tuple(rows)


def floor_costs(rules) -> list[int]:
    """What each floor space costs, left to right, from the variant's floor hook."""
    from azul_core.players.bots import floor_space_penalties
    return floor_space_penalties(rules)


# ------------------------------------------------------------------ small pieces


def tile(colour: int, table=None) -> Text:
    """A tile as its letter in its colours; a kind beyond the standard five colours (a wild
    tile, a sixth colour) needs the ``table`` that declares it (its letter on its ``look``)."""
    if colour == MARKER:
        return Text(MARKER_LETTER, style=MARKER_STYLE)
    if _is_standard(colour, table):
        return Text(LETTERS[colour], style=TILE_STYLES[colour])
    if table is None or colour >= len(table.kind_letters):
        return Text("?", style="bold")
    look = table.kind_looks[colour]
    return Text(table.kind_letters[colour], style=f"bold {_ink_on(look)} on {look}")


def printed_letter(colour: int, table=None) -> Text:
    """The small letter a wall space shows where ``colour`` is printed."""
    if _is_standard(colour, table) or table is None:
        return Text(LETTERS[colour].lower(), style=PRINTED_STYLES[colour])
    return Text(table.kind_letters[colour].lower(), style=table.kind_looks[colour])


def tiles(counts: Sequence[int], spaced: bool = True, table=None) -> Text:
    """Tiles by kind as letters: ``B B Y R`` (or ``BB Y R`` grouped when not ``spaced``); the
    ``table`` names the kinds beyond the five colours."""
    text = Text()
    for colour in range(len(counts)):
        for _ in range(counts[colour]):
            if spaced and text:
                text.append(" ")
            text.append_text(tile(colour, table))
        if not spaced and counts[colour]:
            text.append(" ")
    text.rstrip()
    return text


def source_name(source: int) -> str:
    return "the centre" if source == CENTRE else f"factory {source}"


# ------------------------------------------------------------------ the table


def draw_table(state) -> Text:
    """The factories (five to a line) and the centre with the start marker."""
    text = Text()
    factories = state.sources[1:]
    tiles_width = max(2 * state.table.tiles_per_factory - 1, 1)
    per_line = max(1, (WIDTH - 10) // (tiles_width + 5))
    for start in range(0, len(factories), per_line):
        text.append("Factories " if start == 0 else "          ", style="bold")
        for number in range(start + 1, min(start + per_line, len(factories)) + 1):
            text.append(f"{number}: ", style="bold")
            counts = state.sources[number]
            shown = tiles(counts, table=state.table) if sum(counts) else Text("-", style="dim")
            text.append_text(shown)
            text.append(" " * (tiles_width + 2 - len(shown.plain)))
        text.rstrip()
        text.append("\n")
    text.append("Centre    ", style="bold")
    if state.marker_in_centre and state.phase != DEAL:
        text.append_text(tile(MARKER))
        text.append(" (start marker) ")
    centre = state.sources[CENTRE]
    if sum(centre):
        text.append_text(tiles(centre, spaced=False, table=state.table))
    elif not state.marker_in_centre or state.phase == DEAL:
        text.append("empty", style="dim")
    return text


def draw_board(state, seat: int, name: str) -> Text:
    """One player's pattern lines beside the wall, the floor with its costs, and the score."""
    rules = state.rules
    board = state.players[seat]
    printed = printed_wall(rules, seat, state)
    text = Text()
    moving = state.phase not in (DEAL, OVER) and state.to_move == seat
    text.append(("> " if moving else "  ") + name, style="bold reverse" if moving else "bold")
    text.append(f"  score {board.score}")
    if state.marker_holder == seat and rules.marker.placement != "floor":
        text.append("  ")
        text.append_text(tile(MARKER))
        text.append(" start marker")
    text.append("\n")
    if rules.player_chooses_column:
        # The column prompt asks for a number: show which is which above the wall.
        text.append(" " * (3 + 2 * max(rules.capacity) + 2) + " ".join(str(c + 1) for c in range(rules.size)),
                    style="dim")
        text.append("\n")
    for row in range(rules.size):
        text.append(f" {row + 1} ", style="dim")
        capacity = rules.capacity[row]
        text.append("  " * (max(rules.capacity) - capacity))
        count, colour = board.line_count[row], board.line_colour[row]
        closed = board.closed >> row & 1
        # Extra tiles standing in for the colour are drawn last, nearest the wall side's end.
        on_line = [colour] * (count - len(board.line_extra[row])) + list(board.line_extra[row])
        for space in range(capacity):
            if space:
                text.append(" ")
            # Tiles fill a line from the wall side, as on the board.
            if closed:
                text.append(CLOSED, style="dim")
            elif space >= capacity - count:
                text.append_text(tile(on_line[space - (capacity - count)], state.table))
            else:
                text.append(EMPTY, style="dim")
        text.append(" | ")
        for column in range(rules.size):
            if column:
                text.append(" ")
            cell = board.wall[row][column]
            if cell is not None:
                text.append_text(tile(cell, state.table))
            elif printed[row][column] is not None:
                text.append_text(printed_letter(printed[row][column], state.table))
            else:
                text.append(EMPTY, style="dim")
        text.append("\n")
    costs = floor_costs(rules)
    text.append(" floor ", style="dim")
    for space in range(len(costs)):
        if space < len(board.floor):
            text.append(" ")
            text.append_text(tile(board.floor[space], state.table))
            text.append(" ")
        else:
            text.append(f" {EMPTY} ", style="dim")
    penalty = rules.floor_penalty(board.floor, seat, state) if board.floor else 0
    # Room for the cost is kept when there is none, so a board beside this one never shifts.
    width = len(str(sum(costs))) + 2 if costs else 0
    text.append(f" {penalty}".ljust(width) if penalty else " " * width, style="bold red")
    text.append("\n       ")
    text.append("".join(f"{cost:>3}" for cost in costs), style="dim")
    return text


def draw_boards(state, names: Sequence[str]) -> Table:
    """Every player's board, two to a row."""
    grid = Table.grid(padding=(0, 3))
    grid.add_column()
    grid.add_column()
    boards = [draw_board(state, seat, names[seat]) for seat in range(state.num_players)]
    for start in range(0, len(boards), 2):
        pair = boards[start:start + 2]
        grid.add_row(*pair, *([Text()] * (2 - len(pair))))
        if start + 2 < len(boards):
            grid.add_row(Text(), Text())
    return grid


def draw_game(state, names: Sequence[str], last: str | None = None, title: str = "",
              sealed: Sequence[int] = (), reader: int | None = None) -> Group:
    """The whole position: a heading, the last move, the table and the boards, then what the
    variant's plugins add: the secrets in ``state`` (give ``state.for_seat(seat)`` to show
    one seat's only: the others' read "hidden"; those of the ``sealed`` seats of a per-seat
    copy of a record read "sealed") and each plugin's memory, in the plugins' words as
    ``reader`` (the seat at the keyboard; None: a watcher) reads them, and the plugins' moves
    on offer."""
    heading = Text(title or state.rules.name, style="bold")
    heading.append(f"   round {state.round}", style="")
    if state.phase == OVER:
        heading.append("   game over")
    elif state.phase == PLACE:
        name = names[state.to_move]
        heading.append(f"   wall tiling: {name} {'place' if name == 'you' else 'places'} a tile")
    elif state.phase == CHOOSE and stage_of(state) is not None:
        name = names[state.to_move]
        secretly = " in secret" if in_secret(state) else ""
        heading.append(f"   {STAGE_NAMES.get(state.stage, state.stage)}: {name} "
                       f"{'choose' if name == 'you' else 'chooses'}{secretly}")
    elif state.phase == CHOOSE:
        name = names[state.to_move]
        heading.append(f"   {name} {'choose' if name == 'you' else 'chooses'} after the draft")
    elif state.phase != DEAL:
        heading.append(f"   {names[state.to_move]} to move")
    parts = [heading]
    if last:
        parts.append(Text(f"Last: {last}", style="italic"))
    parts += [draw_table(state), draw_boards(state, names)]
    parts += draw_plugin_parts(state, names, sealed, reader)
    return Group(*parts)


def draw_plugin_parts(state, names: Sequence[str], sealed: Sequence[int] = (),
                      reader: int | None = None) -> list[Text]:
    """Lines for what plugins add to a game: secrets and memory in their plugins' words
    (``players.plugin_words``), the moves on offer."""
    lines = []
    # Two seats of one bot in a simulated game's record share a name: the seat tells them apart.
    who = [name if names.count(name) == 1 else f"{name} (seat {seat + 1})" for seat, name in enumerate(names)]
    for told in plugin_words(state):
        if told.kind == "secret" and told.seat in sealed:
            continue
        text = told.text(who, reader)
        if text is not None:
            lines.append(Text(text, style="dim" if told.kind == "memory" else ""))
    for plugin, values in state.secrets.items():
        unseen = [f"{who[seat]}: {'sealed' if seat in sealed else 'hidden'}"
                  for seat, value in enumerate(values) if seat in sealed or value is None]
        if unseen:
            lines.append(Text(f"Secret ({plugin}): {'; '.join(unseen)}", style="dim"))
    title = phase_title(state)
    if title is not None:
        lines.append(Text(f"{title}.", style="bold"))
        waiting = waiting_words(state, who, reader)
        if waiting:
            lines.append(Text(waiting))
    moves = moves_on_offer(state)
    if moves and state.phase == CHOOSE:
        lines.append(Text(f"{names[state.to_move]}: choose one (number or move):", style="bold"))
        lines.append(draw_moves(moves, numbered=True))
    elif moves:
        lines.append(Text("Also on offer: " + "; ".join(f"{move.notation} {move.label}".rstrip()
                                                        for move in moves)))
    return lines


def draw_moves(moves: Sequence[Move], numbered: bool = False) -> Text:
    """Plugins' moves one to a line: (number,) notation, label."""
    width = max(len(move.notation) for move in moves)
    text = Text()
    for number, move in enumerate(moves, 1):
        text.append(f"  {number:>2} " if numbered else "  ")
        text.append(move.notation.ljust(width), style="bold")
        if move.label:
            text.append(f"  {move.label}")
        text.append("\n")
    text.rstrip()
    return text


# ------------------------------------------------------------------ describing decisions


def describe_decision(state, decision: tuple, names: Sequence[str] | None = None,
                      for_mover: bool = True) -> str:
    """What a decision does, in a sentence, judged from ``state`` before it is taken:
    "ana takes 3 red from factory 2 to line 4, 1 to the floor". A plugin's move is told by
    the label it is offered with, which its plugin may make from the mover's secret; unless
    ``for_mover``, by the label its plugin declared."""
    if isinstance(decision, Drawn):
        return drawn_words(state, decision, names)
    name = names[state.to_move] if names is not None else "you"
    person = name == "you"
    if isinstance(decision, Move):
        move = labelled(state, decision) if for_mover else declared(state, decision)
        return f"{name} {'play' if person else 'plays'} {move.notation}" + (f": {move.label}" if move.label else "")
    board = state.players[state.to_move]
    if len(decision) == 2:
        row, column = decision
        colour_name = state.table.kind_names[board.line_colour[row]]
        return (f"{name} {'place' if person else 'places'} the {colour_name} "
                f"tile of line {row + 1} in wall column {column + 1} (+{placement_points(state, decision)})")
    source, colour, line = decision
    effect = _draft_effect(state, decision)
    phrase = f"{name} {'take' if person else 'takes'} {state.sources[source][colour]} " \
             f"{state.table.kind_names[colour]}" \
             f"{_along_words(effect)} from {source_name(source)}"
    if effect["misplaced"]:
        phrase += f" for line {line + 1}, but {effect['misplaced']}: all to the floor"
    elif line == state.rules.floor_line:
        phrase += " to the floor"
    else:
        phrase += f" to line {line + 1}" + (" (complete)" if effect["complete"] else "")
        if effect["floor"]:
            phrase += f", {effect['floor']} to the floor"
    if effect["lid"]:
        phrase += f" ({effect['lid']} {_PILE_WORDS[state.rules.overflow_pile]})"
    if effect["marker"]:
        phrase += ", and the start marker"
    return phrase


def drawn_words(state, drawn: Drawn, names: Sequence[str] | None = None) -> str:
    """What a rule drew from the bag, judged from ``state`` before the tiles are laid: "Drawn
    from the bag onto factory 3: 2 red, 1 blue, 1 black"."""
    target = state.drawing[0][2].target if state.drawing else None
    kinds = state.table.kind_names
    tiles = ", ".join(f"{count} {kinds[kind]}" for kind, count in enumerate(drawn.tiles) if count)
    onto = ""
    if target is not None:
        seat = target.seat
        onto = (f" onto {names[seat]}'s floor" if names is not None else f" onto the floor of seat {seat + 1}") \
            if target.what == "floor" and seat is not None else f" onto {target}"
    return f"Drawn from the bag{onto}: {tiles or 'nothing (the bag and the lid are empty)'}"


def placement_points(state, decision: tuple) -> int:
    """The points a wall placement scores (tried on a copy of the state)."""
    seat = state.to_move
    after = state.clone()
    after.apply(decision)
    return after.players[seat].placement_points - state.players[seat].placement_points


#: Where tiles past a full floor go, in words (``azul_discard_pile`` for the overflow).
_PILE_WORDS = {"lid": "to the lid", "bag": "back into the bag", "out": "out of the game"}


def _taken_along(state, decision: tuple) -> tuple[list[int], int]:
    """The extra tiles a draft takes along (kinds, one entry a tile) and how many of them may
    stand in on its line, as the variant's hooks say (none in most variants)."""
    rules = state.rules
    if rules.draft_takes is None:
        return [], 0
    source, colour, line = decision
    seat, tiles = state.to_move, state.sources[source]
    amounts = rules.draft_takes(tuple(tiles), colour, source, seat, state)
    if amounts is None:
        return [], 0
    along = [kind for kind, count in enumerate(amounts) if kind != colour for _ in range(count)]
    standing = 0
    if line != rules.floor_line and rules.stands_in is not None:
        standing = sum(1 for kind in along if rules.stands_in(kind, colour, line, seat, state))
    return along, standing


def _draft_effect(state, decision: tuple) -> dict:
    """Where a draft's tiles go: how many to the line, the floor, the lid; the marker; the
    tiles of another kind it takes along (``along``, their names)."""
    source, colour, line = decision
    board = state.players[state.to_move]
    taken = state.sources[source][colour]
    along, standing = _taken_along(state, decision)
    marker = source == CENTRE and state.marker_in_centre
    room = state.rules.floor_spaces - len(board.floor)
    if marker and state.rules.marker.placement == "floor":
        room -= 1
    misplaced = line_refusal_words(state, state.to_move, colour, line, clause=True) \
        if state.is_misplaced(decision) else ""
    put = complete = 0
    if line != state.rules.floor_line and not misplaced:
        free = state.rules.capacity[line] - board.line_count[line]
        put = min(taken, free) + min(standing, max(free - taken, 0))
        complete = put == free
    falling = taken + len(along) - put
    lid = max(falling - max(room, 0), 0)
    names = state.table.kind_names
    return {"taken": taken, "line": put, "complete": complete, "floor": falling - lid,
            "lid": lid, "marker": marker, "misplaced": misplaced,
            "along": [names[kind] for kind in along]}


def draft_preview(state, decision: tuple, effect: dict | None = None, memo: dict | None = None) -> dict:
    """What a draft leads to, in figures, for the points preview of the seat to move (``effect``:
    ``_draft_effect``'s, when already worked out): the tiles that fall to the floor (``floor``;
    ``marker``: the start marker too) and what the floor then costs more (``cost``, zero or
    less, the variant's floor hook); whether the line is full after it (``complete``) or how
    many tiles it still lacks (``missing``); and ``wall``: each space its tile may take when
    the line is tiled this round, with the points it scores there (the variant's wall and
    scoring hooks, on the wall as it will be then: the full lines above it tiled first).
    ``memo``: a dict kept while one state's drafts are previewed (what the hooks answered)."""
    if memo is None:
        memo = {}
    if effect is None:
        effect = _draft_effect(state, decision)
    _source, colour, line = decision
    seat = state.to_move
    board = state.players[seat]
    rules = state.rules
    floor = list(board.floor)
    marker = bool(effect["marker"]) and rules.marker.placement == "floor" and len(floor) < rules.floor_spaces
    if marker:
        floor.append(MARKER)
    # Where the tiles fall, as the engine lays them: the colour's first, then the others taken along.
    free = 0 if line == rules.floor_line or effect["misplaced"] else rules.capacity[line] - board.line_count[line]
    on_line = min(effect["taken"], free)
    standing = effect["line"] - on_line  # tiles taken along that stand in for the colour
    kinds = [colour] * (effect["taken"] - on_line)
    if effect["along"]:
        kind_names = state.table.kind_names
        kinds += [kind_names.index(name) for name in effect["along"][standing:]]
    fallen = kinds[:max(rules.floor_spaces - len(floor), 0)]
    floor += fallen
    cost = 0
    if rules.context_readers.get("azul_floor_penalty"):
        # The floor's cost reads the game (who holds the marker, ...): asked of the game after the draft.
        cost = _floor_cost_after(state, decision, floor)
    elif floor != board.floor:
        key = ("cost", *floor)
        cost = memo.get(key)
        if cost is None:
            if "floor" not in memo:
                memo["floor"] = rules.floor_penalty(board.floor, seat, state)
            cost = memo[key] = rules.floor_penalty(floor, seat, state) - memo["floor"]
    preview = {"floor": len(fallen), "marker": marker, "cost": cost, "complete": False, "missing": 0,
               "wall": []}
    if line == rules.floor_line or effect["misplaced"]:
        return preview
    capacity = rules.capacity[line]
    missing = capacity - board.line_count[line] - effect["line"]
    preview["complete"], preview["missing"] = missing == 0, missing
    spaces = memo.get(("wall", line, colour))
    if spaces is None:
        spaces = memo[("wall", line, colour)] = _wall_preview(state, seat, line, colour)
    preview["wall"] = spaces
    return preview


def _floor_cost_after(state, decision: tuple, floor: list[int]) -> int:
    """What a draft adds to the floor's cost, where the variant's floor hook reads the game: the
    draft taken on a copy, the floor's cost asked after it (``floor``: the floor it leaves,
    asked of the game before it when the draft ends the round, which scores the floor at once)."""
    seat = state.to_move
    penalty = state.rules.floor_penalty
    before = penalty(state.players[seat].floor, seat, state)
    after = state.clone()
    try:
        after.apply(decision)
    except (IllegalDecision, PluginError):
        return penalty(floor, seat, state) - before
    if after.round != state.round or after.phase == OVER:
        return penalty(floor, seat, state) - before
    return penalty(after.players[seat].floor, seat, after) - before


#: How many wall previews a variant keeps ((wall, the full lines above, line, colour) -> the
#: preview, for variants whose wall and scoring read nothing but the wall: a wall changes once a
#: round, the preview is asked each turn)
_WALL_PREVIEWS_KEPT = 4096


def _wall_preview(state, seat: int, line: int, colour: int) -> list[dict]:
    """The wall spaces the tile of ``seat``'s line ``line`` may take in ``colour`` when tiled
    this round, with their points (``draft_preview``; never changed: it may be shared)."""
    rules = state.rules
    board = state.players[seat]
    key = None
    readers = rules.context_readers
    if not readers.get("azul_wall_spaces") and not readers.get("azul_placement_score"):
        full_above = tuple(board.line_colour[row] if board.line_count[row] == rules.capacity[row]
                           and not board.closed >> row & 1 else -1 for row in range(line))
        key = (board.wall, full_above, line, colour)
        previews = rules.kept("wall previews", dict)
        known = previews.get(key)
        if known is not None:
            return known
    spaces = _wall_spaces_and_points(state, seat, line, colour)
    if key is not None:
        if len(previews) >= _WALL_PREVIEWS_KEPT:
            previews.clear()
        previews[key] = spaces
    return spaces


def _wall_spaces_and_points(state, seat: int, line: int, colour: int) -> list[dict]:
    rules = state.rules
    board = state.players[seat]
    wall = board.wall
    for row in range(line):
        # A full line above is tiled first (lines are tiled from the top): its tile may touch.
        if board.line_count[row] == rules.capacity[row] and not board.closed >> row & 1:
            above = rules.wall_spaces(wall, row, board.line_colour[row], seat, state)
            if len(above) == 1:
                wall = wall_with(wall, row, above[0], board.line_colour[row])
    return [{"column": column,
             "points": rules.placement_score(wall_with(wall, line, column, colour), line, column, seat, state)}
            for column in rules.wall_spaces(wall, line, colour, seat, state)]


def effect_and_preview(state, decision: tuple, memo: dict | None = None) -> tuple[str, dict]:
    """A draft's ``short_effect`` and its ``draft_preview`` (``memo``: see there), from one look
    at where its tiles go."""
    effect = _draft_effect(state, decision)
    return short_effect(state, decision, effect), draft_preview(state, decision, effect, memo)


def _along_words(effect: dict) -> str:
    """' and 1 wild' for the tiles of another kind a draft takes along."""
    counts: dict[str, int] = {}
    for name in effect["along"]:
        counts[name] = counts.get(name, 0) + 1
    return "".join(f" and {count} {name}" for name, count in counts.items())


def short_effect(state, decision: tuple, effect: dict | None = None) -> str:
    """What a decision does in a few words, for the list of legal moves (``effect``: the
    draft's ``_draft_effect``, when already worked out)."""
    if isinstance(decision, Move):
        return labelled(state, decision).label or decision.notation
    if len(decision) == 2:
        return f"wall column {decision[1] + 1}, +{placement_points(state, decision)}"
    _source, colour, line = decision
    if effect is None:
        effect = _draft_effect(state, decision)
    parts = [f"{effect['taken']} {state.table.kind_names[colour]}{_along_words(effect)}"]
    if effect["line"]:
        parts[0] += f" to line {line + 1}" + (" full" if effect["complete"] else "")
        if effect["floor"]:
            parts.append(f"{effect['floor']} floor")
    elif effect["floor"]:
        parts[0] += " to floor" if effect["floor"] == effect["taken"] else f", {effect['floor']} floor"
    else:
        parts[0] += " to " + state.rules.overflow_pile
    if effect["lid"] and (effect["line"] or effect["floor"]):
        parts.append(f"{effect['lid']} {state.rules.overflow_pile}")
    if effect["marker"]:
        parts.append("marker")
    return ", ".join(parts)


class LegalFilterError(ValueError):
    """A filter for the legal moves that names no source or colour."""


def legal_filter(text: str, letters: str = LETTERS, names: Sequence[str] = NAMES) -> tuple[int | None, int | None]:
    """``(source, colour)`` from what follows ``?``: ``3`` (factory 3), ``C`` or ``centre``,
    ``red`` or ``R``; either may be ``None`` (no filter). Several words combine: ``? 3 red``.
    ``letters`` and ``names``: the variant's colours."""
    colour_of_name = {name: colour for colour, name in enumerate(names)}
    colour_of_letter = {letter: colour for colour, letter in enumerate(letters)}
    source = colour = None
    for word in text.lower().replace(",", " ").split():
        if word in ("c", "centre", "center"):
            source = CENTRE
        elif is_ascii_number(word) and 1 <= int(word) <= 9:
            source = int(word)
        elif word in colour_of_name or word.upper() in colour_of_letter:
            colour = colour_of_name.get(word, colour_of_letter.get(word.upper()))
        elif word not in ("factory", "from"):
            raise LegalFilterError(f"'? {text.strip()}': filter by a factory number, C for the "
                                   "centre, or a colour, e.g. '? 3', '? C', '? red'")
    return source, colour


def draw_legal(state, source: int | None = None, colour: int | None = None, width: int = WIDTH) -> Group:
    """The legal decisions, compactly: one entry per source and colour with the lines it may
    go to (in two columns when they fit in ``width``), or the wall columns and their points;
    the plugins' moves on offer (a pass), or the choices after a draft. ``source`` and
    ``colour`` keep only the drafts from that source or of that colour."""
    from azul_core.engine.notation import format_decision
    if state.phase == CHOOSE:
        return Group(Text("Choose one (type its number or the move):", style="dim"),
                     draw_moves(moves_on_offer(state), numbered=True))
    if state.phase == PLACE:
        text = Text()
        for decision in state.legal_decisions():
            text.append(f"{decision[1] + 1}", style="bold")
            notation = format_decision(decision, state.rules.colour_letters)
            text.append(f" ({notation})  {short_effect(state, decision)}\n")
        text.rstrip()
        return Group(text)
    groups: dict[tuple[int, int], list[int]] = {}
    moves = []
    for decision in state.legal_decisions():
        if isinstance(decision, Move):
            moves.append(decision)
            continue
        s, c, line = decision
        if (source is None or s == source) and (colour is None or c == colour):
            groups.setdefault((s, c), []).append(line)
    parts: list = []
    if moves and source is None and colour is None:
        parts.append(Text("Moves of this variant's rules (type the move, or its name):", style="dim"))
        parts.append(draw_moves(moves))
    if not groups:
        if not moves:
            parts.append(Text("No legal move matches.", style="dim"))
    else:
        (s, c), lines = next(iter(groups.items()))
        # One line of 80 columns at most, so that the list keeps its place on the screen.
        example = format_decision((s, c, lines[0]), state.rules.colour_letters)
        parts.append(Text(f"Type e.g. {example}: source, colour, line "
                          "(- floor); *: fills the line; +n: n to floor", style="dim"))
    cells = []
    for (s, c), lines in groups.items():
        cell = Text(format_decision((s, c, state.rules.floor_line), state.rules.colour_letters)[:-1],
                    style="bold")
        cell.append(f" {state.sources[s][c]} {state.table.kind_names[c]}: ")
        cell.append(", ".join(_line_effect(state, (s, c, line)) for line in lines))
        cells.append(cell)
    per_row = 2 if cells and 2 * max(len(cell) for cell in cells) + 3 <= width else 1
    grid = Table.grid(padding=(0, 3 if per_row == 2 else 0))
    for _ in range(per_row):
        grid.add_column(no_wrap=per_row == 2)
    rows = (len(cells) + per_row - 1) // per_row
    for row in range(rows):
        # Column-major, so that the sources read down in order.
        grid.add_row(*[cells[row + rows * col] if row + rows * col < len(cells) else Text()
                       for col in range(per_row)])
    if cells:
        parts.append(grid)
    notes = []
    if state.marker_in_centre and any(s == CENTRE for s, _c in groups):
        notes.append("The first to take from the centre also takes the start marker.")
    board = state.players[state.to_move]
    closed = [str(row + 1) for row in range(state.rules.size) if board.closed >> row & 1]
    if closed:
        notes.append(f"Pattern line{'s' if len(closed) > 1 else ''} {', '.join(closed)} "
                     "tiled this round: closed until the next round.")
    parts += [Text(note, style="dim") for note in notes]
    return Group(*parts)


def _line_effect(state, decision: tuple) -> str:
    """One target of a draft in a few words: '4*+1' (line 4 fills up, one tile to the floor), '-'."""
    line = decision[2]
    effect = _draft_effect(state, decision)
    floor = state.rules.floor_line
    words = "-" if line == floor else f"{line + 1}" + ("*" if effect["complete"] else "")
    if effect["floor"] and line != floor:
        words += f"+{effect['floor']}"
    if effect["lid"]:
        words += f" ({effect['lid']} lid)"
    return words


# ------------------------------------------------------------------ a round's account


def tiling_laid_tiles(phase_before: str, round_before: int, points_before: Sequence[int], after) -> bool:
    """Whether the decision that led to ``after`` tiled lines, told by the state before it: its
    phase, round and each seat's ``placement_points``. A wall tile that appears otherwise was
    put there by a plugin's move (a ``Transfer`` to a wall space): not laid by the tiling and
    not scored, so no round's account lists it."""
    return (phase_before == PLACE or after.round != round_before or after.phase == OVER
            or any(board.placement_points != points for board, points in zip(after.players, points_before)))


def new_placements(before, after) -> list[tuple[int, int, int, int, int]]:
    """The wall tiles laid between two states of one game, with their points:
    ``(seat, row, column, colour, points)``, each seat's in tiling order (line 1 first). Between
    the states before and after one decision, only those the tiling laid (``tiling_laid_tiles``)."""
    if not tiling_laid_tiles(before.phase, before.round, [board.placement_points for board in before.players],
                             after):
        return []
    placed = []
    score = after.rules.placement_score
    for seat, (old, new) in enumerate(zip(before.players, after.players)):
        wall = old.wall
        for row in range(after.rules.size):
            for column in range(after.rules.size):
                colour = new.wall[row][column]
                if colour is not None and old.wall[row][column] is None:
                    wall = wall_with(wall, row, column, colour)
                    placed.append((seat, row, column, colour, score(wall, row, column)))
    return placed


def draw_round_summary(round_number: int, placements, start, state, names: Sequence[str],
                       wrap: bool = True) -> Group:
    """What a round did to each player: every tile placed and its points, the floor's cost,
    the score before and after. ``start`` holds each seat's (score, floor points so far)
    when the round began; bonuses of a finished game are left to ``draw_result``. With
    ``wrap`` a long account goes on under itself; without, each player's is one line."""
    rows = []
    for seat, board in enumerate(state.players):
        score_before, penalty_before = start[seat]
        score_now = board.score - sum(points for _label, points in board.bonuses)
        parts = [f"line {row + 1} {state.table.kind_names[colour]} to wall column {column + 1} +{points}"
                 for who, row, column, colour, points in placements if who == seat]
        parts.append(f"floor {board.penalty_points - penalty_before}")
        parts.append(f"score {score_before} -> {score_now}")
        rows.append((names[seat], "; ".join(parts)))
    heading = Text(f"Round {round_number} scored:", style="bold")
    if not wrap:
        width = max(len(name) for name in names)
        return Group(heading, *[Text(f"  {name:<{width}}  {account}") for name, account in rows])
    grid = Table.grid(padding=(0, 0, 0, 2), pad_edge=True)
    grid.add_column(no_wrap=True)
    grid.add_column()  # wraps between words, under itself
    for name, account in rows:
        grid.add_row(Text(name), Text(account))  # Text: a name is never read as markup
    return Group(heading, grid)


# ------------------------------------------------------------------ the end


def draw_result(state, names: Sequence[str]) -> Group:
    """The bonus breakdown per player, the final scores, the winner(s) and a tie's reason."""
    table = Table(title="Final scores", title_justify="left", box=None, padding=(0, 1))
    table.add_column("player", style="bold")
    table.add_column("tiles", justify="right")
    table.add_column("floor", justify="right")
    labels = []
    for board in state.players:
        for label, _points in board.bonuses:
            if label not in labels:
                labels.append(label)
    for label in labels:
        table.add_column(f"+{label}", justify="right")
    table.add_column("full rows", justify="right")
    table.add_column("total", justify="right", style="bold")
    for seat, board in enumerate(state.players):
        bonus = dict()
        for label, points in board.bonuses:
            bonus[label] = bonus.get(label, 0) + points
        table.add_row(Text(names[seat]), str(board.placement_points), str(board.penalty_points),
                      *[f"+{bonus.get(label, 0)}" for label in labels],
                      str(board.complete_rows()), str(board.score))
    return Group(table, Text(winner_line(state, names), style="bold"))


def winner_line(state, names: Sequence[str]) -> str:
    """Who won, and on a tie in points, what decided it."""
    winners = state.winners
    scores = state.scores()
    if not winners:
        return "No winner."
    top = scores[winners[0]]
    tied = [seat for seat, score in enumerate(scores) if score == top]
    shown = " and ".join(names[seat] for seat in winners)
    wins = "win" if shown == "you" else "wins"
    if len(tied) == 1:
        return f"{shown} {wins} with {top} points."
    rows = ", ".join(f"{names[seat]} {state.players[seat].complete_rows()}" for seat in tied)
    if len(winners) == 1:
        return (f"{shown} {wins}: tied on {top} points with "
                f"{' and '.join(names[s] for s in tied if s not in winners)}, "
                f"won on complete rows ({rows}).")
    if len(winners) == len(tied):
        return f"{shown} share the victory: tied on {top} points and on complete rows ({rows})."
    return f"{shown} win: tied on {top} points, the tie broken on complete rows ({rows})."


def render_text(renderable, width: int = WIDTH) -> str:
    """A renderable as plain text (no colour), as a test or a log would read it."""
    import io
    console = Console(width=width, color_system=None, force_terminal=False, file=io.StringIO())
    console.print(renderable)
    return console.file.getvalue()
