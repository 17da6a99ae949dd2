#!/bin/sh
# Benchmarks fontregd in one run: a bare Unix-socket round trip, Resolve round trips
# (p50/p99, one connection), pipelined and batched throughput over several connections,
# and fc-match one process per query. Results go to docs/benchmarks.md by hand.
#
#   scripts/bench-daemon.sh [fontregd-bench options, e.g. --connections 4 --seconds 3]
#
# Builds release binaries, starts fontregd on a temporary socket with the fonts in fonts/
# (Inter and Lato, no system fonts), runs fontregd-bench against it, and stops it.
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product fontregd >/dev/null
swift build -c release --product fontregd-bench >/dev/null
BIN=$(swift build -c release --show-bin-path)
TMP=$(mktemp -d)
trap 'kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -rf "$TMP"' EXIT
"$BIN/fontregd" --socket "$TMP/fontregd.sock" --fonts "$PWD/fonts" --no-system-fonts \
    --state-dir "$TMP/state" --cache-dir "$TMP/cache" --config /dev/null --watch no 2>"$TMP/fontregd.log" &
PID=$!
for _ in $(seq 1 300); do
    [ -S "$TMP/fontregd.sock" ] && break
    sleep 0.05
done
echo "machine: $(nproc) cores, $(uname -sr)"
"$BIN/fontregd-bench" --socket "$TMP/fontregd.sock" --family Lato --fonts "$PWD/fonts" "$@"
