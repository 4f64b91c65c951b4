"""Where a table's invite works, and the ways that reach a friend on another machine (issue 52): the words of the
host's wait screen, of its "ways" windows and of ``spades-tui host``.  Pure text, no Textual, no socket.

A table listens on 127.0.0.1 unless asked otherwise: that address is this computer, so its invite works only in
another terminal here.  The screen says so, and offers what does reach another machine: listening on this network
(with the warning that anyone on it may open the table), a table server (the settings' one, one typed in, or how
to run one), and an ssh tunnel.
"""

from __future__ import annotations

from typing import Optional

from ..i18n.language import _

LOOPBACK_NAMES = ("localhost", "::1")
SERVE_PORT = 7000  # the port the words suggest for a table server or a tunnel's far end


def is_loopback(address: str) -> bool:
    """127.0.0.0/8, localhost and ::1: an address only this computer can reach."""
    return address.startswith("127.") or address in LOOPBACK_NAMES


def where_it_works(address: str, shared: Optional[bool] = None, where: str = "below") -> str:
    """One sentence on who can use an invite to ``address`` (shown ``where``: "below" or "above"); ``shared``: it
    is this machine's network address (None: unless it is a loopback one)."""
    if not (shared if shared is not None else not is_loopback(address)):
        if where == "above":
            return _("Your table listens on {address}, which is this computer: the invite above works only in "
                     "another terminal on this machine (or through an ssh tunnel). A friend on another machine cannot "
                     "use it as it is.").format(address=address)
        return _("Your table listens on {address}, which is this computer: the invite below works only in another "
                 "terminal on this machine (or through an ssh tunnel). A friend on another machine cannot use it as "
                 "it is.").format(address=address)
    if where == "above":
        return _("Your table listens on {address}: the invite above works on any machine that reaches that address "
                 "(on this network, for an address such as 192.168.x.x or 10.x.x.x).").format(address=address)
    return _("Your table listens on {address}: the invite below works on any machine that reaches that address "
             "(on this network, for an address such as 192.168.x.x or 10.x.x.x).").format(address=address)


def lan_warning(address: str) -> str:
    """The warning beside an address others can reach."""
    return _("Warning: anyone who can reach {address} and has the code may sit down at your table. There is no "
             "encryption: keep to a network you trust.").format(address=address)


def ways(shared: bool, lan: Optional[str], server: str) -> list[tuple[str, str]]:
    """The wait screen's choices: (id, label), for a table listening on this machine only or (``shared``) where
    others reach it; ``lan`` this machine's network address (None: none found), ``server`` the settings' table
    server ("" for none)."""
    found: list[tuple[str, str]] = []
    if not shared and lan is not None:
        found.append(("lan", _("Listen on this network ({address}): for a friend at home or at work").format(
            address=lan)))
    elif shared:
        found.append(("loopback", _("Back to this computer only (127.0.0.1)")))
    if server:
        found.append(("server", _("Open the table at the table server {server} (the settings')").format(server=server)))
    found.append(("server-other", _("Open the table at a table server: type its address")))
    found.append(("tunnel", _("A friend with ssh: a tunnel (how)")))
    found.append(("serve", _("How to run a table server both of you reach")))
    return found


def tunnel_text(port: int, code: str, address: str = "127.0.0.1") -> str:
    """How an ssh tunnel brings the friend to a table listening at ``address`` (loopback) port ``port``: ssh carries
    their connection, and they join at their own end of it, 127.0.0.1."""
    return _("An ssh tunnel carries the friend's connection to this computer over ssh: the table stays on "
             "{address}, and nobody else can reach it.\n\n"
             "If your friend can log in to this machine with ssh, they run, in a terminal of their own:\n"
             "    ssh -N -L {port}:{address}:{port} YOU@THIS-MACHINE\n"
             "and, in another terminal, while it runs:\n"
             "    spades-tui join 127.0.0.1:{port} {code}\n\n"
             "If you can log in to theirs instead, you run here:\n"
             "    ssh -N -R {port}:{address}:{port} THEM@THEIR-MACHINE\n"
             "and they run the same join there.").format(port=port, address=address, code=code)


def serve_text() -> str:
    """How to run a table server on a machine both players reach."""
    return _("A table server is spades-tui on a machine both of you can reach (a small rented server, a machine "
             "with a public address). There, run:\n"
             "    spades-tui serve --tables-only --host 0.0.0.0 --port {port}\n"
             "(with --cert FILE --key FILE for TLS: then its address is wss://ADDR:PORT).\n\n"
             "Then here, choose \"Open the table at a table server\" and type ADDR:{port}, or give it once in "
             "the settings (Table server). Your friend joins with the invite it gives; neither of you needs an "
             "address the other can reach.").format(port=SERVE_PORT)


def host_notes(address: str, port: int, code: str) -> list[str]:
    """What ``spades-tui host --bot`` says on standard error after the invite: where it works, and what else."""
    notes = [where_it_works(address, where="above")]
    if is_loopback(address):  # elsewhere the warning was said before the table opened (table/run.host_warning)
        notes.append(_("For a friend on another machine: 'spades-tui host --host 0.0.0.0' (this network), "
                       "'spades-tui host --server ADDR:PORT' (a table server both reach), or an ssh tunnel: "
                       "they run 'ssh -N -L {port}:{address}:{port} YOU@THIS-MACHINE', then "
                       "'spades-tui join 127.0.0.1:{port} {code}'.").format(port=port, address=address, code=code))
    return notes
