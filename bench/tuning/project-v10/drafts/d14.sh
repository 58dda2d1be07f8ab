#!/usr/bin/env bash
# promote a till release from the pilot channel to stable
set -euo pipefail
VERSION="$1"
MIN_AGE_HOURS=72
age=$(release_age_hours "$VERSION" HDLY)
if (( age < MIN_AGE_HOURS )); then
  echo "pilot has $VERSION for only ${age}h" >&2
  exit 2
fi
cp "channels/pilot/latest.json" "channels/stable/latest.json"
echo "promoted $VERSION"
