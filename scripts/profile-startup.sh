#!/usr/bin/env bash
# Counts the instructions of fontregd's start-up (building the registry: face cache, walk, index)
# with callgrind, which counts the same on a busy machine as on an idle one.
#   scripts/profile-startup.sh DIR [OUT]    e.g. DIR=${TMPDIR:-/tmp}/fontreg-corpus-100000
# Starts fontregd once to fill its face cache (a warm start is what is profiled), then again under
# valgrind --tool=callgrind with collection on only inside FontRegDaemon.makeRegistry, waits for its
# socket and stops it. Prints the total; `callgrind_annotate --inclusive=yes OUT` shows where it goes.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
dir=$1 out=${2:-callgrind.startup.out}
command -v valgrind >/dev/null || { sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"; $sudo apt-get install -y -qq valgrind >/dev/null; }
swift build -c release --product fontregd >/dev/null
bin=$(swift build -c release --show-bin-path)/fontregd
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start() {
    "$@" "$bin" --socket "$tmp/s.sock" --fonts "$dir" --no-system-fonts --watch no --state-dir "$tmp/state" \
        --cache-dir "$tmp/cache" --config /dev/null 2>>"$tmp/log" &
    local pid=$!
    while [[ ! -S $tmp/s.sock ]] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    kill -TERM "$pid"; wait "$pid" || true
    rm -f "$tmp/s.sock"
}
start                        # cold: fills the face cache
start valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect='*makeRegistry*'
callgrind_annotate "$out" 2>/dev/null | grep "PROGRAM TOTALS"
