#!/usr/bin/env bash
# scripts/backfill.sh - the only supported way to backfill sluice DAGs.
# Never call `airflow dags backfill` directly: it re-runs every task,
# including the billing export.
set -euo pipefail

usage() { echo "usage: $0 --dag ID --from YYYY-MM-DD --to YYYY-MM-DD --tasks a,b,c [--dry-run|--run]" >&2; exit 2; }

MODE=dry-run
while [ $# -gt 0 ]; do
  case "$1" in
    --dag) DAG="$2"; shift 2 ;;
    --from) FROM="$2"; shift 2 ;;
    --to) TO="$2"; shift 2 ;;
    --tasks) TASKS="$2"; shift 2 ;;
    --dry-run) MODE=dry-run; shift ;;
    --run) MODE=run; shift ;;
    *) usage ;;
  esac
done
[ -n "${DAG:-}" ] && [ -n "${FROM:-}" ] && [ -n "${TO:-}" ] && [ -n "${TASKS:-}" ] || usage

regex="^($(echo "$TASKS" | tr ',' '|'))$"
if [ "$MODE" = dry-run ]; then
  airflow tasks clear "$DAG" --start-date "$FROM" --end-date "$TO" --task-regex "$regex" --dry-run
  exit 0
fi
airflow tasks clear "$DAG" --start-date "$FROM" --end-date "$TO" --task-regex "$regex" --yes
