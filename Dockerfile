FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The bot runs as its own user, never as root; the games live in /data, which it owns.
RUN useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin ironcross \
    && mkdir -p /data /app && chown ironcross /data

# The pinned dependencies (requirements.lock, every file's hash checked) in their own layer, so
# a change to the bot's code does not install them again. README.md tells how to refresh it.
COPY requirements.lock /src/
RUN pip install --require-hashes --no-deps -r /src/requirements.lock

COPY pyproject.toml README.md /src/
COPY engine /src/engine
COPY bot /src/bot
COPY renderer /src/renderer
RUN pip install --no-deps /src && rm -rf /src/build /src/*.egg-info

USER ironcross
WORKDIR /app
# The games live in /data (mount a volume there), unless DATABASE_URL points at PostgreSQL,
# e.g. postgresql+asyncpg://user:password@host/ironcross. Logs are JSON lines on stdout
# (LOG_JSON=false for text); METRICS_PORT=9100 serves Prometheus metrics.
VOLUME ["/data"]
ENV DATABASE_URL=sqlite+aiosqlite:////data/ironcross.db \
    PICTURES_DIR=/data/pictures \
    LOG_JSON=true

# Healthy: the database is reachable and its schema at the newest migration.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "--check"]
CMD ["python", "-m", "bot"]
