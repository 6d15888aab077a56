"""Run every benchmark in this folder and write benchmarks/RESULTS.md.

Usage: ``.venv/bin/python benchmarks/run_all.py`` (timings are medians on the machine that runs it).
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import os
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))  # benchtime, the shared timer


def main() -> None:
    sections = []
    for path in sorted(HERE.glob("bench_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(f"running {path.name} ...", flush=True)
        sections.append(module.run())
    header = (
        "# Benchmark results\n\n"
        f"Measured {dt.date.today().isoformat()} on {platform.machine()} with {os.cpu_count()} cores, "
        f"Python {platform.python_version()}; medians of repeated runs. Regenerate with "
        "`.venv/bin/python benchmarks/run_all.py`. Only ratios carry over between machines.\n"
    )
    (HERE / "RESULTS.md").write_text(header + "\n" + "\n\n".join(sections) + "\n")
    print((HERE / "RESULTS.md").read_text())


if __name__ == "__main__":
    main()
