#!/usr/bin/env python3
"""Font-file fuzzer: mutated and truncated real fonts fed to the scanner, through the daemon
and through `fontresolve --fonts DIR`.

Seeds are the repository's fixture fonts (TrueType, CFF, collection, variable, colour,
WOFF, WOFF2) and the bundled Lato and Inter. Each mutant is made from a seed (reproducibly,
from --seed) by one or more of: truncation, bit flips, random bytes over a region, and
structure-aware damage to the sfnt table directory and to the tables FreeType reads for
names and weights (`name`, `OS/2`, `head`, `fvar`, `cmap`, `CFF `, `maxp`, `hhea`, `STAT`):
lengths and offsets set to 0, to 0xFFFFFFFF or past the end, counts made huge, tables
filled with random bytes or swapped between fonts.

Per batch the mutants go into a fresh directory inside the daemon's allowed root, with two
untouched control fonts, and the directory is registered with the real fontregd. Then:

- the daemon is still up and answers the known Resolve calls correctly,
- every mutant is accounted for: its faces were added, or it is listed under `problems`
  with a reason ("reported unreadable"); the control fonts' faces are added and resolvable,
- single mutants registered as files get either faces or `InvalidFontData` with a reason,
- `fontresolve status --fonts BATCHDIR --json` over the same directory exits 0 (no signal)
  and lists every file it could not read.

The directory is unregistered after each batch. FreeType runs in the daemon's sandboxed
parsing workers (issue 15: `fontregd --parse-worker`, seccomp, `nobody`, resource limits),
handed each file as a descriptor; the run checks that the workers are confined while the
first batch is parsed (their /proc status: Seccomp 2, NoNewPrivs 1) and counts the files a worker crashed, hung or was
killed on ("the font parser …"): each must be reported, the daemon must stay up. `fontresolve
--fonts` parses in process (the embedded library), so a FreeType crash would show there as
a signal.

    Tests/reliability/font_fuzz.py --count 2000 --seconds 120 --seed 1
"""

import argparse
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import fontregd_harness as h  # noqa: E402

I = h.IFACE
INTERESTING_TABLES = [b"name", b"OS/2", b"head", b"fvar", b"cmap", b"CFF ", b"maxp", b"hhea", b"STAT", b"avar", b"post",
                      b"glyf", b"loca", b"COLR", b"CPAL", b"gvar", b"hmtx"]


def sandboxed_workers(pid):
    """The daemon's child processes that run under a seccomp filter with no new privileges."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as f:
                status = f.read()
        except OSError:
            continue
        if f"\nPPid:\t{pid}\n" in status and "\nSeccomp:\t2\n" in status and "\nNoNewPrivs:\t1\n" in status:
            found.append(int(entry))
    return found


class WorkerSampler:
    """Samples the daemon's confined workers every 2 ms while a call runs (they live one scan)."""

    def __init__(self, pid):
        import threading
        self.pid, self.seen, self.done = pid, set(), threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.done.is_set():
            self.seen.update(sandboxed_workers(self.pid))
            time.sleep(0.002)

    def stop(self):
        self.done.set()
        self.thread.join()


def seeds():
    found = []
    for base in (h.FIXTURE_FONTS, h.REAL_FONTS):
        for root, _, files in os.walk(base):
            if os.sep + "bad" in root:
                continue
            for name in sorted(files):
                if name.lower().endswith((".ttf", ".otf", ".ttc", ".woff", ".woff2")):
                    found.append(os.path.join(root, name))
    return found


def table_directory(data):
    """[(index of the record, tag, offset, length)] of an sfnt's first font, or [] when not sfnt."""
    if len(data) < 12:
        return []
    start = 0
    if data[:4] == b"ttcf" and len(data) >= 16:
        start = struct.unpack(">I", data[12:16])[0]
        if start + 12 > len(data):
            return []
    num = struct.unpack(">H", data[start + 4:start + 6])[0]
    records = []
    for i in range(min(num, 64)):
        p = start + 12 + 16 * i
        if p + 16 > len(data):
            break
        tag, _, off, length = struct.unpack(">4sIII", data[p:p + 16])
        records.append((p, tag, off, length))
    return records


class Mutator:
    def __init__(self, rng, pool):
        self.r = rng
        self.pool = pool

    def mutate(self, data):
        data = bytearray(data)
        ops = []
        for _ in range(self.r.choice([1, 1, 1, 2, 3, 5])):
            op = self.r.choice(["truncate", "flip", "random_region", "directory", "table", "table", "count", "splice", "zero"])
            ops.append(op)
            getattr(self, op)(data)
            if not data:
                break
        return bytes(data), ops

    def truncate(self, d):
        cut = self.r.choice([0, 1, 4, 11, 12, 13, 100, self.r.randrange(max(1, len(d)))])
        del d[cut:]

    def flip(self, d):
        for _ in range(self.r.choice([1, 2, 8, 64])):
            if d:
                d[self.r.randrange(len(d))] ^= 1 << self.r.randrange(8)

    def random_region(self, d):
        if not d:
            return
        p = self.r.randrange(len(d))
        n = min(len(d) - p, self.r.choice([1, 4, 16, 256, 4096]))
        d[p:p + n] = os.urandom(n)

    def zero(self, d):
        if not d:
            return
        p = self.r.randrange(len(d))
        n = min(len(d) - p, self.r.choice([2, 4, 64, 1024]))
        d[p:p + n] = bytes(n)

    def evil32(self, length):
        return self.r.choice([0, 1, 0x7FFFFFFF, 0xFFFFFFFF, 0x80000000, length, length + 1, length * 2, self.r.randrange(1 << 32)])

    def directory(self, d):
        records = table_directory(d)
        if not records:
            return self.flip(d)
        p, tag, off, length = self.r.choice(records)
        field = self.r.choice(["offset", "length", "tag", "both"])
        if field in ("offset", "both"):
            d[p + 8:p + 12] = struct.pack(">I", self.evil32(len(d)))
        if field in ("length", "both"):
            d[p + 12:p + 16] = struct.pack(">I", self.evil32(len(d)))
        if field == "tag":
            d[p:p + 4] = self.r.choice(INTERESTING_TABLES)

    def table(self, d):
        """Damages the inside of a table FreeType reads for names and weights."""
        records = [r for r in table_directory(d) if r[1] in INTERESTING_TABLES and r[2] < len(d)]
        if not records:
            return self.random_region(d)
        _, tag, off, length = self.r.choice(records)
        end = min(len(d), off + length)
        if end <= off:
            return
        how = self.r.randint(0, 3)
        if how == 0:  # 16-bit counts and offsets at the start of the table made huge
            for q in range(off, min(end, off + 24), 2):
                if self.r.random() < 0.4:
                    d[q:q + 2] = struct.pack(">H", self.r.choice([0, 1, 0x7FFF, 0xFFFF]))
        elif how == 1:
            d[off:end] = os.urandom(end - off)
        elif how == 2:
            for _ in range(16):
                q = self.r.randrange(off, end)
                d[q] = self.r.randrange(256)
        else:
            del d[off + self.r.randrange(end - off + 1):end]

    def count(self, d):
        if len(d) >= 6:
            start = struct.unpack(">I", d[12:16])[0] if d[:4] == b"ttcf" and len(d) >= 16 else 0
            if d[:4] == b"ttcf" and self.r.random() < 0.5:
                d[8:12] = struct.pack(">I", self.r.choice([0, 2, 0xFFFF, 0xFFFFFFFF]))  # numFonts
            elif start + 6 <= len(d):
                d[start + 4:start + 6] = struct.pack(">H", self.r.choice([0, 1, 0x7FFF, 0xFFFF]))

    def splice(self, d):
        """Replaces a table with the same table of another font."""
        other = self.r.choice(self.pool)
        mine = table_directory(d)
        theirs = {t: (o, l) for _, t, o, l in table_directory(other)}
        common = [r for r in mine if r[1] in theirs]
        if not common:
            return self.flip(d)
        p, tag, off, length = self.r.choice(common)
        o, l = theirs[tag]
        piece = other[o:o + l]
        if off <= len(d):
            d[off:off + length] = piece
            d[p + 12:p + 16] = struct.pack(">I", len(piece))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--count", type=int, default=1000, help="mutated fonts to try (default 1000)")
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--batch", type=int, default=40, help="mutants per registered directory")
    p.add_argument("--cli-every", type=int, default=5, help="run fontresolve --fonts on every Nth batch")
    p.add_argument("--artifacts", default=os.path.join(h.ROOT, ".build", "reliability"))
    args = p.parse_args()
    rng = random.Random(args.seed)
    seed_paths = seeds()
    pool = [open(s, "rb").read() for s in seed_paths]
    mutator = Mutator(rng, pool)
    work = tempfile.mkdtemp(prefix="fontreg-fontfuzz-")
    os.chmod(work, 0o755)
    allowed = os.path.join(work, "allowed")
    os.makedirs(allowed)
    control = os.path.join(h.FIXTURE_FONTS, "families", "FixtureSans-Bold.otf")
    daemon = h.Daemon(extra=["--allow-root", allowed])
    failures = []
    stats = {"mutants": 0, "served": 0, "unreadable": 0, "single_files": 0, "single_invalid": 0, "single_served": 0,
             "cli_runs": 0, "batches": 0}
    reasons = {}
    started = time.monotonic()
    base_rss = daemon.rss_kib()
    batch_no = 0
    confined = set()
    try:
        conn = daemon.connect(timeout=120)
        while stats["mutants"] < args.count and time.monotonic() - started < args.seconds and not failures:
            batch_no += 1
            bdir = os.path.join(allowed, f"batch{batch_no:05d}")
            os.makedirs(bdir)
            made = {}
            for i in range(min(args.batch, args.count - stats["mutants"])):
                k = rng.randrange(len(pool))
                data, ops = mutator.mutate(pool[k])
                ext = os.path.splitext(seed_paths[k])[1]
                path = os.path.join(bdir, f"m{i:03d}{ext}")
                with open(path, "wb") as f:
                    f.write(data)
                made[path] = (seed_paths[k], ops)
            for j in range(2):
                shutil.copy(control, os.path.join(bdir, f"control{j}.otf"))
            stats["mutants"] += len(made)
            # Workers live one scan; on a busy machine a scan can end between two samples, so every
            # batch is sampled until one confined worker has been seen.
            sampler = WorkerSampler(daemon.proc.pid) if not confined else None
            reply = conn.call(f"{I}.Register", paths=[bdir])
            if sampler:
                sampler.stop()
            if not daemon.alive():
                failures.append(f"fontregd died registering batch {batch_no}")
                break
            if "error" in reply:
                failures.append(f"Register of batch {batch_no} failed: {reply}")
                break
            if sampler:
                confined |= sampler.seen
                stats["workers"] = len(confined)
            added_files = {f["file"] for f in reply["parameters"]["added"]}
            problems = {pr["path"]: pr["reason"] for pr in reply["parameters"]["problems"]}
            for j in range(2):
                if os.path.join(bdir, f"control{j}.otf") not in added_files:
                    failures.append(f"batch {batch_no}: an untouched control font was not served")
            for path in made:
                if path in added_files:
                    stats["served"] += 1
                elif path in problems:
                    stats["unreadable"] += 1
                    key = problems[path].split("(")[0].strip()[:60]
                    reasons[key] = reasons.get(key, 0) + 1
                    if problems[path].startswith("the font parser"):
                        stats["parser_failures"] = stats.get("parser_failures", 0) + 1
                else:
                    # A mutant can keep the PostScript name of a face already registered: then it is in neither list.
                    faces = conn.call(f"{I}.ListFaces")["parameters"]["faces"]
                    if any(f["file"] == path for f in faces):
                        stats["served"] += 1
                    else:
                        failures.append(f"batch {batch_no}: {path} neither served nor reported unreadable")
            # A few mutants on their own, as single files: faces, or InvalidFontData with a reason.
            for path in rng.sample(sorted(made), min(3, len(made))):
                single = os.path.join(allowed, f"single-{batch_no}-{os.path.basename(path)}")
                shutil.copy(path, single)
                r = conn.call(f"{I}.Register", paths=[single])
                stats["single_files"] += 1
                if r.get("error") == f"{I}.InvalidFontData":
                    stats["single_invalid"] += 1
                    if not r["parameters"].get("reason"):
                        failures.append(f"InvalidFontData without a reason for {single}")
                elif "error" in r:
                    failures.append(f"single mutant {single}: unexpected {r}")
                else:
                    stats["single_served"] += 1
                    conn.call(f"{I}.Unregister", paths=[single])
            # The scanner in the client, over the same directory, without a daemon.
            if batch_no % args.cli_every == 1 or args.cli_every == 1:
                stats["cli_runs"] += 1
                r = subprocess.run([h.binary("fontresolve"), "status", "--fonts", bdir, "--json"], capture_output=True, timeout=300,
                                   env=dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cli-cache")))
                if r.returncode < 0 or r.returncode >= 128:
                    failures.append(f"fontresolve status --fonts {bdir} died with {r.returncode}: {r.stderr[-1000:]!r}")
                else:
                    status = json.loads(r.stdout)
                    listed = {pr["path"] for pr in status["problems"]}
                    for path in problems:
                        if path not in listed:
                            failures.append(f"fontresolve did not report {path} unreadable (the daemon did)")
            # While the batch is registered a mutant may legitimately claim a fixture's family and
            # PostScript name, so only liveness is checked here; exact answers once it is gone.
            r = conn.call(f"{I}.Resolve", family="Fixture Sans", weight="bold")
            if "postscriptName" not in r.get("parameters", {}):
                failures.append(f"Resolve with batch {batch_no} registered: {r}")
            r = conn.call(f"{I}.Unregister", paths=[bdir])
            if "error" in r:
                failures.append(f"Unregister of batch {batch_no}: {r}")
            h.check_resolves(daemon)
            stats["batches"] += 1
            if failures:
                os.makedirs(args.artifacts, exist_ok=True)
                kept = os.path.join(args.artifacts, f"font-fuzz-batch-{args.seed}-{batch_no}")
                shutil.copytree(bdir, kept, dirs_exist_ok=True)
                failures.append(f"the batch's files are kept in {kept}")
            else:
                shutil.rmtree(bdir, ignore_errors=True)
        time.sleep(2)  # fontconfig reads accepted files on a background queue: give it time to crash, if it would
        if not daemon.alive():
            failures.append(f"fontregd died (status {daemon.proc.returncode}):\n{daemon.log()[-3000:]}")
        else:
            h.check_resolves(daemon)
        elapsed = time.monotonic() - started
        h.log(f"font fuzz: seed {args.seed}, {stats['mutants']} mutants of {len(seed_paths)} seed fonts in {stats['batches']} "
              f"registered directories, {elapsed:.0f} s; {stats['served']} still readable and served, {stats['unreadable']} "
              f"reported unreadable; {stats['single_files']} registered as single files ({stats['single_invalid']} "
              f"InvalidFontData, {stats['single_served']} served); {stats['cli_runs']} fontresolve --fonts runs; "
              f"RSS {base_rss / 1024:.1f} -> {daemon.rss_kib() / 1024:.1f} MiB; {stats.get('workers', 0)} confined "
              f"parsing workers, {stats.get('parser_failures', 0)} files a worker crashed, hung or was stopped on")
        h.log("  reasons: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1])[:8]))
        # A short run can end before a sample caught a worker: scan a few more fresh folders, sampled.
        for extra in range(5):
            if confined or not daemon.alive():
                break
            edir = os.path.join(allowed, f"confinement{extra}")
            os.makedirs(edir)
            for j, seed in enumerate(seed_paths[:40]):
                shutil.copy(seed, os.path.join(edir, f"s{j:03d}{os.path.splitext(seed)[1]}"))
            sampler = WorkerSampler(daemon.proc.pid)
            conn.call(f"{I}.Register", paths=[edir])
            sampler.stop()
            confined |= sampler.seen
            stats["workers"] = len(confined)
        if not confined:
            failures.append("no confined parsing worker (Seccomp: 2, NoNewPrivs: 1) under the daemon in any scan")
        failures += daemon.sanitizer_findings()
    except Exception as e:  # noqa: BLE001 - reported with the seed that reproduces it
        failures.append(f"seed {args.seed}, batch {batch_no}: {e!r}"[:2000])
    finally:
        daemon.close()
        shutil.rmtree(work, ignore_errors=True)
    for f in failures[:20]:
        h.log("FAIL: " + f)
    h.log(f"font fuzz: {'FAILED' if failures else 'passed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
