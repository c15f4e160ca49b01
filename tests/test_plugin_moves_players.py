"""The bots and the balance lab with plugins' moves, memory and secrets (issue 20), on the
three examples: pass-once (a pass), factory-one-shift (a choice after a draft) and
secret-goal (a secret per seat)."""

from __future__ import annotations

import random
import shutil
import textwrap
from pathlib import Path

import pytest
from compiled_build import patches_internals_of

from azul_core.colours import NAMES as COLOUR_NAMES
from azul_core.engine.state import CHOOSE, DEAL, DRAFT, OVER, GameState
from azul_core.lab.simulate import play_game, simulate
from azul_core.players import bots as bots_module
from azul_core.players import search as search_module
from azul_core.players.bots import GreedyBot, RandomBot, seen_by_mover
from azul_core.players.move_words import labelled, match_move, moves_on_offer
from azul_core.players.render import describe_decision, draw_game, draw_legal, render_text, short_effect
from azul_core.players.search import MctsBot, Memo, quick_gains
from azul_core.records.game_record import check_record, record_from_data
from azul_core.rules import Move
from azul_core.testing import lines_of, new_game, play, set_lines, set_table, set_wall
from azul_core.variants.loading import Trust, load_variant

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NAMES = ("pass-once", "factory-one-shift", "secret-goal")
PASS = Move("pass")


def example(name: str) -> Path:
    return EXAMPLES / name / f"{name}.yaml"


@pytest.fixture(scope="module")
def variants():
    return {name: load_variant(str(example(name))) for name in NAMES}


def play_out(state: GameState, seats, deal_seed: int = 0) -> GameState:
    """Play to the end, each seat's bot given what that seat may know."""
    rng = random.Random(deal_seed)
    while not state.over:
        if state.phase == DEAL:
            state.deal(rng)
        else:
            state.apply(seats[state.to_move].choose(seen_by_mover(state)))
    return state


def hides_the_others(state, seat) -> bool:
    """Whether ``state`` shows ``seat`` its own secrets and none of the other seats'."""
    return all(value is None if other != seat else value is not None
               for values in state.secrets.values() for other, value in enumerate(values))


# ------------------------------------------------------------------ secrets: what a bot is given


def test_seen_by_mover_hides_the_other_seats_secrets_and_costs_nothing_without_secrets(variants):
    state = GameState(variants["secret-goal"].rules, 3)
    state.deal(random.Random(1))
    assert len(set(state.secrets["secret_goal"])) >= 1 and None not in state.secrets["secret_goal"]
    view = seen_by_mover(state)
    assert view is not state and hides_the_others(view, state.to_move)
    assert state.secrets["secret_goal"].count(None) == 0      # the game itself keeps them all
    plain = GameState(variants["pass-once"].rules, 2)
    plain.deal(random.Random(1))
    assert seen_by_mover(plain) is plain                     # nothing secret: the state itself


@pytest.fixture
def spy_variant(tmp_path):
    """secret-goal with a bot (registered by a plugin, so third-party code) that writes down
    every secret it is shown, then plays greedy."""
    shutil.copy(EXAMPLES / "secret-goal" / "secret_goal.py", tmp_path / "secret_goal.py")
    (tmp_path / "spy_bot.py").write_text(textwrap.dedent("""
        from azul_core.players.bots import GreedyBot

        class Spy:
            seen = []

            def __init__(self, seed=None, think=None, playouts=None):
                self.inner = GreedyBot(seed)

            def choose(self, state):
                Spy.seen.append((state.to_move, state.phase, dict(state.secrets)))
                return self.inner.choose(state)

        def azul_register_bots():
            return {"spy": Spy}
    """))
    path = tmp_path / "spied.yaml"
    path.write_text("name: spied\nextends: standard\n"
                    "plugins: [standard, colour_wall, secret_goal.py, spy_bot.py]\n")
    return path


def spy_class(variant):
    from azul_core.players.registry import available_bots
    return available_bots(variant.rules)["spy"]


def test_a_bot_in_simulate_never_sees_another_seats_secret(spy_variant):
    variant = load_variant(str(spy_variant))
    spy = spy_class(variant)
    spy.seen.clear()
    result = play_game(variant.rules, 3, "s", ["spy", "greedy", "spy"], 1, record=True,
                       variant_ref="spied.yaml")
    assert spy.seen and {seat for seat, _phase, _secrets in spy.seen} == {0, 2}
    for seat, phase, secrets in spy.seen:
        assert phase != OVER
        values = secrets["secret_goal"]
        assert values[seat] is not None and all(v is None for other, v in enumerate(values) if other != seat)
    # The game itself scored every seat's goal: the record holds them all.
    assert None not in result.record["secrets"]["secret_goal"]
    assert check_record(record_from_data(result.record, str(spy_variant.parent / "r.json")),
                        trust=Trust(everything=True))["valid"]


# The random bot's ``play`` calls its ``choose`` from within the module: past the spy, compiled.
@pytest.mark.parametrize("bot_class", [pytest.param(RandomBot, marks=patches_internals_of("azul_core.players.bots")),
                                       GreedyBot, MctsBot])
def test_the_builtin_bots_are_given_their_seats_view_in_simulate(variants, monkeypatch, bot_class):
    seen = []
    real_choose = bot_class.choose

    def spying_choose(self, state):
        seen.append(hides_the_others(state, state.to_move))
        return real_choose(self, state)

    monkeypatch.setattr(bot_class, "choose", spying_choose)
    name = {RandomBot: "random", GreedyBot: "greedy", MctsBot: "mcts"}[bot_class]
    run = simulate(variants["secret-goal"], 2, 1, seed=3, bots=name, playouts=5)
    assert run.results[0].rounds >= 4
    assert seen and all(seen)


def test_random_bot_play_gives_the_same_games_as_choose_then_apply(variants):
    """Its fast path (``play``) goes through the seat's view where secrets are dealt."""
    for name in NAMES:
        state = GameState(variants[name].rules, 2)
        other = state.clone()
        fast, slow = RandomBot(seed=5), RandomBot(seed=5)
        rng, rng_other = random.Random(2), random.Random(2)
        while not state.over:
            if state.phase == DEAL:
                state.deal(rng)
                other.deal(rng_other)
                continue
            taken = fast.play(state)
            chosen = slow.choose(seen_by_mover(other))
            other.apply(chosen)
            assert taken == chosen
        assert state.scores() == other.scores()


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize("name", NAMES)
def test_greedy_and_mcts_finish_games_of_every_example(variants, name):
    rules = variants[name].rules
    for seats in ([GreedyBot(seed=1), MctsBot(seed=2, iterations=15)],
                  [MctsBot(seed=3, iterations=15), GreedyBot(seed=4), RandomBot(seed=5)]):
        state = play_out(GameState(rules, len(seats)), seats, deal_seed=len(seats))
        assert state.over and state.winners
        assert sum(state.tile_counts()) == 100
        best = max(state.scores())
        assert all(state.scores()[seat] == best for seat in state.winners)


def test_greedy_passes_in_whole_games_of_pass_once(variants):
    state = GameState(variants["pass-once"].rules, 2)
    passes = 0
    seats = [GreedyBot(seed=1), GreedyBot(seed=2)]
    rng = random.Random(1)
    while not state.over:
        if state.phase == DEAL:
            state.deal(rng)
            continue
        decision = seats[state.to_move].choose(state)
        passes += decision == PASS
        state.apply(decision)
    assert passes >= 2


def test_greedy_passes_when_every_draft_costs_points(variants):
    state = new_game(example("pass-once"))
    set_table(state, ["BBBB"])
    set_lines(state, 0, {1: "Y", 2: "RR", 3: "KKK", 4: "WWWW", 5: "YYYYY"})  # no room for blue
    assert PASS in state.legal_decisions()
    assert GreedyBot(seed=0).choose(state) == PASS
    scored = dict((d, g) for g, d in GreedyBot(seed=0).scored_decisions(state))
    assert scored[PASS] == 0 and all(gain < 0 for d, gain in scored.items() if d != PASS)
    # A draft that gains beats the pass: 4 blues to an empty line 5.
    set_lines(state, 0, {5: ""})
    assert GreedyBot(seed=0).choose(state) != PASS


def shift_position(variants):
    """factory-one-shift: seat 0 has drafted a yellow from factory 1 onto line 1; line 3
    holds two yellows, and a yellow there would score 5 (its wall row is full but for it)."""
    state = new_game(example("factory-one-shift"))
    set_wall(state, 0, """
        . . . . .
        . . . . .
        K W B . R
        . . . . .
        . . . . .""")
    set_lines(state, 0, {3: "YY"})
    set_table(state, ["YRRR", "BBKK"])
    play(state, "1Y1")
    assert state.phase == CHOOSE and state.to_move == 0
    return state


def test_greedy_takes_a_choice_after_the_draft_when_it_gains(variants):
    state = shift_position(variants)
    shift_to_line_3 = Move("shift", (2,))
    assert shift_to_line_3 in state.legal_decisions() and Move("keep") in state.legal_decisions()
    # judged by the round alone: line 3's 5 points, less line 1's point and line 3's two thirds
    scored = dict((d, g) for g, d in GreedyBot(seed=0, whole_game=False).scored_decisions(state))
    assert scored[shift_to_line_3] == pytest.approx(5 - (1 + 5 * 2 / 3))
    assert scored[Move("keep")] == 0
    # over the whole game, the row it completes (end bonus) counts too
    whole = dict((d, g) for g, d in GreedyBot(seed=0).scored_decisions(state))
    assert whole[shift_to_line_3] > scored[shift_to_line_3] and whole[Move("keep")] == 0
    decision = GreedyBot(seed=0).choose(state)
    assert decision == shift_to_line_3
    state.apply(decision)
    assert lines_of(state, 0) == {3: "YYY"} and state.phase == DRAFT and state.to_move == 1


def test_greedy_shifts_sometimes_in_whole_games(variants):
    state = GameState(variants["factory-one-shift"].rules, 2)
    seats = [GreedyBot(seed=1), GreedyBot(seed=2)]
    chosen = play_out_counting(state, seats)
    assert chosen.get("shift", 0) >= 1 and chosen.get("keep", 0) >= 1


def play_out_counting(state, seats) -> dict:
    counts: dict = {}
    rng = random.Random(3)
    while not state.over:
        if state.phase == DEAL:
            state.deal(rng)
            continue
        decision = seats[state.to_move].choose(state)
        if isinstance(decision, Move):
            counts[decision.name] = counts.get(decision.name, 0) + 1
        state.apply(decision)
    return counts


# ------------------------------------------------------------------ the search bot


def test_quick_gains_value_plugin_moves_and_choices(variants):
    state = shift_position(variants)
    gains = dict((d, g) for g, d in quick_gains(state, Memo(state.rules, whole_game=False)))
    assert set(gains) == set(state.legal_decisions())
    assert gains[Move("shift", (2,))] == pytest.approx(5 - (1 + 5 * 2 / 3))
    fresh = new_game(example("pass-once"))
    set_table(fresh, ["BBBB", "RRYY"])
    gains = dict((d, g) for g, d in quick_gains(fresh))
    assert set(gains) == set(fresh.legal_decisions()) and gains[PASS] == 0


def test_mcts_chooses_after_a_draft_and_is_deterministic_for_a_seed(variants):
    state = shift_position(variants)
    first = MctsBot(seed=4, iterations=200).choose(state)
    assert first == MctsBot(seed=4, iterations=200).choose(state)
    assert first == Move("shift", (2,))


def test_mcts_with_playouts_gives_the_same_games_for_a_seed(variants):
    for name in ("pass-once", "factory-one-shift"):
        runs = [simulate(variants[name], 2, 2, seed=6, bots="mcts,greedy", playouts=8) for _ in range(2)]
        assert [r.to_json() for r in runs[0].results] == [r.to_json() for r in runs[1].results]


def test_the_fast_paths_are_kept_where_no_plugin_adds_moves(monkeypatch):
    """Standard Azul never tries a draft on a clone in greedy nor asks for plugins' moves."""
    state = new_game("standard")
    set_table(state, ["BBYR", "KKWW", "RRYY"])
    calls = []
    monkeypatch.setattr(bots_module, "tried_gains", lambda *a: calls.append(a) or [])
    monkeypatch.setattr(search_module, "move_gains", lambda *a: calls.append(a) or [])
    GreedyBot(seed=0).choose(state)
    quick_gains(state)
    assert calls == []


# ------------------------------------------------------------------ words for moves


def test_moves_on_offer_and_their_labels(variants):
    state = new_game(example("pass-once"))
    set_table(state, ["BBYR"])
    assert moves_on_offer(state) == [PASS]
    assert moves_on_offer(state)[0].label == "Pass this turn (once a round)"
    assert labelled(state, PASS).label == "Pass this turn (once a round)"
    assert describe_decision(state, PASS, ["ana", "bo"]) == "ana plays +pass: Pass this turn (once a round)"
    assert short_effect(state, PASS) == "Pass this turn (once a round)"
    play(state, "+pass")
    assert moves_on_offer(state) == [PASS]                     # seat 1 has not passed
    play(state, "1B1")
    assert moves_on_offer(state) == []                         # seat 0 has
    assert labelled(state, PASS).label == "Pass this turn (once a round)"  # as declared


def test_match_move_by_name_label_words_and_ambiguity(variants):
    state = shift_position(variants)
    assert match_move("floor", state) == Move("shift", (5,))
    assert match_move("Line 3", state) == Move("shift", (2,))
    assert match_move("shift:2", state) == Move("shift", (2,))
    assert match_move("keep", state) == Move("keep")
    assert match_move("2 red 4", state) is None
    with pytest.raises(ValueError, match="could be"):
        match_move("line", state)
    pass_once = new_game(example("pass-once"))
    set_table(pass_once, ["BBYR"])
    play(pass_once, "+pass 1B1")
    # Not on offer: still named by its name, so that the rules can say why it is refused.
    assert match_move("pass", pass_once) == PASS
    assert match_move("this turn", pass_once) is None


def test_the_engine_says_a_plugin_move_is_not_a_misplaced_draft(variants):
    """``is_misplaced`` called ``len()`` on a Move (TypeError) while drafting."""
    state = new_game(example("pass-once"))
    set_table(state, ["BBYR"])
    assert state.is_misplaced(PASS) is False


def test_the_board_shows_secrets_memory_and_moves_on_offer(variants):
    state = GameState(variants["secret-goal"].rules, 2)
    state.deal(random.Random(4))
    goals = [f"{COLOUR_NAMES[colour]}, 2 points a tile" for colour in state.secrets["secret_goal"]]
    text = render_text(draw_game(state.for_seat(0), ["you", "greedy"], reader=0))
    assert f"Your goal: {goals[0]}" in text and "Secret (secret_goal): greedy: hidden" in text
    assert "had the goal" not in text, "another seat's secret is never shown"
    sealed = render_text(draw_game(state.for_seat(0), ["you", "greedy"], sealed=[1], reader=0))
    assert "greedy: sealed" in sealed
    everyone = render_text(draw_game(state, ["you", "greedy"], reader=0))
    assert f"Your goal: {goals[0]}" in everyone and f"greedy had the goal {goals[1]}" in everyone
    passing = new_game(example("pass-once"))
    set_table(passing, ["BBYR"])
    text = render_text(draw_game(passing, ["you", "greedy"], reader=0))
    assert "You may still pass this round" in text and "greedy may still pass this round" in text
    assert "Also on offer: +pass Pass this turn (once a round)" in text
    listed = render_text(draw_legal(passing))
    assert "+pass  Pass this turn (once a round)" in listed and "1B 2 blue" in listed
    choosing = render_text(draw_game(shift_position(variants), ["you", "greedy"]))
    assert "you choose after the draft" in choosing
    assert "2 +shift:1  Move a tile to line 2" in choosing
