#!/usr/bin/env bash
# Sourced by the text-fallback benchmarks (bench-fallback.sh, callgrind-fallback.sh,
# callgrind-text-socket.sh): sets `bin` to the directory holding the binaries they run.
#   FONTREG_BIN=DIR   DIR already holds them (say, a build of an older commit): builds nothing
#   otherwise         installs the test packages and builds the release products named as
#                     arguments into .build/release
# Expects to be sourced from the repository's root with `set -euo pipefail` in effect.
export PATH="/opt/swift/usr/bin:$PATH"
bin=${FONTREG_BIN:-.build/release}
if [[ -z ${FONTREG_BIN:-} ]]; then
    bash scripts/setup-deps.sh --test >/dev/null
    for product in "$@"; do
        swift build -c release --product "$product" >/dev/null
    done
fi
