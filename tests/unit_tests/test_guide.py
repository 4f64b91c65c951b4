"""The players' guide (assets/guide.md, shown by the help) agrees with the rulebook of record (assets/rules.md).

The facts are read from assets/rules.md, not copied here: a rule changed in assets/rules.md and not in the guide fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spades_tui.tui.app.guide import TOPICS, guide_for, guide_sections

ROOT = Path(__file__).resolve().parents[2]
RULES = (ROOT / "assets" / "rules.md").read_text(encoding="utf-8")
GUIDE = (ROOT / "assets" / "guide.md").read_text(encoding="utf-8")
# The rule options' rows are written in forms.py, their labels in settings/rulewords.py (words the tables say too).
SETUP = "\n".join((ROOT / "spades_tui" / path).read_text(encoding="utf-8")
                  for path in ("tui/screens/forms.py", "tui/houserules.py", "settings/rulewords.py"))

# assets/rules.md section 9's option names, as the setup screen labels them (the guide uses the labels only).
LABELS = {
    "target": "Target score", "bag_limit": "Bag limit / penalty", "bag_penalty": "Bag limit / penalty",
    "nil": "Nil bids", "double_nil": "Double Nil", "nil_tricks_are_bags": "Nil tricks are bags",
    "see_second_card": "See the second card", "spades_any_time": "Spades led any time", "nil_points": "Nil points",
    "double_nil_points": "Double Nil points", "double_nil_behind": "Double Nil if behind",
    "ten_for_200": "10 for 200", "losing_score": "Losing score", "thirteen_wins": "13 tricks win",
}


def rules_section(number: int) -> str:
    match = re.search(rf"^## {number}\. .*?$(.*?)(?=^## |\Z)", RULES, re.M | re.S)
    assert match, f"rules.md has no section {number}"
    return match.group(1)


def rules_items(number: int) -> list[tuple[str, str]]:
    """The numbered rules of a section of assets/rules.md: ("7.1", text)."""
    body = rules_section(number)
    items = re.findall(r"^(\d+)\. (.*?)(?=^\d+\. |\Z)", body, re.M | re.S)
    assert items, f"rules.md section {number} has no numbered rules"
    return [(f"{number}.{n}", text) for n, text in items]


def numbers(text: str) -> set[str]:
    """The numbers a rule states, signed where it signs them, without its references to other rules."""
    text = text.replace("−", "-")
    text = re.sub(r"\((?:sections? )?\d+(?:\.\d+)?(?: and \d+(?:\.\d+)?)*\)", "", text)  # "(4.3)", "(2 and 4.2)"
    text = re.sub(r"\b\d+\.\d+\b|section \d+|`[^`]*`", "", text)
    return set(re.findall(r"[+-]?\d+", text))


def guide(*headings: str) -> str:
    _preamble, sections = guide_sections(GUIDE)
    found = {h: body for h, body in sections}
    for heading in headings:
        assert heading in found, f"guide.md has no section '## {heading}'"
    return "\n".join(found[h] for h in headings).replace("−", "-")


def has_number(text: str, number: str) -> bool:
    return re.search(rf"(?<![\d+-]){re.escape(number)}(?!\d)" if number[0] in "+-"
                     else rf"(?<!\d){re.escape(number)}(?!\d)", text) is not None


def test_the_guide_has_every_section_the_help_names() -> None:
    headings = [h for h, _ in guide_sections(GUIDE)[1]]
    for wanted in ("How a hand goes", "The draft", "Double Nil", "Bidding", "Play", "Scoring", "Rule options",
                   "End of the game", "Glossary"):
        assert wanted in headings
    assert {h for topic in TOPICS.values() for h in topic} <= set(headings)


@pytest.mark.parametrize("rule, text", [pytest.param(r, t, id=r) for r, t in rules_items(7)])
def test_every_scoring_number_is_in_the_guides_scoring(rule: str, text: str) -> None:
    scoring = guide("Scoring")
    missing = {n for n in numbers(text) if not has_number(scoring, n)}
    assert not missing, f"rules.md {rule} says {sorted(missing)}, the guide's Scoring does not"


@pytest.mark.parametrize("section, headings", [(3, ("The draft",)), (4, ("Double Nil",)), (5, ("Bidding",)),
                                               (8, ("End of the game",))])
def test_every_number_of_the_draft_double_nil_bidding_and_end_is_in_the_guide(section: int,
                                                                             headings: tuple[str, ...]) -> None:
    text = guide(*headings)
    for rule, body in rules_items(section):
        missing = {n for n in numbers(body) if not has_number(text, n)}
        assert not missing, f"rules.md {rule} says {sorted(missing)}, the guide's {headings} does not"


def test_the_exchange_is_up_to_three_cards() -> None:
    assert "up to three" in dict(rules_items(4))["4.3"].replace("*", "")
    assert "up to three" in guide("Double Nil").replace("*", "")


def test_the_target_default_of_rule_1_3_is_in_how_a_hand_goes_and_the_end() -> None:
    target = re.search(r"default \*\*(\d+)\*\*", dict(rules_items(1))["1.3"])
    assert target
    assert has_number(guide("How a hand goes"), target.group(1))
    assert has_number(guide("End of the game"), target.group(1))


def test_every_rule_option_default_is_in_the_guide_by_its_setup_screen_name() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (\w+) \|", rules_section(9), re.M)
    assert {name for name, _ in rows} == set(LABELS), "a rule option was added or renamed in rules.md"
    options = guide("Rule options")
    for name, default in rows:
        label = LABELS[name]
        assert f'"{label}"' in SETUP, f"the setup screen has no label {label!r}"
        line = next((ln for ln in options.splitlines() if ln.startswith(f"| {label} |")), None)
        assert line is not None, f"the guide's options table has no row for {label!r}"
        cell = line.split("|")[2].strip()
        if default in ("true", "false"):
            assert cell == ("yes" if default == "true" else "no"), f"{label}: rules.md says {default}"
        else:
            assert has_number(cell, default), f"{label}: rules.md says {default}, the guide {cell}"


def test_the_guide_speaks_to_players_not_developers() -> None:
    for word in ("game record", "game-record", "test", "see_second_card", "nil_tricks_are_bags", "bag_limit",
                 "double_nil", "`"):
        assert word not in GUIDE.lower(), word


def test_the_help_puts_the_topics_sections_first_and_keeps_the_rest() -> None:
    first, rest = guide_for("draft", GUIDE)
    assert first.startswith("## The draft") and "## Double Nil" in first and "## Double Nil" not in rest
    assert "## Bidding" in rest and "## Glossary" in rest
    assert guide_for("bidding", GUIDE)[0].startswith("## Bidding")
    assert guide_for(None, GUIDE)[0] == ""


def test_the_readme_picture_is_a_snapshot_that_exists() -> None:
    """The README shows the play screen through its snapshot file: renaming the test must not break it."""
    import re
    from pathlib import Path
    from urllib.parse import unquote

    root = Path(__file__).resolve().parents[2]
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", (root / "README.md").read_text(encoding="utf-8"))
    assert pictures
    for link in pictures:
        assert (root / unquote(link)).is_file(), link
