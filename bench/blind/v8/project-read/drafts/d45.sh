#!/usr/bin/env bash
# tools/flash_field.sh -- flash a station in the field over the SWD pogo jig.
# usage: tools/flash_field.sh <station-id>
set -euo pipefail

STATION="${1:?station id, e.g. 07}"
PROBE="${PROBE:-0483:374e}"
CHIP="STM32L072CZTx"

# watchdog: longer timeout while we test the new OTA config path
export ANEMO_WDT_TIMEOUT_MS=16000

echo ">> building firmware (ReleaseSmall)"
zig build -Doptimize=ReleaseSmall -Dstation="${STATION}" -Dwdt-ms="${ANEMO_WDT_TIMEOUT_MS}"

IMAGE="zig-out/bin/anemo-${STATION}.elf"
if [[ ! -f "$IMAGE" ]]; then
  echo "build did not produce $IMAGE" >&2
  exit 1
fi

echo ">> erasing + flashing station ${STATION}"
probe-rs download --probe "$PROBE" --chip "$CHIP" --verify "$IMAGE"
probe-rs reset --probe "$PROBE" --chip "$CHIP"

echo ">> waiting for first uplink (up to 90 s)"
deadline=$((SECONDS + 90))
until mosquitto_sub -h ground.local -t "anemo/stations/${STATION}/reading" -C 1 -W 10 >/dev/null 2>&1; do
  if (( SECONDS > deadline )); then
    echo "no uplink from station ${STATION} yet -- check antenna and join" >&2
    exit 2
  fi
done

git rev-parse --short HEAD > "field-log/${STATION}.last-flash"
echo ">> station ${STATION} flashed with $(cat "field-log/${STATION}.last-flash")"
