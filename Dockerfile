# Referee: rules referee service. Build: docker build -t referee .  Run: docker run -p 8000:8000 referee
# The build stage makes the wheels; the image that runs installs them and nothing else.
FROM python:3.11-slim AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
COPY pyproject.toml README.md gunicorn.conf.py ./
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
RUN pip install --no-cache-dir --no-index /wheels/*.whl \
    && rm -rf /wheels \
    && useradd --create-home --uid 10001 referee

USER 10001
EXPOSE 8000

# Liveness through the service's own /healthz, with Python (slim images have no curl).
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status == 200 else 1)"]

CMD ["gunicorn", "-c", "gunicorn.conf.py"]
