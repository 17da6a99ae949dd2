#!/usr/bin/env python3
"""Private dirty memory of fontregd at READY, cold and warm, against an empty daemon (issue 29 item 2).

Starts the daemon ROUNDS times cold (empty cache directory) and warm (the same directory again) on
the given font directories, and on one empty directory, and prints `Private_Dirty` of
/proc/PID/smaps_rollup at the READY=1 datagram and 1.5 s later. A single sample moves by a few
hundred KiB between starts; compare medians.

  scripts/bench-dirty-at-ready.py DIR[,DIR…] [ROUNDS]      (default 3; FONTREGD=path, default .build/release/fontregd)
"""
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("FONTREGD", os.path.join(ROOT, ".build/release/fontregd"))


def private_dirty_kib(pid):
    with open(f"/proc/{pid}/smaps_rollup") as handle:
        for line in handle:
            if line.startswith("Private_Dirty:"):
                return int(line.split()[1])
    return 0


def start(work, name, directories, cache):
    """(private dirty at READY, 1.5 s later) of one start, in KiB."""
    notify_path = os.path.join(work, name + ".notify")
    if os.path.exists(notify_path):
        os.unlink(notify_path)
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(notify_path)
    notify.settimeout(600)
    arguments = [BINARY, "--socket", os.path.join(work, name + ".sock"), "--no-system-fonts", "--watch", "no",
                 "--state-dir", os.path.join(work, name + ".state"), "--cache-dir", cache, "--config", "/dev/null"]
    for directory in directories:
        arguments += ["--fonts", directory]
    with open(os.path.join(work, name + ".log"), "w") as log:
        process = subprocess.Popen(arguments, env=dict(os.environ, NOTIFY_SOCKET=notify_path), stdout=log, stderr=log)
        try:
            while "READY=1" not in notify.recv(4096).decode().split("\n"):
                pass
            ready = private_dirty_kib(process.pid)
            time.sleep(1.5)
            return ready, private_dirty_kib(process.pid)
        finally:
            process.terminate()
            process.wait()
            notify.close()


def main():
    directories = sys.argv[1].split(",")
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    work = tempfile.mkdtemp(prefix="fontreg-dirty-")
    os.chmod(work, 0o755)
    empty = os.path.join(work, "empty-fonts")
    os.makedirs(empty, mode=0o755)
    samples = {"empty": [], "cold": [], "warm": []}
    try:
        for _ in range(rounds):
            cache = os.path.join(work, "cache")
            shutil.rmtree(cache, ignore_errors=True)
            samples["cold"].append(start(work, "cold", directories, cache))
            samples["warm"].append(start(work, "warm", directories, cache))
            shutil.rmtree(os.path.join(work, "cache-empty"), ignore_errors=True)
            samples["empty"].append(start(work, "empty", [empty], os.path.join(work, "cache-empty")))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    base = statistics.median(ready for ready, _ in samples["empty"])
    print(f"| start | private dirty at READY, each start (KiB) | 1.5 s later | median above the empty daemon ({base:.0f} KiB) |")
    print("|---|---|---|---|")
    for kind in ("empty", "cold", "warm"):
        ready = [r for r, _ in samples[kind]]
        later = [l for _, l in samples[kind]]
        print(f"| {kind} | {', '.join(map(str, ready))} | {', '.join(map(str, later))} | {statistics.median(ready) - base:.0f} KiB |")


if __name__ == "__main__":
    main()
