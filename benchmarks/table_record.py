"""A network game between two bots with everything random fixed, its actions printed (not a test; a check
that a change to the tables leaves their play alone: run it before and after, compare the output).

    python benchmarks/table_record.py [GAMES]

Each game is a table on 127.0.0.1 in this process: its host's seat played by the host's own bot
(``bot:normal``), the other by a bot client (``join --bot easy``), to 300.  The host's secrets, the client's
nonces, the tokens and every bot's seed come from fixed sequences, so the same code plays the same game;
the output is each game's actions, one a line, and a digest of them all.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _fixed(game: int) -> None:
    """Every random draw of a table made from fixed sequences (per game): secrets, nonces and tokens by
    their count, and the seeds that ``SystemRandom`` would choose (the dealer's, each bot's)."""
    counts: dict[int, int] = {}

    def token_bytes(n: int | None = None) -> bytes:
        size = 32 if n is None else n
        counts[size] = counts.get(size, 0) + 1
        out = b""
        while len(out) < size:
            out += hashlib.sha256(f"{game}:{size}:{counts[size]}:{len(out)}".encode()).digest()
        return out[:size]

    secrets.token_bytes = token_bytes  # type: ignore[assignment]
    seeded = random.Random(game)
    random.SystemRandom = lambda *_: random.Random(seeded.random())  # type: ignore[assignment,misc]


async def one(game: int) -> list[str]:
    from spades_tui.engine.rules import Rules
    from spades_tui.table.seat.client import TableClient
    from tests.support.table import play_with_bot, table, url_of

    _fixed(game)
    async with table(Path(tempfile.mkdtemp()), rules=Rules(target=300), first=game % 2,
                     host_kind="bot:normal") as (host, listener):
        client = TableClient(url_of(listener), code=host.code, name="Guest")
        await play_with_bot(client, "easy")
        record = client.record
        assert record is not None, "the game did not end"
        return [str(a.to_json()) for a in record.actions]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    digest = hashlib.sha256()
    for game in range(games):
        actions = asyncio.run(one(game))
        for line in actions:
            print(f"game {game}: {line}")
            digest.update(line.encode())
        print(f"game {game}: {len(actions)} actions")
    print(f"digest of every action: {digest.hexdigest()}")


if __name__ == "__main__":
    main()
