"""Hints for the player at the keyboard: every choice valued, the best one recommended.

``hint(observation, legal, seed)`` decides from the observation alone (docs/rules.md
section 10): the opponent's hand, the stock and the unseen discards are sampled,
never read, so a hint cannot depend on a card the player may not know.

- Double Nil: simulated completions of the draft, keeping low cards, give the
  chance Double Nil makes (the hard bot's ``hand_value``, exchange included);
  it is recommended only when its utility (the bots' estimated win chance)
  beats an ordinary hand's, as the hard bot decides.
- draft: the rest of the draft is simulated on the same sampled stocks after
  taking and after passing the top card; options are ranked by the finished
  hand's ``hand_value`` (10 points per expected trick, or a Nil's value), shown
  as points, with its expected tricks (a Double Nil drafter: the chance it makes).
- exchange: discarding the 0 to 3 most dangerous cards, each valued by the
  chance Double Nil makes (``nil_safety``) after random draws from the sampled
  discard pile.
- bidding: the expert's own bid rule (issue 38): opponent hands drawn as the
  expert draws them (``bid_sampler``: inferred from their draft, weighted by
  how well they fit their bid), each solved double dummy (``most`` for a
  contract, ``fewest`` when a Nil is at stake) and counted half at its tricks
  and half a trick short (a Nil a trick over), a contract's spread both ways as
  play spreads (``sampling.PLAYED_SPREAD``); every legal bid gets its chance
  of making and its expected points, and is ranked by the hand's expected
  margin (my points less theirs, each bag charged its share of the penalty).
- play: each sampled opponent hand is solved for every legal card with
  ``card_values`` (aim ``most`` to make or set a contract, ``fewest`` for a Nil,
  either one's, or to avoid tricks); a card gets the chance of its goals and
  expected points, and is ranked by utility.

Whatever ranks the options is what each option shows first (``Option.score``, in
the measure the hint names): the bots' utility as "win ≈ 63%", a bid's expected
margin as "margin ≈ +12", the chance Double Nil makes, the final hand's value in
points.  So the recommendation is the best by the numbers shown, and options that
show the same number are said to tie.

With ``samples`` given the result is a function of (observation, legal, seed,
samples); without it, as many samples as fit ``budget`` seconds are taken.
Pure: no I/O, no Textual.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Optional, Sequence

from ..engine import rulebook
from ..engine.actions import Bid, DeclareDoubleNil, Draft, Exchange, Play, PlayerAction
from ..engine.cards import CARDS
from ..engine.observation import Observation
from ..engine.rulebook import made
from ..engine.state import Phase
from ..i18n.language import N_, _, pgettext, translated
from ..solver.solver import Aim, Solver
from .core import (
    FULL,
    View,
    bits,
    card_danger,
    hand_points,
    mask_of,
    nil_safety,
    tricks_wanted,
    utility_table,
    view_of,
)
from .hard import ORDINARY_OUTCOMES, double_nil_utilities
from .heuristic import play_card
from .sampling import (
    Clock,
    add_solved,
    bid_sampler,
    bid_tally,
    double_nil_chance,
    draft_values,
    needs,
    opponent_bid,
    play_goals,
    solve_bid,
    solve_play,
    tilt_sampler,
)

DEFAULT_BUDGET = 0.3  # seconds of sampling when no sample count is given
MAX_SAMPLES = 300  # the most samples a hint takes within its time budget
DN_MARGIN = 0.01  # utility Double Nil must gain to be recommended (as the hard bot)


@dataclass(frozen=True)
class Option:
    """One choice with its value, for display."""

    action: PlayerAction
    label: str  # e.g. "Take 10♥", "Bid 4", "Nil", "Q♠"
    detail: str  # other facts, short phrases joined by " · " (a narrow panel drops them from the end)
    value: float  # what the options are ranked by (higher is better)
    score: str = ""  # ``value`` as shown, in the hint's measure: "win ≈ 63%", "hand ≈ +42"
    figure: str = ""  # the score's number alone: "≈ 63%"
    # The next figures the detail shows, in the order that breaks a tie of ``score`` (higher is better),
    # each as shown ("+62") and as its shown value (62.0): two options tie only if all of these tie too.
    tie_shown: tuple[str, ...] = ()
    tie_values: tuple[float, ...] = ()


@dataclass(frozen=True)
class Hint:
    """The valued choices of one decision, best first, and the recommended one.

    ``measure`` names what the options are ranked by (the chance to win the game,
    the chance Double Nil makes, the expected points of the final hand); each
    option's ``score`` shows it, so the first option is the best by the numbers
    shown.  ``tied`` holds the options that show the same score as the best one
    (the recommendation among them is the one ranked first, and the summary says so).
    """

    kind: str  # "double_nil" | "draft" | "exchange" | "bidding" | "play"
    options: tuple[Option, ...]
    recommended: PlayerAction
    summary: str
    measure: str = ""
    tied: tuple[PlayerAction, ...] = ()

    def line(self, option: Option) -> str:
        """One option as the panel shows it: ``Bid 8: margin ≈ +80 · makes 8 in 100% · +82 points on average``."""
        parts = [p for p in (option.score, option.detail) if p]
        return f"{option.label}: {' · '.join(parts)}"


_KINDS = {
    Phase.DOUBLE_NIL: "double_nil",
    Phase.DRAFT: "draft",
    Phase.EXCHANGE: "exchange",
    Phase.BIDDING: "bidding",
    Phase.PLAY: "play",
}


def hint(
    observation: Observation,
    legal: Sequence[PlayerAction],
    seed: int = 0,
    *,
    samples: Optional[int] = None,
    budget: float = DEFAULT_BUDGET,
) -> Hint:
    """The hint for the player to act: options best first and the recommended action.

    ``samples``: exactly this many samples (deterministic for a given seed);
    otherwise as many as fit in ``budget`` seconds (at most ``MAX_SAMPLES``).
    """
    clock = Clock(samples, budget, MAX_SAMPLES)
    kind = _KINDS.get(observation.phase)
    if kind is None or not legal:
        raise ValueError(f"no decision to hint at in the {observation.phase.value} phase")
    if len(legal) == 1:
        only = legal[0]
        label = action_label(observation, only)
        return Hint(kind, (Option(only, label, _("the only legal choice"), 0.0),), only,
                    _("{choice}: the only legal choice").format(choice=label))
    rng = random.Random(_rng_key(observation, seed))
    if kind == "double_nil":
        return _double_nil_hint(observation, legal, rng, clock)
    if kind == "draft":
        return _draft_hint(observation, legal, rng, clock)
    if kind == "exchange":
        return _exchange_hint(observation, legal, rng, clock)
    if kind == "bidding":
        return _bidding_hint(observation, legal, rng, clock)
    return _play_hint(observation, legal, rng, clock)


def action_label(obs: Observation, action: PlayerAction) -> str:
    """A short name for an action: ``Take 10♥``, ``Pass 10♥``, ``Bid 4``, ``Nil``, ``Q♠``."""
    if isinstance(action, Play):
        return action.card.label()
    if isinstance(action, Bid):
        return _("Nil") if action.tricks == 0 else _("Bid {bid}").format(bid=action.tricks)
    if isinstance(action, Draft):
        if obs.drawn is None:
            return _("Take the top card") if action.take == "first" else _("Pass the top card")
        return (_("Take {card}") if action.take == "first" else _("Pass {card}")).format(card=obs.drawn.label())
    if isinstance(action, Exchange):
        if not action.discard:
            return _("Keep all")
        cards = " ".join(c.label() for c in sorted(action.discard, key=_display_order))
        return _("Exchange {cards}").format(cards=cards)
    return _("Double Nil") if action.declare else _("No Double Nil")


# ---------------------------------------------------------------- plumbing


def _display_order(c: int) -> tuple[int, int]:
    """Spades first, high cards first within a suit."""
    return (c // 13, -(c % 13))


def _rng_key(obs: Observation, seed: int) -> str:
    """The random generator's seed: the caller's seed and public facts of the decision."""
    return (
        f"hint:{seed}:{obs.seat}:{obs.hand_number}:{obs.phase.value}:{obs.stock_left}:"
        f"{len(obs.tricks)}:{len(obs.trick)}:{obs.scores}:{sorted(obs.hand)}:{obs.drawn}"
    )


def _shown_value(figure: str) -> float:
    """A figure as shown ("+62", "71%") as its number, so options that show the same figure tie."""
    return float(figure.rstrip("%"))


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%"


def _pts(x: float) -> str:
    return f"{x:+.0f}"


def _avg(x: float) -> str:
    """A hand's points over the sampled deals, in words that need no explaining: ``+65 points on average``."""
    return _("{points} points on average").format(points=_pts(x))  # a mean, "+1" as much as "+65"


def _tricks(x: float) -> str:
    """Expected tricks, with a decimal comma where the language writes one: ``≈ 6.9 tricks``."""
    return _("≈ {tricks} tricks").format(tricks=_decimal(x))


def _decimal(x: float) -> str:
    """``6.9``: one decimal, its point as the language writes it (a comma in Swedish and Estonian)."""
    return f"{x:.1f}".replace(".", pgettext("decimal separator", "."))


def _ranked(options: list[Option]) -> tuple[Option, ...]:
    """Best first by value; options that show the same score are ordered by the next figures they show
    (``tie_values``); ties keep the given order (the callers list their preference first)."""
    by_value = sorted(options, key=lambda o: -o.value)
    group: dict[str, int] = {}
    for o in by_value:
        group.setdefault(o.score, len(group))
    return tuple(sorted(by_value, key=lambda o: (group[o.score], *(-v for v in o.tie_values))))


# What the options are ranked by (``Hint.measure``), marked here and translated where the hint is made.
WIN_MEASURE = N_("chance to win the game")
DN_MEASURE = N_("chance Double Nil makes")
HAND_MEASURE = N_("expected points of the final hand")
MARGIN_MEASURE = N_("expected margin of the hand (your points less theirs, bags charged)")


def _win_chance(u: float) -> str:
    """A utility (the bots' estimated chance to win the game) as a figure: ``≈ 63%``."""
    return f"≈ {_pct(min(1.0, max(0.0, u)))}"


def _score_words(name: str, figure: str) -> str:
    """An option's score as shown: ``win ≈ 63%``, ``Double Nil ≈ 70%``, ``hand ≈ +42 points``, ``margin ≈ +12``."""
    if name == "win":
        return _("win {figure}").format(figure=figure)
    if name == "Double Nil":
        return _("Double Nil {figure}").format(figure=figure)
    if name == "hand":
        return _("hand {figure}").format(figure=figure)
    return _("margin {figure}").format(figure=figure)


def _scored(action: PlayerAction, label: str, detail: str, value: float, name: str, figure: str) -> Option:
    return Option(action, label, detail, value, _score_words(name, figure), figure)


def _finish(kind: str, ranked: tuple[Option, ...], measure: str, best_words: str,
            tie_names: tuple[str, ...] = (), explain: bool = False) -> Hint:
    """The hint from options ranked best first (each with its ``score``): the first is recommended, and
    the summary says by which measure (``best_words``: "best chance to win the game"), or that it
    ties with the others that show the same figures, or which next figure (``tie_names``, in the order of
    the options' ``tie_shown``) broke a tie of the score.  The summary names no choice but the one recommended:
    every choice is named once, in the list that follows it (issue 51); ``explain`` ends it with what the
    measure's word means ("(margin: your points less theirs)").  ``measure``, ``best_words`` and ``tie_names`` are
    marked with ``N_`` and translated here."""
    best = ranked[0]
    tied = tuple(o for o in ranked[1:] if o.score == best.score and o.tie_shown == best.tie_shown)
    level = [o for o in ranked[1:] if o.score == best.score and o.tie_shown != best.tie_shown]
    if tied:
        # Each choice is named once, in the list below (the tied ones first): the summary counts them.
        n = 1 + len(tied)
        if n == len(ranked) == 2:
            text = _("A tie, {score}: both choices below show the same; Enter takes the first")
        elif n == len(ranked):
            text = _("A tie, {score}: all the choices below show the same; Enter takes the first")
        else:
            text = _("A tie, {score}: the first {count} choices below show the same; Enter takes the first")
        summary = text.format(score=best.score, count=n)
    elif level:
        other = level[0]
        i = next(i for i, (a, b) in enumerate(zip(best.tie_shown, other.tie_shown, strict=True)) if a != b)
        name = translated(tie_names[i]) if i < len(tie_names) else _("the next figure")
        summary = _("{choice}: {best}, {figure}, level with the next choice; {decider} decides ({this} against "
                    "{that})").format(choice=best.label, best=translated(best_words), figure=best.figure,
                                      decider=name, this=best.tie_shown[i], that=other.tie_shown[i])
    else:
        summary = _("{choice}: {best}, {figure}").format(choice=best.label, best=translated(best_words),
                                                          figure=best.figure)
    if explain:
        summary = _("{summary} (margin: your points less theirs)").format(summary=summary)
    return Hint(kind, ranked, best.action, summary, translated(measure), tuple(o.action for o in tied))


def _find(legal: Sequence[PlayerAction], wanted: PlayerAction) -> Optional[PlayerAction]:
    for a in legal:
        if a == wanted:
            return a
    return None


# ---------------------------------------------------------------- Double Nil


def _double_nil_hint(obs: Observation, legal: Sequence[PlayerAction], rng: random.Random, clock: Clock) -> Hint:
    view = view_of(obs)
    p, tricks = double_nil_chance(view, obs.rules, obs.stock_left, rng, clock.more)
    # What the utility assumes of an ordinary hand: the mean of the hard bot's outcomes.
    ordinary = sum(mine for mine, _ in ORDINARY_OUTCOMES) / len(ORDINARY_OUTCOMES)
    v_dn, v_no = double_nil_utilities(obs, p)
    yes = _find(legal, DeclareDoubleNil(obs.seat, True))
    no = _find(legal, DeclareDoubleNil(obs.seat, False))
    options = []  # not declaring first: it wins ties
    if no is not None:
        detail = f"{_tricks(tricks)} · {_avg(ordinary)}"
        options.append(_scored(no, action_label(obs, no), detail, v_no, "win", _win_chance(v_no)))
    if yes is not None:
        points = obs.rules.double_nil_points
        makes = _("makes {chance}").format(chance=f"≈ {_pct(p)}")
        detail = f"{makes} · {_avg(2 * points * p - points)}"
        # Double Nil must win the game clearly more often to be worth its risk (as the hard bot decides):
        # within DN_MARGIN it shows the same score as not declaring, a tie that goes to the safer choice.
        shown = _win_chance(v_no if no is not None and abs(v_dn - v_no) < DN_MARGIN else v_dn)
        options.append(_scored(yes, action_label(obs, yes), detail, v_dn - DN_MARGIN, "win", shown))
    return _finish("double_nil", _ranked(options), WIN_MEASURE, N_("best chance to win the game"))


# ---------------------------------------------------------------- draft


def _draft_hint(obs: Observation, legal: Sequence[PlayerAction], rng: random.Random, clock: Clock) -> Hint:
    view = view_of(obs)
    rules = obs.rules
    top = obs.drawn
    take = _find(legal, Draft(obs.seat, "first"))
    pass_ = _find(legal, Draft(obs.seat, "second"))
    if top is None or take is None or pass_ is None:
        return _fallback("draft", obs, legal, N_("no top card to judge"))
    dn = obs.double_nil[obs.seat]
    sums, n = draft_values(view, rules, int(top), obs.stock_left, dn, rng, clock.more)
    options = []
    for action, choice in ((take, "first"), (pass_, "second")):
        value, measure = (x / n for x in sums[choice])
        if dn:
            # The expected points are 2 x the points x the chance - the points: ranking by one ranks by the other.
            options.append(_scored(action, action_label(obs, action), _avg(value), value,
                                   "Double Nil", f"≈ {_pct(measure)}"))
        else:
            figure = _("≈ {points} points").format(points=_pts(value))
            options.append(_scored(action, action_label(obs, action), _tricks(measure), value, "hand", figure))
    ranked = _ranked(options)
    if dn:
        return _finish("draft", ranked, DN_MEASURE, N_("best chance Double Nil makes"))
    return _finish("draft", ranked, HAND_MEASURE, N_("the better final hand"))


# ---------------------------------------------------------------- exchange


def _exchange_hint(obs: Observation, legal: Sequence[PlayerAction], rng: random.Random, clock: Clock) -> Hint:
    view = view_of(obs)
    hand, seen = view.hand, view.seen
    others = FULL & ~hand & ~seen
    p = 13 / max(1, others.bit_count())
    danger = {c: card_danger(c, hand, others, p) for c in bits(hand)}
    worst = sorted(danger, key=lambda c: (-danger[c], -(c % 13)))
    candidates: list[tuple[PlayerAction, tuple[int, ...]]] = []
    for k in range(4):
        discard = tuple(sorted(worst[:k]))
        action = _find(legal, Exchange(obs.seat, tuple(CARDS[c] for c in discard)))
        if action is not None and len(discard) == k:
            candidates.append((action, discard))
    if not candidates:
        return _fallback("exchange", obs, legal, N_("no exchange of the most dangerous cards is legal"))
    pile_known = bits(seen & ~hand & ~view.played)
    unknown = bits(view.unknown)
    unseen = min(len(unknown), max(0, 26 - len(pile_known)))
    made = [0.0] * len(candidates)
    n = 0
    while clock.more():
        pile = pile_known + rng.sample(unknown, unseen)
        rng.shuffle(pile)
        for i, (_action, discard) in enumerate(candidates):
            gone = mask_of(discard)
            drawn = mask_of(pile[: len(discard)])
            new = (hand & ~gone) | drawn
            made[i] += nil_safety(new, FULL & ~new & ~((seen & ~drawn) | gone))
        n += 1
    options = []
    for i, (action, _discard) in enumerate(candidates):
        q = made[i] / n
        points = obs.rules.double_nil_points
        options.append(_scored(action, action_label(obs, action), _avg(2 * points * q - points), q,
                               "Double Nil", f"≈ {_pct(q)}"))
    return _finish("exchange", _ranked(options), DN_MEASURE, N_("best chance Double Nil makes"))


# ---------------------------------------------------------------- bidding


def _bidding_hint(obs: Observation, legal: Sequence[PlayerAction], rng: random.Random, clock: Clock) -> Hint:
    view = view_of(obs)
    rules = obs.rules
    me = obs.seat
    scores = (obs.scores[me], obs.scores[1 - me])
    bags = (obs.bags[me], obs.bags[1 - me])
    bids = {a.tricks: a for a in legal if isinstance(a, Bid)}
    if not bids:
        return _fallback("bidding", obs, legal, N_("no bid is legal"))
    allowed = sorted(bids)
    leader = 1 - obs.first_drafter  # the second player leads the first trick
    # The expert's own rule (``bots.expert``): its samples, each deal solved, valued at the hand's margin
    # with bags charged, half at its tricks and half a trick short, spread as play spreads; within the
    # hint's budget.
    sample = bid_sampler(obs, view)
    engine = Solver()
    tally = bid_tally(rules, scores, bags, allowed)
    while clock.more():
        opp, weight = sample(rng)
        if opp.bit_count() != view.hand.bit_count() or opp & view.hand:
            continue
        ob = opponent_bid(view, opp, rules, scores, bags)
        most, fewest = solve_bid(engine, view.hand, opp, me, leader, *needs(allowed, ob))
        add_solved(tally, allowed, most, fewest, ob, weight)
    total = tally.total
    if total <= 0:
        return _fallback("bidding", obs, legal, N_("no opponent hand could be sampled"))
    chance = {b: tally.chance(b) for b in allowed}
    value = {b: tally.value(b) for b in allowed}
    best = tally.best()
    shown = [b for b in allowed if b > 0 and abs(b - best) <= 2] if best > 0 else []
    if not shown:
        contracts = [b for b in allowed if b > 0]
        if contracts:
            top = max(contracts, key=lambda b: (value[b], chance[b], -b))
            shown = [b for b in contracts if abs(b - top) <= 2]
    if 0 in bids:
        shown.append(0)
    options = []
    shown.sort(key=lambda b: (-value[b], -chance[b], b))  # the order that chose ``best``
    for b in shown:
        what = (_("makes Nil in {chance}") if b == 0 else _("makes {bid} in {chance}")).format(
            bid=b, chance=_pct(chance[b]))
        detail = f"{what} · {_avg(tally.mean_points(b))}"
        option = _scored(bids[b], action_label(obs, bids[b]), detail, value[b], "margin", f"≈ {_pts(value[b])}")
        figs = (_pct(chance[b]), _pts(tally.mean_points(b)))
        options.append(replace(option, tie_shown=figs, tie_values=tuple(_shown_value(f) for f in figs)))
    return _finish("bidding", _ranked(options), MARGIN_MEASURE, N_("best margin"),
                   (N_("the chance the bid makes"), N_("the points on average")), explain=True)


# ---------------------------------------------------------------- play


def _goal_text(goal: str, bid: rulebook.Bid, opp_bid: rulebook.Bid, chance: str) -> str:
    """A goal and the chance that a card reaches it: ``makes 4 in 63%``."""
    if goal == "nil":
        text = _("Double Nil holds in {chance}") if bid == rulebook.DOUBLE_NIL else _("Nil holds in {chance}")
    elif goal == "set_nil":
        text = _("sets their Double Nil in {chance}") if opp_bid == rulebook.DOUBLE_NIL else \
            _("sets their Nil in {chance}")
    elif goal == "make":
        text = _("makes {bid} in {chance}")
    elif goal == "set":
        text = _("sets their {bid} in {chance}")
    else:
        text = _("no more tricks in {chance}")
    return text.format(chance=chance, bid=bid if goal == "make" else opp_bid)


def _reached(goal: str, mine: int, theirs: int, bid: rulebook.Bid, opp_bid: rulebook.Bid) -> bool:
    """Whether final trick counts ``mine`` and ``theirs`` reach ``goal`` (``play_goals`` names a
    contract goal only for a bid above 0, a Nil goal only for a Nil or Double Nil: 0 stands for both)."""
    if goal == "nil":
        return made(0, mine)
    if goal == "set_nil":
        return not made(0, theirs)
    if goal == "make":
        return made(bid, mine)
    if goal == "set":
        return not made(opp_bid, theirs)
    return False


def _play_hint(obs: Observation, legal: Sequence[PlayerAction], rng: random.Random, clock: Clock) -> Hint:
    view = view_of(obs)
    rules = obs.rules
    me = obs.seat
    plays = {int(a.card): a for a in legal if isinstance(a, Play)}
    if not plays:
        return _fallback("play", obs, legal, N_("no card is legal"))
    b0 = view.bids[0] if view.bids[0] is not None else 1
    b1 = view.bids[1] if view.bids[1] is not None else 1
    w0, w1 = view.won
    left = view.hand.bit_count()  # tricks still to be decided, the current one included
    # The first goal decides the aim; both are reported.
    goals = play_goals(tricks_wanted(b0), tricks_wanted(b1), w0, w1, left)[:2]
    aim: Aim = "most" if goals[0] in ("make", "set") else "fewest"
    scores = (obs.scores[me], obs.scores[1 - me])
    bags = (obs.bags[me], obs.bags[1 - me])
    util = utility_table(rules, scores, bags, b0, b1)
    pts = [hand_points(rules, b0, t, bags[0])[0] for t in range(14)]
    table = (obs.trick[0].player, int(obs.trick[0].card)) if obs.trick else None
    need = left - (1 if table is not None else 0)
    sample = tilt_sampler(obs, view)
    engine = Solver()
    acc = {c: [0.0, 0.0, 0.0, 0.0] for c in plays}  # utility, points, each goal reached
    total = 0.0
    while clock.more():
        opp, weight = sample(rng)
        if opp.bit_count() != need or opp & (view.hand | view.played):
            continue
        values = solve_play(engine, view.hand, opp, me, table, view.broken, aim)
        for card, v in values.items():
            a = acc.get(card)
            if a is None:
                continue
            mine, theirs = w0 + v, w1 + left - v
            a[0] += weight * util[mine]
            a[1] += weight * pts[mine]
            for i, goal in enumerate(goals):
                # "duck": win no more of the tricks left
                a[2 + i] += weight * (v == 0 if goal == "duck" else _reached(goal, mine, theirs, b0, b1))
        total += weight
    if total <= 0:
        return _fallback("play", obs, legal, N_("no opponent hand could be sampled"))
    options = []
    # Ties go to the lower card: listed low rank first, and the sort is stable.
    for c in sorted(plays, key=lambda c: (c % 13, c)):
        u, p, *reached = (x / total for x in acc[c])
        parts = [_goal_text(g, b0, b1, _pct(r)) for g, r in zip(goals, reached, strict=False)]
        detail = " · ".join([*parts, _avg(p)])
        option = _scored(plays[c], plays[c].card.label(), detail, u, "win", _win_chance(u))
        options.append(replace(option, tie_shown=(_pts(p),), tie_values=(_shown_value(_pts(p)),)))
    return _finish("play", _ranked(options), WIN_MEASURE, N_("best chance to win the game"),
                   (N_("the points on average"),))


# ---------------------------------------------------------------- fallback


def _fallback(kind: str, obs: Observation, legal: Sequence[PlayerAction], why: str) -> Hint:
    """A hint without values (should not happen): the normal bot's choice where it applies."""
    choice = legal[0]
    if kind == "play":
        view: View = view_of(obs)
        card = play_card(view, obs)
        choice = _find(legal, Play(obs.seat, CARDS[card])) or choice
    reason = translated(why)  # marked with N_ where it was written
    first = Option(choice, action_label(obs, choice), reason, 0.0)
    options = (first, *(Option(a, action_label(obs, a), reason, 0.0) for a in legal[:8] if a != choice))
    return Hint(kind, options, choice, _("{choice}: the normal bot's choice ({reason})").format(choice=first.label,
                                                                                               reason=reason))


class HintService:
    """The hint engine behind the child-process host (``bots.process``), so computing a hint never holds
    the interface's GIL.  It is asked ``hint``; ``close`` ends it."""

    def __init__(self, samples: Optional[int] = None) -> None:
        self.samples = samples

    def hint(self, observation: Observation, legal: Sequence[PlayerAction], seed: int) -> Hint:
        return hint(observation, legal, seed, samples=self.samples)

    def close(self) -> None:
        """Nothing to release."""
