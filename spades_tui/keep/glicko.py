"""Glicko-2 ratings, exactly as Glickman's "Example of the Glicko-2 system" computes them (docs/serving.md,
"Rated play").  Pure arithmetic: no file, no clock (the caller says how long a player was away).

- A new player is 1500, RD 350, volatility 0.06; the system constant tau is 0.5.
- Each rated game is its own rating period for both players (as lichess does): ``game`` rates the winner and
  the loser, each against the other's rating from before the game.
- Time away widens the RD as the paper's step 6 does for a player who did not compete, one rating period a
  day (``away``), and the RD so grown is capped at 350; the paper's own step 6 within a game is not capped.
- A rating whose RD is over 110 is provisional: shown with a ``?`` and kept off the leaderboard.

Why no library: the PyPI packages that do Glicko-2 (``glicko2``, ``glicko2-py``, ``pyglicko2``, ``skelo``,
``skills``) are one-person projects, untyped, most unchanged for years, and several solve the volatility by the
paper's older Newton iteration rather than its current Illinois algorithm (step 5), which the worked example
follows; the whole of the paper is the forty lines below, checked against its worked example in the tests.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

SCALE = 173.7178  # the paper's step 2: rating points per unit of mu
BASE = 1500.0
NEW_RD = 350.0
NEW_VOLATILITY = 0.06
TAU = 0.5  # the system constant: how much the volatility may change (the paper suggests 0.3 to 1.2)
EPSILON = 0.000001  # the convergence tolerance of step 5
MAX_RD = 350.0  # an RD grown by time away is never wider than a new player's
PROVISIONAL_RD = 110.0  # over this, a rating is provisional
DAY = 86400.0  # seconds in a rating period for time away


@dataclass(frozen=True)
class Rating:
    """A player's rating, its deviation (RD) and its volatility, on the Glicko scale."""

    rating: float = BASE
    rd: float = NEW_RD
    volatility: float = NEW_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD

    @property
    def shown(self) -> str:
        return shown(self.rating, self.rd)


def shown(rating: float, rd: float) -> str:
    """A rating as a player reads it: ``1523``, or ``1523?`` while provisional (RD over ``PROVISIONAL_RD``)."""
    return f"{round(rating)}{'?' if rd > PROVISIONAL_RD else ''}"


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm as the paper gives it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period in which it played ``games``: each the opponent's rating
    (from before the period) and the score (1 a win, 0 a loss, 0.5 a draw).  No game: only the RD grows."""
    mu, phi = (player.rating - BASE) / SCALE, player.rd / SCALE
    if not games:
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + player.volatility ** 2), player.volatility)
    seen = [((o.rating - BASE) / SCALE, o.rd / SCALE, score) for o, score in games]
    # Steps 3 and 4: the estimated variance from the games alone, and the improvement they show.
    v = 1.0 / sum(_g(phi_j) ** 2 * _expected(mu, mu_j, phi_j) * (1.0 - _expected(mu, mu_j, phi_j))
                  for mu_j, phi_j, _ in seen)
    gained = sum(_g(phi_j) * (score - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, score in seen)
    sigma = _volatility(phi, player.volatility, v, v * gained, tau)
    # Steps 6 to 8: the pre-period RD widened by the new volatility, then narrowed by the games.
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * gained
    return Rating(BASE + SCALE * mu_new, SCALE * phi_new, sigma)


def away(player: Rating, days: float) -> Rating:
    """``player`` after ``days`` away (one rating period a day, fractions too): the RD widened as the paper's
    step 6 widens it for each period without a game, at most to 350 (never narrowed: a wider RD stays)."""
    if days <= 0 or player.rd >= MAX_RD:
        return player
    phi, sigma = player.rd / SCALE, player.volatility
    grown = SCALE * math.sqrt(phi * phi + days * sigma * sigma)
    return Rating(player.rating, min(grown, MAX_RD), sigma)


def game(winner: Rating, loser: Rating) -> tuple[Rating, Rating]:
    """One rated game as its own rating period for both: the winner's and the loser's new ratings, each rated
    against the other's rating from before the game."""
    return rate(winner, [(loser, 1.0)]), rate(loser, [(winner, 0.0)])
