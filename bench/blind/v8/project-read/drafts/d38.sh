#!/usr/bin/env bash
# ci/sqitch-check.sh -- run in the db-check job on every MR touching db/
# Fails if a change in sqitch.plan is missing one of its three scripts, then
# deploys, verifies and reverts against a throwaway database.
set -euo pipefail

cd "$(dirname "$0")/../db"

missing=0
while read -r change; do
  for kind in deploy revert verify; do
    if [[ ! -s "${kind}/${change}.sql" ]]; then
      echo "::error:: ${change}: ${kind}/${change}.sql is missing or empty"
      missing=1
    fi
  done
done < <(grep -Ev '^(%|@|#|$)' sqitch.plan | awk '{print $1}')

if [[ "$missing" -ne 0 ]]; then
  echo "every sqitch change needs deploy, revert and verify" >&2
  exit 1
fi

# naming: new tables must be plural and carry created_at
for f in $(git diff --name-only --diff-filter=A origin/main -- deploy/ || true); do
  if grep -qiE 'create table' "$f" && ! grep -qi 'created_at' "$f"; then
    echo "::error:: $f creates a table without created_at"
    missing=1
  fi
done
[[ "$missing" -eq 0 ]] || exit 1

export PGHOST=${PGHOST:-localhost} PGUSER=${PGUSER:-quire_ci}
db="quire_ci_${CI_PIPELINE_ID:-local}"
createdb "$db"
trap 'dropdb --if-exists "$db"' EXIT

sqitch deploy --verify "db:pg:///${db}"
sqitch revert -y "db:pg:///${db}"
sqitch deploy "db:pg:///${db}"
echo "sqitch plan OK against ${db}"
