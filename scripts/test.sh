#!/usr/bin/env bash
# Runs every test of fontreg: installs the test dependencies that are missing, builds, runs
# `swift test` (XCTest and Swift Testing) and the third-party client tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

bash scripts/setup-deps.sh --test

# The code is formatted with the committed .swift-format, and compiles without a single warning.
swift format lint --strict --recursive --parallel Sources Tests Package.swift
# The layers keep their promises: the kernel choke point, FontRegCore's folder order, the imports.
scripts/check-layers.sh
mkdir -p .build
swift build --build-tests 2>&1 | tee .build/build-tests.log
if grep -E "(warning|error): " .build/build-tests.log | grep -v "^warning: 'swift-" >/dev/null; then
    echo "test.sh: the build printed warnings (above); fix them: the build must be warning-free" >&2
    grep -E "(warning|error): " .build/build-tests.log >&2
    exit 1
fi
# FontRegCore's DocC documentation builds without a warning, every public symbol documented.
scripts/build-docs.sh
# Under a watchdog: progress every minute, and a test that runs past its bound (FONTREG_TEST_TIMEOUT,
# 900 s) stops the run with its name instead of running CI out of time.
python3 scripts/test-watchdog.py --log .build/swift-test.log -- swift test
grep -qE "Test run with [0-9]+ tests? .*passed" .build/swift-test.log

# Extra suites that drive the built binaries from outside Swift (each script exits non-zero on failure).
for extra in Tests/daemon/run-varlink-client-tests.sh; do
    if [[ -x "$extra" ]]; then
        echo "== $extra"
        "$extra"
    fi
done
echo "fontreg: all tests passed"
