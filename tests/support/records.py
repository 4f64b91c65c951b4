"""Game records as JSON for the tests of the reference reading of the rules (tests/support/reference_rules.py)."""

from __future__ import annotations

from typing import Any

from tests.support import reference_rules as ref


def record(rules: dict[str, Any], actions: list[dict[str, Any]], first: int = 0) -> dict[str, Any]:
    return {"format": "spades-tui-game", "version": 1, "rules": rules, "first_drafter": first, "actions": actions}


def all_spades_record(rules: dict[str, Any], bid: int) -> dict[str, Any]:
    """Player 0 drafts every spade (the top card of each of their turns), bids ``bid`` and takes all 13 tricks."""
    spades = [r + "S" for r in ref.RANKS]
    others = [c for c in ref.DECK if c[1] != "S"]
    stock: list[str] = []
    for i in range(13):  # player 0 drafts first: their turns take stock[4i], stock[4i + 1]
        stock += [spades[i], others[3 * i], others[3 * i + 1], others[3 * i + 2]]
    game = ref.Game(ref.rules_of(rules), 0)
    actions: list[dict[str, Any]] = [{"type": "shuffle", "stock": stock}]
    game.apply(actions[0])
    while game.phase not in ("shuffle", "game_over"):
        if game.phase == "double_nil":
            a: dict[str, Any] = {"type": "double_nil", "player": game.to_act, "declare": False}
        elif game.phase == "draft":
            a = {"type": "draft", "player": game.to_act, "take": "first"}
        elif game.phase == "bidding":
            a = {"type": "bid", "player": game.to_act, "tricks": bid if game.to_act == 0 else 1}
        else:
            a = game.legal()[-1]
        actions.append(a)
        game.apply(a)
    return record(rules, actions)
