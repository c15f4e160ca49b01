"""The game state and the engine that moves it: drafts, placements, tiling, rounds.

The state knows pattern lines, factories, the bag and the lid, turns and
rounds. Everything a variant may change it asks of its ``Rules`` (resolved
hooks and tables), never of a variant's name.

Decisions are tuples:
* a draft ``(source, colour, line)``: source 0 is the centre, 1..N the
  factories; line 0..4 a pattern line or ``FLOOR`` (5; on a board of n
  colours, lines 0..n-1 and the floor n: ``rules.floor_line``);
* a placement ``(row, column)``: where the tile of pattern line ``row`` goes;
* a plugin's move, an ``azul_core.rules.Move`` (``+pass``): offered by the
  plugins beside the drafts (phase ``DRAFT``), after a draft, before the
  turn passes (phase ``CHOOSE``), or in a phase of choices a plugin adds
  (phase ``CHOOSE`` too, ``stage`` naming it: ``round_start``, ``after_turn``,
  ``round_end``, ``game_end``; ``rules.Phase``).

Plugins may keep memory (``state.memory``: plugin name -> an immutable value)
and deal per-seat secrets (``state.secrets``: plugin name -> a value per
seat). Both dicts are replaced, never changed in place, so clones share them.

Chance events are separate from decisions: filling the factories (phase
``DEAL``: ``deal(rng)`` draws at random, ``deal_tiles(factories)`` lays given
tiles, a replay's) and the tiles a plugin's outcome draws from the bag (phase
``DRAW``, ``rules.Draw``: ``draw(rng)`` draws at random, ``apply(Drawn(...))``
lays the tiles a record gives).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from azul_core.colours import LETTERS, MARKER, NAMES
from azul_core.engine.board_tables import board_tables
from azul_core.engine.compiled import fields_of
from azul_core.engine.draws import Drawn, bag_after, drawn_problem, sample_draw
from azul_core.engine.moves import memory_problem, seen_secrets
from azul_core.engine.plugins import PluginError, hook_location
from azul_core.engine.rulebook import Rules
from azul_core.engine.transfers import carry_out, describe_transfer, place_problem, put, shift_transfer, wall_with
from azul_core.rules import Draw, Move, Outcome

#: The floor's place in a draft of the standard game's board (``rules.floor_line`` in general).
FLOOR: Final = 5
#: The standard board's bitmask tables, read as globals on the hot path of random playouts
#: (``random_decision``; a board of another size reads its own from the rules). ``Final``, as
#: the constants below: compiled by mypyc, a Final global is read directly, any other through
#: the module's dictionary at every use.
_DRAFT_LINES: Final = board_tables(5).draft_lines
_DRAFT_COUNT: Final = board_tables(5).draft_count
CENTRE: Final = 0

DEAL: Final = "deal"
DRAFT: Final = "draft"
PLACE: Final = "place"
OVER: Final = "over"
#: the seat to move chooses among the moves the plugins offer: after its draft, before the
#: turn passes, or in a phase of choices a plugin added (``rules.Phase``; ``state.stage`` says
#: which: at the round's start, after a turn, at the round's end, at the game's end)
CHOOSE: Final = "choose"
#: tiles a plugin's outcome draws from the bag (``rules.Draw``) are drawn before the game goes
#: on: a chance event, as the deal is (``GameState.draw``)
DRAW: Final = "draw"
#: Moves taken instead of drafting (or chosen after one) before the plugins' moves stop being
#: offered, so that no rule can stall a round: per seat, and in a row after one draft. A move
#: instead of a draft that takes tiles off the table is progress, as a draft is.
IDLE_TURNS_PER_SEAT: Final = 4
#: The engine's words for each reason a pattern line refuses a colour (``GameState.line_refusal``).
_LINE_REFUSALS = {
    "line_closed": "pattern line {number} was tiled this round and takes tiles again next round",
    "line_full": "pattern line {number} is full",
    "line_holds": "pattern line {number} holds {name}",
    "wall_has": "wall row {number} already has {name}",
    "line_rule": "the rules ({plugin}) refuse {name} on pattern line {number}",
}
CHOICES_IN_A_ROW: Final = 16

Wall = tuple[tuple[int | None, ...], ...]
#: A decision: a draft ``(source, colour, line)``, a placement ``(row, column)`` or a plugin's move;
#: or, in phase DRAW, the tiles a plugin's draw brought (a chance event).
Decision = tuple | Move | Drawn


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled by mypyc, still subclassed elsewhere (testing.py)
class IllegalDecision(Exception):
    """A decision the rules forbid; the message says which rule. ``kind`` and ``facts`` say it
    as data (engine indices: ``line`` 0-4, ``colour`` 0-4, ``source`` 0 for the centre), from
    which a front end makes a player's words (``players.refusal_words``); ``kind`` is None for
    a refusal no player meets at a table (a record's or a test's)."""

    def __init__(self, message: str, kind: str | None = None, **facts):
        super().__init__(message)
        self.kind = kind
        self.facts = facts


class PlayerBoard:
    """One player's pattern lines, wall, floor and score, plus score accounting."""

    __slots__ = ("line_colour", "line_count", "line_extra", "accept", "accept_key", "wall", "wall_rows", "floor",
                 "score", "placement_points", "penalty_points", "bonuses", "floor_tiles", "closed")

    def __init__(self, rules: Rules | None = None):
        if rules is None:  # clone() fills every slot
            return
        size = rules.size
        self.line_colour = [-1] * size
        self.line_count = [0] * size
        #: per line, the kinds of the extra tiles standing in for its colour (in line_count too)
        self.line_extra: list[tuple[int, ...]] = [()] * size
        # Read-only: rows of the wall are tuples, so a plugin handed it can't change it, and
        # clone() shares it; _place builds the changed row and the outer tuple anew.
        self.wall: Wall = ((None,) * size,) * size
        self.wall_rows = [0] * size
        # accept[line]: the colours (bitmask) the line takes. accept_key holds the same bits
        # colour-major (bit size * colour + line), so the lines taking a colour are size bits
        # (engine/board_tables.py).
        self.accept = [rules.accept_mask(row, -1, 0, 0) for row in range(size)]
        self.accept_key = 0
        scatter = rules.scatter
        for row, mask in enumerate(self.accept):
            self.accept_key |= scatter[row][mask]
        self.floor: list[int] = []
        self.score = 0
        self.placement_points = 0
        self.penalty_points = 0
        self.bonuses: list[tuple[str, int]] = []
        self.floor_tiles = 0
        # closed: the lines (bitmask) tiled this round that take no tiles until the next round
        self.closed = 0

    def clone(self) -> "PlayerBoard":
        other = PlayerBoard()
        other.line_colour = self.line_colour[:]
        other.line_count = self.line_count[:]
        other.line_extra = self.line_extra[:]
        other.accept = self.accept[:]
        other.accept_key = self.accept_key
        other.wall = self.wall
        other.wall_rows = self.wall_rows[:]
        other.floor = self.floor[:]
        other.score = self.score
        other.placement_points = self.placement_points
        other.penalty_points = self.penalty_points
        other.bonuses = self.bonuses[:]
        other.floor_tiles = self.floor_tiles
        other.closed = self.closed
        return other

    def refresh_accept(self, rules: Rules, row: int) -> None:
        """Ask the rules again which colours pattern line ``row`` takes (after it or its wall
        row changed)."""
        if self.closed >> row & 1:
            return
        colour = self.line_colour[row] if self.line_count[row] else -1
        mask = rules.accept_mask(row, colour, self.line_count[row], self.wall_rows[row])
        self.accept[row] = mask
        self.accept_key = self.accept_key & rules.other_lines[row] | rules.scatter[row][mask]

    def pattern_lines(self) -> tuple[tuple[int | None, int], ...]:
        """The pattern lines as a plugin reads them: ``(colour or None, count)`` per line."""
        return tuple([(colour if count else None, count) for colour, count in zip(self.line_colour, self.line_count)])

    def line_full(self, row: int, capacity: int) -> bool:
        return self.line_count[row] >= capacity

    def complete_rows(self) -> int:
        return sum(1 for row in self.wall if None not in row)


class GameState:
    """A game in progress: whose turn, what lies where, and the rules to apply."""

    __slots__ = ("rules", "table", "players", "bag", "lid", "sources", "tiles_on_table",
                 "colour_sources", "marker_in_centre", "marker_holder", "first_player", "current",
                 "round", "phase", "pending", "placing", "winners", "round_scores", "removed",
                 "memory", "secrets", "choices", "idle", "kinds", "plain_drafts", "stage", "waiting",
                 "sealed", "phase_from", "phase_choices", "drawing", "resume")

    def __init__(self, rules: Rules | None = None, players: int = 2, first_player: int = 0):
        if rules is None:  # clone() fills every slot
            return
        if players not in rules.players:
            allowed = ", ".join(str(p) for p in rules.players)
            raise ValueError(f"variant '{rules.name}' is for {allowed} players, not {players}")
        self.rules = rules
        self.table = rules.table(players)
        self.players = [PlayerBoard(rules) for _ in range(players)]
        counts = self.table.kind_counts
        #: how many kinds of tile: the colours and the variant's extra tiles
        self.kinds = kinds = len(counts)
        self.bag = [kind for kind, count in enumerate(counts) for _ in range(count)]
        self.lid = [0] * kinds
        self.sources = [[0] * kinds for _ in range(self.table.factories + 1)]
        self.tiles_on_table = 0
        # colour_sources[c]: how many sources (factories and centre) hold colour c.
        self.colour_sources = [0] * kinds
        self.marker_in_centre = True
        self.marker_holder: int | None = None
        self.first_player = first_player
        self.current = first_player
        self.round = 1
        self.phase = DEAL
        self.pending: list[tuple[int, int]] = []
        self.placing: tuple[int, int, tuple[int, ...]] | None = None
        self.winners: list[int] = []
        self.round_scores: list[tuple[int, ...]] = []
        #: per colour, the tiles discarded out of the game (``azul_discard_pile`` "out")
        self.removed = [0] * kinds
        #: each plugin's memory, by plugin name (replaced, never changed in place)
        self.memory: dict = rules.plugin_hooks.initial_memory(players) if rules.remembers else {}
        #: each plugin's secrets, a value per seat; dealt with the first deal (``deal_secrets``)
        self.secrets: dict = {}
        #: in phase CHOOSE, the moves on offer
        self.choices: tuple[Move, ...] = ()
        #: plugin moves taken since the last draft (see IDLE_TURNS_PER_SEAT)
        self.idle = 0
        #: a draft asks no plugin beyond the compiled rules and takes one kind of tile: the
        #: fast path of random playouts
        self.plain_drafts = not (rules.draft_asks_plugins or kinds > rules.size)
        #: in a plugin's phase (phase CHOOSE): its stage, the seats still to be asked (the one to
        #: move first), and
        #: in a phase chosen at once, the choices made so far ((seat, move) pairs, kept from
        #: the other seats until every seat has chosen)
        self.stage: str | None = None
        self.waiting: tuple[int, ...] = ()
        self.sealed: tuple[tuple[int, Move | None], ...] = ()
        #: the seat the phase started from (after a turn: the seat that played), and the moves
        #: the seat to move has taken in it in a row
        self.phase_from = 0
        self.phase_choices = 0
        #: the draws outcomes asked for, not drawn yet ((plugin, seat, Draw) triples; phase DRAW),
        #: and where the game goes on once they are drawn (see ``_go_on``)
        self.drawing: tuple[tuple[str, int, Draw], ...] = ()
        self.resume: tuple = ()

    # ------------------------------------------------------------------ views

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def to_move(self) -> int:
        """The seat that must decide now."""
        return self.placing[0] if self.phase == PLACE else self.current  # type: ignore[index]  # set in PLACE

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[int]:
        return [board.score for board in self.players]

    def clone(self) -> "GameState":
        """An independent copy sharing only the (immutable) rules and table."""
        other = GameState()
        other.rules = self.rules
        other.table = self.table
        other.players = [board.clone() for board in self.players]
        other.bag = self.bag[:]
        other.lid = self.lid[:]
        other.sources = [source[:] for source in self.sources]
        other.tiles_on_table = self.tiles_on_table
        other.colour_sources = self.colour_sources[:]
        other.marker_in_centre = self.marker_in_centre
        other.marker_holder = self.marker_holder
        other.first_player = self.first_player
        other.current = self.current
        other.round = self.round
        other.phase = self.phase
        other.pending = self.pending[:]
        other.placing = self.placing
        other.winners = self.winners[:]
        other.round_scores = self.round_scores[:]
        other.removed = self.removed[:]
        other.memory = self.memory
        other.secrets = self.secrets
        other.choices = self.choices
        other.idle = self.idle
        other.kinds = self.kinds
        other.plain_drafts = self.plain_drafts
        other.stage = self.stage
        other.waiting = self.waiting
        other.sealed = self.sealed
        other.phase_from = self.phase_from
        other.phase_choices = self.phase_choices
        other.drawing = self.drawing
        other.resume = self.resume
        return other

    def for_seat(self, seat: int | None) -> "GameState":
        """The game as ``seat`` may know it: without the other seats' secrets (``None``: a
        watcher, who sees none) until the game is over, nor their choices in a phase chosen at
        once until every seat has chosen. The game itself when nothing is secret."""
        if (not self.secrets and not self.sealed) or self.phase == OVER:
            return self
        other = self.clone()
        other.secrets = seen_secrets(self.secrets, seat)
        other.sealed = tuple((chooser, move if chooser == seat else None) for chooser, move in self.sealed)
        return other

    def deal_secrets(self, rng) -> None:
        """Deal the plugins' secrets (``azul_deal_secrets``) with the game's random generator."""
        if self.rules.deals_secrets:
            self.secrets = self.rules.plugin_hooks.deal_secrets(len(self.players), rng)

    def set_secrets(self, secrets: dict) -> None:
        """Lay secrets known from elsewhere (a game record): plugin name -> a value per seat."""
        expected = set(self.rules.plugin_hooks.secret_plugins)
        if set(secrets) - expected:
            raise IllegalDecision(f"secrets of plugins that deal none: {', '.join(sorted(set(secrets) - expected))}")
        for plugin, values in secrets.items():
            if values.__class__ is not tuple or len(values) != len(self.players):
                raise IllegalDecision(f"the secrets of plugin '{plugin}' must be one per seat")
            why = memory_problem(values)
            if why:  # what no plugin's azul_deal_secrets could deal
                raise IllegalDecision(f"the secrets of plugin '{plugin}' hold {why}")
        self.secrets = dict(secrets)

    def tile_counts(self) -> list[int]:
        """How many tiles of each kind (colour, then extra tiles) are anywhere in the game,
        those out of it included (the invariant: ``table.kind_counts``)."""
        counts = [self.bag.count(c) + self.lid[c] + self.removed[c] + sum(s[c] for s in self.sources)
                  for c in range(self.kinds)]
        for board in self.players:
            for row in range(self.rules.size):
                if board.line_count[row]:
                    extra = board.line_extra[row]
                    counts[board.line_colour[row]] += board.line_count[row] - len(extra)
                    for kind in extra:
                        counts[kind] += 1
            for wall_row in board.wall:
                for cell in wall_row:
                    if cell is not None:
                        counts[cell] += 1
            for tile in board.floor:
                if tile != MARKER:
                    counts[tile] += 1
        return counts

    # ------------------------------------------------------------ chance

    def deal(self, rng) -> None:
        """Fill the factories at random from the bag (refilled from the lid when it runs out)."""
        if self.phase != DEAL:
            raise IllegalDecision("the factories are filled only at the start of a round")
        if self.round == 1 and self.rules.deals_secrets and not self.secrets:
            self.deal_secrets(rng)
        bag, lid, random = self.bag, self.lid, rng.random
        per_factory = self.table.tiles_per_factory
        dealt = 0
        for factory in self.sources[1:]:
            left = len(bag)
            if left >= per_factory:
                # The usual case: the bag alone fills this factory.
                for _ in range(per_factory):
                    i = int(random() * left)
                    left -= 1
                    tile = bag[i]
                    bag[i] = bag[left]
                    bag.pop()
                    factory[tile] += 1
                dealt += per_factory
                continue
            for _ in range(per_factory):
                if not bag:
                    if not any(lid):
                        break
                    self._pour_lid()
                i = int(random() * len(bag))
                tile = bag[i]
                bag[i] = bag[-1]
                bag.pop()
                factory[tile] += 1
                dealt += 1
        self._start_drafting(dealt)

    def deal_tiles(self, factories: Sequence[Sequence[int]]) -> None:
        """Lay the given tiles (colour counts per factory), checking they could have been drawn."""
        if self.phase != DEAL:
            raise IllegalDecision("the factories are filled only at the start of a round")
        kinds = range(self.kinds)
        if any(len(f) != self.kinds for f in factories):
            raise IllegalDecision(f"expected a count for each of the {self.kinds} kinds of tile")
        bag = [self.bag.count(c) for c in kinds]
        problem = fill_problem(bag, self.lid, factories, len(self.sources) - 1, self.table.tiles_per_factory,
                               self.table.kind_names)
        if problem:
            raise IllegalDecision(problem)
        drawn = [sum(f[c] for f in factories) for c in kinds]
        if sum(drawn) > sum(bag):
            bag = [bag[c] + self.lid[c] for c in kinds]
            self.lid = [0] * self.kinds
        self.bag = [c for c in kinds for _ in range(bag[c] - drawn[c])]
        for source, counts in zip(self.sources[1:], factories):
            source[:] = counts
        self._start_drafting(sum(drawn))

    def _pour_lid(self) -> None:
        lid = self.lid
        for c in range(self.kinds):
            if lid[c]:
                self.bag.extend([c] * lid[c])
                lid[c] = 0

    def _start_drafting(self, dealt: int) -> None:
        self.tiles_on_table = dealt
        kinds = range(self.kinds)
        held = [0] * self.kinds
        for source in self.sources:
            for colour in kinds:
                if source[colour]:
                    held[colour] += 1
        self.colour_sources = held
        if self.kinds > self.rules.size and dealt and not any(held[:self.rules.size]):
            dealt = self._sweep_leftovers()
        self.marker_in_centre = True
        self.marker_holder = None
        self.current = self.first_player
        if dealt:
            self.phase = DRAFT
            if self.rules.remembers:
                self.idle = 0
                self.rules.plugin_hooks.round_started(self)
            if self.rules.phases:
                self._phase("round_start", self.first_player)
        else:
            # Nothing could be dealt: nobody can ever move again, so the game ends.
            self._end_game()

    # --------------------------------------------------------- decisions

    def legal_decisions(self) -> list[Decision]:
        """Every decision the player to move may take now (drafts a bot would consider)."""
        if self.phase == DRAFT:
            key = self.players[self.current].accept_key
            rules = self.rules
            size, colours, draft_lines, full = rules.size, rules.colour_range, rules.draft_lines, rules.line_bits
            drafts: list[Decision] = [(source, colour, line)
                      for source, counts in enumerate(self.sources)
                      for colour in colours if counts[colour]
                      for line in draft_lines[key >> size * colour & full]]
            if self.rules.draft_allowed is not None:
                drafts = self._allowed(drafts)
            if self.rules.offers_moves:
                moves = self.turn_moves()
                exclusive = [move for move in moves if move.exclusive]
                return list(exclusive) if exclusive else [*drafts, *moves]
            return drafts
        if self.phase == CHOOSE:
            return list(self.choices)
        if self.phase == PLACE:
            assert self.placing is not None
            _seat, row, columns = self.placing
            return [(row, column) for column in columns]
        return []

    def random_decision(self, random) -> Decision:
        """A decision drawn uniformly from ``legal_decisions()``; ``random`` is ``rng.random``.

        Drafts are counted, not listed: a colour held by m sources, with w lines (the floor
        included) that take it, offers m * w drafts (listed only where a plugin restricts drafts).
        """
        if self.phase == DRAFT:
            rules = self.rules
            if rules.drafts_listed:
                drafts = self.legal_decisions()
                return drafts[int(random() * len(drafts))]
            if rules.size != 5:
                return self._random_draft_any_size(random)
            # The standard board, unrolled: random playouts run here.
            key = self.players[self.current].accept_key
            held = self.colour_sources
            parts = (held[0] * _DRAFT_COUNT[key & 31], held[1] * _DRAFT_COUNT[key >> 5 & 31],
                     held[2] * _DRAFT_COUNT[key >> 10 & 31], held[3] * _DRAFT_COUNT[key >> 15 & 31],
                     held[4] * _DRAFT_COUNT[key >> 20 & 31])
            pick = int(random() * (parts[0] + parts[1] + parts[2] + parts[3] + parts[4]))
            for colour in range(5):
                part = parts[colour]
                if pick < part:
                    lines = _DRAFT_LINES[key >> 5 * colour & 31]
                    nth, line_index = pick // len(lines), pick % len(lines)
                    for source, counts in enumerate(self.sources):
                        if counts[colour]:
                            if not nth:
                                return (source, colour, lines[line_index])
                            nth -= 1
                pick -= part
        if self.phase == PLACE:
            assert self.placing is not None
            _seat, row, columns = self.placing
            return (row, columns[int(random() * len(columns))])
        if self.phase == CHOOSE:
            return self.choices[int(random() * len(self.choices))]
        if self.phase == DRAW:
            return self.sample_draw(random)
        raise IllegalDecision("no decision to take now")

    def _random_draft_any_size(self, random) -> Decision:
        """``random_decision``'s draft on a board of any size (the rules' own tables). The walk to
        the n-th draft repeats the standard board's, inlined there so random playouts pay no call."""
        rules = self.rules
        key, held, size = self.players[self.current].accept_key, self.colour_sources, rules.size
        count, full = rules.draft_count, rules.line_bits
        parts = [held[colour] * count[key >> size * colour & full] for colour in rules.colour_range]
        pick = int(random() * sum(parts))
        for colour in rules.colour_range:
            part = parts[colour]
            if pick < part:
                lines = rules.draft_lines[key >> size * colour & full]
                nth, line_index = divmod(pick, len(lines))
                for source, counts in enumerate(self.sources):
                    if counts[colour]:
                        if not nth:
                            return (source, colour, lines[line_index])
                        nth -= 1
            pick -= part
        raise AssertionError("a draft is always drawn while tiles are on the table")

    def turn_moves(self) -> list[Move]:
        """The plugins' moves offered to the seat about to draft (``[]`` once the seats have
        taken so many moves without drafting that the round would stall)."""
        if not self.rules.offers_moves or self.phase != DRAFT or \
                self.idle >= IDLE_TURNS_PER_SEAT * len(self.players):
            return []
        return self.rules.plugin_hooks.offered(self, "turn", self.current)

    def apply(self, decision: Decision) -> None:
        """Take a decision for the player to move; an illegal one changes nothing and raises.

        A rule plugin failing on the way (``PluginError``) changes nothing either: the
        decisions that run situation hooks (a placement, a draft that fills a line tiled at
        once or ends the round) are applied to a state restored on failure.
        """
        if self.phase == DRAW or isinstance(decision, Drawn):
            self._apply_drawn(decision)
        elif isinstance(decision, Move):
            self._plugin_move(decision)
        elif self.phase == DRAFT:
            if len(decision) != 3:
                raise IllegalDecision("a draft is expected now (source, colour, line)", "draft_expected")
            self._draft(decision)
        elif self.phase == CHOOSE:
            raise IllegalDecision(f"choose one of {', '.join(str(m) for m in self.choices)} "
                                  f"({', '.join(m.notation for m in self.choices)}) first",
                                  "choose_first", moves=tuple(self.choices))
        elif self.phase == PLACE:
            if len(decision) != 2:
                raise IllegalDecision("a wall placement is expected now (row, column)", "placement_expected",
                                      row=self.placing[1] if self.placing else None)
            self._place_chosen(*decision)
        elif self.phase == DEAL:
            raise IllegalDecision("the factories must be filled first", "not_dealt")
        else:
            raise IllegalDecision("the game is over", "game_over")

    def _plugin_move(self, move: Move) -> None:
        if self.phase == DRAFT:
            offered = self.turn_moves()
        elif self.phase == CHOOSE:
            offered = list(self.choices)
        else:
            raise IllegalDecision(f"{move.notation} can't be taken now: "
                                  + ("the game is over" if self.phase == OVER else
                                     "a wall placement is expected" if self.phase == PLACE else
                                     "the factories must be filled first"),
                                  "game_over" if self.phase == OVER else
                                  "placement_expected" if self.phase == PLACE else "not_dealt",
                                  move=move, row=self.placing[1] if self.placing else None)
        if move not in offered:
            known = move in self.rules.plugin_hooks.declared
            on_offer = ", ".join(m.notation for m in offered) or "none"
            if known:
                raise IllegalDecision(f"{move.notation} is not on offer now (on offer: {on_offer})",
                                      "move_not_on_offer", move=self.rules.plugin_hooks.by_notation.get(
                                          move.notation, move), offered=tuple(offered))
            raise IllegalDecision(f"{move.notation} is not a move of this variant", "move_unknown", move=move)
        move = offered[offered.index(move)]
        if self.stage is not None:
            self._restored_on_plugin_error(self._chosen_in_phase, move)
            return
        self._restored_on_plugin_error(self._carry_out, move)

    def _carry_out(self, move: Move) -> None:
        """Carry out a plugin's move that is on offer: its outcome, then on with the turn."""
        seat, phase, on_table = self.current, self.phase, self.tiles_on_table
        ends_turn = self._outcome(seat, move)
        # A move instead of a draft that took tiles off the table moved the round on as a
        # draft does: it doesn't count towards the moves that stall a round.
        self.idle = 0 if phase == DRAFT and self.tiles_on_table < on_table else self.idle + 1
        if self.drawing:
            self._await_draws(("turn", seat, phase, ends_turn))
            return
        self._after_move(seat, phase, ends_turn)

    def _after_move(self, seat: int, phase: str, ends_turn: bool) -> None:
        """On with the game after ``seat`` took a plugin's move in ``phase`` (DRAFT: instead of
        a draft; CHOOSE: after one): more choices, the same seat again, or the turn's end."""
        if phase == CHOOSE:
            choices = self.rules.plugin_hooks.offered(self, "after_draft", seat) \
                if self.idle < CHOICES_IN_A_ROW else []
            if choices:
                self.choices = tuple(choices)
                return
            self.choices = ()
            self.phase = DRAFT
            self._end_turn(seat)
        elif ends_turn:
            self._end_turn(seat)  # a line the outcome filled is tiled now where tiling is at the turn's end

    def _outcome(self, seat: int, move: Move) -> bool:
        """Carry out what ``seat`` taking ``move`` does (the plugin's memory, points and
        transfers); whether the outcome ends the turn."""
        outcome, owner = self.rules.plugin_hooks.outcome(self, move, seat)
        return self._effects(seat, outcome, owner, move.notation, "azul_apply_move")

    def _effects(self, seat: int, outcome: Outcome, owner: str, answered: str, hook: str) -> bool:
        """Carry out ``outcome``, plugin ``owner``'s answer (from ``hook``, to ``answered``) for
        ``seat``: its memory, points and transfers, and its draws queued (phase DRAW comes
        next); whether it ends the turn."""
        if outcome.memory is not None:
            self.memory = {**self.memory, owner: outcome.memory}
        board = self.players[seat]
        if outcome.points:
            board.score = max(0, board.score + outcome.points)
        for other, points in outcome.scores:
            if not 0 <= other < len(self.players):
                raise self._refused(owner, hook, answered, f"scores {(other, points)}", f"there is no seat {other}")
            self.players[other].score = max(0, self.players[other].score + points)
        if outcome.shift is not None:
            why = carry_out(self, shift_transfer(self, seat, outcome.shift))
            if why:
                raise self._refused(owner, hook, answered, f"shift {outcome.shift}", why)
        for transfer in outcome.transfers:
            why = carry_out(self, transfer)
            if why:
                raise self._refused(owner, hook, answered, f"a transfer ({describe_transfer(self, transfer)})", why)
        for draw in outcome.draws:
            why = place_problem(self, draw.target)
            if why is None and draw.target.what in ("factory", "centre") and \
                    self.stage in ("round_end", "game_end"):
                why = "the factories and the centre take tiles only while the round's drafting goes on"
            if why:
                raise self._refused(owner, hook, answered, f"a draw of {draw.count} onto {draw.target}", why)
        if outcome.draws:
            self.drawing = self.drawing + tuple((owner, seat, draw) for draw in outcome.draws)
        return outcome.ends_turn

    # ------------------------------------------------------------ the plugins' phases

    def _phase(self, stage: str, first: int) -> bool:
        """Start the plugins' phase ``stage`` (if one declares it), asking the seats in turn from
        ``first``; False when it is over at once (nobody was offered anything: the caller goes
        on), else the game goes on after it (``_after_phase``)."""
        if stage not in self.rules.phases:
            return False
        players = len(self.players)
        self.stage, self.phase_from, self.sealed, self.phase_choices = stage, first, (), 0
        self.waiting = tuple((first + ahead) % players for ahead in range(players))
        if self._ask_next_seat():
            return True
        self.stage = None
        return False

    def _ask_next_seat(self) -> bool:
        """Offer the phase's moves to the next seat that has any; False when none is left
        (the phase is over: sealed choices carried out)."""
        hooks, stage = self.rules.plugin_hooks, self.stage
        assert stage is not None  # set by _phase
        while self.waiting:
            seat = self.waiting[0]
            moves = hooks.offered(self, stage, seat)
            if moves:
                self.phase, self.current, self.choices = CHOOSE, seat, tuple(moves)
                return True
            self.waiting = self.waiting[1:]
            self.phase_choices = 0
        for seat, move in self.sealed:  # every seat has chosen: all are carried out, in seat order
            if move is not None:  # None: another seat's choice, unknown to the seat this game is for
                self._outcome(seat, move)
        self.sealed, self.choices = (), ()
        return False

    def _chosen_in_phase(self, move: Move) -> None:
        """``move`` (on offer) taken by the seat to move in a phase; then on with the phase."""
        seat, stage = self.current, self.stage
        assert stage is not None
        if self.rules.phases[stage].at_once:
            self.sealed = self.sealed + ((seat, move),)
            self.waiting = self.waiting[1:]
        else:
            # The seat's part of the phase is over unless its outcome says it decides again (a
            # bounded number of times: a seat may not stall the game).
            again = not self._outcome(seat, move)
            self.phase_choices += 1
            if not again or self.phase_choices >= CHOICES_IN_A_ROW:
                self.waiting = self.waiting[1:]
                self.phase_choices = 0
        self._phase_goes_on()

    def _phase_goes_on(self) -> None:
        """On with a plugin's phase after a choice: its draws first, then the next seat to ask,
        or (the sealed choices carried out, their draws drawn) on with the game."""
        if self.drawing:
            self._await_draws(("phase",))
        elif not self._ask_next_seat():
            if self.drawing:
                self._await_draws(("phase_over",))
            else:
                self._after_phase()

    def with_outcome(self, move: Move) -> "GameState":
        """A copy of the game with what ``move`` (on offer in a plugin's phase) does for the
        seat to move carried out, and the game taken no further: no other seat is asked, a
        choice made at once is not kept sealed. What a bot values such a choice by, from its
        own seat's view."""
        other = self.clone()
        other._outcome(self.to_move, move)
        other.drawing = ()  # valued before the draws: what they bring is chance
        return other

    def _after_phase(self) -> None:
        """Go on with the game after the phase that just ended, where it had stopped."""
        stage, self.stage = self.stage, None
        if stage == "round_start":
            self.phase, self.current = DRAFT, self.first_player
        elif stage == "after_turn":
            self._pass_turn(self.phase_from)
        elif stage == "round_end":
            self._pay_round()
        else:
            self._finish_game()

    def _refused(self, owner: str, hook: str, answered: str, what: str, why: str) -> PluginError:
        """The plugin's error for an outcome the rules refuse (the game is restored by the caller)."""
        where = hook_location(self.rules.pm, hook, owner)
        return PluginError(f"plugin '{owner}' answered {answered} with {what} "
                           f"({hook}{f' at {where}' if where else ''}): {why}",
                           plugin=owner, hook=hook, location=where)

    # ------------------------------------------------------------ a plugin's draws

    def draw(self, rng) -> Drawn:
        """Draw at random the tiles the first waiting draw asks for (phase DRAW), lay them and
        return what was drawn (a record writes it)."""
        drawn = self.sample_draw(rng.random)
        self.apply(drawn)
        return drawn

    def sample_draw(self, random) -> Drawn:
        """What the first waiting draw brings, drawn at random (``random``: ``rng.random``) as
        the deal draws; the game is not changed."""
        if self.phase != DRAW:
            raise IllegalDecision("no tiles are being drawn now")
        draw = self.drawing[0][2]
        return Drawn(tuple(sample_draw(self.bag, self.lid, draw.count, random)), self.table.kind_letters)

    def _await_draws(self, then: tuple) -> None:
        """The outcome just carried out drew tiles: draw them first (phase DRAW), then ``then``."""
        self.resume, self.phase = then, DRAW

    def _apply_drawn(self, drawn) -> None:
        if self.phase != DRAW:
            raise IllegalDecision("no tiles are being drawn now")
        if drawn.__class__ is not Drawn:
            raise IllegalDecision(f"the tiles a rule draws from the bag come first, not {drawn}")
        draw = self.drawing[0][2]
        bag = [self.bag.count(kind) for kind in range(self.kinds)]
        why = drawn_problem(bag, self.lid, drawn.tiles, draw.count, self.table.kind_names)
        if why:
            raise IllegalDecision(f"{drawn.notation} can't have been drawn: {why}")
        self._restored_on_plugin_error(self._lay_drawn, drawn)

    def _lay_drawn(self, drawn: Drawn) -> None:
        """Lay a possible draw's tiles on its place, tell its plugin, and go on when no draw is
        left."""
        (owner, seat, draw), self.drawing = self.drawing[0], self.drawing[1:]
        kinds, tiles = range(self.kinds), drawn.tiles
        bag, self.lid = bag_after([self.bag.count(kind) for kind in kinds], self.lid, tiles)
        self.bag = [kind for kind in kinds for _ in range(bag[kind])]
        for kind in kinds:
            if tiles[kind]:
                put(self, draw.target, kind, tiles[kind])
        hooks = self.rules.plugin_hooks
        if hooks.by_hook["azul_tiles_drawn"]:
            outcome = hooks.tiles_drawn(self, owner, seat, draw.target, tiles)
            self._effects(seat, outcome, owner, f"the tiles drawn ({drawn.notation})", "azul_tiles_drawn")
        if not self.drawing:
            self._go_on()

    def _go_on(self) -> None:
        """The draws are drawn: on with the game where the outcome that asked for them left it."""
        then, self.resume = self.resume, ()
        if then[0] == "turn":
            _, seat, phase, ends_turn = then
            self.phase = phase
            self._after_move(seat, phase, ends_turn)
        elif then[0] == "phase":
            self.phase = CHOOSE
            self._phase_goes_on()
        else:
            self.phase = CHOOSE
            self._after_phase()

    def _allowed(self, drafts: list) -> list:
        """The drafts ``azul_draft_allowed`` allows, or all of them when it allows none (a rule
        may restrict a game, never stall it)."""
        allowed, seat, sources = self.rules.draft_allowed, self.current, self.sources
        assert allowed is not None  # called only where a plugin restricts drafts
        kept = [draft for draft in drafts
                if allowed(draft[0], draft[1], sources[draft[0]][draft[1]], draft[2], seat, self)
                is not False]
        return kept or drafts

    def why_not(self, seat: int, colour: int, line: int) -> str:
        """In words, why pattern line ``line`` of ``seat`` does not accept ``colour``."""
        kind, facts = self.line_refusal(seat, colour, line)
        return _LINE_REFUSALS[kind].format(number=line + 1, name=self.table.kind_names[facts["colour"]], **facts)

    def line_refusal(self, seat: int, colour: int, line: int) -> tuple[str, dict]:
        """Why pattern line ``line`` of ``seat`` does not accept ``colour``, as data: the kind
        (``line_closed``, ``line_full``, ``line_holds``, ``wall_has``, ``line_rule``) and its facts
        (``line``, ``colour``: the line's own colour for ``line_holds``; ``plugin``)."""
        board = self.players[seat]
        if board.closed >> line & 1:
            return "line_closed", {"line": line, "colour": colour}
        if board.line_full(line, self.rules.capacity[line]):
            return "line_full", {"line": line, "colour": colour}
        if board.line_count[line] and board.line_colour[line] != colour:
            return "line_holds", {"line": line, "colour": board.line_colour[line]}
        if board.wall_rows[line] >> colour & 1:
            return "wall_has", {"line": line, "colour": colour}
        return "line_rule", {"line": line, "colour": colour,
                             "plugin": self.rules.deciders.get("azul_line_accepts", "?")}

    def is_misplaced(self, decision: Decision) -> bool:
        """Whether a draft names a line that can't take its colour (legal only where the
        variant sends such tiles to the floor)."""
        if self.phase != DRAFT or isinstance(decision, (Move, Drawn)) or len(decision) != 3:
            return False
        _source, colour, line = decision
        return line != self.rules.floor_line and not self.players[self.current].accept[line] >> colour & 1

    def apply_random(self, random) -> Decision:
        """Take a decision drawn uniformly from ``legal_decisions()`` and return it.

        The same as ``apply(random_decision(random))``, without checking a
        decision that is legal by construction: random playouts run here.
        """
        decision = self.random_decision(random)
        if not self.plain_drafts:
            self.apply(decision)  # plugin hooks run: the state is restored if one fails
        elif self.phase == DRAFT:
            self._take(*decision)  # type: ignore[misc]  # a draft tuple here
        else:
            self._place_at(*decision)  # type: ignore[misc]  # a placement tuple here
        return decision

    def _draft(self, decision: tuple) -> None:
        source, colour, line = decision
        sources = self.sources
        if not 0 <= source < len(sources):
            raise IllegalDecision(f"there is no factory {source}" if source else "no such source",
                                  "no_source", source=source, factories=len(sources) - 1)
        rules = self.rules
        if colour.__class__ is not int or not 0 <= colour < rules.size:
            raise IllegalDecision(f"no such colour {colour!r}", "no_colour")
        taken = sources[source][colour]
        if not taken:
            where = "the centre" if source == CENTRE else f"factory {source}"
            raise IllegalDecision(f"{where} has no {rules.colour_names[colour]} tiles", "no_tiles",
                                  source=source, colour=colour)
        seat = self.current
        board = self.players[seat]
        floor = rules.floor_line
        if line != floor:
            if not 0 <= line < floor:
                raise IllegalDecision(f"there is no pattern line {line + 1}", "no_line", line=line)
            if not board.accept[line] >> colour & 1:
                if not rules.misplaced_to_floor:
                    kind, facts = self.line_refusal(seat, colour, line)
                    raise IllegalDecision(self.why_not(seat, colour, line), kind, **facts)
                line = floor
        allowed = rules.draft_allowed
        if allowed is not None and allowed(source, colour, taken, line, seat, self) is False:
            drafts = self.legal_decisions()
            if (source, colour, line) not in drafts:
                raise IllegalDecision(f"the rules ({rules.deciders.get('azul_draft_allowed', '?')}) "
                                      f"forbid this draft now", "draft_forbidden",
                                      plugin=rules.deciders.get("azul_draft_allowed", "?"))
        if rules.offers_moves and rules.plugin_hooks.any_exclusive and \
                any(move.exclusive for move in self.turn_moves()):
            first = tuple(move for move in self.turn_moves() if move.exclusive)
            raise IllegalDecision("choose first: " + ", ".join(f"{move} ({move.notation})" for move in first),
                                  "choose_first", moves=first)
        ends_round = taken == self.tiles_on_table
        fills = line != floor and rules.tile_at_turn_end and \
            board.line_count[line] + taken >= rules.capacity[line]
        if not self.plain_drafts and (rules.draft_takes is not None or self.kinds > rules.size):
            self._restored_on_plugin_error(self._take_mixed, source, colour, line)
        elif ends_round or fills or rules.draft_asks_plugins:
            self._restored_on_plugin_error(self._take, source, colour, line)
        else:
            self._take(source, colour, line)

    def _restored_on_plugin_error(self, step, *args) -> None:
        snapshot = self.clone()
        try:
            step(*args)
        except PluginError:
            for name in fields_of(GameState):
                setattr(self, name, getattr(snapshot, name))
            raise

    def _take(self, source: int, colour: int, line: int) -> None:
        """Carry out a legal draft (its line already turned to the floor if misplaced)."""
        sources = self.sources
        seat = self.current
        board = self.players[seat]
        rules = self.rules
        taken = sources[source][colour]
        on_line = line != rules.floor_line
        if on_line:
            # What the line will take, worked out (and the rules asked) before anything changes.
            capacity = rules.capacity[line]
            room = capacity - board.line_count[line]
            put = taken if taken < room else room
            count = board.line_count[line] + put
            cached = rules.accept_cache.get((line, colour, count, board.wall_rows[line]))
            mask = cached if cached is not None else rules.accept_mask(line, colour, count, board.wall_rows[line])
        # Take the tiles; the rest of a factory goes to the centre.
        held = self.colour_sources
        if source == CENTRE:
            sources[CENTRE][colour] = 0
            held[colour] -= 1
            if self.marker_in_centre:
                self.marker_in_centre = False
                self.marker_holder = seat
                self._marker_to_floor(board)
        else:
            centre = sources[CENTRE]
            for other, tiles in enumerate(sources[source]):
                if tiles:
                    held[other] -= 1
                    if other != colour:
                        if not centre[other]:
                            held[other] += 1
                        centre[other] += tiles
            sources[source] = [0, 0, 0, 0, 0] if self.kinds == 5 else [0] * self.kinds
        self.tiles_on_table -= taken
        # Lay them on the line; what does not fit falls to the floor.
        overflow = taken
        if on_line:
            board.line_count[line] = count
            board.line_colour[line] = colour
            board.accept[line] = mask
            board.accept_key = board.accept_key & rules.other_lines[line] | rules.scatter[line][mask]
            overflow = taken - put
            if put and count == capacity and rules.tile_at_turn_end:
                self.pending.append((seat, line))
        if overflow:
            self._to_floor(board, colour, overflow)
        if rules.draft_asks_plugins:
            self._after_draft(source, colour, taken, line, seat)
            return
        if self.pending and not self._tile_pending():
            return
        if self.tiles_on_table:
            self.current = (seat + 1) % len(self.players)
        else:
            self._next_turn()

    def _after_draft(self, source: int, colour: int, taken: int, line: int, seat: int) -> None:
        """The plugins' part of a draft: their memory, then the choices they offer before the
        turn passes (phase CHOOSE), or the end of the turn."""
        rules = self.rules
        self.idle = 0
        hooks = rules.plugin_hooks
        if hooks.by_hook["azul_after_draft"]:
            hooks.drafted(self, source, colour, taken, line, seat)
        if rules.offers_moves:
            choices = hooks.offered(self, "after_draft", seat)
            if choices:
                self.choices = tuple(choices)
                self.phase = CHOOSE
                return
        self._end_turn(seat)

    def _end_turn(self, seat: int) -> None:
        """After ``seat``'s draft (and its choices): tile what the turn filled, then the
        plugins' phase after a turn, then pass the turn."""
        if self.pending and not self._tile_pending():
            return
        if self.rules.phases and self._phase("after_turn", seat):
            return
        self._pass_turn(seat)

    def _pass_turn(self, seat: int) -> None:
        """The turn passes from ``seat`` to the next (the round's tiling when no tile is left)."""
        if self.tiles_on_table:
            self.current = (seat + 1) % len(self.players)
            self.phase = DRAFT
        else:
            self._next_turn()

    def _take_mixed(self, source: int, colour: int, line: int) -> None:
        """Carry out a legal draft that may take other kinds of tile along (``azul_draft_takes``),
        some of them standing in for the colour on its line (``azul_stands_in``)."""
        sources, seat, rules = self.sources, self.current, self.rules
        board = self.players[seat]
        tiles = sources[source]
        takes = rules.draft_takes
        amounts = takes(tuple(tiles), colour, source, seat, self) if takes is not None else None
        if amounts is None:
            amounts = [count if kind == colour else 0 for kind, count in enumerate(tiles)]
        # Which taken tiles stand in for the colour, asked before anything changes.
        stand_ins: list[int] = []
        falling: list[tuple[int, int]] = []
        for kind, count in enumerate(amounts):
            if count and kind != colour:
                if line != rules.floor_line and rules.stands_in is not None and \
                        rules.stands_in(kind, colour, line, seat, self):
                    stand_ins += [kind] * count
                else:
                    falling.append((kind, count))
        held, centre = self.colour_sources, sources[CENTRE]
        if source == CENTRE:
            for kind, count in enumerate(amounts):
                if count:
                    centre[kind] -= count
                    if not centre[kind]:
                        held[kind] -= 1
            if self.marker_in_centre:
                self.marker_in_centre = False
                self.marker_holder = seat
                self._marker_to_floor(board)
        else:
            for kind, count in enumerate(tiles):
                if count:
                    held[kind] -= 1
                    rest = count - amounts[kind]
                    if rest:
                        if not centre[kind]:
                            held[kind] += 1
                        centre[kind] += rest
            sources[source] = [0] * self.kinds
        self.tiles_on_table -= sum(amounts)
        taken = amounts[colour]
        if line == rules.floor_line:
            self._to_floor(board, colour, taken)
        else:
            capacity = rules.capacity[line]
            room = capacity - board.line_count[line]
            put = min(taken, room)
            standing = stand_ins[:room - put]
            board.line_count[line] += put + len(standing)
            board.line_colour[line] = colour
            if standing:
                board.line_extra[line] = board.line_extra[line] + tuple(standing)
            board.refresh_accept(rules, line)
            if taken > put:
                self._to_floor(board, colour, taken - put)
            for kind in stand_ins[len(standing):]:
                self._to_floor(board, kind, 1)
            if board.line_count[line] == capacity and rules.tile_at_turn_end:
                self.pending.append((seat, line))
        for kind, count in falling:
            self._to_floor(board, kind, count)
        if self.tiles_on_table and not any(held[:rules.size]):
            self._sweep_leftovers()
        if rules.draft_asks_plugins:
            self._after_draft(source, colour, taken, line, seat)
        else:
            self._end_turn(seat)

    def _sweep_leftovers(self) -> int:
        """No colour is left to draft: the extra tiles left on the table are discarded
        (``azul_discard_pile("leftover")``) and drafting is over. Returns the tiles left (0)."""
        for source in self.sources:
            for kind, count in enumerate(source):
                if count:
                    self._discard(self.rules.leftover_pile, kind, count)
                    source[kind] = 0
        self.colour_sources = [0] * self.kinds
        self.tiles_on_table = 0
        return 0

    def _marker_to_floor(self, board: PlayerBoard) -> None:
        marker = self.rules.marker
        if marker.placement != "floor":
            return
        floor = board.floor
        if len(floor) < self.rules.floor_spaces:
            floor.append(MARKER)
        elif marker.full_floor == "bump" and floor:
            bumped = floor.pop()
            self._discard(self.rules.overflow_pile, bumped, 1)
            floor.append(MARKER)

    def _to_floor(self, board: PlayerBoard, colour: int, count: int) -> None:
        floor = board.floor
        room = self.rules.floor_spaces - len(floor)
        fits = count if count < room else max(room, 0)
        if fits:
            floor.extend([colour] * fits)
        board.floor_tiles += count
        if count > fits:
            pile = self.rules.overflow_pile
            if pile == "lid":
                self.lid[colour] += count - fits
            else:
                self._discard(pile, colour, count - fits)

    def _discard(self, pile: str, colour: int, count: int) -> None:
        """Put discarded tiles where the variant says (``azul_discard_pile``)."""
        if pile == "lid":
            self.lid[colour] += count
        elif pile == "bag":
            self.bag.extend([colour] * count)
        else:
            self.removed[colour] += count

    def _next_turn(self) -> None:
        if self.tiles_on_table:  # a turn ends with the placement of the tile its draft filled
            if self.rules.phases and self._phase("after_turn", self.current):
                return
            self.current = (self.current + 1) % len(self.players)
            self.phase = DRAFT
            return
        # Drafting is over: tile every full line, seat 0 first, line 1 first.
        capacity = self.rules.capacity
        for seat, board in enumerate(self.players):
            for row in range(self.rules.size):
                if board.line_count[row] == capacity[row]:
                    self.pending.append((seat, row))
        if self._tile_pending():
            self._end_round()

    # ------------------------------------------------------------ tiling

    def _tile_pending(self) -> bool:
        """Tile the queued full lines in order; False while a player must choose a column."""
        rules = self.rules
        pending = self.pending
        while pending:
            seat, row = pending[0]
            board = self.players[seat]
            if board.line_count[row] < rules.capacity[row]:
                # Queued when a draft filled it, then a move after the draft took tiles off it.
                del pending[0]
                continue
            colour = board.line_colour[row]
            columns = rules.wall_spaces(board.wall, row, colour, seat, self)
            if not columns:
                del pending[0]
                self._line_falls(board, row)
            elif rules.player_chooses_column:
                self.placing = (seat, row, tuple(columns))
                self.phase = PLACE
                return False
            else:
                del pending[0]
                self._place(seat, board, row, columns[0])
        self.placing = None
        return True

    def _place_chosen(self, row: int, column: int) -> None:
        assert self.placing is not None
        seat, placing_row, columns = self.placing
        if row != placing_row:
            raise IllegalDecision(f"the tile of pattern line {placing_row + 1} is being placed, "
                                  f"not line {row + 1}", "placement_expected", row=placing_row)
        if column not in columns:
            legal = ", ".join(str(c + 1) for c in columns)
            raise IllegalDecision(f"wall column {column + 1} is not legal for the "
                                  f"{self.rules.colour_names[self.players[seat].line_colour[row]]} tile of line "
                                  f"{row + 1} (legal: {legal})", "wall_column", row=row, column=column,
                                  colour=self.players[seat].line_colour[row], columns=tuple(columns))
        self._restored_on_plugin_error(self._place_at, row, column)

    def _place_at(self, row: int, column: int) -> None:
        """Carry out a legal placement of the tile being placed, then go on with the game."""
        del self.pending[0]
        assert self.placing is not None
        seat = self.placing[0]
        self._place(seat, self.players[seat], row, column)
        if self._tile_pending():
            self._next_turn()

    def _place(self, seat: int, board: PlayerBoard, row: int, column: int) -> None:
        colour = board.line_colour[row]
        board.wall = wall_with(board.wall, row, column, colour)
        board.wall_rows[row] |= 1 << colour
        rules = self.rules
        points = rules.placement_score(board.wall, row, column, seat, self)
        board.score += points
        board.placement_points += points
        # The line was full; one of its tiles (of its own colour) went to the wall.
        if board.line_extra[row]:
            self._discard_stand_ins(board, row, colour)
        elif rules.line_pile == "lid":
            self.lid[colour] += rules.capacity[row] - 1
        else:
            self._discard(rules.line_pile, colour, rules.capacity[row] - 1)
        board.line_count[row] = 0
        board.line_colour[row] = -1
        if self.rules.tiled_line_waits:
            # Closed until the next round (_end_round reopens it): not offered, misplaced if named.
            board.closed |= 1 << row
            board.accept[row] = 0
            board.accept_key &= self.rules.other_lines[row]
            return
        mask = self.rules.accept_cache.get((row, -1, 0, board.wall_rows[row]))
        if mask is None:
            board.refresh_accept(self.rules, row)
        else:
            board.accept[row] = mask
            rules = self.rules
            board.accept_key = board.accept_key & rules.other_lines[row] | rules.scatter[row][mask]

    def _discard_stand_ins(self, board: PlayerBoard, row: int, colour: int) -> None:
        """Discard the rest of a tiled line that held extra tiles standing in for its colour:
        each as itself."""
        extra, pile = board.line_extra[row], self.rules.line_pile
        board.line_extra[row] = ()
        for kind in extra:
            self._discard(pile, kind, 1)
        self._discard(pile, colour, self.rules.capacity[row] - 1 - len(extra))

    def _line_falls(self, board: PlayerBoard, row: int) -> None:
        colour = board.line_colour[row]
        extra = board.line_extra[row]
        if extra:
            board.line_extra[row] = ()
            for kind in extra:
                self._to_floor(board, kind, 1)
        self._to_floor(board, colour, self.rules.capacity[row] - len(extra))
        board.line_count[row] = 0
        board.line_colour[row] = -1
        board.refresh_accept(self.rules, row)

    def _end_round(self) -> None:
        """The wall tiling is done: the plugins' phase at the round's end, then the floors."""
        if self.rules.phases and self._phase("round_end", self.first_player):
            return
        self._pay_round()

    def _pay_round(self) -> None:
        """Pay the floors, then end the game or prepare the next round."""
        rules = self.rules
        lid = self.lid
        to_lid = rules.floor_pile == "lid"
        for seat, board in enumerate(self.players):
            if board.closed:
                closed, board.closed = board.closed, 0
                for row in range(rules.size):
                    if closed >> row & 1:
                        board.refresh_accept(rules, row)
            penalty = rules.floor_penalty(board.floor, seat, self)
            board.penalty_points += penalty
            board.score += penalty
            if board.score < 0:
                board.score = 0
            for tile in board.floor:
                if tile != MARKER:
                    if to_lid:
                        lid[tile] += 1
                    else:
                        self._discard(rules.floor_pile, tile, 1)
            board.floor.clear()
        self.round_scores.append(tuple([board.score for board in self.players]))
        lines: tuple | None = None
        supply = None
        if rules.game_over_reads_supply:
            # Read-only already, and cheaper built here at once than a lazy view.
            lines = tuple([board.pattern_lines() for board in self.players])
            supply = self._supply()
        if rules.game_over(tuple([board.wall for board in self.players]), self.round, lines, supply, self):
            self._end_game()
            return
        holder = self.marker_holder
        if holder is None:
            holder = self.first_player if rules.marker.unclaimed == "same" \
                else (self.first_player + 1) % len(self.players)
        self.first_player = holder
        self.round += 1
        self.phase = DEAL

    def _supply(self) -> list[int]:
        """Per colour, the tiles in the bag and the lid that may fill a line of that colour:
        its own, and, while any of its own are left to draft, the extra tiles that may stand
        in for it on some line of some seat (they come only along with a draft of it)."""
        spare = self.lid[:]
        for tile in self.bag:  # one pass (a count per kind would read the bag once per kind)
            spare[tile] += 1
        size = self.rules.size
        supply = spare[:size]
        stands_in = self.rules.stands_in
        if self.kinds > size and stands_in is not None:
            lines = [(row, seat) for row in range(size) for seat in range(len(self.players))]
            for kind in range(size, self.kinds):
                for colour in range(size):
                    if spare[kind] and spare[colour] and \
                            any(stands_in(kind, colour, row, seat, self) for row, seat in lines):
                        supply[colour] += spare[kind]
        return supply

    def _end_game(self) -> None:
        """The game is over: the plugins' phase at the game's end, then the end bonuses."""
        if self.rules.phases and self._phase("game_end", self.first_player):
            return
        self._finish_game()

    def _finish_game(self) -> None:
        rules = self.rules
        # Every seat's bonuses are decided before any is added: a bonus for "the leader"
        # sees the same scores whichever seat is asked first.
        bonuses = [rules.end_bonuses(board.wall, seat, self) for seat, board in enumerate(self.players)]
        for board, pairs in zip(self.players, bonuses):
            board.bonuses = pairs
            board.score += sum(points for _label, points in pairs)
        self.winners = sorted(rules.winners(self.scores(), tuple([board.wall for board in self.players]), self))
        self.phase = OVER
        self.placing = None


def fill_problem(bag: Sequence[int], lid: Sequence[int], factories: Sequence[Sequence[int]],
                 factory_count: int, per_factory: int, names: Sequence[str] = NAMES) -> str | None:
    """Why these factory fills could not have been drawn from ``bag`` then ``lid``, or None.

    Tiles are drawn from the bag, factory 1 first; when the bag runs out the
    whole lid is poured in; when both are empty the rest stays empty.
    """
    if len(factories) != factory_count:
        return f"expected {factory_count} factories, got {len(factories)}"
    sizes = [sum(f) for f in factories]
    for number, size in enumerate(sizes, 1):
        if size > per_factory:
            return f"factory {number} has {size} tiles; a factory holds {per_factory}"
    total = sum(sizes)
    available = sum(bag) + sum(lid)
    expected = min(available, factory_count * per_factory)
    if total != expected:
        return (f"{total} tiles laid, but {expected} must be drawn "
                f"(bag {sum(bag)}, lid {sum(lid)}, {factory_count} factories of {per_factory})")
    full_until = expected // per_factory
    if any(size != per_factory for size in sizes[:full_until]) or any(sizes[full_until + 1:]):
        return "factories must be filled in order: only the last one drawn may be partly filled"
    drawn = [sum(f[c] for f in factories) for c in range(len(bag))]
    if total <= sum(bag):
        for c in range(len(bag)):
            if drawn[c] > bag[c]:
                return f"{drawn[c]} {names[c]} tiles laid, but the bag held {bag[c]}"
        return None
    # The whole bag was drawn first, then the lid: the factories filled before the bag ran
    # out hold only bag tiles, and all the tiles laid come from bag and lid together.
    from_bag_only = sum(bag) // per_factory
    early = [sum(f[c] for f in factories[:from_bag_only]) for c in range(len(bag))]
    with_split = [early[c] + (factories[from_bag_only][c] if from_bag_only < len(factories) else 0)
                  for c in range(len(bag))]
    for c in range(len(bag)):
        if early[c] > bag[c]:
            return f"{early[c]} {names[c]} tiles laid before the bag ran out, but it held {bag[c]}"
        if with_split[c] < bag[c]:
            return f"the bag's {bag[c]} {names[c]} tiles must all be drawn before the lid is poured in"
        if drawn[c] > bag[c] + lid[c]:
            return f"{drawn[c]} {names[c]} tiles laid, but bag and lid held {bag[c] + lid[c]}"
    return None


def letters(counts: Sequence[int], kind_letters: str = LETTERS) -> str:
    """Tile counts as record letters, in kind order: [2,1,0,0,1] -> 'BBYW' (``kind_letters``:
    ``table.kind_letters`` where a variant has extra tiles)."""
    return "".join(kind_letters[c] * count for c, count in enumerate(counts))
