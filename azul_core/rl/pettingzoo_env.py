"""Any variant as a PettingZoo AEC environment: ``azul_core.rl.env(variant="grey-wall", players=3)``.

Agents are ``player_0`` .. ``player_{n-1}`` (seat order). Seat 0 starts round 1,
unless the variant draws the first player (``azul_first_player``, as
examples/seeded-start does): then ``reset(seed=s)`` starts with
``rules.opening_seat(players, s)`` (the seat ``azul play --seed s`` starts
with), and an unseeded ``reset()`` draws that seed from the environment's own
generator. The agent to act is the engine's ``to_move``: the drafter, or in
variants where the player chooses a wall column (grey wall), the seat whose
tile is placed. The factories are filled inside the environment from its
seeded generator, so after ``reset(seed=s)`` the game is a function of ``s``
and the actions.

Each observation is ``{"observation": float32 vector, "action_mask": int8
vector}`` (see ``azul_core.rl.encoding``). An action outside the mask is
refused with ``ValueError``: the engine's legal decisions are the only moves.

The spaces follow the variant's board: n colours (an n x n wall, n pattern
lines) give ``encoding.board_shape(rules).move_base`` actions (305 on the
standard board of 5) and observation blocks sized by n. A variant's plugin
moves (a pass, a choice after a draft) are actions after those; its plugins'
memory and the agent's own secrets are numbers after the boards. An agent's
observation holds its own secret and never another seat's (the encoding
reads them through the engine's ``seen_secrets``, as
``GameState.for_seat(seat)`` does).

A phase of choices a plugin adds (``rules.Phase``) is played as the engine asks
it: each seat's choice is an action of that seat's agent, in turn. A phase
chosen at once, in secret, is played the same way, as hidden sequential
choices (this is an AEC environment: no parallel API): until every seat has
chosen, an agent's observation shows which seats have chosen and its own
choice, never another seat's (``encoding.seen_choices``).
"""

from __future__ import annotations

import random
from pathlib import Path

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ModuleNotFoundError as missing:
    from azul_core.rl.extra import missing_rl_extra
    raise missing_rl_extra(missing) from None

from azul_core.engine.state import CHOOSE, DEAL, DRAW, OVER, GameState, IllegalDecision
from azul_core.records.game_record import write_record
from azul_core.rl import encoding
from azul_core.rl.game import (
    MAX_ROUNDS,
    build_record,
    check_players,
    check_reward,
    load,
    score_differences,
    win_returns,
)
from azul_core.rules import Move

REWARDS = ("score", "round", "win")


def env(variant: str | Path = "standard", players: int = 2, **options) -> AECEnv:
    """The environment of ``variant`` (a built-in name or a variant file) for ``players``.

    It checks the order of calls itself (``step``, ``observe`` and ``agent_iter`` before
    ``reset`` are clear errors, as is an action outside the mask), so it comes without
    PettingZoo's ``OrderEnforcingWrapper``, whose attribute forwarding costs more than a
    third of each step; wrap it if a tool expects the wrapper.
    """
    return AzulEnv(variant, players, **options)


class AzulEnv(AECEnv):
    """One game of a variant at a time; see the module's docstring.

    ``reward``: ``"score"`` (default) gives each agent, when the game ends, its
    final score minus the mean of the others' (with 2 players, the score
    difference); ``"round"`` gives the change of that difference after every
    round (they add up to the same total); ``"win"`` gives +1 / -1 (0 each for a
    shared victory, as the variant decides winners; with n players
    (n * share - 1) / (n - 1)). A game still going after ``max_rounds`` rounds
    (a house rule that never ends) is truncated, without a final reward.

    ``memory_size``: how many numbers of the observation each plugin's memory and the
    agent's own secret of each plugin take (``encoding.value_numbers``); only variants
    whose plugins keep memory or deal secrets have them.
    """

    metadata = {"name": "azul_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, variant: str | Path = "standard", players: int = 2, reward: str = "score",
                 max_rounds: int = MAX_ROUNDS, render_mode: str | None = None,
                 memory_size: int = encoding.MEMORY_SIZE):
        super().__init__()
        check_reward(reward, REWARDS)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}")
        self.rules, self.variant_ref = load(variant)
        check_players(self.rules, players)
        self.reward_mode = reward
        self.max_rounds = max_rounds
        self.render_mode = render_mode
        self.memory_size = encoding.check_memory_size(memory_size)
        self._start = GameState(self.rules, players)
        encoding.check_table(self._start)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = encoding.observation_size(players, self.rules, self.memory_size)
        #: the actions: the board's drafts and placements (305 on the standard board), and one
        #: per plugin move the variant declares
        self.num_actions = encoding.num_actions(self.rules)
        # [-1000, 1000], or up to the greatest count of tiles where a kind has more than 1000
        high = encoding.observation_high(players, self.rules, self.memory_size)
        space = spaces.Dict({
            "observation": spaces.Box(encoding.OBS_LOW, high, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
        })
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        action_space = spaces.Discrete(self.num_actions)
        self.action_spaces = {agent: action_space for agent in self.possible_agents}
        self._rng = random.Random()
        self._no_mask = np.zeros(self.num_actions, np.int8)
        self._encoder = encoding.StepEncoder(self.rules, players, self.memory_size)
        #: the drafts by action number (``encoding.decode`` without its arithmetic)
        self._drafts = encoding.board_shape(self.rules).drafts
        self._place_base = encoding.board_shape(self.rules).place_base
        self.game: GameState | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------ the game

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.reset_seed = seed
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.game = self._start.clone()
        #: the seat that started round 1 (the record's ``first_player``)
        self.opening_seat = 0
        if self.rules.first_player is not None:  # the variant draws who starts
            # Unseeded, from the generator (which never sees it otherwise: every other
            # variant's games stay as they were).
            opening = seed if seed is not None else self._rng.randrange(2 ** 32)
            self.opening_seat = self.rules.opening_seat(len(self.possible_agents), opening)
            self.game.first_player = self.game.current = self.opening_seat
        self._rounds: list[tuple[list, list]] = []
        self._differences = [0.0] * len(self.agents)
        self._scored_rounds = 0
        self._paid = False
        self._legal_at = -1
        self._mask = (-1, None)  # (step, the action mask offered then)
        self._legal: list[tuple] = []
        self.steps = 0
        self._deal()
        self.agent_selection = self.possible_agents[self.game.to_move]

    def _deal(self) -> None:
        """Fill the factories (the chance event) and note the fill for the record."""
        state = self.game
        state.deal(self._rng)
        # The bag changes when the factories are filled, and by a plugin's move (``step``).
        self._bag = encoding.bag_counts(state)
        #: the decisions (and rule draws) of the round under way, in the record's order
        self._moves: list = []
        self._rounds.append(([source[:] for source in state.sources[1:]], self._moves))

    def _legal_decisions(self) -> list[tuple]:
        if self._legal_at != self.steps:
            self._legal = self.game.legal_decisions()
            self._legal_at = self.steps
        return self._legal

    def _check_reset(self, doing: str) -> None:
        if self.game is None:
            raise RuntimeError(f"reset() the environment before {doing}")

    def agent_iter(self, max_iter: int = 2**63):
        self._check_reset("agent_iter()")
        return super().agent_iter(max_iter)

    def last(self, observe: bool = True):
        # PettingZoo's, one call shorter: an agent loop calls it at every step
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def observe(self, agent):
        state = self.game
        if state is None:
            self._check_reset("observe()")
        # Of the secrets and the sealed choices of a phase chosen at once, the encoding reads
        # the seat's own only (seen_secrets, seen_choices: what state.for_seat(seat) does,
        # without copying the whole state: that copy cost half as much again as a step).
        vector, legal = self._encoder.encode(state, self._seat[agent], self._bag, agent == self.agent_selection
                                             and state.phase != OVER and not self.truncations[agent])
        if legal is None:
            return {"observation": vector, "action_mask": self._no_mask.copy()}
        self._mask = (self.steps, legal)
        # a copy of its own: the agent may write to its mask
        return {"observation": vector, "action_mask": np.frombuffer(bytearray(legal), np.int8)}

    def step(self, action) -> None:
        if self.game is None or not self.agents:
            self._check_reset("step()")
            raise RuntimeError("the game is over and every agent has stepped out: reset() the environment")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game
        action = int(action)
        if not 0 <= action < self.num_actions:
            raise ValueError(f"{agent}: action {action} is outside the action space "
                             f"(0 to {self.num_actions - 1})")
        decision = self._drafts[action] if action < self._place_base else encoding.decode(action, state)
        steps, mask = self._mask
        legal = mask[action] if steps == self.steps else decision in self._legal_decisions()
        if not legal:
            raise ValueError(f"{agent}: action {action} ({encoding.action_name(action, self.rules)}) "
                             f"is not legal now: {self._why_not(decision)}")
        self._cumulative_rewards[agent] = 0
        if self._paid:  # rewards stay zero between payments: clear them only after one
            self._clear_rewards()
            self._paid = False
        state.apply(decision)
        self._moves.append(decision)
        phase = state.phase
        if phase == DRAW:  # a rule draws tiles from the bag: chance, drawn as the deals are
            while state.phase == DRAW:
                self._moves.append(state.draw(self._rng))
            phase = state.phase
        if isinstance(decision, Move):  # its outcome may carry tiles out of the bag or into it
            self._bag = encoding.bag_counts(state)
        self.steps += 1
        truncated = False
        if phase == DEAL:
            if state.round > self.max_rounds:
                self.truncations = dict.fromkeys(self.agents, True)
                truncated = True
            else:
                self._deal()
                phase = state.phase
        if self.reward_mode == "round":
            if len(state.round_scores) != self._scored_rounds or phase == OVER:
                self._scored_rounds = len(state.round_scores)
                self._pay(score_differences(state.scores()))
        if phase == OVER:
            if self.reward_mode == "score":
                self._pay(score_differences(state.scores()))
            elif self.reward_mode == "win":
                self._pay(win_returns(state))
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[(self._seat[agent] + 1) % len(self.agents)]
        elif truncated:
            self.agent_selection = self.possible_agents[(self._seat[agent] + 1) % len(self.agents)]
        else:
            self.agent_selection = self.possible_agents[state.to_move]
        if self._paid:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _pay(self, differences: list[float]) -> None:
        """Reward each agent with the change of its return since the last payment."""
        for agent, now, before in zip(self.possible_agents, differences, self._differences):
            self.rewards[agent] = now - before
        self._differences = differences
        self._paid = True

    def _why_not(self, decision: tuple | Move) -> str:
        state = self.game
        if not isinstance(decision, Move) and len(decision) == 2 and state.phase != CHOOSE:
            return "no wall tile is being placed" if state.placing is None else \
                f"the legal wall columns are {', '.join(str(c + 1) for c in state.placing[2])}"
        try:
            probe = state.clone()
            probe.apply(decision)
        except IllegalDecision as exc:
            return str(exc)
        return "the variant sends such a draft to the floor: use the floor action"

    # ------------------------------------------------------------ extras

    def record(self, path: str | Path | None = None, names: list[str] | None = None) -> dict:
        """The game so far as an ``azul-record/1`` record (a dict); with ``path``, also written
        there (``azul validate PATH`` checks it; add ``--variant FILE`` for a variant file).
        A variant file is named by its path relative to the record's folder (``path``'s, else
        the current one). ``names``: the players' names (default the agents' names)."""
        if self.game is None:
            raise RuntimeError("reset() the environment before asking for its record")
        data = build_record(self.variant_ref, names or self.possible_agents, self.reset_seed,
                            self._rounds, self.game, Path(path).parent if path is not None else None,
                            first_player=self.opening_seat)
        if path is not None:
            write_record(path, data, durable=False)
        return data

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        # As a watcher sees it: no seat's secret until the game is over.
        text = encoding.observation_text(self.game.for_seat(None), 0)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return f"azul_v0({self.rules.name}, {len(self.possible_agents)} players)"
