#!/usr/bin/env python3
"""Instructions of a new process's start to its first answer: `fontresolve` against `fc-match` (issue 29).

    python3 scripts/bench-process-instructions.py FONTREGD FONTRESOLVE LABEL=DIR ...

The instruction counts of scripts/bench-process-start.py's four commands under callgrind, one
run each (load does not move these counts, as it moves wall time on a busy machine):
`fontresolve resolve FAMILY --weight 700 --json` from the snapshot a warm release fontregd
publishes, `fc-match 'FAMILY:weight=200'` on a configuration holding only the corpus directory
with a filled cache, `fontresolve --help` and `fc-match --version`. Give copies of the release
binaries stripped with `strip --strip-debug` (valgrind gives up on the static runtime's debug
information). Needs valgrind. Benchmark tooling only: nothing fontreg ships needs Python.
"""
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

_spec = importlib.util.spec_from_file_location(
    "bench_warm", os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench-warm-start.py"))
warm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(warm)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_bench import fontconfig_corpus  # noqa: E402


def instructions(arguments, environment=None):
    """The instructions callgrind counted for one run of `arguments`."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + arguments,
                         capture_output=True, text=True, env=environment)
    found = re.search(r"Collected : (\d+)", out.stderr) or re.search(r"refs:\s+([\d,]+)", out.stderr)
    return int(found.group(1).replace(",", ""))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    daemon_binary, client = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    print("| corpus | snapshot | fontresolve resolve --json | fc-match | ratio | fontresolve --help | "
          "fc-match --version | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for corpus in sys.argv[3:]:
        label, _, directory = corpus.partition("=")
        directory = os.path.abspath(directory)
        work = tempfile.mkdtemp(prefix="fontreg-instructions-")
        cache = tempfile.mkdtemp(dir=work)
        environment, family = fontconfig_corpus(directory, work)
        warm.Daemon(daemon_binary, directory, cache, work).stop()  # cold: writes the index file
        daemon = warm.Daemon(daemon_binary, directory, cache, work)
        snapshot = daemon.socket_path + ".snapshot"
        for _ in range(100):  # published just after READY
            if os.path.exists(snapshot):
                break
            time.sleep(0.1)
        size = os.path.getsize(snapshot)
        r = instructions([client, "resolve", family, "--weight", "700", "--json", "--socket", daemon.socket_path])
        m = instructions(["fc-match", f"{family}:weight=200"], environment)
        h = instructions([client, "--help"])
        v = instructions(["fc-match", "--version"], environment)
        print(f"| {label} | {size:,} B | {r:,} | {m:,} | {r / m:.2f}× | {h:,} | {v:,} | {h / v:.2f}× |", flush=True)
        daemon.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
