"""The Regret page's helpers: its cost model, its trials cap, and the knobs it turns into parameters.

The page runs Hedge on a threshold cover of scale γ = σ/√T (Algorithm 1 of Haghtalab, Roughgarden &
Shetty 2020) or σ/(4√T) (their Thm 3.3), so the cover has N ≈ √T/σ experts and one run costs
O(T·N^{1/3}) per trial after the exact replay (:mod:`smoothviz.hedge`). :func:`page_cost_s` models that
cost in seconds, fitted to benchmark runs, and :func:`trials_cap` picks the most trials that fit the
page's time budget. :func:`scaled_eta` lets the page scale the tuned rate √(ln N / T), capped at 1/2
where the (1 − η)^c update's bound 2√(T ln N) needs it (Arora, Hazan & Kale 2012, Thm 2.1).
"""

from __future__ import annotations

import numpy as np

from smoothviz.experts import UPDATES
from smoothviz.hedge import cover_gamma, threshold_cover
from smoothviz.validation import check_choice, check_float, check_int

__all__ = ["cover_size", "page_cost_s", "scaled_eta", "trials_cap"]


def page_cost_s(
    horizon: int,
    n_experts: int,
    n_adversaries: int,
    trials: int,
    *,
    adaptive: bool = True,
    n_actions: int = 0,
) -> float:
    """Modelled seconds of one Regret page run: Hedge on thresholds, plus the MW/FTL/FTPL runs.

    That is :func:`~smoothviz.hedge.hedge_thresholds`, plus :func:`~smoothviz.experts.compare_learners`
    when ``n_actions`` is not 0.

    Fitted to runs on a shared 2-core machine (within a factor 1.6 either way; times 1.4 for safety),
    see benchmarks/bench_online.py. With R = adversaries × trials rows, Hedge costs about
    11 ms + 8.4 µs·T + 0.69·T·a + R·T·(0.73 µs + 0.037 µs·N^{1/3}) + 0.032 µs·R·N·max(1, T/N^{2/3}):
    the adaptive adversary's round loop (a µs a round: dense min(30 + 0.0096·trials·N, blocks
    22·trials)), the chunked replay (T·N^{1/3} per row) and its O(N) passes per chunk. MW, FTL, FTPL
    and the FTPL sweep add about 1.3 ms + trials·T·(0.46 µs + 0.14 µs·k).

    Args:
        horizon: rounds T.
        n_experts: cover size N.
        n_adversaries: adversaries run side by side.
        trials: trials per adversary.
        adaptive: whether the adaptive σ-smooth adversary is among them.
        n_actions: k of the MW/FTL/FTPL runs (0: not included).

    Returns:
        Seconds.
    """
    t, n, rows = float(horizon), float(n_experts), float(n_adversaries * trials)
    loop_us = min(30.0 + 0.0096 * trials * n, 22.0 * trials) if adaptive else 0.0
    hedge = 11e-3 + 8.4e-6 * t + 0.69e-6 * t * loop_us
    hedge += rows * t * (0.73e-6 + 0.037e-6 * n ** (1 / 3))
    hedge += 0.032e-6 * rows * n * max(1.0, t / n ** (2 / 3))
    experts = 1.3e-3 + trials * t * (0.46e-6 + 0.14e-6 * n_actions) if n_actions else 0.0
    return 1.4 * (hedge + experts)


def trials_cap(
    horizon: int,
    n_experts: int,
    n_adversaries: int,
    *,
    adaptive: bool = True,
    n_actions: int = 0,
    budget_s: float = 2.0,
    most: int = 1_000,
) -> int:
    """Most trials per adversary (at least 1, at most ``most``) whose :func:`page_cost_s` fits the budget.

    Args:
        horizon: rounds T.
        n_experts: cover size N.
        n_adversaries: adversaries run side by side.
        adaptive: whether the adaptive σ-smooth adversary is among them.
        n_actions: k of the MW/FTL/FTPL runs (0: Hedge only).
        budget_s: time budget in seconds.
        most: the largest number of trials to consider.

    Returns:
        The number of trials.
    """
    horizon = check_int("horizon", horizon, 1)
    n_experts = check_int("n_experts", n_experts, 2)
    n_adversaries = check_int("n_adversaries", n_adversaries, 1)
    n_actions = check_int("n_actions", n_actions, 0)
    most = check_int("most", most, 1)
    check_float("budget_s", budget_s, 0.0, 1e6)
    kw = {"adaptive": bool(adaptive), "n_actions": n_actions}
    trials = 1  # the cost grows with the trials: stop at the first that does not fit
    while (
        trials < most
        and page_cost_s(horizon, n_experts, n_adversaries, trials + 1, **kw) <= budget_s
    ):
        trials += 1
    return trials


def cover_size(sigma: float, horizon: int, *, scale: str = "alg1") -> int:
    """N, the size of the threshold cover at :func:`cover_gamma` (σ/√T or σ/(4√T))."""
    return int(threshold_cover(cover_gamma(sigma, horizon, scale=scale)).size)


def scaled_eta(
    n_experts: int, horizon: int, *, factor: float = 1.0, update: str = "notes"
) -> float:
    """The rate factor · √(ln N / T), capped at 1/2 for the notes' (1 − η)^c update (its bound needs η ≤ 1/2).

    Args:
        n_experts: N ≥ 2.
        horizon: T ≥ 1.
        factor: multiple of the tuned rate, > 0.
        update: ``"notes"`` or ``"exp"``.

    Returns:
        η.
    """
    check_int("n_experts", n_experts, 2)
    check_int("horizon", horizon, 1)
    check_float("factor", factor, 0.0, 1e6)
    check_choice("update", update, UPDATES)
    eta = factor * float(np.sqrt(np.log(n_experts) / horizon))
    return min(eta, 0.5) if update == "notes" else eta
