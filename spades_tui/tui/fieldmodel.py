"""The end of the day's challenge at a server, against the field (docs/serving.md, "The day's challenge"): your
rank and percentage among the field so far, each hand's margin against the field's, and the field, best first."""

from __future__ import annotations

from typing import Optional

from ..session.field import FieldLine, FieldView
from ..session.view import SeatView
from .gameview import Command, GameView, Item, Sheet
from .notation import signed
from .viewmodels import _review_item, _view

FIELD_SHOWN = 10  # lines of the field under the hands (your own line added when it is further down)


def ordinal(n: int) -> str:
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


def field_line(line: FieldLine) -> str:
    margins = f"  ({', '.join(signed(m) for m in line.hands)})" if line.hands is not None else ""
    return f"{ordinal(line.rank):>5}  {line.name}  {line.percent:.1f}%{margins}{'  ← you' if line.you else ''}"


def field_lines(field: FieldView, shown: int = FIELD_SHOWN) -> list[str]:
    """The field, best first: the first ``shown`` lines, and yours after them when it is further down."""
    lines = [field_line(line) for line in field.entries[:shown]]
    you = field.you
    if you is not None and not any(line.you for line in field.entries[:shown]):
        lines += ["    …", field_line(you)]
    if field.count > shown and (you is None or you.rank <= shown):
        lines.append(f"    … and {field.count - shown} more")
    return lines


def _hand_rows(seat_view: SeatView, you: Optional[FieldLine]) -> tuple[tuple[str, ...], ...]:
    me = seat_view.seat if seat_view.seat is not None else 1
    rows = []
    for i, hand in enumerate(seat_view.hands[:4]):
        margin = hand.points[me] - hand.points[1 - me]
        pct = you.hand_percents[i] if you is not None and you.hand_percents is not None else None
        rows.append((f"Hand {i + 1}", signed(hand.points[me]), signed(hand.points[1 - me]), signed(margin),
                     "…" if pct is None else f"{pct:.1f}%"))
    return tuple(rows)


def field_end_view(seat_view: SeatView) -> GameView:
    """Four hands played at the server: where you stand among everyone who played the same deals."""
    field = seat_view.field
    assert field is not None
    you = field.you
    sheet = Sheet("Each hand: points, margin, and your matchpoints against the field",
                  ("", "You", "Expert", "Margin", "Field"), _hand_rows(seat_view, you))
    kind = "practice: not kept, the field as if it were" if field.practice else "your entry for the day"
    if you is None:
        prompt = f"The day's challenge ({field.date}) is played."
    else:
        prompt = (f"The day's challenge ({field.date}): {you.percent:.1f}%, {ordinal(you.rank)} of {field.count} "
                  f"so far ({kind}).")
    par = "the par among them" if field.par else "the par not computed yet"
    info = "\n".join([f"The field so far: {field.count} entr{'y' if field.count == 1 else 'ies'}, {par} (a hand "
                      "scores 2 for each margin it beats, 1 for each it ties):", *field_lines(field),
                      seat_view.shuffle])
    items = (Item("back", "Back to the start screen", command=Command.NEW_GAME), *_review_item(seat_view))
    return _view(seat_view, "challenge_end", prompt, sheet=sheet, items=items, info=info.rstrip())


def standings_words(field: FieldView, where: str) -> list[str]:
    """The standings in lines (``challenge --server``, line mode): your place and each hand against the field,
    then the field, best first."""
    par = ", the par among them" if field.par else " (the par is not computed yet)"
    lines = [f"The challenge of {field.date} at {where} ({field.preset} rules), against the field: "
             f"{field.count} entr{'y' if field.count == 1 else 'ies'}{par}. Matchpoints: 2 for each entry a hand "
             "beats, 1 for each it ties."]
    you = field.you
    if you is not None:
        kind = "practice, not kept" if field.practice else "your entry"
        lines.append(f"You: {you.percent:.1f}%, {ordinal(you.rank)} of {field.count} ({kind}).")
        if you.hands is not None and you.hand_percents is not None:
            lines += [f"  Hand {i}: {signed(m)}, {pct:.1f}% against the field"
                      for i, (m, pct) in enumerate(zip(you.hands, you.hand_percents, strict=True), 1)]
    elif field.entries and field.entries[0].hands is None:
        lines.append("Today's margins are shown once you have played today's challenge.")
    return lines + field_lines(field, len(field.entries))
