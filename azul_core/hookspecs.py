"""The hooks a rule plugin may implement.

Every rule that a variant may change is one of these hooks. A plugin is a
module (or object) with functions named like the hooks below and marked with
``azul_core.hookimpl``; it may take any subset of a hook's arguments, by name.

Two kinds of hook:

* **Setup hooks** are called once, when a variant is loaded, and return a
  value or table the engine then uses for the whole game.
* **Situation hooks** are called while a game runs. The engine does not call
  them through pluggy: loading a variant compiles each into a plain function
  that tries the implementations in call order (the plugin listed last in the
  variant file first) and keeps the first result that is not ``None``.
  ``azul_line_accepts`` must be a pure function of its arguments: the engine
  remembers its answers.

Colours are ints 0-4 (blue, yellow, red, black, white; see
``azul_core.colours``). Rows, columns and pattern lines are counted from 0 in
code (the record and the screen count from 1). A wall is a sequence of 5
rows, each a list of 5 cells holding a colour or ``None``; hooks must not
change it. ``settings`` is the variant's read-only ``Settings``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import pluggy

if TYPE_CHECKING:  # for the annotations only
    from azul_core.rules import MarkerRule, TableSetup
    from azul_core.settings import Setting, Settings

hookspec = pluggy.HookspecMarker("azul")
#: The marker of a hook implementation; plugins import it as ``azul_core.hookimpl``.
hookimpl = pluggy.HookimplMarker("azul")

Wall = Sequence[Sequence["int | None"]]
#: Per seat, its pattern lines as ``(colour or None, count)``.
Lines = Sequence[Sequence["tuple[int | None, int]"]]


# --------------------------------------------------------------------------
# Setup hooks: called once per loaded variant
# --------------------------------------------------------------------------


@hookspec
def azul_declare_settings() -> Sequence[Setting]:
    """Declare the settings this plugin reads.

    Return a list of ``azul_core.settings.Setting``. Every plugin's
    declarations are collected (not first-result). A variant file may set
    only declared settings; a setting has exactly one owner.
    """


@hookspec(firstresult=True)
def azul_game_setup(settings: Settings, players: int) -> TableSetup | str:
    """Decide the table for ``players`` players.

    Return an ``azul_core.rules.TableSetup`` (factories, tiles per factory,
    tiles per colour), or a string saying why that player count can't be
    played. ``None``: no opinion, ask the next plugin. First result wins.
    """


@hookspec(firstresult=True)
def azul_floor_spaces(settings: Settings) -> int:
    """Decide how many spaces a floor line has; tiles past them go to the lid.

    ``None``: no opinion. First result wins.
    """


@hookspec(firstresult=True)
def azul_tiling_time(settings: Settings) -> str:
    """Decide when a full pattern line is tiled onto the wall.

    Return ``"round"`` (after the round's last draft, every player's lines 1
    to 5 in order) or ``"turn"`` (right after the draft that filled it).
    ``None``: no opinion. First result wins.
    """


@hookspec(firstresult=True)
def azul_tiled_line_reopens(settings: Settings) -> str:
    """Decide when a pattern line tiled during a round takes tiles again.

    Return ``"at_once"`` (the emptied line takes tiles in the same turn's
    next draft) or ``"next_round"`` (it stays closed until the next round:
    it is not offered, and a draft naming it is a misplaced draft, see
    ``azul_misplaced_draft``). Matters only where lines are tiled at the
    end of a turn (``azul_tiling_time``); a line tiled at the end of a round
    is open for the next round either way, and a line whose tiles fell to
    the floor (no legal wall space) was not tiled and stays open. ``None``: no opinion. First
    result wins. The duel plugin answers ``"next_round"`` (its setting
    ``tiled_line_reopens`` turns it to ``"at_once"``), the standard plugin
    ``"at_once"``.
    """


@hookspec(firstresult=True)
def azul_marker_rule(settings: Settings) -> MarkerRule:
    """Decide what taking the start marker from the centre does.

    Return an ``azul_core.rules.MarkerRule``: its ``placement`` is
    ``"floor"`` (it takes the leftmost free floor space, before the tiles
    taken, and counts there like a tile) or ``"aside"`` (it stays in front of
    its holder: no floor space, no cost); ``full_floor`` and ``unclaimed`` say
    what happens on a full floor and when nobody took it. Either way its
    holder starts the next round. ``None``, or a part left ``None``: no
    opinion, the next plugin's answer decides it. First result wins, part
    by part (a plugin can change where the marker lies and leave the rest).
    """


@hookspec(firstresult=True)
def azul_misplaced_draft(settings: Settings) -> str:
    """Decide what happens to a draft onto a pattern line that can't take it.

    Return ``"refuse"`` (the draft is not legal) or ``"floor"`` (it is a
    player's mistake: every tile taken goes to the floor). Bots are never
    offered such drafts either way. ``None``: no opinion. First result wins.
    """


@hookspec(firstresult=True)
def azul_wall_choice(settings: Settings) -> bool:
    """Decide whether the player chooses the wall column of each tiled line.

    ``True``: every tile that goes to the wall is a decision (written to a
    record as ``w<row>:<column>``), even where one column is legal.
    ``False``: the tile goes to the first space ``azul_wall_spaces`` gives.
    ``None``: no opinion. First result wins. One wall per variant: two
    plugins implementing the wall hooks is an error unless the variant file
    says which decides.
    """


@hookspec
def azul_register_bots() -> Mapping[str, Callable[..., Any]]:
    """Offer bots: return a mapping of bot name to a factory.

    A factory is called as ``factory(seed=int, think=float | None)`` and
    returns an object with ``choose(state) -> decision``; when the user gives
    a playout budget (``--playouts``) it is called with ``playouts=int`` too
    (a bot that does not search may ignore it). All plugins'
    mappings are collected; a later plugin's name replaces an earlier one.
    """


# --------------------------------------------------------------------------
# Situation hooks: compiled into plain functions, first result wins
# --------------------------------------------------------------------------


@hookspec(firstresult=True)
def azul_wall_spaces(wall: Wall, row: int, colour: int, settings: Settings) -> Sequence[int]:
    """Decide which columns of wall ``row`` the tile of a full line may go to.

    ``row`` is the pattern line being tiled, ``colour`` its colour. Return
    the legal columns: one, several (the player chooses, see
    ``azul_wall_choice``), or none (the whole line falls to the floor, the
    overflow to the lid). Every column must be an empty space of that row.
    ``None``: no opinion. First result wins.
    """


@hookspec(firstresult=True)
def azul_line_accepts(
    row: int, line_colour: "int | None", line_count: int, capacity: int,
    wall_row: frozenset, colour: int, settings: Settings,
) -> bool:
    """Decide whether pattern line ``row`` may receive tiles of ``colour``.

    ``line_colour`` is the colour the line holds (``None`` when empty),
    ``line_count`` how many tiles, ``capacity`` how many it holds when full,
    ``wall_row`` the colours already on that wall row. Tiles beyond the
    line's free spaces fall to the floor; that is not this hook's concern.
    Must be a pure function of its arguments (the engine caches answers).
    ``None``: no opinion. First result wins.
    """


@hookspec(firstresult=True)
def azul_placement_score(wall: Wall, row: int, column: int, settings: Settings) -> int:
    """Decide the points for the tile just placed at (``row``, ``column``).

    ``wall`` already holds the new tile. Return a whole number of points,
    zero or more. ``None``: no opinion. First result wins.
    """


@hookspec(firstresult=True)
def azul_floor_penalty(floor: Sequence[int], settings: Settings) -> int:
    """Decide the round's floor penalty for one player.

    ``floor`` lists what lies on the floor, left to right: colours, and
    ``azul_core.colours.MARKER`` for the start marker. Return the change to
    the score, zero or less. Scores are clamped at 0 afterwards by the core.
    ``None``: no opinion. First result wins.
    """


@hookspec(firstresult=True)
def azul_game_over(walls: Sequence[Wall], round_number: int, lines: Lines | None,
                   supply: Sequence[int] | None, settings: Settings) -> bool:
    """Decide, after a round's tiling and penalties, whether the game ends.

    ``walls`` are the players' walls in seat order, ``round_number`` counts
    from 1. ``lines``: a read-only sequence, per seat, of its pattern lines as
    ``(colour or None, count)`` pairs; ``supply``: per colour, the tiles on no wall and no
    pattern line (bag and lid, at a round's end), so a plugin can tell that a
    row can never be completed. Either may be ``None`` when the caller does
    not know. ``None``: no opinion (the game goes on unless another plugin
    ends it). First result wins.
    """


@hookspec
def azul_end_bonuses(wall: Wall, settings: Settings) -> Sequence[tuple]:
    """Award end-of-game bonuses for one player's wall.

    Return a list of ``(label, points)`` pairs, for example
    ``[("rows", 4), ("columns", 7)]``. Every plugin's pairs are added up
    (not first-result). ``None`` or ``[]``: no bonus from this plugin.
    """


@hookspec(firstresult=True)
def azul_winners(scores: Sequence[int], walls: Sequence[Wall], settings: Settings) -> Sequence[int]:
    """Decide who won, after the end bonuses.

    Return the winning seats, several on a shared victory. ``None``: no
    opinion. First result wins.
    """


#: Hooks that only one plugin may implement in a variant (unless the
#: variant file's ``decide`` names the winner), grouped by the rule they make.
EXCLUSIVE_RULES = {"wall": ("azul_wall_spaces", "azul_wall_choice")}

#: Hooks called during a game, compiled to plain functions; with the
#: arguments the engine passes (``settings`` is bound at load time).
SITUATION_HOOKS = {
    "azul_wall_spaces": ("wall", "row", "colour"),
    "azul_line_accepts": ("row", "line_colour", "line_count", "capacity", "wall_row", "colour"),
    "azul_placement_score": ("wall", "row", "column"),
    "azul_floor_penalty": ("floor",),
    "azul_game_over": ("walls", "round_number", "lines", "supply"),
    "azul_winners": ("scores", "walls"),
    "azul_end_bonuses": ("wall",),
}

#: Trailing arguments of situation hooks that a caller may leave out (they are then ``None``).
OPTIONAL_ARGUMENTS = {"azul_game_over": ("lines", "supply")}

#: Situation hooks whose answers are all collected (in the variant's plugin order)
#: rather than the first one kept.
COLLECTING_HOOKS = frozenset({"azul_end_bonuses"})
