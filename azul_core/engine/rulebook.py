"""A variant resolved for play: hooks and settings turned into plain tables and functions.

``Rules`` is built once when a variant is loaded. The engine reads only its
attributes; nothing here calls pluggy while a game runs.
"""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any, Callable, Final, Sequence

import pluggy

from azul_core import hookspecs
from azul_core.colours import NAMES
from azul_core.engine.board_tables import board_tables
from azul_core.engine.moves import PluginHooks
from azul_core.engine.plugins import (
    PluginError,
    ask_all,
    ask_first,
    compile_hook,
    hook_location,
    implementations,
)
from azul_core.rules import MAX_COLOURS, MIN_COLOURS, Colour, ExtraTile, MarkerRule, TableSetup
from azul_core.settings import Settings


class VariantRulesError(Exception):
    """The plugins and settings of a variant don't make a playable game."""


# Result checks: refuse what a plugin returns that the engine can't accept.


def _check_wall_spaces(result, wall, row, colour):
    if result.__class__ is not tuple and result.__class__ is not list:
        return "expected a tuple or list of wall columns"
    cells = wall[row]
    for column in result:
        if column.__class__ is not int or not 0 <= column < len(cells):
            return f"column {column!r} is off the wall (0 to {len(cells) - 1})"
        if cells[column] is not None:
            return f"wall space ({row + 1},{column + 1}) is already taken"
    return None


def _check_takes(result, tiles, colour, source):
    if result.__class__ is not tuple and result.__class__ is not list:
        return "expected a count per kind of tile (a list)"
    if len(result) != len(tiles):
        return f"expected {len(tiles)} counts, one per kind of tile"
    for kind, (taken, there) in enumerate(zip(result, tiles)):
        if taken.__class__ is not int or not 0 <= taken <= there:
            return f"takes {taken!r} of kind {kind}, where the source holds {there}"
    if result[colour] != tiles[colour]:
        return "a draft takes every tile of its colour"
    return None


def _check_bool(result, *args):
    return None if isinstance(result, bool) else "expected true or false"


def _line_accepts_check(names: Sequence[str]) -> Callable[..., str | None]:
    def check(result, row, line_colour, line_count, capacity, wall_row, colour):
        if result.__class__ is not bool:
            return "expected true or false"
        return mixed_line_problem(row, line_colour, colour, names) if result else None
    return check


def mixed_line_problem(row: int, line_colour: int | None, colour: int,
                       names: Sequence[str] = NAMES) -> str | None:
    """Why pattern line ``row``, holding ``line_colour`` (``None``: empty), can't take ``colour``.

    A pattern line holds tiles of one colour: the engine keeps a colour and a count per
    line, so a line taking another colour would turn the tiles already on it into that
    colour (RR and a white draft: WWW, and the tiles no longer add up). ``azul_line_accepts``
    answering True for such a draft is refused here, and only here: the place to relax when
    a tile set makes a mixed line legal.
    """
    if line_colour is None or line_colour == colour:
        return None
    return (f"pattern line {row + 1} holds {names[line_colour]}, and a line holds one colour: "
            f"it can't take {names[colour]}")


#: The most points one answer of a plugin may give or take: scores, sums and statistics of
#: a million games stay exact and far from any overflow.
MAX_POINTS: Final = 10**6
#: The most tiles of one colour (and tiles per factory) a plugin's table may have.
MAX_TABLE_TILES: Final = 10_000
#: The most factories a table may have: a record names a factory by one digit (``1B3``).
MAX_FACTORIES: Final = 9


def _check_points(result, wall, row, column):
    if result.__class__ is not int:
        return "expected a whole number of points"
    if result > MAX_POINTS:
        return f"more than {MAX_POINTS} points for one placement"
    return None if result >= 0 else "a placement can't cost points"


def _check_penalty(result, floor):
    if result.__class__ is not int:
        return "expected a whole number"
    if result < -MAX_POINTS:
        return f"a penalty of more than {MAX_POINTS} points"
    return None if result <= 0 else "a floor penalty can't be positive"


def _check_bonuses(result, wall):
    if isinstance(result, (str, bytes)) or not hasattr(result, "__iter__"):
        return "expected a list of (label, points) pairs"
    for item in result:
        if (not isinstance(item, (tuple, list)) or len(item) != 2 or not isinstance(item[1], int)
                or isinstance(item[1], bool)):
            return f"expected (label, points) pairs, got {_short(item)}"
        if not -MAX_POINTS <= item[1] <= MAX_POINTS:
            return f"a bonus of more than {MAX_POINTS} points either way"
    return None


def _check_seat(result, players, rng):
    if result.__class__ is not int or not 0 <= result < players:
        return f"expected a seat from 0 to {players - 1}"
    return None


def _short(value, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 4] + "...>"


def _check_winners(result, scores, walls):
    if isinstance(result, (str, bytes)) or not hasattr(result, "__iter__"):
        return "expected a list of seats"
    seats = list(result)
    if not seats or any(s.__class__ is not int or not 0 <= s < len(scores) for s in seats):
        return f"expected seats from 0 to {len(scores) - 1}"
    if len(set(seats)) != len(seats):
        return "a seat is named twice"
    return None


#: For some checks, a quick expression over the result ``r`` that is true of
#: everything the check refuses: the full check runs only then.
SUSPECT = {
    "azul_draft_allowed": "r.__class__ is not bool",
    "azul_wall_spaces": "r.__class__ is not tuple or len(r) != 1 or r[0].__class__ is not int "
                        "or not 0 <= r[0] < len(wall) or wall[row][r[0]] is not None",
    "azul_line_accepts": "r.__class__ is not bool or r and colour != line_colour and line_colour is not None",
    "azul_placement_score": "r.__class__ is not int or r < 0 or r > 1000000",
    "azul_floor_penalty": "r.__class__ is not int or r > 0 or r < -1000000",
    "azul_game_over": "r.__class__ is not bool",
}

CHECKS: dict[str, Callable[..., str | None]] = {
    "azul_first_player": _check_seat,
    "azul_draft_allowed": _check_bool,
    "azul_draft_takes": _check_takes,
    "azul_stands_in": _check_bool,
    "azul_wall_spaces": _check_wall_spaces,
    "azul_placement_score": _check_points,
    "azul_floor_penalty": _check_penalty,
    "azul_game_over": _check_bool,
    "azul_winners": _check_winners,
    "azul_end_bonuses": _check_bonuses,
}

def _table_problem(table: Any, colours: Sequence[Colour]) -> str | None:
    # ``table`` and its extra tiles are a plugin's, checked here: Any, so that compiled by
    # mypyc (setup.py) this reads their fields without enforcing their annotations first
    for name in ("factories", "tiles_per_factory", "tiles_per_colour"):
        value = getattr(table, name, None)
        if value.__class__ is not int:
            return f"{name} must be a whole number, not {_short(value)}"
        if not 0 <= value <= MAX_TABLE_TILES:
            return f"{name} {value} is out of range (0 to {MAX_TABLE_TILES})"
    if not 1 <= table.factories <= MAX_FACTORIES:
        return f"{table.factories} factories; there can be 1 to {MAX_FACTORIES} (a record names a factory by one digit)"
    counts = table.colour_counts
    if counts is not None and (counts.__class__ is not tuple or len(counts) != len(colours) or any(
            c.__class__ is not int or not 0 <= c <= MAX_TABLE_TILES for c in counts)):
        return (f"colour_counts must be a tuple of {len(colours)} whole numbers (one per colour) "
                f"from 0 to {MAX_TABLE_TILES}")
    extras = table.extra_tiles
    if extras.__class__ is not tuple or len(extras) > MAX_EXTRA_KINDS:
        return f"extra_tiles must be a tuple of at most {MAX_EXTRA_KINDS} ExtraTile"
    colour_letters = "".join(colour.letter for colour in colours)
    letters, names = set(colour_letters + "M"), {colour.name for colour in colours}
    for item in extras:
        if not isinstance(item, ExtraTile):
            return f"extra_tiles holds {_short(item)}, not an ExtraTile"
        extra: Any = item
        if extra.letter.__class__ is not str or not re.fullmatch("[A-Z]", extra.letter) or extra.letter in letters:
            return (f"extra tile letter {extra.letter!r} must be one upper-case letter that is not "
                    f"a colour's ({', '.join(colour_letters)}), M or another extra tile's")
        letters.add(extra.letter)
        if extra.name.__class__ is not str or not re.fullmatch("[a-z][a-z -]{0,19}", extra.name):
            return f"extra tile name {extra.name!r} must be a lower-case word (at most 20 letters)"
        if extra.name in names or extra.name == "marker":
            return f"extra tile name {extra.name!r} is a colour's, the marker's or another tile's"
        names.add(extra.name)
        if extra.count.__class__ is not int or not 0 <= extra.count <= MAX_TABLE_TILES:
            return f"extra tile count {extra.count!r} is out of range (0 to {MAX_TABLE_TILES})"
        if extra.look.__class__ is not str or not re.fullmatch("#[0-9a-fA-F]{6}", extra.look):
            return f"extra tile look {extra.look!r} must be a colour written #rrggbb"
    return None


def _colours_problem(colours: Any) -> str | None:
    if colours.__class__ is not tuple or not MIN_COLOURS <= len(colours) <= MAX_COLOURS:
        return f"expected {MIN_COLOURS} to {MAX_COLOURS} colours (a tuple of Colour), not {_short(colours)}"
    letters: set[str] = set()
    names: set[str] = set()
    for item in colours:
        if not isinstance(item, Colour):
            return f"{_short(item)} is not a Colour"
        colour: Any = item  # a plugin's, checked here (see _table_problem)
        if colour.letter.__class__ is not str or not re.fullmatch("[A-Z]", colour.letter) \
                or colour.letter == "M" or colour.letter in letters:
            return (f"colour letter {colour.letter!r} must be one upper-case letter, not M (the "
                    "start marker's) nor another colour's")
        if colour.name.__class__ is not str or not re.fullmatch("[a-z][a-z -]{0,19}", colour.name) \
                or colour.name in names or colour.name == "marker":
            return f"colour name {colour.name!r} must be a lower-case word (at most 20 letters), not another colour's"
        if colour.look.__class__ is not str or not re.fullmatch("#[0-9a-fA-F]{6}", colour.look):
            return f"colour look {colour.look!r} must be a colour written #rrggbb"
        letters.add(colour.letter)
        names.add(colour.name)
    return None


#: The most kinds of tile a variant may add to the colours.
MAX_EXTRA_KINDS = 3


#: The answer each setup hook must give: a type, or the words it may be.
SETUP_ANSWERS: dict[str, type | tuple[str, ...]] = {
    "azul_floor_spaces": int,
    "azul_tiling_time": ("round", "turn"),
    "azul_tiled_line_reopens": ("at_once", "next_round"),
    "azul_misplaced_draft": ("refuse", "floor"),
    "azul_wall_choice": bool,
}

#: Situation hooks a variant may leave unanswered: the core's answer is then
#: "seat 0 starts" and "every draft the other rules allow is legal", at no cost.
UNANSWERED_HOOKS = frozenset({"azul_first_player", "azul_draft_allowed", "azul_draft_takes",
                              "azul_stands_in"})

DISCARD_REASONS = ("floor", "overflow", "line", "leftover")
DISCARD_PILES = ("lid", "bag", "out")
MAX_LINE_CAPACITY: Final = 20


class Rules:
    """Everything the engine needs to play one variant, resolved once.

    Attributes read by the engine on its hot path are plain values and
    functions; ``deciders`` says which plugin decides each rule.
    """

    def __init__(self, pm: pluggy.PluginManager, settings: Settings, *,
                 name: str = "", decide: dict[str, str] | None = None,
                 players: Sequence[int] = (2, 3, 4)):
        self.pm = pm
        self.settings = settings
        self.name = name
        self.players = tuple(players)
        self.deciders: dict[str, str] = {}
        #: what applications work out once per variant (``kept``), by name
        self._kept: dict[str, tuple] = {}
        only = self._exclusive_owners(decide or {})

        def setup_answer(hook: str) -> Any:
            answer, plugin = ask_first(pm, hook, only.get(hook), settings=settings)
            expected = SETUP_ANSWERS[hook]
            ok = (isinstance(answer, expected) and not (expected is int and isinstance(answer, bool))
                  if isinstance(expected, type) else answer in expected)
            if answer is None:
                if only.get(hook):
                    raise VariantRulesError(f"plugin '{only[hook]}' decides the rule of {hook} "
                                            f"but does not answer it")
                raise VariantRulesError(f"no plugin answers {hook}: is the 'standard' plugin listed?")
            if ok and expected is int and answer > MAX_TABLE_TILES:  # below 0: refused below
                raise PluginError(f"plugin '{plugin}' returned {answer} from {hook}: out of range "
                                  f"(at most {MAX_TABLE_TILES})", plugin=plugin, hook=hook)
            if not ok:
                raise PluginError(f"plugin '{plugin}' returned {answer!r} from {hook}: expected "
                                  f"{expected.__name__ if isinstance(expected, type) else ' or '.join(expected)}",
                                  plugin=plugin, hook=hook)
            self.deciders[hook] = plugin
            return answer

        self.floor_spaces: int = setup_answer("azul_floor_spaces")
        self.tile_at_turn_end: bool = setup_answer("azul_tiling_time") == "turn"
        #: a line tiled during a round stays closed until the next round
        self.tiled_line_waits: bool = setup_answer("azul_tiled_line_reopens") == "next_round"
        self.marker: MarkerRule = self._marker_rule(only.get("azul_marker_rule"))
        self.misplaced_to_floor: bool = setup_answer("azul_misplaced_draft") == "floor"
        self.player_chooses_column: bool = setup_answer("azul_wall_choice")
        if self.floor_spaces < 0:
            raise PluginError(f"plugin '{self.deciders['azul_floor_spaces']}' gave a negative floor size")
        #: the tiles' colours (``azul_colours``): n of them make an n x n wall and n pattern lines
        self.colours: tuple[Colour, ...] = self._colours()
        #: the board's size: colours, pattern lines, wall rows and columns (5 in the standard game)
        self.size = len(self.colours)
        #: the floor's place in a draft tuple ``(source, colour, line)``: the line after the last
        self.floor_line = self.size
        self.colour_names: tuple[str, ...] = tuple(colour.name for colour in self.colours)
        self.colour_letters = "".join(colour.letter for colour in self.colours)
        #: the bitmask tables of the board's size (engine/board_tables.py), plain attributes for
        #: the engine's hot path; the colours as a tuple to iterate
        tables = board_tables(self.size)
        self.draft_lines, self.draft_count = tables.draft_lines, tables.draft_count
        self.scatter, self.other_lines, self.line_bits = tables.scatter, tables.other_lines, tables.full
        self.colour_range = tuple(range(self.size))
        self.board = tables
        #: per pattern line, how many tiles it holds when full
        self.capacity: tuple[int, ...] = self._line_capacities()
        #: where discarded tiles go, per reason: "lid", "bag" or "out"
        self.discard: dict[str, str] = self._discard_piles()
        self.floor_pile = self.discard["floor"]
        self.overflow_pile = self.discard["overflow"]
        self.line_pile = self.discard["line"]
        self.leftover_pile = self.discard["leftover"]

        compiled: dict[str, Any] = {}  # hook -> its compiled function (None: unanswered)
        #: per situation hook, the plugins whose answer depends on the game (they ask for
        #: ``seat`` or ``game``): a probe outside a game can't judge them
        self.context_readers: dict[str, list[str]] = {}
        for hook in hookspecs.SITUATION_HOOKS:
            impls = implementations(pm, hook, only.get(hook))
            readers = [impl.plugin_name for impl in impls
                       if {"seat", "game", "memory", "secret"} & set(impl.argnames)]
            if readers:
                self.context_readers[hook] = readers
            if not impls and only.get(hook):
                raise VariantRulesError(f"plugin '{only[hook]}' decides the rule of {hook} "
                                        f"but does not implement it")
            if not impls and hook in UNANSWERED_HOOKS:
                compiled[hook] = None
                continue
            if not impls and hook not in hookspecs.COLLECTING_HOOKS:
                raise VariantRulesError(f"no plugin implements {hook}: is the 'standard' plugin listed?")
            if hook in hookspecs.COLLECTING_HOOKS:
                self.deciders[hook] = " + ".join(impl.plugin_name for impl in impls[::-1])
            else:
                self.deciders[hook] = " > ".join(
                    impl.plugin_name + (" (modifies)" if hookspecs.ANSWER in impl.argnames else "")
                    for impl in impls)
            check = _line_accepts_check(self.colour_names) if hook == "azul_line_accepts" else CHECKS[hook]
            compiled[hook] = compile_hook(pm, hook, settings, check, only.get(hook), SUSPECT.get(hook))
        self.wall_spaces: Callable[..., Any] = compiled["azul_wall_spaces"]
        self.placement_score: Callable[..., Any] = compiled["azul_placement_score"]
        self.floor_penalty: Callable[..., Any] = compiled["azul_floor_penalty"]
        self.game_over: Callable[..., Any] = compiled["azul_game_over"]
        # Working out the optional arguments costs time each round: only when a plugin reads them.
        self.game_over_reads_supply = any(
            {"lines", "supply"} & set(impl.argnames)
            for impl in implementations(pm, "azul_game_over", only.get("azul_game_over")))
        self.winners: Callable[..., Any] = compiled["azul_winners"]
        #: who starts round 1 (``None``: seat 0); see ``opening_seat``
        self.first_player: Callable[..., Any] | None = compiled["azul_first_player"]
        #: whether a draft is legal, or ``None`` when no plugin restricts drafts (the fast path)
        self.draft_allowed: Callable[..., Any] | None = compiled["azul_draft_allowed"]
        #: which tiles a draft takes, or ``None`` (every tile of its colour: the fast path)
        self.draft_takes: Callable[..., Any] | None = compiled["azul_draft_takes"]
        #: whether an extra tile taken with a draft may lie on its line (``None``: never)
        self.stands_in: Callable[..., Any] | None = compiled["azul_stands_in"]
        self._line_accepts: Callable[..., Any] = compiled["azul_line_accepts"]
        #: every plugin's end-of-game bonuses for one wall, as (label, points) pairs
        self.end_bonuses: Callable[..., Any] = compiled["azul_end_bonuses"]
        #: (row, line colour or -1, line count, wall row mask) -> accepted colours (bitmask)
        self.accept_cache: dict[tuple, int] = {}
        self._tables: dict[int, TableSetup] = {}
        #: the plugins' own moves, memory and secrets (``engine.moves``)
        self.plugin_hooks = PluginHooks(pm, settings)
        #: whether any plugin offers moves, keeps memory or deals secrets (the engine asks
        #: only then: a variant without them pays nothing)
        self.offers_moves: bool = self.plugin_hooks.offers_moves
        self.remembers: bool = self.plugin_hooks.remembers
        self.deals_secrets: bool = self.plugin_hooks.deals_secrets
        #: the phases of choices the plugins add, by stage (``rules.Phase``)
        self.phases = self.plugin_hooks.phases
        #: a draft asks plugins something beyond the compiled rules (memory, follow-up moves)
        self.draft_asks_plugins: bool = (self.offers_moves or bool(self.plugin_hooks.by_hook["azul_after_draft"])
                                         or self.draft_takes is not None)
        #: a random draft is drawn from the list of legal decisions (a plugin restricts drafts
        #: or offers moves) rather than counted
        self.drafts_listed: bool = self.draft_allowed is not None or self.offers_moves
        for hook in hookspecs.PER_PLUGIN_HOOKS:
            impls = self.plugin_hooks.by_hook[hook]
            if impls:
                self.deciders[hook] = " + ".join(impl.plugin_name for impl in impls[::-1])

    def kept(self, name: str, make: Callable[[], Any]) -> Any:
        """What an application works out once per variant (a bot's tables, a printed wall, a
        start position), made by ``make`` the first time and kept on these rules, so it goes
        when they go: a process that loads variants afresh (a table server, a bench) keeps no
        old variant's tables alive. A ``copy.copy`` of the rules (changed hooks) makes its own."""
        entry = self._kept.get(name)
        if entry is None or entry[0] is not self:
            if entry is not None:  # a copy shares its original's dict: it gets one of its own
                self._kept = {}
            entry = self._kept[name] = (self, make())
        return entry[1]

    def _colours(self) -> tuple[Colour, ...]:
        answer, plugin = ask_first(self.pm, "azul_colours", settings=self.settings)
        if answer is None:
            raise VariantRulesError("no plugin answers azul_colours: is the 'standard' plugin listed?")
        if isinstance(answer, list):
            answer = tuple(answer)
        wrong = _colours_problem(answer)
        if wrong:
            where = hook_location(self.pm, "azul_colours", plugin)
            raise PluginError(f"plugin '{plugin}' returned {_short(answer)} from azul_colours"
                              f"{f' ({where})' if where else ''}: {wrong}", plugin=plugin,
                              hook="azul_colours", location=where)
        self.deciders["azul_colours"] = plugin
        return answer

    def _line_capacities(self) -> tuple[int, ...]:
        capacities, deciders = [], []
        for row in range(self.size):
            answer, plugin = ask_first(self.pm, "azul_line_capacity", row=row, settings=self.settings)
            if answer is None:
                raise VariantRulesError("no plugin answers azul_line_capacity for pattern line "
                                        f"{row + 1}: is the 'standard' plugin listed?")
            if answer.__class__ is not int or not 1 <= answer <= MAX_LINE_CAPACITY:
                raise PluginError(f"plugin '{plugin}' returned {answer!r} from azul_line_capacity "
                                  f"for pattern line {row + 1}: expected a whole number from 1 to "
                                  f"{MAX_LINE_CAPACITY}", plugin=plugin, hook="azul_line_capacity")
            capacities.append(answer)
            if plugin not in deciders:
                deciders.append(plugin)
        self.deciders["azul_line_capacity"] = " > ".join(deciders)
        return tuple(capacities)

    def _discard_piles(self) -> dict[str, str]:
        piles, deciders = {}, []
        for reason in DISCARD_REASONS:
            answer, plugin = ask_first(self.pm, "azul_discard_pile", reason=reason, settings=self.settings)
            if answer is None:
                raise VariantRulesError(f"no plugin answers azul_discard_pile for the {reason}: "
                                        "is the 'standard' plugin listed?")
            if answer not in DISCARD_PILES:
                raise PluginError(f"plugin '{plugin}' returned {answer!r} from azul_discard_pile for "
                                  f"the {reason}: expected {', '.join(DISCARD_PILES)}",
                                  plugin=plugin, hook="azul_discard_pile")
            piles[reason] = answer
            deciders.append(f"{reason}: {plugin}")
        self.deciders["azul_discard_pile"] = ", ".join(deciders)
        return piles

    def opening_seat(self, players: int, seed: Any) -> int:
        """The seat that starts round 1 of a game seeded with ``seed`` (``azul_first_player``)."""
        if self.first_player is None:
            return 0
        rng = random.Random(f"first player:{seed}")
        seat = self.first_player(players, rng)
        return 0 if seat is None else seat

    def _marker_rule(self, only: str | None) -> MarkerRule:
        """Every plugin's ``MarkerRule`` in call order, each part from the first that gives it."""
        hook = "azul_marker_rule"
        parts: dict[str, str] = {}
        deciders = []
        for impl in implementations(self.pm, hook, only):
            answer, plugin = ask_first(self.pm, hook, impl.plugin_name, settings=self.settings)
            if answer is None:
                continue
            if not isinstance(answer, MarkerRule):
                raise PluginError(f"plugin '{plugin}' returned {answer!r} from {hook}: expected "
                                  "a MarkerRule", plugin=plugin, hook=hook)
            for part, choices in MarkerRule.CHOICES.items():
                value = getattr(answer, part)
                if value is None or part in parts:
                    continue
                if value not in choices:
                    raise PluginError(f"plugin '{plugin}' returned {answer!r} from {hook}: "
                                      f"{part} must be {' or '.join(choices)}", plugin=plugin, hook=hook)
                parts[part] = value
                deciders.append(f"{part}: {plugin}")
        missing = [part for part in MarkerRule.CHOICES if part not in parts]
        if missing:
            raise VariantRulesError(f"no plugin answers {hook} for {', '.join(missing)}: "
                                    "is the 'standard' plugin listed?")
        self.deciders[hook] = ", ".join(deciders)
        return MarkerRule(**parts)

    def _exclusive_owners(self, decide: dict[str, str]) -> dict[str, str]:
        """For each exclusive hook, the one plugin allowed to answer it."""
        only: dict[str, str] = {}
        for rule, hooks in hookspecs.EXCLUSIVE_RULES.items():
            owners = []
            for hook in hooks:
                for impl in implementations(self.pm, hook)[::-1]:
                    if impl.plugin_name not in owners:
                        owners.append(impl.plugin_name)
            chosen = decide.get(rule)
            if chosen is not None:
                if chosen not in owners:
                    raise VariantRulesError(
                        f"decide: {rule}: '{chosen}' does not implement the {rule} "
                        f"(plugins that do: {', '.join(owners) or 'none'})")
            elif len(owners) > 1:
                raise VariantRulesError(
                    f"plugins {' and '.join(repr(o) for o in owners)} both decide the {rule}; "
                    f"say which wins with 'decide: {{{rule}: {owners[-1]}}}' or list only one")
            if chosen or owners:
                for hook in hooks:
                    only[hook] = chosen or owners[0]
        return only

    def table(self, players: int) -> TableSetup:
        """The table for ``players`` players (factories and tile counts)."""
        table = self._tables.get(players)
        if table is None:
            answer, plugin = ask_first(self.pm, "azul_game_setup", settings=self.settings, players=players)
            if answer is None:
                raise VariantRulesError(f"no plugin sets up a table for {players} players")
            if isinstance(answer, str):
                raise VariantRulesError(answer)
            if not isinstance(answer, TableSetup):
                raise PluginError(f"plugin '{plugin}' returned {_short(answer)} from azul_game_setup: "
                                  "expected a TableSetup", plugin=plugin, hook="azul_game_setup")
            wrong = _table_problem(answer, self.colours)
            if wrong:
                where = hook_location(self.pm, "azul_game_setup", plugin)
                raise PluginError(f"plugin '{plugin}' returned {_short(answer)} from azul_game_setup"
                                  f"{f' ({where})' if where else ''}: {wrong}", plugin=plugin,
                                  hook="azul_game_setup", location=where)
            table = self._tables[players] = dataclasses.replace(answer, colours=self.colours)
        return table

    def accept_mask(self, row: int, line_colour: int, line_count: int, wall_row_mask: int) -> int:
        """The colours (as a bitmask) that pattern line ``row`` accepts, remembered."""
        key = (row, line_colour, line_count, wall_row_mask)
        mask = self.accept_cache.get(key)
        if mask is None:
            wall_row = frozenset(colour for colour in range(self.size) if wall_row_mask >> colour & 1)
            held = None if line_colour < 0 else line_colour
            mask = 0
            for colour in range(self.size):
                answer = self._line_accepts(row, held, line_count, self.capacity[row], wall_row, colour)
                if answer:
                    mask |= 1 << colour
            self.accept_cache[key] = mask
        return mask

    def bots(self) -> dict[str, Any]:
        """Every bot the plugins offer, by name (a later plugin's name wins)."""
        found: dict[str, Any] = {}
        for answer, _plugin in ask_all(self.pm, "azul_register_bots"):
            found.update(answer)
        return found
