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

Colours are ints 0 to n-1 for a variant's n colours (``azul_colours``; in
the standard game 0-4: blue, yellow, red, black, white). Rows, columns and
pattern lines are counted from 0 in code (the record and the screen count
from 1). A wall is read-only: a tuple of n rows (5 in the standard game),
each a tuple of n cells holding a colour or ``None`` (``walls`` is a
tuple of them); ``len(wall)`` is the board's size. A hook that tries to change one (``wall[0][0] = 1``,
``wall[0] = ...``) fails at once, and the engine reports it as that plugin's
error: "plugin 'x' tried to change the wall it was given (azul_placement_score)
at x.py:3: walls are read-only". To try a tile somewhere, build a new wall:
``wall[:r] + (wall[r][:c] + (colour,) + wall[r][c + 1:],) + wall[r + 1:]``.
``settings`` is the variant's read-only ``Settings``.

More arguments a hook may ask for, by name, where its signature lists
them (what no plugin asks for costs nothing; ``azul_first_player`` and
``azul_line_accepts`` take neither ``seat`` nor ``game``, ``azul_game_over``
and ``azul_winners`` take ``game`` and ``memory`` but no ``seat``):

* ``seat``: the seat the hook decides for (the player scoring, paying, drafting).
* ``game``: a read-only view of the game being played (``azul_core.engine.view.GameView``),
  which can't change the game (setting anything on it is refused, naming the plugin):
  ``game.scores``, ``game.round_number``, ``game.players``, ``game.current``,
  ``game.first_player``, ``game.marker_holder``, ``game.factories``,
  ``game.centre``, ``game.bag``, ``game.lid``, ``game.walls``,
  ``game.lines``, ``game.floors``, ``game.line_capacity``. ``seat`` and
  ``game`` are ``None`` when the rules are asked outside a game (``azul
  rules`` probing a position, where a plugin that reads them is reported as
  "could not tell"; a bot estimating what a draft is worth).
* ``memory``: this plugin's own memory in the game (``None`` until it gives
  one; see "Moves, memory and secrets" below), and ``game.memory`` every
  plugin's, by plugin name.
* ``secret``: the seat's own secret of this plugin (``azul_deal_secrets``),
  ``None`` when it dealt none or when the asker may not see it (a bot of
  another seat).
* ``answer``: the answer the rest of the variant gives: the plugins listed
  *before* this one in the variant file, asked as usual. A plugin taking
  ``answer`` builds on it instead of replacing it (``return answer + 1``);
  returning ``None`` keeps it unchanged. Two such plugins stack in file
  order: the one listed last modifies the answer of the one before it. For
  ``azul_end_bonuses``, ``answer`` is the list of pairs the plugins listed
  before this one gave, and the plugin returns the whole new list.
  ``azul_marker_rule`` takes no ``answer``: it combines part by part. A
  plugin that works an answer out again instead of taking ``answer``
  replaces the rules listed before it without a word.

The file order is the only order: ``@hookimpl(tryfirst=True)``,
``trylast`` and pluggy wrappers are refused when a plugin is registered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import pluggy

if TYPE_CHECKING:  # for the annotations only
    import random

    from azul_core.rules import Colour, MarkerRule, Move, Outcome, Phase, Place, TableSetup
    from azul_core.settings import Setting, Settings

hookspec = pluggy.HookspecMarker("azul")
#: The marker of a hook implementation; plugins import it as ``azul_core.hookimpl``.
hookimpl = pluggy.HookimplMarker("azul")

Wall = Sequence[Sequence["int | None"]]
#: Per seat, its pattern lines as ``(colour or None, count)``.
Lines = Sequence[Sequence["tuple[int | None, int]"]]
#: The read-only view of a game hooks may ask for (``azul_core.engine.view.GameView``).
GameView = Any


# --------------------------------------------------------------------------
# Setup hooks: called once per loaded variant
# --------------------------------------------------------------------------


@hookspec
def azul_declare_settings() -> Sequence[Setting]:
    """Declare the settings this plugin reads.

    Return a list of ``azul_core.settings.Setting``. Every plugin's
    declarations are collected (not first-result). A variant file may set
    only declared settings; a setting has exactly one owner.

    Example::

        @hookimpl
        def azul_declare_settings():
            return [Setting("marker_fee", "int", 3, "what the marker costs", minimum=0)]
    """


@hookspec(firstresult=True)
def azul_game_setup(settings: Settings, players: int, answer: "TableSetup | str | None") -> TableSetup | str:
    """Decide the table for ``players`` players.

    Return an ``azul_core.rules.TableSetup`` (factories, tiles per factory,
    tiles per colour), or a string saying why that player count can't be
    played. ``None``: no opinion, ask the next plugin. First result wins.

    Example, "three players use six factories"::

        @hookimpl
        def azul_game_setup(players, answer):
            return TableSetup(6, 4, 20) if players == 3 else answer
    """


@hookspec(firstresult=True)
def azul_colours(settings: Settings, answer: "Sequence[Colour] | None") -> Sequence[Colour]:
    """Decide the tiles' colours, and with them the board's size.

    Return a sequence of 4 to 8 ``azul_core.rules.Colour`` (letter, name,
    look): colour ``i`` is the int ``i`` everywhere. A variant with n colours
    has an n x n wall, n pattern lines (each asked of ``azul_line_capacity``)
    and ``tiles_per_colour`` tiles of each (``TableSetup``). Asked once, when
    the variant is loaded. ``None``: no opinion. First result wins. The
    standard plugin answers its setting ``colours`` (5: blue, yellow, red,
    black, white; 6 adds orange, 7 green, 8 purple).

    Example, "a sixth colour, pink"::

        @hookimpl
        def azul_colours(answer):
            return (*answer, Colour("P", "pink", "#e87ab0"))
    """


@hookspec(firstresult=True)
def azul_floor_spaces(settings: Settings, answer: "int | None") -> int:
    """Decide how many spaces a floor line has.

    Tiles past them are discarded where ``azul_discard_pile`` says for
    ``"overflow"`` (the lid in the standard game).

    ``None``: no opinion. First result wins.

    Example, "one more floor space"::

        @hookimpl
        def azul_floor_spaces(answer):
            return answer + 1
    """


@hookspec(firstresult=True)
def azul_tiling_time(settings: Settings, answer: "str | None") -> str:
    """Decide when a full pattern line is tiled onto the wall.

    Return ``"round"`` (after the round's last draft, every player's lines 1
    to 5 in order) or ``"turn"`` (right after the draft that filled it).
    ``None``: no opinion. First result wins.

    Example::

        @hookimpl
        def azul_tiling_time():
            return "turn"
    """


@hookspec(firstresult=True)
def azul_tiled_line_reopens(settings: Settings, answer: "str | None") -> str:
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

    Example::

        @hookimpl
        def azul_tiled_line_reopens():
            return "next_round"
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

    Example, "the marker is kept aside"::

        @hookimpl
        def azul_marker_rule():
            return MarkerRule(placement="aside")
    """


@hookspec(firstresult=True)
def azul_misplaced_draft(settings: Settings, answer: "str | None") -> str:
    """Decide what happens to a draft onto a pattern line that can't take it.

    Return ``"refuse"`` (the draft is not legal) or ``"floor"`` (it is a
    player's mistake: every tile taken goes to the floor). Bots are never
    offered such drafts either way. ``None``: no opinion. First result wins.

    Example::

        @hookimpl
        def azul_misplaced_draft():
            return "floor"
    """


@hookspec(firstresult=True)
def azul_wall_choice(settings: Settings, answer: "bool | None") -> bool:
    """Decide whether the player chooses the wall column of each tiled line.

    ``True``: every tile that goes to the wall is a decision (written to a
    record as ``w<row>:<column>``), even where one column is legal.
    ``False``: the tile goes to the first space ``azul_wall_spaces`` gives.
    ``None``: no opinion. First result wins. One wall per variant: two
    plugins implementing the wall hooks is an error unless the variant file
    says which decides.

    Example::

        @hookimpl
        def azul_wall_choice():
            return True
    """


@hookspec(firstresult=True)
def azul_line_capacity(row: int, settings: Settings, answer: "int | None") -> int:
    """Decide how many tiles pattern line ``row`` holds when full.

    Asked once per line (``row`` 0 to n-1, n the number of colours) when
    the variant is loaded; the
    answer, 1 to 20, is the line's size everywhere: drafts, tiling (one tile
    goes to the wall, the rest is discarded, see ``azul_discard_pile``),
    ``capacity`` in ``azul_line_accepts``, the bots and ``game.line_capacity``.
    ``None``: no opinion. First result wins. The standard plugin answers
    ``row + 1``.

    Example, "pattern lines hold 2, 2, 3, 4, 5 tiles"::

        @hookimpl
        def azul_line_capacity(row):
            return 2 if row == 0 else None
    """


@hookspec(firstresult=True)
def azul_discard_pile(reason: str, settings: Settings, answer: "str | None") -> str:
    """Decide where discarded tiles go: ``"lid"``, ``"bag"`` or ``"out"`` (of the game).

    Asked once per ``reason`` when the variant is loaded:

    * ``"floor"``: the tiles on a floor, after the round's penalties;
    * ``"overflow"``: tiles that fall to a full floor (and a tile the start
      marker bumps off it);
    * ``"line"``: the tiles of a tiled pattern line but the one that went
      to the wall.

    Tiles in the bag are drawn again at the next deal; tiles in the lid are
    poured into the bag when it runs out; tiles out of the game never come
    back (``GameState.removed`` counts them). ``None``: no opinion. First
    result wins. The standard plugin answers ``"lid"`` for every reason.

    Example, "floor tiles go back into the bag"::

        @hookimpl
        def azul_discard_pile(reason):
            return "bag" if reason == "floor" else None
    """


@hookspec
def azul_register_bots() -> Mapping[str, Callable[..., Any]]:
    """Offer bots: return a mapping of bot name to a factory.

    A factory is called as ``factory(seed=int, think=float | None)`` and
    returns an object with ``choose(state) -> decision``; when the user gives
    a playout budget (``--playouts``) it is called with ``playouts=int`` too
    (a bot that does not search may ignore it). All plugins'
    mappings are collected; a later plugin's name replaces an earlier one.

    Example::

        @hookimpl
        def azul_register_bots():
            return {"first-choice": FirstChoiceBot}
    """


# --------------------------------------------------------------------------
# Per-plugin hooks: moves, memory and secrets, each plugin asked for its own
# --------------------------------------------------------------------------
#
# Not first-result: every plugin that implements one of them is asked
# about its own moves, its own memory and its own secrets. A plugin's
# ``memory`` is a value the game keeps for it (``None`` until it gives one):
# immutable and plain (``None``, ``True``/``False``, whole numbers, strings and
# tuples of these), changed only by the plugin's hooks returning a new value.
# It is cloned with the game, written in game records, shown in the game view
# (``game.memory``) and in the observations of the RL adapters. A plugin's
# ``secret`` is the value dealt to one seat by ``azul_deal_secrets``: each
# seat sees its own and none of the others' until the game is over.


@hookspec
def azul_declare_moves(settings: Settings) -> Sequence[Move]:
    """Declare every move this plugin may ever offer.

    Return a list of ``azul_core.rules.Move``: each name with each ``args``
    it may be offered with (a game record writes a move as ``+name`` or
    ``+name:2:4``; the RL adapters give each declared move an action). A
    plugin offers only moves it declared, and two plugins can't declare the
    same move. At most 64 moves in a variant. Every plugin is asked.

    Example, "a player may pass"::

        @hookimpl
        def azul_declare_moves():
            return [Move("pass", label="Pass this turn")]
    """


@hookspec
def azul_declare_phases(settings: Settings) -> Sequence[Phase]:
    """Declare the phases of choices this plugin adds to the round.

    Return ``azul_core.rules.Phase`` values: the stage (``"round_start"``,
    ``"after_turn"``, ``"round_end"``, ``"game_end"``), whether every seat
    chooses at once, in secret (``at_once=True``), and what the seats choose
    in players' words (``words``, told after the stage's name). At a declared stage the
    engine asks ``azul_offer_moves`` with that ``stage`` for each seat in
    turn; a stage no plugin declares is never asked (it costs nothing).
    ``None`` or ``[]``: none. Every plugin is asked; two plugins may declare
    the same stage only alike.

    Example, "at the round's end, after the wall tiling, each player may buy a tile"::

        @hookimpl
        def azul_declare_phases():
            return [Phase("round_end", words="Buy a tile from the lid, or nothing")]
    """


@hookspec
def azul_initial_memory(players: int, settings: Settings) -> Any:
    """Give this plugin's memory at the start of a game.

    Return an immutable plain value (``None``, bool, whole number, string,
    or a tuple of these, nested at most 8 deep, 1,000 items in all). ``None``:
    the memory starts as ``None``. Every plugin is asked about its own.

    Example, "nobody has passed yet"::

        @hookimpl
        def azul_initial_memory(players):
            return (False,) * players
    """


@hookspec
def azul_deal_secrets(players: int, rng: "random.Random", settings: Settings) -> Sequence[Any]:
    """Deal one secret to each seat at the start of a game.

    ``rng`` is the game's random generator at its start (so a seeded game
    deals the same secrets; a game record keeps them). Return one plain value
    per seat (like a memory). Each seat sees its own (the ``secret`` argument
    of the hooks that take one, its bot, its web page, its observation) and
    none of the others' until the game is over. ``None``: this plugin deals
    nothing. Every plugin is asked about its own.

    Example, "each player draws a secret goal colour"::

        @hookimpl
        def azul_deal_secrets(players, rng):
            return [rng.randrange(5) for _ in range(players)]
    """


@hookspec
def azul_offer_moves(stage: str, seat: int, game: GameView, memory: Any, secret: Any,
                     settings: Settings) -> Sequence[Move]:
    """Offer this plugin's moves to the seat about to decide.

    ``stage`` is ``"turn"`` at the start of a drafting turn (the moves are
    offered beside the drafts; a move declared with ``exclusive=True`` is offered
    instead of them), ``"after_draft"`` right after ``seat`` drafted,
    before its turn passes (the moves offered then are the only choices, so
    offer a way to decline, such as ``Move("keep")``; the turn passes when no
    plugin offers any), or the stage of a phase a plugin declared
    (``azul_declare_phases``: ``"round_start"``, ``"after_turn"``,
    ``"round_end"``, ``"game_end"``), where the moves offered are the seat's
    only choices too. ``memory`` is this plugin's memory, ``secret`` the
    seat's own secret of this plugin (``None`` if it dealt none). Return the
    moves, each one declared by ``azul_declare_moves``; ``None`` or ``[]``:
    none. Every plugin is asked. When no plugin implements this hook it costs
    nothing.

    Example, "once per round, a player may pass instead of drafting"::

        @hookimpl
        def azul_offer_moves(stage, seat, memory):
            if stage == "turn" and not memory[seat]:
                return [Move("pass", label="Pass this turn")]
    """


@hookspec(firstresult=True)
def azul_apply_move(move: Move, seat: int, game: GameView, memory: Any, secret: Any,
                    settings: Settings) -> Outcome:
    """Say what taking one of this plugin's moves does.

    Asked only of the plugin that offered ``move``, after the engine checked
    that it was on offer. Return an ``azul_core.rules.Outcome``: the
    plugin's new memory, points for the seat or any seat, tiles moved
    between any two places (``Transfer``: the bag, the lid, the box, a
    factory, the centre, any seat's pattern line, floor or wall space; all
    or none, each checked by the engine), whether the turn ends. ``None``:
    ``Outcome()`` (nothing changes, the turn passes).

    Example, "a pass is remembered until the round ends"::

        @hookimpl
        def azul_apply_move(move, seat, memory):
            return Outcome(memory=memory[:seat] + (True,) + memory[seat + 1:])

    Example, "buy a red tile from the lid for 3 points onto line 1"::

        @hookimpl
        def azul_apply_move(seat):
            return Outcome(points=-3, transfers=(Transfer(LID, line(seat, 0), 2),))
    """


@hookspec(firstresult=True)
def azul_tiles_drawn(drawn: Sequence[int], target: Place, seat: int, game: GameView, memory: Any,
                     secret: Any, settings: Settings) -> "Outcome | None":
    """Learn what a ``Draw`` of this plugin's outcome brought, and act on it.

    Asked only of the plugin whose ``Outcome`` had the draw, once per
    ``Draw``, after its tiles are laid on ``target``. ``drawn``: the tiles
    drawn, a count per kind of tile (``drawn[2] == 1``: one red); fewer than
    asked when bag and lid ran dry. ``seat``: the seat whose move drew.
    Return an ``Outcome`` (new memory, points, transfers; its ``draws`` are
    refused: a draw does not draw again, and its ``ends_turn`` is not used)
    or ``None``: nothing more happens.

    Example, "the colour drawn at the round's start scores double"::

        @hookimpl
        def azul_tiles_drawn(drawn):
            colour = next(kind for kind, count in enumerate(drawn) if count)
            return Outcome(memory=colour, transfers=(Transfer(BOX, BAG, colour),))
    """


@hookspec
def azul_after_draft(source: int, colour: int, count: int, line: int, seat: int,
                     game: GameView, memory: Any, settings: Settings) -> Any:
    """Update this plugin's memory after a draft.

    ``source``, ``colour``, ``count`` and ``line`` are the draft's (``line``
    5: the floor); ``game`` shows the table after it. Return the new memory;
    ``None``: unchanged. Every plugin is asked about its own memory.

    Example, "whoever takes from factory 1 gets a power"::

        @hookimpl
        def azul_after_draft(source, seat):
            return seat if source == 1 else None
    """


@hookspec
def azul_round_start(round_number: int, game: GameView, memory: Any, settings: Settings) -> Any:
    """Update this plugin's memory when a round starts (after the deal).

    Return the new memory; ``None``: unchanged. Every plugin is asked about
    its own memory.

    Example, "passes last one round"::

        @hookimpl
        def azul_round_start(game):
            return (False,) * game.players
    """


@hookspec
def azul_describe(kind: str, value: Any, seat: "int | None", you: bool, players: int,
                  settings: Settings) -> "str | None":
    """Say in words what this plugin's secret or memory means for one seat.

    The web page, ``azul play`` and ``azul play --join`` show these words
    instead of the raw value. ``kind`` is ``"secret"`` (``value``: the
    secret dealt to ``seat``) or ``"memory"`` (``value``: this plugin's
    whole memory; asked for each seat, then once with ``seat`` ``None`` for
    the table as a whole). ``you``: the words are read by the player of
    ``seat``, so they are a sentence addressed to them ("Your goal: black,
    2 points a tile"); otherwise they follow the seat's name ("has passed
    this round" is shown "Bob has passed this round"). With ``seat``
    ``None``, a whole sentence.

    Return printable text of at most 120 characters. ``None``: nothing to
    say (the words for ``you`` alone: the other seats are told nothing of
    it). A plugin that says nothing of a value has it told plainly, still
    in words ("pass_once remembers: no, yes"; "Your secret from
    secret_goal: 3"). Each plugin is asked about its own secret and memory
    only (its first answer counts), and only about what the reader may
    see: another seat's secret is never described to a player until the
    game is over.

    Example, "pass once"::

        @hookimpl
        def azul_describe(kind, value, seat, you):
            if kind != "memory" or seat is None:
                return None
            if you:
                return "You have passed this round" if value[seat] else "You may still pass this round"
            return "has passed this round" if value[seat] else "may still pass this round"
    """


# --------------------------------------------------------------------------
# Situation hooks: compiled into plain functions, first result wins
# --------------------------------------------------------------------------


@hookspec(firstresult=True)
def azul_first_player(players: int, rng: "random.Random", settings: Settings,
                      answer: "int | None") -> int:
    """Decide which seat starts round 1.

    ``rng`` is a ``random.Random`` seeded from the game's seed (its own
    stream: drawing from it changes no deal). Return a seat, 0 to
    ``players - 1``. ``None``: no opinion. First result wins; when no plugin
    answers, seat 0 starts. A game record says who started
    (``first_player``), so a replay needs no seed.

    Example, "a seat drawn from the game's seed starts"::

        @hookimpl
        def azul_first_player(players, rng):
            return rng.randrange(players)
    """


@hookspec(firstresult=True)
def azul_draft_allowed(source: int, colour: int, count: int, line: int, seat: int,
                       game: GameView, memory: Any, secret: Any, settings: Settings,
                       answer: "bool | None") -> bool:
    """Decide whether a draft the other rules allow is legal.

    ``source`` is 0 for the centre, 1 to N for the factories; ``count`` the
    tiles of ``colour`` it takes; ``line`` the pattern line (0 to 4; 0 to
    n-1 on a board of n colours) or 5 (n) for the floor, where the tiles go
    (a misplaced draft sent to the floor asks with 5); ``seat`` the player drafting; ``game`` the table before the
    draft. Return ``False`` to forbid it. ``None``: no opinion (allowed).
    First result wins. A rule may restrict but never stall a game: when it
    forbids every draft, every draft is allowed. Bots, ``?`` in ``azul play``
    and record validation all follow it. When no plugin implements this hook
    it costs nothing.

    Example, "a draft from the centre must take at least two tiles"::

        @hookimpl
        def azul_draft_allowed(source, count):
            return False if source == 0 and count < 2 else None
    """


@hookspec(firstresult=True)
def azul_draft_takes(tiles: Sequence[int], colour: int, source: int, seat: int, game: GameView,
                     memory: Any, secret: Any, settings: Settings,
                     answer: "Sequence[int] | None") -> Sequence[int]:
    """Decide which tiles a draft of ``colour`` takes from a source.

    ``tiles`` is the source's tile count per kind (the colours, then the
    variant's extra tiles, ``TableSetup.extra_tiles``); ``source`` 0 the
    centre, 1 to N a factory. Return the count per kind the draft takes: all
    of ``colour``, and of any other kind at most what lies there (the rest of
    a factory goes to the centre, as always). The extra tiles taken lie on
    the pattern line where ``azul_stands_in`` allows, and fall to the floor
    otherwise. ``None``: no opinion; when no plugin answers, a draft takes
    every tile of its colour and nothing else (at no cost). First result
    wins.

    Example, "a draft takes one wild tile (kind 5) along, if there is one"::

        @hookimpl
        def azul_draft_takes(tiles, colour):
            takes = [tiles[kind] if kind == colour else 0 for kind in range(len(tiles))]
            takes[5] = min(tiles[5], 1)
            return takes
    """


@hookspec(firstresult=True)
def azul_stands_in(kind: int, colour: int, row: int, seat: int, game: GameView, memory: Any,
                   secret: Any, settings: Settings, answer: "bool | None") -> bool:
    """Decide whether a tile of ``kind``, taken along with a draft of ``colour`` onto pattern
    line ``row``, may lie on that line standing in for ``colour``.

    Return ``True``: it counts as a tile of ``colour`` on the line (it fills
    it as one, and is discarded with the line's other tiles when the line is
    tiled: the wall takes a tile of the colour itself). ``False`` or no
    answer: it falls to the floor. First result wins. A line always holds
    at least one tile of its own colour.

    Example, "wild tiles (kind 5) stand in for any colour"::

        @hookimpl
        def azul_stands_in(kind):
            return kind == 5
    """


@hookspec(firstresult=True)
def azul_wall_spaces(wall: Wall, row: int, colour: int, seat: int, game: GameView,
                     memory: Any, secret: Any, settings: Settings,
                     answer: "Sequence[int] | None") -> Sequence[int]:
    """Decide which columns of wall ``row`` the tile of a full line may go to.

    ``row`` is the pattern line being tiled, ``colour`` its colour. Return
    the legal columns: one, several (the player chooses, see
    ``azul_wall_choice``), or none (the whole line falls to the floor; what
    the floor can't hold is discarded where ``azul_discard_pile`` says for
    ``"overflow"``). Every column must be an empty space of that row.
    ``None``: no opinion. First result wins.

    Example, "the first row takes no tile in its last column" (over any wall)::

        @hookimpl
        def azul_wall_spaces(row, answer):
            return [c for c in answer if not (row == 0 and c == 4)]
    """


@hookspec(firstresult=True)
def azul_line_accepts(
    row: int, line_colour: "int | None", line_count: int, capacity: int,
    wall_row: frozenset, colour: int, settings: Settings, answer: "bool | None",
) -> bool:
    """Decide whether pattern line ``row`` may receive tiles of ``colour``.

    ``line_colour`` is the colour the line holds (``None`` when empty),
    ``line_count`` how many tiles, ``capacity`` how many it holds when full
    (``azul_line_capacity``), ``wall_row`` the colours already on that wall
    row. Tiles beyond the line's free spaces fall to the floor; that is not
    this hook's concern. A line holds one colour: ``True`` for a colour
    other than ``line_colour`` is refused as the plugin's error. Must be a
    pure function of its arguments (the engine caches answers), so it takes
    no ``seat`` or ``game``: a rule about the table is
    ``azul_draft_allowed``. ``None``: no opinion. First result wins.

    Example, "no blue on the first line"::

        @hookimpl
        def azul_line_accepts(row, colour):
            return False if row == 0 and colour == BLUE else None
    """


@hookspec(firstresult=True)
def azul_placement_score(wall: Wall, row: int, column: int, seat: int, game: GameView,
                         memory: Any, secret: Any, settings: Settings, answer: "int | None") -> int:
    """Decide the points for the tile just placed at (``row``, ``column``).

    ``wall`` already holds the new tile. Return a whole number of points,
    zero or more. ``None``: no opinion. First result wins.

    Example, "a tile in the middle column scores one point more", over
    whatever the variant scores::

        @hookimpl
        def azul_placement_score(column, answer):
            return answer + 1 if column == 2 else answer
    """


@hookspec(firstresult=True)
def azul_floor_penalty(floor: Sequence[int], seat: int, game: GameView, memory: Any, secret: Any,
                       settings: Settings, answer: "int | None") -> int:
    """Decide the round's floor penalty for one player.

    ``floor`` lists what lies on the floor, left to right: colours, and
    ``azul_core.colours.MARKER`` for the start marker. Return the change to
    the score, zero or less. Scores are clamped at 0 afterwards by the core.
    ``game.marker_holder`` is the seat that took the start marker this
    round (also when the marker is kept aside). ``None``: no opinion. First
    result wins. Bots estimate a floor by asking this hook too, without
    ``seat`` and ``game``.

    Example, "the start marker's holder pays 3 more"::

        @hookimpl
        def azul_floor_penalty(seat, game, answer):
            return answer - 3 if game and seat == game.marker_holder else answer
    """


@hookspec(firstresult=True)
def azul_game_over(walls: Sequence[Wall], round_number: int, lines: Lines | None,
                   supply: Sequence[int] | None, game: GameView, memory: Any, settings: Settings,
                   answer: "bool | None") -> bool:
    """Decide, after a round's tiling and penalties, whether the game ends.

    ``walls`` are the players' walls in seat order, ``round_number`` counts
    from 1. ``lines``: a read-only sequence, per seat, of its pattern lines as
    ``(colour or None, count)`` pairs (a count includes the extra tiles
    standing in for the colour); ``supply``: per colour, the tiles on no wall
    and no pattern line (bag and lid, at a round's end) that may fill a line of
    that colour: its own tiles, plus (while any of those are left) the extra
    tiles that may stand in for it (``azul_stands_in``), so a plugin can tell
    that a row can never be completed. Either may be ``None`` when the caller does
    not know. ``game.scores`` are the scores after the round's penalties.
    ``None``: no opinion (the game goes on unless another plugin ends it).
    First result wins.

    Example, "the game ends when a player leads everyone by 40"::

        @hookimpl
        def azul_game_over(game):
            best, second = sorted(game.scores, reverse=True)[:2]
            return True if best - second >= 40 else None
    """


@hookspec
def azul_end_bonuses(wall: Wall, seat: int, game: GameView, memory: Any, secret: Any,
                     settings: Settings, answer: "list[tuple] | None") -> Sequence[tuple]:
    """Award end-of-game bonuses for one player's wall.

    Return a list of ``(label, points)`` pairs, for example
    ``[("rows", 4), ("columns", 7)]``. Every plugin's pairs are added up
    (not first-result). ``game.scores`` are the scores before any end
    bonus (after the last round's penalties), the same for every seat:
    every seat's bonuses are decided first, then all are added, so a bonus
    for the leader does not depend on which seat is asked first. ``None`` or ``[]``: no bonus from this plugin. With
    ``answer`` (the pairs of the plugins listed before), the plugin returns
    the whole list instead: it may change or drop those pairs.

    Example, "+5 per complete main diagonal"::

        @hookimpl
        def azul_end_bonuses(wall):
            return [("diagonal", 5 * sum(all(wall[i][i] is not None for i in range(5))))]
    """


@hookspec(firstresult=True)
def azul_winners(scores: Sequence[int], walls: Sequence[Wall], game: GameView, memory: Any,
                 settings: Settings, answer: "Sequence[int] | None") -> Sequence[int]:
    """Decide who won, after the end bonuses.

    Return the winning seats, several when they win together (a tie
    shared, a team). ``None``: no opinion. First result wins.

    Example, "ties are shared"::

        @hookimpl
        def azul_winners(scores):
            return [seat for seat, score in enumerate(scores) if score == max(scores)]
    """


#: Hooks that only one plugin may implement in a variant (unless the
#: variant file's ``decide`` names the winner), grouped by the rule they make.
EXCLUSIVE_RULES = {"wall": ("azul_wall_spaces", "azul_wall_choice")}

#: Hooks called during a game, compiled to plain functions; with the
#: arguments the engine passes (``settings`` is bound at load time).
SITUATION_HOOKS = {
    "azul_first_player": ("players", "rng"),
    "azul_draft_allowed": ("source", "colour", "count", "line"),
    "azul_draft_takes": ("tiles", "colour", "source"),
    "azul_stands_in": ("kind", "colour", "row"),
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

#: The context a situation hook may ask for, beyond its own arguments: the engine
#: passes the seat and the game state; ``game`` is a ``GameView`` built only for a
#: plugin that asks for it.
CONTEXT_ARGUMENTS = {
    "azul_draft_allowed": ("seat", "game", "memory", "secret"),
    "azul_draft_takes": ("seat", "game", "memory", "secret"),
    "azul_stands_in": ("seat", "game", "memory", "secret"),
    "azul_wall_spaces": ("seat", "game", "memory", "secret"),
    "azul_placement_score": ("seat", "game", "memory", "secret"),
    "azul_floor_penalty": ("seat", "game", "memory", "secret"),
    "azul_game_over": ("game", "memory"),
    "azul_winners": ("game", "memory"),
    "azul_end_bonuses": ("seat", "game", "memory", "secret"),
}

#: The hooks asked of each plugin about its own moves, memory and secrets (not compiled into
#: one function: the engine calls each plugin's implementation with that plugin's memory).
PER_PLUGIN_HOOKS = ("azul_declare_phases", "azul_declare_moves", "azul_initial_memory", "azul_deal_secrets",
                    "azul_offer_moves", "azul_apply_move", "azul_tiles_drawn", "azul_after_draft",
                    "azul_round_start")

#: The argument through which an implementation builds on the rest of the variant's answer.
ANSWER = "answer"

#: Situation hooks whose answers are all collected (in the variant's plugin order)
#: rather than the first one kept.
COLLECTING_HOOKS = frozenset({"azul_end_bonuses"})

#: Every hook's name, in the order this module defines them.
SPEC_NAMES = tuple(name for name, value in dict(globals()).items()
                   if name.startswith("azul_") and callable(value))
