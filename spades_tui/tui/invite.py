"""A network table's invite and watch command as the screens say them: the Esc menu's and the palette's window,
and help's table section.  Pure text from a seat's view, no Textual.

Only a seat that has the table's codes has them (its host, a seat welcomed with them): a watcher is sent no
code, so its view holds neither and nothing here is shown to it.
"""

from __future__ import annotations

from ..session.view import SeatView

TITLE = "Invite and watch code"


def has_invite(seat_view: SeatView | None) -> bool:
    return seat_view is not None and bool(seat_view.invite or seat_view.watch_invite)


def invite_lines(seat_view: SeatView | None) -> tuple[str, ...]:
    """One line each, for help's table section: ("Invite: spades-tui join …", "To watch: spades-tui watch …")."""
    if seat_view is None:
        return ()
    return tuple(line for line in (f"Invite: {seat_view.invite}" if seat_view.invite else "",
                                   f"To watch: {seat_view.watch_invite}" if seat_view.watch_invite else "") if line)


def invite_text(seat_view: SeatView) -> str:
    """The window's text: each command on a line of its own, to read out or copy."""
    parts = []
    if seat_view.invite:
        parts.append(f"The invite (its code seats one player, once):\n    {seat_view.invite}")
    if seat_view.watch_invite:
        parts.append(f"To watch (anyone you give it: the public view, no hand):\n    {seat_view.watch_invite}")
    return "\n\n".join(parts)


def invite_choices(seat_view: SeatView, first: str = "join") -> list[tuple[str, str]]:
    """The window's choices: copy either command (``first``'s first: Enter copies what was asked for), or back."""
    copies = [(key, label) for key, label, there in (
        ("join", "Copy the invite", seat_view.invite), ("watch", "Copy the watch command", seat_view.watch_invite))
        if there]
    copies.sort(key=lambda choice: choice[0] != first)
    return [*copies, ("close", "Back to the game")]


def command_for(seat_view: SeatView, key: str) -> str:
    """The command a choice copies ("" for none)."""
    return seat_view.invite if key == "join" else seat_view.watch_invite if key == "watch" else ""
