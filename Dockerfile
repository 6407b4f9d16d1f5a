FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY renderer ./renderer
RUN pip install --no-cache-dir ".[postgres]"
# The games live in /data (mount a volume there), unless DATABASE_URL points at PostgreSQL,
# e.g. postgresql+asyncpg://user:password@host/ironcross
VOLUME ["/data"]
ENV PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/ironcross.db \
    PICTURES_DIR=/data/pictures
CMD ["python", "-m", "bot"]
