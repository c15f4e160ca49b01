"""A variant's rules in a player's words: what differs from the standard game, said as the
rule books (``docs/rules/``) say it, for the table's "Rules of this variant".

``differences.py`` finds what differs by asking both variants the same questions; this module
turns each finding into a sentence a player reads, grouping the ones that are one rule (the
wall spaces a tile may take and who chooses them; the scoring of placed tiles), and leaves out
what only a programmer needs (plugin names, hook names, memories). A house rule's plugin says
what it does in its own words: the first sentence of its module's docstring, read from the
plugin the operator already loaded (nothing is run to read it).
"""

from __future__ import annotations

import re
from typing import Iterable

from azul_core.variants.differences import Difference, differences

#: The shipped plugins' modules: their rules are told by the sentences below, not by their
#: docstrings (which talk to programmers).
SHIPPED_PREFIXES = ("azul_plugins.", "azul_core.")
#: The longest sentence taken from a plugin's docstring.
MOST_CHARACTERS = 300

#: The end-of-game probes' situations, as a player says them.
_SITUATIONS = {
    "when every row's free spaces are blocked by the colours in their columns":
        "after a round in which no player's wall has a row that can still be completed",
}


def _winners(said: str) -> str:
    """The winner probes name seats 0 and 1: the first and the second player."""
    return (said.replace("seats 0 and 1 share the victory", "both share the victory")
            .replace("seat 0 wins", "the first wins").replace("seat 1 wins", "the second wins"))


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = re.sub(r"\b1 points\b", "1 point", text[0].upper() + text[1:])
    return text if text.endswith((".", "!", "?")) else text + "."


def _or(listed: str) -> str:
    """"2, 3, 4" -> "2, 3 or 4"."""
    head, _, last = listed.rpartition(", ")
    return f"{head} or {last}" if head else listed


def _in_parentheses(standard: str) -> str:
    return f" (standard game: {standard})"


def _placement_words(found: list[Difference]) -> list[str]:
    """The scoring probes that differ, as one sentence with the examples."""
    examples = []
    for difference in found:
        label = difference.rule.removeprefix("scoring ")
        examples.append(f"{label} scores {difference.variant} (standard game: {difference.standard})")
    return [_sentence(f"A tile placed on the wall scores differently: {'; '.join(examples)}")]


def _one(difference: Difference, rules) -> str | None:
    """The sentence for one difference, or None when another sentence already says it."""
    rule, mine, theirs = difference.rule, difference.variant, difference.standard
    if rule == "players":
        return f"For {_or(mine)} players{_in_parentheses(_or(theirs))}."
    if rule.startswith("table for "):
        return _sentence(f"{rule.removeprefix('table for ').capitalize()}: {mine}{_in_parentheses(theirs)}")
    if rule == "floor":
        return _sentence(f"The floor has {mine} points in all{_in_parentheses(theirs)}")
    if rule == "a floor holding the start marker":
        return _sentence(f"With the start marker on the floor, {mine} points in all{_in_parentheses(theirs)}")
    if rule == "tiling":
        return _sentence(f"{mine}{_in_parentheses('at the end of the round')}")
    if rule == "start marker":
        if mine.startswith("kept in front"):
            return "The start-player marker takes no space on the floor: whoever takes it keeps it in front of them."
        return _sentence(f"The start-player marker goes {mine}{_in_parentheses(theirs)}")
    if rule == "when nobody took the start marker":
        return _sentence(f"When nobody takes the start marker in a round, {mine}")
    if rule == "a draft onto a pattern line that can't take the colour":
        if mine.startswith("allowed"):
            return ("You may put tiles on a pattern line that can't take them: it is a mistake, and all "
                    "the tiles taken fall to the floor (the table asks you first).")
        return "A draft onto a pattern line that can't take the colour is refused."
    if rule == "pattern lines":
        return _sentence(f"The pattern lines {mine}{_in_parentheses(theirs.removeprefix('hold '))}")
    if rule.startswith("where ") and rule.endswith(" go"):
        what = rule.removeprefix("where ").removesuffix(" go")
        return _sentence(f"{what} go {mine}{_in_parentheses(theirs)}")
    if rule == "who starts round 1":
        return "The rules choose who starts the first round."
    if rule == "which drafts are legal":
        return "A house rule forbids some drafts (see its own words)."
    if rule == "moves besides the drafts":
        labels = [move.label or move.notation for move in rules.plugin_hooks.moves]
        return _sentence(f"Besides taking tiles, a turn may offer: {'; '.join(labels)} (a button on the table)")
    if rule == "phases of choices the plugins add":
        return _sentence(f"The round has a phase of choices of its own: {mine}")
    if rule == "what the rules remember during a game":
        return None  # the table shows it as the game goes (a house rule's notes)
    if rule == "secrets":
        return "Each player is dealt a secret that only they see until the game is over."
    if rule == "what a draft takes":
        return "Taking a colour may bring other tiles along (a wild tile, say): the variant decides which."
    if rule == "tiles of another kind on a pattern line":
        return "Tiles of another kind (a wild tile, say) may stand in for the colour on a pattern line."
    if rule.startswith("what pattern line "):
        subject, _, context = rule.removeprefix("what ").partition(" takes, ")
        return _sentence(f"What a pattern line takes differs: {subject}, {context}, takes {mine}"
                         f"{_in_parentheses(theirs)}")
    if rule.startswith("end of the game "):
        situation = rule.removeprefix("end of the game ")
        situation = _SITUATIONS.get(situation, re.sub(r"^with no complete row, after round (\d+)$",
                                                      r"after round \1, even with no complete row", situation))
        if mine == "the game ends":
            return _sentence(f"The game also ends {situation}")
        if mine == "the game goes on":
            return _sentence(f"The game does not end {situation} (it does in the standard game)")
        return _sentence(f"At the end of the game {situation}: {mine}{_in_parentheses(theirs)}")
    if rule.startswith("end bonus for "):
        return _sentence(f"End bonuses for a wall with {rule.removeprefix('end bonus for ')}: {mine} in all"
                         f"{_in_parentheses(theirs)}")
    if rule.startswith("winner with "):
        return _sentence(f"Who wins: with {rule.removeprefix('winner with ')}, {_winners(mine)}"
                         f"{_in_parentheses(_winners(theirs))}")
    return _sentence(f"{rule}: {mine}{_in_parentheses(theirs)}")


def house_rule_words(plugins: Iterable) -> list[str]:
    """Each house rule's own first sentence (its module's docstring), for plugins that are
    not shipped with the game; a plugin without a docstring says nothing."""
    said = []
    for plugin in plugins:
        module = getattr(plugin, "module", None)
        name = getattr(module, "__name__", "") or ""
        if name.startswith(SHIPPED_PREFIXES):
            continue
        doc = getattr(module, "__doc__", None)
        if not isinstance(doc, str) or not doc.strip():
            continue
        paragraph = " ".join(doc.strip().split("\n\n", 1)[0].split())
        paragraph = re.sub(r"``([^`]*)``", r"\1", paragraph)
        first = re.split(r"(?<=[.!?])\s+(?=[A-Z])", paragraph, maxsplit=1)[0]
        if len(first) > MOST_CHARACTERS:
            first = first[:MOST_CHARACTERS - 1].rstrip() + "…"
        if first and first not in said:
            said.append(first)
    return said


def rules_in_words(variant, standard) -> list[str]:
    """What a player needs to know of ``variant`` beside the standard game, one sentence each
    (both are loaded ``Variant``s); one sentence when nothing differs."""
    rules = variant.rules
    found = differences(variant, standard)
    sentences = house_rule_words(variant.plugins)
    scoring = [d for d in found if d.rule.startswith("scoring ")]
    placement_said = ended_by_round = False
    for difference in found:
        if difference.rule.startswith("scoring "):
            continue
        if rules.player_chooses_column and (difference.rule == "who places a tile on the wall"
                                            or difference.rule.startswith("where a ")):
            if not placement_said:
                placement_said = True
                sentences.append(
                    "Grey wall: no colours are printed on the wall. When a full pattern line is tiled, "
                    "you choose the column for its tile: any empty space of that row, as long as the "
                    "wall then holds no colour twice in a row or in a column. When only one space is "
                    "legal the tile goes there by itself; when none is, the line's tiles fall to the floor.")
            continue
        if difference.rule.startswith("where a "):
            sentences.append(_sentence(f"Tiles go to other wall spaces: {difference.rule.removeprefix('where ')}"
                                       f" goes to {difference.variant}{_in_parentheses(difference.standard)}"))
            continue
        if difference.rule == "a floor holding the start marker" and any(d.rule == "floor" for d in found):
            continue  # the marker counts like a tile: the floor's sentence says it
        if difference.rule.startswith("end of the game with no complete row, after round "):
            if ended_by_round:
                continue  # one round's probe says it; the later ones follow from it
            ended_by_round = True
        sentence = _one(difference, rules)
        if sentence and sentence not in sentences:
            sentences.append(sentence)
    if scoring:
        sentences += _placement_words(scoring)
    if not sentences:
        return ["It plays exactly as the standard game: no rule differs."]
    return sentences + ["Everything else is as in the standard game."]


__all__ = ["house_rule_words", "rules_in_words"]
