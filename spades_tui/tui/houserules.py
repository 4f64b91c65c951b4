"""The rule options in a player's words: their labels, what each changes, and the house-rules lines.

Pure (no Textual): the new-game form, the settings, the score panel and the rules list all read
these, so an option is named the same everywhere (the guide, assets/guide.md, uses the labels).
"""

from __future__ import annotations

from ..i18n.language import _, ngettext
from ..session.view import PRESETS, Rules
from ..settings.rulewords import OPTION_WORDS, option_about, option_label

__all__ = ["OPTION_WORDS", "option_about", "option_label"]  # their home is settings/rulewords.py

def preset_title(name: str) -> str:
    """A preset's title in the player's language (``Standard``); a name that is no preset's, as it is."""
    return PRESETS[name].title if name in PRESETS else name  # the title is in the player's language


def value_words(rules: Rules, key: str) -> str:
    value = getattr(rules, key)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if key in ("losing_score", "double_nil_behind") and value == 0:
        return _("off")
    if key == "losing_score":
        return f"−{value}"  # the score that loses is below zero: said with its (true) minus, as scores are
    return str(value)


def rules_title(rules: Rules) -> str:
    """The preset's title, or "Own house rules" for a set of one's own."""
    name = rules.preset
    return preset_title(name) if name is not None else _("Own house rules")


def house_rules_short(rules: Rules, width: int) -> str:
    """The score panel's one line: the preset, or how many options differ from the standard game."""
    name = rules.preset
    if name is not None:
        text = _("Rules: {preset}").format(preset=preset_title(name))
    else:
        n = len(rules.changed())
        text = ngettext("House rules: {count} change", "House rules: {count} changes", n).format(count=n)
    if len(text) <= width:
        return text
    cut = text.rfind(" ", 0, width + 1)  # wrapped at a word, never cut with "…"
    return text[:cut] + "\n  " + text[cut + 1:] if cut > 0 else text


def house_rules_lines(rules: Rules) -> list[str]:
    """The options in force that differ from the standard game (the rest are as there), for the rules list."""
    changed = rules.changed()
    name = rules.preset
    lines = [PRESETS[name].about, ""] if name is not None else []
    lines += [f"{option_label(key)}: {value_words(rules, key)} ({option_about(key)})"
              for key in OPTION_WORDS if key in changed]
    lines.append(_("Every other option as in the standard game (F1: the rules and every option)."))
    return lines


def table_rules_text(rules: Rules) -> str:
    """The rules of a network table for a player who sits down: the preset, then each option not as standard."""
    changed = rules.changed()
    if not changed:
        return _("the standard rules (no house rules).")
    parts = [f"{option_label(key)} {value_words(rules, key)}" for key in OPTION_WORDS if key in changed]
    return f"{rules_title(rules)}: {', '.join(parts)}."
