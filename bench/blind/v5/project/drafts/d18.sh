#!/usr/bin/env bash
# collect_logs.sh - bundle build + CAN logs for a bug report
# usage: scripts/collect_logs.sh <build-dir> [out.tar.gz]

BUILD_DIR=${1:-build}
OUT=${2:-ferrowatt-logs-$(date +%Y%m%d-%H%M%S).tar.gz}
TMP=$(mktemp -d)

cleanup() { rm -rf "$TMP"; }
trap cleanup EXIT

mkdir -p "$TMP/build" "$TMP/can" "$TMP/meta"

cp $BUILD_DIR/zephyr/zephyr.map "$TMP/build/" 2>/dev/null
cp "$BUILD_DIR"/zephyr/.config "$TMP/build/config" 2>/dev/null
cp "$BUILD_DIR"/build.log "$TMP/build/" 2>/dev/null || echo "no build.log" >&2

# last 10 minutes of CAN traffic from the canlog ring files
find logs/can -name '*.asc' -mmin -10 -exec cp {} "$TMP/can/" \;

{
  echo "git: $(git describe --always --dirty)"
  echo "host: $(hostname)"
  echo "west: $(west --version 2>/dev/null)"
  python -m tools.canlog --version
} > "$TMP/meta/info.txt"

tar -C "$TMP" -czf "$OUT" .
echo "wrote $OUT"
