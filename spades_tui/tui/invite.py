"""A network table's invite and watch command as the screens say them: the Esc menu's and the palette's window,
and help's table section.  Pure text from a seat's view, no Textual.

Only a seat that has the table's codes has them (its host, a seat welcomed with them): a watcher is sent no
code, so its view holds neither and nothing here is shown to it.

The invite's code seats one player, once.  While its seat is empty the invite comes first, to give; once
someone sat down with it (``SeatView.invite_taken``) it is said to be used, by whom, and what takes that
player back to their seat (``join`` with no code), and the watch code comes first: it is what lets anyone
else in.  A spent code is never offered to copy.
"""

from __future__ import annotations

from ..session.view import SeatView
from ..table.wire.protocol import way_back

TITLE = "Invite and watch code"
USED_TITLE = "Watch code (the invite was used)"
WATCH_HEAD = "To watch (anyone you give it: the public view, no hand):"


def has_invite(seat_view: SeatView | None) -> bool:
    return seat_view is not None and bool(seat_view.invite or seat_view.watch_invite)


def invite_used(seat_view: SeatView | None) -> bool:
    """Someone sat down with the invite's code: it seats no one else."""
    return seat_view is not None and bool(seat_view.invite) and seat_view.invite_taken is not None


def title(seat_view: SeatView | None) -> str:
    """The Esc menu's item and the window's title."""
    return USED_TITLE if invite_used(seat_view) else TITLE


def _holder(seat_view: SeatView) -> str:
    """Who holds the invite's seat: "you", or their name."""
    seat = seat_view.invite_taken
    assert seat is not None
    return "you" if seat == seat_view.seat else seat_view.players[seat].name


def invite_lines(seat_view: SeatView | None) -> tuple[str, ...]:
    """One line each, for help's table section: ("Invite: spades-tui join …", "To watch: spades-tui watch …");
    once the invite is used, the watch command first, then who holds its seat, then what takes them back."""
    if seat_view is None:
        return ()
    watch = f"To watch: {seat_view.watch_invite}" if seat_view.watch_invite else ""
    if invite_used(seat_view):
        holder = _holder(seat_view)
        mine = holder == "you"
        used = f"Invite used: {holder} {'hold' if mine else 'holds'} its seat (its code seats no one else)"
        back = f"{'Your' if mine else holder + chr(39) + 's'} way back: {way_back(seat_view.invite)}"
        return tuple(line for line in (watch, used, back) if line)
    return tuple(line for line in (f"Invite: {seat_view.invite}" if seat_view.invite else "", watch) if line)


def _used_text(seat_view: SeatView) -> str:
    back = way_back(seat_view.invite)
    holder = _holder(seat_view)
    if holder == "you":
        return ("The invite was used: you hold its seat, and its code seats no one else. If you lose the table, "
                "spades-tui reconnects by itself; if you close it, this (no code) takes you back to your seat:"
                f"\n    {back}")
    return (f"The invite was used: {holder} holds its seat, and its code seats no one else. If {holder} loses "
            "the table, their spades-tui reconnects by itself; if they close it, this (no code) takes them back to "
            f"their seat:\n    {back}")


def invite_text(seat_view: SeatView) -> str:
    """The window's text: each command on a line of its own, to read out or copy."""
    watch = f"{WATCH_HEAD}\n    {seat_view.watch_invite}" if seat_view.watch_invite else ""
    if invite_used(seat_view):
        return "\n\n".join(part for part in (watch, _used_text(seat_view)) if part)
    invite = f"The invite (its code seats one player, once):\n    {seat_view.invite}" if seat_view.invite else ""
    return "\n\n".join(part for part in (invite, watch) if part)


def invite_choices(seat_view: SeatView, first: str = "join") -> list[tuple[str, str]]:
    """The window's choices: copy either command (``first``'s first: Enter copies what was asked for), or back.
    Once the invite is used it is not offered: the watch command comes first, then the way back to its seat."""
    if invite_used(seat_view):
        whose = "your" if _holder(seat_view) == "you" else "their"
        copies = [(key, label) for key, label, there in (
            ("watch", "Copy the watch command", seat_view.watch_invite),
            ("back", f"Copy {whose} way back ({way_back(seat_view.invite)})", seat_view.invite)) if there]
        return [*copies, ("close", "Back to the game")]
    copies = [(key, label) for key, label, there in (
        ("join", "Copy the invite", seat_view.invite), ("watch", "Copy the watch command", seat_view.watch_invite))
        if there]
    copies.sort(key=lambda choice: choice[0] != first)
    return [*copies, ("close", "Back to the game")]


def command_for(seat_view: SeatView, key: str) -> str:
    """The command a choice copies ("" for none); a used invite's code never."""
    if key == "watch":
        return seat_view.watch_invite
    if key == "back" and invite_used(seat_view):
        return way_back(seat_view.invite)
    if key == "join" and not invite_used(seat_view):
        return seat_view.invite
    return ""
