"""The score panel's text: a pure function from a seat's view to the panel at the side of the card table.

Public facts only (scores, bags, bids, tricks, whose turn, past hands), written to fit the panel's width;
the widget (``widgets/panel.py``) lays it out.  No Textual here.
"""

from __future__ import annotations

from ..i18n.language import _, ngettext
from ..session.view import Phase, SeatView
from .houserules import house_rules_short, preset_title
from .notation import bid_text, num, short_bid, signed

PAST_HANDS = 4  # the score panel's sheet of past hands
PANEL_WIDTH = 23  # the score panel's text columns (25 less its padding); ROOMY_PANEL_WIDTH from 120 columns
ROOMY_PANEL_WIDTH = 29


def panel_names(names: tuple[str, str], width: int = 8) -> tuple[str, str]:
    """Names short enough for the panel's columns, still told apart: "Bot (hard)" is "Bot",
    "Player 1" stays "Player 1"; a longer name keeps its start and its last letter ("Alexand…r")."""
    def shorten(name: str) -> str:
        name = _("You") if name == "You" else name.split(" (")[0] or name  # the default name in the player's words
        return name if len(name) <= width else name[:width - 2] + "…" + name[-1]

    a, b = shorten(names[0]), shorten(names[1])
    return (a, b) if a != b else ("P1", "P2")


def status_text(seat_view: SeatView, width: int = PANEL_WIDTH) -> str:
    """The score panel, public facts only: scores, bags, bids, tricks, whose turn, spades broken, past hands.

    ``width`` is the panel's text width: the two players' columns share what the labels leave."""
    names, obs, history = seat_view.names, seat_view.observation, seat_view.hands
    in_hand = seat_view.in_hand
    rows: list[tuple[str, tuple[object, ...]]] = [(_("Score"), obs.scores), (_("Bags"), obs.bags)]
    if in_hand:
        rows += [(_("Bid"), tuple(short_bid(b) if b is not None else bid_text(b) for b in obs.bids)),
                 (_("Won"), obs.tricks_won)]
        if any(e is not None for e in obs.exchanged):
            rows.append((_("Exch."), tuple("—" if e is None else e for e in obs.exchanged)))
    label = 6  # "Score ", "Exch. ": then each player's column, a space between them
    column = (width - label - 1) // 2
    short = panel_names(names, column)
    lines = _heading(seat_view, width)
    if in_hand:
        # Who drafts first, in those words: "first: You" read as who bids or leads first, the other player (issue 52).
        drafter = short[obs.first_drafter]
        drafts = (_("You draft first") if drafter in ("You", _("You")) else
                  _("{player} drafts first").format(player=drafter))
        hand = _("Hand {number}").format(number=obs.hand_number)
        line = f"{hand} · {drafts}"
        lines += [line] if len(line) <= width else [hand, drafts]
        lines.append(_("spades broken") if obs.spades_broken else _("spades not broken"))
    elif history:
        lines.append(ngettext("{count} hand played", "{count} hands played", len(history)).format(count=len(history)))
    lines.append("")
    lines.append(f"{'':<{label}}{short[0]:>{column}} {short[1]:>{column}}")
    lines += [_row(name, _cell(a), _cell(b), label, column) for name, (a, b) in rows]
    if seat_view.to_act is not None:
        you = seat_view.seat == seat_view.to_act and not seat_view.vs_bot
        said = _("▶ {player} (you) to act") if you else _("▶ {player} to act")
        to_act = seat_view.to_act
        line = said.format(player=names[to_act])
        lines.append(line if len(line) <= width else said.format(player=short[to_act]))
    if seat_view.table:
        lines += ["", *seat_view.table.splitlines()]
    if history:
        lines += ["", _("Past hands")]
        first = max(0, len(history) - PAST_HANDS)
        for n, h in enumerate(history[first:], first + 1):
            lines.append(f"{n:>3}{'':<{label - 3}}{signed(h.points[0]):>{column}} {signed(h.points[1]):>{column}}")
    return "\n".join(lines)


def _heading(seat_view: SeatView, width: int) -> list[str]:
    """The panel's first lines: autosave off, practice, then the game's target and house rules (or the challenge)."""
    lines = []
    if seat_view.save_error:
        lines.append(_("AUTOSAVE OFF"))  # first, so it cannot be cut off
    if seat_view.practice:
        lines.append(ngettext("PRACTICE ({count} take-back)", "PRACTICE ({count} take-backs)",
                              seat_view.practice).format(count=seat_view.practice))
    challenge = seat_view.challenge
    if challenge is not None:  # four hands, no target: the challenge's code and its rules instead
        day, _sep, preset = challenge.code.partition(":")
        lines.append(_("Challenge {day}").format(day=day))
        # "Tournament rules, ..." would not fit
        lines.append(_("{preset}, 4 hands").format(preset=preset_title(preset or "standard")))
        if challenge.on_record is not None:
            lines.append(_("PRACTICE: played before"))
    else:
        lines.append(_("Spades to {target}").format(target=seat_view.rules.target))
        # House rules in force: said on one line, listed in full on a key (o); not in the lesson, whose one change
        # (no Double Nil question) its words explain.
        if seat_view.rules.changed() and not seat_view.lesson:
            lines.append(house_rules_short(seat_view.rules, width))
    return lines


def tricks_list(seat_view: SeatView, width: int = PANEL_WIDTH) -> tuple[str, ...]:
    """This hand's completed tricks for the panel, where it has room: the led card first, then who won."""
    obs = seat_view.observation
    if not obs.tricks or obs.phase is not Phase.PLAY:
        return ()
    short = panel_names(seat_view.names, width - 12)
    lines = ["", _("Tricks (led card first)")]
    for n, ((lead, follow), winner) in enumerate(zip(obs.tricks, seat_view.trick_winners, strict=True), 1):
        lines.append(f"{n:>2}  {lead.card.label():>3} {follow.card.label():>3}  {short[winner]}")
    return tuple(lines)


def _row(name: str, a: str, b: str, label: int, column: int) -> str:
    """A row of figures under the players' names; a label longer than its place (a language's "Överstick") takes
    the blank start of the first column, so that the names keep their width."""
    left = f"{name:<{label}}" if len(name) < label else f"{name} "
    return f"{left}{a:>{label + column - len(left)}} {b:>{column}}"


def _cell(value: object) -> str:
    return num(value) if isinstance(value, int) and not isinstance(value, bool) else str(value)
