#!/usr/bin/env bash
# Runs every test of fontreg: installs the test dependencies that are missing, builds, runs
# `swift test` (XCTest and Swift Testing) and the third-party client tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

bash scripts/setup-deps.sh --test
swift build --build-tests
swift test 2>&1 | tee .build/swift-test.log
grep -qE "Test run with [0-9]+ tests? .*passed" .build/swift-test.log

# Extra suites that drive the built binaries from outside Swift (each script exits non-zero on failure).
for extra in Tests/daemon/run-varlink-client-tests.sh; do
    if [[ -x "$extra" ]]; then
        echo "== $extra"
        "$extra"
    fi
done
echo "fontreg: all tests passed"
