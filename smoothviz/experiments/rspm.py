"""The RSPM page's experiment (E11): private learning with one call to an optimisation oracle.

:func:`run_experiment` runs Laplace and Gaussian RSPM, report-noisy-min and the exponential
mechanism's learner on one dataset, each on its own stream of the seed; each tab is one function.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from smoothviz.bounds import online as online_bounds
from smoothviz.bounds import privacy as privacy_bounds
from smoothviz.experiments import once
from smoothviz.online.experts import rspm_expected_max_abs
from smoothviz.privacy import rspm as core
from smoothviz.privacy.audit import privacy_audit
from smoothviz.privacy.boolean_data import LabelledData, gapminder_data, planted_data
from smoothviz.privacy.neighbours import gap_shift
from smoothviz.privacy.oracles import MAX_EXHAUSTIVE_D, lying_oracle
from smoothviz.privacy.separators import all_codes, describe, labels_on, separates, separator_set
from smoothviz.random import streams
from smoothviz.validation import check_choice, check_epsilon, check_float, check_int

__all__ = [
    "AUDIT_SAMPLES",
    "ERRATUM_SAMPLES",
    "MAX_TABLE_D",
    "RSPMExperiment",
    "audit",
    "audit_pair",
    "erratum_audit",
    "erratum_pair",
    "error_scale",
    "largest_certified_d",
    "loglog_slope",
    "lying_epsilon",
    "oracle_cost",
    "perturbation_view",
    "run_experiment",
    "separator_table",
    "slopes",
    "theory_notes",
    "worked_example",
]

DATASETS = ("planted", "gapminder")
#: β of the high-probability bounds drawn.
BETA = 0.05
#: Runs on each of the two neighbouring datasets in the audit.
AUDIT_SAMPLES = 20_000
#: Dimensions of the oracle-cost tab.
COST_DS = (4, 6, 8, 10, 12, 16, 20, 24, 32, 40)
#: Wall-time budget of the oracle-cost tab: it stops growing d once spent.
COST_BUDGET_S = 1.5
#: Largest m the error-against-m tab simulates (its exact curves go to 12).
MAX_SIMULATED_M = 10
#: Most hypotheses the label table lists (d ≤ 8).
MAX_TABLE_D = 8


def _load_data(data: str, cls: str, d: int, n: int, *, label_noise: float, seed: int):
    """Planted data (on the seed's "data" stream) or Gapminder."""
    check_choice("data", data, DATASETS)
    if data == "gapminder":
        return gapminder_data()
    rng = streams(seed, ("data", "runs"))["data"]
    return planted_data(cls, d, n, label_noise=label_noise, rng=rng)


def _bound(
    method: str, m: int, epsilon: float, delta: float, n: float, neighbours: str = "replace"
) -> float:
    """Each learner's high-probability bound at β = :data:`BETA`, at the noise scale that ran.

    Report-noisy-min's follows Thm 5's proof: w.p. 1 − β every Lap(b) is ≤ b ln(2^m/β), so the
    excess is ≤ 2b(m ln 2 + ln(1/β))/n, the exponential mechanism's bound times b·ε (2 or 1).
    """
    kw = {"neighbours": neighbours}
    if method == "rspm_laplace":
        return float(privacy_bounds.rspm_laplace_bound(m, epsilon, n, BETA, **kw))
    if method == "rspm_gaussian":
        return float(privacy_bounds.rspm_gaussian_bound(m, epsilon, delta, n, BETA, **kw))
    shift = gap_shift(neighbours) if method == "report_noisy_min" else 1.0
    return shift * float(privacy_bounds.exponential_learner_bound(m, epsilon, n, BETA))


@dataclass(frozen=True, eq=False)
class RSPMExperiment:
    """Four private learners on one dataset (experiment E11).

    Attributes:
        delta: Gaussian RSPM's δ; ``neighbours``: the relation every learner's ε holds for.
        results: a :class:`~smoothviz.privacy.rspm.LearnerResult` per learner, in ``METHODS`` order.
        settings: the arguments of :func:`run_experiment`.
    """

    data: LabelledData
    cls: str
    epsilon: float
    delta: float
    neighbours: str
    trials: int
    seed: int
    results: dict[str, core.LearnerResult]
    settings: dict[str, object]

    @property
    def n(self) -> int:
        """Records."""
        return int(self.data.x.shape[0])

    @property
    def d(self) -> int:
        """Dimension, = m, the separator size."""
        return int(self.data.x.shape[1])

    def bound(self, method: str) -> float:
        """The learner's bound at β = :data:`BETA` (Thm 5, Thm 18, or the exponential mechanism's)."""
        return _bound(method, self.d, self.epsilon, self.delta, self.n, self.neighbours)

    @once
    def summary(self) -> pd.DataFrame:
        """One row per learner: excess error (mean, median, 95%), its bound, share within it, costs."""
        rows = []
        for method, res in self.results.items():
            row = res.summary()
            row["bound"] = self.bound(method)
            row["within_bound"] = float(np.mean(res.excess <= row["bound"] + 1e-12))
            rows.append(row)
        return pd.DataFrame(rows)

    def to_frame(self) -> pd.DataFrame:
        """One row per (learner, run): the output's code, error and excess error."""
        return pd.concat([r.to_frame() for r in self.results.values()], ignore_index=True)

    def code(self) -> str:
        """Python source that recomputes this experiment (the page's "Reproduce in Python")."""
        args = ", ".join(f"{k}={v!r}" for k, v in self.settings.items())
        return f"""from smoothviz.experiments.rspm import run_experiment

result = run_experiment({args})
print(result.summary())"""


def run_experiment(
    *,
    cls: str = "conjunction",
    d: int = 8,
    n: int = 500,
    epsilon: float = 1.0,
    delta: float = 1e-5,
    data: str = "planted",
    label_noise: float = 0.1,
    trials: int = 200,
    neighbours: str = "replace",
    seed: int = 0,
) -> RSPMExperiment:
    """Laplace and Gaussian RSPM (exhaustive oracle), report-noisy-min and the exponential mechanism.

    ``d`` (2..12) and ``n`` size the planted data (Gapminder: d = 9, n = 1,704); ``delta`` is
    Gaussian RSPM's; ``neighbours``: ``"replace"`` (the paper's; RSPM's scale doubled) or ``"add_remove"``.
    """
    check_int("d", d, 2, MAX_EXHAUSTIVE_D)  # cls, neighbours: checked by the learners
    trials = check_int("trials", trials, 1, 10_000)
    settings = dict(locals())  # the arguments, for code()
    dataset = _load_data(data, cls, d, n, label_noise=label_noise, seed=seed)
    rngs = streams(seed, ("data", *core.METHODS))
    x, y = dataset.x, dataset.y
    best = core.min_error(x, y, cls)
    common = {"epsilon": epsilon, "trials": trials, "neighbours": neighbours}
    results = {
        "rspm_laplace": core.rspm(x, y, cls, best_error=best, rng=rngs["rspm_laplace"], **common),
        "rspm_gaussian": core.rspm(
            x, y, cls, perturbation="gaussian", delta=delta, best_error=best,
            rng=rngs["rspm_gaussian"], **common,
        ),
        "report_noisy_min": core.report_noisy_min(x, y, cls, rng=rngs["report_noisy_min"], **common),
        "exponential": core.exponential_learner(x, y, cls, rng=rngs["exponential"], **common),
    }  # fmt: skip
    return RSPMExperiment(
        dataset, cls, float(epsilon), float(delta), neighbours, trials, seed, results, settings
    )


def separator_table(cls: str, d: int) -> tuple[pd.DataFrame, pd.DataFrame, bool]:
    """U (a row per point e_j / ē_j), every hypothesis's labels on U (d ≤ 8), and whether U separates."""
    d = check_int("d", d, 1, MAX_TABLE_D)
    u = separator_set(cls, d)
    name = "ē" if cls == "conjunction" else "e"
    points = [f"{name}{j + 1}" for j in range(d)]
    u_frame = pd.DataFrame(u, columns=[f"x{j + 1}" for j in range(d)])
    u_frame.insert(0, "point", points)
    codes = all_codes(d)
    labels = labels_on(cls, u, codes).T  # (2^d, d)
    frame = pd.DataFrame(labels, columns=points)
    frame.insert(0, "hypothesis", [describe(cls, int(c), d) for c in codes])
    frame.insert(0, "code", codes)
    frame["labels on U"] = ["".join(map(str, row)) for row in labels]
    return u_frame, frame, bool(separates(cls, u))


def _laplace_sups(m: int, epsilon: float, neighbours: str) -> tuple[float, float]:
    """E‖Z‖∞, exact, of Laplace RSPM (η_i ~ Lap(s·m/ε)) and of noisy min (2^m i.i.d. Lap(s/ε))."""
    b = gap_shift(neighbours) / epsilon
    return rspm_expected_max_abs(m, b), float(online_bounds.laplace_expected_max_abs(2**m, b))


def error_scale(
    cls: str,
    epsilon: float,
    delta: float,
    n: int,
    *,
    label_noise: float,
    trials: int = 100,
    seed: int,
    neighbours: str = "replace",
) -> pd.DataFrame:
    """Against m = d ∈ {2, …, 12}: 2·E‖Z‖∞/n of each learner (exact), its bound, and simulated excess.

    Thm 5's proof bounds the excess by 2‖Z‖∞/n, Z the objectives' perturbation. E‖Z‖∞, exact:
    Laplace RSPM (Σ|η_i| + |Σ η_i|)/2, η_i ~ Lap(s·m/ε); Gaussian σ_G√(2/π)(m + √m)/2; noisy min
    (s/ε)·H_{2^m}; exponential E max|Gumbel(2/ε)| over 2^m (s = 2 replace-one, 1 add/remove).
    """
    rows = []
    for m in range(2, MAX_EXHAUSTIVE_D + 1):
        laplace, noisy_min = _laplace_sups(m, epsilon, neighbours)
        sigma_g = core.gaussian_rspm_scale(m, epsilon, delta, neighbours=neighbours)
        gaussian = sigma_g * math.sqrt(2 / math.pi) * (m + math.sqrt(m)) / 2
        exponential = float(online_bounds.gumbel_expected_max_abs(2**m, 2.0 / epsilon))
        sup = dict(zip(core.METHODS, (laplace, gaussian, noisy_min, exponential), strict=True))
        ex = None
        if m <= MAX_SIMULATED_M:  # beyond, enumerating 2^m per run would break the tab's budget
            ex = run_experiment(cls=cls, d=m, n=n, epsilon=epsilon, delta=delta,
                                label_noise=label_noise, trials=trials, neighbours=neighbours,
                                seed=seed)  # fmt: skip
        for method in core.METHODS:
            mean = float(np.mean(ex.results[method].excess)) if ex else float("nan")
            rows.append({"m": m, "method": method, "error_scale": 2 * sup[method] / n,
                         "bound": _bound(method, m, epsilon, delta, n, neighbours),
                         "mean_excess": mean})  # fmt: skip
    return pd.DataFrame(rows)


def loglog_slope(x: np.ndarray, y: np.ndarray) -> float:
    """The least-squares slope of log y against log x."""
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def slopes(frame: pd.DataFrame, column: str) -> dict[str, float]:
    """Log–log slope of ``column`` against m (m ≥ 4), per learner."""
    big = frame[frame["m"] >= 4].groupby("method", sort=False)
    return {method: loglog_slope(rows["m"], rows[column]) for method, rows in big}


def oracle_cost(
    cls: str, n: int, *, epsilon: float = 1.0, time_limit: float = 0.3, seed: int = 0
) -> pd.DataFrame:
    """Per d of :data:`COST_DS` within :data:`COST_BUDGET_S`: draws, calls, seconds (2^d ones: d ≤ 12)."""
    rows, spent = [], 0.0
    for d in COST_DS:
        if spent > COST_BUDGET_S:
            break
        data = _load_data("planted", cls, d, n, label_noise=0.1, seed=seed)
        x, y = data.x, data.y
        res = core.rspm(x, y, cls, epsilon=epsilon, oracle="integer_program", time_limit=time_limit,
                        best_error=0.0, rng=seed)  # fmt: skip
        ex_s = rnm_s = float("nan")
        if d <= MAX_EXHAUSTIVE_D:  # each learner times its own run
            ex_s = core.rspm(x, y, cls, epsilon=epsilon, best_error=0.0, rng=seed).seconds
            rnm_s = core.report_noisy_min(x, y, cls, epsilon=epsilon, rng=seed).seconds
        spent += res.seconds + np.nan_to_num(ex_s) + np.nan_to_num(rnm_s)
        rows.append({"d": d, "rspm_draws": d, "rspm_calls": 1, "rnm_draws": 2**d,
                     "ip_seconds": res.seconds, "ip_certified": bool(res.certified[0]),
                     "exhaustive_seconds": ex_s, "rnm_seconds": rnm_s})  # fmt: skip
    return pd.DataFrame(rows)


def audit_pair() -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """16 records over {0,1}^3 and a neighbour: S has (1,1,1) labelled 0 at index 8, S′ has (0,0,0) labelled 1."""
    cube = [[1, 1, 1], [1, 1, 0], [1, 0, 1], [0, 1, 1], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]]
    x = np.array(cube * 2, dtype=np.uint8)
    y = np.zeros(16, dtype=np.uint8)
    y[0] = 1  # the first (1,1,1) only
    x2, y2 = x.copy(), y.copy()
    x2[8], y2[8] = [0, 0, 0], 1
    return (x, y), (x2, y2)


def audit(
    cls: str,
    epsilon: float,
    delta: float,
    *,
    failure_rate: float = 0.2,
    neighbours: str = "replace",
    seed: int = 0,
):
    """Audit each learner under every oracle mode on :func:`audit_pair`, :data:`AUDIT_SAMPLES` runs a side.

    Modes: ``exact``, ``fails`` (⊥ at ``failure_rate``, independent of the data), ``greedy``,
    ``lying`` (the un-noised ERM when (1,1,1) labelled 0 is present); report-noisy-min once, as the
    reference. A row per (mode, learner): the audit's summary and the ⊥ rate on S. The pair is a
    replacement: ``"add_remove"`` is audited beyond its claim (:func:`erratum_audit`).
    """
    check_float("failure_rate", failure_rate, 0.0, 0.99, low_open=False)
    (x, y), (x2, y2) = audit_pair()
    oracles = {"exact": "exhaustive", "fails": "exhaustive", "greedy": "greedy",
               "lying": lying_oracle(np.array([1, 1, 1]), 0)}  # fmt: skip
    rows = []
    for k, (mode, oracle) in enumerate(oracles.items()):
        rate = failure_rate if mode == "fails" else 0.0
        common = {"oracle": oracle, "failure_rate": rate, "neighbours": neighbours}
        runs = {
            "rspm_laplace": functools.partial(core.rspm, **common),
            "rspm_gaussian": functools.partial(
                core.rspm, perturbation="gaussian", delta=delta, **common
            ),
        }
        if k == 0:  # report-noisy-min calls no oracle
            runs["report_noisy_min"] = functools.partial(
                core.report_noisy_min, neighbours=neighbours
            )
        rngs = streams((seed, k), tuple(runs))
        for method, run in runs.items():
            a = run(x, y, cls, epsilon=epsilon, trials=AUDIT_SAMPLES, rng=rngs[method]).codes
            b = run(x2, y2, cls, epsilon=epsilon, trials=AUDIT_SAMPLES, rng=rngs[method]).codes
            claimed_delta = delta if method == "rspm_gaussian" else 0.0
            res = privacy_audit(a, b, epsilon_claimed=epsilon, delta=claimed_delta)
            rows.append({"mode": mode if method != "report_noisy_min" else "no oracle",
                         "method": method, **res.summary(), "bottom_rate": float(np.mean(a < 0))})  # fmt: skip
    return pd.DataFrame(rows)


def lying_epsilon(audited: pd.DataFrame) -> float:
    """The largest ε that :func:`audit` certifies against the lying oracle, over the learners."""
    return float(audited[audited["mode"] == "lying"]["epsilon_lower"].max())


def worked_example(cls: str) -> tuple[str, list[str]]:
    """The separator-set example (Neel, Roth & Wu 2019, App. A) at d = 3, S = {1, 3}: formula, labels on U."""
    _, table, _ = separator_table(cls, 3)
    row = table.loc[table["code"] == 0b101].iloc[0]
    return str(row["hypothesis"]), list(row["labels on U"])


def largest_certified_d(cost: pd.DataFrame) -> int:
    """Largest d of :func:`oracle_cost` whose integer program was certified in under a second."""
    fast = cost[cost["ip_certified"] & (cost["ip_seconds"] < 1.0)]
    return int(fast["d"].max()) if len(fast) else 0


def perturbation_view(
    cls: str, d: int, epsilon: float, seed: int, neighbours: str = "replace"
) -> tuple[pd.DataFrame, int, float, float]:
    """``(draw, shown_d, rspm_sup, rnm_sup)``: one draw of RSPM's Z_q = Σ_i q(e_i)η_i beside i.i.d. noise.

    All 2^d hypotheses at d = min(d, 10), sorted by |S|: η_i ~ Lap(s·d/ε) against noisy min's
    Lap(s/ε) (s = 2 replace-one, 1 add/remove); and both E‖Z‖∞, exact.
    """
    shown = check_int("d", min(int(d), 10), 1, 10)
    rngs = streams(seed, ("rspm", "rnm"))
    scale = core.laplace_rspm_scale(shown, epsilon, neighbours=neighbours)
    eta = rngs["rspm"].laplace(0.0, scale, size=shown)
    codes = all_codes(shown)
    z_rnm = rngs["rnm"].laplace(0.0, gap_shift(neighbours) / epsilon, size=codes.size)
    columns = {"code": codes, "size": [int(c).bit_count() for c in codes],
               "z_rspm": core.correlated_perturbation(cls, shown, eta), "z_rnm": z_rnm}  # fmt: skip
    draw = pd.DataFrame(columns).sort_values(["size", "code"], kind="stable", ignore_index=True)
    return draw, shown, *_laplace_sups(shown, epsilon, neighbours)


def theory_notes(ex: RSPMExperiment) -> dict[str, str]:
    """The Theory tab's line under each bound's card: its value here (keys of ``bounds.BOUNDS``)."""
    mean = ex.summary().set_index("method").loc["rspm_laplace", "mean_excess"]
    expected = float(
        privacy_bounds.rspm_laplace_expected_bound(ex.d, ex.epsilon, ex.n, neighbours=ex.neighbours)
    )
    return {
        "rspm_laplace_bound": f"{ex.bound('rspm_laplace'):.3f} here, the bar over Laplace RSPM.",
        "rspm_laplace_expected_bound": f"{expected:.3f}; the simulated mean is {mean:.4f}.",
        "rspm_gaussian_bound": f"{ex.bound('rspm_gaussian'):.3f} here.",
        "exponential_learner_bound": f"{ex.bound('exponential'):.3f} here.",
    }


#: The erratum audit's privacy budget, runs per dataset and the output event it counts.
ERRATUM_EPSILON, ERRATUM_SAMPLES = 0.25, 100_000
#: The event: RSPM outputs the empty conjunction (code 0, the hypothesis "always 1").
ERRATUM_EVENT = 0


def erratum_pair() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """S and its neighbours for the Lemma 2 erratum (conjunctions over {0,1}³, m = 3).

    S: eight (1,1,1) labelled 1, four (0,0,0) labelled 0. ``"replace"``: a (0,0,0) relabelled 1 (the
    empty conjunction's count falls by 1, every other's rises by 1: a gap of 2); ``"remove"``: that
    record dropped; ``"add"``: a (0,0,0) labelled 1 added (each gap moves by 1).
    """
    x = np.array([[1, 1, 1]] * 8 + [[0, 0, 0]] * 4, dtype=np.uint8)
    y = np.array([1] * 8 + [0] * 4, dtype=np.uint8)
    return {
        "S": (x, y),
        "replace": (x, np.append(y[:-1], 1).astype(np.uint8)),
        "remove": (x[:-1], y[:-1]),
        "add": (np.vstack([x, [[0, 0, 0]]]), np.append(y, 1).astype(np.uint8)),
    }


def erratum_audit(
    epsilon: float = ERRATUM_EPSILON, *, samples: int = ERRATUM_SAMPLES, seed: int = 0
) -> pd.DataFrame:
    """Laplace RSPM with a perfect oracle, audited on :func:`erratum_pair` (Neel, Roth & Wu 2019, Lemma 2).

    Rows: the printed m/ε on the replace-one pair (refuted: the event's loss is 2ε), the corrected
    2m/ε there, and m/ε on the add/remove pairs (within ε); ``samples`` runs on S and the neighbour,
    the event :data:`ERRATUM_EVENT` fixed in advance, Clopper–Pearson at 95%.
    """
    epsilon = check_epsilon(epsilon, 10.0)
    samples = check_int("samples", samples, 100, core.MAX_TRIALS)
    pair = erratum_pair()
    cases = (
        ("replace one, printed m/ε", "replace", "add_remove"),
        ("replace one, corrected 2m/ε", "replace", "replace"),
        ("remove one, printed m/ε", "remove", "add_remove"),
        ("add one, printed m/ε", "add", "add_remove"),
    )
    rngs = streams(seed, tuple(label for label, _, _ in cases))
    rows = []
    for label, neighbour, scale_for in cases:
        runs = [
            core.rspm(*pair[name], "conjunction", epsilon=epsilon, trials=samples,
                      neighbours=scale_for, best_error=0.0, rng=rngs[label]).codes == ERRATUM_EVENT
            for name in ("S", neighbour)
        ]  # fmt: skip
        res = privacy_audit(runs[0].astype(int), runs[1].astype(int), epsilon_claimed=epsilon)
        relation = "replace" if neighbour == "replace" else "add_remove"
        loss = privacy_bounds.rspm_privacy_loss(epsilon, neighbours=relation, scale_for=scale_for)
        scale = core.laplace_rspm_scale(3, epsilon, neighbours=scale_for)  # m = 3
        rows.append({"case": label, "neighbours": relation, "scale_for": scale_for,
                     "scale": scale, "worst_loss": float(loss), "p_S": float(runs[0].mean()),
                     "p_S_prime": float(runs[1].mean()), **res.summary()})  # fmt: skip
    return pd.DataFrame(rows)
