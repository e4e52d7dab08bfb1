FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/data/bot.sqlite3

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
RUN pip install . \
    && useradd --create-home --uid 10001 cards \
    && mkdir -p /data \
    && chown cards:cards /data

USER cards
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
