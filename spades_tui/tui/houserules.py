"""The rule options in a player's words: their labels, what each changes, and the house-rules lines.

Pure (no Textual): the new-game form, the settings, the score panel and the rules list all read
these, so an option is named the same everywhere (the guide, assets/guide.md, uses the labels).
"""

from __future__ import annotations

from ..session.view import PRESETS, Rules

# Each option (docs/rules.md section 9): its label on the forms, and what it changes, in a player's words.
OPTION_WORDS: dict[str, tuple[str, str]] = {
    "target": ("Target score", "the score that wins the game"),
    "bag_limit": ("Bag limit", "bags that cost points; 0 turns bags off"),
    "bag_penalty": ("Bag penalty", "the points the bag limit costs"),
    "nil": ("Nil bids", "bids of 0 allowed; when no, the lowest bid is 1"),
    "double_nil": ("Double Nil", "Double Nil may be declared before the draft"),
    "nil_tricks_are_bags": ("Nil tricks are bags", "tricks a Nil bidder wins count as bags"),
    "see_second_card": ("See the second card", "taking the first card, you see the one you discard"),
    "spades_any_time": ("Spades led any time", "a spade may be led before spades are broken"),
    "nil_points": ("Nil points", "what a Nil wins or loses"),
    "double_nil_points": ("Double Nil points", "what a Double Nil wins or loses"),
    "double_nil_behind": ("Double Nil if behind",
                          "only a player this many points behind is asked about Double Nil; 0: anyone"),
    "ten_for_200": ("10 for 200", "a made bid of 10 or more scores 20 a trick bid"),
    "losing_score": ("Losing score", "a score of minus this ends the game; 0: off"),
    "thirteen_wins": ("13 tricks win", "bid 13 and win all 13 tricks: you win the game at once"),
}


def value_words(rules: Rules, key: str) -> str:
    value = getattr(rules, key)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key in ("losing_score", "double_nil_behind") and value == 0:
        return "off"
    if key == "losing_score":
        return f"−{value}"  # the score that loses is below zero: said with its (true) minus, as scores are
    return str(value)


def rules_title(rules: Rules) -> str:
    """The preset's title, or "Own house rules" for a set of one's own."""
    name = rules.preset
    return PRESETS[name].title if name is not None else "Own house rules"


def house_rules_short(rules: Rules, width: int) -> str:
    """The score panel's one line: the preset, or how many options differ from the standard game."""
    name = rules.preset
    if name is not None:
        text = f"Rules: {PRESETS[name].title}"
    else:
        n = len(rules.changed())
        text = f"House rules: {n} change{'s' if n != 1 else ''}"
    if len(text) <= width:
        return text
    cut = text.rfind(" ", 0, width + 1)  # wrapped at a word, never cut with "…"
    return text[:cut] + "\n  " + text[cut + 1:] if cut > 0 else text


def house_rules_lines(rules: Rules) -> list[str]:
    """The options in force that differ from the standard game (the rest are as there), for the rules list."""
    changed = rules.changed()
    name = rules.preset
    lines = [PRESETS[name].about, ""] if name is not None else []
    lines += [f"{label}: {value_words(rules, key)} ({about})"
              for key, (label, about) in OPTION_WORDS.items() if key in changed]
    lines.append("Every other option as in the standard game (F1: the rules and every option).")
    return lines


def table_rules_text(rules: Rules) -> str:
    """The rules of a network table for a player who sits down: the preset, then each option not as standard."""
    changed = rules.changed()
    if not changed:
        return "the standard rules (no house rules)."
    parts = [f"{OPTION_WORDS[key][0]} {value_words(rules, key)}" for key in OPTION_WORDS if key in changed]
    return f"{rules_title(rules)}: {', '.join(parts)}."
