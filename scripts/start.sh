#!/usr/bin/env bash
# Install smoothviz into a local virtual environment (.venv) and start the dashboard.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -r requirements.txt
.venv/bin/python -m pip install --quiet --no-deps -e .
exec .venv/bin/streamlit run app.py "$@"
