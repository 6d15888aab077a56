"""E14 on the Regret page: the RSPM-correlated perturbation beside Laplace and Gumbel (experts tab)."""

from __future__ import annotations

import numpy as np
import pytest

from smoothviz.experiments.regret import compare_learners
from smoothviz.online import experts
from tests.apptest_helpers import run_page


def test_separator_bits_separate_the_actions():
    for k in (1, 2, 3, 8, 13, 64):
        table = experts.rspm_bits(k)
        assert table.shape == (max(1, (k - 1).bit_length()), k)
        assert len({tuple(col) for col in table.T}) == k  # every two actions differ on some point


@pytest.mark.parametrize("m", [1, 2, 3, 6])
def test_closed_form_of_the_correlated_sup_norm(m):
    z = experts.perturbations((100_000, 2**m), perturbation="rspm", scale=2.0, rng=3)
    mc = np.abs(z).max(axis=1)
    exact = experts.rspm_expected_max_abs(m, 2.0)
    assert abs(mc.mean() - exact) < 4 * mc.std() / np.sqrt(mc.size)
    assert experts.expected_max_abs(2**m, scale=2.0, perturbation="rspm") == pytest.approx(exact)
    # b·m²/2 ≤ E‖Z‖∞ ≤ b·m²: correlation saves draws, not noise
    assert 2.0 * m**2 / 2 <= exact <= 2.0 * m**2


def test_existing_perturbations_are_unchanged():
    z = experts.perturbations((4, 5), perturbation="laplace", scale=2.0, rng=7)
    assert np.array_equal(z, np.random.default_rng(7).laplace(0.0, 2.0, size=(4, 5)))
    g = experts.perturbations((4, 5), perturbation="gumbel", scale=2.0, rng=7)
    assert np.array_equal(g, -np.random.default_rng(7).gumbel(0.0, 2.0, size=(4, 5)))


def test_rspm_ftpl_runs_and_its_curve_matches():
    runs, sweep = compare_learners(
        "coin_flips", 200, 8, perturbation="rspm", scale=5.0, trials=3, seed=0
    )
    assert runs[2].algorithm == "ftpl"
    assert sweep.expected_max_abs[0] == pytest.approx(experts.rspm_expected_max_abs(3, 0.1))
    curve = experts.max_abs_curve(64, perturbation="rspm", scale=1.0, trials=2000, rng=1)
    power = np.isin(curve.ks, [2, 4, 8, 16, 32, 64])
    assert np.all(np.abs(curve.mean - curve.exact)[power] < 5 * curve.sem[power])


def test_regret_page_experts_tab_with_rspm_noise():
    at = run_page("regret", {"view": "experts", "pert": "rspm", "n": "8", "b": "10"})
    assert not at.exception
    assert not at.warning
    caption = next(c.value for c in at.caption if "E‖Z‖∞ for k" in c.value)
    assert "RSPM-correlated" in caption
    assert f"at k = 8 it is {experts.rspm_expected_max_abs(3, 10.0):,.2f}" in caption
    assert f"b·H_k ({experts.expected_max_abs(8, scale=10.0):,.2f} at k = 8)" in caption
