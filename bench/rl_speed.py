"""Steps per second through the RL adapters against the engine's own random playouts.

    pip install ".[rl]"
    python bench/rl_speed.py                 # 2 players, standard, grey-wall, duel (about a minute)
    python bench/rl_speed.py --json

Both builds count: ``pip install -e .`` runs the pure-Python engine and adapters, ``pip install .``
the compiled ones (mypyc: the engine and ``azul_core.rl.encoding``); the output names the build.

A step is one player decision (a draft or a wall placement); dealing the
factories is part of the cost of the steps around it. Every loop plays whole
seeded games with a uniformly random policy:

* engine: ``GameState.deal`` and ``apply_random`` (the random bot of ``azul simulate``);
* engine, listed: ``legal_decisions()`` then ``apply`` of a random one (what an agent
  that sees its moves costs the engine);
* pettingzoo: ``azul_core.rl.env``, ``last()``, a random legal action from the mask
  (``mask.nonzero()[0]``), ``step``; "+ wrapper": inside PettingZoo's
  ``OrderEnforcingWrapper``, as PettingZoo's own environments come;
* openspiel: ``python_azul`` through pyspiel: ``legal_actions()``, ``apply_action``; each
  tile of a factory fill is a chance node sampled from ``chance_outcomes()``.

CPU time of this process, best of ``--repeats`` interleaved runs. Figures:
bench/README.md, section "RL adapters".
"""

from __future__ import annotations

import argparse
import json
import random
import time

from azul_core.engine.compiled import engine_kind
from azul_core.engine.state import DEAL, OVER, GameState
from azul_core.rl.game import load


def engine_random(variant: str, players: int, games: int) -> tuple[int, float]:
    rules, _ref = load(variant)
    start = GameState(rules, players)
    rng = random.Random(1)
    steps = 0
    began = time.process_time()
    for _ in range(games):
        state = start.clone()
        while state.phase != OVER:
            if state.phase == DEAL:
                state.deal(rng)
            else:
                state.apply_random(rng.random)
                steps += 1
    return steps, time.process_time() - began


def engine_listed(variant: str, players: int, games: int) -> tuple[int, float]:
    rules, _ref = load(variant)
    start = GameState(rules, players)
    rng = random.Random(1)
    steps = 0
    began = time.process_time()
    for _ in range(games):
        state = start.clone()
        while state.phase != OVER:
            if state.phase == DEAL:
                state.deal(rng)
            else:
                decisions = state.legal_decisions()
                state.apply(decisions[int(rng.random() * len(decisions))])
                steps += 1
    return steps, time.process_time() - began


def pettingzoo(variant: str, players: int, games: int, wrapped: bool = False) -> tuple[int, float]:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    import azul_core.rl as rl
    env = rl.env(variant, players)
    if wrapped:
        env = OrderEnforcingWrapper(env)
    env.reset(seed=1)
    rng = random.Random(1)
    steps = 0
    began = time.process_time()
    for _ in range(games):
        env.reset()
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]  # np.flatnonzero's wrapper costs 0.8 us more
            env.step(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps, time.process_time() - began


def sample(outcomes: list[tuple[int, float]], pick: float) -> int:
    """The outcome that ``pick`` (uniform in [0, 1)) falls on."""
    for outcome, probability in outcomes:
        pick -= probability
        if pick < 0:
            return outcome
    return outcomes[-1][0]


def openspiel(variant: str, players: int, games: int) -> tuple[int, float]:
    import pyspiel

    import azul_core.rl.openspiel  # noqa: F401
    game = pyspiel.load_game("python_azul", {"variant": variant, "players": players})
    rng = random.Random(1)
    steps = 0
    began = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample(state.chance_outcomes(), rng.random()))
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(rng.random() * len(actions))])
                steps += 1
    return steps, time.process_time() - began


LOOPS = {
    "engine": engine_random,
    "engine, listed": engine_listed,
    "pettingzoo": pettingzoo,
    "pettingzoo + wrapper": lambda v, p, g: pettingzoo(v, p, g, wrapped=True),
    "openspiel": openspiel,
}


def breakdown(variant: str, players: int, positions: int = 300, repeats: int = 5) -> dict:
    """Microseconds per position, over positions of seeded random games (in the order played),
    of what a PettingZoo step does besides the engine's move: the plain encoding (list the
    legal decisions, make the mask, make the observation), and the environment's own
    (``encoding.StepEncoder``: the observation and the mask together, pieces kept between
    steps)."""
    from azul_core.rl import encoding
    rules, _ref = load(variant)
    rng = random.Random(2)
    states = []
    while len(states) < positions:
        state = GameState(rules, players)
        while state.phase != OVER and len(states) < positions:
            if state.phase == DEAL:
                state.deal(rng)
            else:
                states.append(state.clone())
                state.apply_random(rng.random)
    bags = [encoding.bag_counts(state) for state in states]
    decisions = [state.legal_decisions() for state in states]
    parts = {
        "legal decisions": lambda: [state.legal_decisions() for state in states],
        "mask": lambda: [encoding.mask_of(listed, rules) for listed in decisions],
        "observation": lambda: [encoding.observation(state, state.to_move, bag)
                                for state, bag in zip(states, bags)],
        "step encoder (both)": lambda: [step_encoder.encode(state, state.to_move, bag, True)
                                        for state, bag in zip(states, bags)],
    }
    best = {}
    for _ in range(repeats):
        step_encoder = encoding.StepEncoder(rules, players)
        for name, run in parts.items():
            began = time.process_time()
            run()
            best[name] = min(best.get(name, 1e9), (time.process_time() - began) / positions * 1e6)
    return {name: round(value, 1) for name, value in best.items()}


def measure(variant: str, players: int, games: int, repeats: int) -> dict:
    best: dict[str, float] = {}
    for _ in range(repeats):
        for name, loop in LOOPS.items():
            steps, seconds = loop(variant, players, games if name != "openspiel" else max(games // 4, 1))
            rate = steps / seconds
            best[name] = max(best.get(name, 0.0), rate)
    engine = best["engine"]
    return {name: {"steps_per_s": round(rate), "us_per_step": round(1e6 / rate, 1),
                   "times_engine": round(engine / rate, 2)} for name, rate in best.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per loop and run (OpenSpiel a quarter)")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved runs; the best counts")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variants", nargs="+", default=["standard", "grey-wall", "duel"])
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    args = parser.parse_args()
    results = {variant: measure(variant, args.players, args.games, args.repeats) for variant in args.variants}
    parts = breakdown(args.variants[0], args.players)
    if args.json:
        print(json.dumps({"players": args.players, "games": args.games, "engine": engine_kind(), "results": results,
                          "pettingzoo_parts_us": {args.variants[0]: parts}}, indent=1))
        return
    print(f"{args.players} players, random policy, engine {engine_kind()}; steps per CPU-second "
          "(us per step, times the engine's)")
    for variant, rows in results.items():
        print(f"\n{variant}")
        for name, row in rows.items():
            print(f"  {name:22} {row['steps_per_s']:>9,}  ({row['us_per_step']:6.1f} us, "
                  f"x{row['times_engine']:.2f})")
    print(f"\nPettingZoo's work besides the move, {args.variants[0]}, us per step: "
          + ", ".join(f"{name} {value}" for name, value in parts.items()))


if __name__ == "__main__":
    main()
