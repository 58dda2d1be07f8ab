#!/usr/bin/env bash
# scripts/deploy_prod.sh - production deploy for pressroom
set -euo pipefail

DRY_RUN=0
[ "${1:-}" = "--dry-run" ] && DRY_RUN=1

dow=$(TZ=Europe/London date +%u)
hour=$(TZ=Europe/London date +%H)
if [ "$dow" -le 6 ] && [ "$hour" -ge 16 ]; then
  echo "Print day and it's past the cutoff - deploy tomorrow morning." >&2
  exit 1
fi

git fetch origin main
git diff --quiet origin/main || { echo "Not on origin/main, refusing." >&2; exit 1; }

if [ "$DRY_RUN" -eq 1 ]; then
  ansible-playbook -i deploy/inventory/prod deploy/site.yml --check --diff
else
  ansible-playbook -i deploy/inventory/prod deploy/site.yml
fi
