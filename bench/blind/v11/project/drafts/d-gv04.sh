#!/usr/bin/env bash
# scripts/deploy.sh - roll gavel services out with nomad
set -euo pipefail

TAG="${1:?usage: deploy.sh vYYYY.MM.N}"
if ! [[ "$TAG" =~ ^v[0-9]{4}\.[0-9]{2}\.[0-9]+$ ]]; then
  echo "tag must look like v2026.09.2" >&2
  exit 1
fi

if [ "${FORCE_DEPLOY:-0}" != "1" ]; then
  live=$(./scripts/live_sales.sh)
  if [ -n "$live" ]; then
    echo "refusing to deploy, live sale(s): $live" >&2
    exit 1
  fi
fi

for job in auctioneer online-gateway phone-gateway clerk-relay admin; do
  nomad job run -var "image_tag=$TAG" "deploy/nomad/$job.nomad.hcl"
done
