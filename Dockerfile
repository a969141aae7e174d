# Referee: rules referee service. Build: docker build -t referee .  Run: docker run -p 8000:8000 referee
# The build stage has a C compiler, so the rules engine is compiled (mypyc, setup.py); the image
# that runs gets the wheels only, no compiler.
FROM python:3.11-slim AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY pyproject.toml setup.py README.md gunicorn.conf.py ./
COPY referee ./referee
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    BIND=0.0.0.0:8000 \
    WEB_CONCURRENCY=1 \
    GUNICORN_WORKER_CLASS=gevent

WORKDIR /app
COPY gunicorn.conf.py ./
COPY --from=build /wheels /wheels
# The engine must have been compiled: the last command fails the build otherwise.
RUN pip install --no-cache-dir --no-index /wheels/*.whl \
    && rm -rf /wheels \
    && python -c "import sys, referee.engine; sys.exit(0 if referee.engine.compiled() else 'engine not compiled')" \
    && useradd --create-home --uid 10001 referee

USER 10001
EXPOSE 8000

# Liveness through the service's own /healthz, with Python (slim images have no curl).
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status == 200 else 1)"]

CMD ["gunicorn", "-c", "gunicorn.conf.py"]
