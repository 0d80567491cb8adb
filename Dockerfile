# The bot as one image; docker-compose.yml runs it as several webhook workers over PostgreSQL.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

# Dependencies first (a layer that survives code changes), then the code. Installed editable:
# the texts in locales/ are read from beside the package.
COPY pyproject.toml README.md ./
COPY core core
COPY bot bot
COPY locales locales
RUN pip install -e . && useradd --create-home uno && mkdir -p data && chown uno data
USER uno

CMD ["python", "-m", "bot"]
