"""The statistics screen's view model and the palette's choice of commands, without a terminal."""

from __future__ import annotations

from pathlib import Path

from spades_tui.engine.record import GameRecord, PlayerInfo, replay
from spades_tui.engine.rules import Rules
from spades_tui.keep.stats import StatsReport, empty_summary, open_stats, record_game, summary
from spades_tui.session.randomplay import random_game
from spades_tui.tui.app.commands import PaletteCommand, PaletteContext, Where, game_commands
from spades_tui.tui.startlist import ResumeChoice
from spades_tui.tui.statsview import EMPTY, stats_view


def played_summary(tmp_path: Path) -> tuple[dict[str, object], list[GameRecord]]:
    records = []
    for seed, players, gid in [(0, (PlayerInfo("You"), PlayerInfo("Bot", "bot:hard")), "a"),
                               (2, (PlayerInfo("Ann"), PlayerInfo("Bob")), "b")]:
        record, state = random_game(seed, rules=Rules(target=100), max_hands=12)
        assert state.winner is not None
        records.append(GameRecord(record.rules, record.first_drafter, players, record.actions, (("game_id", gid),)))
    conn, _ = open_stats(tmp_path / "stats.sqlite3")
    for record in records:
        record_game(conn, record)
    return summary(conn), records


def test_figures_and_charts_from_played_games(tmp_path: Path) -> None:
    s, records = played_summary(tmp_path)
    vm = stats_view(StatsReport(s))
    assert not vm.empty and vm.notice == ""
    rows = {row[0]: row[1:] for row in vm.games.rows}
    hard_won = int(replay(records[0]).winner == 0)
    assert rows["vs hard bot"] == ("1", str(hard_won), f"{100 * hard_won}%")
    assert "vs easy bot" not in rows  # listed only once played, as in stats --json
    assert "vs external bot" not in rows  # listed only once played
    winner = replay(records[1]).winner
    assert rows["hot-seat: Ann"][1] == str(int(winner == 0)) and rows["hot-seat: Bob"][1] == str(int(winner == 1))
    facts = {row[0]: row[1] for row in vm.hands.rows}
    assert facts["Hands played"] == str(s["hands"]) and facts["Bag penalties"] == str(s["bag_penalties"])
    bids = s["bids"]
    assert isinstance(bids, dict)
    assert facts["Bids made"].startswith(f"{bids['made']} of {bids['made'] + bids['set']}")
    # "Your" charts: the game against the bot (the hot-seat game is its two players', by name above).
    assert [c.scores for c in vm.charts] == [tuple(h.scores_after[0] for h in replay(records[0]).history)]
    assert vm.charts[0].label.startswith("vs hard bot, ")
    assert vm.charts[0].detail.endswith(f"highest {max(vm.charts[0].scores)}".replace("-", "\u2212"))  # true minus


def test_nothing_yet_is_said_kindly_and_a_problem_plainly() -> None:
    vm = stats_view(StatsReport(empty_summary()))
    assert vm.empty and vm.empty_text == EMPTY and not vm.error
    practice = {**empty_summary(), "practice_games": 2}
    assert "Practice games are not counted: 2" in stats_view(StatsReport(practice)).empty_text
    damaged = stats_view(StatsReport(empty_summary(), message="could not be read; kept as X"))
    assert damaged.notice == "could not be read; kept as X" and damaged.empty_text == EMPTY
    locked = stats_view(StatsReport(empty_summary(), error="database is locked"))
    assert locked.error and locked.empty and "cannot be read now: database is locked" in locked.notice
    assert locked.empty_text == ""  # it does not know there are none


def test_the_palette_offers_what_makes_sense_here() -> None:
    names = [c.name for c in game_commands(PaletteContext(), Where())]
    assert names == ["New game against the bot", "New hot-seat game", "Load a game record", "Statistics", "Help",
                     "Quit"]
    saved = ResumeChoice(Path("/d/games/game-2.json"),
                         "Resume hand 3: Ann 40 – Bob 10, hot-seat, last played today 10:00", False)
    in_game = game_commands(PaletteContext(in_game=True, hints_on=True, resumable=(saved,)),
                            Where(hints=True, help=True, stats=True, settings=True))
    by_name = {c.name: c for c in in_game}
    assert by_name[saved.label].action == "app.resume_saved('/d/games/game-2.json')"
    assert "Turn hints off" in by_name and "Turn review on" in by_name and "Settings" in by_name
    assert "Help" not in by_name and "Statistics" not in by_name  # already there
    assert "saved" in by_name["New hot-seat game"].help  # leaving a game says it is kept
    assert [c.name for c in in_game][:3] == ["Turn hints off", "Turn review on", "Settings"]  # the game's first
    theme = PaletteCommand("Change theme", "Change the current theme", lambda: None)
    names = [c.name for c in game_commands(PaletteContext(), Where(), [theme])]
    assert names[-3:] == ["Change theme", "Help", "Quit"]
    assert [c.name for c in game_commands(PaletteContext(in_game=True), Where(), [theme])][-3:] == [
        "New hot-seat game", "Load a game record", "Quit"]
