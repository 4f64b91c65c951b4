"""Line mode's checks, shared by the in-process and the pseudo-terminal tests: every line plain text (no escape
sequence but the hot-seat hand-off's clear, no box drawing, at most 200 characters) and the cards it names."""

from __future__ import annotations

import re
from typing import Iterable

from spades_tui.engine.cards import Card, Suit
from spades_tui.lines.player import CLEAR

CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([♠♥♦♣])")
WORDS = re.compile(r"\b(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of "
                   r"(spades|hearts|diamonds|clubs)\b")
RANKS = {"J": 11, "Q": 12, "K": 13, "A": 14} | {str(n): n for n in range(2, 11)}
RANK_WORDS = {w: i for i, w in enumerate(("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                                          "jack", "queen", "king", "ace"), 2)}


def cards_named(line: str) -> set[Card]:
    found = {Card.of(RANKS[r], Suit("♠♥♦♣".index(s))) for r, s in CARD.findall(line)}
    found |= {Card.of(RANK_WORDS[r], Suit[s.upper()]) for r, s in WORDS.findall(line)}
    return found


def plain_problems(lines: Iterable[str]) -> list[str]:
    """What is wrong with ``lines`` as line mode's output (the clear taken out first)."""
    problems = []
    for line in lines:
        text = line.replace(CLEAR, "")
        if any(ch == "\x1b" or (ord(ch) < 32 and ch not in "\r\t") or ord(ch) == 0x7F for ch in text):
            problems.append(f"a control character or escape sequence: {text!r}")
        if any(0x2500 <= ord(ch) <= 0x259F for ch in text):
            problems.append(f"box drawing: {text!r}")
        if len(text.rstrip("\r")) > 200:
            problems.append(f"{len(text)} characters: {text!r}")
    return problems
