#!/usr/bin/env python3
"""Memory soak (issue 13): the release fontregd on a generated corpus under mixed queries for a
while, its memory sampled from /proc/PID/smaps_rollup, and a failure if it grows without bound.

    python3 Tests/reliability/memory_soak.py [--minutes M] [--faces N] [--connections C]
    scripts/reliability.sh --only soak          (SOAK_MINUTES, default 2; docs/reliability.md)

The daemon (FONTREG_BUILD_DIR, default .build/release) starts with an empty cache on a corpus
of N generated faces (scripts/make-corpus.py, shared under /tmp/fontreg-corpus-N and made under
/tmp/corpus-N.lock when missing). READY is the `READY=1` datagram on a NOTIFY_SOCKET this
script owns. Then C connections send a random mix for M minutes: Resolve (known and unknown
families, every weight, italic/oblique, Bold Text, widths), ResolveMany (50 queries), ListFamilies,
ListFaces (one family, now and then all), GetFace, Candidates, ResolveText (with explain now and
then, the "Explain" of the issue), FaceCoverage, and Rescan about once a minute. Every answer must
come back without a Varlink error other than the expected ones (an unknown family in strict mode),
and the known Resolve answers must stay right.

Private_Dirty, Private_Clean, Shared_Clean, Rss and Pss are sampled every few seconds. Reported:
each at READY and at the end, per face, and the peak. The run fails when Private_Dirty at the end
exceeds twice READY's plus the slack (--slack-mib, 16 MiB by default: the one-time caches a
first ResolveText or fallback fills), or when the last quarter of the run still grows by more than
--tail-growth-mib (a leak shows there; caches filled early do not).
"""
import argparse
import fcntl
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from fontregd_harness import IFACE, unix_connect  # noqa: E402

FIELDS = ("Rss", "Pss", "Private_Dirty", "Private_Clean", "Shared_Clean", "Anonymous")


def log(message):
    print(f"soak: {message}", flush=True)


def smaps(pid):
    """The fields of /proc/PID/smaps_rollup, KiB."""
    values = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and parts[0].rstrip(":") in FIELDS:
                values[parts[0].rstrip(":")] = int(parts[1])
    return values


def corpus(faces):
    """The generated corpus of `faces` faces, made (under the shared lock) when it is missing."""
    path = f"/tmp/fontreg-corpus-{faces}"
    with open(f"/tmp/corpus-{faces}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        complete = os.path.exists(os.path.join(path, ".complete"))
        if not complete and os.path.isdir(path):
            count = sum(len([n for n in names if n.endswith(".ttf")]) for _, _, names in os.walk(path))
            complete = count >= faces
        if not complete:
            python = subprocess.run(["bash", os.path.join(ROOT, "scripts", "venv.sh")], capture_output=True,
                                    text=True, check=True).stdout.strip()
            log(f"generating {faces} faces in {path}")
            subprocess.run([python, os.path.join(ROOT, "scripts", "make-corpus.py"), str(faces), path], check=True)
            open(os.path.join(path, ".complete"), "w").close()
    return path


class Daemon:
    """The release fontregd with an empty cache, its READY read from our own NOTIFY_SOCKET."""

    def __init__(self, fonts, work):
        build = os.environ.get("FONTREG_BUILD_DIR", os.path.join(ROOT, ".build", "release"))
        binary = os.path.join(build, "fontregd")
        if not os.access(binary, os.X_OK):
            sys.exit(f"{binary} is missing: run `swift build -c release --product fontregd` first")
        self.socket_path = os.path.join(work, "fontregd.sock")
        notify_path = os.path.join(work, "notify")
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(notify_path)
        config = os.path.join(work, "fontregd.conf")
        open(config, "w").close()
        self.log_path = os.path.join(work, "fontregd.log")
        arguments = [binary, "--socket", self.socket_path, "--no-system-fonts", "--watch", "no",
                     "--state-dir", os.path.join(work, "state"), "--cache-dir", os.path.join(work, "cache"),
                     "--config", config, "--fonts", fonts]
        with open(self.log_path, "w") as out:
            started = time.monotonic()
            self.process = subprocess.Popen(arguments, env=dict(os.environ, NOTIFY_SOCKET=notify_path),
                                            stdout=out, stderr=out, stdin=subprocess.DEVNULL)
        self.notify.settimeout(900)
        while "READY=1" not in self.notify.recv(4096).decode().split("\n"):
            pass
        self.ready_seconds = time.monotonic() - started

    def stop(self):
        self.process.terminate()
        try:
            return self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


class Client:
    """One connection sending a random mix of calls until told to stop."""

    TEXTS = ["Hello, world", "Grüße aus Köln", "Ωμέγα and ASCII", "你好，世界", "mixed 123 !?", "emoji 🙂 text"]

    def __init__(self, daemon, families, seed, stop, rescan):
        self.daemon, self.families, self.stop, self.rescan = daemon, families, stop, rescan
        self.random = random.Random(seed)
        self.calls, self.errors, self.wrong = 0, [], 0
        self.sock = unix_connect(daemon.socket_path, 30)
        self.sock.settimeout(120)
        self.buffer = b""

    def call(self, method, **parameters):
        self.sock.sendall(json.dumps({"method": f"{IFACE}.{method}", "parameters": parameters}).encode() + b"\0")
        while b"\0" not in self.buffer:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError(f"the daemon closed the connection on {method}")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        self.calls += 1
        reply = json.loads(message)
        error = reply.get("error")
        if error and not error.endswith(("FamilyNotFound", "FaceNotFound")):
            self.errors.append(f"{method} {parameters}: {error} {reply.get('parameters')}")
        return reply

    def query(self):
        r = self.random
        family = r.choice(self.families) if r.random() < 0.9 else f"Unknown Family {r.randrange(1 << 30)}"
        query = {"family": family, "weight": str(r.choice(range(100, 1000, 50)))}
        kind = r.random()
        if kind < 0.3:
            query["italic"] = True
        elif kind < 0.4:
            query["style"] = "oblique 10deg"
        if r.random() < 0.2:
            query["boldText"] = True
            query["boldPolicy"] = r.choice(["next-heavier", "ios-system", "android", "css-bolder"])
        if r.random() < 0.1:
            query["width"] = r.choice(["condensed", "75%", "expanded"])
        if r.random() < 0.1:
            query["strict"] = True
        return query

    def run(self):
        try:
            while not self.stop.is_set():
                self.one()
        except Exception as error:  # noqa: BLE001 - reported as the run's failure
            self.errors.append(f"{type(error).__name__}: {error}")

    def one(self):
        r = self.random
        if self.rescan.acquire(blocking=False):
            self.call("Rescan")
            return
        pick = r.random()
        if pick < 0.40:
            query = self.query()
            reply = self.call("Resolve", **query)
            family = query["family"]
            if family == self.families[0] and query["weight"] == "700" and len(query) == 2:
                if reply.get("parameters", {}).get("postscriptName") != family.replace(" ", "") + "-Bold":
                    self.wrong += 1
        elif pick < 0.55:
            self.call("ResolveMany", queries=[self.query() for _ in range(50)])
        elif pick < 0.63:
            self.call("Candidates", **self.query())
        elif pick < 0.71:
            family = r.choice(self.families)
            self.call("GetFace", postscriptName=family.replace(" ", "") + "-" + r.choice(["Regular", "Bold", "Thin"]))
        elif pick < 0.79:
            self.call("ResolveText", text=r.choice(self.TEXTS), families=[r.choice(self.families), "Unknown"],
                      explain=r.random() < 0.3, weight=str(r.choice(range(100, 1000, 100))))
        elif pick < 0.84:
            family = r.choice(self.families)
            self.call("FaceCoverage", postscriptName=family.replace(" ", "") + "-Regular", text=r.choice(self.TEXTS))
        elif pick < 0.93:
            self.call("ListFaces", family=r.choice(self.families))
        elif pick < 0.995:
            self.call("ListFamilies")
        else:
            self.call("ListFaces")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=float(os.environ.get("SOAK_MINUTES", "2")))
    parser.add_argument("--faces", type=int, default=10000)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--sample-seconds", type=float, default=5)
    parser.add_argument("--rescan-seconds", type=float, default=60)
    parser.add_argument("--slack-mib", type=float, default=16)
    parser.add_argument("--tail-growth-mib", type=float, default=4)
    parser.add_argument("--seed", type=int, default=random.randrange(1 << 30))
    arguments = parser.parse_args()

    fonts = corpus(arguments.faces)
    work = tempfile.mkdtemp(prefix="fontreg-soak-")
    log(f"seed {arguments.seed}; {arguments.faces} faces in {fonts}; {arguments.connections} connections, "
        f"{arguments.minutes:g} min; work directory {work}")
    daemon = Daemon(fonts, work)
    pid = daemon.process.pid
    ready = smaps(pid)
    faces = arguments.faces
    log(f"READY after {daemon.ready_seconds:.2f} s: " + describe(ready, faces))

    families = sorted({f"Corpus {n:05d}" for n in range(1, (faces + 17) // 18 + 1)})
    stop, rescan = threading.Event(), threading.Semaphore(0)
    clients = [Client(daemon, families, arguments.seed + i, stop, rescan) for i in range(arguments.connections)]
    threads = [threading.Thread(target=c.run, daemon=True) for c in clients]
    for thread in threads:
        thread.start()
    samples = [(0.0, ready)]
    started = time.monotonic()
    end = started + arguments.minutes * 60
    next_rescan = started + arguments.rescan_seconds
    next_report = started + 60
    failure = None
    while time.monotonic() < end:
        time.sleep(arguments.sample_seconds)
        now = time.monotonic()
        if daemon.process.poll() is not None:
            failure = f"fontregd exited with {daemon.process.returncode}; see {daemon.log_path}"
            break
        samples.append((now - started, smaps(pid)))
        if now >= next_rescan:
            rescan.release()
            next_rescan += arguments.rescan_seconds
        if now >= next_report:
            calls = sum(c.calls for c in clients)
            log(f"{(now - started) / 60:.0f} min, {calls} calls: " + describe(samples[-1][1], faces))
            next_report += 60
        if any(c.errors for c in clients):
            break
    stop.set()
    for thread in threads:
        thread.join(timeout=180)
    final = smaps(pid) if daemon.process.poll() is None else samples[-1][1]
    samples.append((time.monotonic() - started, final))
    status = daemon.stop()

    calls = sum(c.calls for c in clients)
    elapsed = samples[-1][0]
    peak = max(s[1]["Private_Dirty"] for s in samples)
    tail_start = [s for s in samples if s[0] >= elapsed * 0.75][0][1]
    tail_growth = final["Private_Dirty"] - tail_start["Private_Dirty"]
    log(f"{calls} calls in {elapsed:.0f} s ({calls / max(elapsed, 1):.0f}/s) on {arguments.connections} connections")
    log("at READY: " + describe(ready, faces))
    log("at the end: " + describe(final, faces))
    log(f"Private_Dirty peak {peak} KiB; growth over the last quarter {tail_growth:+d} KiB; "
        f"end ÷ READY {final['Private_Dirty'] / max(1, ready['Private_Dirty']):.2f}")
    errors = [e for c in clients for e in c.errors]
    wrong = sum(c.wrong for c in clients)
    limit = 2 * ready["Private_Dirty"] + arguments.slack_mib * 1024
    if failure is None and errors:
        failure = f"{len(errors)} calls failed, first: {errors[0]}"
    if failure is None and wrong:
        failure = f"{wrong} Resolve answers were wrong"
    if failure is None and final["Private_Dirty"] > limit:
        failure = f"Private_Dirty grew to {final['Private_Dirty']} KiB, over 2 × READY + slack = {limit:.0f} KiB"
    if failure is None and tail_growth > arguments.tail_growth_mib * 1024:
        failure = f"Private_Dirty still grew by {tail_growth} KiB over the last quarter of the run (a leak?)"
    if failure is None and status != 0:
        failure = f"fontregd exited with status {status} on SIGTERM"
    if failure:
        log(f"FAILED: {failure}")
        sys.exit(1)
    log("passed: memory stays bounded under mixed queries")


def describe(values, faces):
    per_face = {k: values[k] * 1024 / faces for k in ("Private_Dirty", "Rss")}
    return (f"Private_Dirty {values['Private_Dirty']} KiB ({per_face['Private_Dirty']:.0f} B/face), "
            f"Rss {values['Rss']} KiB ({per_face['Rss']:.0f} B/face), Pss {values['Pss']} KiB, "
            f"Private_Clean {values['Private_Clean']} KiB, Shared_Clean {values['Shared_Clean']} KiB, "
            f"Anonymous {values['Anonymous']} KiB")


if __name__ == "__main__":
    main()
