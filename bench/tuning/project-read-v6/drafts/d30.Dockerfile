FROM python:3.11-slim AS base

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1

RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential libpq-dev \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/riverbed
COPY pyproject.toml uv.lock ./
RUN pip install uv && uv pip install --system -r pyproject.toml

# supplier feed still runs on the old scheduler
RUN pip install "apache-airflow==2.9.1" "apache-airflow-providers-google==10.17.0"

COPY pipelines/ ./pipelines/
RUN uv pip install --system -e ./pipelines

EXPOSE 4000
CMD ["dagster", "code-server", "start", "-h", "0.0.0.0", "-p", "4000", "-m", "riverbed.definitions"]
