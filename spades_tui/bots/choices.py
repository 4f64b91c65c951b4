"""The expert's measurable choices (issue 30 ablations), its own first in each: read by the spec
parser (``levels``) without loading the expert, and by the expert (``expert.ExpertBot``).

- ``bid``: ``played`` (issue 38), each solved deal half at its tricks and half a trick short, each of those
  spread both ways as played-out tricks spread round the solved (``sampling.PLAYED_SPREAD``); ``slip``, the
  same without the spread; ``dd``, the win chance with ``sampling.DD_DISCOUNT`` (and the hard bot's Double
  Nil); or ``fit`` (issue 38), ``slip`` with each deal also weighted by how likely the opponent's bid is
  given the tricks their hand makes in it (``sampling.fit_weight``; bidding first it is ``slip``);
- ``draft``: ``hard``, the hard bot's trick estimates, or ``dd``, sampled double-dummy deals;
- ``objective`` of a bid: ``margin``, the hand's points less the opponent's with bags charged,
  or ``win``, the estimated chance to win the game;
- ``sampler``: ``draft``, the draft-log inference with the bid fit, or ``plain``, uniform.
"""

from __future__ import annotations

EXPERT_CHOICES: dict[str, tuple[str, ...]] = {
    "bid": ("played", "slip", "dd", "fit"), "draft": ("hard", "dd"), "objective": ("margin", "win"),
    "sampler": ("draft", "plain"),
}
