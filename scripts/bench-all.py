#!/usr/bin/env python3
"""Runs every benchmark side by side and writes docs/benchmarks.md and docs/benchmarks.png.

Called by scripts/bench-all.sh, which installs what this needs (Debian fonts, matplotlib),
builds the release binaries and makes the corpora; run that, not this.

    .venv/bin/python scripts/bench-all.py --bin .build/release --work DIR LABEL=DIR[,DIR...] ...

Per corpus, in one run: fontreg-bench (index build cold/warm against fontconfig uncached/warm,
Resolver.resolve against FcFontMatch), bench-matplotlib.py (findfont on the same fonts and
queries), then fontregd started cold and warm on the corpus (time to READY=1 read from a
NOTIFY_SOCKET this script owns, VmRSS from /proc), and fontregd-bench against it (socket
latency, bare round trip, throughput). Benchmark tooling only: nothing fontreg ships needs Python.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon_bench import settle_binary  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def log(message):
    print(f"bench-all: {message}", file=sys.stderr, flush=True)


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def private_dirty_kib(pid):
    """Private_Dirty of /proc/PID/smaps_rollup: the memory the process alone holds and wrote (heap, not mapped files)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Private_Dirty:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0





def dirty_at_ready(options, name, directories, cache, cold, runs=3):
    """Private dirty KiB at READY of `runs` starts of fontregd on `directories`; `cold` empties `cache` before each."""
    samples = []
    for _ in range(runs):
        if cold:
            shutil.rmtree(cache, ignore_errors=True)
        daemon = Daemon(os.path.join(options.bin, "fontregd"), options.work, name, directories, cache)
        daemon.wait_ready()
        samples.append(private_dirty_kib(daemon.process.pid))
        daemon.stop()
    return samples


class Daemon:
    """fontregd on one corpus, with its own socket, state, cache and NOTIFY_SOCKET."""

    def __init__(self, binary, work, name, directories, cache):
        self.socket_path = os.path.join(work, f"{name}.sock")
        self.notify_path = os.path.join(work, f"{name}.notify")
        for path in (self.socket_path, self.notify_path):
            if os.path.exists(path):
                os.unlink(path)
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(self.notify_path)
        arguments = [binary, "--socket", self.socket_path, "--no-system-fonts", "--watch", "no",
                     "--state-dir", os.path.join(work, f"{name}.state"), "--cache-dir", cache, "--config", "/dev/null"]
        for directory in directories:
            arguments += ["--fonts", directory]
        environment = dict(os.environ, NOTIFY_SOCKET=self.notify_path)
        self.log = open(os.path.join(work, f"{name}.log"), "w")
        self.started = time.perf_counter()
        self.process = subprocess.Popen(arguments, env=environment, stdout=self.log, stderr=self.log)
        self.ready_seconds = None

    def wait_ready(self, timeout=600):
        self.notify.settimeout(timeout)
        while True:
            message = self.notify.recv(4096).decode()
            if "READY=1" in message.split("\n"):
                self.ready_seconds = time.perf_counter() - self.started
                return self.ready_seconds

    def wait_idle(self, limit=600):
        """Waits until the daemon uses no CPU for a second (its private fontconfig view is filled in the background)."""
        deadline = time.time() + limit
        last = cpu_ticks(self.process.pid)
        while time.time() < deadline:
            time.sleep(1.0)
            now = cpu_ticks(self.process.pid)
            if now == last:
                return True
            last = now
        return False

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.notify.close()
        self.log.close()
        for path in (self.socket_path, self.notify_path):
            if os.path.exists(path):
                os.unlink(path)


def parse_daemon_bench(text):
    """Reads fontregd-bench's lines; tolerant of wording changes around the figures."""
    figures = {}
    patterns = {
        "bare": r"^bare[^:]*:\s*p50 ([\d.]+) µs, p99 ([\d.]+) µs",
        "resolve": r"^Resolve round trip[^:]*:\s*p50 ([\d.]+) µs, p99 ([\d.]+) µs",
        "pipelined": r"^pipelined Resolve[^:]*:\s*(\d+) resolves/s",
        "many": r"^ResolveMany[^:]*:\s*(\d+) resolves/s",
        "fcmatch": r"^fc-match[^:]*:\s*p50 ([\d.]+) µs, p99 ([\d.]+) µs",
    }
    for key, pattern in patterns.items():
        match = re.search(pattern, text, re.M)
        if match:
            figures[key] = [float(value) for value in match.groups()]
    return figures


def median_runs(runs):
    """Per figure, the median of the runs (fc-match from the first run only); adds the median socket ÷ bare ratio."""
    merged = {}
    for key in ("bare", "resolve", "pipelined", "many"):
        values = sorted((run[key] for run in runs if key in run), key=lambda v: v[0])
        if values:
            merged[key] = values[len(values) // 2]
    if runs and "fcmatch" in runs[0]:
        merged["fcmatch"] = runs[0]["fcmatch"]
    ratios = sorted(run["resolve"][0] / run["bare"][0] for run in runs if "resolve" in run and "bare" in run)
    if ratios:
        merged["ratio"] = ratios[len(ratios) // 2]
        merged["ratios"] = ratios
    return merged


def first_family(queries_file):
    with open(queries_file) as handle:
        return handle.readline().split("\t")[0]


def machine():
    cpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    model = re.search(r"^Model name:\s*(.*)$", cpu, re.M)
    with open("/proc/meminfo") as handle:
        memory = int(handle.readline().split()[1]) / 1048576

    def version(*command):
        try:
            return subprocess.run(command, capture_output=True, text=True).stdout.strip()
        except OSError:
            return "?"
    import matplotlib
    swift = version("swift", "--version").split("\n")[0]
    return {
        "cores": os.cpu_count(), "memory": f"{memory:.0f} GiB", "cpu": model.group(1) if model else "?",
        "kernel": os.uname().release, "fontconfig": version("pkg-config", "--modversion", "fontconfig"),
        "freetype": version("pkg-config", "--modversion", "freetype2"), "matplotlib": matplotlib.__version__,
        "swift": swift, "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


COMPILERS = ("swift-frontend", "swift-build", "swiftc", "clang", "cc1", "cc1plus", "ld", "ld.gold", "ld.lld")


def compilers_running():
    """How many compiler and linker processes run on the machine (this run builds before bench-all.py, so they are others')."""
    count = 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/comm") as handle:
                    count += handle.read().strip() in COMPILERS
            except OSError:
                pass
    return count


COMPILER_SAMPLES = []


def load():
    """The 1-minute load average now; also notes how many compilers run beside the benchmark."""
    COMPILER_SAMPLES.append(compilers_running())
    return os.getloadavg()[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--doc", default=os.path.join(ROOT, "docs/benchmarks.md"))
    parser.add_argument("--plot", default=os.path.join(ROOT, "docs/benchmarks.png"))
    parser.add_argument("--results", default=None, help="also write every figure as JSON here")
    parser.add_argument("--from-results", help="only write the doc and plot again from a results JSON of an earlier run")
    parser.add_argument("--table", action="append", default=[], metavar="TITLE=FILE",
                        help="the output of another benchmark script of this run, put in the section under TITLE as it is")
    parser.add_argument("--failed", action="append", default=[], metavar="SCRIPT",
                        help="a benchmark script of this run that failed: named in the section, so its table's absence is explained")
    parser.add_argument("--started", default=None, help="when the run's first measurement started (bench-all.sh's peers run first)")
    parser.add_argument("--commit", default=None, help="the commit the binaries were built from")
    parser.add_argument("--loads-file", default=None, help="1-minute load averages sampled by bench-all.sh before this script, one a line")
    parser.add_argument("--command", default="scripts/bench-all.sh", help="the command line of this run, as the section shows it")
    parser.add_argument("corpora", nargs="*", help="LABEL=DIR[,DIR...]")
    options = parser.parse_args()
    if options.from_results:
        with open(options.from_results) as handle:
            results = json.load(handle)
        plot(results, options.plot)
        write_doc(results, options.doc, os.path.relpath(options.plot, os.path.dirname(options.doc)))
        return
    os.makedirs(options.work, exist_ok=True)
    corpora = []
    for argument in options.corpora:
        label, directories = argument.split("=", 1)
        corpora.append((label, directories.split(",")))

    info = machine()
    info["commit"] = options.commit
    if options.started:
        info["date"] = options.started
    info["command"] = options.command
    loads = []
    if options.loads_file and os.path.exists(options.loads_file):
        with open(options.loads_file) as handle:
            loads += [float(line) for line in handle if line.strip()]
    loads.append(load())
    results = {"machine": info, "corpora": {}}
    results["tables"] = []
    results["failed"] = list(options.failed)
    for argument in options.table:
        title, _, path = argument.rpartition("=")  # the last "=": a title may hold one, the work folder's path does not
        if os.path.exists(path) and os.path.getsize(path) > 0:
            with open(path) as handle:
                results["tables"].append({"title": title, "text": handle.read().strip()})
        else:  # named in the section, never left out silently
            log(f"no table for {title!r}: {path} is missing or empty")
            results["failed"].append(f"{title} (no output)")

    # Baseline for memory: the daemon serving an empty font directory.
    settle_binary(os.path.join(options.bin, "fontregd"))
    empty = os.path.join(options.work, "empty-fonts")
    os.makedirs(empty, exist_ok=True)
    for folder in (options.work, empty):  # fonts' folders are 0755 (bench-all.sh's mktemp -d is 0700)
        os.chmod(folder, 0o755)
    cache = os.path.join(options.work, "cache-empty")
    shutil.rmtree(cache, ignore_errors=True)
    daemon = Daemon(os.path.join(options.bin, "fontregd"), options.work, "empty", [empty], cache)
    daemon.wait_ready()
    daemon.wait_idle(30)
    results["baselineRssKiB"] = rss_kib(daemon.process.pid)
    results["baselineReadySeconds"] = daemon.ready_seconds
    daemon.stop()
    # Private dirty is taken at READY, as the corpora's are, the median of three starts: a single
    # sample moved by a few hundred KiB between runs (a thread's first allocations landing just
    # before or after READY), which on the Debian fonts' 386 faces is most of a kilobyte a face.
    results["baselineDirtySamplesKiB"] = dirty_at_ready(options, "empty", [empty], cache, cold=False)
    results["baselineDirtyKiB"] = statistics.median(results["baselineDirtySamplesKiB"])
    log(f"empty daemon: {results['baselineRssKiB']} KiB, READY after {results['baselineReadySeconds'] * 1000:.0f} ms")

    for label, directories in corpora:
        entry = {"directories": directories}
        # 1. Core: index build and in-process resolve against fontconfig.
        log(f"{label}: fontreg-bench")
        output = subprocess.run(
            [os.path.join(options.bin, "fontreg-bench"), "--json", "--queries-dir", options.work, f"{label}={','.join(directories)}"],
            capture_output=True, text=True, check=True, env=dict(os.environ, FONTREG_BENCH_SECONDS=str(options.seconds)))
        entry["core"] = json.loads(output.stdout.strip().splitlines()[-1])
        queries = os.path.join(options.work, f"{label}.tsv")
        loads.append(load())

        # 2. matplotlib's findfont on the same files and queries.
        log(f"{label}: matplotlib findfont")
        output = subprocess.run(
            [sys.executable, os.path.join(ROOT, "scripts/bench-matplotlib.py"), label, queries, str(options.seconds), ",".join(directories)],
            capture_output=True, text=True, check=True)
        entry["matplotlib"] = json.loads(output.stdout.strip().splitlines()[-1])
        loads.append(load())

        # 3. The daemon: cold start (empty cache directory), memory, socket figures; then a warm start.
        cache = os.path.join(options.work, f"cache-{label}")
        shutil.rmtree(cache, ignore_errors=True)
        log(f"{label}: fontregd cold start")
        daemon = Daemon(os.path.join(options.bin, "fontregd"), options.work, label, directories, cache)
        entry["readyColdSeconds"] = daemon.wait_ready()
        entry["rssReadyKiB"] = rss_kib(daemon.process.pid)
        entry["dirtyReadyKiB"] = private_dirty_kib(daemon.process.pid)
        daemon.wait_idle()
        entry["rssSettledKiB"] = rss_kib(daemon.process.pid)
        family = first_family(queries)
        log(f"{label}: fontregd-bench (family {family})")
        # Three runs (fc-match in the first only); each figure is the median run's, and the socket ÷ bare
        # ratio the median of the three runs' ratios: the bare round trip and Resolve are timed a second
        # apart, and on a shared machine one slow second skews a single ratio.
        runs = []
        for run in range(3):
            bench = subprocess.run(
                [os.path.join(options.bin, "fontregd-bench"), "--socket", daemon.socket_path, "--family", family,
                 "--calls", "20000", "--connections", "4", "--seconds", "2", "--fc-match-runs", "20" if run == 0 else "1"],
                capture_output=True, text=True)
            if bench.returncode != 0:
                log(f"{label}: fontregd-bench failed: {bench.stderr.strip()}")
            runs.append(parse_daemon_bench(bench.stdout))
            entry.setdefault("daemonBenchOutput", []).append(bench.stdout)
        entry["daemonRuns"] = runs
        entry["daemon"] = median_runs(runs)
        daemon.stop()
        loads.append(load())
        log(f"{label}: fontregd warm start")
        daemon = Daemon(os.path.join(options.bin, "fontregd"), options.work, label + "-warm", directories, cache)
        entry["readyWarmSeconds"] = daemon.wait_ready()
        entry["rssWarmReadyKiB"] = rss_kib(daemon.process.pid)
        entry["dirtyWarmReadyKiB"] = private_dirty_kib(daemon.process.pid)
        daemon.wait_idle()
        daemon.stop()
        # Private dirty at READY: the median of three cold and three warm starts (the samples
        # above are the first of each).
        entry["dirtyReadySamplesKiB"] = [entry["dirtyReadyKiB"]] + dirty_at_ready(
            options, label + "-cold-again", directories, cache, cold=True, runs=2)
        entry["dirtyWarmReadySamplesKiB"] = [entry["dirtyWarmReadyKiB"]] + dirty_at_ready(
            options, label + "-warm-again", directories, cache, cold=False, runs=2)
        entry["dirtyReadyKiB"] = statistics.median(entry["dirtyReadySamplesKiB"])
        entry["dirtyWarmReadyKiB"] = statistics.median(entry["dirtyWarmReadySamplesKiB"])
        results["corpora"][label] = entry
        log(f"{label}: done")
        if options.results:  # as it goes, so that a long run that fails later still leaves its figures
            with open(options.results, "w") as handle:
                json.dump(results, handle, indent=1, sort_keys=True)

    loads.append(load())
    results["loads"] = loads
    results["compilers"] = COMPILER_SAMPLES
    if options.results:
        with open(options.results, "w") as handle:
            json.dump(results, handle, indent=1, sort_keys=True)
    plot(results, options.plot)
    write_doc(results, options.doc, os.path.relpath(options.plot, os.path.dirname(options.doc)))


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = sorted(results["corpora"].items(), key=lambda item: item[1]["core"]["faces"])
    faces = [entry["core"]["faces"] for _, entry in rows]
    figure, (cost, memory) = plt.subplots(1, 2, figsize=(12, 4.8))
    series = [
        ("fontreg Resolver.resolve, in process", [e["core"]["resolveNanoseconds"] / 1000 for _, e in rows], "o-"),
        ("fontregd Resolve over its socket (p50)", [e["daemon"].get("resolve", [None])[0] for _, e in rows], "s-"),
        ("bare Unix-socket round trip (p50)", [e["daemon"].get("bare", [None])[0] for _, e in rows], "x:"),
        ("fontconfig FcFontMatch, in process", [e["core"]["fcFontMatchNanoseconds"] / 1000 for _, e in rows], "^-"),
        ("matplotlib findfont (lru_cache cleared)", [e["matplotlib"]["findfontNanoseconds"] / 1000 for _, e in rows], "v-"),
    ]
    for name, values, style in series:
        points = [(f, v) for f, v in zip(faces, values) if v]
        if points:
            cost.plot([p[0] for p in points], [p[1] for p in points], style, label=name)
    for (label, entry), f in zip(rows, faces):
        cost.annotate(label, (f, entry["core"]["resolveNanoseconds"] / 1000), textcoords="offset points", xytext=(0, -14), fontsize=7, ha="center")
    cost.set_xscale("log"); cost.set_yscale("log")
    cost.set_xlabel("faces in the corpus"); cost.set_ylabel("µs per query (log)")
    cost.set_title("Per-query cost against the number of faces")
    cost.grid(True, which="both", alpha=0.3); cost.legend(fontsize=7)
    base = results["baselineRssKiB"]
    memory.plot(faces, [(e["rssSettledKiB"] - base) / e["core"]["faces"] for _, e in rows], "o-", label="RSS once idle")
    memory.plot(faces, [(e["rssReadyKiB"] - base) / e["core"]["faces"] for _, e in rows], "s--", label="RSS at READY (cold start)")
    memory.plot(faces, [(e["rssWarmReadyKiB"] - base) / e["core"]["faces"] for _, e in rows], "d:", label="RSS at READY (warm start)")
    dirty_base = results.get("baselineDirtyKiB", 0)
    for key, style, name in (("dirtyReadyKiB", "^-", "private dirty at READY (cold start)"),
                             ("dirtyWarmReadyKiB", "v-", "private dirty at READY (warm start)")):
        points = [(f, (e[key] - dirty_base) / e["core"]["faces"]) for (_, e), f in zip(rows, faces) if key in e]
        points = [p for p in points if p[1] > 0]  # a log axis: a figure at or below the empty daemon's is left out
        if points:
            memory.plot([p[0] for p in points], [p[1] for p in points], style, label=name)
    memory.axhline(2.0, color="grey", linestyle="--", label="target: 2 KiB per face (RSS)")
    memory.axhline(1.0, color="black", linestyle=":", label="target: 1 KiB private dirty per face (issue 29)")
    memory.set_xscale("log"); memory.set_yscale("log")
    memory.set_xlabel("faces in the corpus"); memory.set_ylabel("KiB per face (above an empty daemon)")
    memory.set_title("fontregd memory per face: RSS and private dirty")
    memory.grid(True, which="both", alpha=0.3); memory.legend(fontsize=7)
    figure.suptitle(f"fontreg benchmarks, {results['machine']['date']}, {results['machine']['cores']} shared cores", fontsize=9)
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def fmt_time(seconds):
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.0f} ms" if seconds >= 0.01 else f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.1f} µs" if seconds >= 1e-6 else f"{seconds * 1e9:.0f} ns"


def ratio(a, b):
    return f"{a / b:.2f}×" if a / b < 10 else f"{a / b:.0f}×"


def markdown_rows(text):
    """The rows of the first Markdown table in `text`, each a list of (header, cell) pairs in column order."""
    lines = [line.strip() for line in text.splitlines() if line.strip().startswith("|")]
    if len(lines) < 3:
        return []
    cells = lambda line: [cell.strip() for cell in line.strip("|").split("|")]
    headers = cells(lines[0])
    return [list(zip(headers, cells(line))) for line in lines[2:]]


def first_ratio(row, *words):
    """The value of the first column whose header holds every one of `words`, read as a number ("1.23×" → 1.23)."""
    for header, cell in row:
        if all(word in header for word in words):
            found = re.search(r"[\d.]+", cell.replace(",", ""))
            return float(found.group()) if found else None
    return None


def peer_targets(results):
    """Issue 29's rows of the targets table, read from the tables of the peers' scripts in this run."""
    tables = {table["title"].split(" (")[0]: table["text"] for table in results.get("tables", [])}
    targets = []

    def target(name, text, words, met, describe):
        measured = [(row[0][1].split(" (")[0], first_ratio(row, *words)) for row in markdown_rows(text or "")]
        measured = [(label, value) for label, value in measured if value is not None]
        if not measured:
            return
        missed = [label for label, value in measured if not met(value)]
        figures = ", ".join(f"{label} {describe(value)}" for label, value in measured)
        targets.append(f"| {name} | {figures} | {'met' if not missed else 'missed on ' + ', '.join(missed)} |")

    times = lambda value: f"{value:.2f}×"
    process = tables.get("A new process against fc-match")
    target("a new process to its first answer ≤ fc-match (issue 29 item 1; `fontresolve resolve --json` ÷ `fc-match`, wall)",
           process, ["ratio"], lambda v: v <= 1, times)
    warm = tables.get("Warm start to READY and memory")
    target("warm start to READY ≤ an fc-match process (issue 29 item 3), wall clock", warm, ["÷ fc-match"],
           lambda v: v <= 1, times)
    instructions = tables.get("Warm start to READY in instructions against an fc-match process")
    target("the same in instructions (≈ exec → READY ÷ one fc-match process)", instructions, ["ratio"], lambda v: v <= 1, times)
    registrations = tables.get("The same with 1,000 users' registrations")
    target("the same with 1,000 users' registrations, instructions", registrations, ["ratio"], lambda v: v <= 1, times)
    fallback = tables.get("Text fallback against Pango's itemizer and fontconfig")
    target("text fallback per code point ≤ Pango's itemizer, in process (issue 29 item 4; Pango ÷ fontreg, plans kept)",
           fallback, ["Pango ÷"], lambda v: v >= 1, times)
    target("over the socket within 2× of in process (socket ÷ in process)", fallback, ["socket", "÷"],
           lambda v: v <= 2, times)
    return targets


def write_doc(results, path, plot_name):
    m = results["machine"]
    rows = sorted(results["corpora"].items(), key=lambda item: item[1]["core"]["faces"])
    base = results["baselineRssKiB"]
    out = []
    add = out.append
    add("<!-- bench-all:start -->")
    largest_faces = max(entry["core"]["faces"] for _, entry in rows)
    add(f"## Side by side: fontconfig, matplotlib, Pango and fontreg up to {largest_faces:,} faces (issues 6 and 29)")
    add("")
    compilers = results.get("compilers") or []
    busy = sum(1 for count in compilers if count)
    busiest = max(results["loads"])
    others = (f"a load average above {m['cores']} on {m['cores']} cores is other engineers' work (their builds, tests and "
              "benchmarks) running beside this one" if busiest > m["cores"] else "other engineers build and test on these cores")
    sharing = (f"other engineers were compiling on the same cores during the run (compilers or linkers running at {busy} of "
               f"the {len(compilers)} samples bench-all.py took, up to {max(compilers)} at once); {others}" if busy else
               f"no compiler or linker was running at the {len(compilers)} samples bench-all.py took, but {others}")
    commit = f" of commit `{m['commit']}`" if m.get("commit") else ""
    add(f"Command: `{m.get('command', 'scripts/bench-all.sh')}` — one run{commit}, started {m['date']}, release binaries as "
        f"shipped (`--static-swift-stdlib`, as `scripts/build-release.sh`). Machine: {m['cores']} cores, **shared**: "
        f"{sharing}; 1-minute load average {min(results['loads']):.1f} to {max(results['loads']):.1f} over the run "
        f"({len(results['loads'])} samples). {m['memory']}, "
        f"{m['cpu']}, Linux {m['kernel']}; fontconfig {m['fontconfig']}, FreeType {m['freetype']} (libtool version), "
        f"matplotlib {m['matplotlib']}; {m['swift']}. Absolute times drift with the load; the ratios compare peers measured "
        f"seconds to minutes apart in the same run, and only they are worth comparing between runs. Every corpus: plain "
        f"`scripts/bench-all.sh` (adds the 100,000-face corpus); longer timed loops: `BENCH_SECONDS=2`.")
    add("")
    add("Later sections that cite \"the run above\", \"the headline table\" or \"the `bench-all` table\" were written against "
        "earlier runs of this section, chiefly the 2026-11-29 17:37 UTC one with the 100,000-face corpus "
        "(`git show ea8dbc1:docs/benchmarks.md`); their figures are older than these, and where they differ these are the newer.")
    if results.get("failed"):
        add("")
        add("**Failed in this run, so their tables are missing:** " + ", ".join(f"`{name}`" for name in results["failed"]) + ".")
    add("")
    add("Corpora: " + "; ".join(f"*{label}* = `{', '.join(entry['directories'])}`" for label, entry in rows) + ".")
    add("")
    add(f"![per-query cost and memory against the number of faces]({plot_name})")
    add("")
    add("### Index build (start-up work) against fontconfig")
    add("")
    add("| corpus | faces | families | fontreg cold (empty cache directory) | fontreg warm (its index file, mapped) | fontconfig uncached | fontconfig warm cache | cold ÷ fc uncached | warm ÷ fc warm | fontreg + its fontconfig view (cold) | matplotlib FontManager (addfont per file) |")
    add("|---|---|---|---|---|---|---|---|---|---|---|")
    for label, e in rows:
        c, p = e["core"], e["matplotlib"]
        add(f"| {label} | {c['faces']} | {c['families']} | {fmt_time(c['buildSeconds'])} | {fmt_time(c['warmBuildSeconds'])} | "
            f"{fmt_time(c['fontconfigUncachedSeconds'])} | {fmt_time(c['fontconfigCachedSeconds'])} | "
            f"{ratio(c['buildSeconds'], c['fontconfigUncachedSeconds'])} | {ratio(c['warmBuildSeconds'], c['fontconfigCachedSeconds'])} | "
            f"{fmt_time(c['buildWithFontconfigSeconds'])} | {fmt_time(p['buildSeconds'])} |")
    add("")
    add("### Resolve, per query")
    add("")
    add("| corpus | fontreg in process | FcFontMatch | speed-up | matplotlib findfont | speed-up | fontregd over its socket p50 / p99 | bare round trip p50 / p99 | socket ÷ bare, p50 (median of 3 runs; the runs) | fc-match, one process per query (p50) |")
    add("|---|---|---|---|---|---|---|---|---|---|")
    for label, e in rows:
        c, p, d = e["core"], e["matplotlib"], e["daemon"]
        r, b = d.get("resolve"), d.get("bare")
        sock = f"{r[0]:.1f} / {r[1]:.1f} µs" if r else "—"
        bare = f"{b[0]:.1f} / {b[1]:.1f} µs" if b else "—"
        fc = f"{d['fcmatch'][0] / 1000:.1f} ms" if d.get("fcmatch") else "—"
        rat = "—"
        if d.get("ratio"):
            rat = f"{d['ratio']:.2f}× (" + ", ".join(f"{x:.2f}" for x in d["ratios"]) + ")"
        add(f"| {label} | {fmt_time(c['resolveNanoseconds'] / 1e9)} | {fmt_time(c['fcFontMatchNanoseconds'] / 1e9)} ({c['fcFontMatchCalls']} calls) | "
            f"**{ratio(c['fcFontMatchNanoseconds'], c['resolveNanoseconds'])}** | {fmt_time(p['findfontNanoseconds'] / 1e9)} ({p['findfontCalls']} calls) | "
            f"**{ratio(p['findfontNanoseconds'], c['resolveNanoseconds'])}** | {sock} | {bare} | {rat} | {fc} |")
    add("")
    add("### The daemon: start-up, memory, throughput")
    add("")
    add(f"An empty daemon (one empty font directory) is resident at {base / 1024:.1f} MiB and READY after "
        f"{fmt_time(results['baselineReadySeconds'])}; the per-face figures are above that baseline.")
    add("")
    add("| corpus | faces | start to READY, cold / warm | RSS at READY (cold) | RSS once idle | per face, at READY / idle | RSS at READY (warm) | pipelined Resolve, 4 connections | ResolveMany (100 per call), 4 connections |")
    add("|---|---|---|---|---|---|---|---|---|")
    for label, e in rows:
        c, d = e["core"], e["daemon"]
        n = c["faces"]
        add(f"| {label} | {n} | {fmt_time(e['readyColdSeconds'])} / {fmt_time(e['readyWarmSeconds'])} | {e['rssReadyKiB'] / 1024:.1f} MiB | "
            f"{e['rssSettledKiB'] / 1024:.1f} MiB | {(e['rssReadyKiB'] - base) / n:.2f} / {(e['rssSettledKiB'] - base) / n:.2f} KiB | "
            f"{e['rssWarmReadyKiB'] / 1024:.1f} MiB | {d['pipelined'][0]:,.0f} /s | {d['many'][0]:,.0f} /s |"
            if d.get("pipelined") and d.get("many") else
            f"| {label} | {n} | {fmt_time(e['readyColdSeconds'])} / {fmt_time(e['readyWarmSeconds'])} | {e['rssReadyKiB'] / 1024:.1f} MiB | "
            f"{e['rssSettledKiB'] / 1024:.1f} MiB | {(e['rssReadyKiB'] - base) / n:.2f} / {(e['rssSettledKiB'] - base) / n:.2f} KiB | "
            f"{e['rssWarmReadyKiB'] / 1024:.1f} MiB | — | — |")
    add("")
    dirty_base = results.get("baselineDirtyKiB", 0)
    add(f"Private dirty memory (`Private_Dirty` of `/proc/PID/smaps_rollup`: what the daemon itself wrote, not the mapped "
        f"index it serves from) at READY, above the empty daemon's {dirty_base / 1024:.1f} MiB (issue 29's target: at most 1 KiB "
        "per face whatever the start); each figure, the empty daemon's too, is the median of three starts:")
    add("")
    add("| corpus | faces | private dirty at READY, cold start | per face | private dirty at READY, warm start | per face |")
    add("|---|---|---|---|---|---|")
    for label, e in rows:
        if "dirtyReadyKiB" not in e:
            continue
        n = e["core"]["faces"]
        cold, warm = e["dirtyReadyKiB"] - dirty_base, e["dirtyWarmReadyKiB"] - dirty_base
        add(f"| {label} | {n} | {cold / 1024:.1f} MiB | {cold * 1024 / n:,.0f} B | {warm / 1024:.1f} MiB | {warm * 1024 / n:,.0f} B |")
    add("")
    add("### Targets")
    add("")
    add("| target | measured | |")
    add("|---|---|---|")
    generated = [(label, e) for label, e in rows if label.startswith("generated")]
    if len(generated) >= 2:
        lo, hi = generated[0][1]["core"], generated[-1][1]["core"]
        growth = hi["resolveNanoseconds"] / lo["resolveNanoseconds"]
        partial = f" up to {hi['faces']:,} faces (100,000 not in this run)"
        add(f"| resolve flat from 1,000 to 100,000 faces | {fmt_time(lo['resolveNanoseconds'] / 1e9)} at {lo['faces']:,} → "
            f"{fmt_time(hi['resolveNanoseconds'] / 1e9)} at {hi['faces']:,} faces ({growth:.2f}×) | "
            f"{'met' if growth <= 1.5 else 'missed'}{'' if hi['faces'] >= 100000 else partial} |")
    speedups = [e["core"]["fcFontMatchNanoseconds"] / e["core"]["resolveNanoseconds"] for _, e in rows]
    add(f"| in-process resolve ≥ 50× FcFontMatch | {min(speedups):.0f}× (smallest) to {max(speedups):,.0f}× | {'met' if min(speedups) >= 50 else 'missed'} |")
    largest_label, largest = rows[-1]
    n = largest["core"]["faces"]
    scope = "" if n >= 100000 else f" at {n:,} faces (100,000 not in this run)"
    add(f"| warm start to READY with 100,000 faces < 1 s | {fmt_time(largest['readyWarmSeconds'])} ({largest_label}, {n:,} faces) | "
        f"{'met' if largest['readyWarmSeconds'] < 1 else 'missed by ' + ratio(largest['readyWarmSeconds'], 1.0)}{scope} |")
    filled, ready = (largest["rssSettledKiB"] - base) / n, (largest["rssReadyKiB"] - base) / n
    add(f"| memory < 2 KiB per face (RSS) | {filled:.2f} KiB per face once idle, {ready:.2f} KiB at READY "
        f"({largest_label}, above an empty daemon) | {'met' if filled < 2 else ('missed; met at READY' if ready < 2 else 'missed')}{scope} |")
    dirty = [((max(e["dirtyReadyKiB"], e["dirtyWarmReadyKiB"]) - dirty_base) * 1024 / e["core"]["faces"], label)
             for label, e in rows if "dirtyReadyKiB" in e]
    if dirty:
        over = [label for per_face, label in dirty if per_face > 1024]
        add("| ≤ 1 KiB private dirty per face at READY, cold or warm start (issue 29) | "
            + ", ".join(f"{label} {per_face:,.0f} B" for per_face, label in dirty) + " (the worse of the two starts) | "
            + ("met" if not over else "missed on " + ", ".join(over)) + " |")
    lat = [(e["daemon"]["ratio"], label) for label, e in rows if e["daemon"].get("ratio")]
    if lat:
        worst = max(lat)
        below = [label for value, label in lat if value < 1]
        # A socket Resolve cannot beat a bare echo of the same size: a ratio below 1 is load slowing the bare timing.
        noise = (f"; below 1× on {', '.join(below)}: load slowed the bare round trip there, so that ratio is noise, not a result"
                 if below else "")
        add(f"| socket latency ≤ 1.5× a bare round trip | {min(lat)[0]:.2f}× to {worst[0]:.2f}× (p50){noise} | "
            f"{'met' if worst[0] <= 1.5 else 'missed'}{' where measured cleanly' if below else ''} |")
    rates = [(e["daemon"]["pipelined"][0], label) for label, e in rows if e["daemon"].get("pipelined")]
    if rates:
        worst = min(rates)
        add(f"| ≥ 100,000 resolves/s on 2 cores | {worst[0]:,.0f}/s at least (pipelined Resolve, {worst[1]}) | {'met' if worst[0] >= 100000 else 'missed'} |")
    for row in peer_targets(results):
        add(row)
    add("")
    add("How each figure is taken:")
    add("")
    add("- *fontreg cold / warm*: `FontRegistry(configuration:)` returns (walk, stat, read every face with FreeType, build the "
        "`FontIndex`), first with an empty cache directory, then again on the same directory, where the first build wrote its index "
        "file (`index.snapshot`), which a warm start maps, `stat`ing the recorded directories and files and reading none "
        "(the `faces.cache` of earlier runs is gone since issue 13). "
        "*fontreg + its fontconfig view*: until the registry's private fontconfig configuration also holds every file (built when "
        "something first asks for it, here the benchmark right after the build; resolution never waits for it). *fontconfig*: `FcConfigAppFontAddDir` on a fresh configuration with an empty "
        "cache directory, then again with that cache. *matplotlib*: `FontManager.addfont` for each file (its own JSON cache is for "
        "the system list only).")
    add("- *fontreg in process*: `Resolver.resolve` over 2,000 distinct queries (family × nine weights × upright/italic, a third "
        "with Bold Text), cycled for at least the benchmark's time, trace included; the figure is the median round's cost per call. *FcFontMatch*: the same queries as prepared "
        "patterns (`FcConfigSubstitute` + `FcDefaultSubstitute` beforehand), only `FcFontMatch` timed in slices of 16 calls, stopped after the same time "
        "(on 100,000 faces a few dozen calls), the median slice's cost per call. *matplotlib findfont*: `findfont(FontProperties(family, weight, style), "
        "fallback_to_default=False)` on a `FontManager` holding exactly the corpus files, the same queries (Bold Text is not a "
        "matplotlib notion: the asked weight); its `lru_cache` is **cleared before every call**, so each call scores the list "
        "as a first query would; the figure is the median call.")
    add("- *socket*: `fontregd-bench` against `fontregd --no-system-fonts --watch no` on the corpus: `Resolve` one call at a time "
        "on one connection (queries of the corpus's first family, cycled, so replies come from the daemon's reply cache after the "
        "first round), and a bare Unix-socket echo of the same size between two processes in the same run; three runs, the median shown. Throughput: 4 "
        "connections, 64 calls per write, clients on the same 2 cores. `fc-match` uses the system configuration (one process per query).")
    add("- *start to READY*: from `fork`/`exec` of `fontregd` to the `READY=1` datagram on a `NOTIFY_SOCKET` owned by the benchmark; "
        "cold = empty `--cache-dir`, warm = the same directory again. *RSS*: `VmRSS` of `/proc/PID/status` at READY, and once the "
        "daemon has used no CPU for a second, minus the empty daemon's; since 2026-12-01 the daemon builds its private fontconfig "
        "view only when asked for one, so neither figure holds it (the core table's \"fontreg + its fontconfig view\" is the "
        "library in process, building it).")
    for table in results.get("tables", []):
        add("")
        add(f"### {table['title']}")
        add("")
        add(table["text"])
    add("<!-- bench-all:end -->")
    section = "\n".join(out)
    text = open(path).read() if os.path.exists(path) else "# Benchmarks\n\n"
    pattern = re.compile(r"<!-- bench-all:start -->.*?<!-- bench-all:end -->", re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: section, text)
    else:
        # After the introduction, before the older per-issue sections.
        marker = text.find("<!--")
        text = (text[:marker] + section + "\n\n" + text[marker:]) if marker >= 0 else text.rstrip() + "\n\n" + section + "\n"
    with open(path, "w") as handle:
        handle.write(text)
    log(f"wrote {path}")


if __name__ == "__main__":
    main()
