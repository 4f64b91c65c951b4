"""A table's words in the player's language (docs/languages.md), its protocol in English whatever the language
(docs/table-protocol.md): a refusal goes out as the host writes it and is shown in the reader's language where it
is one a spades-tui host sends; anything else from a server is shown as it came."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from spades_tui.engine.rules import Rules
from spades_tui.i18n import language
from spades_tui.i18n.language import translated
from spades_tui.table.seat.client import TableClient
from spades_tui.table.seat.finder import ListedTable
from spades_tui.table.seat.link import TableRefused
from spades_tui.table.wire import protocol
from spades_tui.table.wire import reasons as r
from tests.support.table import SHORT, raw, receive_json, table, url_of

RULES = Rules.from_json(SHORT)
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@pytest.fixture
def swedish() -> None:
    """The player reads Swedish (the conftest's fixture speaks English again after the test)."""
    if language.use("sv") != "sv":
        pytest.skip("no Swedish catalog built (spades_tui/locale)")


def _sample(template: str) -> dict[str, str]:
    return {name: f"<{name}7>" for name in PLACEHOLDER.findall(template)}


def test_every_known_reason_reads_back_as_itself_in_english() -> None:
    for template in r.KNOWN:
        sent = template.format(**_sample(template))
        assert r.shown(sent) == sent, template
    assert r.shown("a foreign server's own words") == "a foreign server's own words"


@pytest.mark.usefixtures("swedish")
def test_every_known_reason_is_shown_in_the_readers_language_with_its_values() -> None:
    for template in r.KNOWN:
        values = _sample(template)
        sent = template.format(**values)  # what a host sends: English, whatever its own language
        shown = r.shown(sent)
        assert shown == translated(template).format(**values) and shown != sent, template
        assert all(value in shown for value in values.values()), template
    # A reason no spades-tui host sends (another server's, an older one's) is shown as it came: outside text.
    assert r.shown("the moon is in the wrong phase") == "the moon is in the wrong phase"


@pytest.mark.usefixtures("swedish")
def test_the_protocols_words_stay_english_whatever_the_language() -> None:
    assert protocol.version_problem({"protocol": 1}) == "this table speaks protocol 2; update spades-tui"
    assert protocol.clean_said("x" * 300) == (None, "a line may hold at most 200 characters")
    assert protocol.TAKEN == "your seat was taken from another window"


@pytest.mark.usefixtures("swedish")
async def test_a_refusal_goes_out_in_english_and_the_client_says_it_in_swedish(tmp_path: Path) -> None:
    async with table(tmp_path, rules=RULES) as (host, listener):
        session, ws = await raw(listener)
        await ws.send_str(json.dumps({"type": "join", "protocol": 2, "code": "aaaa-bbbb-cccc", "name": "x"}))
        assert (await receive_json(ws)) == {"type": "error", "reason": "wrong code"}  # the wire: English
        await session.close()
        client = TableClient(url_of(listener), code="aaaa-bbbb-cccc", name="Ada")
        with pytest.raises(TableRefused) as refused:
            await client.connect()
        said = str(refused.value)
        assert said == language._("the table refused the seat: {reason}").format(reason=translated(r.WRONG_CODE))
        assert "wrong code" not in said and "refused the seat" not in said
        # Seated, the host's event is in the host's language; the client's own words are in its own.
        client = TableClient(url_of(listener), code=host.code, name="Ada")
        await client.connect()
        try:
            assert client.talk.events[-1] == language._("Sat down at the table as {player}.").format(player="Ada")
            assert "Sat down" not in client.talk.events[-1]
            assert await client.say("x" * 300) == translated(r.LINE_TOO_LONG).format(count=200)
        finally:
            await client.stop()


@pytest.mark.usefixtures("swedish")
def test_the_lobbys_line_is_in_swedish() -> None:
    waiting = ListedTable("abcd-efgh-jkmn", "mnpq-rstu-vwxy", ("Ada", "Guest"), Rules(), 4000, (0, 0), 0, 0)
    playing = ListedTable(None, "mnpq-rstu-vwxy", ("Ada", "Bo"), Rules(), 90, (120, -40), 3, 2, rated=True)
    for line in (waiting.line(), playing.line()):
        assert "Ada" in line and not re.search(r"\b(waits|hand|watching|rated|standard rules)\b", line), line
    assert "−40" in playing.line()  # the true minus in every language
