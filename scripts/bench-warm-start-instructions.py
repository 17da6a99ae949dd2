#!/usr/bin/env python3
"""Instructions and system calls of a warm fontregd start to READY against an fc-match process (issue 29 item 3).

    python3 scripts/bench-warm-start-instructions.py [--registrations N] FONTREGD LABEL=DIR ...

FONTREGD: a release fontregd copied and stripped with `strip --strip-debug` (valgrind gives up
on the static runtime's debug information). Per corpus, in one run:
- an untimed start outside valgrind fills the cache directory (`index.snapshot`, and since
  issue 29 item 3 `readability.cache`), stopped at READY;
- the warm start under `valgrind --tool=callgrind --collect-atstart=no`, collecting inside
  `FontRegDaemon.makeParts` (index, file classification, views, server) and, for the
  estimate to READY, also inside `makeServices` and each `DaemonServiceGroup.start` (READY=1 is
  sent by the last); plus `fontregd --version` whole (the process start before `main` works);
- `fc-match 'FAMILY:weight=200'` whole, on a configuration holding only the corpus directory
  with a filled cache (as scripts/bench-process-instructions.py);
- `strace -f -c` of another warm start stopped at READY: the system calls it made (callgrind
  counts no kernel work, and the file classification is system calls).
Under valgrind the stranger's file check of the classification fails (every file counts as
restricted, which builds a view natively never built), so a start that reuses a kept
classification and one that asks the kernel do not compare under callgrind alone; the strace
count and the wall-clock pair of scripts/bench-warm-start.py are the other halves.
--registrations N writes N users' persistent registrations (scripts/persisted_state.py: empty
directories owned by uids 60000+, ten per uid) into the state directory of every start.
Needs valgrind and strace. Benchmark tooling only: nothing fontreg ships needs Python.
"""
import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_bench import fontconfig_corpus  # noqa: E402
from persisted_state import make_registration, write_state  # noqa: E402

# The file classification: asking or reusing (FileReadability.classify), reusing the kept file
# whole beside the index file's table (reusingWhole, indexedFileTable), reading and writing it.
CLASSIFICATION = ["*FileReadabilityV8classify*", "*reusingWhole*", "*indexedFileTable*",
                  "*PersistedReadabilityV4read*", "*PersistedReadabilityV5write*"]
TOGGLES = ["*makeParts*", "*makeServices*", "*DaemonServiceGroup*start*"]


def callgrind(arguments, toggles=None, environment=None, stop_at_ready=False, notify=None):
    """Instructions callgrind counted for one run of `arguments` (only inside `toggles` when given)."""
    out = tempfile.mktemp(prefix="fontreg-callgrind-")
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
    if toggles:
        command += ["--collect-atstart=no"] + [f"--toggle-collect={t}" for t in toggles]
    run(command + arguments, environment, stop_at_ready, notify)
    totals = subprocess.run(["callgrind_annotate", out], capture_output=True, text=True).stdout
    os.unlink(out)
    found = re.search(r"([\d,]+) \(100.0%\)\s+PROGRAM TOTALS", totals) or re.search(r"([\d,]+)\s+PROGRAM TOTALS", totals)
    return int(found.group(1).replace(",", "")) if found else 0


def run(command, environment=None, stop_at_ready=False, notify=None):
    """Runs `command`; with `stop_at_ready`, stops it (SIGTERM) once it sent READY=1 to `notify`."""
    if not stop_at_ready:
        subprocess.run(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    if os.path.exists(notify):
        os.unlink(notify)
    listener.bind(notify)
    listener.settimeout(900)
    process = subprocess.Popen(command, env=dict(environment or os.environ, NOTIFY_SOCKET=notify),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    while "READY=1" not in listener.recv(4096).decode().split("\n"):
        pass
    listener.close()
    target = process.pid
    if os.path.basename(command[0]) == "strace":  # stop the traced daemon; strace then exits with it
        with open(f"/proc/{process.pid}/task/{process.pid}/children") as f:
            target = int(f.read().split()[0])
    os.kill(target, signal.SIGTERM)
    process.wait()


def strace_calls(arguments, notify):
    """(system calls, of which newfstatat/statx/lstat, openat2) of one start stopped at READY."""
    out = tempfile.mktemp(prefix="fontreg-strace-")
    run(["strace", "-f", "-c", "-o", out] + arguments, None, True, notify)
    total, stats, opens = 0, 0, 0
    with open(out) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 5 and fields[-1] == "total":
                total = int(fields[3])
            elif len(fields) >= 5 and fields[0][0].isdigit():
                calls = int(fields[3])
                if fields[-1] in ("newfstatat", "statx", "lstat", "stat", "fstat"):
                    stats += calls
                if fields[-1] == "openat2":
                    opens += calls
    os.unlink(out)
    return total, stats, opens


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--registrations", type=int, default=0)
    parser.add_argument("binary")
    parser.add_argument("corpora", nargs="+", metavar="LABEL=DIR")
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.binary)
    version = callgrind([binary, "--version"])
    print(f"`fontregd --version`, whole process: {version:,} instructions; registrations: {arguments.registrations:,}")
    print()
    print("| corpus | warm start: makeParts | of which file classification | makeParts + makeServices + "
          "services' start + `--version` (≈ exec → READY) | fc-match process | ratio | "
          "system calls to READY (stats, openat2) |")
    print("|---|---|---|---|---|---|---|")
    for corpus in arguments.corpora:
        label, _, directory = corpus.partition("=")
        directory = os.path.abspath(directory)
        work = tempfile.mkdtemp(prefix="fontreg-warm-instructions-")
        os.chmod(work, 0o755)
        state = os.path.join(work, "state")
        if arguments.registrations:
            roots = os.path.join(work, "users")
            os.makedirs(roots)
            os.chmod(roots, 0o755)
            records = [make_registration(roots, os.path.join(roots, f"u{60000 + i // 10}", f"r{i}"), 60000 + i // 10)
                       for i in range(arguments.registrations)]
            write_state(state, records)
        notify = os.path.join(work, "notify")
        daemon = [binary, "--socket", os.path.join(work, "s"), "--no-system-fonts", "--watch", "no",
                  "--state-dir", state, "--cache-dir", os.path.join(work, "cache"), "--config", "/dev/null",
                  "--fonts", directory]
        run(daemon, None, True, notify)  # cold: writes the index file and the classification
        parts = callgrind(daemon, ["*makeParts*"], None, True, notify)
        classification = callgrind(daemon, CLASSIFICATION, None, True, notify)
        ready = callgrind(daemon, TOGGLES, None, True, notify) + version
        calls, stats, opens = strace_calls(daemon, notify)
        environment, family = fontconfig_corpus(directory, work)
        match = callgrind(["fc-match", f"{family}:weight=200"], None, environment)
        print(f"| {label} | {parts:,} | {classification:,} | {ready:,} | {match:,} | {ready / match:.2f}× | "
              f"{calls:,} ({stats:,}, {opens:,}) |", flush=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
