"""Any variant as an OpenSpiel game: ``import azul_core.rl.openspiel`` registers ``python_azul``.

    import pyspiel
    import azul_core.rl.openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("python_azul", {"variant": "grey-wall", "players": 3})

Parameters: ``variant`` (a built-in name or a variant file), ``players``,
``reward`` (``"score"``: each seat's final score minus the mean of the
others', with 2 players the score difference; ``"win"``: +1 / -1, 0 for a
shared victory), ``max_rounds`` (a game still going then is cut short and
scored as it stands; only a house rule that never ends gets there) and
``memory_size`` (the observation numbers of each plugin's memory or secret,
``azul_core.rl.encoding.value_numbers``).

The factory fills are explicit chance nodes: one tile drawn at a time, each
kind of tile with its share of the bag, factory 1 first; when the bag runs out
the lid is poured in, and when both are empty the fill stops. The drawn tiles
are then laid by the engine (``GameState.deal_tiles``, which checks that they
could have come out of the bag and lid). Chance action ``k`` is "a tile of
kind ``k``": 0..n-1 the variant's n colours (0..4 in the standard game), n..
its extra tiles (a wild tile). Player actions are ``azul_core.rl.encoding``'s,
sized by the variant's board (``num_distinct_actions``), its plugin moves
included.

A rule's draws (``rules.Draw``: a plugin's outcome that draws tiles at random
from the bag, as examples/refill-factories refills the empty factories; the
engine's phase ``DRAW``) are chance nodes the same way: one tile at a time,
each kind with its share of the bag, the lid poured in when the bag runs out,
stopping when both are empty or the draw's count is reached; the engine then
lays them (``state.apply(Drawn(...))``, checked as a record's ``~RRB`` is).
Several waiting draws (one per empty factory) follow one another, and the
record writes each as its ``~RRB`` action, so ``azul validate`` replays it.

The opening: a variant that draws the first player (``azul_first_player``,
as examples/seeded-start does) or whose plugins deal secrets
(``azul_deal_secrets``) starts with one chance node, before the first fill,
whose ``OPENING_SEEDS`` equally likely outcomes are seeds. Outcome ``k``
decides both, as a game's seed does in ``azul simulate``: the
seat that starts round 1 is ``rules.opening_seat(players, k)`` (the hook
draws from ``random.Random("first player:k")``), and the secrets are dealt
with ``random.Random(k)`` (the plugin draws from it). Each follows its
plugin's own odds as closely as 1000 seeds can. Every other variant has no
such node: seat 0 starts and the first chance node is the first tile drawn.

A variant without secrets has perfect information (the bag's contents are
known; only the order of the draws is chance; who starts is seen by all), so
the information state is the observation. A variant whose plugins deal
secrets is a game of imperfect information: a player's observation and
information state hold its own secret and nobody else's;
``resample_from_infostate`` (OpenSpiel's ``ISMCTSBot``) deals the others'
secrets again, consistently with what the player knows: its own secret and
who started (public), so only seeds that give both are drawn.

A phase chosen at once, in secret (``rules.Phase(..., at_once=True)``) is
played as hidden sequential choices: the seats choose one after the other, as
the engine asks them, and a player's observation and information state show
its own choice and which seats have chosen, never another seat's choice,
until every seat has chosen and the choices are carried out together. Such a
variant is a game of imperfect information too (a sequential one: OpenSpiel's
simultaneous-move games would need every seat to act at every node), and
``resample_from_infostate`` draws the other seats' sealed choices again, each
uniformly among the moves that seat was offered.
"""

from __future__ import annotations

import random
from pathlib import Path

try:
    import numpy as np
    import pyspiel
except ModuleNotFoundError as missing:
    from azul_core.rl.extra import missing_rl_extra
    raise missing_rl_extra(missing) from None

from azul_core.engine.draws import Drawn
from azul_core.engine.state import (
    CHOICES_IN_A_ROW,
    DEAL,
    DRAW,
    IDLE_TURNS_PER_SEAT,
    OVER,
    GameState,
    IllegalDecision,
    letters,
)
from azul_core.records.game_record import write_record
from azul_core.rl import encoding
from azul_core.rl.game import MAX_ROUNDS, build_record, check_players, check_reward, final_returns, load

SHORT_NAME = "python_azul"
DEFAULTS = {"variant": "standard", "players": 2, "reward": "score", "max_rounds": MAX_ROUNDS,
            "memory_size": encoding.MEMORY_SIZE}
#: Final returns lie within these bounds with reward="score" (no variant comes near).
SCORE_BOUND = 1000.0
#: The outcomes of the opening chance node (who starts, the plugins' secrets): seeds
#: 0 .. OPENING_SEEDS - 1.
OPENING_SEEDS = 1000
#: The same seeds, by the name they had when the opening dealt only secrets.
SECRET_DEALS = OPENING_SEEDS


def _game_type(information) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Azul (any variant of azul-variants)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=9,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


#: Registered: perfect information. A variant that deals secrets or has a phase chosen at
#: once, in secret, loads as a game whose own type says imperfect information
#: (``game.get_type()``; ``hidden_from_others``).
_GAME_TYPE = _game_type(pyspiel.GameType.Information.PERFECT_INFORMATION)
_SECRET_GAME_TYPE = _game_type(pyspiel.GameType.Information.IMPERFECT_INFORMATION)


def hidden_from_others(rules) -> bool:
    """Whether a seat of ``rules``' games may know what another does not: a secret dealt to it
    (``azul_deal_secrets``), or its choice in a phase chosen at once before every seat has
    chosen (``Phase.at_once``)."""
    return rules.deals_secrets or encoding.chosen_at_once(rules)


def max_decisions(rules, players: int, tiles_per_round: int, max_rounds: int, all_tiles: int = 0) -> int:
    """A bound on the players' decisions in a game of ``max_rounds`` rounds (OpenSpiel's
    ``max_game_length``). A draft takes at least one tile, and each tile reaches a wall at
    most once; plugin moves come between drafts, as many as the engine's limits on them (so
    that no rule can stall a round) let them: a turn's moves, the choices after a draft, and
    a phase's, at most ``CHOICES_IN_A_ROW`` in a row per seat. (A phase whose transfers
    deal tiles onto the table again makes more drafts than this counts.)

    A variant whose plugins offer moves may draw tiles from the bag onto the table mid-round
    (``rules.Draw``): its rounds are counted as drafting every tile of the game
    (``all_tiles``; a draw takes them from the bag and lid, which get none back before the
    round's end but through a plugin's transfers) rather than one fill's."""
    moves = CHOICES_IN_A_ROW * players  # one phase: each seat's choices in a row
    turns_per_draft = 1
    decisions_per_draft = 1
    if rules.offers_moves:
        tiles_per_round = max(tiles_per_round, all_tiles)
        turns_per_draft += IDLE_TURNS_PER_SEAT * players
        decisions_per_draft += CHOICES_IN_A_ROW + IDLE_TURNS_PER_SEAT * players
    if "after_turn" in rules.phases:
        decisions_per_draft += turns_per_draft * moves
    per_round = (decisions_per_draft + 1) * tiles_per_round
    per_round += moves * sum(stage in rules.phases for stage in ("round_start", "round_end"))
    at_the_end = moves if "game_end" in rules.phases else 0
    return max_rounds * per_round + at_the_end


class AzulGame(pyspiel.Game):
    """``python_azul``: one variant for a number of players."""

    def __init__(self, params=None):
        params = {**DEFAULTS, **(params or {})}
        rules, ref = load(params["variant"])
        players = params["players"]
        check_players(rules, players)
        check_reward(params["reward"])
        memory_size = encoding.check_memory_size(params["memory_size"])
        start = GameState(rules, players)
        encoding.check_table(start)
        table = start.table
        tiles_per_round = table.factories * table.tiles_per_factory
        max_rounds = int(params["max_rounds"])
        if params["reward"] == "win":
            low, high = -1.0 / (players - 1), 1.0
        else:
            low, high = -SCORE_BOUND, SCORE_BOUND
        # Who starts (where the variant draws it) and the secrets: one opening chance node.
        # Its outcomes count in max_chance_outcomes; OpenSpiel's max_game_length counts the
        # players' decisions only.
        opens = rules.deals_secrets or rules.first_player is not None
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions(rules),
            max_chance_outcomes=max(OPENING_SEEDS, start.kinds) if opens else start.kinds,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=max_decisions(rules, players, tiles_per_round, max_rounds,
                                          all_tiles=len(start.bag) + sum(start.lid)),
        )
        super().__init__(_SECRET_GAME_TYPE if hidden_from_others(rules) else _GAME_TYPE, info, params)
        self.rules = rules
        self.memory_size = memory_size
        self.variant_ref = ref
        self.reward = params["reward"]
        self.max_rounds = max_rounds
        self.start = start
        #: whether the game starts with the opening chance node (see the module's docstring)
        self.opens = opens
        self._deals: list[dict] | None = None
        self._seats: list[int] | None = None

    def secret_deals(self) -> list[dict]:
        """The secrets each outcome of the opening chance node deals (by seed), worked out once."""
        if self._deals is None:
            deals = []
            for seed in range(OPENING_SEEDS):
                state = self.start.clone()
                state.deal_secrets(random.Random(seed))
                deals.append(state.secrets)
            self._deals = deals
        return self._deals

    def opening_seats(self) -> list[int]:
        """The seat each outcome of the opening chance node starts round 1 with (by seed),
        worked out once: ``rules.opening_seat`` (0 each where the variant has no such rule)."""
        if self._seats is None:
            players = self.num_players()
            self._seats = [self.rules.opening_seat(players, seed) for seed in range(OPENING_SEEDS)]
        return self._seats

    def new_initial_state(self):
        return AzulState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return AzulObserver(self, iig_obs_type)


class _Episode:
    """The engine state and what happened so far (for records), copied cheaply.

    OpenSpiel clones a Python state by deep-copying its attributes: this one
    copies with the engine's ``clone()`` and shares the history, which is
    never changed in place, only extended into a new tuple chain.
    """

    __slots__ = ("game", "state", "drawn", "draws_left", "draw_count", "pool_now", "bag_size",
                 "per_group", "for_rule", "events", "opening", "opening_seat")

    def __init__(self, game: AzulGame):
        self.game = game
        self.state = game.start.clone()
        self.opening = False  # the opening chance node (who starts, the secrets) is next
        self.opening_seat = 0  # the seat that started round 1
        #: the tiles drawn so far, by kind, per group: the factories being filled, or the one
        #: group of a rule's draw (``for_rule``); None while nothing is being drawn
        self.drawn: list[list[int]] | None = None
        self.draws_left = 0
        self.draw_count = 0  # tiles drawn so far in this fill or rule's draw
        self.pool_now: list[int] = []  # what the next tile is drawn from, by kind of tile
        self.bag_size = 0  # the bag's tiles when the fill or the rule's draw started
        self.per_group = 1  # the tiles a group takes: a factory's, or the rule's draw's count
        self.for_rule = False  # the tiles being drawn are a rule's draw (phase DRAW), not a fill
        #: (previous events, event): ("opening", seed), ("fill", counts per factory),
        #: ("act", decision) or ("drawn", counts: what a rule's draw brought)
        self.events = None

    def __deepcopy__(self, memo):
        other = _Episode.__new__(_Episode)
        other.game = self.game
        other.state = self.state.clone()
        other.drawn = None if self.drawn is None else [f[:] for f in self.drawn]
        other.draws_left = self.draws_left
        other.draw_count = self.draw_count
        other.pool_now = self.pool_now[:]
        other.bag_size = self.bag_size
        other.per_group = self.per_group
        other.for_rule = self.for_rule
        other.events = self.events
        other.opening = self.opening
        other.opening_seat = self.opening_seat
        return other

    def __reduce__(self):
        # Serialised as the game's parameters, the events and the tiles of a fill or a rule's
        # draw under way (counts per kind of tile per group), then replayed through the engine
        # (``redraw``).
        drawn = [f[:] for f in self.drawn] if self.drawn is not None else []
        return (_rebuild, (self.game.get_parameters(), self.history(), drawn))

    def history(self) -> list[tuple]:
        """The events so far, oldest first."""
        events = []
        node = self.events
        while node is not None:
            node, event = node
            events.append(event)
        events.reverse()
        return events

    def log(self, event) -> None:
        self.events = (self.events, event)

    # ------------------------------------------------------------ chance

    def begin(self) -> None:
        """The game's first chance node: the opening where the variant draws who starts or
        deals secrets, else the first fill."""
        if self.game.opens:
            self.opening = True
        else:
            self.start_fill()

    def open(self, seed: int) -> None:
        """The opening chance node's outcome ``seed``: who starts round 1, and the secrets."""
        if not 0 <= seed < OPENING_SEEDS:
            raise ValueError(f"the game opens with a seed from 0 to {OPENING_SEEDS - 1}, not {seed}")
        state = self.state
        if self.game.rules.first_player is not None:
            self.opening_seat = state.first_player = state.current = self.game.opening_seats()[seed]
        state.deal_secrets(random.Random(seed))
        self.opening = False
        self.log(("opening", seed))
        self.start_fill()

    def start_fill(self) -> None:
        """At a round's start: the fill's chance nodes (all of bag and lid at most)."""
        table = self.state.table
        self.start_drawing(table.factories, table.tiles_per_factory, for_rule=False)

    def start_rule_draw(self) -> None:
        """Phase DRAW: the chance nodes of the first waiting draw of a rule (``rules.Draw``)."""
        count = self.state.drawing[0][2].count
        self.start_drawing(1, count, for_rule=True)

    def start_drawing(self, groups: int, per_group: int, for_rule: bool) -> None:
        """Draw ``groups`` times ``per_group`` tiles, tile by tile (all of bag and lid at most)."""
        state = self.state
        self.bag_size = len(state.bag)
        self.draws_left = min(self.bag_size + sum(state.lid), groups * per_group)
        self.draw_count = 0
        self.per_group = per_group
        self.for_rule = for_rule
        self.drawn = [[0] * state.kinds for _ in range(groups)]
        self.pool_now = encoding.bag_counts(state)
        if not self.bag_size:
            self.pool_now = state.lid[:]
        if not self.draws_left:
            self.finish_drawing()

    def pool(self) -> list[int]:
        """Counts per kind of tile the next tile is drawn from: the bag, or once it is drawn
        out, the lid poured in."""
        return self.pool_now

    def draw(self, kind: int) -> None:
        if not 0 <= kind < len(self.pool_now):
            raise ValueError(f"no kind of tile {kind} (0 to {len(self.pool_now) - 1})")
        if not self.pool_now[kind]:
            raise ValueError(f"no {self.state.table.kind_names[kind]} tile is left to draw")
        self.drawn[self.draw_count // self.per_group][kind] += 1
        self.draw_count += 1
        self.draws_left -= 1
        self.pool_now[kind] -= 1
        if self.draw_count == self.bag_size:  # the bag is empty: the lid is poured in
            self.pool_now = [a + b for a, b in zip(self.pool_now, self.state.lid)]
        if not self.draws_left:
            self.finish_drawing()

    def redraw(self, fills) -> None:
        """Draw the tiles of ``fills`` (counts per kind per factory, factory 1 first; or a
        rule's draw, one group) again.

        The order of the draws within a factory is not kept, and not every order can be
        drawn: when the bag runs out in the middle of a factory, the tiles drawn before came
        from the bag and the others from the lid poured in. Since the bag is drawn out before
        the lid is poured in, its last tiles are all among that factory's: drawing, tile by
        tile, a kind both the factory and the pool still hold always finds one.
        """
        kinds = range(self.state.kinds)
        for counts in fills:
            left = list(counts)
            for _ in range(sum(left)):
                pool = self.pool_now  # a new list once the lid is poured in
                kind = next(k for k in kinds if left[k] and pool[k])
                left[kind] -= 1
                self.draw(kind)

    def finish_drawing(self) -> None:
        """The tiles are drawn: the engine lays them, and the game goes on."""
        fills = self.drawn
        assert fills is not None
        self.drawn = None
        state = self.state
        if self.for_rule:
            tiles = tuple(fills[0])
            state.apply(Drawn(tiles, state.table.kind_letters))
            self.log(("drawn", tiles))
        else:
            state.deal_tiles(fills)
            self.log(("fill", tuple(tuple(f) for f in fills)))
        self.after_move()

    def apply(self, decision: tuple) -> None:
        self.state.apply(decision)
        self.log(("act", decision))
        self.after_move()

    def after_move(self) -> None:
        """The chance nodes that come next, if any: a rule's draw, or the next round's fill."""
        state = self.state
        if state.phase == DRAW:
            self.start_rule_draw()
        elif state.phase == DEAL and state.round <= self.game.max_rounds:
            self.start_fill()

    @property
    def cut_short(self) -> bool:
        return self.state.phase == DEAL and self.state.round > self.game.max_rounds

    def rounds(self) -> list[tuple[list, list]]:
        """Per round: the factory fills and the actions taken, a rule's draws among them (what
        a record holds)."""
        rounds: list[tuple[list, list]] = []
        kind_letters = self.state.table.kind_letters
        for kind, value in self.history():
            if kind == "fill":
                rounds.append(([list(f) for f in value], []))
            elif kind == "act":
                rounds[-1][1].append(value)
            elif kind == "drawn":
                rounds[-1][1].append(Drawn(value, kind_letters))
        return rounds


def _rebuild(params, events, drawn):
    game = pyspiel.load_game(SHORT_NAME, params)
    episode = _Episode(game)
    episode.begin()
    for kind, value in events:
        if kind == "act":
            episode.apply(value)
        elif kind == "opening":
            episode.open(value)
        elif episode.drawn is not None:  # a fill, or a rule's draw: its tiles drawn again
            episode.redraw(value if kind == "fill" else [value])  # (an empty one makes itself)
    episode.redraw(drawn)
    return episode


class AzulState(pyspiel.State):
    """A position: a chance node while the factories are filled or a rule draws tiles from the
    bag, else the engine's ``to_move`` decides."""

    def __init__(self, game: AzulGame):
        super().__init__(game)
        self.episode = _Episode(game)
        self.episode.begin()

    @property
    def engine_state(self) -> GameState:
        """The engine's ``GameState`` (read it, don't change it)."""
        return self.episode.state

    def current_player(self):
        episode = self.episode
        if episode.drawn is not None or episode.opening:
            return pyspiel.PlayerId.CHANCE
        if episode.state.phase == OVER or episode.cut_short:
            return pyspiel.PlayerId.TERMINAL
        return episode.state.to_move

    def _legal_actions(self, player):
        if player != self.current_player():
            return []
        return encoding.legal_actions(self.episode.state)

    def chance_outcomes(self):
        if self.episode.opening:
            return [(seed, 1 / OPENING_SEEDS) for seed in range(OPENING_SEEDS)]
        pool = self.episode.pool()
        total = sum(pool)
        return [(kind, count / total) for kind, count in enumerate(pool) if count]

    def _apply_action(self, action):
        episode = self.episode
        if episode.opening:
            episode.open(int(action))
        elif episode.drawn is not None:
            episode.draw(int(action))
        else:
            episode.apply(encoding.decode(int(action), episode.state))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            names = self.episode.state.table.kind_names
            if self.episode.opening or not 0 <= action < len(names):
                return self._opening_name(action)
            if self.episode.for_rule and self.episode.drawn is not None:
                return f"draw {names[action]} onto {self.episode.state.drawing[0][2].target}"
            return f"draw {names[action]}"
        rules = self.episode.game.rules
        shape = encoding.board_shape(rules)
        if shape.place_base <= action < shape.move_base:
            state = self.episode.state
            row = state.placing[1] if state.placing is not None else None
            return f"w{'?' if row is None else row + 1}:{action - shape.place_base + 1}"
        return encoding.action_name(action, rules)

    def _opening_name(self, seed) -> str:
        game = self.episode.game
        text = f"deal the secrets with seed {seed}" if game.rules.deals_secrets else f"open with seed {seed}"
        if game.rules.first_player is not None and 0 <= seed < OPENING_SEEDS:
            text += f": seat {game.opening_seats()[seed]} starts"
        return text

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` can't tell from this one, drawn at random (what OpenSpiel's
        ``ISMCTSBot`` searches): the other seats' secrets dealt again by a seed drawn among
        those that deal ``player_id`` its own secrets and under which every action taken so
        far is still legal, uniformly (the odds of the chance node, whatever the players'
        policies); where the variant draws who starts, only seeds that start with the seat
        that did (everybody saw it). In a phase chosen at once, each other seat's sealed
        choice is drawn again, uniformly among the moves it was offered (the player's own is
        kept). ``probability_sampler()`` gives numbers in [0, 1). When the player knows
        everything (no secrets and no other seat's sealed choice, or the game is over): a
        clone."""
        state = self.episode.state
        unseen = [seat != player_id for seat, _move in state.sealed]
        if state.phase == OVER or not (state.secrets or any(unseen)):
            return self.clone()
        game = self.get_game()
        history = self.history()
        # The sealed choices are the last actions: a phase chosen at once draws no tile.
        redrawn = {len(history) - len(unseen) + index for index, hidden in enumerate(unseen) if hidden}
        seeds: list = [None]  # the secrets as they are (none are dealt)
        if state.secrets:
            own = {plugin: values[player_id] for plugin, values in state.secrets.items()}
            seats = game.opening_seats()
            seeds = [seed for seed, secrets in enumerate(game.secret_deals())
                     if seats[seed] == self.episode.opening_seat
                     and all(secrets[plugin][player_id] == value for plugin, value in own.items())]
        while seeds:
            seed = seeds.pop(min(int(probability_sampler() * len(seeds)), len(seeds) - 1))
            world = game.new_initial_state()
            try:
                for index, action in enumerate(history):
                    if index == 0 and seed is not None:
                        action = seed
                    elif index in redrawn:
                        offered = world.legal_actions()
                        action = offered[min(int(probability_sampler() * len(offered)), len(offered) - 1)]
                    world.apply_action(action)
            except (IllegalDecision, ValueError):  # a move taken was legal only with the true secrets
                continue
            return world
        # Never reached: the true deal is among the seeds, and a sealed choice drawn again
        # can't make a later one illegal (no plugin sees another seat's sealed choice).
        raise AssertionError("no deal of the secrets is consistent with the game, not even its own")

    def is_terminal(self):
        episode = self.episode
        return episode.drawn is None and not episode.opening and \
            (episode.state.phase == OVER or episode.cut_short)

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self.episode.state.num_players
        game = self.episode.game
        return final_returns(self.episode.state, game.reward)

    def record(self, path=None, names=None) -> dict:
        """The game so far as an ``azul-record/1`` record (a dict); with ``path``, also written
        there. ``azul validate`` replays it (add ``--variant FILE`` for a variant file, which
        the record names by its path relative to the record's folder: ``path``'s, else the
        current one). ``names``: the players' names (default ``player_0``...)."""
        episode = self.episode
        state = episode.state
        names = names or [f"player_{seat}" for seat in range(state.num_players)]
        folder = Path(path).parent if path is not None else None
        data = build_record(episode.game.variant_ref, names, None, episode.rounds(), state, folder,
                            first_player=episode.opening_seat)
        if path is not None:
            write_record(path, data, durable=False)
        return data

    def __str__(self):
        """The whole position, every seat's secrets included (an observer's view is
        ``observation_string``)."""
        episode = self.episode
        state = episode.state
        text = encoding.observation_text(state, 0)
        if episode.opening:
            rules = episode.game.rules
            text += "\nthe secrets are to be dealt" if rules.deals_secrets else "\nthe first player is to be drawn"
        if episode.drawn is not None:
            drawn = " ".join(letters(f, state.table.kind_letters) or "-" for f in episode.drawn)
            if episode.for_rule:
                owner, _seat, draw = state.drawing[0]
                text += f"\n{owner} draws onto {draw.target}: {drawn} ({episode.draws_left} to draw)"
            else:
                text += f"\nfilling: {drawn} ({episode.draws_left} to draw)"
        for plugin, values in state.secrets.items():
            text += f"\nsecrets {plugin}: {values!r}"
        text += _sealed_text(state)
        return text + f"\nfirst player {state.first_player}, pending {state.pending}"


class AzulObserver:
    """OpenSpiel's observer: ``tensor`` is ``azul_core.rl.encoding.observation`` of the state
    as ``player`` sees it; ``dict`` splits it by ``observation_layout``.

    Secrets and the sealed choices of a phase chosen at once follow
    ``iig_obs_type.private_info``: ``SINGLE_PLAYER`` (the observation and the information
    state) shows ``player`` its own, ``NONE`` (a public observer) none, ``ALL_PLAYERS``: the
    string lists every seat's (the tensor, laid out per viewer, holds ``player``'s).
    Everything else is public. The information state is the observation, not a history: the
    position holds all that matters from the past (memory, and the player's own sealed
    choice, included).
    """

    def __init__(self, game: AzulGame, iig_obs_type=None):
        players = game.num_players()
        private = iig_obs_type.private_info if iig_obs_type is not None else pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.private = private
        self.memory_size = game.memory_size
        layout = encoding.observation_layout(players, game.rules, game.memory_size)
        self.tensor = np.zeros(encoding.observation_size(players, game.rules, game.memory_size), np.float32)
        self.dict = {name: self.tensor[start:start + size] for name, start, size in layout}

    def _seen(self, state, player):
        """The engine state as this observer may know it."""
        engine = state.episode.state
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return engine.for_seat(player)
        if self.private == pyspiel.PrivateInfoType.NONE:
            return engine.for_seat(None)
        return engine

    def set_from(self, state, player):
        self.tensor[:] = encoding.observation(self._seen(state, player), player, memory_size=self.memory_size)

    def string_from(self, state, player):
        seen = self._seen(state, player)
        text = encoding.observation_text(seen, player)
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            for plugin, values in seen.secrets.items():
                text += f"\nsecrets {plugin}: {values!r}"
            text += _sealed_text(seen)
        return text


def _sealed_text(state) -> str:
    """Every seat's sealed choice in a phase chosen at once (the whole game's view)."""
    if not state.sealed:
        return ""
    return "\nsealed choices: " + ", ".join(f"seat {seat} {move.notation}" for seat, move in state.sealed)


pyspiel.register_game(_GAME_TYPE, AzulGame)
