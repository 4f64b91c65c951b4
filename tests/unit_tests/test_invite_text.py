"""A network table's invite as the screens say it (tui/invite.py): given while its seat is empty; once someone sat
down with it, said to be used (by whom, and what takes them back to their seat) after the watch command, and
its spent code never offered to copy.  Issue 37's tmux trial: the window still offered a used invite."""

from __future__ import annotations

from dataclasses import replace

from spades_tui.engine.record import PlayerInfo
from spades_tui.engine.state import new_game
from spades_tui.session.view import SeatView, TableFacts, seat_view
from spades_tui.tui.app.commands import PaletteContext, Where, game_commands
from spades_tui.tui.invite import command_for, invite_choices, invite_lines, invite_text, invite_used, title

JOIN = "spades-tui join 127.0.0.1:7000 k7mq-x3vd-p9ta"
BACK = "spades-tui join 127.0.0.1:7000"
WATCH = "spades-tui watch 127.0.0.1:7000 r4nw-e8hs-qz2c"


def view(seat: int = 0, taken: int | None = None) -> SeatView:
    base = seat_view(new_game(), seat, (PlayerInfo("Alice"), PlayerInfo("Guesty")))
    return replace(base, table_facts=TableFacts(invite=JOIN, watch_invite=WATCH, invite_taken=taken))


def test_while_the_seat_is_empty_the_invite_is_given_first() -> None:
    empty = view()
    assert not invite_used(empty) and title(empty) == "Invite and watch code"
    text = invite_text(empty)
    assert text.startswith(f"The invite (its code seats one player, once):\n    {JOIN}") and WATCH in text
    assert [key for key, _ in invite_choices(empty)] == ["join", "watch", "close"]
    assert [key for key, _ in invite_choices(empty, "watch")] == ["watch", "join", "close"]
    assert command_for(empty, "join") == JOIN and command_for(empty, "watch") == WATCH
    assert invite_lines(empty) == (f"Invite: {JOIN}", f"To watch: {WATCH}")


def test_once_the_friend_sat_down_the_host_is_told_the_invite_is_used() -> None:
    used = view(seat=0, taken=1)
    assert invite_used(used) and title(used) == "Watch code (the invite was used)"
    text = invite_text(used)
    assert JOIN not in text
    assert text.startswith(f"To watch (anyone you give it: the public view, no hand):\n    {WATCH}")
    assert "The invite was used: Guesty holds its seat, and its code seats no one else." in text
    assert "their spades-tui reconnects by itself" in text and text.endswith(f"\n    {BACK}")
    for first in ("join", "watch"):  # whatever was asked for, Enter copies the watch command, never the code
        choices = invite_choices(used, first)
        assert [key for key, _ in choices] == ["watch", "back", "close"]
        assert all("invite" not in label.lower() for _, label in choices)
    assert command_for(used, "watch") == WATCH and command_for(used, "back") == BACK
    assert command_for(used, "join") == ""  # a spent code is never copied
    assert invite_lines(used) == (f"To watch: {WATCH}", "Invite used: Guesty holds its seat (its code seats no one "
                                  "else)", f"Guesty's way back: {BACK}")


def test_the_seat_that_used_it_reads_it_as_its_own() -> None:
    mine = view(seat=1, taken=1)
    text = invite_text(mine)
    assert "The invite was used: you hold its seat" in text and "takes you back to your seat" in text
    assert invite_lines(mine)[1:] == ("Invite used: you hold its seat (its code seats no one else)",
                                      f"Your way back: {BACK}")
    assert "Copy your way back" in dict(invite_choices(mine))["back"]


def test_the_palette_says_a_used_invite_is_used() -> None:
    def helps(ctx: PaletteContext) -> dict[str, tuple[str, object]]:
        return {c.name: (c.help, c.action) for c in game_commands(ctx, Where()) if c.name in ("Invite", "Watch code")}

    fresh = helps(PaletteContext(in_game=True, invite=True))
    assert fresh["Invite"] == (fresh["Invite"][0], "app.invite('join')") and "was used" not in fresh["Invite"][0]
    used = helps(PaletteContext(in_game=True, invite=True, invite_used=True))
    assert "invite was used" in used["Invite"][0] and used["Invite"][1] == "app.invite('watch')"
    assert "invite" not in used["Watch code"][0]
