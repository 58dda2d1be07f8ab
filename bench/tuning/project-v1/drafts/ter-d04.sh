#!/usr/bin/env bash
# quick local release for the demo units
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -B build -GNinja -DBOARD=tern_logger_nrf52840 app
ninja -C build
imgtool sign --key ~/keys/tern-release.pem --header-size 0x200 --align 4 \
  --version 1.4.0 --slot-size 0x67000 build/zephyr/zephyr.hex signed.hex
nrfjprog --program signed.hex --sectorerase --reset
