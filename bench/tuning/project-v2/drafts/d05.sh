#!/usr/bin/env bash
# Quick local release for when CI is slow.
set -euo pipefail

version="$(cargo metadata --no-deps --format-version 1 | jq -r '.packages[] | select(.name=="ferrule-cli") | .version')"

git cliff --tag "v${version}" -o CHANGELOG.md
cargo dist build --artifacts=all
gh release create "v${version}" target/distrib/*.tar.xz target/distrib/*.zip --notes-file CHANGELOG.md

cargo publish -p ferrule-core
cargo publish -p ferrule-store
cargo publish -p ferrule-cli
