"""The end of the day's challenge at a server, against the field (docs/serving.md, "The day's challenge"): your
rank and percentage among the field so far, each hand's margin against the field's, and the field, best first."""

from __future__ import annotations

from typing import Optional

from ..i18n.language import _, ngettext
from ..session.field import FieldLine, FieldView
from ..session.view import SeatView
from .gameview import Command, GameView, Item, Sheet
from .houserules import preset_title
from .notation import percent, signed
from .viewmodels import _review_item, _view

FIELD_SHOWN = 10  # lines of the field under the hands (your own line added when it is further down)


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``11th`` (Swedish ``1:a``, ``3:e``; Estonian ``1.``): each English ending its own message."""
    if 10 <= n % 100 <= 20:
        return _("{number}th").format(number=n)
    if n % 10 == 1:
        return _("{number}st").format(number=n)
    if n % 10 == 2:
        return _("{number}nd").format(number=n)
    if n % 10 == 3:
        return _("{number}rd").format(number=n)
    return _("{number}th").format(number=n)


def field_line(line: FieldLine) -> str:
    margins = f"  ({', '.join(signed(m) for m in line.hands)})" if line.hands is not None else ""
    you = "  " + _("← you") if line.you else ""
    return f"{ordinal(line.rank):>5}  {line.name}  {percent(line.percent, 1)}{margins}{you}"


def field_lines(field: FieldView, shown: int = FIELD_SHOWN) -> list[str]:
    """The field, best first: the first ``shown`` lines, and yours after them when it is further down."""
    lines = [field_line(line) for line in field.entries[:shown]]
    you = field.you
    if you is not None and not any(line.you for line in field.entries[:shown]):
        lines += ["    …", field_line(you)]
    if field.count > shown and (you is None or you.rank <= shown):
        lines.append("    " + _("… and {count} more").format(count=field.count - shown))
    return lines


def _hand_rows(seat_view: SeatView, you: Optional[FieldLine]) -> tuple[tuple[str, ...], ...]:
    me = seat_view.seat if seat_view.seat is not None else 1
    rows = []
    for i, hand in enumerate(seat_view.hands[:4]):
        margin = hand.points[me] - hand.points[1 - me]
        pct = you.hand_percents[i] if you is not None and you.hand_percents is not None else None
        rows.append((_("Hand {number}").format(number=i + 1), signed(hand.points[me]), signed(hand.points[1 - me]),
                     signed(margin), "…" if pct is None else percent(pct, 1)))
    return tuple(rows)


def field_end_view(seat_view: SeatView) -> GameView:
    """Four hands played at the server: where you stand among everyone who played the same deals."""
    field = seat_view.field
    assert field is not None
    you = field.you
    sheet = Sheet(_("Each hand: points, margin, and your matchpoints against the field"),
                  ("", _("You"), _("Expert"), _("Margin"), _("Field")), _hand_rows(seat_view, you))
    if you is None:
        prompt = _("The day's challenge ({date}) is played.").format(date=field.date)
    else:
        prompt = (_("The day's challenge ({date}): {percent}, {rank} of {count} so far (practice: not kept, the "
                    "field as if it were).") if field.practice else
                  _("The day's challenge ({date}): {percent}, {rank} of {count} so far (your entry for the day)."))
        prompt = prompt.format(date=field.date, percent=percent(you.percent, 1), rank=ordinal(you.rank),
                               count=field.count)
    if field.par:
        so_far = ngettext("The field so far: {count} entry, the par among them (a hand scores 2 for each margin it "
                          "beats, 1 for each it ties):", "The field so far: {count} entries, the par among them (a "
                          "hand scores 2 for each margin it beats, 1 for each it ties):", field.count)
    else:
        so_far = ngettext("The field so far: {count} entry, the par not computed yet (a hand scores 2 for each "
                          "margin it beats, 1 for each it ties):", "The field so far: {count} entries, the par not "
                          "computed yet (a hand scores 2 for each margin it beats, 1 for each it ties):", field.count)
    info = "\n".join([so_far.format(count=field.count), *field_lines(field), seat_view.shuffle])
    items = (Item("back", _("Back to the start screen"), command=Command.NEW_GAME), *_review_item(seat_view))
    return _view(seat_view, "challenge_end", prompt, sheet=sheet, items=items, info=info.rstrip())


def standings_words(field: FieldView, where: str) -> list[str]:
    """The standings in lines (``challenge --server``, line mode): your place and each hand against the field,
    then the field, best first."""
    if field.par:
        head = ngettext("The challenge of {date} at {server} ({preset} rules), against the field: {count} entry, "
                        "the par among them. Matchpoints: 2 for each entry a hand beats, 1 for each it ties.",
                        "The challenge of {date} at {server} ({preset} rules), against the field: {count} entries, "
                        "the par among them. Matchpoints: 2 for each entry a hand beats, 1 for each it ties.",
                        field.count)
    else:
        head = ngettext("The challenge of {date} at {server} ({preset} rules), against the field: {count} entry "
                        "(the par is not computed yet). Matchpoints: 2 for each entry a hand beats, 1 for each it "
                        "ties.", "The challenge of {date} at {server} ({preset} rules), against the field: {count} "
                        "entries (the par is not computed yet). Matchpoints: 2 for each entry a hand beats, 1 for "
                        "each it ties.", field.count)
    preset = preset_title(field.preset).lower()  # "standard rules", mid-sentence
    lines = [head.format(date=field.date, server=where, preset=preset, count=field.count)]
    you = field.you
    if you is not None:
        said = _("You: {percent}, {rank} of {count} (practice, not kept).") if field.practice else \
            _("You: {percent}, {rank} of {count} (your entry).")
        lines.append(said.format(percent=percent(you.percent, 1), rank=ordinal(you.rank), count=field.count))
        if you.hands is not None and you.hand_percents is not None:
            lines += ["  " + _("Hand {number}: {margin}, {percent} against the field").format(
                number=i, margin=signed(m), percent=percent(pct, 1))
                for i, (m, pct) in enumerate(zip(you.hands, you.hand_percents, strict=True), 1)]
    elif field.entries and field.entries[0].hands is None:
        lines.append(_("Today's margins are shown once you have played today's challenge."))
    return lines + field_lines(field, len(field.entries))
