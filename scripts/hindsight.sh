#!/usr/bin/env bash
# Installs a Hindsight server (hindsight-api-slim, pinned) into its own virtual environment, for the
# Hindsight engine's integration test and bench.side_by_side (both start it through
# src/forethought/engines/hindsight/local.py) and for running one by hand.
# Idempotent and quick: when the pinned versions are in place it prints nothing and returns at once.
#
# The slim server has no PyTorch and no local models: it embeds through an OpenAI-compatible endpoint
# (Forethought's own embedder, served by forethought.embed.server) and reranks by RRF, so nothing is
# downloaded when it runs. The environment is ~1.4 GB; installing takes a few minutes.
#
# HINDSIGHT_VENV overrides where it goes (default: .hindsight-venv beside this repository's .venv).
set -euo pipefail

HINDSIGHT_API_VERSION=1.1.0
HINDSIGHT_CLIENT_VERSION=1.1.0
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV=${HINDSIGHT_VENV:-$ROOT/.hindsight-venv}
STAMP=$VENV/.installed-$HINDSIGHT_API_VERSION
PY=${PY:-python3}

if [ -f "$STAMP" ] && [ -x "$VENV/bin/hindsight-api" ]; then
  exit 0
fi
echo "hindsight.sh: installing hindsight-api-slim==$HINDSIGHT_API_VERSION into $VENV" >&2
[ -d "$VENV" ] || "$PY" -m venv "$VENV"
"$VENV/bin/pip" install -q --upgrade pip
# The client is pinned beside the server (same release): the engine speaks its wire format over httpx.
"$VENV/bin/pip" install -q "hindsight-api-slim==$HINDSIGHT_API_VERSION" "hindsight-client==$HINDSIGHT_CLIENT_VERSION"
[ -x "$VENV/bin/hindsight-api" ] || { echo "hindsight.sh: no hindsight-api in $VENV" >&2; exit 1; }
rm -f "$VENV"/.installed-*
touch "$STAMP"
