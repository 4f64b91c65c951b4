"""The statistics screen's view model: a pure function from ``keep.stats``' report to what it shows.

No Textual here (unit-tested without a terminal).  The figures are the ones ``spades-tui stats``
prints, from the same ``summary()``: one source for the numbers.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from ..i18n.language import N_, _, ngettext, pgettext, translated
from ..keep.challenges import Result
from ..keep.stats import StatsReport, opponent_label, recent_label, rules_group_name
from ..session.text import over_par_words, when_words
from .gameview import Sheet
from .notation import decimal, num, percent, signed

EMPTY = N_("No finished games yet.\n\nPlay a game against a bot or hot-seat: every hand you finish is counted "
           "here, with your games and win rate against each opponent.")


@dataclass(frozen=True)
class ChartLine:
    """One recent game: its label, the person's score after each hand, and those figures in words."""

    label: str
    scores: tuple[int, ...]
    detail: str

    @property
    def series(self) -> tuple[int, ...]:
        """What the chart draws: from the 0 every game starts at, so the first hand's rise or fall shows."""
        return (0, *self.scores)


@dataclass(frozen=True)
class RulesPage:
    """The figures of the games under one group of house rules (or of all games)."""

    label: str
    games: Sheet
    hands: Sheet


@dataclass(frozen=True)
class StatsView:
    notice: str  # a problem reading the database, or a damaged one set aside; "" if none
    error: bool  # the notice says the figures could not be read (not merely that a new database was made)
    empty_text: str  # shown instead of the figures when there are none; "" when there are
    games: Sheet
    hands: Sheet
    charts: tuple[ChartLine, ...]
    # All games first, then each group of house rules played, when there is more than one.
    pages: tuple[RulesPage, ...] = ()
    # The daily challenges, kept apart from the games (keep/challenges.py): their sheet, or why it cannot be read.
    challenges: Optional[Sheet] = None
    challenges_notice: str = ""

    @property
    def empty(self) -> bool:
        return bool(self.empty_text) or self.error


def _rate(won: int, played: int) -> str:
    return percent(100 * won // played) if played else "–"


def _of(part: int, whole: int) -> str:
    if not whole:
        return _("{part} of {whole}").format(part=0, whole=0)
    return _("{part} of {whole} ({percent})").format(part=part, whole=whole, percent=percent(100 * part // whole))


def games_sheet(s: dict[str, Any]) -> Sheet:
    """Games and win rate per opponent played (as ``stats --json``: no empty row), then each hot-seat player."""
    rows = []
    for key, row in s["by_opponent"].items():
        rows.append((_("vs {opponent}").format(opponent=opponent_label(key)), str(row["played"]), str(row["won"]),
                     _rate(row["won"], row["played"])))
    for name, row in s.get("hotseat_players", {}).items():
        rows.append((_("hot-seat: {player}").format(player=name), str(row["played"]), str(row["won"]),
                     _rate(row["won"], row["played"])))
    if s["practice_games"]:
        title = _("Games finished: {count} (practice, not counted: {practice})").format(
            count=s["finished_games"], practice=s["practice_games"])
    else:
        title = _("Games finished: {count}").format(count=s["finished_games"])
    return Sheet(title, ("", _("Played"), pgettext("games", "Won"), _("Win rate")), tuple(rows))


def hands_sheet(s: dict[str, Any]) -> Sheet:
    """Points, bids, Nil and bags per hand, for "you" (the person against the bots)."""
    b = s["bids"]
    bids = b["made"] + b["set"]
    of = _("{part} of {whole}")
    rows = (
        (_("Hands played"), str(s["hands"])),
        (_("Points per hand"), decimal(s["points_per_hand"], 1)),
        (_("Bids made"), _of(b["made"], bids)),
        ("  " + _("exactly"), str(b["exact"])),
        ("  " + _("with bags"), str(b["with_bags"])),
        (_("Bids set"), _of(b["set"], bids)),
        (_("Nil made"), of.format(part=s["nil"]["made"], whole=s["nil"]["bid"])),
        (_("Double Nil made"), of.format(part=s["double_nil"]["made"], whole=s["double_nil"]["bid"])),
        (_("Bags per hand"), decimal(s["bags_per_hand"], 2)),
        (_("Bag penalties"), str(s["bag_penalties"])),
    )
    return Sheet(_("Your hands"), ("", ""), rows)


def chart_lines(s: dict[str, Any]) -> tuple[ChartLine, ...]:
    out = []
    for game in s.get("recent_games", []):
        scores = tuple(game["scores"])
        if not scores:
            continue
        detail = ngettext("{count} hand, final {final}, lowest {lowest}, highest {highest}",
                          "{count} hands, final {final}, lowest {lowest}, highest {highest}", len(scores)).format(
            count=len(scores), final=num(scores[-1]), lowest=num(min(scores)), highest=num(max(scores)))
        out.append(ChartLine(recent_label(game), scores, detail))
    return tuple(out)


CHALLENGES_SHOWN = 10  # the latest; ``spades-tui challenge --history`` lists them all


def challenges_sheet(results: Sequence[Result], now: float) -> Optional[Sheet]:
    """The challenges played (``results`` newest first: ``ChallengeBook.newest_first``): the margin over the four
    hands, the par's, the result against it."""
    if not results:
        return None
    rows = []
    for r in results[:CHALLENGES_SHOWN]:
        over = r.over_par
        against = _("par not known yet") if over is None else over_par_words(over)
        at = r.finished_at
        rows.append((_("{challenge} (practice)").format(challenge=r.challenge) if r.practice else r.challenge,
                     signed(r.total), "…" if r.par is None else signed(sum(r.par)), against,
                     when_words(at, now) if at else "?"))
    if len(results) > CHALLENGES_SHOWN:
        title = _("Daily challenges: {count} played, the latest {shown}").format(count=len(results),
                                                                                 shown=CHALLENGES_SHOWN)
    else:
        title = _("Daily challenges: {count} played").format(count=len(results))
    return Sheet(title, (_("Challenge"), _("You"), _("Par"), _("Against par"), _("Finished")), tuple(rows))


def with_challenges(view: StatsView, results: Sequence[Result], problem: str, now: float) -> StatsView:
    """``view`` with the daily challenges' sheet (or why they cannot be read)."""
    return dataclasses.replace(view, challenges=challenges_sheet(results, now), challenges_notice=problem)


def stats_view(report: StatsReport) -> StatsView:
    s = report.summary
    if report.error:
        notice = _("The statistics cannot be read now: {problem}").format(problem=report.error)
        if report.message:
            notice = f"{report.message}\n{notice}"
        return StatsView(notice, True, "", games_sheet(s), hands_sheet(s), ())
    empty = ""
    if not s["finished_games"] and not s["hands"] and not s.get("hotseat_players"):
        empty = translated(EMPTY)
        if s["practice_games"]:
            empty += "\n\n" + _("Practice games are not counted: {count} so far.").format(count=s["practice_games"])
    pages: tuple[RulesPage, ...] = ()
    by_rules = s.get("by_rules", {})
    if len(by_rules) > 1:
        pages = (RulesPage(_("all games"), games_sheet(s), hands_sheet(s)),
                 *(RulesPage(rules_group_name(g), games_sheet(r), hands_sheet(r)) for g, r in by_rules.items()))
    return StatsView(report.message or "", False, empty, games_sheet(s), hands_sheet(s), chart_lines(s), pages)
