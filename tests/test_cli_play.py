"""``azul play`` and ``azul replay`` through the command line (CliRunner, typed input)."""

from __future__ import annotations

import json
import random
import re
import textwrap

import pytest
from typer.testing import CliRunner

import azul_core.cli.play  # noqa: F401  (registers the command)
import azul_core.cli.replay  # noqa: F401  (registers the command)
from azul_core.cli.app import app
from azul_core.engine.notation import format_decision
from azul_core.engine.state import DEAL, OVER, PLACE
from azul_core.players.bots import GreedyBot
from azul_core.records.game_record import check_record, read_record, replay_state
from azul_core.variants.loading import Trust

ENV = {"TERMINAL_WIDTH": "200", "TYPER_USE_RICH": "0", "COLUMNS": "200", "NO_COLOR": "1"}


def run(*args, input: str | None = None, env: dict | None = None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input, env={**ENV, **(env or {})})


def start(tmp_path, *options, name="game.json"):
    """Start a game and leave at once: the record then holds round 1's deal."""
    path = tmp_path / name
    result = run("play", "--record", path, *options, input="quit\n")
    assert result.exit_code == 0, result.output
    return path


def position(path):
    return replay_state(read_record(path))


def planned_moves(path, count: int, seed: int = 0) -> list[str]:
    """The next ``count`` moves a greedy player would type at this game (hot-seat: every seat)."""
    state = position(path)
    bot = GreedyBot(seed=seed)
    typed = []
    while len(typed) < count and not state.over:
        decision = bot.choose(state)
        if not (state.phase == PLACE and len(state.legal_decisions()) == 1):
            typed.append(format_decision(decision))
        state.apply(decision)
    return typed


# ------------------------------------------------------------------ starting and leaving


def test_quit_saves_the_game_and_says_how_to_resume(tmp_path):
    path = tmp_path / "game.json"
    result = run("play", "--players", "human,greedy", "--seed", "3", "--record", path, input="quit\n")
    assert result.exit_code == 0, result.output
    assert "your move> " in result.stdout
    assert f"Game saved to {path}" in result.stdout
    assert f"azul play --resume {path}" in result.stdout
    saved = read_record(path)
    assert saved.players == ["you", "greedy"] and saved.seed == 3
    assert len(saved.rounds) == 1 and len(saved.rounds[0].factories) == 5
    assert saved.rounds[0].actions == []
    assert saved.extra["player_kinds"] == ["human", "greedy"]


def test_end_of_input_leaves_like_quit(tmp_path):
    path = tmp_path / "game.json"
    result = run("play", "--players", "human,greedy", "--seed", "3", "--record", path, input="")
    assert result.exit_code == 0, result.output
    assert "Game saved to" in result.stdout
    assert read_record(path).rounds[0].actions == []


def test_the_board_is_drawn_with_the_prompt(tmp_path):
    result = run("play", "--players", "human,greedy", "--seed", "3", "--record", tmp_path / "g.json",
                 input="quit\n")
    out = result.stdout
    assert "standard   round 1   you to move" in out
    assert "Factories 1: " in out and "Centre    1 (start marker)" in out
    assert " 1         . | b y r k w" in out
    assert "-1 -1 -2 -2 -2 -3 -3" in out
    assert all(len(line) <= 80 for line in out.splitlines() if str(tmp_path) not in line)


def test_nonsense_gets_a_one_line_reason_and_the_prompt_again(tmp_path):
    result = run("play", "--players", "human,greedy", "--seed", "3", "--record", tmp_path / "g.json",
                 input="hello\n9B1\nw1:2\n\nquit\n")
    assert result.exit_code == 0
    out = result.stdout
    assert "'hello' is not a move" in out
    assert "There is no factory 9: the factories are numbered 1 to 5. Type ? for the legal moves." in out
    assert "It is time to take tiles" in out
    assert out.count("your move> ") == 5
    assert "Traceback" not in out


def test_a_colour_the_factory_lacks_is_refused(tmp_path):
    path = start(tmp_path, "--players", "human,greedy", "--seed", "3")
    state = position(path)
    missing = next(c for c in range(5) if not state.sources[1][c])
    move = f"1{'BYRKW'[missing]}1"
    result = run("play", "--resume", path, input=f"{move}\nquit\n")
    assert f"Factory 1 has no {['blue', 'yellow', 'red', 'black', 'white'][missing]} tiles" \
        in result.stdout
    assert read_record(path).rounds[0].actions == []


def test_question_mark_lists_the_legal_moves_and_help_explains(tmp_path):
    path = start(tmp_path, "--players", "human,greedy", "--seed", "3")
    result = run("play", "--resume", path, input="?\nhelp\nquit\n")
    out = result.stdout
    listed = {code + target[0] for code, targets in
              re.findall(r"([C1-9][BYRKW]) \d+ [a-z]+: ((?:[1-5-][*+\d]*(?:, )?)+)", out)
              for target in targets.split(", ")}
    assert listed == {format_decision(d) for d in position(path).legal_decisions()}
    assert "record notation" in out and "undo" in out and "quit" in out


# ------------------------------------------------------------------ moving


def test_a_move_is_saved_with_the_bots_reply(tmp_path):
    path = start(tmp_path, "--players", "human,greedy", "--seed", "3")
    move = planned_moves(path, 1)[0]
    result = run("play", "--resume", path, input=f"{move}\nquit\n")
    assert result.exit_code == 0, result.output
    actions = read_record(path).rounds[0].actions
    assert actions[0] == move and len(actions) == 2
    assert "you take " in result.stdout and "greedy takes " in result.stdout
    assert "Last: greedy takes" in result.stdout


def test_a_move_in_words(tmp_path):
    path = start(tmp_path, "--players", "human,human", "--seed", "3")
    state = position(path)
    colour = next(c for c in range(5) if state.sources[2][c])
    name = ["blue", "yellow", "red", "black", "white"][colour]
    result = run("play", "--resume", path, input=f"2 {name} floor\nquit\n")
    assert result.exit_code == 0
    assert read_record(path).rounds[0].actions == [f"2{'BYRKW'[colour]}-"]
    assert "player 2> " in result.stdout  # hot-seat: the prompt names whose turn it is


def test_undo_takes_back_my_move_and_the_bots_reply(tmp_path):
    path = start(tmp_path, "--players", "human,greedy", "--seed", "3")
    move = planned_moves(path, 1)[0]
    result = run("play", "--resume", path, input=f"undo\n{move}\nundo\nquit\n")
    assert result.exit_code == 0
    assert "Nothing to undo" in result.stdout
    assert f"Took back your move {move} and 1 move after it." in result.stdout
    assert read_record(path).rounds[0].actions == []


def test_undo_is_refused_when_several_people_play(tmp_path):
    path = start(tmp_path, "--players", "human,human", "--seed", "3")
    move = planned_moves(path, 1)[0]
    result = run("play", "--resume", path, input=f"{move}\nundo\nquit\n")
    assert "Undo works only when one person plays" in result.stdout
    assert read_record(path).rounds[0].actions == [move]


def test_a_misplaced_draft_is_refused_in_standard(tmp_path):
    path = start(tmp_path, "--players", "human,human", "--seed", "5")
    state = position(path)
    moves = _line_5_clash(state)
    result = run("play", "--resume", path, input="\n".join(moves) + "\nquit\n")
    assert "Line 5 already holds" in result.stdout
    assert read_record(path).rounds[0].actions == moves[:2]


def _line_5_clash(state) -> list[str]:
    """Three hot-seat drafts: seat 0 puts a colour on line 5, seat 1 plays elsewhere, then
    seat 0 names line 5 for another colour (a line holds one colour)."""
    first = next(c for c in range(5) if state.sources[1][c])
    other = next((s, c) for s in range(2, 6) for c in range(5) if state.sources[s][c] and c != first)
    second = next((s, c) for s in range(2, 6) for c in range(5)
                  if state.sources[s][c] and s != other[0])
    return [f"1{'BYRKW'[first]}5", f"{second[0]}{'BYRKW'[second[1]]}4",
            f"{other[0]}{'BYRKW'[other[1]]}5"]


def test_a_misplaced_draft_falls_to_the_floor_with_a_warning_in_duel(tmp_path):
    path = start(tmp_path, "--variant", "duel", "--players", "human,human", "--seed", "5")
    state = position(path)
    taken = state.sources[1][next(c for c in range(5) if state.sources[1][c])]
    moves = _line_5_clash(state)
    result = run("play", "--resume", path, input="\n".join(moves) + "\nquit\n")
    assert result.exit_code == 0
    assert "Careful: line 5 already holds" in result.stdout
    assert "tiles fall to the floor" in result.stdout
    assert read_record(path).rounds[0].actions == moves
    after = position(path)
    assert after.players[0].line_count[4] == taken       # line 5 unchanged
    assert len(after.players[0].floor) >= 1


def test_the_grey_wall_asks_for_columns_at_tiling_time(tmp_path):
    """Hot-seat grey wall, played (by the moves a greedy player would type) up to the first
    placement with a single legal space: every other placement is asked, listing its legal
    columns, and that one is taken without asking; all are recorded."""
    path = start(tmp_path, "--variant", "grey-wall", "--players", "human,human", "--seed", "2")
    state = position(path)
    bot = GreedyBot(seed=0)
    typed, asked, forced = [], [], 0
    while not forced and state.phase != OVER:
        if state.phase == DEAL:             # as `azul play` deals: a sorted bag, a seeded draw
            state.bag.sort()
            state.deal(random.Random(f"2:round:{state.round}"))
            continue
        decision = bot.choose(state)
        if state.phase == PLACE:
            columns = [str(column + 1) for _row, column in state.legal_decisions()]
            if len(columns) == 1:
                forced += 1
            else:
                typed.append(str(decision[1] + 1))  # just the column's number
                asked.append(", ".join(columns))
        else:
            typed.append(format_decision(decision))
        state.apply(decision)
    assert len(asked) > 1 and forced == 1
    result = run("play", "--resume", path, input="\n".join(typed) + "\nquit\n")
    assert result.exit_code == 0, result.output
    # After the typed moves the game may place more lone tiles and ask once more ("quit").
    assert re.findall(r"wall column for the \w+ tile of line \d \(([\d, ]+)\)>", result.stdout)[:len(asked)] == asked
    forced = result.stdout.count("(the only legal space)")
    assert forced >= 1
    saved = read_record(path)
    placements = [a for r in saved.rounds for a in r.actions if a.startswith("w")]
    assert len(placements) == len(asked) + forced      # the forced ones are recorded too
    assert len(saved.rounds) == state.round


# ------------------------------------------------------------------ resuming


def test_bots_play_a_whole_game_and_the_end_is_shown(tmp_path):
    path = tmp_path / "bots.json"
    result = run("play", "--players", "greedy,random", "--seed", "7", "--record", path)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "game over" in out and "Final scores" in out and "+columns" in out
    assert "greedy wins with" in out
    report = check_record(read_record(path), trust=Trust(everything=True))
    assert report["valid"] and report["finished"]


def test_resume_deals_the_next_rounds_as_the_game_would_have(tmp_path):
    whole = tmp_path / "whole.json"
    assert run("play", "--players", "greedy,greedy", "--seed", "7", "--record", whole).exit_code == 0
    data = json.loads(whole.read_text())
    assert len(data["rounds"]) >= 4
    cut = dict(data, rounds=[{k: r[k] for k in ("factories", "actions")} for r in data["rounds"][:2]])
    cut.pop("result")
    part = tmp_path / "part.json"
    part.write_text(json.dumps(cut))
    result = run("play", "--resume", part, input="")
    assert result.exit_code == 0, result.output
    resumed = json.loads(part.read_text())
    assert resumed["rounds"][2]["factories"] == data["rounds"][2]["factories"]
    assert resumed["rounds"][:2] == data["rounds"][:2] or \
        [r["actions"] for r in resumed["rounds"][:2]] == [r["actions"] for r in data["rounds"][:2]]
    assert check_record(read_record(part))["finished"]


def test_resume_in_the_middle_of_a_round_keeps_its_factories(tmp_path):
    path = start(tmp_path, "--players", "human,greedy", "--seed", "11")
    before = read_record(path).rounds[0].factories
    moves = planned_moves(path, 1)
    run("play", "--resume", path, input=f"{moves[0]}\nquit\n")
    result = run("play", "--resume", path, "--players", "greedy,greedy")
    assert result.exit_code == 0, result.output
    saved = read_record(path)
    assert saved.rounds[0].factories == before
    assert saved.rounds[0].actions[0] == moves[0]
    assert saved.result is not None


def test_resume_a_finished_game_shows_the_result(tmp_path):
    path = tmp_path / "bots.json"
    run("play", "--players", "greedy,greedy", "--seed", "7", "--record", path)
    result = run("play", "--resume", path)
    assert result.exit_code == 0
    assert "Final scores" in result.stdout


def test_resume_to_another_file_keeps_a_variant_file_reachable(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "short.yaml").write_text(
        "name: short\nextends: standard\nplugins: [standard, colour_wall]\n")
    first = tmp_path / "games" / "a.json"
    result = run("play", "--variant", tmp_path / "rules" / "short.yaml", "--players", "human,greedy",
                 "--seed", "1", "--record", first, input="quit\n")
    assert result.exit_code == 0, result.output
    assert read_record(first).variant == "../rules/short.yaml"
    second = tmp_path / "b.json"
    # Outside the record's folder: used only when the user names that variant file again.
    result = run("play", "--resume", first, "--record", second, "--players", "greedy,greedy")
    assert result.exit_code == 1 and "not through '..'" in result.stderr
    result = run("play", "--resume", first, "--record", second, "--players", "greedy,greedy",
                 "--variant", tmp_path / "rules" / "short.yaml")
    assert result.exit_code == 0, result.output
    assert read_record(second).variant == "rules/short.yaml"
    assert check_record(read_record(second))["valid"]


def test_the_default_record_goes_to_the_data_folder(tmp_path):
    result = run("play", "--players", "human,greedy", "--seed", "1", input="quit\n",
                 env={"XDG_DATA_HOME": str(tmp_path)})
    assert result.exit_code == 0
    saved = list((tmp_path / "azul").glob("standard-*.json"))
    assert len(saved) == 1
    assert str(saved[0]) in result.stdout


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize("args,code,message", [
    (["--players", "human,wizard"], 1, "unknown kind 'wizard'"),
    (["--players", "human,greedy,greedy,greedy,greedy"], 1, "names 5 seat(s)"),
    (["--variant", "duel", "--players", "human,greedy,greedy"], 1, "is played by 2"),
    (["--variant", "nosuch"], 1, "unknown variant 'nosuch'"),
    (["--think", "0"], 2, "--think must be a positive number"),
])
def test_bad_options_get_one_line_and_an_exit_code(tmp_path, args, code, message):
    result = run("play", "--record", tmp_path / "g.json", *args, input="quit\n")
    assert result.exit_code == code, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_resume_errors(tmp_path):
    result = run("play", "--resume", tmp_path / "nothing.json")
    assert result.exit_code == 1 and "can't resume" in result.stderr and "no such file" in result.stderr
    path = start(tmp_path, "--players", "human,greedy", "--seed", "3")
    result = run("play", "--resume", path, "--variant", "duel")
    assert result.exit_code == 2 and "with --resume, --variant can only name the variant file" in result.stderr
    result = run("play", "--resume", path, "--seed", "4")
    assert result.exit_code == 2
    data = json.loads(path.read_text())
    data["rounds"][0]["actions"] = ["9Z9"]
    path.write_text(json.dumps(data))
    result = run("play", "--resume", path)
    assert result.exit_code == 1 and "can't resume" in result.stderr


def test_a_failing_plugin_stops_the_game_in_one_line_with_the_record_saved(tmp_path):
    (tmp_path / "boom.py").write_text(textwrap.dedent("""
        def azul_placement_score(wall, row, column):
            if sum(cell is not None for line in wall for cell in line) > 3:
                raise RuntimeError("the scorer broke")
    """))
    (tmp_path / "boom.yaml").write_text(
        "name: boom\nextends: standard\nplugins: [standard, colour_wall, boom.py]\n")
    path = tmp_path / "g.json"
    result = run("play", "--variant", tmp_path / "boom.yaml", "--players", "greedy,greedy",
                 "--seed", "1", "--record", path)
    assert result.exit_code == 1
    assert "a rule plugin failed, the game stops: plugin 'boom' raised RuntimeError" in result.stdout
    assert "Traceback" not in result.output
    report = check_record(read_record(path), trust=Trust(everything=True))
    assert report["valid"] and not report["finished"]


# ------------------------------------------------------------------ replay


@pytest.fixture()
def finished(tmp_path):
    path = tmp_path / "bots.json"
    assert run("play", "--players", "greedy,random", "--seed", "7", "--record", path).exit_code == 0
    return path


def test_replay_final_prints_the_end_and_the_result(finished):
    result = run("replay", finished, "--final")
    assert result.exit_code == 0, result.output
    assert "game over" in result.stdout and "Final scores" in result.stdout


def test_replay_at_prints_one_position(finished):
    result = run("replay", finished, "--at", "2:3")
    assert result.exit_code == 0, result.output
    assert "[2:3]" in result.stdout and "Last: 3. " in result.stdout
    assert "Final scores" not in result.stdout
    result = run("replay", finished, "--at", "1:0")
    assert "Last: round 1 dealt: " in result.stdout


@pytest.mark.parametrize("at,code,message", [
    ("x", 2, "expected ROUND:ACTION"),
    ("99:0", 1, "no round 99: the record replays rounds 1 to"),
    ("1:999", 1, "no action 999 in round 1"),
])
def test_replay_at_errors(finished, at, code, message):
    result = run("replay", finished, "--at", at)
    assert result.exit_code == code
    assert message in result.stderr


def test_replay_steps_through_a_record(finished):
    result = run("replay", finished, input="\n\np\nr 2\n1:1\nbogus\nhelp\nend\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for shown in ("[1:0]", "[1:1]", "[1:2]", "[2:0]"):
        assert shown in out
    assert "'bogus' is not a replay command" in out
    assert "previous action" in out
    assert "Final scores" in out


def test_replay_of_a_broken_record_shows_the_last_good_position(finished):
    data = json.loads(finished.read_text())
    data["rounds"][0]["actions"][3] = "9B1"
    finished.write_text(json.dumps(data))
    result = run("replay", finished, "--final")
    assert result.exit_code == 1
    assert "[1:3]" in result.stdout
    assert "can't be replayed past round 1 action 4" in result.stderr
    assert run("replay", finished, "--final", "--at", "1:1").exit_code == 2
    assert run("replay", finished.parent / "none.json").exit_code == 1


def test_undo_across_a_round_boundary_goes_back_into_the_last_round(tmp_path):
    import io

    from rich.console import Console

    from azul_core.players.session import GameSession

    bot = GreedyBot(seed=1)
    seen = {"undone": False, "state_after_undo": None}
    holder = {}

    def read(prompt: str) -> str:
        state = holder["session"].state
        if seen["undone"]:
            seen["state_after_undo"] = (state.round, state.phase, len(holder["session"].recorder.rounds))
            return "quit"
        if state.round == 2:
            seen["undone"] = True
            return "undo"
        return format_decision(bot.choose(state))

    out = io.StringIO()
    session = GameSession.new("standard", "human,greedy", 3, tmp_path / "g.json", None,
                              console=Console(file=out, width=80), read=read)
    holder["session"] = session
    assert session.run() == 0
    assert "Took back your move" in out.getvalue()
    round_number, phase, rounds = seen["state_after_undo"]
    assert (round_number, phase, rounds) == (1, "draft", 1)
    assert len(read_record(tmp_path / "g.json").rounds) == 1


# ------------------------------------------------------------------ what a round did


def test_each_round_is_summed_up_tile_by_tile_with_floor_and_scores(tmp_path):
    path = tmp_path / "bots.json"
    result = run("play", "--players", "greedy,random", "--seed", "7", "--record", path)
    assert result.exit_code == 0, result.output
    out = result.stdout
    saved = read_record(path)
    state = replay_state(saved)
    summaries = re.findall(r"Round (\d+) scored:\n((?:  .*\n)+)", out)
    assert [int(number) for number, _ in summaries] == list(range(1, len(saved.rounds) + 1))
    previous = [0, 0]
    placed = [0, 0]
    for (_number, body), round_ in zip(summaries, saved.rounds):
        rows = body.splitlines()
        for seat, name in enumerate(["greedy", "random"]):
            row = next(r for r in rows if r.strip().startswith(name))
            assert f"score {previous[seat]} -> {round_.scores[seat]}" in row
            placed[seat] += sum(int(p) for p in re.findall(r"to wall column \d \+(\d+)", row))
            previous[seat] = round_.scores[seat]
    assert placed == [board.placement_points for board in state.players]
    assert out.index(f"Round {len(saved.rounds)} scored:") < out.index("Final scores")


def test_a_bots_reply_does_not_depend_on_how_many_times_it_was_asked(tmp_path):
    path = start(tmp_path, "--players", "human,random", "--seed", "3")
    move = planned_moves(path, 1)[0]
    once = tmp_path / "once.json"
    run("play", "--resume", path, "--record", once, input=f"{move}\nquit\n")
    again = tmp_path / "again.json"
    result = run("play", "--resume", path, "--record", again,
                 input=f"{move}\nundo\n{move}\nundo\n{move}\nquit\n")
    assert result.exit_code == 0, result.output
    assert read_record(again).rounds[0].actions == read_record(once).rounds[0].actions
    assert len(read_record(once).rounds[0].actions) == 2


def test_the_column_prompt_explains_itself(tmp_path):
    path = start(tmp_path, "--variant", "grey-wall", "--players", "human,human", "--seed", "2")
    state = position(path)
    bot = GreedyBot(seed=0)
    typed = []
    while not (state.phase == PLACE and len(state.legal_decisions()) > 1):
        decision = bot.choose(state)
        if not (state.phase == PLACE and len(state.legal_decisions()) == 1):
            typed.append(format_decision(decision))
        state.apply(decision)
    legal = ", ".join(str(column + 1) for _row, column in state.legal_decisions())
    result = run("play", "--resume", path, input="\n".join(typed) + "\nabc\nquit\n")
    assert f"'abc' is not a wall column: type a column, 1-5 (legal now: {legal})." in result.stdout
    assert "is not a move" not in result.stdout


def test_players_default_to_the_variants_only_player_count(tmp_path):
    variant = tmp_path / "three.yaml"
    variant.write_text("name: three\nextends: standard\nplayers: [3]\n")
    path = tmp_path / "g.json"
    result = run("play", "--variant", variant, "--seed", "1", "--record", path, input="quit\n")
    assert result.exit_code == 0, result.output + result.stderr
    saved = read_record(path)
    assert saved.players == ["you", "mcts 1", "mcts 2"]
    assert saved.extra["player_kinds"] == ["human", "mcts", "mcts"]


def test_resume_with_other_players_names_them(tmp_path):
    path = start(tmp_path, "--players", "human,mcts", "--seed", "3")
    result = run("play", "--resume", path, "--players", "greedy,random")
    assert result.exit_code == 0, result.output
    assert "mcts" not in result.stdout and "you" not in result.stdout.split("Final scores")[1]
    assert read_record(path).players == ["greedy", "random"]
    assert re.search(r"(greedy|random) wins|share the victory", result.stdout)


def test_at_a_terminal_messages_wrap_between_words(tmp_path):
    import io

    from rich.console import Console

    from azul_core.players.session import GameSession
    console = Console(file=io.StringIO(), force_terminal=True, width=40, color_system=None)
    session = GameSession.new("standard", "human,greedy", 3, tmp_path / "g.json", None,
                              console=console, read=lambda prompt: "quit")
    message = "you take 2 yellow from the centre to line 1 (complete), 1 to the floor"
    session.say(message)
    lines = console.file.getvalue().splitlines()
    assert len(lines) == 2 and " ".join(line.strip() for line in lines) == message  # no word cut
    assert all(len(line) <= 40 for line in lines)


def test_play_with_a_playout_budget_gives_the_same_game_for_the_same_seed(tmp_path):
    """``azul play --playouts N``: a search bot's moves depend on the seed alone."""
    games = []
    for name in ("a.json", "b.json"):
        result = CliRunner().invoke(app, ["play", "--players", "greedy,mcts", "--playouts", "8",
                                          "--seed", "4", "--record", str(tmp_path / name)], env=ENV)
        assert result.exit_code == 0, result.output
        games.append(read_record(tmp_path / name).rounds)
    assert games[0] == games[1]
    result = CliRunner().invoke(app, ["play", "--players", "greedy,mcts", "--playouts", "8", "--think", "1"],
                                env=ENV)
    assert result.exit_code == 2 and "not both" in result.stderr
