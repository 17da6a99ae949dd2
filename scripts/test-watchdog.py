#!/usr/bin/env python3
"""Runs a test command, shows its progress, and stops it when one test runs past its bound.

scripts/test.sh runs `swift test` under this watchdog, so that a test that hangs fails the run
with its name within the bound instead of running CI out of time. It reads the runners' own
lines (Swift Testing's "◇ Test x() started." / "✔ Test x() passed after …", XCTest's
"Test Case '…' started." / "… passed (…)"), echoes every line to standard output and to the log
file, prints a progress line every --progress seconds, and when a test has been running for
longer than --per-test seconds prints every test still running, oldest first, ends the command's
process group (SIGTERM, then SIGKILL) and exits 124.

Usage: test-watchdog.py [--per-test SECONDS] [--progress SECONDS] [--log FILE] -- COMMAND…
"""

import argparse
import os
import re
import selectors
import signal
import subprocess
import sys
import time

SWIFT_TESTING_START = re.compile(r"^◇ Test (?!case passing|run started\.$)(.+?) started\.$")
SWIFT_TESTING_END = re.compile(r"^[✔✘➜↷] Test (?!case passing|run with)(.+?) (?:passed|failed|skipped|recorded a known)")
XCTEST_START = re.compile(r"^Test Case '(.+)' started\.")
XCTEST_END = re.compile(r"^Test Case '(.+)' (?:passed|failed|skipped)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-test", type=float, default=float(os.environ.get("FONTREG_TEST_TIMEOUT", "900")))
    parser.add_argument("--progress", type=float, default=60)
    parser.add_argument("--log")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    if not command:
        parser.error("no command to run")
    log = open(options.log, "w", encoding="utf-8") if options.log else None
    child = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    running: dict[str, list[float]] = {}
    finished = 0
    failed = 0
    started_at = time.monotonic()
    last_progress = started_at
    selector = selectors.DefaultSelector()
    selector.register(child.stdout, selectors.EVENT_READ)
    pending = b""

    def emit(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()
        if log:
            log.write(text)
            log.flush()

    def handle(line: str) -> None:
        nonlocal finished, failed
        emit(line + "\n")
        for start in (SWIFT_TESTING_START, XCTEST_START):
            match = start.match(line)
            if match:
                running.setdefault(match.group(1), []).append(time.monotonic())
                return
        for end in (SWIFT_TESTING_END, XCTEST_END):
            match = end.match(line)
            if match:
                starts = running.get(match.group(1))
                if starts:
                    starts.pop(0)
                    if not starts:
                        del running[match.group(1)]
                finished += 1
                if " failed" in line:
                    failed += 1
                return

    def oldest() -> list[tuple[float, str]]:
        now = time.monotonic()
        return sorted(((now - starts[0], name) for name, starts in running.items()), reverse=True)

    while True:
        for _key, _events in selector.select(timeout=1.0):
            chunk = os.read(child.stdout.fileno(), 65536)
            if not chunk:
                selector.unregister(child.stdout)
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                handle(raw.decode("utf-8", "replace"))
        if not selector.get_map():
            break
        now = time.monotonic()
        ages = oldest()
        if ages and ages[0][0] > options.per_test:
            emit(f"\ntest-watchdog: a test has run for {ages[0][0]:.0f} s, past the bound of "
                 f"{options.per_test:.0f} s per test (FONTREG_TEST_TIMEOUT); stopping the run.\n")
            emit("test-watchdog: still running, oldest first:\n")
            for age, name in ages[:20]:
                emit(f"  {age:6.0f} s  {name}\n")
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(child.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    child.wait(timeout=10)
                    break
                except subprocess.TimeoutExpired:
                    continue
            return 124
        if now - last_progress >= options.progress:
            last_progress = now
            longest = f"; longest running: {ages[0][1]} ({ages[0][0]:.0f} s)" if ages else ""
            emit(f"test-watchdog: {now - started_at:.0f} s, {finished} tests finished ({failed} failed), "
                 f"{len(running)} running{longest}\n")
    if pending:
        handle(pending.decode("utf-8", "replace"))
    status = child.wait()
    emit(f"test-watchdog: {finished} tests finished ({failed} failed) in {time.monotonic() - started_at:.0f} s\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
