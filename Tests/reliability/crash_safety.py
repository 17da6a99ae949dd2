#!/usr/bin/env python3
"""Crash safety: persistent registrations survive `kill -9` at random moments.

Each round starts the real fontregd on the same state directory, lets one or more clients
issue `Register … persist` and `Unregister` calls (over raw Varlink, and every few rounds
with `fontresolve register --persist`), and sends SIGKILL at a random moment: while the
daemon starts, between calls, or while a registration is being scanned and written. Then:

- the state file (`registrations.json`) is valid JSON of the documented shape,
- the daemon restarts, and every registration it acknowledged is there (and every
  acknowledged unregistration is gone); calls that were in flight may have gone either way,
- the registered faces are served (a Resolve of the family answers from a registered file).

    Tests/reliability/crash_safety.py --rounds 100 --seed 1

Exit status 0 when every round held.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
import fontregd_harness as h  # noqa: E402

I = h.IFACE
FONT = os.path.join(h.FIXTURE_FONTS, "families", "FixtureSans-Regular.otf")


def read_state(path):
    """The persisted paths; raises when the file is not what the daemon documents."""
    if not os.path.exists(path):
        return []
    with open(path, "rb") as f:
        data = f.read()
    value = json.loads(data)
    if value.get("version") != 1 or not isinstance(value.get("paths"), list) or not all(isinstance(p, str) for p in value["paths"]):
        raise AssertionError(f"state file has the wrong shape: {data[:300]!r}")
    return value["paths"]


class Client(threading.Thread):
    """Issues persistent registrations and unregistrations until the daemon dies."""

    def __init__(self, daemon, rng, model, lock, use_cli):
        super().__init__(daemon=True)
        self.d, self.rng, self.model, self.lock, self.use_cli = daemon, rng, model, lock, use_cli
        self.acked = 0

    def run(self):
        try:
            conn = self.d.connect(timeout=30)
        except OSError:
            return
        while True:
            with self.lock:
                present = [p for p, s in self.model.items() if s == "present"]
                absent = [p for p, s in self.model.items() if s == "absent"]
                register = absent and (not present or self.rng.random() < 0.7)
                if not present and not absent:
                    return
                path = self.rng.choice(absent if register else present)
                self.model[path] = "uncertain"
            try:
                if register and self.use_cli and self.rng.random() < 0.5:
                    r = subprocess.run([h.binary("fontresolve"), "--socket", self.d.socket_path, "register", path, "--persist"],
                                       capture_output=True, timeout=60)
                    ok = r.returncode == 0
                    if not ok and r.returncode not in (69, 1):
                        raise AssertionError(f"fontresolve register exited {r.returncode}: {r.stderr[-500:]!r}")
                else:
                    method = "Register" if register else "Unregister"
                    params = {"paths": [path], "persist": True} if register else {"paths": [path]}
                    reply = conn.call(f"{I}.{method}", **params)
                    if "error" in reply:
                        raise AssertionError(f"{method} {path}: {reply}")
                    ok = True
            except (OSError, ConnectionError, ValueError):
                return  # the daemon was killed mid-call: this one stays uncertain
            with self.lock:
                if ok:
                    self.model[path] = "present" if register else "absent"
                    self.acked += 1
                else:
                    return


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=50)
    p.add_argument("--seconds", type=float, default=300, help="stop starting new rounds after this long")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--paths", type=int, default=60, help="distinct font directories to register")
    p.add_argument("--clients", type=int, default=2)
    args = p.parse_args()
    rng = random.Random(args.seed)

    work = tempfile.mkdtemp(prefix="fontreg-crash-")
    os.chmod(work, 0o755)
    allowed = os.path.join(work, "allowed")
    paths = []
    for i in range(args.paths):
        d = os.path.join(allowed, f"d{i:03d}")
        os.makedirs(d)
        shutil.copy(FONT, os.path.join(d, f"Crash{i:03d}.otf"))
        paths.append(d)
    model = {path: "absent" for path in paths}
    state_file = os.path.join(work, "state", "registrations.json")
    failures = []
    acked_total = uncertain_total = rounds = killed_before_serving = 0
    started = time.monotonic()
    try:
        for n in range(args.rounds + 1):
            last = n == args.rounds or time.monotonic() - started > args.seconds
            rounds += 0 if last else 1
            daemon = h.Daemon(extra=["--allow-root", allowed], fonts=[os.path.join(h.FIXTURE_FONTS, "families")],
                              directory=work, keep_dir=True)
            # Before anything else: the previous round's acknowledged registrations are all here.
            c = daemon.connect()
            registered = set(c.call(f"{I}.GetStatus")["parameters"]["registeredPaths"])
            for path, s in model.items():
                if s == "present" and path not in registered:
                    failures.append(f"round {n}: acknowledged registration {path} lost after kill -9")
                elif s == "absent" and path in registered:
                    failures.append(f"round {n}: acknowledged unregistration of {path} undone after kill -9")
                elif s == "uncertain":
                    model[path] = "present" if path in registered else "absent"
            present = [pth for pth, s in model.items() if s == "present"]
            if present:
                sample = rng.choice(present)
                reply = c.call(f"{I}.ListFaces", family="Fixture Sans")
                # Every registered directory holds a copy of one face: one copy is served, the others
                # are listed as the duplicates that lost (docs/matching.md), never silently dropped.
                files = {f["file"] for f in reply["parameters"]["faces"]}
                for group in reply["parameters"].get("duplicates", []):
                    files |= {m["file"] for m in [group["winner"], *group["losers"]]}
                if not any(f.startswith(sample + "/") for f in files):
                    failures.append(f"round {n}: {sample} is registered but its face is neither served nor listed")
            c.close()
            h.check_resolves(daemon)
            if last:  # the last restart only checks what the last kill left
                daemon.stop()
                failures += daemon.sanitizer_findings()
                break
            # This round: clients register and unregister, and the daemon is killed at a random moment.
            lock = threading.Lock()
            clients = [Client(daemon, random.Random(rng.random()), model, lock, use_cli=(n % 5 == 0)) for _ in range(args.clients)]
            for cl in clients:
                cl.start()
            time.sleep(rng.choice([0, 0.001, 0.01, 0.05]) + rng.random() * 0.4)
            daemon.kill9()
            for cl in clients:
                cl.join(timeout=60)
            acked_total += sum(cl.acked for cl in clients)
            uncertain_total += sum(1 for s in model.values() if s == "uncertain")
            try:
                read_state(state_file)
            except Exception as e:  # noqa: BLE001
                failures.append(f"round {n}: state file invalid after kill -9: {e}")
            # Sometimes also kill during start-up, while the state file is being read.
            if rng.random() < 0.2:
                daemon.start(wait=False)
                time.sleep(rng.random() * 0.2)
                daemon.kill9()
                killed_before_serving += 1
            if failures:
                break
        present = sum(1 for s in model.values() if s == "present")
        h.log(f"crash safety: {rounds} rounds of kill -9 ({killed_before_serving} more during start-up), "
              f"{acked_total} acknowledged changes checked after restart, {uncertain_total} in flight when killed; "
              f"{present} paths registered at the end; state file valid every time")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for f in failures[:20]:
        h.log("FAIL: " + f)
    h.log(f"crash safety: {'FAILED' if failures else 'passed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
