#!/usr/bin/env bash
# Build the C++ kernels for the processing nodes.
set -euo pipefail

SRC=deps/kernels
OUT=deps/usr/lib
mkdir -p "$OUT"

g++ -std=c++17 -O3 -march=native -ffast-math -fPIC -shared \
    "$SRC"/stalta.cpp "$SRC"/spectra.cpp \
    -o "$OUT"/libkernels.so

echo "built $OUT/libkernels.so"
