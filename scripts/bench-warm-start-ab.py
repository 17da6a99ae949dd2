#!/usr/bin/env python3
"""Warm start to READY of two fontregd binaries and an fc-match process, interleaved in one run.

    python3 scripts/bench-warm-start-ab.py BEFORE AFTER [--rounds 15] LABEL=DIR ...

BEFORE and AFTER are fontregd binaries (copies of two builds, `scripts/build-release.sh` or
`swift build` with `scripts/release-flags.sh`). For each corpus, each binary's cache directory is
filled by an untimed first start; then every round starts BEFORE, AFTER and one `fc-match` (a
configuration holding the directory and its filled cache), in turn, so that the machine's load
falls on all three alike. Each figure is fork/exec to `READY=1` (fc-match: to exit), the median
of the rounds. For a change to the fixed start (issue 29 item 3); scripts/bench-warm-start.py is
the benchmark of record.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_bench  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("corpora", nargs="+", metavar="LABEL=DIR")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="fontreg-ab-")
    print(f"Command: scripts/bench-warm-start-ab.py BEFORE AFTER --rounds {args.rounds} {' '.join(args.corpora)} "
          f"({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average {os.getloadavg()[0]:.2f})")
    print()
    print("| corpus | fontregd before → READY | fontregd after → READY | fc-match | before ÷ fc-match | after ÷ fc-match |")
    print("|---|---:|---:|---:|---:|---:|")
    try:
        for spec in args.corpora:
            label, directory = spec.split("=", 1)
            caches = {}
            for name, binary in (("before", args.before), ("after", args.after)):
                caches[name] = os.path.join(work, f"{label}-{name}-cache")
                daemon_bench.Daemon(binary, directory, caches[name], work).stop()  # fills the cache
            # A configuration holding the directory alone, its cache built (shared with bench-process-start).
            environment, _ = daemon_bench.fontconfig_corpus(directory, tempfile.mkdtemp(dir=work))
            times = {"before": [], "after": [], "fc-match": []}
            for _ in range(args.rounds):
                for name, binary in (("before", args.before), ("after", args.after)):
                    daemon = daemon_bench.Daemon(binary, directory, caches[name], work)
                    times[name].append(daemon.ready)
                    daemon.stop()
                started = time.perf_counter()
                subprocess.run(["fc-match", "sans"], env=environment, check=True, stdout=subprocess.DEVNULL)
                times["fc-match"].append(time.perf_counter() - started)
            before, after, peer = (statistics.median(times[k]) for k in ("before", "after", "fc-match"))
            print(f"| {label} | {before * 1000:.1f} ms | {after * 1000:.1f} ms | {peer * 1000:.1f} ms | "
                  f"{before / peer:.2f}× | {after / peer:.2f}× |", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
