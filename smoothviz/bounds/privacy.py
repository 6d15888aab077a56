"""The privacy bounds: MWEM and its smoothed variants, private thresholds, RSPM, PRSMA and OracleQuery.

Each function is vectorised and registered in :data:`INFOS` with its source and kind (natural logarithms);
the public names are the registered bounds and two helpers (:func:`is_vacuous`, Thm 4.1's probability).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from smoothviz.bounds.info import BoundInfo, registrar
from smoothviz.privacy.neighbours import gap_shift

#: The provenance of each bound below, in page order; :data:`smoothviz.bounds.BOUNDS` merges them.
INFOS: list[BoundInfo] = []
bound = registrar(INFOS)


def is_vacuous(value: ArrayLike) -> np.ndarray:
    """True where an error bound for [0, 1]-valued queries says nothing (value ≥ 1)."""
    return np.asarray(value) >= 1.0


# MWEM, Smooth MWEM, Projected Smooth MWEM, private thresholds (E7–E10)


@bound(
    title="Thm 4.1: 2√(ln|X|/T) + 10T ln|Q|/(εn)",
    latex=r"\begin{aligned}\max_{q\in Q}|q(\bar D)-q(D_B)| &\le 2\sqrt{\tfrac{\ln|\mathcal X|}{T}}\\"
    r"&\quad + \tfrac{10\,T\ln|Q|}{\varepsilon n}\end{aligned}",
    ref=("hrs2020", "hlm2012"),
    where=("Thm 4.1 and Thm E.5", ""),
    kind="high-probability",
    note="Holds with probability ≥ 1 − 2T/|Q| (mwem_thm41_probability); exact constants from the "
    "paper, natural logarithms. Vacuous (says nothing) where it is ≥ 1; see is_vacuous.",
)
def mwem_thm41_bound(
    n: float, rounds: ArrayLike, epsilon: float, domain_size: float, n_queries: float
) -> np.ndarray:
    """Theorem 4.1 error bound of MWEM: 2√(ln|X|/T) + 10·T·ln|Q|/(εn), vectorised over ``rounds``."""
    t = np.asarray(rounds, dtype=float)
    return 2.0 * np.sqrt(np.log(domain_size) / t) + 10.0 * t * np.log(n_queries) / (epsilon * n)


def mwem_thm41_probability(rounds: ArrayLike, n_queries: float) -> np.ndarray:
    """Probability 1 − 2T/|Q| with which Theorem 4.1 holds (clipped at 0: no guarantee)."""
    return np.maximum(0.0, 1.0 - 2.0 * np.asarray(rounds, dtype=float) / n_queries)


def _smooth_mwem_bound(
    n: float, rounds: ArrayLike, epsilon: float, sigma: float, vc_dim: float, *, cover_factor: float
) -> np.ndarray:
    """1/n + 2√(ln(1/σ)/T) + 10Td ln(c·n/σ)/(εn): Thm 4.2 has c = 2 (γ = σ/2n), App. F.2 c = 4 (γ = σ/4n)."""
    t = np.asarray(rounds, dtype=float)
    return (
        1.0 / n
        + 2.0 * np.sqrt(np.log(1.0 / sigma) / t)
        + 10.0 * t * vc_dim * np.log(cover_factor * n / sigma) / (epsilon * n)
    )


@bound(
    title="Thm 4.2: 1/n + 2√(ln(1/σ)/T) + 10Td ln(2n/σ)/(εn)",
    latex=r"\begin{aligned}\max_{q\in Q}|v_q-q(D_B)| &\le \tfrac1n + 2\sqrt{\tfrac{\ln(1/\sigma)}{T}}\\"
    r"&\quad + \tfrac{10\,T d\ln(2n/\sigma)}{\varepsilon n}\end{aligned}",
    ref="hrs2020",
    where="Thm 4.2 and App. E",
    remark="Algorithm 2, γ = σ/(2n)",
    kind="high-probability",
    note="For (σ,0)-smooth data, d = VC dimension; holds with probability ≥ 1 − 2T(γ/41)^d. As "
    "printed in Thm 4.2: the App. E proof's last term strictly has ln(41/γ) = ln(82n/σ).",
)
def smooth_mwem_thm42_bound(
    n: float, rounds: ArrayLike, epsilon: float, sigma: float, vc_dim: float
) -> np.ndarray:
    """Theorem 4.2 error bound of Smooth MWEM, vectorised over ``rounds``."""
    return _smooth_mwem_bound(n, rounds, epsilon, sigma, vc_dim, cover_factor=2.0)


@bound(
    title="Thm 4.3 (App. F): 1/n + 2√(ln(1/σ)/T) + 10Td ln(4n/σ)/(εn)",
    latex=r"\begin{aligned}\max_{q\in Q}|q(\bar D)-q(D_B)| &\le \tfrac1n + 2\sqrt{\tfrac{\ln(1/\sigma)}{T}}\\"
    r"&\quad + \tfrac{10\,T d\ln(4n/\sigma)}{\varepsilon n}\end{aligned}",
    ref="hrs2020",
    where="App. F.2",
    remark="error decomposition for Algorithm 3 with γ = σ/(4n), behind Thm 4.3",
    kind="high-probability",
    note="[reconstructed] γ = σ/(4n) and this explicit form are read off the App. F.2 proof "
    "(4γ/σ + 2√(ln(1/σ)/T) + 10Td ln(41/γ)/(εn), printed with ln(4n/σ)); pure ε-DP version, "
    "for every q ∈ Q including those off the cover, because every iterate stays σ-smooth.",
)
def projected_mwem_thm43_bound(
    n: float, rounds: ArrayLike, epsilon: float, sigma: float, vc_dim: float
) -> np.ndarray:
    """Explicit App. F.2 error bound of Projected Smooth MWEM (pure ε-DP), vectorised over ``rounds``."""
    return _smooth_mwem_bound(n, rounds, epsilon, sigma, vc_dim, cover_factor=4.0)


@bound(
    title="Fact E.2: Ψ₀ ≤ ln(1/σ)",
    latex=r"\Psi_0 = D_{\mathrm{KL}}(D_B\,\|\,U) \le \ln\tfrac1\sigma",
    ref="hrs2020",
    where="Fact E.2",
    kind="exact",
    note="For a σ-smooth D_B (density ≤ 1/σ times uniform); equals ln|X| for a point mass.",
)
def mwem_potential_start_bound(sigma: ArrayLike) -> np.ndarray:
    """Fact E.2: the starting potential KL(D_B‖U) of a σ-smooth D_B is at most ln(1/σ)."""
    return np.log(1.0 / np.asarray(sigma, dtype=float))


@bound(
    title="Lemma E.3: Ψ_{i−1} − Ψ_i ≥ ((q_i(D_{i−1}) − q_i(D_B))/2)² − ((m_i − q_i(D_B))/2)²",
    latex=r"\begin{aligned}\Psi_{i-1}-\Psi_i &\ge \Big(\tfrac{q_i(D_{i-1})-q_i(D_B)}{2}\Big)^2\\"
    r"&\quad - \Big(\tfrac{m_i-q_i(D_B)}{2}\Big)^2\end{aligned}",
    ref=("hrs2020", "hlm2012"),
    where=("Lemma E.3", "Lemma A.4"),
    kind="exact",
    note="Deterministic, every round, with the measurement m_i clipped to [0, 1] (post-processing). "
    "After a KL projection onto the σ-smooth polytope it still holds for σ-smooth D_B (Pythagoras).",
)
def lemma_e3_potential_drop(
    synthetic_answer: ArrayLike, true_answer: ArrayLike, measurement: ArrayLike
) -> np.ndarray:
    """Right-hand side of Lemma E.3: ((q(D) − q(D_B))/2)² − ((m − q(D_B))/2)²."""
    b = np.asarray(true_answer, dtype=float)
    drop = ((np.asarray(synthetic_answer) - b) / 2.0) ** 2
    return drop - ((np.asarray(measurement) - b) / 2.0) ** 2


@bound(
    title="E10: grid thresholds lose ≤ α",
    latex=r"\begin{aligned}&\min_{t\in\sigma\alpha\mathbb Z}\mathrm{err}(h_t)\\"
    r"&\quad - \min_{t\in[0,1]}\mathrm{err}(h_t) \le \alpha\end{aligned}",
    ref="hrs2020",
    where="§1",
    remark="DP paragraph: a σ-smooth distribution puts ≤ α mass on any width-σα interval",
    kind="exact",
    note="For σ-smooth data (marginal density ≤ 1/σ) and a threshold grid of spacing ≤ σα.",
)
def threshold_discretisation_error(alpha: ArrayLike) -> np.ndarray:
    """E10: the best grid threshold (spacing σα) is within α of the best threshold on σ-smooth data."""
    return np.asarray(alpha, dtype=float)


@bound(
    title="E10: α + 2 ln(K/β)/(εn)",
    latex=r"\begin{aligned}\mathrm{err}(h_{\hat t}) &\le \min_t \mathrm{err}(h_t)\\"
    r"&\quad + \alpha + \tfrac{2\ln(K/\beta)}{\varepsilon n}\end{aligned}",
    ref=("hrs2020", "mt2007", "dr2014"),
    where=("§1", "", "Thm 3.11"),
    remark="discretisation from the first; the exponential mechanism's accuracy from the others",
    kind="high-probability",
    note="With probability ≥ 1 − β, K = number of grid thresholds, score = −n·err (sensitivity 1).",
)
def private_threshold_bound(
    alpha: float, n_candidates: float, epsilon: float, n: ArrayLike, beta: float
) -> np.ndarray:
    """Excess error α + 2 ln(K/β)/(εn) of the exponential mechanism over K grid thresholds."""
    n = np.asarray(n, dtype=float)
    return alpha + 2.0 * np.log(n_candidates / beta) / (epsilon * n)


# Private learning with an optimisation oracle (E11, E12): Neel, Roth & Wu 2019, §3 and App. B


@bound(
    title="Laplace RSPM: 2m·b·ln(m/β)/n, b = 2m/ε (replace one) or m/ε (add/remove)",
    latex=r"q(S) - \min_{q^*} q^*(S) \le \frac{2m\,b\ln(m/\beta)}{n},\quad "
    r"b = \frac{2m}{\varepsilon}\ \text{(replace one)},\ \frac{m}{\varepsilon}\ \text{(add/remove)}",
    ref="nrw2019",
    where="Thm 5",
    kind="high-probability",
    note="With probability ≥ 1 − β over the Laplace noise, given a perfect oracle; m = separator "
    "size, b = the Laplace scale that ran. The paper prints b = m/ε, i.e. 2m² ln(m/β)/(εn); that "
    "scale is ε-DP only for add/remove neighbours (Lemma 2 erratum), so under the paper's "
    "replace-one neighbours b = 2m/ε and the bound doubles.",
)
def rspm_laplace_bound(
    m: ArrayLike, epsilon: float, n: ArrayLike, beta: float, *, neighbours: str = "replace"
) -> np.ndarray:
    """Excess error 2m·b·ln(m/β)/n of Laplace RSPM at b = s·m/ε (s = 2 replace-one, 1 add/remove)."""
    m = np.asarray(m, dtype=float)
    b = gap_shift(neighbours) * m / epsilon
    return 2.0 * m * b * np.log(m / beta) / np.asarray(n, dtype=float)


@bound(
    title="Erratum: Lemma 2 needs add/remove neighbours",
    latex=r"\tilde q(S',\eta) \ge \tilde q(S,\eta) - 1 > \hat q(S,\eta) - 1"
    r"\ \Rightarrow\ \hat q(S',\eta) - \tilde q(S',\eta) < 1"
    r"\ \text{ needs } \hat q(S') \le \hat q(S);\qquad"
    r"\text{loss} \le \frac{g}{s}\,\varepsilon,\ \eta_i \sim \mathrm{Lap}(s\,m/\varepsilon)",
    ref="nrw2019",
    where="Lemma 2, Thm 6; App. B, Lemma 17",
    lead="erratum (found by an audit, checked by hand) to",
    kind="exact",
    note="Lemma 2's step (1) concludes q̂(S′,η) − q̃(S′,η) < 1, which needs q̂(S′) ≤ q̂(S). Under the "
    "paper's own neighbours (§2: replace one point) q̂'s count can rise by 1 while q̃'s falls by 1: "
    "the gap moves by g = 2, and the unit shift f_q̂ no longer restores q̂ as the minimiser. Under "
    "add/remove both counts move the same way (g = 1) and the lemma holds. So η ~ Lap(m/ε) "
    "(s = 1, as printed) is ε-DP for add/remove and only 2ε-DP for replace-one; Lap(2m/ε) (s = 2) "
    "restores ε. Gaussian RSPM's Lemma 17 has the same step: its shift must be 2, so σ_G doubles. "
    "PRSMA's inner runs and OracleQuery's oracles inherit the factor. Worst case, exact with a "
    "perfect oracle; the audit's pair attains it.",
)
def rspm_privacy_loss(epsilon: ArrayLike, *, neighbours: str, scale_for: str) -> np.ndarray:
    """Worst loss g·ε/s of Laplace RSPM: g, s the gap shifts of ``neighbours`` and of ``scale_for``."""
    return gap_shift(neighbours) / gap_shift(scale_for) * np.asarray(epsilon, dtype=float)


@bound(
    title="Laplace RSPM, mean: 2m·b(1 + ln m)/n",
    latex=r"\mathbb E\big[q(S) - \min_{q^*} q^*(S)\big] \le \frac{2m\,b}{n}(1 + \ln m),\quad "
    r"b = \frac{2m}{\varepsilon}\ \text{(replace one)},\ \frac{m}{\varepsilon}\ \text{(add/remove)}",
    ref="nrw2019",
    where="Remark 1",
    kind="expectation",
    note="Mean over the Laplace noise, given a perfect oracle; integrates Thm 5's tail. Printed "
    "with b = m/ε (add/remove); doubled under replace-one neighbours (Lemma 2 erratum).",
)
def rspm_laplace_expected_bound(
    m: ArrayLike, epsilon: float, n: ArrayLike, *, neighbours: str = "replace"
) -> np.ndarray:
    """Expected excess error 2m·b(1 + ln m)/n of Laplace RSPM at scale b = shift·m/ε."""
    m = np.asarray(m, dtype=float)
    b = gap_shift(neighbours) * m / epsilon
    return 2.0 * m * b * (1.0 + np.log(m)) / np.asarray(n, dtype=float)


@bound(
    title="Gaussian RSPM: 2m√(2 ln(2m/β))·σ_G/n",
    latex=r"q(S) - \min_{q^*} q^*(S) \le \frac{2m\sqrt{2\ln(2m/\beta)}\,\sigma_G}{n},"
    r"\quad \sigma_G = \frac{3.5\,s\sqrt{m\ln(1/\delta)}}{\varepsilon},\ "
    r"s = 2\ \text{(replace one)},\ 1\ \text{(add/remove)}",
    ref="nrw2019",
    where="Thm 18",
    kind="high-probability",
    note="With probability ≥ 1 − β, given a perfect oracle. The theorem states O(·); the constant "
    "the proof gives (max |η_i| ≤ √(2 ln(2m/β))·σ_G, counted twice as in Thm 5): 7√2 ≈ 9.9 with "
    "the printed σ_G, twice that under replace-one neighbours, where Lemma 17's shift is 2 and "
    "σ_G doubles (the Lemma 2 erratum carried to App. B).",
)
def rspm_gaussian_bound(
    m: ArrayLike,
    epsilon: float,
    delta: float,
    n: ArrayLike,
    beta: float,
    *,
    neighbours: str = "replace",
) -> np.ndarray:
    """Excess error 2m√(2 ln(2m/β))·σ_G/n of Gaussian RSPM, σ_G = shift·3.5√(m ln(1/δ))/ε."""
    m = np.asarray(m, dtype=float)
    sigma_g = gap_shift(neighbours) * 3.5 * np.sqrt(m * np.log(1.0 / delta)) / epsilon
    return 2.0 * m * np.sqrt(2.0 * np.log(2.0 * m / beta)) * sigma_g / np.asarray(n, dtype=float)


@bound(
    title="exponential mechanism: 2(m ln 2 + ln(1/β))/(εn)",
    latex=r"q(S) - \min_{q^*} q^*(S) \le \frac{2\,(\ln|\mathcal Q| + \ln(1/\beta))}{\varepsilon n},"
    r"\quad |\mathcal Q| = 2^m",
    ref=("kln2011", "nrw2019", "dr2014"),
    where=("", "§3.1", "Thm 3.11"),
    remark="the generic private learner; accuracy of the exponential mechanism with score −n·q(S)",
    kind="high-probability",
    note="With probability ≥ 1 − β; score −n·q(S) has sensitivity 1. The paper states "
    "O((m + log(1/β))/(εn)); the constant 2 is the exponential mechanism's.",
)
def exponential_learner_bound(
    m: ArrayLike, epsilon: float, n: ArrayLike, beta: float
) -> np.ndarray:
    """Excess error 2(m ln 2 + ln(1/β))/(εn) of the exponential-mechanism learner over 2^m hypotheses."""
    m = np.asarray(m, dtype=float)
    return 2.0 * (m * np.log(2.0) + np.log(1.0 / beta)) / (epsilon * np.asarray(n, dtype=float))


@bound(
    title="PRSMA's privacy for its run parameters",
    latex=r"\big(8e^2\varepsilon + \varepsilon + \varepsilon^2,\; 4\delta + "
    r"\tfrac{\varepsilon\delta e^2}{1-\delta}\big)\text{-DP};\ "
    r"(\varepsilon/62,\ \delta/11) \mapsto (\varepsilon, \delta)",
    ref="nrw2019",
    where="Thm 8",
    kind="exact",
    note="A guarantee, not an estimate: for run parameters ε, δ ≤ 1/2 and any certifiable oracle. "
    "Running with (ε/62, δ/11) therefore gives (ε, δ)-DP.",
)
def prsma_privacy(epsilon: ArrayLike, delta: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Thm 8's (ε, δ) of PRSMA run with parameters (ε, δ) ≤ 1/2: (8e²ε + ε + ε², 4δ + εδe²/(1 − δ))."""
    epsilon, delta = np.asarray(epsilon, dtype=float), np.asarray(delta, dtype=float)
    e2 = np.e**2
    return 8 * e2 * epsilon + epsilon + epsilon**2, 4 * delta + epsilon * delta * e2 / (1.0 - delta)


@bound(
    title="PRSMA with RSPM inside: ~ 1/√n",
    latex=r"\alpha \le 2\sqrt{\tfrac{K}{2n}\ln\tfrac{2|\mathcal Q|}{\eta}} + "
    r"\frac{2m\,b'\ln(m/\eta)}{n/K},\quad b' = \frac{s\,m}{\varepsilon'},\ \eta = \beta - \delta,\ "
    r"\varepsilon' = \big(8\tfrac nK\ln\tfrac{2K}{\delta}\big)^{-1/2}",
    ref="nrw2019",
    where="Thm 9",
    kind="envelope",
    note="The theorem states Õ(·); this is the last display of its proof with η = β − δ as "
    "printed, K = (1/ε)(1 + ln(2/δ)) unrounded, and RSPM's Thm 5 inside (perfect oracle) at the "
    "scale that ran: s = 2 under replace-one neighbours, 1 under add/remove (Lemma 2 erratum). "
    "It decays like 1/√n (log–log slope −1/2).",
)
def prsma_accuracy_bound(
    m: float,
    n_hypotheses: float,
    epsilon: float,
    delta: float,
    n: ArrayLike,
    beta: float,
    *,
    neighbours: str = "replace",
) -> np.ndarray:
    """Thm 9's proof display: subsampling error plus RSPM's error on a piece of n/K records at ε′."""
    n = np.asarray(n, dtype=float)
    eta = beta - delta
    k = (1.0 + np.log(2.0 / delta)) / epsilon
    epsilon_prime = 1.0 / np.sqrt(8.0 * (n / k) * np.log(2.0 * k / delta))
    sampling = 2.0 * np.sqrt(k / (2.0 * n) * np.log(2.0 * n_hypotheses / eta))
    scale = gap_shift(neighbours) * m / epsilon_prime
    return sampling + 2.0 * m * scale * np.log(m / eta) / (n / k)


# OracleQuery: private synthetic data for conjunctions (E13) and the Subsampled Net Mechanism (E15)


@bound(
    title="Thm 11: error ≤ Reg_D/T + Reg_Q/T",
    latex=r"\max_{q\in\bar{\mathcal Q}} |q(S) - q(\bar S)| \le \frac{\mathrm{Reg}_D(T)}{T}"
    r" + \frac{\mathrm{Reg}_Q(T)}{T}",
    ref="nrw2019",
    where="Thm 11",
    remark="after Freund & Schapire 1996; with Lemma 10",
    kind="exact",
    note="Holds on every run for the uniform mixture S̄ of the data player's plays, with both "
    "regrets measured on those plays (here the samples Ŝ^t drawn); the output Ŝ adds its own "
    "sampling error max_q |q(S̄) − q(Ŝ)| (Lemma 12).",
)
def oracle_query_thm11(reg_data: ArrayLike, reg_query: ArrayLike, rounds: ArrayLike) -> np.ndarray:
    """(Reg_D(t) + Reg_Q(t))/t: the approximate-equilibrium gap of the average plays."""
    total = np.asarray(reg_data, dtype=float) + np.asarray(reg_query, dtype=float)
    return total / np.asarray(rounds, dtype=float)


@bound(
    title="Lemma 14: α₀ + d^¾√(d ln2/T) + ln(1/β₀)/(nε₀)",
    latex=r"\alpha \lesssim \alpha_0 + m_2^{3/4}\sqrt{\frac{\ln|\mathcal X|}{T}}"
    r" + \frac{\ln(1/\beta_0)}{n\varepsilon_0},\quad \varepsilon_0 = "
    r"\frac{\varepsilon}{\sqrt{24T\ln(2/\delta)}},\ \beta_0 = \frac{\beta}{4T}",
    ref="nrw2019",
    where="Lemma 14",
    kind="envelope",
    note="The lemma states O(·); every constant is taken as 1 here, with m₂ = d and ln|𝒳| = d ln 2 "
    "for conjunctions, and the privacy term carries the noise factor that ran (2 under "
    "replace-one neighbours, 1 under add/remove; Lemma 2 erratum). The data player's term falls like T^(−1/2), the privacy term grows like "
    "√T through ε₀: the shape, not a guarantee.",
)
def oracle_query_lemma14(
    d: int,
    rounds: ArrayLike,
    n: float,
    epsilon: float,
    delta: float,
    *,
    alpha0: float = 0.0,
    beta: float = 0.1,
    neighbours: str = "replace",
) -> np.ndarray:
    """α₀ + d^¾ √(d ln 2 / T) + s·ln(4T/β)/(n ε₀(T)), s the noise factor, constant 1 (Lemma 14's shape)."""
    t = np.asarray(rounds, dtype=float)
    epsilon0 = epsilon / np.sqrt(24.0 * t * np.log(2.0 / delta))
    privacy = gap_shift(neighbours) * np.log(4.0 * t / beta) / (n * epsilon0)
    return alpha0 + d**0.75 * np.sqrt(d * np.log(2.0) / t) + privacy


@bound(
    title="Remark 3: error exponents for conjunctions",
    latex=r"\text{optimum } \frac{d^{3/4}}{\sqrt{\varepsilon n}};\ \text{Gaussian RSPM } "
    r"\frac{d^{11/8}}{\sqrt{\varepsilon n}};\ \text{PRSMA } \frac{d^{7/4}}{(\varepsilon n)^{1/3}};"
    r"\ \text{ideal oracle } \frac{d^{9/8}}{\sqrt{\varepsilon n}}",
    ref="nrw2019",
    where="Remark 3",
    kind="envelope",
    note="Orders only (logarithmic factors dropped, constants 1): what oracle efficiency costs over "
    "the inefficient optimum, d^(5/8), d/(εn)^(1/6) and d^(3/8).",
)
def oracle_query_remark3(d: ArrayLike, epsilon_n: ArrayLike) -> dict[str, np.ndarray]:
    """Remark 3's rates with constant 1: ``optimum``, ``gaussian_rspm``, ``prsma``, ``ideal``."""
    d = np.asarray(d, dtype=float)
    en = np.asarray(epsilon_n, dtype=float)
    return {
        "optimum": d**0.75 / np.sqrt(en),
        "gaussian_rspm": d**1.375 / np.sqrt(en),
        "prsma": d**1.75 / np.cbrt(en),
        "ideal": d**1.125 / np.sqrt(en),
    }


@bound(
    title="Lemma G.3: a net of M = (ln(1/η) + d)/(σγ²) points",
    latex=r"M = O\!\Big(\frac{\ln(1/\eta) + d}{\sigma\gamma^2}\Big):\ \exists D' \text{ on } V,\ "
    r"|q(D') - q(D)| \le \chi + \gamma\ \forall q;\quad \Pr[\text{accept}] = \sigma",
    ref="hrs2020",
    where="Lemma G.3",
    kind="envelope",
    note="The acceptance rate σ of the rejection sampler (accept u with probability σN·D₁(u)) is "
    "exact in expectation; the size of M is an O(·) with constant 1 here, solved for γ given M.",
)
def net_lemma_g3(m: ArrayLike, sigma: float, vc_dim: int, eta: float) -> np.ndarray:
    """γ = √((ln(1/η) + d)/(σM)): the accuracy a net of M points buys (Lemma G.3, constant 1)."""
    return np.sqrt((np.log(1.0 / eta) + vc_dim) / (sigma * np.asarray(m, dtype=float)))


@bound(
    title="exponential mechanism: best + (2/(εn))(ln|𝒞| + t)",
    latex=r"\Pr\Big[s(B'') \ge \min_{B'\in\mathcal C} s(B') + \frac{2}{\varepsilon n}"
    r"(\ln|\mathcal C| + t)\Big] \le e^{-t},\quad |\mathcal C| = \binom{M+s-1}{s}",
    ref=("hrs2020", "dr2014"),
    where=("App. G", "Thm 3.11"),
    kind="high-probability",
    note="With probability ≥ 1 − e^(−t) over the mechanism's coins, for the net drawn; the score "
    "has sensitivity 1/n.",
)
def net_exponential_tail(
    best: float, count: ArrayLike, epsilon: float, n: float, t: float
) -> np.ndarray:
    """The tail level best + (2/(εn))(ln|𝒞| + t)."""
    return best + 2.0 / (epsilon * n) * (np.log(np.asarray(count, dtype=float)) + t)


@bound(
    title="Thm G.4: χ + ((d ln(1/σ) + ln(1/η))/(εn))^⅓",
    latex=r"|q(D_B) - q(D_{B''})| \le \chi + O\Big(\Big(\frac{d\ln(1/\sigma) + \ln(1/\eta)}"
    r"{\varepsilon n}\Big)^{1/3}\Big)",
    ref="hrs2020",
    where="Thm G.4",
    remark="reconstructed",
    kind="envelope",
    note="Reconstructed: the extracted text drops the formula; the cube-root rate is what the proof "
    "gives (γ³ ≈ d ln(1/σ)/(εn)) and matches the SmallDB comparison. Constant 1.",
)
def net_thm_g4(
    chi: float, vc_dim: int, sigma: ArrayLike, epsilon: float, n: float, eta: float
) -> np.ndarray:
    """χ + ((d ln(1/σ) + ln(1/η))/(εn))^(1/3), constant 1 (reconstructed)."""
    sigma = np.asarray(sigma, dtype=float)
    return chi + np.cbrt((vc_dim * np.log(1.0 / sigma) + np.log(1.0 / eta)) / (epsilon * n))


#: The public names: the registered bounds and the two helpers.
__all__ = [
    "INFOS",
    *sorted([*(info.key for info in INFOS), "is_vacuous", "mwem_thm41_probability"]),
]
