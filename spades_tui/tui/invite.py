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

from typing import Optional

from ..i18n.language import N_, _, translated
from ..session.view import SeatView
from ..table.wire.protocol import way_back

TITLE = N_("Invite and watch code")
USED_TITLE = N_("Watch code (the invite was used)")
WATCH_HEAD = N_("To watch (anyone you give it: the public view, no hand):")


def has_invite(seat_view: SeatView | None) -> bool:
    return seat_view is not None and bool(seat_view.invite or seat_view.watch_invite)


def invite_used(seat_view: SeatView | None) -> bool:
    """Someone sat down with the invite's code: it seats no one else."""
    return seat_view is not None and bool(seat_view.invite) and seat_view.invite_taken is not None


def title(seat_view: SeatView | None) -> str:
    """The Esc menu's item and the window's title."""
    return translated(USED_TITLE if invite_used(seat_view) else TITLE)


def _holder(seat_view: SeatView) -> Optional[str]:
    """Who holds the invite's seat: None for this seat ("you"), else their name."""
    seat = seat_view.invite_taken
    assert seat is not None
    return None if seat == seat_view.seat else seat_view.players[seat].name


def invite_lines(seat_view: SeatView | None) -> tuple[str, ...]:
    """One line each, for help's table section: ("Invite: spades-tui join …", "To watch: spades-tui watch …");
    once the invite is used, the watch command first, then who holds its seat, then what takes them back."""
    if seat_view is None:
        return ()
    watch = _("To watch: {command}").format(command=seat_view.watch_invite) if seat_view.watch_invite else ""
    if invite_used(seat_view):
        holder = _holder(seat_view)
        command = way_back(seat_view.invite)
        if holder is None:
            used = _("Invite used: you hold its seat (its code seats no one else)")
            back = _("Your way back: {command}").format(command=command)
        else:
            used = _("Invite used: {player} holds its seat (its code seats no one else)").format(player=holder)
            back = _("{player}'s way back: {command}").format(player=holder, command=command)
        return tuple(line for line in (watch, used, back) if line)
    invite = _("Invite: {command}").format(command=seat_view.invite) if seat_view.invite else ""
    return tuple(line for line in (invite, watch) if line)


def _used_text(seat_view: SeatView) -> str:
    back = way_back(seat_view.invite)
    holder = _holder(seat_view)
    if holder is None:
        return _("The invite was used: you hold its seat, and its code seats no one else. If you lose the table, "
                 "spades-tui reconnects by itself; if you close it, this (no code) takes you back to your seat:"
                 "\n    {command}").format(command=back)
    return _("The invite was used: {player} holds its seat, and its code seats no one else. If {player} loses "
             "the table, their spades-tui reconnects by itself; if they close it, this (no code) takes them back to "
             "their seat:\n    {command}").format(player=holder, command=back)


def invite_text(seat_view: SeatView) -> str:
    """The window's text: each command on a line of its own, to read out or copy."""
    watch = f"{translated(WATCH_HEAD)}\n    {seat_view.watch_invite}" if seat_view.watch_invite else ""
    if invite_used(seat_view):
        return "\n\n".join(part for part in (watch, _used_text(seat_view)) if part)
    head = _("The invite (its code seats one player, once):")
    invite = f"{head}\n    {seat_view.invite}" if seat_view.invite else ""
    return "\n\n".join(part for part in (invite, watch) if part)


def invite_choices(seat_view: SeatView, first: str = "join") -> list[tuple[str, str]]:
    """The window's choices: copy either command (``first``'s first: Enter copies what was asked for), or back.
    Once the invite is used it is not offered: the watch command comes first, then the way back to its seat."""
    if invite_used(seat_view):
        back = (_("Copy your way back ({command})") if _holder(seat_view) is None else
                _("Copy their way back ({command})")).format(command=way_back(seat_view.invite))
        copies = [(key, label) for key, label, there in (
            ("watch", _("Copy the watch command"), seat_view.watch_invite),
            ("back", back, seat_view.invite)) if there]
        return [*copies, ("close", _("Back to the game"))]
    copies = [(key, label) for key, label, there in (
        ("join", _("Copy the invite"), seat_view.invite),
        ("watch", _("Copy the watch command"), seat_view.watch_invite)) if there]
    copies.sort(key=lambda choice: choice[0] != first)
    return [*copies, ("close", _("Back to the game"))]


def command_for(seat_view: SeatView, key: str) -> str:
    """The command a choice copies ("" for none); a used invite's code never."""
    if key == "watch":
        return seat_view.watch_invite
    if key == "back" and invite_used(seat_view):
        return way_back(seat_view.invite)
    if key == "join" and not invite_used(seat_view):
        return seat_view.invite
    return ""
