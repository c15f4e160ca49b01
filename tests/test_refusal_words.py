"""Why a move is refused, in a player's words (``players.refusal_words``): one sentence per kind
of refusal, made from the engine's reason as data, while the engine's own message, which
records, validation and tests read, stays as it was."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from azul_core import hookimpl
from azul_core.colours import NAMES
from azul_core.engine.notation import parse_decision
from azul_core.engine.state import DEAL, DRAFT, OVER, IllegalDecision
from azul_core.players.refusal_words import capitalised, line_refusal_words, refusal_words
from azul_core.rules import Move
from azul_core.testing import new_game, play, set_lines, set_table, set_wall

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def refused(state, move) -> IllegalDecision:
    """The engine's refusal of ``move`` (record notation or a decision), with nothing changed."""
    decision = parse_decision(move) if isinstance(move, str) else move
    with pytest.raises(IllegalDecision) as caught:
        state.apply(decision)
    return caught.value


def dealt(variant="standard", factories=("BYRK", "BYRK", "BYRK", "BYRK", "BYRK")):
    game = new_game(variant)
    set_table(game, list(factories))
    return game


def test_a_line_holding_another_colour():
    game = dealt(factories=("WYRK", "BYRK", "BYRK", "BYRK", "BYRK"))
    set_lines(game, 0, {4: "W"})
    exc = refused(game, "1Y4")
    assert refusal_words(exc) == "Line 4 already holds white"
    assert str(exc) == "pattern line 4 holds white"  # the engine's words, for records and programs


def test_a_wall_row_with_the_colour_already():
    game = dealt()
    set_wall(game, 0, [". . . . .", ". x . . .", ". . . . .", ". . . . .", ". . . . ."])  # row 2: blue
    exc = refused(game, "1B2")
    assert refusal_words(exc) == "The wall's row 2 already has blue"
    assert str(exc) == "wall row 2 already has blue"


def test_a_full_line():
    game = dealt()
    set_lines(game, 0, {1: "B"})
    exc = refused(game, "1B1")
    assert refusal_words(exc) == "Line 1 is already full"
    assert str(exc) == "pattern line 1 is full"


def test_a_colour_a_factory_or_the_centre_lacks():
    game = dealt(factories=("BYRK", "BYRK", "BYKK", "BYRK", "BYRK"))
    assert refusal_words(refused(game, "3R1")) == "Factory 3 has no red tiles"
    assert refusal_words(refused(game, "CW1")) == "The centre has no white tiles"


def test_a_factory_or_a_line_that_does_not_exist():
    game = dealt()
    assert refusal_words(refused(game, "9B1")) == "There is no factory 9: the factories are numbered 1 to 5"
    assert refusal_words(refused(game, (1, 0, 7))) == "There is no line 8"


class RefuseMisplaced:
    """The duel sends a draft onto a line that can't take it to the floor; refused, it says why."""

    @hookimpl
    def azul_misplaced_draft(self):
        return "refuse"


def test_a_line_tiled_this_round_in_the_duel():
    game = new_game("duel", plugins=[RefuseMisplaced()])
    set_table(game, ["BYRK", "BYRK", "BYRK", "BYRK", "BYRK"])
    play(game, ["1B1", "2Y1"])  # line 1 is full at once: tiled at the end of the turn
    exc = refused(game, "3R1")
    assert refusal_words(exc) == "Line 1 was tiled this round: it takes tiles again next round"


def test_a_line_a_house_rule_refuses():
    class NoRedOnLineThree:
        @hookimpl
        def azul_line_accepts(self, row, line_colour, line_count, capacity, wall_row, colour):
            return False if row == 2 and colour == 2 else None

    game = new_game(plugins=[NoRedOnLineThree()])
    set_table(game, ["BYRK", "BYRK", "BYRK", "BYRK", "BYRK"])
    exc = refused(game, "1R3")
    assert refusal_words(exc) == "This variant's rules don't let red go on line 3"
    assert "refuse red on pattern line 3" in str(exc)


def test_a_wall_space_that_can_t_take_the_tile_on_the_grey_wall():
    game = dealt("grey-wall", ("BBBB", "YRKW", "YRKW", "YRKW", "YRKW"))
    set_wall(game, 0, [". . . . .", "B . . . .", ". . . . .", ". . . . .", ". . . . ."])
    play(game, ["1B1"])
    while game.phase == DRAFT:  # everyone else's drafts to the floor, until the wall tiling
        game.apply(next(d for d in game.legal_decisions() if not isinstance(d, Move) and d[2] == 5))
    assert game.placing is not None and game.placing[1] == 0
    exc = refused(game, (0, 0))  # column 1 already holds blue, in row 2
    assert refusal_words(exc) == "Column 1 of the wall can't take the blue tile of line 1: choose column 2, 3, 4 or 5"
    assert refusal_words(refused(game, (1, 1))) == "Place the tile of line 1 on your wall first"
    assert refusal_words(refused(game, (1, 0, 1))) == "Place the tile of line 1 on your wall first"


def test_a_house_rule_s_move_not_on_offer_or_unknown():
    game = new_game(EXAMPLES / "pass-once" / "pass-once.yaml")
    set_table(game, ["BYRK", "BYRK", "BYRK", "BYRK", "BYRK"])
    play(game, ["+pass"])
    play(game, ["+pass"])
    exc = refused(game, "+pass")
    assert refusal_words(exc) == "Pass this turn (once a round) (+pass) is not on offer now"
    assert str(exc).startswith("+pass is not on offer now")
    assert refusal_words(refused(game, "+fly")) == "This variant has no move +fly"


def test_the_game_over_and_a_refusal_the_engine_gives_no_kind():
    assert refusal_words(IllegalDecision("the game is over", "game_over")) == "The game is over"
    assert refusal_words(IllegalDecision("no decision to take now")) == "No decision to take now"
    # Facts missing (a caller that gave a kind only): the engine's message, capitalised.
    assert refusal_words(IllegalDecision("pattern line 2 holds red.", "line_holds")) == "Pattern line 2 holds red"
    assert capitalised(" the centre has no red tiles. ") == "The centre has no red tiles"


def test_line_refusal_words_say_what_the_draft_says():
    game = dealt(factories=("WYRK", "BYRK", "BYRK", "BYRK", "BYRK"))
    set_lines(game, 0, {4: "W"})
    assert line_refusal_words(game, 0, 1, 3) == refusal_words(refused(game, "1Y4"))


def test_every_refused_draft_of_random_games_is_a_player_s_sentence():
    """Drafts the engine refuses in many positions: every one is told as a sentence with a
    capital, no notation of a draft, nothing of the engine's own words."""
    rng = random.Random(42)
    kinds: set[str] = set()
    for variant, plugins in (("standard", []), ("duel", [RefuseMisplaced()]), ("grey-wall", [])):
        for game_number in range(6):
            game = new_game(variant, plugins=plugins)
            game.deal(random.Random(f"{variant}:{game_number}"))
            for _ in range(rng.randrange(0, 60)):  # into later rounds too, with walls to fill
                if game.phase == DEAL:
                    game.deal(rng)
                elif game.phase == OVER:
                    break
                else:
                    game.apply_random(rng.random)
            if game.phase != DRAFT:
                continue
            legal = set(game.legal_decisions())
            for source in range(len(game.sources) + 1):
                for colour in range(5):
                    for line in (0, 1, 2, 3, 4):
                        if (source, colour, line) in legal:
                            continue
                        exc = refused(game, (source, colour, line))
                        words = refusal_words(exc)
                        kinds.add(exc.kind)
                        assert words[0].isupper() and not words.endswith("."), words
                        assert "pattern line" not in words and "not legal" not in words, words
                        assert not any(f"{source}{letter}" in words for letter in "BYRKW"), words
    assert {"no_source", "no_tiles", "line_holds", "wall_has", "line_full", "line_closed"} <= kinds, kinds


@pytest.mark.parametrize("colour", range(5))
def test_each_colour_is_named(colour):
    game = dealt(factories=("BYRK", "YRKW", "BYRK", "BYRK", "BYRK"))
    other = (colour + 1) % 5
    set_lines(game, 0, {3: "BYRKW"[other]})
    exc = refused(game, (1 if colour < 4 else 2, colour, 2))
    assert refusal_words(exc) == f"Line 3 already holds {NAMES[other]}"
