#!/usr/bin/env python3
"""Resources and fairness (issue 17): one local user must not take the daemon from the others.

Against the real fontregd on a real Unix socket; each kind prints its figures and fails on a
broken target:

- attack: N attackers (processes) send worst-case calls in parallel — names at the 256-byte
  limit and far over it (4 MiB), ResolveMany of 1,024 distinct unknown names — while a good
  client measures p50/p99 of Resolve round trips, and the watchdog (WATCHDOG_USEC=1 s on a
  NOTIFY_SOCKET of ours) records its largest gap between pings, and RSS is sampled. Targets:
  p99 < --max-p99-ms, no gap over 1 s, peak RSS within 64 MiB of idle.
- cache: thousands of distinct unknown families; RSS must stay within 64 MiB of idle.
- nonreaders: 10, 40 and 100 clients pipelining ListFaces without reading; RSS within 64 MiB of
  idle during, within 8 MiB of idle --settle seconds after they leave.
- flood: uid 65534 opens 1,024 connections and holds them; uid 65533 and root are still served.
- slowloris: a client sending one byte every 0.3 s is closed by idle-timeout.

    Tests/reliability/fairness_test.py --only attack,cache,nonreaders,flood,slowloris --seconds 10
"""

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
import fontregd_harness as h  # noqa: E402

I = h.IFACE
MIB = 1024
ATTACKER_USER = os.environ.get("FONTREG_ATTACKER_USER", "nobody")


def message(method, **parameters):
    return json.dumps({"method": f"{I}.{method}", "parameters": parameters}).encode() + b"\0"


def attacker(path, seconds, seed):
    """Worst-case calls in a loop, reading each reply (or being disconnected, and coming back)."""
    import random
    rnd = random.Random(seed)
    end = time.monotonic() + seconds
    calls = 0
    while time.monotonic() < end:
        try:
            c = h.Connection(path, 30)
            for _ in range(20):
                kind = rnd.randrange(int(os.environ.get("FAIR_KINDS", "4")))
                name = "".join(rnd.choice("abcdefghij") for _ in range(256))
                if kind == 0:
                    c.send_raw(message("Resolve", family=name, strict=True))
                elif kind == 1:
                    c.send_raw(message("ListFaces", family=name))
                elif kind == 2:
                    qs = [{"family": name[:200] + str(i)} for i in range(1024)]
                    c.send_raw(message("ResolveMany", queries=qs))
                else:
                    c.send_raw(message("Resolve", family="x" * ((4 << 20) - 64)))
                if c.receive() is None:
                    break
                calls += 1
            c.close()
        except OSError:
            time.sleep(0.01)
    print(json.dumps({"calls": calls}))


def probe(path, seconds):
    """Sequential Resolve round trips (the harness's probe, 2 ms apart); returns latencies in µs."""
    latencies, wrong = h.probe_latencies(path, seconds, pause=0.002)
    if wrong:
        raise SystemExit(f"probe: {wrong} wrong answers")
    return latencies


class WatchdogListener(threading.Thread):
    """A NOTIFY_SOCKET of our own: records when WATCHDOG=1 arrives."""

    def __init__(self, directory):
        super().__init__(daemon=True)
        self.path = os.path.join(directory, "notify.sock")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.sock.settimeout(0.5)
        self.pings = []
        self.stopping = False

    def run(self):
        while not self.stopping:
            try:
                data = self.sock.recv(4096)
            except socket.timeout:
                continue
            if b"WATCHDOG=1" in data:
                self.pings.append(time.monotonic())

    def largest_gap(self, since):
        times = [t for t in self.pings if t >= since]
        times.append(time.monotonic())
        return max((b - a for a, b in zip(times, times[1:])), default=float("inf"))


def start_daemon(extra=(), env=None):
    saved = dict(os.environ)
    os.environ.update(env or {})
    try:
        return h.Daemon(extra=list(extra))
    finally:
        os.environ.clear()
        os.environ.update(saved)


def run_attack(args):
    tmp = tempfile.mkdtemp(prefix="fontreg-fair-")
    os.chmod(tmp, 0o755)
    listener = WatchdogListener(tmp)
    listener.start()
    d = start_daemon(env={"NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "1000000"})
    try:
        baseline = probe(d.socket_path, 2)
        idle_rss = d.rss_kib()
        peak_rss = [idle_rss]
        sampling = threading.Event()

        def sample_rss():
            while not sampling.wait(0.25):
                peak_rss.append(d.rss_kib())

        sampler = threading.Thread(target=sample_rss, daemon=True)
        sampler.start()
        started = time.monotonic()
        # The attackers are what the issue describes: another, unprivileged local user in a login
        # session of their own (as a logged-in user is), not the good client's uid and session.
        procs = [subprocess.Popen(h.as_user(ATTACKER_USER) + [__file__, "--attacker", d.socket_path,
                                                              str(args.seconds), str(i)],
                                  stdout=subprocess.PIPE, start_new_session=True) for i in range(args.attackers)]
        time.sleep(1)
        during = probe(d.socket_path, max(1, args.seconds - 2))
        calls = sum(json.loads(p.communicate(timeout=args.seconds + 120)[0] or b'{"calls":0}')["calls"] for p in procs)
        gap = listener.largest_gap(started)
        sampling.set()
        sampler.join()
        rss_over = (max(peak_rss) - idle_rss) / MIB
        p50, p99 = h.percentile(during, 50) / 1000, h.percentile(during, 99) / 1000
        h.log(f"attack: {args.attackers} attackers, {calls} worst-case calls answered in {args.seconds} s; "
              f"good client p50 {h.percentile(baseline, 50) / 1000:.2f} ms / p99 {h.percentile(baseline, 99) / 1000:.2f} ms "
              f"idle, p50 {p50:.2f} ms / p99 {p99:.2f} ms under attack ({len(during)} calls); "
              f"largest watchdog gap {gap:.2f} s; RSS idle {idle_rss / MIB:.1f} MiB, peak +{rss_over:.1f} MiB")
        h.check_resolves(d)
        ok = p99 < args.max_p99_ms and gap <= 1.0 and len(listener.pings) > 0 and rss_over < 64
        if not ok:
            h.log(f"attack: FAILED (targets: p99 < {args.max_p99_ms} ms, watchdog gap <= 1 s, RSS within 64 MiB of idle)")
        return ok
    finally:
        listener.stopping = True
        d.close()


def run_cache(args):
    d = start_daemon()
    try:
        idle = d.rss_kib()
        c = d.connect()
        for i in range(args.distinct):
            name = f"{i:06d}" + "q" * 250
            if c.call(f"{I}.Resolve", family=name).get("error") not in (None, f"{I}.FamilyNotFound"):
                raise AssertionError("unexpected error for an unknown family")
        peak = d.rss_kib()
        h.log(f"cache: {args.distinct} distinct unknown families: RSS idle {idle // MIB} MiB, "
              f"after {peak // MIB} MiB (+{(peak - idle) // MIB} MiB)")
        return peak - idle < 64 * MIB
    finally:
        d.close()


def run_nonreaders(args):
    ok = True
    for count in (10, 40, 100):
        d = start_daemon()
        try:
            h.Connection(d.socket_path).call(f"{I}.ListFaces")
            idle = d.rss_kib()
            batch = message("ListFaces") * 2000
            socks = []
            for _ in range(count):
                s = h.unix_connect(d.socket_path, 30)
                s.setblocking(False)
                try:
                    s.send(batch)
                except BlockingIOError:
                    pass
                socks.append(s)
            peak = idle
            for _ in range(20):
                time.sleep(0.25)
                peak = max(peak, d.rss_kib())
            served = h.Connection(d.socket_path).call(f"{I}.GetStatus").get("parameters", {}).get("faces") is not None
            for s in socks:
                s.close()
            time.sleep(args.settle)
            after = d.rss_kib()
            h.log(f"nonreaders: {count} clients: RSS idle {idle // MIB} MiB, peak {peak // MIB} MiB "
                  f"(+{(peak - idle) // MIB}), {args.settle:g} s after {after // MIB} MiB (+{(after - idle) / MIB:.1f}); "
                  f"bystander served: {served}")
            ok = ok and served and peak - idle < 64 * MIB and after - idle < 8 * MIB
        finally:
            d.close()
    return ok


def hold_as(uid, path, count, ready):
    """Forks a process as `uid` holding `count` connections; returns it and how many were served."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
        held, served = [], 0
        for _ in range(count):
            try:
                c = h.Connection(path, 10)
                reply = c.call(f"{I}.GetStatus")
                if reply.get("error") is None:
                    served += 1
                    held.append(c)
                else:
                    c.close()
            except (OSError, ConnectionError):
                pass
        os.write(w, f"{served}\n".encode())
        os.read(ready, 1)
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        served = int(f.readline() or 0)
    return pid, served


def run_flood(args):
    h.raise_fd_limit(4096)
    d = start_daemon()
    ready_r, ready_w = os.pipe()
    try:
        pid, held = hold_as(65534, d.socket_path, 1024, ready_r)
        pid2, other = hold_as(65533, d.socket_path, 3, ready_r)
        root = h.Connection(d.socket_path).call(f"{I}.GetStatus").get("error") is None
        h.log(f"flood: uid 65534 asked for 1024 connections and holds {held}; "
              f"uid 65533 then served {other} of 3; root served: {root}")
        return held <= 128 and other == 3 and root
    finally:
        os.write(ready_w, b"xx")
        for p in (locals().get("pid"), locals().get("pid2")):
            if p:
                os.waitpid(p, 0)
        d.close()


def run_slowloris(args):
    d = start_daemon(extra=["--idle-timeout", "2"])
    try:
        s = h.unix_connect(d.socket_path, 10)
        start = time.monotonic()
        closed = None
        for byte in message("GetStatus"):
            try:
                s.send(bytes([byte]))
            except OSError:
                closed = time.monotonic() - start
                break
            time.sleep(0.3)
        h.log(f"slowloris: one byte every 0.3 s, idle-timeout 2 s: closed after "
              f"{'never' if closed is None else f'{closed:.1f} s'}")
        return closed is not None and closed < 6
    finally:
        d.close()


KINDS = {"attack": run_attack, "cache": run_cache, "nonreaders": run_nonreaders, "flood": run_flood,
         "slowloris": run_slowloris}


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--attacker":
        attacker(sys.argv[2], float(sys.argv[3]), int(sys.argv[4]))
        return
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", default=",".join(KINDS))
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--attackers", type=int, default=8)
    p.add_argument("--distinct", type=int, default=3000)
    p.add_argument("--settle", type=float, default=10)
    p.add_argument("--max-p99-ms", type=float, default=10)
    args = p.parse_args()
    failed = []
    for kind in args.only.split(","):
        if not KINDS[kind](args):
            failed.append(kind)
    if failed:
        sys.exit(f"fairness: FAILED {', '.join(failed)}")
    h.log("fairness: all targets held")


if __name__ == "__main__":
    main()
