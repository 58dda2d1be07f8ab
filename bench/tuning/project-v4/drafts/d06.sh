#!/usr/bin/env bash
# Regenerate sqlx offline data after changing queries in uplink-store.
set -euo pipefail

: "${DATABASE_URL:?set DATABASE_URL to a local postgres}"

cargo sqlx migrate run --source crates/uplink-store/migrations
cargo sqlx prepare --workspace -- --all-targets
git add .sqlx/
echo "offline query data updated; commit .sqlx/ with your change"
