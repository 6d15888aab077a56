"""Online learning, one import away: the names of the modules below, re-exported for the pages and users.

Smoothed online learning (Haghtalab, Roughgarden & Shetty 2020, Thm 3.3) is Hedge on a finite cover of
the class, played against a σ-smooth adversary, with regret measured against the best hypothesis of
the whole class. Each piece lives in a module named after it:

* :mod:`smoothviz.adversaries`: worst-case and σ-smooth adversaries (thresholds, 2-D halfspaces, and
  the binary-search adversaries of :mod:`smoothviz.thresholds`).
* :mod:`smoothviz.erm`: exact ERM oracles, the best threshold or halfspace in hindsight.
* :mod:`smoothviz.experts`: Multiplicative Weights (Arora, Hazan & Kale 2012, Thm 2.1),
  Follow-the-Leader, Follow the Perturbed (Private) Leader and its perturbations (Neel, Roth & Wu 2019,
  Thm 13), cost sequences.
* :mod:`smoothviz.hedge`: Hedge on a threshold cover (Algorithm 1 of Haghtalab, Roughgarden & Shetty
  2020) and its exact replay.
* :mod:`smoothviz.halfspaces`: Hedge on a cover of halfspaces in [0, 1]² (their Cor. 3.8).
* :mod:`smoothviz.experiments.regret`: the Regret page's cost model, trials cap and rate knob.

``from smoothviz import online; online.hedge_thresholds(...)`` keeps working; new code may import
from the modules directly.
"""

from __future__ import annotations

from smoothviz.adversaries import ADVERSARIES, ADVERSARIES_2D
from smoothviz.erm import best_halfspace_mistakes, best_threshold_mistakes
from smoothviz.experiments.regret import (
    compare_learners,
    cover_size,
    learners_frame,
    page_cost_s,
    scaled_eta,
    trials_cap,
)
from smoothviz.experts import (
    NOISES,
    SEQUENCES,
    UPDATES,
    ExpertsResult,
    FTPLSweepResult,
    MaxAbsResult,
    alternating_costs,
    coin_flip_costs,
    default_eta,
    expected_max_abs,
    follow_the_leader,
    follow_the_perturbed_leader,
    ftpl_sweep,
    harmonic,
    leader_loss,
    log_weight_rate,
    make_costs,
    max_abs_curve,
    multiplicative_weights,
    perturbations,
)
from smoothviz.halfspaces import HalfspaceResult, halfspace_cover, hedge_halfspaces
from smoothviz.hedge import (
    COVER_SCALES,
    LABELS,
    HedgeThresholdsResult,
    cover_gamma,
    hedge_replay,
    hedge_thresholds,
    threshold_cover,
)

__all__ = [
    "ADVERSARIES",
    "ADVERSARIES_2D",
    "COVER_SCALES",
    "LABELS",
    "NOISES",
    "SEQUENCES",
    "UPDATES",
    "ExpertsResult",
    "FTPLSweepResult",
    "HalfspaceResult",
    "HedgeThresholdsResult",
    "MaxAbsResult",
    "alternating_costs",
    "best_halfspace_mistakes",
    "best_threshold_mistakes",
    "coin_flip_costs",
    "compare_learners",
    "cover_gamma",
    "cover_size",
    "default_eta",
    "expected_max_abs",
    "follow_the_leader",
    "follow_the_perturbed_leader",
    "ftpl_sweep",
    "halfspace_cover",
    "harmonic",
    "hedge_halfspaces",
    "hedge_replay",
    "hedge_thresholds",
    "leader_loss",
    "learners_frame",
    "log_weight_rate",
    "make_costs",
    "max_abs_curve",
    "multiplicative_weights",
    "page_cost_s",
    "perturbations",
    "scaled_eta",
    "threshold_cover",
    "trials_cap",
]
