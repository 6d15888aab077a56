"""Bit-identity harness for refactors: every core entry point's seeded result, pickled and compared.

``python benchmarks/snapshots.py save`` runs each case below and pickles the numbers it returns (arrays,
frames, floats, ints, bools, walked recursively through dataclasses, dicts and sequences; strings and
callables are skipped because names may change, and so are timings); ``check`` reruns the cases and reports every value that
is not bit-identical to the pickle. Run ``save`` before a refactor and ``check`` after each commit.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

#: the pickle compared against; SMOOTHVIZ_SNAPSHOTS names another (a baseline saved on this machine: exp and
#: log may differ in the last bit between CPUs, so a pickle from another machine can differ where nothing changed)
PICKLE = Path(os.environ.get("SMOOTHVIZ_SNAPSHOTS", Path(__file__).with_name("snapshots.pkl")))
#: wall-clock fields, which no seed fixes
TIMINGS = {"seconds", "elapsed", "time_s"}
#: Fields renamed since the pickle was saved: {case prefix: {old path end: new path end}}; the values
#: are still compared, under the new name (issue 22: the label-flip rate is ``label_noise``).
RENAMED = {
    "hedge.": {".noise": ".label_noise"},
    "experiments.regret": {".noise": ".label_noise", "['noise']": "['label_noise']"},
}


def _renamed(case: str, path: str) -> str:
    for prefix, names in RENAMED.items():
        for old, new in names.items():
            if case.startswith(prefix) and path.endswith(old):
                return path[: -len(old)] + new
    return path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's smoothviz


def _histogram(seed: int):
    from smoothviz.experiments import mwem as M

    return M.make_histogram("mixture", 64, n=2000, sigma=0.1, rng=seed)


def _boolean(seed: int, d: int = 6, n: int = 300):
    from smoothviz.privacy.boolean_data import planted_data

    table = planted_data("conjunction", d, n, label_noise=0.1, rng=seed)
    return table.x, table.y


def _cases(seed: int) -> dict[str, Callable[[], object]]:
    from smoothviz.experiments import audit as EA
    from smoothviz.experiments import covers as EC
    from smoothviz.experiments import mwem as EM
    from smoothviz.experiments import mwem_tabs
    from smoothviz.experiments import oracle_query as EO
    from smoothviz.experiments import prsma as EP
    from smoothviz.experiments import regret as ER
    from smoothviz.experiments import rspm as ES
    from smoothviz.experiments import thresholds as ET
    from smoothviz.online import covers, experts, hedge, measures, thresholds
    from smoothviz.privacy import (
        data,
        mechanisms,
        mwem,
        mwem_steps,
        net_mechanism,
        oracle_query,
        private_thresholds,
        prsma,
        rspm,
    )
    from smoothviz.privacy import queries as Q
    from smoothviz.random import streams

    sys.path.insert(0, str(Path(__file__).resolve().parent))  # the practical options live here
    import mwem_practical

    hist = _histogram(seed)
    counts = hist.counts
    qs = Q.thresholds(len(counts))
    x, y = _boolean(seed)
    scores = np.linspace(0.0, 1.0, 17)
    positives, negatives = mwem_tabs.label_counts(counts, target=0.4, flip=0.1, rng=seed)
    cases: dict[str, Callable[[], object]] = {
        # online learning
        "thresholds.smoothed_run": lambda: thresholds.smoothed_run(
            "smoothed_adaptive", sigma=0.05, horizon=200, trials=5, rng=seed),
        "thresholds.nonadaptive_run": lambda: thresholds.smoothed_run(
            "smoothed_nonadaptive", sigma=0.05, horizon=200, trials=5, rng=seed),
        "thresholds.run_adversary": lambda: ET.run_experiment(  # one adversary's run, its own stream
            0.05, 200, trials=5, seed=seed, adversaries=("smoothed_perturbed",)).runs["smoothed_perturbed"],
        "experiments.thresholds": lambda: ET.run_experiment(0.05, 300, trials=10, seed=seed),
        "covers.max_count": lambda: covers.max_count_experiment(
            sigma=0.1, n_cells=30, horizon=200, trials=10, rng=seed),
        "covers.uniform_convergence": lambda: covers.uniform_convergence_experiment(
            horizon=200, trials=50, rng=seed),
        "covers.threshold_cover": lambda: covers.quantile_threshold_cover(measures.make_measure("beta"), eps=0.1),
        "covers.bracketing": lambda: covers.bracketing(
            "intervals", measures.make_measure("beta"), eps=0.1),
        "experiments.covers": lambda: EC.run_experiment("thresholds", trials=10, reps=100, seed=seed),
        "hedge.hedge_thresholds": lambda: hedge.hedge_thresholds(0.1, 300, trials=3, rng=seed),
        "hedge.hedge_thresholds.mw": lambda: hedge.hedge_thresholds(
            0.1, 300, trials=3, update="exp", labels="noisy", rng=seed),
        "hedge.threshold_cover": lambda: hedge.grid_threshold_cover(0.01),
        "experts.ftpl": lambda: experts.follow_the_perturbed_leader(
            experts.make_costs("alternating", 200, 3, trials=2, rng=seed), scale=5.0, rng=seed),
        "experts.mw": lambda: experts.multiplicative_weights(
            experts.make_costs("coin_flips", 200, 4, trials=2, rng=seed)),
        "experts.mw.eta": lambda: experts.mw_tuned_eta(10, 300),
        "experts.ftpl_sweep": lambda: experts.ftpl_sweep("alternating", 100, 2, trials=3, rng=seed),
        "experts.max_abs_curve": lambda: experts.max_abs_curve(30, trials=200, rng=seed),
        "experiments.regret": lambda: ER.run_experiment(
            0.1, 300, adversaries=("worst_case", "smoothed_adaptive"), trials=3, seed=seed,
            horizon_2d=50),
        "experiments.regret.learners": lambda: ER.compare_learners(
            "alternating", 100, 2, perturbation="laplace", scale=5.0, trials=3, seed=seed),
        "experiments.regret.halfspaces": lambda: ER.halfspaces(0.1, 60, 0.1, seed),
        "experiments.regret.max_abs": lambda: ER.max_abs("laplace", 1.0, seed),
        "experiments.regret.scaled_eta": lambda: experts.mw_tuned_eta(10, 300, factor=2.0),
        # privacy: mechanisms and data
        "mechanisms.laplace": lambda: mechanisms.laplace_mechanism(
            scores, epsilon=1.0, sensitivity=1.0, rng=seed),
        "mechanisms.gaussian": lambda: mechanisms.gaussian_mechanism(
            scores, epsilon=0.5, delta=1e-5, l2_sensitivity=1.0, rng=seed),
        "mechanisms.exponential": lambda: mechanisms.exponential_mechanism(
            scores, epsilon=1.0, sensitivity=0.1, rng=seed),
        "mechanisms.noisy_max": lambda: mechanisms.report_noisy_max(
            scores, epsilon=1.0, sensitivity=0.1, rng=seed),
        "data.synthetic": lambda: data.synthetic_histogram("mixture", 32, n=500, sigma=0.1, rng=seed),
        "data.exact_smooth": lambda: data.exact_smooth_counts(32, n=500, sigma=0.1, rng=seed),
        "data.sample_counts": lambda: data.sample_counts(
            np.full(8, 1 / 8), 100, trials=3, rng=seed),
        # MWEM
        "mwem.mwem": lambda: mwem.mwem(counts, qs, epsilon=1.0, rounds=10, trials=2, rng=seed),
        "mwem.mwem_notes": lambda: mwem.mwem(counts, qs, "notes", epsilon=1.0, rounds=10, rng=seed),
        "mwem.smooth": lambda: mwem.mwem(
            counts, qs, "smooth", epsilon=1.0, rounds=10, sigma=0.1, trials=2, rng=seed),
        "mwem.projected": lambda: mwem.mwem(
            counts, qs, "projected", epsilon=1.0, rounds=10, sigma=0.1, trials=2, rng=seed),
        "mwem.release.last": lambda: mwem.mwem(
            counts, qs, "mwem", epsilon=1.0, rounds=8, output="last", rng=seed),
        "mwem.select_query": lambda: mwem_steps.select_query(
            np.abs(scores), n=100.0, epsilon=0.5, rng=seed),
        "mwem.measure": lambda: mwem_steps.measure(scores, epsilon=0.5, sensitivity=0.01, rng=seed),
        "mwem.private_threshold": lambda: private_thresholds.private_threshold(
            positives, negatives, sigma=0.1, alpha=0.1, epsilon=1.0, trials=3, rng=seed),
        "mwem.project_smooth": lambda: mwem_steps.project_smooth(counts[None] / counts.sum(), 0.1),
        "practical.replay": lambda: mwem_practical.practical_mwem(
            counts, qs, "mwem", epsilon=1.0, rounds=8, replay=2, rng=seed),
        "practical.groups": lambda: mwem_practical.practical_mwem(
            counts.reshape(8, 8), Q.marginals((8, 8)), "mwem", epsilon=1.0, rounds=6,
            measure_groups=True, rng=seed),
        "practical.addremove": lambda: mwem_practical.practical_mwem(
            counts, qs, "projected", epsilon=1.0, rounds=6, sigma=0.1, neighbours="add_remove",
            n_share=0.1, rng=seed),
        "practical.unclipped": lambda: mwem_practical.practical_mwem(
            counts, qs, "mwem", epsilon=1.0, rounds=6, replay=2, clip_measurement=False, combine_repeats=True,
            rng=seed),
        "private_thresholds": lambda: private_thresholds.private_threshold(
            positives, negatives, sigma=0.1, alpha=0.1, epsilon=1.0, trials=3, rng=seed),
        "net_mechanism": lambda: net_mechanism.net_mechanism(
            mwem_tabs.coarsen(counts, 16), sigma=0.2, m=4, s=2, epsilon=1.0, trials=5, rng=seed),
        "experiments.mwem": lambda: EM.run_experiment(
            "mixture", 64, n=2000, sigma=0.1, epsilon=1.0, rounds=10, seed=seed),
        "experiments.mwem.sweep": lambda: EM.sweep(
            counts, qs, parameter="epsilon", values=(0.5, 1.0), epsilon=1.0, rounds=5, sigma=0.1,
            rng=seed),
        "experiments.mwem.density_scan": lambda: EM.density_scan(
            counts, qs, sigmas=(0.05, 0.2), epsilon=1.0, rounds=5, rng=seed),
        "experiments.mwem.net": lambda: mwem_tabs.run_net(
            counts, sigma=0.2, m=4, s=2, epsilon=1.0, trials=20, rng=seed),
        "experiments.mwem.private_threshold": lambda: mwem_tabs.private_threshold_experiment(
            counts, sigma=0.1, alpha=0.1, epsilon=1.0, target=0.4, flip=0.1, trials=3,
            rng=streams(seed, EM.STREAMS)["thresholds"]).learned,
        # oracle-efficient learning
        "rspm.laplace": lambda: rspm.rspm(x, y, "conjunction", epsilon=1.0, trials=20, rng=seed),
        "rspm.gaussian": lambda: rspm.rspm(
            x, y, "parity", epsilon=1.0, perturbation="gaussian", delta=1e-5, trials=20,
            neighbours="add_remove", rng=seed),
        "rspm.enumerating": lambda: rspm.enumerating_learner(
            x, y, "conjunction", mechanism="exponential", epsilon=1.0, trials=20, rng=seed),
        "prsma.prsma": lambda: prsma.prsma(
            x, y, "conjunction", epsilon=1.0, delta=1e-3, trials=5, rng=seed),
        "prsma.every_call": lambda: prsma.prsma(
            x, y, "conjunction", epsilon=1.0, delta=1e-3, simulate=False, rng=seed
        ),
        "prsma.on_counts": lambda: prsma.prsma_on_counts(
            np.arange(128) % 7, "disjunction", 6, epsilon=1.0, delta=1e-3, trials=5, rng=seed),
        "prsma.rspm_on_counts": lambda: prsma.rspm_on_counts(
            "conjunction", 4, np.arange(32), 1.0, np.random.default_rng(seed)),
        "oracle_query": lambda: oracle_query.oracle_query(
            x, epsilon=1.0, delta=1e-6, rounds=5, mu=3.0, rng=seed),
        "oracle_query.prsma": lambda: oracle_query.oracle_query(
            x, epsilon=1.0, delta=1e-6, rounds=5, mu=3.0, oracle="prsma", rng=seed),
        "oracle_query.exact": lambda: oracle_query.oracle_query(
            x, epsilon=1.0, delta=1e-6, rounds=5, mu=3.0, oracle="exact", rng=seed),
        "experiments.rspm": lambda: ES.run_experiment(trials=20, seed=seed),
        "experiments.rspm.error_scale": lambda: ES.error_scale(
            "conjunction", 1.0, 1e-5, 200, label_noise=0.1, trials=10, seed=seed),
        "experiments.rspm.perturbation": lambda: ES.perturbation_view("conjunction", 6, 1.0, seed),
        "experiments.prsma": lambda: EP.run_experiment(trials=20, seed=seed),
        "experiments.prsma.simulation": lambda: EP.simulation(
            1.0, 1e-3, 10**6, rescale=True, base=1e-6, present=1e-4, trials=30, seed=seed),
        "experiments.oracle_query": lambda: EO.run_experiment(d=6, n=2000, rounds=5, seed=seed),
        "experiments.audit": lambda: EA.audit_mechanisms(samples=2000, seed=seed),
    }  # fmt: skip
    return cases


def flatten(obj: object, path: str = "", out: dict | None = None, depth: int = 0) -> dict:
    """Every number reachable from ``obj``, keyed by its path (strings and callables skipped)."""
    out = {} if out is None else out
    if depth > 8:
        return out
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind in "biufc":
            out[path] = obj
        elif obj.dtype.kind == "O":
            for i, item in enumerate(obj.ravel()[:200]):
                flatten(item, f"{path}[{i}]", out, depth + 1)
    elif isinstance(obj, (bool, int, float, complex, np.generic)) and not isinstance(obj, str):
        out[path] = np.asarray(obj)
    elif isinstance(obj, pd.DataFrame):
        for col in obj.columns:
            flatten(obj[col].to_numpy(), f"{path}.{col}", out, depth + 1)
    elif isinstance(obj, pd.Series):
        flatten(obj.to_numpy(), path, out, depth + 1)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            flatten(value, f"{path}[{key!r}]", out, depth + 1)
    elif isinstance(obj, (list, tuple)):
        for i, item in enumerate(obj):
            flatten(item, f"{path}[{i}]", out, depth + 1)
    elif dataclasses.is_dataclass(obj) or hasattr(obj, "__dict__"):
        if isinstance(obj, (type, np.random.Generator)) or callable(obj):
            return out
        fields = vars(obj) if hasattr(obj, "__dict__") else {}
        for name, value in fields.items():
            if name in TIMINGS:
                continue
            flatten(value, f"{path}.{name}", out, depth + 1)
        if hasattr(obj, "to_frame"):
            with contextlib.suppress(TypeError):
                flatten(obj.to_frame(), f"{path}.to_frame()", out, depth + 1)
    return out


def take(seeds: tuple[int, ...] = (0, 7)) -> dict[str, dict[str, np.ndarray]]:
    snaps = {}
    for seed in seeds:
        for name, fn in _cases(seed).items():
            try:
                snaps[f"{name}@{seed}"] = flatten(fn())
            except (
                Exception
            ) as exc:  # a broken case is reported (check: "case missing"), the rest run
                print(f"{name}@{seed}: {type(exc).__name__}: {exc}")
    return snaps


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return (
        a.shape == b.shape
        and a.dtype == b.dtype
        and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
    )


def check() -> int:
    saved = pickle.loads(PICKLE.read_bytes())
    now = take()
    bad = []
    for case, values in saved.items():
        if case not in now:
            bad.append(f"{case}: case missing")
            continue
        for path, value in values.items():
            new = now[case].get(_renamed(case, path))
            if new is None:
                bad.append(f"{case}{path}: value missing")
            elif not _same(value, new):
                bad.append(f"{case}{path}: differs")
    n_values = sum(len(v) for v in saved.values())
    print(f"{len(saved)} cases, {n_values} values; {len(bad)} not bit-identical")
    for line in bad[:40]:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "check"
    if command == "save":
        snaps = take()
        PICKLE.write_bytes(pickle.dumps(snaps))
        print(f"saved {len(snaps)} cases, {sum(len(v) for v in snaps.values())} values to {PICKLE}")
    else:
        sys.exit(check())
