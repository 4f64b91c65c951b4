"""The rule options in a player's words: each option's label on the forms and what it changes.

Below the interface and the network tables, so that both name an option the same way (the new-game form, the
settings, the score panel, the rules list, and a public table's line in the lobby).
"""

from __future__ import annotations

from ..i18n.language import N_, translated

# Each option (docs/rules.md section 9): its label on the forms, and what it changes, in a player's words.  Marked
# for the catalog here, in the player's language where shown: ``option_label``, ``option_about`` (or ``translated``).
OPTION_WORDS: dict[str, tuple[str, str]] = {
    "target": (N_("Target score"), N_("the score that wins the game")),
    "bag_limit": (N_("Bag limit"), N_("bags that cost points; 0 turns bags off")),
    "bag_penalty": (N_("Bag penalty"), N_("the points the bag limit costs")),
    "nil": (N_("Nil bids"), N_("bids of 0 allowed; when no, the lowest bid is 1")),
    "double_nil": (N_("Double Nil"), N_("Double Nil may be declared before the draft")),
    "nil_tricks_are_bags": (N_("Nil tricks are bags"), N_("tricks a Nil bidder wins count as bags")),
    "see_second_card": (N_("See the second card"), N_("taking the first card, you see the one you discard")),
    "spades_any_time": (N_("Spades led any time"), N_("a spade may be led before spades are broken")),
    "nil_points": (N_("Nil points"), N_("what a Nil wins or loses")),
    "double_nil_points": (N_("Double Nil points"), N_("what a Double Nil wins or loses")),
    "double_nil_behind": (N_("Double Nil if behind"),
                          N_("only a player this many points behind is asked about Double Nil; 0: anyone")),
    "ten_for_200": (N_("10 for 200"), N_("a made bid of 10 or more scores 20 a trick bid")),
    "losing_score": (N_("Losing score"), N_("a score of minus this ends the game; 0: off")),
    "thirteen_wins": (N_("13 tricks win"), N_("bid 13 and win all 13 tricks: you win the game at once")),
}


def option_label(key: str) -> str:
    """An option's label in the player's language: ``Target score``."""
    return translated(OPTION_WORDS[key][0])


def option_about(key: str) -> str:
    """What an option changes, in the player's language."""
    return translated(OPTION_WORDS[key][1])
