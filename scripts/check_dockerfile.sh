#!/usr/bin/env bash
# The Dockerfile's steps without Docker (for machines with no Docker daemon): a fresh virtual environment
# from python3.11, `pip install -r requirements.txt` (the exact pins), only the files the Dockerfile
# COPYs, an import check, `streamlit run app.py --server.address 0.0.0.0` as a non-root user (when run
# as root and `runuser` exists), the HEALTHCHECK's request to /_stcore/health, then stop. Leaves nothing
# behind. Usage: bash scripts/check_dockerfile.sh   (PYTHON=python3.11 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
PYTHON="${PYTHON:-python3.11}"
command -v "$PYTHON" >/dev/null || PYTHON=python3
WORK="$(mktemp -d /tmp/smoothviz-dockerfile.XXXXXX)"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "[1/5] FROM python:3.11-slim  ->  fresh venv from $("$PYTHON" --version)"
"$PYTHON" -m venv "$WORK/venv"
PY="$WORK/venv/bin/python"

echo "[2/5] RUN pip install -r requirements.txt"
"$PY" -m pip install --quiet --no-cache-dir -r requirements.txt 2> >(grep -v "is ignored: it is neither" >&2)

echo "[3/5] COPY (the Dockerfile's list; .dockerignore keeps the rest out)"
mkdir -p "$WORK/app"
# every `COPY ... SRC DEST` line after requirements.txt: copy SRC into the app folder
grep -E '^COPY ' Dockerfile | grep -v requirements.txt | sed -E 's/^COPY (--[^ ]+ )*//' |
  while read -r src _dest; do
    cp -r "$ROOT/${src%/}" "$WORK/app/"
  done
ls -A "$WORK/app"

echo "[4/5] import check"
(cd "$WORK/app" && "$PY" -c "import streamlit, plotly, numpy, scipy, pandas, psycopg, smoothviz.ui, smoothviz.ui.polls, smoothviz.experiments.mwem; print('imports ok: streamlit', streamlit.__version__)")

echo "[5/5] CMD streamlit run app.py --server.address 0.0.0.0 (as a non-root user) + HEALTHCHECK"
PORT="$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
RUN=()
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null && id nobody >/dev/null 2>&1; then
  chmod -R a+rX "$WORK"
  # the venv's interpreter may live where nobody cannot go (e.g. pyenv under /root): then run as root
  if runuser -u nobody -- "$PY" -c pass 2>/dev/null; then
    RUN=(runuser -u nobody --)
    echo "  running as: nobody"
  else
    echo "  running as: $(id -un) (nobody cannot execute $("$PY" -c 'import sys; print(sys.base_prefix)'))"
  fi
fi
(cd "$WORK/app" && HOME="$WORK" exec "${RUN[@]}" "$PY" -m streamlit run app.py \
  --server.address 0.0.0.0 --server.port "$PORT" --server.headless true \
  --browser.gatherUsageStats false >"$WORK/server.log" 2>&1) &
SERVER_PID=$!
for _ in $(seq 1 120); do
  if "$PY" -c "import urllib.request, sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:$PORT/_stcore/health', timeout=4).status != 200)" 2>/dev/null; then
    echo "  health: ok (http://127.0.0.1:$PORT/_stcore/health)"
    echo "check_dockerfile: OK"
    exit 0
  fi
  kill -0 "$SERVER_PID" 2>/dev/null || break
  sleep 0.5
done
echo "check_dockerfile: the server did not become healthy within 60 s" >&2
cat "$WORK/server.log" >&2 || true
exit 1
