#!/usr/bin/env python3
"""What the daemon's private dirty memory is, per mapping, at READY and after mixed calls (issue 29).

    python3 scripts/bench-memory.py --bin .build/release [--queries 5000] [--malloc-info] LABEL=DIR[,DIR...] ...

Per corpus: an empty daemon (one empty font directory) first, then fontregd started cold (an
empty --cache-dir) and warm (the same directory again), each `--no-system-fonts --watch no`, as
scripts/bench-warm-start.py starts it. For each start, `Private_Dirty` of /proc/PID/smaps_rollup
(the figure of bench-all.py and bench-warm-start.py) and of /proc/PID/smaps summed by kind of
mapping: the heap (`[heap]`, glibc's main arena), anonymous mappings (other arenas, large
allocations, thread stacks without a name), `[stack]`, the binary's writable segments (.data,
.bss, relocations), each shared library's, and the index file. Taken at READY, once the daemon
has used no CPU for half a second (the change worker's first job, the coverage index
`ResolveText` reads, runs after READY), after one
`ResolveText` (which waits for that index), and after --queries mixed calls over the socket
(`Resolve`, `ResolveMany`, `ResolveText`, `ListFaces`, `ListFamilies`). With --malloc-info, glibc's
own account of its heap at READY (`malloc_info` through gdb: bytes in use and free, summed over
its arenas).
Benchmark tooling only: nothing fontreg ships needs Python.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_bench  # noqa: E402
from daemon_bench import Client, settle_binary  # noqa: E402


class Daemon(daemon_bench.Daemon):
    """The shared daemon, with the readings of its memory and CPU this benchmark takes."""

    def wait_idle(self, limit=60):
        """Until the daemon has used no CPU for half a second: the change worker's first job is done."""
        deadline = time.time() + limit
        last = self.cpu()
        while time.time() < deadline:
            time.sleep(0.5)
            now = self.cpu()
            if now == last:
                return
            last = now

    def cpu(self):
        with open(f"/proc/{self.process.pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    def faces(self):
        return int(next((w for w in self.status.replace(",", "").split() if w.isdigit()), "0"))

    def rollup(self):
        """Private_Dirty of smaps_rollup, in KiB."""
        with open(f"/proc/{self.process.pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Private_Dirty:"):
                    return int(line.split()[1])
        return 0

    def breakdown(self):
        """Private_Dirty in KiB by kind of mapping, from /proc/PID/smaps."""
        kinds, kind = {}, None
        with open(f"/proc/{self.process.pid}/smaps") as f:
            for line in f:
                head = line.split()
                if len(head) >= 5 and "-" in head[0] and ":" in head[3]:
                    name = head[5] if len(head) > 5 else ""
                    if name == "[heap]":
                        kind = "heap ([heap], the main arena)"
                    elif name == "":
                        kind = "anonymous (other arenas, large blocks, thread stacks)"
                    elif name == "[stack]":
                        kind = "[stack] (main thread)"
                    elif name.startswith("["):
                        kind = name
                    elif os.path.realpath(name) == self.binary:
                        kind = "fontregd .data/.bss/relro"
                    elif name.endswith("index.snapshot"):
                        kind = "index.snapshot"
                    else:
                        base = os.path.basename(name)
                        kind = re.sub(r"\.so.*", "", base) + " (.data/.bss)"
                elif line.startswith("Private_Dirty:") and kind is not None:
                    kinds[kind] = kinds.get(kind, 0) + int(head[1])
        return {k: v for k, v in kinds.items() if v}

    def malloc_info(self):
        """glibc's malloc_info(0) through gdb: (in use, free) bytes summed over arenas, or None."""
        out = tempfile.mktemp(dir=self.run)
        command = ["gdb", "-p", str(self.process.pid), "-batch", "-nx",
                   "-ex", f'call (void*)fopen("{out}", "w")',
                   "-ex", "set $f = $",
                   "-ex", "call (int)malloc_info(0, $f)",
                   "-ex", "call (int)fclose($f)"]
        subprocess.run(command, capture_output=True, text=True, timeout=120)
        try:
            with open(out) as f:
                text = f.read()
        except OSError:
            return None
        tail = text.rsplit("</heap>", 1)[-1]
        def figure(kind, name):
            match = re.search(rf'<{kind} type="{name}"(?: count="\d+")? size="(\d+)"/>', tail)
            return int(match.group(1)) if match else 0
        if "<malloc" not in text:
            return None
        system, free = figure("system", "current"), figure("total", "fast") + figure("total", "rest")
        return {"arenas": text.count("<heap nr="), "heap KiB": system // 1024, "free in it KiB": free // 1024,
                "in use KiB": (system - free) // 1024, "mmapped blocks KiB": figure("total", "mmap") // 1024}






TEXT = "Grüße, Ελλάδα! 你好"


def mixed_calls(path, count):
    """`count` calls over the families the daemon lists: Resolve 50 %, ResolveMany (10 queries)
    10 %, ResolveText 20 %, ListFaces 10 %, ListFamilies 10 %."""
    client = Client(path)
    families = [f["name"] for f in client.call("ListFamilies")["parameters"]["families"]]
    weights = ["100", "300", "regular", "500", "semibold", "bold", "900"]
    for i in range(count):
        family = families[(i * 7919) % len(families)]
        kind = i % 10
        if kind < 5:
            client.call("Resolve", family=family, weight=weights[i % 7], italic=bool(i & 8), boldText=bool(i & 16))
        elif kind == 5:
            queries = [{"family": families[(i * 31 + j) % len(families)], "weight": weights[j % 7]} for j in range(10)]
            client.call("ResolveMany", queries=queries)
        elif kind in (6, 7):
            client.call("ResolveText", families=[family], text=TEXT)
        elif kind == 8:
            client.call("ListFaces", family=family)
        else:
            client.call("ListFamilies")





def measure(daemon, queries, with_malloc):
    """The figures of one start: rollup and breakdown at each point."""
    points = {}
    points["READY"] = (daemon.rollup(), daemon.breakdown())
    if with_malloc:
        points["malloc_info at READY"] = daemon.malloc_info()
    daemon.wait_idle()
    points["settled after READY"] = (daemon.rollup(), daemon.breakdown())
    Client(daemon.socket_path).call("ResolveText", families=["sans-serif"], text=TEXT)
    points["after one ResolveText"] = (daemon.rollup(), daemon.breakdown())
    if queries:
        mixed_calls(daemon.socket_path, queries)
        points[f"after {queries:,} mixed calls"] = (daemon.rollup(), daemon.breakdown())
    return points


def print_points(title, points, faces, base):
    print(f"#### {title}")
    print()
    for name, value in points.items():
        if name.startswith("malloc_info"):
            print(f"- {name}: {value}")
            continue
        rollup, kinds = value
        above = rollup - base
        per = f"{above * 1024 / faces:,.0f} B per face" if faces else "—"
        print(f"- **{name}**: {rollup:,} KiB private dirty ({above:+,} KiB above the empty daemon, {per}); "
              + ", ".join(f"{k} {v:,}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])))
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/release")
    parser.add_argument("--queries", type=int, default=5000)
    parser.add_argument("--malloc-info", action="store_true")
    parser.add_argument("corpora", nargs="+", metavar="LABEL=DIR")
    arguments = parser.parse_args()
    binary = os.path.abspath(os.path.join(arguments.bin, "fontregd"))
    work = tempfile.mkdtemp(prefix="fontreg-memory-")
    try:
        empty = tempfile.mkdtemp(dir=work)
        for folder in (work, empty):  # fonts' folders are 0755 (mkdtemp's 0700 would make them root's alone)
            os.chmod(folder, 0o755)
        settle_binary(binary)
        baseline = Daemon(binary, empty, tempfile.mkdtemp(dir=work), work)
        baseline.wait_idle()
        base, base_kinds = baseline.rollup(), baseline.breakdown()
        baseline.stop()
        print(f"An empty daemon (one empty font directory), settled after READY: {base:,} KiB private dirty; "
              + ", ".join(f"{k} {v:,}" for k, v in sorted(base_kinds.items(), key=lambda kv: -kv[1])))
        print()
        for corpus in arguments.corpora:
            label, _, directories = corpus.partition("=")
            directory = [os.path.abspath(d) for d in directories.split(",")]
            cache = tempfile.mkdtemp(dir=work)
            first = Daemon(binary, directory, cache, work)
            faces = first.faces()
            print(f"### {label}: {faces:,} faces")
            print()
            print_points("cold start (empty cache directory)", measure(first, arguments.queries, arguments.malloc_info),
                         faces, base)
            first.stop()
            warm = Daemon(binary, directory, cache, work)
            print_points("warm start (its index file)", measure(warm, arguments.queries, arguments.malloc_info),
                         faces, base)
            warm.stop()
            sys.stdout.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
