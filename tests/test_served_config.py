"""The served configuration (``.streamlit/config.toml``) keeps the settings the capacity figures rest on.

benchmarks/RESULTS.md ("Classroom load") measures one server with Streamlit's file watcher off and no
forced full garbage collection after each run: on this app the watcher cost every new session a walk
over all imported modules (navigation 0.5–0.7 CPU-seconds instead of 0.1–0.3), and the forced
``gc.collect(2)`` about 80 ms of the one script core per run. Streamlit itself is asked what it reads.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVED = {
    "server.fileWatcherType": "none",
    "server.runOnSave": False,
    "runner.postScriptGC": False,
    "server.headless": True,
}


def test_streamlit_reads_the_served_settings_from_the_project_root():
    probe = (
        "import json; from streamlit import config; config.get_config_options(force_reparse=True); "
        f"print(json.dumps({{k: config.get_option(k) for k in {list(SERVED)!r}}}))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert json.loads(shown.stdout.strip().splitlines()[-1]) == SERVED
