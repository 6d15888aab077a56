"""Every bound that a smoothviz page draws, in one place, each with its source and its kind.

Each bound is a vectorised function plus a :class:`BoundInfo` (in :data:`BOUNDS`): its source
(author–year and theorem, cited by :func:`smoothviz.references.cite`), its kind (exact, expectation,
high-probability, or an O(·) envelope with the constant chosen) and a note, so the plot, the caption
and the theory card never disagree. Natural logarithms unless a name says ``log2``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from smoothviz.privacy.neighbours import gap_shift
from smoothviz.references import REFERENCES, cite

__all__ = [
    "BOUNDS",
    "KINDS",
    "BoundInfo",
    "appb_nonadaptive_std",
    "exponential_learner_bound",
    "ftl_alternating_regret",
    "ftpl_regret_bound",
    "gumbel_expected_max",
    "gumbel_expected_max_abs",
    "haussler_cover_bound",
    "hit_probability",
    "is_vacuous",
    "kfold_bracketing_bound",
    "laplace_expected_max_abs",
    "lemma32_max_count_bound",
    "lemma_e3_potential_drop",
    "mw_regret_bound",
    "mw_regret_bound_eta",
    "mwem_potential_start_bound",
    "mwem_thm41_bound",
    "mwem_thm41_probability",
    "net_exponential_tail",
    "net_lemma_g3",
    "net_thm_g4",
    "oracle_query_lemma14",
    "oracle_query_remark3",
    "oracle_query_thm11",
    "private_threshold_bound",
    "projected_mwem_thm43_bound",
    "prsma_accuracy_bound",
    "prsma_privacy",
    "rspm_gaussian_bound",
    "rspm_laplace_bound",
    "rspm_laplace_expected_bound",
    "rspm_privacy_loss",
    "smooth_mwem_thm42_bound",
    "smoothed_hedge_envelope",
    "smoothed_mistakes_envelope",
    "symdiff_bracketing_bound",
    "thm31_envelope",
    "thm33_bracket_scale",
    "thm33_envelope",
    "thm33_threshold_brackets",
    "threshold_bracketing_number",
    "threshold_discretisation_error",
    "worst_case_mistakes",
]

KINDS = ("exact", "expectation", "high-probability", "envelope")


@dataclass(frozen=True)
class BoundInfo:
    """Provenance of one bound, shown on a page's theory card.

    Kinds: ``"exact"`` holds on every run (a deterministic or pathwise inequality, or an identity);
    ``"expectation"`` for the mean over the algorithm's / adversary's coins; ``"high-probability"`` with
    the probability stated in ``note``; ``"envelope"`` an O(·) shape with the constant stated in ``note``,
    a trend, not a guarantee.

    Attributes:
        key: stable identifier (the name of the function that evaluates it).
        title: short human name, used in legends.
        latex: the statement as LaTeX, for ``st.latex``.
        ref: key of :data:`smoothviz.references.REFERENCES`, or a tuple of keys.
        where: the place in each work, e.g. ``"Thm 4.1"``, ``"Lemma E.3"``, ``"App. B"`` (``""`` for the
            work as a whole); a tuple as long as ``ref`` when ``ref`` is a tuple.
        kind: one of :data:`KINDS`.
        note: the probability, the constant chosen, or how it was derived.
        lead: words put before the citations, e.g. ``"derived here from the bounded-precision argument
            of"`` for a statement that is in none of the works.
        remark: a short gloss put in parentheses after the citations.
    """

    key: str
    title: str
    latex: str
    ref: str | tuple[str, ...]
    where: str | tuple[str, ...]
    kind: str
    note: str
    lead: str = ""
    remark: str = ""

    def __post_init__(self) -> None:
        """Reject an unknown kind or reference key, or a ``where`` that does not match ``ref``, at import."""
        if self.kind not in KINDS:
            raise ValueError(f"`kind` must be one of {KINDS}, got {self.kind!r}")
        if not self.refs:
            raise ValueError(f"bound {self.key!r} cites no reference")
        unknown = [k for k in self.refs if k not in REFERENCES]
        if unknown:
            raise ValueError(f"bound {self.key!r}: unknown reference key(s) {unknown}")
        if isinstance(self.where, tuple) and len(self.where) != len(self.refs):
            raise ValueError(f"bound {self.key!r}: `where` needs one entry per reference in `ref`")
        if isinstance(self.where, str) and len(self.refs) != 1:
            raise ValueError(f"bound {self.key!r}: give `where` as a tuple when `ref` is a tuple")

    @property
    def refs(self) -> tuple[str, ...]:
        """The cited reference keys, as a tuple."""
        return (self.ref,) if isinstance(self.ref, str) else tuple(self.ref)

    @property
    def wheres(self) -> tuple[str, ...]:
        """The place cited in each reference, aligned with :attr:`refs`."""
        return (self.where,) if isinstance(self.where, str) else tuple(self.where)

    @property
    def source(self) -> str:
        """The citation shown on cards, e.g. ``"Haghtalab, Roughgarden & Shetty 2020, Thm 4.1"``."""
        text = "; ".join(cite(k, w) for k, w in zip(self.refs, self.wheres, strict=True))
        if self.lead:
            text = f"{self.lead} {text}"
        return f"{text} ({self.remark})" if self.remark else text


#: Registry of every bound's provenance, keyed by the evaluating function's name.
BOUNDS: dict[str, BoundInfo] = {}


def _register(info: BoundInfo) -> BoundInfo:
    if info.key in BOUNDS:
        raise ValueError(f"bound {info.key!r} registered twice")
    BOUNDS[info.key] = info
    return info


def is_vacuous(value: np.ndarray | float, *, ceiling: float = 1.0) -> np.ndarray:
    """True where an error bound for [0, 1]-valued queries says nothing (value ≥ ``ceiling``)."""
    return np.asarray(value) >= ceiling


# ----------------------------------------------------------------------------------------------
# Thresholds on [0, 1]: binary search against worst-case and σ-smoothed adversaries (E1)
# ----------------------------------------------------------------------------------------------

_register(
    BoundInfo(
        key="worst_case_mistakes",
        title="worst case: a mistake every round",
        latex=r"\mathrm{mistakes}(t) = t",
        ref="hrs2020",
        where="§1",
        remark="thresholds have infinite Littlestone dimension",
        kind="exact",
        note="With exact dyadic arithmetic the adversary can always pick a point inside the version "
        "space and label it against the learner, so every round is a mistake.",
    )
)


def worst_case_mistakes(t: np.ndarray | float) -> np.ndarray:
    """Mistakes of any deterministic learner against the worst-case threshold adversary: exactly t."""
    return np.asarray(t, dtype=float)


_register(
    BoundInfo(
        key="smoothed_mistakes_envelope",
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
)


def smoothed_mistakes_envelope(sigma: float, t: np.ndarray | float) -> np.ndarray:
    """Derived envelope log₂(1/σ) + log₂(t) + 4 on the expected mistakes of midpoint binary search.

    Holds in expectation against any σ-smoothed adaptive adversary on thresholds. Derived here from the
    bounded-precision argument of Haghtalab, Roughgarden & Shetty 2020, §1 (see its BoundInfo's note).
    """
    t = np.asarray(t, dtype=float)
    return np.log2(1.0 / sigma) + np.log2(np.maximum(t, 1.0)) + 4.0


def hit_probability(width: np.ndarray | float, sigma: float) -> np.ndarray:
    """Largest chance a density-≤1/σ adversary has to land in an interval of this width: min(1, w/σ).

    Exact: a σ-smooth distribution gives any interval of width w at most w/σ mass (Haghtalab,
    Roughgarden & Shetty 2020, §2).
    """
    return np.minimum(1.0, np.asarray(width, dtype=float) / sigma)


_register(
    BoundInfo(
        key="hit_probability",
        title="min(1, width/σ)",
        latex=r"\Pr_{x\sim D_t}[x \in [\ell_t, h_t)] \le \min\!\left(1, \tfrac{h_t-\ell_t}{\sigma}\right)",
        ref="hrs2020",
        where="§2",
        remark="definition of σ-smooth: density ≤ 1/σ times uniform",
        kind="exact",
        note="Holds for every σ-smooth distribution; the window adversary attains it.",
    )
)


# ----------------------------------------------------------------------------------------------
# MWEM, Smooth MWEM, Projected Smooth MWEM, private thresholds (E7–E10)
# ----------------------------------------------------------------------------------------------

_register(
    BoundInfo(
        key="mwem_thm41_bound",
        title="Thm 4.1: 2√(ln|X|/T) + 10T ln|Q|/(εn)",
        latex=r"\begin{aligned}\max_{q\in Q}|q(\bar D)-q(D_B)| &\le 2\sqrt{\tfrac{\ln|\mathcal X|}{T}}\\"
        r"&\quad + \tfrac{10\,T\ln|Q|}{\varepsilon n}\end{aligned}",
        ref=("hrs2020", "hlm2012"),
        where=("Thm 4.1 and Thm E.5", ""),
        kind="high-probability",
        note="Holds with probability ≥ 1 − 2T/|Q| (mwem_thm41_probability); exact constants from the "
        "paper, natural logarithms. Vacuous (says nothing) where it is ≥ 1; see is_vacuous.",
    )
)


def mwem_thm41_bound(
    n: float, rounds: np.ndarray | float, epsilon: float, domain_size: float, n_queries: float
) -> np.ndarray:
    """Theorem 4.1 error bound of MWEM: 2√(ln|X|/T) + 10·T·ln|Q|/(εn), vectorised over ``rounds``."""
    t = np.asarray(rounds, dtype=float)
    return 2.0 * np.sqrt(np.log(domain_size) / t) + 10.0 * t * np.log(n_queries) / (epsilon * n)


def mwem_thm41_probability(rounds: np.ndarray | float, n_queries: float) -> np.ndarray:
    """Probability 1 − 2T/|Q| with which Theorem 4.1 holds (clipped at 0: no guarantee)."""
    return np.maximum(0.0, 1.0 - 2.0 * np.asarray(rounds, dtype=float) / n_queries)


_register(
    BoundInfo(
        key="smooth_mwem_thm42_bound",
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
)


def _smooth_mwem_bound(
    n: float,
    rounds: np.ndarray | float,
    epsilon: float,
    sigma: float,
    vc_dim: float,
    *,
    cover_factor: float,
) -> np.ndarray:
    """1/n + 2√(ln(1/σ)/T) + 10Td ln(c·n/σ)/(εn): Thm 4.2 has c = 2 (γ = σ/2n), App. F.2 c = 4 (γ = σ/4n)."""
    t = np.asarray(rounds, dtype=float)
    return (
        1.0 / n
        + 2.0 * np.sqrt(np.log(1.0 / sigma) / t)
        + 10.0 * t * vc_dim * np.log(cover_factor * n / sigma) / (epsilon * n)
    )


def smooth_mwem_thm42_bound(
    n: float, rounds: np.ndarray | float, epsilon: float, sigma: float, vc_dim: float
) -> np.ndarray:
    """Theorem 4.2 error bound of Smooth MWEM, vectorised over ``rounds``."""
    return _smooth_mwem_bound(n, rounds, epsilon, sigma, vc_dim, cover_factor=2.0)


_register(
    BoundInfo(
        key="projected_mwem_thm43_bound",
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
)


def projected_mwem_thm43_bound(
    n: float, rounds: np.ndarray | float, epsilon: float, sigma: float, vc_dim: float
) -> np.ndarray:
    """Explicit App. F.2 error bound of Projected Smooth MWEM (pure ε-DP), vectorised over ``rounds``."""
    return _smooth_mwem_bound(n, rounds, epsilon, sigma, vc_dim, cover_factor=4.0)


_register(
    BoundInfo(
        key="mwem_potential_start_bound",
        title="Fact E.2: Ψ₀ ≤ ln(1/σ)",
        latex=r"\Psi_0 = D_{\mathrm{KL}}(D_B\,\|\,U) \le \ln\tfrac1\sigma",
        ref="hrs2020",
        where="Fact E.2",
        kind="exact",
        note="For a σ-smooth D_B (density ≤ 1/σ times uniform); equals ln|X| for a point mass.",
    )
)


def mwem_potential_start_bound(sigma: np.ndarray | float) -> np.ndarray:
    """Fact E.2: the starting potential KL(D_B‖U) of a σ-smooth D_B is at most ln(1/σ)."""
    return np.log(1.0 / np.asarray(sigma, dtype=float))


_register(
    BoundInfo(
        key="lemma_e3_potential_drop",
        title="Lemma E.3: Ψ_{i−1} − Ψ_i ≥ ((q_i(D_{i−1}) − q_i(D_B))/2)² − ((m_i − q_i(D_B))/2)²",
        latex=r"\begin{aligned}\Psi_{i-1}-\Psi_i &\ge \Big(\tfrac{q_i(D_{i-1})-q_i(D_B)}{2}\Big)^2\\"
        r"&\quad - \Big(\tfrac{m_i-q_i(D_B)}{2}\Big)^2\end{aligned}",
        ref=("hrs2020", "hlm2012"),
        where=("Lemma E.3", "Lemma A.4"),
        kind="exact",
        note="Deterministic, every round, with the measurement m_i clipped to [0, 1] (post-processing). "
        "After a KL projection onto the σ-smooth polytope it still holds for σ-smooth D_B (Pythagoras).",
    )
)


def lemma_e3_potential_drop(
    synthetic_answer: np.ndarray | float,
    true_answer: np.ndarray | float,
    measurement: np.ndarray | float,
) -> np.ndarray:
    """Right-hand side of Lemma E.3: ((q(D) − q(D_B))/2)² − ((m − q(D_B))/2)²."""
    b = np.asarray(true_answer, dtype=float)
    return ((np.asarray(synthetic_answer) - b) / 2.0) ** 2 - (
        (np.asarray(measurement) - b) / 2.0
    ) ** 2


_register(
    BoundInfo(
        key="threshold_discretisation_error",
        title="E10: grid thresholds lose ≤ α",
        latex=r"\begin{aligned}&\min_{t\in\sigma\alpha\mathbb Z}\mathrm{err}(h_t)\\"
        r"&\quad - \min_{t\in[0,1]}\mathrm{err}(h_t) \le \alpha\end{aligned}",
        ref="hrs2020",
        where="§1",
        remark="DP paragraph: a σ-smooth distribution puts ≤ α mass on any width-σα interval",
        kind="exact",
        note="For σ-smooth data (marginal density ≤ 1/σ) and a threshold grid of spacing ≤ σα.",
    )
)


def threshold_discretisation_error(alpha: np.ndarray | float) -> np.ndarray:
    """E10: the best grid threshold (spacing σα) is within α of the best threshold on σ-smooth data."""
    return np.asarray(alpha, dtype=float)


_register(
    BoundInfo(
        key="private_threshold_bound",
        title="E10: α + 2 ln(K/β)/(εn)",
        latex=r"\begin{aligned}\mathrm{err}(h_{\hat t}) &\le \min_t \mathrm{err}(h_t)\\"
        r"&\quad + \alpha + \tfrac{2\ln(K/\beta)}{\varepsilon n}\end{aligned}",
        ref=("hrs2020", "mt2007", "dr2014"),
        where=("§1", "", "Thm 3.11"),
        remark="discretisation from the first; the exponential mechanism's accuracy from the others",
        kind="high-probability",
        note="With probability ≥ 1 − β, K = number of grid thresholds, score = −n·err (sensitivity 1).",
    )
)


def private_threshold_bound(
    alpha: float, n_candidates: float, epsilon: float, n: np.ndarray | float, beta: float
) -> np.ndarray:
    """Excess error α + 2 ln(K/β)/(εn) of the exponential mechanism over K grid thresholds."""
    n = np.asarray(n, dtype=float)
    return alpha + 2.0 * np.log(n_candidates / beta) / (epsilon * n)


# ----------------------------------------------------------------------------------------------
# Covers and bracketings (E2, E3, E5): Haghtalab, Roughgarden & Shetty 2020, §2–3 and App. B–C
# ----------------------------------------------------------------------------------------------

_register(
    BoundInfo(
        key="haussler_cover_bound",
        title="Haussler: (41/ε)^d",
        latex=r"|\mathcal H'| \le \left(\tfrac{41}{\varepsilon}\right)^{\mathrm{VCDim}(\mathcal H)}",
        ref=("hrs2020", "haussler1995"),
        where=("§2", ""),
        remark="an ε-cover under any D of this size exists",
        kind="exact",
        note="A deterministic upper bound on the smallest ε-cover (not a bracketing), any measure; "
        "constant 41 as printed.",
    )
)


def haussler_cover_bound(eps: np.ndarray | float, d: int) -> np.ndarray:
    """Haussler's bound (41/ε)^d on the size of an ε-cover of a VC-dimension-d class (float)."""
    return np.power(41.0 / np.asarray(eps, dtype=float), float(d))


_register(
    BoundInfo(
        key="threshold_bracketing_number",
        title="thresholds: ⌈1/ε⌉",
        latex=r"N_{[\,]}(\{\mathbb 1(x\ge b)\}, \mu, \varepsilon) = \lceil 1/\varepsilon \rceil",
        ref="hrs2020",
        where="Def. 2.1",
        lead="derived here from",
        kind="exact",
        note="Any atomless μ: brackets [1(x ≥ b_{i+1}), 1(x ≥ b_i)] at the μ-quantiles i/N have mass "
        "1/N; fewer cannot work, the brackets' gaps must cover μ-mass 1.",
    )
)


def threshold_bracketing_number(eps: np.ndarray | float) -> np.ndarray:
    """⌈1/ε⌉, the ε-bracketing number of thresholds on [0, 1] under any atomless measure."""
    return np.ceil(1.0 / np.asarray(eps, dtype=float))


_register(
    BoundInfo(
        key="kfold_bracketing_bound",
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
)


def kfold_bracketing_bound(factor_number: np.ndarray | float, n_factors: int) -> np.ndarray:
    """Theorem 3.7's product ∏_i N_[](F_i, μ, ε) for ``n_factors`` factors of equal number (float)."""
    return np.power(np.asarray(factor_number, dtype=float), float(n_factors))


_register(
    BoundInfo(
        key="symdiff_bracketing_bound",
        title="Thm 3.7: N_[](F, ε/4)⁴ for symmetric differences",
        latex=r"N_{[\,]}(\{f\,\Delta\, f'\}, \mu, 4\varepsilon) \le N_{[\,]}(F, \mu, \varepsilon)^4",
        ref="hrs2020",
        where="Thm 3.7 and App. C.5",
        remark="exponent 4 reconstructed from f Δ f′ = (f ∪ f′) ∩ ¬(f ∩ f′)",
        kind="exact",
        note="Deterministic; from f Δ f' = (f ∪ f') ∩ ¬(f ∩ f') and complements having the same "
        "bracketing number.",
    )
)


def symdiff_bracketing_bound(factor_number: np.ndarray | float) -> np.ndarray:
    """N⁴, Theorem 3.7's bound for symmetric differences given N = N_[](F, μ, ε/4) (float)."""
    return np.power(np.asarray(factor_number, dtype=float), 4.0)


_register(
    BoundInfo(
        key="thm33_bracket_scale",
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
)


def thm33_bracket_scale(sigma: np.ndarray | float, horizon: np.ndarray | float) -> np.ndarray:
    """σ/(4√T), the bracketing scale of Theorem 3.3."""
    return np.asarray(sigma, dtype=float) / (4.0 * np.sqrt(np.asarray(horizon, dtype=float)))


def thm33_threshold_brackets(sigma: np.ndarray | float, horizon: np.ndarray | float) -> np.ndarray:
    """⌈4√T/σ⌉: the number of thresholds' brackets at Theorem 3.3's scale (float)."""
    return np.ceil(4.0 * np.sqrt(np.asarray(horizon, dtype=float)) / np.asarray(sigma, dtype=float))


_register(
    BoundInfo(
        key="lemma32_max_count_bound",
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
)


def lemma32_max_count_bound(
    horizon: np.ndarray | float, p: np.ndarray | float, n_functions: int
) -> np.ndarray:
    """√(Tp ln|F|) + 2Tp, the explicit Lemma 3.2 bound (meaningful when Tp ≥ ln|F|)."""
    tp = np.asarray(horizon, dtype=float) * np.asarray(p, dtype=float)
    return np.sqrt(tp * np.log(n_functions)) + 2.0 * tp


_register(
    BoundInfo(
        key="appb_nonadaptive_std",
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
)


def appb_nonadaptive_std(horizon: np.ndarray | float) -> np.ndarray:
    """1/(2√T), the standard deviation of the non-adaptive average in Appendix B."""
    return 0.5 / np.sqrt(np.asarray(horizon, dtype=float))


# ----------------------------------------------------------------------------------------------
# Regret: Hedge on a cover, MW vs FTL, perturbed leaders (E4, E6, E14)
# ----------------------------------------------------------------------------------------------

_register(
    BoundInfo(
        key="mw_regret_bound",
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
)


def mw_regret_bound(horizon: np.ndarray | float, n_experts: np.ndarray | float) -> np.ndarray:
    """2√(T ln N): total regret of (1 − η)^c MW at η = √(ln N / T) ≤ 1/2, on every sequence."""
    return 2.0 * np.sqrt(
        np.asarray(horizon, dtype=float) * np.log(np.asarray(n_experts, dtype=float))
    )


_register(
    BoundInfo(
        key="mw_regret_bound_eta",
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


_register(
    BoundInfo(
        key="thm31_envelope",
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
)


def thm31_envelope(
    horizon: np.ndarray | float, sigma: float, *, vc_dim: int = 1, constant: float = 2.0
) -> np.ndarray:
    """constant·√(d T ln(T/σ)): Theorem 3.1's O(·) shape with the chosen constant (default 2)."""
    horizon = np.asarray(horizon, dtype=float)
    return constant * np.sqrt(vc_dim * horizon * np.log(np.maximum(horizon / sigma, np.e)))


_register(
    BoundInfo(
        key="thm33_envelope",
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
)


def thm33_envelope(
    horizon: np.ndarray | float, sigma: float, *, constant: float = 2.0
) -> np.ndarray:
    """constant·√(T ln⌈4√T/σ⌉): Theorem 3.3's O(·) shape for thresholds with the chosen constant."""
    horizon = np.asarray(horizon, dtype=float)
    n = np.ceil(4.0 * np.sqrt(horizon) / sigma)
    return constant * np.sqrt(horizon * np.log(np.maximum(n, 2.0)))


_register(
    BoundInfo(
        key="smoothed_hedge_envelope",
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
)


def smoothed_hedge_envelope(horizon: np.ndarray | float, n_experts: float) -> np.ndarray:
    """2√(T ln N) + 2√T + √(√T ln N): mean regret of MW on a σ/√T-cover vs σ-smooth adversaries."""
    horizon = np.asarray(horizon, dtype=float)
    log_n = np.log(n_experts)
    return (
        2.0 * np.sqrt(horizon * log_n) + 2.0 * np.sqrt(horizon) + np.sqrt(np.sqrt(horizon) * log_n)
    )


_register(
    BoundInfo(
        key="ftl_alternating_regret",
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
)


def ftl_alternating_regret(horizon: np.ndarray | float) -> np.ndarray:
    """⌈T/2⌉, Follow-the-Leader's exact regret on the alternating sequence."""
    return np.ceil(np.asarray(horizon, dtype=float) / 2.0)


_register(
    BoundInfo(
        key="laplace_expected_max_abs",
        title="E‖Z‖∞ = b·H_k (Laplace)",
        latex=r"\mathbb E\|Z\|_\infty = b\,H_k = b\sum_{i=1}^k \tfrac1i,\qquad Z_i \sim \mathrm{Lap}(b)",
        ref="dr2014",
        where="Fact 3.7",
        remark="|Lap(b)| ~ Exp(mean b); the max of k i.i.d. exponentials has mean b·H_k, a standard "
        "order-statistics fact",
        kind="exact",
        note="An identity for i.i.d. Laplace perturbations; for Gumbel the page integrates numerically.",
    )
)


def laplace_expected_max_abs(k: np.ndarray | int, scale: np.ndarray | float) -> np.ndarray:
    """b·H_k, the mean of the largest |Z_i| over k i.i.d. Laplace(b) perturbations."""
    k_arr = np.atleast_1d(np.asarray(k, dtype=np.int64))
    cums = np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, k_arr.max() + 1))])
    out = np.asarray(scale, dtype=float) * cums[k_arr]
    return (
        out.reshape(np.broadcast_shapes(np.shape(k), np.shape(scale)))
        if np.ndim(k)
        else out[0]
        if np.ndim(scale) == 0
        else out
    )


_register(
    BoundInfo(
        key="ftpl_regret_bound",
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
)


def ftpl_regret_bound(
    horizon: np.ndarray | float,
    expected_max_abs: np.ndarray | float,
    epsilon: np.ndarray | float,
    *,
    delta: float = 0.0,
) -> np.ndarray:
    """(2 + 4ε)E‖Z‖∞/T + 2ε + δ, NaN where ε ∉ (0, 1) (Theorem 13's hypothesis)."""
    epsilon = np.asarray(epsilon, dtype=float)
    value = (
        (2.0 + 4.0 * epsilon)
        * np.asarray(expected_max_abs, dtype=float)
        / np.asarray(horizon, dtype=float)
        + 2.0 * epsilon
        + delta
    )
    return np.where((epsilon > 0) & (epsilon < 1), value, np.nan)


_register(
    BoundInfo(
        key="gumbel_expected_max",
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
)


def gumbel_expected_max(k: np.ndarray | int, scale: np.ndarray | float) -> np.ndarray:
    """b(ln k + γ), the mean of the largest of k i.i.d. Gumbel(0, b) draws (not of their |·|)."""
    return np.asarray(scale, dtype=float) * (np.log(np.asarray(k, dtype=float)) + np.euler_gamma)


_register(
    BoundInfo(
        key="gumbel_expected_max_abs",
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


# ----------------------------------------------------------------------------------------------
# Private learning with an optimisation oracle (E11, E12): Neel, Roth & Wu 2019, §3 and App. B
# ----------------------------------------------------------------------------------------------

_register(
    BoundInfo(
        key="rspm_laplace_bound",
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
)


def rspm_laplace_bound(
    m: np.ndarray | float,
    epsilon: float,
    n: np.ndarray | float,
    beta: float,
    *,
    neighbours: str = "replace",
) -> np.ndarray:
    """Excess error 2m·b·ln(m/β)/n of Laplace RSPM at scale b = shift·m/ε, exceeded w.p. ≤ β.

    shift = :func:`smoothviz.privacy.neighbours.gap_shift` (2 for replace-one, 1 for add/remove).
    """
    m = np.asarray(m, dtype=float)
    b = gap_shift(neighbours) * m / epsilon
    return 2.0 * m * b * np.log(m / beta) / np.asarray(n, dtype=float)


_register(
    BoundInfo(
        key="rspm_privacy_loss",
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
)


def rspm_privacy_loss(
    epsilon: np.ndarray | float, *, neighbours: str, scale_for: str
) -> np.ndarray:
    """Worst privacy loss g·ε/s of Laplace RSPM run at the scale for ``scale_for`` on ``neighbours``.

    g = :func:`smoothviz.privacy.neighbours.gap_shift` of the relation audited (how far a record moves a gap),
    s = that of the relation the scale was calibrated for: 2ε for the printed scale on replace-one
    neighbours, ε when they match.
    """
    return gap_shift(neighbours) / gap_shift(scale_for) * np.asarray(epsilon, dtype=float)


_register(
    BoundInfo(
        key="rspm_laplace_expected_bound",
        title="Laplace RSPM, mean: 2m·b(1 + ln m)/n",
        latex=r"\mathbb E\big[q(S) - \min_{q^*} q^*(S)\big] \le \frac{2m\,b}{n}(1 + \ln m),\quad "
        r"b = \frac{2m}{\varepsilon}\ \text{(replace one)},\ \frac{m}{\varepsilon}\ \text{(add/remove)}",
        ref="nrw2019",
        where="Remark 1",
        kind="expectation",
        note="Mean over the Laplace noise, given a perfect oracle; integrates Thm 5's tail. Printed "
        "with b = m/ε (add/remove); doubled under replace-one neighbours (Lemma 2 erratum).",
    )
)


def rspm_laplace_expected_bound(
    m: np.ndarray | float, epsilon: float, n: np.ndarray | float, *, neighbours: str = "replace"
) -> np.ndarray:
    """Expected excess error 2m·b(1 + ln m)/n of Laplace RSPM at scale b = shift·m/ε."""
    m = np.asarray(m, dtype=float)
    b = gap_shift(neighbours) * m / epsilon
    return 2.0 * m * b * (1.0 + np.log(m)) / np.asarray(n, dtype=float)


_register(
    BoundInfo(
        key="rspm_gaussian_bound",
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
)


def rspm_gaussian_bound(
    m: np.ndarray | float,
    epsilon: float,
    delta: float,
    n: np.ndarray | float,
    beta: float,
    *,
    neighbours: str = "replace",
) -> np.ndarray:
    """Excess error 2m√(2 ln(2m/β))·σ_G/n of Gaussian RSPM, σ_G = shift·3.5√(m ln(1/δ))/ε."""
    m = np.asarray(m, dtype=float)
    sigma_g = gap_shift(neighbours) * 3.5 * np.sqrt(m * np.log(1.0 / delta)) / epsilon
    return 2.0 * m * np.sqrt(2.0 * np.log(2.0 * m / beta)) * sigma_g / np.asarray(n, dtype=float)


_register(
    BoundInfo(
        key="exponential_learner_bound",
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
)


def exponential_learner_bound(
    m: np.ndarray | float, epsilon: float, n: np.ndarray | float, beta: float
) -> np.ndarray:
    """Excess error 2(m ln 2 + ln(1/β))/(εn) of the exponential-mechanism learner over 2^m hypotheses."""
    m = np.asarray(m, dtype=float)
    return 2.0 * (m * np.log(2.0) + np.log(1.0 / beta)) / (epsilon * np.asarray(n, dtype=float))


_register(
    BoundInfo(
        key="prsma_privacy",
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
)


def prsma_privacy(
    epsilon: np.ndarray | float, delta: np.ndarray | float
) -> tuple[np.ndarray, np.ndarray]:
    """Thm 8's (ε, δ) of PRSMA run with parameters (ε, δ) ≤ 1/2: (8e²ε + ε + ε², 4δ + εδe²/(1 − δ))."""
    eps = np.asarray(epsilon, dtype=float)
    dlt = np.asarray(delta, dtype=float)
    e2 = np.e**2
    return 8 * e2 * eps + eps + eps**2, 4 * dlt + eps * dlt * e2 / (1.0 - dlt)


_register(
    BoundInfo(
        key="prsma_accuracy_bound",
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
)


def prsma_accuracy_bound(
    m: float,
    n_hypotheses: float,
    epsilon: float,
    delta: float,
    n: np.ndarray | float,
    beta: float,
    *,
    neighbours: str = "replace",
) -> np.ndarray:
    """Thm 9's proof display: subsampling error plus RSPM's error on a piece of n/K records at ε′."""
    n = np.asarray(n, dtype=float)
    eta = beta - delta
    k = (1.0 + np.log(2.0 / delta)) / epsilon
    eps_prime = 1.0 / np.sqrt(8.0 * (n / k) * np.log(2.0 * k / delta))
    sampling = 2.0 * np.sqrt(k / (2.0 * n) * np.log(2.0 * n_hypotheses / eta))
    scale = gap_shift(neighbours) * m / eps_prime
    return sampling + 2.0 * m * scale * np.log(m / eta) / (n / k)


# ----------------------------------------------------------------------------------------------
# OracleQuery: private synthetic data for conjunctions (E13) and the Subsampled Net Mechanism (E15)
# ----------------------------------------------------------------------------------------------

_register(
    BoundInfo(
        key="oracle_query_thm11",
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
)


def oracle_query_thm11(
    reg_data: np.ndarray | float, reg_query: np.ndarray | float, rounds: np.ndarray | float
) -> np.ndarray:
    """(Reg_D(t) + Reg_Q(t))/t: the approximate-equilibrium gap of the average plays."""
    return (np.asarray(reg_data, dtype=float) + np.asarray(reg_query, dtype=float)) / np.asarray(
        rounds, dtype=float
    )


_register(
    BoundInfo(
        key="oracle_query_lemma14",
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
)


def oracle_query_lemma14(
    d: int,
    rounds: np.ndarray | float,
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
    eps0 = epsilon / np.sqrt(24.0 * t * np.log(2.0 / delta))
    privacy = gap_shift(neighbours) * np.log(4.0 * t / beta) / (n * eps0)
    return alpha0 + d**0.75 * np.sqrt(d * np.log(2.0) / t) + privacy


_register(
    BoundInfo(
        key="oracle_query_remark3",
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
)


def oracle_query_remark3(
    d: np.ndarray | float, epsilon_n: np.ndarray | float
) -> dict[str, np.ndarray]:
    """Remark 3's rates with constant 1: ``optimum``, ``gaussian_rspm``, ``prsma``, ``ideal``."""
    d = np.asarray(d, dtype=float)
    en = np.asarray(epsilon_n, dtype=float)
    return {
        "optimum": d**0.75 / np.sqrt(en),
        "gaussian_rspm": d**1.375 / np.sqrt(en),
        "prsma": d**1.75 / np.cbrt(en),
        "ideal": d**1.125 / np.sqrt(en),
    }


_register(
    BoundInfo(
        key="net_lemma_g3",
        title="Lemma G.3: a net of M = (ln(1/η) + d)/(σγ²) points",
        latex=r"M = O\!\Big(\frac{\ln(1/\eta) + d}{\sigma\gamma^2}\Big):\ \exists D' \text{ on } V,\ "
        r"|q(D') - q(D)| \le \chi + \gamma\ \forall q;\quad \Pr[\text{accept}] = \sigma",
        ref="hrs2020",
        where="Lemma G.3",
        kind="envelope",
        note="The acceptance rate σ of the rejection sampler (accept u with probability σN·D₁(u)) is "
        "exact in expectation; the size of M is an O(·) with constant 1 here, solved for γ given M.",
    )
)


def net_lemma_g3(m: np.ndarray | float, sigma: float, vc_dim: int, eta: float) -> np.ndarray:
    """γ = √((ln(1/η) + d)/(σM)): the accuracy a net of M points buys (Lemma G.3, constant 1)."""
    return np.sqrt((np.log(1.0 / eta) + vc_dim) / (sigma * np.asarray(m, dtype=float)))


_register(
    BoundInfo(
        key="net_exponential_tail",
        title="exponential mechanism: best + (2/(εn))(ln|𝒞| + t)",
        latex=r"\Pr\Big[s(B'') \ge \min_{B'\in\mathcal C} s(B') + \frac{2}{\varepsilon n}"
        r"(\ln|\mathcal C| + t)\Big] \le e^{-t},\quad |\mathcal C| = \binom{M+s-1}{s}",
        ref=("hrs2020", "dr2014"),
        where=("App. G", "Thm 3.11"),
        kind="high-probability",
        note="With probability ≥ 1 − e^(−t) over the mechanism's coins, for the net drawn; the score "
        "has sensitivity 1/n.",
    )
)


def net_exponential_tail(
    best: float, count: np.ndarray | float, epsilon: float, n: float, t: float
) -> np.ndarray:
    """The tail level best + (2/(εn))(ln|𝒞| + t)."""
    return best + 2.0 / (epsilon * n) * (np.log(np.asarray(count, dtype=float)) + t)


_register(
    BoundInfo(
        key="net_thm_g4",
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
)


def net_thm_g4(
    chi: float, vc_dim: int, sigma: np.ndarray | float, epsilon: float, n: float, eta: float
) -> np.ndarray:
    """χ + ((d ln(1/σ) + ln(1/η))/(εn))^(1/3), constant 1 (reconstructed)."""
    sigma = np.asarray(sigma, dtype=float)
    return chi + np.cbrt((vc_dim * np.log(1.0 / sigma) + np.log(1.0 / eta)) / (epsilon * n))
