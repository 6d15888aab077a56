"""OracleQuery (Neel, Roth & Wu 2019, §4) and the Subsampled Net Mechanism (Haghtalab et al. 2020, App. G)."""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

from smoothviz import bounds
from smoothviz.bounds import privacy as privacy_bounds
from smoothviz.experiments.oracle_query import (
    IP_DRAWS,
    IP_FINAL,
    IP_MAX_ROUNDS,
    make_table,
    page_caps,
    sample_cap,
)
from smoothviz.privacy import queries as Q
from smoothviz.privacy.net_mechanism import (
    acceptance_rates,
    candidate_count,
    candidates,
    net_mechanism,
)
from smoothviz.privacy.oracle_query import (
    ContextFTPL,
    cell_names,
    conjunction_answers,
    dual_oracle_argmin,
    oracle_query,
    oracle_query_params,
    privacy_ledger,
    private_best_response,
    separator_perturbation,
    subset_sums,
)
from smoothviz.privacy.oracles import exhaustive_oracle
from smoothviz.privacy.prsma import prsma_plan
from smoothviz.privacy.separators import codes_to_bits, evaluate


def test_zeta_transforms_answer_every_conjunction():
    rng = np.random.default_rng(0)
    d = 5
    hist = rng.random(2**d)
    cells = codes_to_bits(np.arange(2**d), d)
    table = evaluate("conjunction", cells, cells)  # (cell, conjunction)
    np.testing.assert_allclose(conjunction_answers(hist), hist @ table)
    coeff = rng.normal(size=2**d)
    np.testing.assert_allclose(subset_sums(coeff), table @ coeff)


@pytest.mark.parametrize("seed", range(3))
def test_the_dual_oracle_is_the_conjunction_oracle_on_complemented_points(seed):
    rng = np.random.default_rng(seed)
    d = 5
    coeff = rng.integers(-3, 4, size=2**d).astype(float)
    eta = rng.laplace(0.0, 2.0, size=(4, d))
    fast = dual_oracle_argmin(coeff, eta)
    ip = dual_oracle_argmin(coeff, eta, oracle="integer_program")
    full = 2**d - 1
    points = np.vstack([codes_to_bits(full ^ np.arange(2**d), d), 1 - np.eye(d, dtype=np.uint8)])
    w = np.hstack([np.broadcast_to(coeff, (4, 2**d)), eta])
    slow = full ^ exhaustive_oracle("conjunction", points, np.zeros(len(points), np.uint8), w).codes
    objective = subset_sums(coeff)[None, :] + eta @ codes_to_bits(np.arange(2**d), d).T
    best = objective.min(axis=1)
    for answer in (fast, ip, slow):  # ties aside, the same minimum
        np.testing.assert_allclose(objective[np.arange(4), answer], best, atol=1e-6)


def test_algorithm_1_parameters_match_the_formulas():
    p = oracle_query_params(0.5, 1e-6, 40, 7, alpha0=0.1, beta=0.2)
    assert p.epsilon0 == pytest.approx(0.5 / math.sqrt(24 * 40 * math.log(2 / 1e-6)))
    assert p.delta0 == pytest.approx(1e-6 / 160)
    assert p.beta0 == pytest.approx(0.2 / 160)
    assert p.samples == math.ceil(2 * math.log(2 * 2**7 / p.beta0) / 0.01)
    assert p.final_samples == math.ceil(2 * math.log(8 * 2**7 / 0.2) / 0.01)


@pytest.mark.parametrize("epsilon", [0.1, 0.5, 1.0])
@pytest.mark.parametrize("delta", [1e-9, 1e-6, 1e-2])
@pytest.mark.parametrize("rounds", [1, 30, 2000])
def test_the_ledger_composes_to_epsilon_delta(epsilon, delta, rounds):
    p = oracle_query_params(epsilon, delta, rounds, 4)
    ledger = privacy_ledger(p)
    for entry in ledger.entries:
        assert (entry.epsilon, entry.delta) == pytest.approx((3 * p.epsilon0, 2 * p.delta0))
    assert len(ledger.entries) == rounds
    assert ledger.within_budget
    assert ledger.total_delta == pytest.approx(delta)
    assert ledger.total > 0.8 * epsilon  # composition is tight-ish, not vacuous


def test_the_data_player_never_sees_the_data():
    # by construction: built from d, μ and an oracle; it learns only the query player's choices
    assert list(inspect.signature(ContextFTPL).parameters) == ["d", "mu", "oracle", "time_limit"]
    players = [ContextFTPL(4, 1.0), ContextFTPL(4, 1.0)]
    history = [3, 16 + 5, 0, 16 + 1]
    draws = []
    for player in players:
        rng = np.random.default_rng(7)
        for q in history:
            player.observe(q)
        draws.append(player.sample(50, rng))
    np.testing.assert_array_equal(draws[0], draws[1])
    assert players[0].losses()[0b1111] == pytest.approx(2 + (-1 + 1 - 1 + 1))  # q₃, ¬q₅, q₀, ¬q₁


def test_pbr_maximises_the_payoff_from_the_objective_not_the_printed_box():
    rng = np.random.default_rng(1)
    d = 4
    data = conjunction_answers(rng.dirichlet(np.ones(2**d)))
    sample = conjunction_answers(rng.dirichlet(np.ones(2**d)))
    p = oracle_query_params(1.0, 1e-6, 10, d)
    q, q1, q2 = private_best_response(data, sample, 1000, oracle="exact", params=p, rng=rng)
    gap = data - sample
    assert q1 == int(np.argmax(gap))  # max over Q of q(S) − q(Ŝ)
    assert q2 == 2**d + int(np.argmin(gap))  # max over ¬Q: ¬ of argmin
    value = gap[q % 2**d] * (-1 if q >= 2**d else 1)
    assert value == pytest.approx(np.abs(gap).max())


@pytest.mark.parametrize("oracle", ["gaussian_rspm", "prsma"])
def test_the_players_take_a_seed_or_a_generator(oracle):
    rng = np.random.default_rng(4)
    d, n = 4, 1000 if oracle == "gaussian_rspm" else 10**6  # PRSMA: ⊥ until its pieces are large
    data_hist = rng.multinomial(n, rng.dirichlet(np.ones(2**d))).astype(float)
    data = conjunction_answers(data_hist / n)
    sample = conjunction_answers(rng.dirichlet(np.ones(2**d)))
    p = oracle_query_params(1.0, 1e-6, 10, d)
    plan = prsma_plan(p.epsilon0, p.delta0, n, rescale=True) if oracle == "prsma" else None
    args = {"oracle": oracle, "params": p, "data_hist": data_hist, "plan": plan}
    by_seed = [private_best_response(data, sample, n, **args, rng=s) for s in range(8)]
    by_gen = [private_best_response(data, sample, n, **args, rng=np.random.default_rng(s))
              for s in range(8)]  # fmt: skip
    assert by_seed == by_gen
    assert len(set(by_seed)) > 1  # the seed is used
    player = ContextFTPL(d, 1.0)
    np.testing.assert_array_equal(player.sample(20, 5), player.sample(20, np.random.default_rng(5)))


@pytest.mark.parametrize("oracle", ["exact", "gaussian_rspm", "prsma"])
@pytest.mark.parametrize("seed", range(3))
def test_error_is_bounded_by_the_regrets_pathwise(oracle, seed):
    x, _ = make_table("planted", 5, 20_000, rng=seed)
    r = oracle_query(
        x, epsilon=1.0, delta=1e-6, rounds=12, mu=2.0, oracle=oracle, max_samples=400, rng=seed
    )
    t = r.rounds
    assert np.all(r.mixture_error <= (r.reg_data + r.reg_query) / t + 1e-12)  # Thm 11, every t
    assert r.final_error <= r.regret_bound + 1e-12
    assert np.all(r.reg_query >= -1e-12)
    if oracle == "exact":
        np.testing.assert_allclose(r.reg_query, 0.0, atol=1e-12)
    summary = r.summary()
    assert summary["final_samples"] == 400
    assert len(r.to_frame()) == 12
    np.testing.assert_allclose(r.cell_shares().sum(), 1.0)


def test_the_exact_dynamics_reach_a_small_error_and_gaussian_rspm_pays_for_privacy():
    x, _ = make_table("planted", 6, 200_000, rng=0)
    exact = oracle_query(x, epsilon=1.0, delta=1e-6, rounds=30, mu=3.0, oracle="exact", rng=0)
    private = oracle_query(x, epsilon=1.0, delta=1e-6, rounds=30, mu=3.0, rng=0)
    assert exact.final_error < 0.06
    assert private.summary()["reg_query_avg"] > exact.summary()["reg_query_avg"]


@pytest.mark.parametrize(("m", "s"), [(1, 1), (5, 3), (20, 5), (24, 4)])
def test_the_enumerated_candidates_number_c_m_plus_s_minus_1_s(m, s):
    rows = candidates(m, s)
    assert len(rows) == candidate_count(m, s) == math.comb(m + s - 1, s)
    assert len({tuple(r) for r in rows}) == len(rows)
    assert np.all(np.diff(rows, axis=1) >= 0)


def test_net_scores_are_the_max_error_over_the_query_class():
    rng = np.random.default_rng(3)
    hist = rng.integers(0, 20, size=16).astype(float)
    r = net_mechanism(hist, sigma=0.5, m=8, s=3, epsilon=1.0, queries="intervals", rng=0)
    queries = Q.intervals(16)
    truth = queries.answers(hist / hist.sum())
    index = candidates(8, 3)
    for k in (0, 17, len(index) - 1):
        dist = np.bincount(r.net[index[k]], minlength=16) / 3
        assert r.scores[k] == pytest.approx(np.abs(queries.answers(dist) - truth).max())


@pytest.mark.parametrize("t", [0.5, 1.0, 2.0, 3.0])
def test_the_exponential_mechanism_tail_bound_holds_empirically(t):
    rng = np.random.default_rng(0)
    hist = rng.integers(0, 5, size=32).astype(float)
    r = net_mechanism(hist, sigma=0.3, m=20, s=3, epsilon=0.5, trials=20_000, rng=1)
    assert r.tail_frequency(t) <= math.exp(-t)  # the mechanism's exact probability
    empirical = float(np.mean(r.errors >= r.tail_bound(t)))
    assert empirical <= math.exp(-t) + 4 * math.sqrt(math.exp(-t) / 20_000)


def test_the_acceptance_rate_is_sigma():
    rng = np.random.default_rng(2)
    dist = rng.dirichlet(np.ones(40))
    sigmas = np.array([0.05, 0.2, 0.5, 1.0])
    rates, chis = acceptance_rates(dist, sigmas, draws=40_000, rng=0)
    np.testing.assert_allclose(rates, sigmas, atol=4 * np.sqrt(0.25 / 40_000))
    assert np.all(np.diff(chis) >= 0)  # a larger σ cuts off more


def test_new_bounds_are_registered_with_their_places():
    wanted = {
        "oracle_query_thm11": "Thm 11",
        "oracle_query_lemma14": "Lemma 14",
        "oracle_query_remark3": "Remark 3",
        "net_lemma_g3": "Lemma G.3",
        "net_thm_g4": "Thm G.4",
    }
    for key, where in wanted.items():
        assert where in bounds.BOUNDS[key].source
    assert "reconstructed" in bounds.BOUNDS["net_thm_g4"].source
    rates = privacy_bounds.oracle_query_remark3(10.0, 1e4)
    assert rates["optimum"] < rates["ideal"] < rates["gaussian_rspm"]


def test_bad_arguments_name_the_parameter():
    with pytest.raises(ValueError, match="`oracle`"):
        oracle_query(np.zeros((5, 3)), epsilon=1, delta=1e-6, rounds=2, mu=1, oracle="magic")
    with pytest.raises(ValueError, match="candidates"):
        candidates(60, 6)


def test_rspm_perturbation_over_the_separator_set_needs_no_label_matrix():
    rng = np.random.default_rng(4)
    for d in (1, 3, 7):
        eta = rng.normal(size=d)
        labels = 1.0 - codes_to_bits(np.arange(2**d), d).T.astype(float)  # q_T(ē_j) = [j ∉ T]
        np.testing.assert_allclose(separator_perturbation(eta), eta @ labels, atol=1e-12)


def test_the_integer_program_route_beyond_d_10_answers_every_conjunction_exactly():
    d = 12
    x, _ = make_table("planted", d, 5_000, rng=0)
    r = oracle_query(x, epsilon=1.0, delta=1e-6, rounds=4, mu=3.0, data_oracle="integer_program",
                     max_samples=5, rng=0)  # fmt: skip
    assert r.data_oracle == "integer_program"
    # the max error over all 2^d conjunctions, recomputed one conjunction at a time on the records
    synth_cells = codes_to_bits(np.repeat(np.arange(2**d), r.synthetic.astype(int)), d)
    codes = np.arange(0, 2**d, 37)
    masks = codes_to_bits(codes, d).astype(bool)
    truth = np.array([np.all(x[:, m] == 1, axis=1).mean() for m in masks])
    synth = np.array([np.all(synth_cells[:, m] == 1, axis=1).mean() for m in masks])
    np.testing.assert_allclose(r.data_answers[codes], truth, atol=1e-12)
    assert np.abs(truth - synth).max() <= r.final_error + 1e-12
    assert r.final_error <= r.regret_bound + 1e-12  # Thm 11 + sampling error, pathwise
    # and over all 2^d conjunctions at once, from the (cell, conjunction) table of the separators
    every = np.arange(2**d)
    bits = codes_to_bits(every, d)
    table = evaluate("conjunction", bits, bits).astype(float)  # (cell, conjunction)
    shares = np.bincount(np.ravel_multi_index(x.T[::-1], (2,) * d), minlength=2**d) / len(x)
    truth_all = shares @ table
    np.testing.assert_allclose(r.data_answers, truth_all, atol=1e-12)
    mixture_off = np.abs(truth_all - r.mixture @ table).max()
    synth_off = np.abs(truth_all - (r.synthetic / r.synthetic.sum()) @ table).max()
    assert r.mixture_error[-1] == pytest.approx(mixture_off, abs=1e-12)
    assert r.final_error == pytest.approx(synth_off, abs=1e-12)


def test_page_caps_pick_the_oracle_and_say_why_they_cap():
    auto = page_caps("planted", 8, "auto", 300)
    assert (auto.d, auto.data_oracle, auto.rounds, auto.reasons) == (8, "exhaustive", 300, {})
    big = page_caps("planted", 16, "auto", 300)
    assert (big.data_oracle, big.rounds) == ("integer_program", IP_MAX_ROUNDS)
    assert set(big.reasons) == {"T"}
    forced = page_caps("planted", 11, "exhaustive", 20)
    assert forced.data_oracle == "integer_program"
    assert set(forced.reasons) == {"data_oracle"}
    gap = page_caps("gapminder", 14, "auto", 30)
    assert (gap.d, gap.data_oracle) == (10, "exhaustive")
    assert "10 binarised columns" in gap.reasons["d"]
    # the integer program's budget: T rounds of draws and the output's within IP_DRAWS oracle calls
    assert sample_cap(16, 30, 10_000, data_oracle="integer_program") == (IP_DRAWS - IP_FINAL) // 30
    at_cap = sample_cap(16, IP_MAX_ROUNDS, 10_000, data_oracle="integer_program")
    assert at_cap == (IP_DRAWS - IP_FINAL) // IP_MAX_ROUNDS >= 2
    assert IP_MAX_ROUNDS * 2 + IP_FINAL <= IP_DRAWS


def test_cell_names_spell_each_record_x1_first():
    bits = codes_to_bits(np.arange(2**5), 5)
    assert list(cell_names(bits)) == ["".join(str(b) for b in row) for row in bits]
    assert cell_names(bits)[1] == "10000"  # code 1 is x_1 = 1


def test_composition_is_stated_exactly_not_for_all_epsilon_below_one():
    """Lemma 13's composition reaches ε only when 3Tε₀(e^{3ε₀} − 1) ≤ (1 − √3/2)ε."""
    from smoothviz.privacy.oracle_query import oracle_query_params, privacy_ledger

    led = privacy_ledger(oracle_query_params(1.0, 0.1, 1, 4))
    assert led.total == pytest.approx(1.016, abs=5e-4)
    assert not led.within_budget
    assert "ABOVE the target" in led.statement
    assert privacy_ledger(oracle_query_params(1.0, 0.9, 1, 4)).total == pytest.approx(
        1.54, abs=5e-3
    )
    for eps in (0.1, 0.5, 0.99):
        for delta in (1e-6, 1e-3, 0.05, 0.1, 0.5):
            for rounds in (1, 10, 300):
                p = oracle_query_params(eps, delta, rounds, 4)
                e0 = p.epsilon0
                condition = 3 * rounds * e0 * math.expm1(3 * e0) <= (1 - math.sqrt(3) / 2) * eps
                assert privacy_ledger(p).within_budget == condition, (eps, delta, rounds)


def test_query_oracles_noise_follows_the_neighbour_relation():
    from smoothviz.privacy.oracle_query import oracle_query

    x = np.random.default_rng(0).integers(0, 2, size=(2000, 5)).astype(np.uint8)
    kw = {"epsilon": 1.0, "delta": 1e-6, "rounds": 3, "mu": 3.0, "max_samples": 200, "rng": 1}
    for oracle in ("gaussian_rspm", "prsma"):
        replace = oracle_query(x, oracle=oracle, **kw)
        added = oracle_query(x, oracle=oracle, neighbours="add_remove", **kw)
        assert replace.params.neighbours == "replace"
        # n = 2000 is fewer records than PRSMA's pieces: there the plan carries the relation
        if oracle == "prsma":
            assert (replace.plan.neighbours, added.plan.neighbours) == ("replace", "add_remove")
        else:
            assert replace.oracle_scale == pytest.approx(2 * added.oracle_scale)
        assert replace.ledger.relation == "replace-one neighbours"
        assert "replace-one neighbours" in replace.ledger.statement
    assert replace.params.selection_scale == pytest.approx(2 / replace.params.epsilon0)
