"""Run smartnoise-synth's MWEMSynthesizer (defaults, ε = 1) on one held-out workload; print one JSON line.

Usage (in the peer's own venv, see ../shared/peerbench/README.md): ``python peer_snsynth_workload.py
INDEX SEED`` with INDEX into ``mwem_workloads.WORKLOADS``. As the shared harness's bench_snsynth.py, the
peer's noise comes from OpenDP and cannot be seeded, and its model histogram is read from
``synthetic_histograms``.
"""

import json
import sys
import time
import warnings

import numpy as np
from mwem_workloads import WORKLOADS, hist_of, make_data, max_error
from snsynth.mwem import MWEMSynthesizer

warnings.filterwarnings("ignore")
name = list(WORKLOADS)[int(sys.argv[1])]
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
dims = WORKLOADS[name][0]
x = make_data(name)
h_true = hist_of(x, dims)
synth = MWEMSynthesizer(epsilon=1.0)
t0 = time.perf_counter()
synth.fit(x.copy(), categorical_columns=list(range(len(dims))))
fit_s = time.perf_counter() - t0
h_model = np.asarray(synth.synthetic_histograms[0][0], dtype=float)
assert h_model.shape == dims, h_model.shape
out = {"workload": name, "seed": seed, "fit_s": round(fit_s, 3), "err": max_error(h_true, h_model)}
print(json.dumps(out))
