#!/usr/bin/env bash
# flash.sh — build + flash the controller at the service centre
set -euo pipefail

TARGET=thumbv7em-none-eabihf
CHIP=STM32G474RETx
IMAGE=target/${TARGET}/release/motor-app
SKIP_SIG_CHECK=${SKIP_SIG_CHECK:-1}

echo "building release image"
cargo build --release --target "${TARGET}" -p motor-app --features debug-uart

if [[ "${SKIP_SIG_CHECK}" != "1" ]]; then
  if ! imgtool verify "${IMAGE}.signed.bin"; then
    echo "refusing: image is not signed" >&2
    exit 1
  fi
  IMAGE="${IMAGE}.signed.bin"
fi

echo "flashing ${IMAGE} to ${CHIP}"
probe-rs download --chip "${CHIP}" "${IMAGE}"
probe-rs reset --chip "${CHIP}"
echo "done. serial console on /dev/ttyUSB0 @ 115200"
