#!/usr/bin/env python3
"""Warm start from the mapped index against fontconfig's warm cache, and the daemon's memory (issue 13).

    python3 scripts/bench-warm-start.py --bin .build/release [--rounds 5] [--queries 20000] [--registrations N] LABEL=DIR ...

Per corpus, in one run, each figure the median of --rounds:
- fontregd warm: fork/exec to the `READY=1` datagram on a NOTIFY_SOCKET this script owns, on a
  --cache-dir that an untimed first start filled (its `index.snapshot`), `--no-system-fonts --watch no`;
- fontconfig warm, in process: `FcConfigAppFontAddDir` on a fresh configuration whose cache
  directory an untimed first call filled (through ctypes, as scripts/bench-cold.py);
- fc-match warm: `fc-match` of the corpus directory's first family as a process (fork/exec to
  exit) with a configuration holding the directory and the filled cache — a process start plus
  fontconfig's warm load, the peer of a daemon start;
- memory: `Private_Dirty` of /proc/PID/smaps_rollup at READY and after --queries mixed calls, of a
  warm start and of the first (cold) start, which serves the index file it wrote, mapped
  (Resolve, Candidates, GetFace, ListFaces of a family, ResolveText) over the socket, minus an
  empty daemon's (one empty font directory); the index file's mapped pages (clean, shared, file
  backed) are reported separately, from /proc/PID/smaps; and after one `ResolveText`, which
  waits for the coverage index the daemon builds after READY (so that figure holds it).
--registrations N gives every start of a corpus one state directory holding N users' persistent
registrations (scripts/persisted_state.py: empty directories owned by uids 60000+, ten per uid),
as scripts/bench-warm-start-instructions.py does.
Benchmark tooling only: nothing fontreg ships needs Python.
"""
import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_bench  # noqa: E402
from daemon_bench import Client, settle_binary  # noqa: E402
from persisted_state import make_registration, write_state  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "bench_cold", os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench-cold.py"))
cold = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cold)





class Daemon(daemon_bench.Daemon):
    """The shared daemon, with what this benchmark reads of its memory."""

    def memory(self):
        """(Private_Dirty, clean pages of the mapped index file) in bytes."""
        dirty = 0
        with open(f"/proc/{self.process.pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Private_Dirty:"):
                    dirty = int(line.split()[1]) * 1024
        mapped, inside = 0, False
        with open(f"/proc/{self.process.pid}/smaps") as f:
            for line in f:
                head = line.split()
                if len(head) >= 5 and "-" in head[0] and ":" in head[3]:
                    inside = line.rstrip().endswith("index.snapshot")
                elif inside and line.startswith("Rss:"):
                    mapped += int(head[1]) * 1024
        return dirty, mapped






def mixed_queries(path, count):
    """`count` calls of every read a client makes, over the families the daemon lists."""
    client = Client(path)
    families = [f["name"] for f in client.call("ListFamilies")["parameters"]["families"]]
    weights = ["100", "300", "regular", "500", "semibold", "bold", "900"]
    faces = []
    for i in range(count):
        family = families[(i * 7919) % len(families)]
        kind = i % 10
        if kind < 6:
            reply = client.call("Resolve", family=family, weight=weights[i % 7], italic=bool(i & 8),
                                boldText=bool(i & 16))
            face = reply.get("parameters", {}).get("face", {}).get("postscriptName")
            if face and len(faces) < 1000:
                faces.append(face)
        elif kind == 6:
            client.call("Candidates", family=family, weight=weights[i % 7])
        elif kind == 7 and faces:
            client.call("GetFace", postscriptName=faces[i % len(faces)])
        elif kind == 8:
            client.call("ListFaces", family=family)
        else:
            client.call("ResolveText", families=[family], text="Grüße, Ελλάδα! 你好")


def first_text(path):
    """One `ResolveText`: it waits for the coverage index the daemon builds after READY."""
    Client(path).call("ResolveText", families=["sans-serif"], text="Grüße, Ελλάδα! 你好")


def fontconfig_warm(fc, directory, work):
    """Seconds for FcConfigAppFontAddDir on a fresh configuration with a filled cache directory."""
    cache = tempfile.mkdtemp(dir=work)
    xml = f'<?xml version="1.0"?><fontconfig><cachedir>{cache}</cachedir></fontconfig>'.encode()
    times = []
    for timed in (False, True):
        config = fc.lib.FcConfigCreate()
        fc.lib.FcConfigParseAndLoadFromMemory(config, xml, 1)
        fc.lib.FcConfigSetRescanInterval(config, 0)
        started = time.perf_counter()
        fc.lib.FcConfigAppFontAddDir(config, directory.encode())
        times.append(time.perf_counter() - started)
        fc.lib.FcConfigDestroy(config)
    shutil.rmtree(cache, ignore_errors=True)
    return times[1]


def fc_match_warm(directory, work):
    """Seconds for one `fc-match` process on a configuration with the directory and its filled cache."""
    run = tempfile.mkdtemp(dir=work)
    config = os.path.join(run, "fonts.conf")
    with open(config, "w") as f:
        f.write(f'<?xml version="1.0"?><fontconfig><dir>{directory}</dir>'
                f'<cachedir>{os.path.join(run, "cache")}</cachedir></fontconfig>')
    environment = dict(os.environ, FONTCONFIG_FILE=config)
    environment.pop("FONTCONFIG_PATH", None)
    subprocess.run(["fc-cache", directory], env=environment, check=True, stdout=subprocess.DEVNULL)
    started = time.perf_counter()
    subprocess.run(["fc-match", "sans"], env=environment, check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    shutil.rmtree(run, ignore_errors=True)
    return seconds


def ms(seconds):
    return f"{seconds * 1000:,.1f} ms" if seconds < 10 else f"{seconds:.2f} s"


def kib(value):
    return f"{value / 1024:,.0f} KiB"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/release")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--queries", type=int, default=20000)
    parser.add_argument("--registrations", type=int, default=0)
    parser.add_argument("corpora", nargs="+", metavar="LABEL=DIR")
    arguments = parser.parse_args()
    binary = os.path.abspath(os.path.join(arguments.bin, "fontregd"))
    work = tempfile.mkdtemp(prefix="fontreg-warm-")
    fc = cold.Fontconfig()
    empty = tempfile.mkdtemp(dir=work)
    for folder in (work, empty):  # fonts' folders are 0755 (mkdtemp's 0700 would make them root's alone)
        os.chmod(folder, 0o755)
    settle_binary(binary)
    baseline = Daemon(binary, empty, tempfile.mkdtemp(dir=work), work)
    base_dirty, _ = baseline.memory()
    baseline.stop()
    print(f"An empty daemon (one empty font directory): {kib(base_dirty)} private dirty at READY.")
    print()
    print("| corpus | faces | fontregd fork/exec → READY, warm | fontconfig warm cache, in process | "
          "fc-match, warm cache (fork/exec → exit) | fontregd ÷ fontconfig in process | fontregd ÷ fc-match | "
          "private dirty per face at READY / after one ResolveText / after the queries | "
          "index file's mapped clean pages | "
          "after a cold start: private dirty per face at READY / after one ResolveText / after the queries |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for corpus in arguments.corpora:
        label, _, directory = corpus.partition("=")
        directory = os.path.abspath(directory)
        cache = tempfile.mkdtemp(dir=work)
        state = None
        if arguments.registrations:
            state = tempfile.mkdtemp(dir=work)
            roots = tempfile.mkdtemp(dir=work)
            os.chmod(roots, 0o755)
            write_state(state, [make_registration(roots, os.path.join(roots, f"u{60000 + i // 10}", f"r{i}"),
                                                  60000 + i // 10) for i in range(arguments.registrations)])
        first = Daemon(binary, directory, cache, work, state)  # untimed: the cold start writes index.snapshot
        cold_ready, _ = first.memory()
        first_text(first.socket_path)
        cold_text, _ = first.memory()
        mixed_queries(first.socket_path, arguments.queries)
        cold_after, _ = first.memory()
        first.stop()
        fontconfig_warm(fc, directory, work)  # untimed: the files into the page cache
        starts, fcs, matches = [], [], []
        for round in range(arguments.rounds):
            daemon = Daemon(binary, directory, cache, work, state)
            starts.append(daemon.ready)
            if round == 0:
                status = daemon.status
                dirty_ready, mapped_ready = daemon.memory()
                first_text(daemon.socket_path)
                dirty_text, _ = daemon.memory()
                mixed_queries(daemon.socket_path, arguments.queries)
                dirty_after, mapped_after = daemon.memory()
            daemon.stop()
            fcs.append(fontconfig_warm(fc, directory, work))
            matches.append(fc_match_warm(directory, work))
            print(f"bench-warm-start: {label} round {round + 1}: fontregd {ms(starts[-1])}, "
                  f"fontconfig {ms(fcs[-1])}, fc-match {ms(matches[-1])} ({status})",
                  file=sys.stderr, flush=True)
        faces = int(next((w for w in status.replace(",", "").split() if w.isdigit()), "0"))
        d, f, m = statistics.median(starts), statistics.median(fcs), statistics.median(matches)
        per = lambda value: f"{max(0, value - base_dirty) / max(faces, 1):,.0f} B"
        print(f"| {label} | {faces:,} | {ms(d)} | {ms(f)} | {ms(m)} | {d / f:.2f}× | {d / m:.2f}× | "
              f"{per(dirty_ready)} / {per(dirty_text)} / {per(dirty_after)} "
              f"({kib(dirty_ready)} / {kib(dirty_text)} / {kib(dirty_after)}) | "
              f"{kib(mapped_ready)} / {kib(mapped_after)} | "
              f"{per(cold_ready)} / {per(cold_text)} / {per(cold_after)} "
              f"({kib(cold_ready)} / {kib(cold_text)} / {kib(cold_after)}) |", flush=True)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
