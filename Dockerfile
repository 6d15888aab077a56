# smoothviz in one container: `docker build -t smoothviz . && docker run -p 8501:8501 smoothviz`
# (deploy/README.md: one container, or N replicas behind nginx). scripts/check_dockerfile.sh runs these
# steps without Docker.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# the exact pins first: this layer is rebuilt only when requirements.txt changes
COPY requirements.txt .
RUN pip install -r requirements.txt

RUN useradd --create-home --uid 10001 smoothviz
# the class polls' default SQLite file lives in /app/.smoothviz (smoothviz/ui/polls.py): mount a volume
# there to keep rooms across container restarts, or set SMOOTHVIZ_POLLS_URL=postgresql://… for replicas
# on several hosts (deploy/README.md)
RUN mkdir /app/.smoothviz && chown smoothviz:smoothviz /app/.smoothviz
COPY --chown=smoothviz:smoothviz .streamlit/ .streamlit/
COPY --chown=smoothviz:smoothviz app.py ./
COPY --chown=smoothviz:smoothviz pages/ pages/
COPY --chown=smoothviz:smoothviz smoothviz/ smoothviz/
USER smoothviz

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request, sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).status != 200)"]

CMD ["streamlit", "run", "app.py", "--server.address", "0.0.0.0", "--server.port", "8501", \
     "--server.headless", "true", "--browser.gatherUsageStats", "false"]
