"""The plugins' own moves, memory and secrets, resolved once per variant.

The hooks of ``hookspecs.PER_PLUGIN_HOOKS`` are asked of each plugin about
its own moves, memory and secrets, so they are not compiled into one
first-result function: ``PluginHooks`` keeps, per hook, the implementations
in call order with the arguments each asks for, and calls one with that
plugin's memory and the seat's secret. They run once per turn or round,
never per candidate move; a variant none of whose plugins implements them
pays one attribute test per draft.
"""

from __future__ import annotations

import re
from typing import Any

import pluggy

from azul_core.engine.plugins import PluginError, _call, _refused, implementations
from azul_core.engine.transfers import MAX_TRANSFER_COUNT, MAX_TRANSFERS, transfer_problem
from azul_core.rules import (
    BAG,
    DRAW_TARGETS,
    MAX_MOVE_ARG,
    MAX_MOVE_ARGS,
    MOVE_NAME_PATTERN,
    PHASE_STAGES,
    Draw,
    Move,
    Outcome,
    Phase,
    Place,
    Transfer,
)

#: The most moves a variant's plugins may declare (the RL adapters give each an action).
MAX_DECLARED_MOVES = 64
#: How deep and how large a plugin's memory or secret may be.
MAX_MEMORY_DEPTH = 8
MAX_MEMORY_ITEMS = 1000
MAX_MEMORY_TEXT = 200
MAX_MEMORY_NUMBER = 10**9
#: The most points one outcome may give or take.
MAX_OUTCOME_POINTS = 10**6

_MOVE_NAME = re.compile(f"^{MOVE_NAME_PATTERN}$")


def memory_problem(value: Any) -> str | None:
    """Why ``value`` can't be a plugin's memory or secret, or ``None``: plain, immutable,
    small (None, bool, whole numbers, strings, tuples of these)."""
    items = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        items += 1
        if items > MAX_MEMORY_ITEMS:
            return f"more than {MAX_MEMORY_ITEMS} items"
        kind = item.__class__
        if item is None or kind is bool:
            continue
        if kind is int:
            if not -MAX_MEMORY_NUMBER <= item <= MAX_MEMORY_NUMBER:
                return f"a number beyond {MAX_MEMORY_NUMBER} either way"
        elif kind is str:
            if len(item) > MAX_MEMORY_TEXT:
                return f"a string longer than {MAX_MEMORY_TEXT} characters"
        elif kind is tuple:
            if depth >= MAX_MEMORY_DEPTH:
                return f"tuples nested more than {MAX_MEMORY_DEPTH} deep"
            stack.extend((element, depth + 1) for element in item)
        else:
            return (f"a {kind.__name__} is not a plain immutable value (use None, true/false, "
                    "whole numbers, strings and tuples of these)")
    return None


def move_problem(move: Any) -> str | None:
    """Why ``move`` is not a well-formed ``Move``, or ``None``."""
    if not isinstance(move, Move):
        return "expected a Move"
    if move.name.__class__ is not str or not _MOVE_NAME.match(move.name):
        return (f"the move name {move.name!r} must be lower-case letters, digits and '-', "
                "starting with a letter, at most 24 characters")
    if move.args.__class__ is not tuple or len(move.args) > MAX_MOVE_ARGS or any(
            arg.__class__ is not int or not 0 <= arg <= MAX_MOVE_ARG for arg in move.args):
        return f"a move's args are a tuple of at most {MAX_MOVE_ARGS} whole numbers from 0 to {MAX_MOVE_ARG}"
    if move.label.__class__ is not str or len(move.label) > 80 or not move.label.isprintable():
        return "a move's label is printable text of at most 80 characters"
    return None


class PluginHooks:
    """A variant's per-plugin hooks, in call order, with what each implementation asks for."""

    def __init__(self, pm: pluggy.PluginManager, settings: Any):
        self.settings = settings
        self.by_hook = {hook: implementations(pm, hook)
                        for hook in ("azul_declare_phases", "azul_declare_moves", "azul_initial_memory",
                                     "azul_deal_secrets",
                                     "azul_offer_moves", "azul_apply_move", "azul_tiles_drawn",
                                     "azul_after_draft", "azul_round_start")}
        #: every declared move -> the plugin that declared it (with its label)
        self.declared: dict[Move, str] = {}
        #: the declared moves by their record notation
        self.by_notation: dict[str, Move] = {}
        for impl in reversed(self.by_hook["azul_declare_moves"]):  # file order
            answer = _call(impl, "azul_declare_moves", {"settings": settings})
            for move in answer or ():
                why = move_problem(move)
                if why:
                    raise _refused(impl, "azul_declare_moves", move, why)
                if move in self.declared:
                    raise _refused(impl, "azul_declare_moves", move,
                                   f"plugin '{self.declared[move]}' declares {move.notation} already")
                self.declared[move] = impl.plugin_name
                self.by_notation[move.notation] = move
        if len(self.declared) > MAX_DECLARED_MOVES:
            raise PluginError(f"the plugins declare {len(self.declared)} moves: at most "
                              f"{MAX_DECLARED_MOVES} in a variant", hook="azul_declare_moves")
        #: the declared moves in a fixed order (the RL adapters' action numbers)
        self.moves: tuple[Move, ...] = tuple(self.declared)
        #: whether any move comes before the drafts when offered (else drafts need no check)
        self.any_exclusive = any(move.exclusive for move in self.moves)
        self.offers_moves = bool(self.by_hook["azul_offer_moves"])
        self.remembers = any(self.by_hook[hook] for hook in
                             ("azul_initial_memory", "azul_after_draft", "azul_round_start"))
        self.deals_secrets = bool(self.by_hook["azul_deal_secrets"])
        #: plugins that keep memory or deal secrets, in file order (records write them so)
        self.memory_plugins = tuple(dict.fromkeys(
            impl.plugin_name for hook in ("azul_initial_memory", "azul_after_draft", "azul_round_start",
                                          "azul_apply_move", "azul_tiles_drawn")
            for impl in reversed(self.by_hook[hook])))
        self.secret_plugins = tuple(impl.plugin_name for impl in reversed(self.by_hook["azul_deal_secrets"]))
        #: the phases of choices the plugins add, by stage
        self.phases: dict[str, Phase] = {}
        for impl in reversed(self.by_hook["azul_declare_phases"]):  # file order
            for phase in _call(impl, "azul_declare_phases", {"settings": settings}) or ():
                if not isinstance(phase, Phase) or phase.stage not in PHASE_STAGES or \
                        phase.at_once.__class__ is not bool:
                    raise _refused(impl, "azul_declare_phases", phase,
                                   f"expected a Phase of a stage among {', '.join(PHASE_STAGES)}")
                if phase.words.__class__ is not str or len(phase.words) > 120 or not phase.words.isprintable():
                    raise _refused(impl, "azul_declare_phases", phase,
                                   "a phase's words are printable text of at most 120 characters")
                if self.phases.get(phase.stage, phase) != phase:
                    raise _refused(impl, "azul_declare_phases", phase,
                                   f"another plugin declares the {phase.stage} phase otherwise")
                self.phases[phase.stage] = phase
        if self.phases and not self.offers_moves:
            impl = self.by_hook["azul_declare_phases"][0]
            raise PluginError(f"plugin '{impl.plugin_name}' declares phases but no plugin offers moves "
                              "(azul_offer_moves)", plugin=impl.plugin_name, hook="azul_declare_phases")
        if self.offers_moves and not self.declared:
            impl = self.by_hook["azul_offer_moves"][0]
            raise PluginError(f"plugin '{impl.plugin_name}' offers moves but declares none "
                              "(azul_declare_moves)", plugin=impl.plugin_name, hook="azul_offer_moves")

    # ------------------------------------------------------------------ asking

    def _kwargs(self, impl: Any, state: Any, seat: int | None, **given: Any) -> dict:
        names = impl.argnames
        kwargs = {"settings": self.settings, **given}
        if "memory" in names:
            kwargs["memory"] = state.memory.get(impl.plugin_name)
        if "secret" in names:
            secrets = state.secrets.get(impl.plugin_name)
            kwargs["secret"] = None if secrets is None or seat is None else secrets[seat]
        if "game" in names:
            from azul_core.engine.view import GameView
            kwargs["game"] = GameView(state)
        if "seat" in names:
            kwargs["seat"] = seat
        return kwargs

    def _remembered(self, impl: Any, hook: str, answer: Any, memory: dict) -> dict:
        if answer is None:
            return memory
        why = memory_problem(answer)
        if why:
            raise _refused(impl, hook, answer, why)
        return {**memory, impl.plugin_name: answer}

    def initial_memory(self, players: int) -> dict:
        memory: dict = {}
        for impl in reversed(self.by_hook["azul_initial_memory"]):
            answer = _call(impl, "azul_initial_memory", {"players": players, "settings": self.settings})
            memory = self._remembered(impl, "azul_initial_memory", answer, memory)
        return memory

    def deal_secrets(self, players: int, rng: Any) -> dict:
        secrets: dict = {}
        for impl in reversed(self.by_hook["azul_deal_secrets"]):
            answer = _call(impl, "azul_deal_secrets", {"players": players, "rng": rng,
                                                       "settings": self.settings})
            if answer is None:
                continue
            answer = tuple(answer) if isinstance(answer, (list, tuple)) else answer
            why = ("expected one secret per seat" if answer.__class__ is not tuple or len(answer) != players
                   else memory_problem(answer))
            if why:
                raise _refused(impl, "azul_deal_secrets", answer, why)
            secrets[impl.plugin_name] = answer
        return secrets

    def round_started(self, state: Any) -> dict:
        memory = state.memory
        for impl in reversed(self.by_hook["azul_round_start"]):
            answer = _call(impl, "azul_round_start",
                           self._kwargs(impl, state, None, round_number=state.round))
            memory = self._remembered(impl, "azul_round_start", answer, memory)
            state.memory = memory
        return memory

    def drafted(self, state: Any, source: int, colour: int, count: int, line: int, seat: int) -> dict:
        memory = state.memory
        for impl in reversed(self.by_hook["azul_after_draft"]):
            answer = _call(impl, "azul_after_draft", self._kwargs(
                impl, state, seat, source=source, colour=colour, count=count, line=line))
            memory = self._remembered(impl, "azul_after_draft", answer, memory)
            state.memory = memory
        return memory

    def offered(self, state: Any, stage: str, seat: int) -> list[Move]:
        """The moves the plugins offer ``seat`` at ``stage``, as declared (with their labels)."""
        moves: list[Move] = []
        for impl in reversed(self.by_hook["azul_offer_moves"]):
            answer = _call(impl, "azul_offer_moves", self._kwargs(impl, state, seat, stage=stage))
            for move in answer or ():
                owner = self.declared.get(move) if isinstance(move, Move) else None
                if owner != impl.plugin_name:
                    why = (move_problem(move) or ("a move it did not declare (azul_declare_moves)"
                                                  if owner is None else f"a move of plugin '{owner}'"))
                    raise _refused(impl, "azul_offer_moves", move, why)
                if move not in moves:
                    # As declared: its label (unless the offer gives another) and whether it
                    # is exclusive (the declaration alone says).
                    declared = self.by_notation[move.notation]
                    moves.append(declared if not move.label or move.label == declared.label else
                                 Move(move.name, move.args, move.label, declared.exclusive))
        return moves

    def outcome(self, state: Any, move: Move, seat: int) -> tuple[Outcome, str]:
        """What ``move`` does, from the plugin that declared it, checked."""
        owner = self.declared[move]
        for impl in self.by_hook["azul_apply_move"]:
            if impl.plugin_name != owner:
                continue
            answer = _call(impl, "azul_apply_move", self._kwargs(impl, state, seat, move=move))
            if answer is None:
                return Outcome(), owner
            why = outcome_problem(answer, state.rules.size)
            if why:
                raise _refused(impl, "azul_apply_move", answer, why)
            return answer, owner
        return Outcome(), owner

    def tiles_drawn(self, state: Any, owner: str, seat: int, target: Any, drawn: tuple[int, ...]) -> Outcome:
        """What the plugin ``owner`` does on learning what its draw brought (``Outcome()``:
        nothing), checked; a draw in it is refused."""
        for impl in self.by_hook["azul_tiles_drawn"]:
            if impl.plugin_name != owner:
                continue
            answer = _call(impl, "azul_tiles_drawn",
                           self._kwargs(impl, state, seat, drawn=drawn, target=target))
            if answer is None:
                return Outcome()
            why = outcome_problem(answer, state.rules.size) or (
                "an answer to azul_tiles_drawn may not draw again" if answer.draws else None)
            if why:
                raise _refused(impl, "azul_tiles_drawn", answer, why)
            return answer
        return Outcome()


def outcome_problem(outcome: Any, size: int = 5) -> str | None:
    """Why ``outcome`` is not one the engine can carry out on a board of ``size`` lines, or None."""
    if not isinstance(outcome, Outcome):
        return "expected an Outcome"
    if outcome.points.__class__ is not int or not -MAX_OUTCOME_POINTS <= outcome.points <= MAX_OUTCOME_POINTS:
        return f"points must be a whole number within {MAX_OUTCOME_POINTS} either way"
    if outcome.ends_turn.__class__ is not bool:
        return "ends_turn must be true or false"
    shift = outcome.shift
    if shift is not None:
        if (shift.__class__ is not tuple or len(shift) != 3 or any(v.__class__ is not int for v in shift)
                or not 0 <= shift[0] < size or not 0 <= shift[1] <= size
                or shift[0] == shift[1] or shift[2] < 1):
            return (f"shift must be (from_line 0-{size - 1}, to_line 0-{size} and not from_line, "
                    "count from 1)")
    for name, items, problem in (("transfer", outcome.transfers, transfer_problem),
                                 ("draw", outcome.draws, draw_problem)):
        if items.__class__ is not tuple or len(items) > MAX_TRANSFERS:
            return f"{name}s must be a tuple of at most {MAX_TRANSFERS} {name.title()}"
        for item in items:
            why = problem(item)
            if why:
                return f"{name} {item!r}: {why}"
    scores = outcome.scores
    if scores.__class__ is not tuple or any(
            pair.__class__ is not tuple or len(pair) != 2 or any(v.__class__ is not int for v in pair)
            or not -MAX_OUTCOME_POINTS <= pair[1] <= MAX_OUTCOME_POINTS for pair in scores):
        return f"scores must be a tuple of (seat, points) pairs, points within {MAX_OUTCOME_POINTS} either way"
    return memory_problem(outcome.memory)


def draw_problem(draw: Any) -> str | None:
    """Why ``draw`` is not a well-formed ``Draw`` (whatever the game), or None."""
    if not isinstance(draw, Draw):
        return f"expected a Draw, not {type(draw).__name__}"
    target = draw.target
    why = transfer_problem(Transfer(BAG, target, 0, 1)) if isinstance(target, Place) else \
        f"{target!r} is not a Place"
    if why:
        return why
    if target.what not in DRAW_TARGETS:
        return f"tiles are drawn onto {', '.join(DRAW_TARGETS)}, not {target}"
    if draw.count.__class__ is not int or not 1 <= draw.count <= MAX_TRANSFER_COUNT:
        return f"count must be from 1 to {MAX_TRANSFER_COUNT}"
    return None


def seen_secrets(secrets: dict, seat: int | None) -> dict:
    """``secrets`` as ``seat`` may see them: its own, ``None`` for the others' (all hidden for
    ``None``, a watcher)."""
    return {plugin: tuple(value if index == seat else None for index, value in enumerate(values))
            for plugin, values in secrets.items()}


def plain(value: Any) -> Any:
    """A memory or secret as JSON (tuples become lists)."""
    if value.__class__ is tuple:
        return [plain(item) for item in value]
    return value


def from_plain(value: Any) -> Any:
    """A memory or secret read from JSON (lists become tuples)."""
    if value.__class__ is list:
        return tuple(from_plain(item) for item in value)
    return value

