#!/usr/bin/env bash
# Run the solver benchmark on a solver VM with the production thread count.
set -euo pipefail

CONFIG=${1:-bench/arn-april.xml}
THREADS=4

./gradlew :rostra-solver:bench \
  -Pconfig="$CONFIG" \
  -PmoveThreadCount="$THREADS" \
  -PrandomSeed=0 2>&1 | tee "bench-$(date -u +%Y%m%dT%H%MZ).log"
