"""The PettingZoo environment's steps, compiled with the engine (``azul_core.engine.compiled``).

``AzulEnv`` (``azul_core.rl.pettingzoo_env``) is ``class AzulEnv(EnvSteps, AECEnv)``: its
``step``, ``last`` and ``observe``, which an agent loop calls at every step, are this class's,
so that with ``pip install .`` they run as native code beside the engine and the encoding
(bench/README.md, "RL adapters", has what a step costs). Everything else of the
environment (its spaces, ``reset``, records, rendering) stays in ``pettingzoo_env``; this
class holds no state of its own beyond the attributes ``AzulEnv`` sets, declared here so
that compiled code reads them directly. The same source runs as Python in a pure build.
"""

from __future__ import annotations

import random
from typing import Any, Final, Iterator, final

from mypy_extensions import mypyc_attr

try:
    import numpy as np
except ModuleNotFoundError as missing:
    from azul_core.rl.extra import missing_rl_extra
    raise missing_rl_extra(missing) from None

from azul_core.engine.state import CHOOSE, DEAL, DRAW, OVER, GameState, IllegalDecision
from azul_core.rl import encoding
from azul_core.rl.game import score_differences, win_returns
from azul_core.rules import Move

_INT8: Final = np.dtype(np.int8)


@mypyc_attr(allow_interpreted_subclasses=True)
class EnvSteps:
    """The per-step methods of the PettingZoo environment (see the module's docstring).

    The methods these call are ``final``: compiled, such a call goes straight to the method,
    where one that a subclass may override is looked up at every call."""

    # PettingZoo's own attributes
    agents: list[str]
    possible_agents: list[str]
    agent_selection: str
    rewards: dict[str, float]
    _cumulative_rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict]
    # the environment's
    game: GameState | None
    num_actions: int
    reward_mode: str
    max_rounds: int
    render_mode: str | None
    steps: int
    _seat: dict[str, int]
    _encoder: encoding.StepEncoder
    _drafts: tuple
    _place_base: int
    _no_mask: Any
    _rng: random.Random
    _bag: list[int]
    _moves: list[Any]
    _rounds: list[tuple[list, list]]
    _mask: tuple[int, bytes]
    _legal: list[Any]
    _legal_at: int
    _differences: list[float]
    _scored_rounds: int
    _paid: bool

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agent to act, until every agent has stepped out (or ``max_iter`` steps): as
        PettingZoo's ``AECIterable``, without its Python ``__next__`` at every step."""
        if self.game is None:
            raise RuntimeError("reset() the environment before agent_iter()")
        return self._agents_in_turn(max_iter)

    @final
    def _agents_in_turn(self, max_iter: int) -> Iterator[str]:
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def last(self, observe: bool = True) -> tuple:
        # PettingZoo's, one call shorter: an agent loop calls it at every step
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    @final
    def observe(self, agent: str) -> dict[str, Any]:
        state = self.game
        if state is None:
            raise RuntimeError("reset() the environment before observe()")
        # Of the secrets and the sealed choices of a phase chosen at once, the encoding reads
        # the seat's own only (seen_secrets, seen_choices: what state.for_seat(seat) does,
        # without copying the whole state: that copy cost half as much again as a step).
        acting = agent == self.agent_selection and state.phase != OVER and not self.truncations[agent]
        vector, legal = self._encoder.encode(state, self._seat[agent], self._bag, acting)
        if legal is None:
            return {"observation": vector, "action_mask": self._no_mask.copy()}
        self._mask = (self.steps, legal)
        # a copy of its own: the agent may write to its mask
        return {"observation": vector, "action_mask": np.frombuffer(bytearray(legal), _INT8)}

    def step(self, action: Any) -> None:
        state = self.game
        if state is None or not self.agents:
            if state is None:
                raise RuntimeError("reset() the environment before step()")
            raise RuntimeError("the game is over and every agent has stepped out: reset() the environment")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            # AECEnv's, found at run time: this class can't declare it without hiding it
            getattr(self, "_was_dead_step")(action)  # noqa: B009
            return
        action = int(action)
        if not 0 <= action < self.num_actions:
            raise ValueError(f"{agent}: action {action} is outside the action space "
                             f"(0 to {self.num_actions - 1})")
        decision = self._drafts[action] if action < self._place_base else encoding.decode(action, state)
        steps, mask = self._mask
        legal = mask[action] if steps == self.steps else decision in self._legal_decisions()
        if not legal:
            raise ValueError(f"{agent}: action {action} ({encoding.action_name(action, state.rules)}) "
                             f"is not legal now: {self._why_not(decision)}")
        self._cumulative_rewards[agent] = 0
        if self._paid:  # rewards stay zero between payments: clear them only after one
            for name in self.rewards:
                self.rewards[name] = 0
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
            for name, reward in self.rewards.items():
                self._cumulative_rewards[name] += reward
        if self.render_mode == "human":
            getattr(self, "render")()  # noqa: B009  (AzulEnv's, as _was_dead_step)

    @final
    def _deal(self) -> None:
        """Fill the factories (the chance event) and note the fill for the record."""
        state = self.game
        assert state is not None
        state.deal(self._rng)
        # The bag changes when the factories are filled, and by a plugin's move (``step``).
        self._bag = encoding.bag_counts(state)
        #: the decisions (and rule draws) of the round under way, in the record's order
        self._moves = []
        self._rounds.append(([source[:] for source in state.sources[1:]], self._moves))

    @final
    def _legal_decisions(self) -> list[Any]:
        if self._legal_at != self.steps:
            assert self.game is not None
            self._legal = self.game.legal_decisions()
            self._legal_at = self.steps
        return self._legal

    @final
    def _pay(self, differences: list[float]) -> None:
        """Reward each agent with the change of its return since the last payment."""
        for agent, now, before in zip(self.possible_agents, differences, self._differences):
            self.rewards[agent] = now - before
        self._differences = differences
        self._paid = True

    @final
    def _why_not(self, decision: Any) -> str:
        state = self.game
        assert state is not None
        if not isinstance(decision, Move) and len(decision) == 2 and state.phase != CHOOSE:
            return "no wall tile is being placed" if state.placing is None else \
                f"the legal wall columns are {', '.join(str(c + 1) for c in state.placing[2])}"
        try:
            probe = state.clone()
            probe.apply(decision)
        except IllegalDecision as exc:
            return str(exc)
        return "the variant sends such a draft to the floor: use the floor action"
