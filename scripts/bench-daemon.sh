#!/bin/sh
# Benchmarks fontregd in one run: a bare Unix-socket round trip and Resolve round trips of the
# same sizes, alternating call by call in several rounds (p50/p99 and the ratio per round, and
# the median ratio), pipelined and batched throughput over several connections, and fc-match
# one process per query. Results go to docs/benchmarks.md by hand.
#
#   scripts/bench-daemon.sh [fontregd-bench options, e.g. --rounds 7 --connections 4 --seconds 2]
#
# Environment:
#   BENCH_FONTS=DIR      serve DIR (e.g. a corpus from scripts/make-corpus.py) instead of fonts/
#   BENCH_FAMILY=NAME    the family to resolve (default Lato; "Corpus 00001" for a corpus)
#   BENCH_PIN=1          pin the daemon and the echo peer to CPU 0 and the client to CPU 1
#   FONTREGD=PATH        run this fontregd binary instead of the one built here (a before/after comparison)
#
# Builds release binaries, starts fontregd on a temporary socket with the fonts (no system
# fonts), runs fontregd-bench against it, and stops it.
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product fontregd >/dev/null
swift build -c release --product fontregd-bench >/dev/null
BIN=$(swift build -c release --show-bin-path)
DAEMON=${FONTREGD:-$BIN/fontregd}
FONTS=${BENCH_FONTS:-$PWD/fonts}
FAMILY=${BENCH_FAMILY:-Lato}
DAEMON_PIN="" CLIENT_PIN=""
if [ "${BENCH_PIN:-0}" = 1 ]; then
    DAEMON_PIN="taskset -c 0" CLIENT_PIN="taskset -c 1"
    export BENCH_ECHO_CPU=0
fi
TMP=$(mktemp -d)
trap 'kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -rf "$TMP"' EXIT
$DAEMON_PIN "$DAEMON" --socket "$TMP/fontregd.sock" --fonts "$FONTS" --no-system-fonts \
    --state-dir "$TMP/state" --cache-dir "$TMP/cache" --config /dev/null --watch no 2>"$TMP/fontregd.log" &
PID=$!
for _ in $(seq 1 600); do
    [ -S "$TMP/fontregd.sock" ] && break
    sleep 0.05
done
echo "machine: $(nproc) cores, $(uname -sr), load $(cut -d' ' -f1-3 /proc/loadavg), daemon $DAEMON, pinned: ${BENCH_PIN:-0}"
$CLIENT_PIN "$BIN/fontregd-bench" --socket "$TMP/fontregd.sock" --family "$FAMILY" --fonts "$FONTS" "$@"
