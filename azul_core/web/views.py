"""What the page draws and may do, built from the engine: the VIEW and the LEGAL moves.

Everything here is read from the game state and its resolved ``Rules``
(the printed wall, the floor's costs, which drafts are legal, what a
placement scores); nothing names a variant and nothing re-implements a rule.
The plugins' memory, secrets and moves are passed on as they are (plain
values, labels and notation, and the plugins' words for their secrets and memory,
``azul_describe``): the page needs no code of a plugin's. The
state given is the one its client may know (``Table.seen_by``): the view
shows every secret that state holds.
The format is the protocol of ``docs/serve.md``.
"""

from __future__ import annotations

import json
import logging
from typing import Sequence

# Engine (azul_core.engine.* after the layout move) and the terminal's wording of moves.
from azul_core.colours import MARKER
from azul_core.engine.moves import plain
from azul_core.engine.notation import format_decision
from azul_core.engine.plugins import PluginError
from azul_core.engine.state import CENTRE, CHOOSE, DRAFT, OVER, PLACE
from azul_core.players.phase_words import chosen_seats, in_secret, own_choice, phase_title, stage_of
from azul_core.players.plugin_words import plugin_words
from azul_core.players.refusal_words import line_refusal_words
from azul_core.players.render import effect_and_preview, floor_costs, placement_points, printed_wall, winner_line
from azul_core.rules import Move

log = logging.getLogger("azul.web")

def colour_legend(rules) -> list[dict]:
    """The variant's colours as the page draws them, in order (colour ``i`` is the ``i``-th):
    each one's name, its letter (on every tile and in the notation) and its look (#rrggbb)."""
    return [{"name": colour.name, "letter": colour.letter, "look": colour.look} for colour in rules.colours]


def _tile_name(tile: int, names: Sequence[str]) -> str:
    return "marker" if tile == MARKER else names[tile]


def _tiles(counts: Sequence[int], names: Sequence[str]) -> list[str]:
    """Tiles by kind, in kind order: ``[0, 2, 0, 0, 0, 1]`` -> ``["yellow", "yellow", "wild"]``
    (``names``: ``table.kind_names``, the colours' then the extra tiles')."""
    return [names[kind] for kind in range(len(counts)) for _ in range(counts[kind])]


def _kinds(table) -> list[dict]:
    """The variant's tiles beyond its colours, as the page draws them."""
    return [{"name": extra.name, "letter": extra.letter, "look": extra.look} for extra in table.extra_tiles]


def _board(state, seat: int, seats, connected: Sequence[bool], printed, costs, over: bool) -> dict:
    board = state.players[seat]
    size = state.rules.size
    extra_kinds = state.kinds > size
    names = state.table.kind_names
    colour_names = state.rules.colour_names
    lines = []
    for row in range(size):
        count = board.line_count[row]
        line = {"capacity": state.rules.capacity[row],
                "colour": colour_names[board.line_colour[row]] if count else None, "count": count,
                "closed": board.accept[row] == 0}
        if extra_kinds:
            # The tiles standing in for the colour: counted in ``count``, named by their kind.
            line["extra"] = [names[kind] for kind in board.line_extra[row]]
        lines.append(line)
    wall = []
    for row in range(size):
        cells = []
        for column in range(size):
            tile = board.wall[row][column]
            pattern = printed[row][column]
            pattern_name = colour_names[pattern] if pattern is not None else None
            cells.append({"colour": colour_names[tile] if tile is not None else pattern_name,
                          "tile": tile is not None, "pattern": pattern_name})
        wall.append(cells)
    floor = [{"tile": _tile_name(board.floor[space], names) if space < len(board.floor) else None,
              "cost": cost} for space, cost in enumerate(costs)]
    return {"seat": seat, "name": seats[seat].name, "bot": seats[seat].bot,
            "connected": bool(connected[seat]), "score": board.score,
            "lines": lines, "wall": wall, "floor": floor,
            "marker": state.marker_holder == seat and not over}


def _board_key(state, seat: int, seats, connected: Sequence[bool], over: bool) -> tuple:
    """Everything a seat's part of the view depends on."""
    board = state.players[seat]
    return (tuple(board.line_count), tuple(board.line_colour), tuple(board.accept),
            tuple(map(tuple, board.wall)), tuple(board.floor), board.score,
            state.marker_holder == seat and not over, seats[seat].name, seats[seat].bot,
            bool(connected[seat]), tuple(board.line_extra) if state.kinds > state.rules.size else None)


def _stage(state, reader: int | None) -> dict | None:
    """The plugins' phase the game is in, as the page tells it (None: not in one): its stage and
    wording, and in a phase chosen at once the seats that have chosen and the reader's own
    choice; ``state`` is the reader's (``for_seat``): another seat's choice is not in it."""
    stage = stage_of(state)
    if stage is None:
        return None
    secret = in_secret(state)
    mine = own_choice(state, reader) if secret else None
    return {"name": stage, "at_once": secret, "text": phase_title(state),
            "chosen": chosen_seats(state) if secret else [],
            "yours": None if mine is None else {"move": mine.notation, "label": mine.label or mine.notation}}


def _rest(state, offered, seats, last_round, variant_name: str, seen_by: int | None = None) -> tuple[dict, dict]:
    """The parts of the view before and after ``seats``."""
    over = state.phase == OVER
    placing = None
    if state.phase == PLACE:
        seat, row, columns = state.placing
        placing = {"seat": seat, "row": row, "colour": state.rules.colour_names[state.players[seat].line_colour[row]],
                   "columns": list(columns)}
    head = {
        "variant": variant_name,
        "description": offered.variant.description,
        "round": state.round,
        "phase": state.phase,
        "to_move": None if over else state.to_move,
        "placing": placing,
        "stage": _stage(state, seen_by),
        "colours": colour_legend(state.rules),
        # The floor's number in a draft's ``line``: the one after the last pattern line.
        "floor_line": state.rules.floor_line,
    }
    names = state.table.kind_names
    if state.kinds > state.rules.size:
        head["kinds"] = _kinds(state.table)
    tail = {
        "factories": [_tiles(source, names) for source in state.sources[1:]],
        "centre": {"tiles": _tiles(state.sources[CENTRE], names), "marker": state.marker_in_centre and not over},
        "bag": len(state.bag),
        "lid": sum(state.lid),
        "last_round": last_round,
        "final": build_final(state, [s.name for s in seats]) if over else None,
        "memory": {plugin: plain(value) for plugin, value in state.memory.items()},
        "secrets": {plugin: [plain(value) for value in values] for plugin, values in state.secrets.items()},
        "words": _words(state) if state.secrets or state.memory else [],
    }
    return head, tail


def _words(state) -> list[dict]:
    """The secrets and memory ``state`` holds, in their plugins' words (``azul_describe``); a
    plugin whose words fail is told plainly (the log names it) rather than stop the page."""
    try:
        return [told.to_dict() for told in plugin_words(state)]
    except PluginError as exc:
        log.warning("%s", exc)
        return [told.to_dict() for told in plugin_words(state, ask=False)]


def build_view(state, offered, seats, connected: Sequence[bool], last_round, variant_name: str,
               boards_seen: dict | None = None, seen_by: int | None = None) -> dict:
    """The whole table as the page draws it (``seats``: the table's seat records). A move
    changes one or two boards: given ``boards_seen`` (seat -> (key, board), kept up to date
    here), the others are the same objects as before, cheap to diff and never rebuilt.
    ``seen_by``: the seat ``state`` is the view of (None: a watcher)."""
    costs = floor_costs(state.rules)
    printed = [printed_wall(state.rules, seat, state) for seat in range(state.num_players)]
    over = state.phase == OVER
    head, tail = _rest(state, offered, seats, last_round, variant_name, seen_by)
    boards = []
    for seat in range(state.num_players):
        if boards_seen is None:
            boards.append(_board(state, seat, seats, connected, printed[seat], costs, over))
            continue
        key = _board_key(state, seat, seats, connected, over)
        seen = boards_seen.get(seat)
        if seen is None or seen[0] != key:
            seen = boards_seen[seat] = (key, _board(state, seat, seats, connected, printed[seat], costs, over))
        boards.append(seen[1])
    return {**head, "seats": boards, **tail}


def _dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def build_final(state, names: Sequence[str]) -> dict:
    scores = state.scores()
    seats = []
    for board in state.players:
        bonuses = [{"kind": label, "points": points} for label, points in board.bonuses]
        seat = {"tiles": board.placement_points, "floor": board.penalty_points, "bonuses": bonuses,
                "complete_rows": board.complete_rows(), "total": board.score}
        if not state.rules.offers_moves:
            # The points a floor could not take: a score never goes below 0 (a house rule's moves
            # may give points of their own, so there it is not told).
            seat["held"] = board.score - board.placement_points - board.penalty_points \
                - sum(points for _label, points in board.bonuses)
        seats.append(seat)
    text = winner_line(state, names)
    tied = [seat for seat, score in enumerate(scores)
            if state.winners and score == scores[state.winners[0]]]
    return {"scores": scores, "seats": seats, "winners": list(state.winners),
            "tie_break": text if len(tied) > 1 else None, "text": text}


def plugin_move(move: Move) -> dict:
    """A plugin's move as the page shows it: a button with the plugin's label, sending ``move``."""
    return {"move": move.notation, "name": move.name, "args": list(move.args),
            "label": move.label or move.notation, "exclusive": move.exclusive}


def build_legal(state) -> dict:
    """The decisions the seat to move may send, with what each does: drafts, wall columns and
    the plugins' moves on offer (``moves``; in phase "choose", the only ones)."""
    letters, colour_names = state.rules.colour_letters, state.rules.colour_names
    if state.phase == PLACE:
        return {"drafts": [], "columns": [
            {"move": format_decision(d, letters), "row": d[0], "column": d[1], "points": placement_points(state, d)}
            for d in state.legal_decisions()], "moves": []}
    if state.phase == CHOOSE:
        return {"drafts": [], "columns": [], "moves": [plugin_move(move) for move in state.choices]}
    if state.phase != DRAFT:
        return {"drafts": [], "columns": [], "moves": []}
    drafts = []
    moves = []
    # What a draft does depends on the colour, how many tiles it takes, whether the marker
    # comes with them and the line: drafts alike in those share the words and the preview.
    effects: dict[tuple, tuple[str, dict]] = {}
    memo: dict = {}
    marker = state.marker_in_centre
    for decision in state.legal_decisions():
        if isinstance(decision, Move):
            moves.append(plugin_move(decision))
            continue
        source, colour, line = decision
        key = (colour, state.sources[source][colour], source == CENTRE and marker, line)
        described = effects.get(key)
        if described is None:
            described = effects[key] = effect_and_preview(state, decision, memo)
        drafts.append({"move": format_decision(decision, letters), "source": source, "colour": colour_names[colour],
                       "line": line, "misplaced": False, "why": None, "effect": described[0],
                       "preview": described[1]})
    if state.rules.misplaced_to_floor:
        # Legal too where the variant sends them to the floor: listed so the page can ask first.
        listed = {(d["source"], d["colour"], d["line"]) for d in drafts}
        seat = state.to_move
        for source, counts in enumerate(state.sources):
            for colour in range(state.rules.size):
                if not counts[colour]:
                    continue
                for line in range(state.rules.size):
                    if (source, colour_names[colour], line) in listed:
                        continue
                    decision = (source, colour, line)
                    words, preview = effect_and_preview(state, decision, memo)
                    drafts.append({"move": format_decision(decision, letters), "source": source,
                                   "colour": colour_names[colour], "line": line, "misplaced": True,
                                   "why": line_refusal_words(state, seat, colour, line),
                                   "effect": words, "preview": preview})
        drafts.sort(key=lambda d: (d["source"], colour_names.index(d["colour"]), d["line"]))
    return {"drafts": drafts, "previews": _share_previews(drafts), "columns": [], "moves": moves}


def _share_previews(drafts: list[dict]) -> list[dict]:
    """The drafts' previews, each written once: a draft's ``preview`` becomes its index in the
    list returned. Many drafts lead to the same figures, and the list of legal moves goes out
    with every move of a person's seat: sent whole per draft it made the message 60% larger."""
    shared: list[dict] = []
    index: dict[str, int] = {}
    for draft in drafts:
        key = _dumps(draft["preview"])
        found = index.get(key)
        if found is None:
            found = index[key] = len(shared)
            shared.append(draft["preview"])
        draft["preview"] = found
    return shared


#: each variant's colour names as JSON strings, by the names: written into every draft
_NAMES_JSON: dict[tuple[str, ...], list[str]] = {}


def _names_json(names: tuple[str, ...]) -> list[str]:
    written = _NAMES_JSON.get(names)
    if written is None:
        written = _NAMES_JSON[names] = [json.dumps(name) for name in names]
    return written


_JSON_BOOL = {True: "true", False: "false"}


def _preview_json(preview: dict, memo: dict) -> str:
    """A draft's ``preview`` as compact JSON, written straight to text (its wall spaces, shared
    by the drafts onto one line, once)."""
    spaces = preview["wall"]
    known = memo.get(id(spaces))
    if known is None or known[0] is not spaces:  # (the list is kept: its id is not reused)
        known = memo[id(spaces)] = (spaces, _dumps(spaces))
    wall = known[1]
    return (f'{{"floor":{preview["floor"]},"marker":{_JSON_BOOL[preview["marker"]]},"cost":{preview["cost"]},'
            f'"complete":{_JSON_BOOL[preview["complete"]]},"missing":{preview["missing"]},"wall":{wall}}}')


def build_legal_json(state) -> str:
    """``build_legal`` as compact JSON. The common case (drafts, none misplaced, no plugin's
    move) is written straight to text: it is the largest part of a move's work on the server."""
    if state.phase != DRAFT or state.rules.misplaced_to_floor or state.rules.offers_moves:
        return _dumps(build_legal(state))
    effects: dict[tuple, str] = {}
    memo: dict = {}
    marker = state.marker_in_centre
    sources = state.sources
    letters, names_json = state.rules.colour_letters, _names_json(state.rules.colour_names)
    parts = []
    previews: dict[str, int] = {}  # a preview's JSON -> its index (``_share_previews``)
    for decision in state.legal_decisions():
        source, colour, line = decision
        key = (colour, sources[source][colour], source == CENTRE and marker, line)
        effect = effects.get(key)
        if effect is None:
            words, preview = effect_and_preview(state, decision, memo)
            written = _preview_json(preview, memo)
            number = previews.setdefault(written, len(previews))
            effect = effects[key] = f'{json.dumps(words)},"preview":{number}'
        parts.append(f'{{"move":"{format_decision(decision, letters)}","source":{source},"colour":{names_json[colour]},'
                     f'"line":{line},"misplaced":false,"why":null,"effect":{effect}}}')
    return f'{{"drafts":[{",".join(parts)}],"previews":[{",".join(previews)}],"columns":[],"moves":[]}}'


__all__ = ["build_view", "build_legal", "build_legal_json", "build_final", "plugin_move", "colour_legend"]
