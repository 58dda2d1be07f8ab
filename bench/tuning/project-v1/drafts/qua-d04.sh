#!/usr/bin/env bash
# Run relevance evaluation before opening a ranking PR.
set -euo pipefail
pip install -q "opensearch-py>=3.0,<4"
make judge
gh pr comment "$PR" --body-file eval/out/latest.md
