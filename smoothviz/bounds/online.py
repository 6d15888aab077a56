"""The online-learning bounds: threshold mistakes, covers and bracketings, regret of MW, FTPL and Hedge.

Each function is vectorised and registered in :data:`INFOS` with its source and kind (natural logarithms).
"""

from __future__ import annotations

import numpy as np

from smoothviz.bounds.info import BoundInfo, registrar

#: The provenance of each bound below, in page order; :data:`smoothviz.bounds.BOUNDS` merges them.
INFOS: list[BoundInfo] = []
bound = registrar(INFOS)


# --- Thresholds on [0, 1]: binary search against worst-case and σ-smoothed adversaries (E1)


@bound(
    title="worst case: a mistake every round",
    latex=r"\mathrm{mistakes}(t) = t",
    ref="hrs2020",
    where="§1",
    remark="thresholds have infinite Littlestone dimension",
    kind="exact",
    note="With exact dyadic arithmetic the adversary can always pick a point inside the version "
    "space and label it against the learner, so every round is a mistake.",
)
def worst_case_mistakes(t: np.ndarray | float) -> np.ndarray:
    """Mistakes of any deterministic learner against the worst-case threshold adversary: exactly t."""
    return np.asarray(t, dtype=float)


@bound(
    title="derived: log₂(1/σ) + log₂ t + 4",
    latex=r"\mathbb{E}[\mathrm{mistakes}(t)] \le \log_2\tfrac{1}{\sigma} + \log_2 t + 4",
    ref="hrs2020",
    where="§1",
    lead="derived here from the bounded-precision argument of",
    kind="expectation",
    note="Not a theorem of the papers. While the version space is wider than σ the adversary can "
    "force a mistake (each halves the width: ≤ ⌈log₂(1/σ)⌉ + 1 of them); afterwards a "
    "mistake has probability ≤ width/σ, and the widths after those mistakes halve too.",
)
def smoothed_mistakes_envelope(sigma: float, t: np.ndarray | float) -> np.ndarray:
    """log₂(1/σ) + log₂(t) + 4 on midpoint binary search's mean mistakes vs σ-smoothed adversaries."""
    t = np.asarray(t, dtype=float)
    return np.log2(1.0 / sigma) + np.log2(np.maximum(t, 1.0)) + 4.0


@bound(
    title="min(1, width/σ)",
    latex=r"\Pr_{x\sim D_t}[x \in [\ell_t, h_t)] \le \min\!\left(1, \tfrac{h_t-\ell_t}{\sigma}\right)",
    ref="hrs2020",
    where="§2",
    remark="definition of σ-smooth: density ≤ 1/σ times uniform",
    kind="exact",
    note="Holds for every σ-smooth distribution; the window adversary attains it.",
)
def hit_probability(width: np.ndarray | float, sigma: float) -> np.ndarray:
    """min(1, w/σ): the largest chance a density-≤1/σ adversary lands in an interval of width w."""
    return np.minimum(1.0, np.asarray(width, dtype=float) / sigma)


# --- Covers and bracketings (E2, E3, E5): Haghtalab, Roughgarden & Shetty 2020, §2–3 and App. B–C


@bound(
    title="Haussler: (41/ε)^d",
    latex=r"|\mathcal H'| \le \left(\tfrac{41}{\varepsilon}\right)^{\mathrm{VCDim}(\mathcal H)}",
    ref=("hrs2020", "haussler1995"),
    where=("§2", ""),
    remark="an ε-cover under any D of this size exists",
    kind="exact",
    note="A deterministic upper bound on the smallest ε-cover (not a bracketing), any measure; "
    "constant 41 as printed.",
)
def haussler_cover_bound(eps: np.ndarray | float, d: int) -> np.ndarray:
    """Haussler's bound (41/ε)^d on the size of an ε-cover of a VC-dimension-d class (float)."""
    return np.power(41.0 / np.asarray(eps, dtype=float), float(d))


@bound(
    title="thresholds: ⌈1/ε⌉",
    latex=r"N_{[\,]}(\{\mathbb 1(x\ge b)\}, \mu, \varepsilon) = \lceil 1/\varepsilon \rceil",
    ref="hrs2020",
    where="Def. 2.1",
    lead="derived here from",
    kind="exact",
    note="Any atomless μ: brackets [1(x ≥ b_{i+1}), 1(x ≥ b_i)] at the μ-quantiles i/N have mass "
    "1/N; fewer cannot work, the brackets' gaps must cover μ-mass 1.",
)
def threshold_bracketing_number(eps: np.ndarray | float) -> np.ndarray:
    """⌈1/ε⌉, the ε-bracketing number of thresholds on [0, 1] under any atomless measure."""
    return np.ceil(1.0 / np.asarray(eps, dtype=float))


@bound(
    title="Thm 3.7: product of the factors' numbers",
    latex=r"\begin{aligned}&N_{[\,]}(F_1\cdots F_k, \mu, k\varepsilon) \le \prod_{i=1}^{k} N_{[\,]}(F_i, \mu, \varepsilon)\\"
    r"&\quad(\text{same for } F_1+\dots+F_k)\end{aligned}",
    ref="hrs2020",
    where="Thm 3.7",
    remark="proof in App. C.5",
    kind="exact",
    note="Deterministic; intersections and unions. Intervals = up- ∩ down-thresholds, so "
    "N_[](intervals, ε) ≤ ⌈2/ε⌉²; unions of k intervals ≤ ⌈2k/ε⌉^{2k}.",
)
def kfold_bracketing_bound(factor_number: np.ndarray | float, n_factors: int) -> np.ndarray:
    """Theorem 3.7's product ∏_i N_[](F_i, μ, ε) for ``n_factors`` factors of equal number (float)."""
    return np.power(np.asarray(factor_number, dtype=float), float(n_factors))


@bound(
    title="Thm 3.7: N_[](F, ε/4)⁴ for symmetric differences",
    latex=r"N_{[\,]}(\{f\,\Delta\, f'\}, \mu, 4\varepsilon) \le N_{[\,]}(F, \mu, \varepsilon)^4",
    ref="hrs2020",
    where="Thm 3.7 and App. C.5",
    remark="exponent 4 reconstructed from f Δ f′ = (f ∪ f′) ∩ ¬(f ∩ f′)",
    kind="exact",
    note="Deterministic; from f Δ f' = (f ∪ f') ∩ ¬(f ∩ f') and complements having the same "
    "bracketing number.",
)
def symdiff_bracketing_bound(factor_number: np.ndarray | float) -> np.ndarray:
    """N⁴, Theorem 3.7's bound for symmetric differences given N = N_[](F, μ, ε/4) (float)."""
    return np.power(np.asarray(factor_number, dtype=float), 4.0)


@bound(
    title="Thm 3.3 scale σ/(4√T)",
    latex=r"\begin{aligned}\varepsilon^\star &= \frac{\sigma}{4\sqrt T},\\"
    r"N_{[\,]}(\text{thresholds}, U, \varepsilon^\star) &= \left\lceil \frac{4\sqrt T}{\sigma}\right\rceil"
    r"\end{aligned}",
    ref="hrs2020",
    where="Thm 3.3",
    remark="proof in App. C.3, ε = σ/√T then ε/4",
    kind="exact",
    note="The scale at which Theorem 3.3 needs brackets; for thresholds the number is exact "
    "(threshold_bracketing_number at ε*). The regret bound itself is O(·).",
)
def thm33_bracket_scale(sigma: np.ndarray | float, horizon: np.ndarray | float) -> np.ndarray:
    """σ/(4√T), the bracketing scale of Theorem 3.3."""
    return np.asarray(sigma, dtype=float) / (4.0 * np.sqrt(np.asarray(horizon, dtype=float)))


def thm33_threshold_brackets(sigma: np.ndarray | float, horizon: np.ndarray | float) -> np.ndarray:
    """⌈4√T/σ⌉: the number of thresholds' brackets at Theorem 3.3's scale (float).

    Counted as ⌈1/ε⌉ at the scale ε = σ/(4√T), as the Covers page builds them: the direct quotient
    rounds once less and can disagree (1,001 for σ = 0.036, T = 81, from 36/0.036 = 1000.0000000000001).
    """
    return threshold_bracketing_number(thm33_bracket_scale(sigma, horizon))


@bound(
    title="Lemma 3.2: √(Tp ln|F|) + 2Tp",
    latex=r"\begin{aligned}\mathbb E\Big[\max_{f\in F}\sum_{t=1}^T f(x_t)\Big] &\le \sqrt{Tp\ln|F|} + 2Tp,\\"
    r"p &= \varepsilon/\sigma\end{aligned}",
    ref="hrs2020",
    where="Lemma 3.2",
    remark="explicit form from its proof in App. C.2",
    kind="expectation",
    note="For any adaptive sequence of σ-smooth D_t and E_U[f] ≤ ε, σ ≥ ε, valid when "
    "Tp ≥ ln|F| (then s = √(ln|F|/(Tp)) ≤ 1 and e^s ≤ 1 + 2s). The paper states O(T(ε/σ)√ln|F|).",
)
def lemma32_max_count_bound(
    horizon: np.ndarray | float, p: np.ndarray | float, n_functions: int
) -> np.ndarray:
    """√(Tp ln|F|) + 2Tp, the explicit Lemma 3.2 bound (meaningful when Tp ≥ ln|F|)."""
    tp = np.asarray(horizon, dtype=float) * np.asarray(p, dtype=float)
    return np.sqrt(tp * np.log(n_functions)) + 2.0 * tp


@bound(
    title="non-adaptive: 1/(2√T)",
    latex=r"\operatorname{sd}\Big(\tfrac1T\sum_{t} g_{1/2}(x_t+\eta_t)\Big) = "
    r"\begin{cases}\tfrac{1}{2\sqrt T} & x_t \equiv \tfrac12\\ \tfrac12 & \text{adaptive}\end{cases}",
    ref=("hrs2020", "haghtalab2018"),
    where=("App. B", ""),
    remark="the example is Haghtalab's; the 1/(2√T) is the Binomial(T, 1/2) standard deviation",
    kind="exact",
    note="Identities for the true standard deviation: the adaptive average is 0 or 1 w.p. 1/2 "
    "each for every T; the non-adaptive one is Binomial(T, 1/2)/T.",
)
def appb_nonadaptive_std(horizon: np.ndarray | float) -> np.ndarray:
    """1/(2√T), the standard deviation of the non-adaptive average in Appendix B."""
    return 0.5 / np.sqrt(np.asarray(horizon, dtype=float))


# --- Regret: Hedge on a cover, MW vs FTL, perturbed leaders (E4, E6, E14)


@bound(
    title="MW: 2√(T ln N)",
    latex=r"\sum_{t=1}^T \langle p^t, c^t\rangle - \min_a \sum_{t=1}^T c^t_a \le 2\sqrt{T\ln N}",
    ref="ahk2012",
    where="Thm 2.1",
    remark="update (1−η)^c, η = √(ln N / T)",
    kind="exact",
    note="Holds on every cost sequence in [0,1]^N when η = √(ln N/T) ≤ 1/2 (T ≥ 4 ln N), for the "
    "expected loss ⟨p_t, c_t⟩. Also holds for the exp(−ηc) update at η = √(8 ln N/T), whose "
    "standard bound √(T ln N/2) is smaller.",
)
def mw_regret_bound(horizon: np.ndarray | float, n_experts: np.ndarray | float) -> np.ndarray:
    """2√(T ln N): total regret of (1 − η)^c MW at η = √(ln N / T) ≤ 1/2, on every sequence."""
    log_n = np.log(np.asarray(n_experts, dtype=float))
    return 2.0 * np.sqrt(np.asarray(horizon, dtype=float) * log_n)


@bound(
    title="MW at fixed η: ηt + ln N/η",
    latex=r"\mathrm{Regret}_t \le \begin{cases}\eta\,t + \frac{\ln N}{\eta} & (1-\eta)^c,\ \eta\le\tfrac12\\"
    r"\frac{\ln N}{\eta} + \frac{\eta t}{8} & e^{-\eta c}\end{cases}",
    ref=("ahk2012", "cbl2006"),
    where=("Thm 2.1", "Thm 2.2"),
    remark="(1−η)^c line from the first with OPT ≤ t; the exp(−ηc) line is the Hoeffding-lemma "
    "bound of the second",
    kind="exact",
    note="Pathwise after every round t for a learning rate fixed in advance; equals 2√(T ln N) at "
    "t = T, η = √(ln N/T).",
)
def mw_regret_bound_eta(
    t: np.ndarray | float, n_experts: float, eta: float, *, update: str = "notes"
) -> np.ndarray:
    """ηt + ln N/η for (1−η)^c with η ≤ 1/2 (NaN above 1/2); ln N/η + ηt/8 for exp(−ηc)."""
    t = np.asarray(t, dtype=float)
    if update == "notes":
        value = eta * t + np.log(n_experts) / eta
        return np.where(eta <= 0.5, value, np.nan)
    return np.log(n_experts) / eta + eta * t / 8.0


@bound(
    title="Thm 3.1 shape: 2√(T ln(T/σ))",
    latex=r"\begin{aligned}\mathbb E[\mathrm{Regret}] &\in O\big(\sqrt{d\,T\ln(T/\sigma)}\big)\\"
    r"\text{drawn: }&\ 2\sqrt{d\,T\ln(T/\sigma)}\end{aligned}",
    ref=("hrs2020", "haghtalab2018"),
    where=("Thm 3.1", ""),
    remark="non-adaptive σ-smooth adversaries; rate reconstructed as √(dT ln(T/σ))",
    kind="envelope",
    note="The paper gives only O(·); the constant 2 is our choice, matching MW's leading constant. "
    "d = VC dimension (1 for thresholds). A trend, not a guarantee.",
)
def thm31_envelope(horizon: np.ndarray | float, sigma: float) -> np.ndarray:
    """2√(d T ln(T/σ)) for thresholds (d = 1): Theorem 3.1's O(·) shape with the chosen constant 2."""
    horizon = np.asarray(horizon, dtype=float)
    return 2.0 * np.sqrt(horizon * np.log(np.maximum(horizon / sigma, np.e)))


@bound(
    title="Thm 3.3 shape: 2√(T ln⌈4√T/σ⌉)",
    latex=r"\begin{aligned}\mathbb E[\mathrm{Regret}] &\in O\Big(\sqrt{T\ln N_{[\,]}\big(\mathcal H, U, "
    r"\tfrac{\sigma}{4\sqrt T}\big)}\Big)\\"
    r"\text{drawn: }&\ 2\sqrt{T\ln\lceil 4\sqrt T/\sigma\rceil}\end{aligned}",
    ref="hrs2020",
    where="Thm 3.3",
    remark="adaptive σ-smooth adversaries; thresholds have N_[](σ/(4√T)) = ⌈4√T/σ⌉ brackets",
    kind="envelope",
    note="The paper gives only O(·); the constant 2 is our choice, matching MW's leading constant. "
    "A trend, not a guarantee.",
)
def thm33_envelope(horizon: np.ndarray | float, sigma: float) -> np.ndarray:
    """2√(T ln⌈4√T/σ⌉): Theorem 3.3's O(·) shape for thresholds with the chosen constant 2."""
    n = thm33_threshold_brackets(sigma, horizon)
    return 2.0 * np.sqrt(np.asarray(horizon, dtype=float) * np.log(np.maximum(n, 2.0)))


@bound(
    title="MW bound + Lemma 3.2: 2√(T ln N) + 2√T + √(√T ln N)",
    latex=r"\begin{aligned}\mathbb E[\mathrm{Regret}_{\mathcal H}] &\le 2\sqrt{T\ln N} + 2\sqrt T\\"
    r"&\quad + \sqrt{\sqrt T\,\ln N}\end{aligned}",
    ref=("ahk2012", "hrs2020"),
    where=("Thm 2.1", "Lemma 3.2 and App. C.2"),
    lead="derived here from",
    remark="the MW bound on the cover plus the explicit Lemma 3.2 bound on the most points in "
    "one cell, γ = σ/√T",
    kind="expectation",
    note="Not a theorem of the papers. Regret against the class ≤ regret against the cover + the "
    "largest cell count (pathwise); the first ≤ 2√(T ln N) (MW, η = √(ln N/T) ≤ 1/2), the second "
    "has mean ≤ 2Tγ/σ + √(T(γ/σ) ln N) = 2√T + √(√T ln N) for adaptive σ-smooth adversaries, "
    "valid when √T ≥ ln N.",
)
def smoothed_hedge_envelope(horizon: np.ndarray | float, n_experts: float) -> np.ndarray:
    """2√(T ln N) + 2√T + √(√T ln N): mean regret of MW on a σ/√T-cover vs σ-smooth adversaries."""
    horizon = np.asarray(horizon, dtype=float)
    log_n = np.log(n_experts)
    total = 2.0 * np.sqrt(horizon * log_n) + 2.0 * np.sqrt(horizon)
    return total + np.sqrt(np.sqrt(horizon) * log_n)


@bound(
    title="FTL on alternating costs: ⌈T/2⌉",
    latex=r"\mathrm{Regret}_{\mathrm{FTL}}(T) = \lceil T/2\rceil",
    ref=("kv2005", "cbl2006"),
    where=("§1", ""),
    lead="the standard Follow-the-Leader counterexample, e.g.",
    remark="the exact count ⌈T/2⌉ is derived here",
    kind="exact",
    note="Costs (1,0), (0,1), (1,0), …; ties broken to the lowest index. FTL pays every round, the "
    "best action ⌊T/2⌋.",
)
def ftl_alternating_regret(horizon: np.ndarray | float) -> np.ndarray:
    """⌈T/2⌉, Follow-the-Leader's exact regret on the alternating sequence."""
    return np.ceil(np.asarray(horizon, dtype=float) / 2.0)


@bound(
    title="E‖Z‖∞ = b·H_k (Laplace)",
    latex=r"\mathbb E\|Z\|_\infty = b\,H_k = b\sum_{i=1}^k \tfrac1i,\qquad Z_i \sim \mathrm{Lap}(b)",
    ref="dr2014",
    where="Fact 3.7",
    remark="|Lap(b)| ~ Exp(mean b); the max of k i.i.d. exponentials has mean b·H_k, a standard "
    "order-statistics fact",
    kind="exact",
    note="An identity for i.i.d. Laplace perturbations; for Gumbel the page integrates numerically.",
)
def laplace_expected_max_abs(k: np.ndarray | int, scale: np.ndarray | float) -> np.ndarray:
    """b·H_k, the mean of the largest |Z_i| over k i.i.d. Laplace(b) perturbations."""
    k = np.asarray(k, dtype=np.int64)
    harmonic = np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, k.max() + 1))])
    return np.asarray(scale, dtype=float) * harmonic[k]


@bound(
    title="Thm 13: (2 + 4ε)E‖Z‖∞/T + 2ε + δ",
    latex=r"R(T) \le \frac{(2+4\varepsilon)\,\mathbb E\|Z\|_\infty}{T} + 2\varepsilon + \delta",
    ref="nrw2019",
    where="Thm 13",
    remark="explicit constants from its proof in App. D",
    kind="expectation",
    note="Expected average regret of Follow the Private Leader with an (ε, δ)-DP pERM, ε, δ ∈ (0,1) "
    "(uses e^ε ≤ 1 + 2ε). For i.i.d. Laplace(b) or Gumbel(b) perturbations of cumulative losses in "
    "[0,1] we use ε = 1/b, δ = 0 (monotone scores: Dwork & Roth 2014, Claim 3.9); "
    "drawn only where b > 1.",
)
def ftpl_regret_bound(
    horizon: np.ndarray | float,
    expected_max_abs: np.ndarray | float,
    epsilon: np.ndarray | float,
) -> np.ndarray:
    """(2 + 4ε)E‖Z‖∞/T + 2ε + δ with δ = 0 (pure ε-DP), NaN where ε ∉ (0, 1) (Theorem 13's hypothesis)."""
    epsilon = np.asarray(epsilon, dtype=float)
    value = (2.0 + 4.0 * epsilon) * np.asarray(expected_max_abs, dtype=float)
    value = value / np.asarray(horizon, dtype=float) + 2.0 * epsilon
    return np.where((epsilon > 0) & (epsilon < 1), value, np.nan)


@bound(
    title="E max G_i = b(ln k + γ) (Gumbel)",
    latex=r"\begin{aligned}\mathbb E\max_{i\le k} G_i &= b\,(\ln k + \gamma),\quad \gamma = 0.5772\ldots\\"
    r"&\quad G_i \sim \mathrm{Gumbel}(0, b)\ \text{i.i.d.}\end{aligned}",
    ref="gumbel1958",
    where="",
    remark="the largest of k i.i.d. Gumbel(0, b) draws is Gumbel(b ln k, b): max-stability",
    kind="exact",
    note="An identity for the largest noisy score of the exponential mechanism. It is a lower bound "
    "on E‖Z‖∞ = b·E max|G_i| (|G| ≥ G); the two differ by 0.44b at k = 1 and by under 1% from k = 10 "
    "on, because the Gumbel's left tail is doubly exponentially thin.",
)
def gumbel_expected_max(k: np.ndarray | int, scale: np.ndarray | float) -> np.ndarray:
    """b(ln k + γ), the mean of the largest of k i.i.d. Gumbel(0, b) draws (not of their |·|)."""
    return np.asarray(scale, dtype=float) * (np.log(np.asarray(k, dtype=float)) + np.euler_gamma)


@bound(
    title="E‖Z‖∞ for Gumbel(b) perturbations (integral)",
    latex=r"\begin{aligned}\mathbb E\|Z\|_\infty &= b\int_0^\infty \Big(1 - \big(e^{-e^{-a}} - e^{-e^{a}}\big)^{k}"
    r"\Big)\,da\\&\quad Z_i = -b\,G_i,\ G_i \sim \mathrm{Gumbel}(0, 1)\end{aligned}",
    ref="gumbel1958",
    where="",
    lead="standard, from E X = ∫₀^∞ P(X > a) da for X ≥ 0 and the Gumbel distribution function;",
    remark="P(|G| ≤ a) = e^{−e^{−a}} − e^{−e^{a}} for a standard Gumbel G",
    kind="exact",
    note="An identity with no closed form, evaluated by Simpson's rule on a fine grid (error below "
    "1e-9·b). For Laplace(b) the same quantity is b·H_k.",
)
def gumbel_expected_max_abs(k: np.ndarray | int, scale: np.ndarray | float) -> np.ndarray:
    """E max_i |Z_i| for k i.i.d. Z_i = −b·G_i, G_i standard Gumbel, by Simpson's rule on [0, ln k + 40]."""
    k_arr = np.asarray(k, dtype=float)
    upper = np.log(max(float(k_arr.max()), 1.0)) + 40.0  # k·e^{−a} < 1e-17 beyond
    a = np.linspace(0.0, upper, 4_001)
    with np.errstate(divide="ignore"):
        log_inside = np.log(np.exp(-np.exp(-a)) - np.exp(-np.exp(np.minimum(a, 700.0))))
    tail = -np.expm1(np.multiply.outer(k_arr, log_inside))  # P(max |G_i| > a)
    weights = np.ones(a.size)
    weights[1:-1:2], weights[2:-1:2] = 4.0, 2.0
    return np.asarray(scale, dtype=float) * (tail @ weights) * (a[1] - a[0]) / 3.0


#: The public names: the registered bounds and the count of Theorem 3.3's brackets.
__all__ = ["INFOS", *sorted([*(info.key for info in INFOS), "thm33_threshold_brackets"])]
