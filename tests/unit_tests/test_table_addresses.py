"""The one address every count of a server uses (table/guard.py ``client_address``; docs/table-protocol.md, "A
server's limits"): the peer's own, or behind a trusted proxy on this machine the last X-Forwarded-For entry;
a header from any other peer, or one that is not an address, is not believed."""

from __future__ import annotations

from unittest import mock

import pytest
from aiohttp.test_utils import make_mocked_request

from spades_tui.table.guard import client_address


def request(peer: str, forwarded: str | None = None) -> object:
    transport = mock.Mock()
    transport.get_extra_info.side_effect = lambda name, default=None: (peer, 5555) if name == "peername" else default
    headers = {"X-Forwarded-For": forwarded} if forwarded is not None else {}
    return make_mocked_request("GET", "/table", headers=headers, transport=transport)


@pytest.mark.parametrize(("peer", "forwarded", "trusted", "expected"), [
    ("127.0.0.1", "203.0.113.5", True, "203.0.113.5"),
    ("127.0.0.1", "198.51.100.1, 203.0.113.5", True, "203.0.113.5"),  # the proxy's own entry is the last
    ("::1", "[2001:db8::7]", True, "2001:db8::/64"),  # an IPv6 address counts as its /64 (issue 49)
    ("2001:db8:0:1:aaaa::5", None, False, "2001:db8:0:1::/64"),
    ("::ffff:192.0.2.8", None, False, "192.0.2.8"),  # an IPv4 address written as IPv6 is that IPv4 address
    ("127.0.0.1", "203.0.113.5", False, "127.0.0.1"),  # not trusted: the header means nothing
    ("127.0.0.2", "203.0.113.5", True, "127.0.0.2"),  # not the proxy's address: not believed
    ("192.0.2.8", "203.0.113.5", True, "192.0.2.8"),
    ("127.0.0.1", "not-an-address\x1b[31m", True, "127.0.0.1"),  # garbage: the proxy's own address
    ("127.0.0.1", "", True, "127.0.0.1"),
    ("127.0.0.1", "1.2.3.4, " * 10_000 + "203.0.113.9", True, "203.0.113.9"),  # a huge header: its end only
])
def test_the_address_counted(peer: str, forwarded: str | None, trusted: bool, expected: str) -> None:
    assert client_address(request(peer, forwarded), trusted) == expected  # type: ignore[arg-type]
