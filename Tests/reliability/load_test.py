#!/usr/bin/env python3
"""Load: 1,000 concurrent hostile connections while a well-behaved client measures its latency.

Against the real fontregd on a real Unix socket, all at once:

- idle connections that connect and say nothing,
- slow clients that send a valid call one byte per second,
- clients that pipeline big calls (`ListFaces`) and never read their replies,
- clients that send messages over the size limit, get `MessageTooLarge`, and come back,
- clients that connect and hang up at once, in a tight loop.

Meanwhile a well-behaved client in a process of its own makes sequential `Resolve` calls on
one connection and records every round trip. The script reports p50/p99/max latency before
and during the load, the daemon's resident memory (baseline, peak, after) and checks
behaviour: the daemon stays up, answers the known Resolve calls correctly during and after
the load, memory comes back down once the hostile clients leave, and no descriptor leaks.
Latency is reported, not asserted (a busy 2-core machine makes any fixed number flaky),
unless --max-p99-ms is given.

    Tests/reliability/load_test.py --connections 1000 --seconds 30
"""

import argparse
import json
import os
import selectors
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
import fontregd_harness as h  # noqa: E402

I = h.IFACE


def probe(socket_path, seconds, out_path):
    """The well-behaved client (the harness's probe) in a process of its own; writes its latencies (µs)."""
    latencies, wrong = h.probe_latencies(socket_path, seconds)
    with open(out_path, "w") as f:
        json.dump({"latencies_us": latencies, "wrong": wrong}, f)


def run_probe(daemon, seconds, tmp):
    out = os.path.join(tmp, f"probe-{time.monotonic_ns()}.json")
    proc = subprocess.Popen([sys.executable, __file__, "--probe", daemon.socket_path, str(seconds), out])
    return proc, out


def probe_result(proc, out):
    proc.wait(timeout=600)
    if proc.returncode != 0:
        raise AssertionError(f"the well-behaved client failed (status {proc.returncode})")
    with open(out) as f:
        data = json.load(f)
    return data["latencies_us"], data["wrong"]


class Hostile(threading.Thread):
    """Opens and drives every hostile connection from one selector loop."""

    def __init__(self, daemon, counts, seconds, big_limit):
        super().__init__(daemon=True)
        self.d, self.counts, self.seconds, self.limit = daemon, counts, seconds, big_limit
        self.stop = threading.Event()
        self.opened = 0
        self.refused = 0
        self.too_large = 0
        self.churned = 0
        self.slow_completed = 0
        self.nonreader_bytes = 0
        self.error = None

    def connect(self):
        s = h.unix_connect(self.d.socket_path, 30)
        s.setblocking(False)
        self.opened += 1
        return s

    def run(self):
        try:
            self._run()
        except Exception as e:  # noqa: BLE001
            self.error = e

    def _run(self):
        sel = selectors.DefaultSelector()
        idle = [self.connect() for _ in range(self.counts["idle"])]
        slow_message = json.dumps({"method": "org.varlink.service.GetInfo"}).encode() + b"\0"
        slow = [[self.connect(), 0] for _ in range(self.counts["slow"])]
        for conn in slow:
            sel.register(conn[0], selectors.EVENT_READ, ("slow", conn))
        big_call = json.dumps({"method": f"{I}.ListFaces"}).encode() + b"\0"
        nonreaders = [self.connect() for _ in range(self.counts["nonreaders"])]
        pending = {id(s): big_call * 256 for s in nonreaders}
        for s in nonreaders:
            sel.register(s, selectors.EVENT_WRITE, ("nonreader", s))
        oversized = b'{"method":"' + b"x" * (self.limit + 1024) + b'"}\0'
        big_clients = self.counts["oversized"]
        end = time.monotonic() + self.seconds
        next_tick = time.monotonic()
        big_socks = []
        while not self.stop.is_set() and time.monotonic() < end:
            now = time.monotonic()
            if now >= next_tick:  # one byte per second for every slow client
                next_tick = now + 1
                for conn in slow:
                    s, sent = conn
                    if sent < len(slow_message):
                        try:
                            s.send(slow_message[sent:sent + 1])
                            conn[1] += 1
                        except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                            pass
            # oversized senders: keep `big_clients` of them in flight
            while len(big_socks) < big_clients:
                s = self.connect()
                big_socks.append([s, 0])
            for item in list(big_socks):
                s, sent = item
                try:
                    n = s.send(oversized[sent:sent + 262144])
                    item[1] += n
                except BlockingIOError:
                    pass
                except (BrokenPipeError, ConnectionResetError):
                    item[1] = len(oversized)
                if item[1] >= len(oversized):
                    try:
                        s.setblocking(True)
                        s.settimeout(10)
                        data = s.recv(4096)
                        if b"MessageTooLarge" in data:
                            self.too_large += 1
                    except OSError:
                        pass
                    s.close()
                    big_socks.remove(item)
            # connection churn: connect and hang up at once
            for _ in range(self.counts["churn"]):
                try:
                    s = h.unix_connect(self.d.socket_path, 1)
                    s.close()
                    self.churned += 1
                except OSError:
                    self.refused += 1
            for key, events in sel.select(timeout=0.02):
                kind, obj = key.data
                if kind == "slow":
                    try:
                        data = obj[0].recv(65536)
                    except (BlockingIOError, ConnectionResetError):
                        continue
                    if b"interfaces" in data:
                        self.slow_completed += 1
                    if not data:
                        sel.unregister(obj[0])
                elif kind == "nonreader":
                    data = pending[id(obj)]
                    if not data:
                        pending[id(obj)] = big_call * 256
                        data = pending[id(obj)]
                    try:
                        n = obj.send(data)
                        self.nonreader_bytes += n
                        pending[id(obj)] = data[n:]
                    except BlockingIOError:
                        pass
                    except (BrokenPipeError, ConnectionResetError):
                        sel.unregister(obj)
        for s in idle + [c[0] for c in slow] + nonreaders + [b[0] for b in big_socks]:
            s.close()
        sel.close()


def summarize(label, latencies):
    return (f"{label}: {len(latencies)} calls, p50 {h.percentile(latencies, 50) / 1000:.3f} ms, "
            f"p99 {h.percentile(latencies, 99) / 1000:.3f} ms, max {max(latencies) / 1000:.1f} ms")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--probe":
        probe(sys.argv[2], float(sys.argv[3]), sys.argv[4])
        return 0
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--connections", type=int, default=1000, help="hostile connections held open at once")
    p.add_argument("--seconds", type=float, default=30, help="how long the load lasts")
    p.add_argument("--max-message-size", type=int, default=1 << 20)
    p.add_argument("--max-p99-ms", type=float, default=None, help="fail when the loaded p99 exceeds this (off by default)")
    p.add_argument("--rss-limit-mib", type=float, default=2048, help="fail when peak RSS exceeds this")
    p.add_argument("--max-peak-over-mib", type=float, default=64,
                   help="fail when peak RSS under load exceeds the baseline by more than this (issue 17)")
    p.add_argument("--max-after-over-mib", type=float, default=8,
                   help="fail when RSS --settle seconds after the load exceeds the baseline by more than this")
    p.add_argument("--settle", type=float, default=2, help="seconds to wait after the load before measuring RSS")
    p.add_argument("--kinds", default="idle,slow,nonreaders,oversized,churn",
                   help="which hostile clients to run (to see which one costs the latency)")
    args = p.parse_args()
    h.raise_fd_limit(args.connections * 2 + 512)

    n = args.connections
    counts = {"idle": n * 40 // 100, "slow": n * 30 // 100, "nonreaders": n * 20 // 100, "oversized": n * 10 // 100,
              "churn": 5}
    kinds = set(args.kinds.split(","))
    counts = {k: (v if k in kinds else 0) for k, v in counts.items()}
    daemon = h.Daemon(extra=["--max-connections", str(n + 64), "--max-message-size", str(args.max_message_size)])
    failures = []
    try:
        h.check_resolves(daemon)
        base_rss, base_fds = daemon.rss_kib(), daemon.fd_count()
        proc, out = run_probe(daemon, min(10, args.seconds / 2), daemon.dir)
        quiet, wrong = probe_result(proc, out)
        if wrong:
            failures.append(f"{wrong} wrong answers without load")
        h.log(f"load: {n} hostile connections ({counts['idle']} idle, {counts['slow']} one byte per second, "
              f"{counts['nonreaders']} never reading, {counts['oversized']} oversized at a time, churn), {args.seconds:.0f} s; "
              f"max-connections {n + 64}, max-message-size {args.max_message_size}")
        h.log("  " + summarize("without load", quiet))
        hostile = Hostile(daemon, counts, args.seconds, args.max_message_size)
        hostile.start()
        time.sleep(min(5, args.seconds / 4))  # let every hostile connection open first
        proc, out = run_probe(daemon, max(1, args.seconds - min(5, args.seconds / 4) - 2), daemon.dir)
        peak = base_rss
        during_checks = 0
        while proc.poll() is None:
            time.sleep(0.5)
            if not daemon.alive():
                break
            peak = max(peak, daemon.rss_kib())
            try:
                h.check_resolves(daemon)
                during_checks += 1
            except Exception as e:  # noqa: BLE001
                failures.append(f"Resolve check during the load failed: {e}")
                break
        loaded, wrong = probe_result(proc, out)
        if wrong:
            failures.append(f"{wrong} wrong answers under load")
        hostile.stop.set()
        hostile.join(timeout=60)
        if hostile.error:
            failures.append(f"hostile client harness failed: {hostile.error!r}")
        time.sleep(args.settle)
        if not daemon.alive():
            failures.append(f"fontregd died under load: {daemon.proc.returncode}\n{daemon.log()[-2000:]}")
            raise SystemExit(1)
        h.check_resolves(daemon)
        after_rss, after_fds, hwm = daemon.rss_kib(), daemon.fd_count(), daemon.hwm_kib()
        c = daemon.connect()
        status = c.call(f"{I}.GetStatus")["parameters"]
        c.close()
        h.log("  " + summarize("under load", loaded))
        h.log(f"  hostile side: {hostile.opened} connections opened, {hostile.slow_completed} slow calls answered, "
              f"{hostile.nonreader_bytes / 1048576:.1f} MiB of calls sent by non-readers, {hostile.too_large} MessageTooLarge, "
              f"{hostile.churned} connect-and-hang-up, {hostile.refused} refused; {during_checks} Resolve checks passed during the load")
        h.log(f"  RSS: baseline {base_rss / 1024:.1f} MiB, peak {max(peak, hwm) / 1024:.1f} MiB, "
              f"{args.settle:g} s after {after_rss / 1024:.1f} MiB; "
              f"fds baseline {base_fds}, after {after_fds}; connections after: {status.get('connections')}")
        if max(peak, hwm) > args.rss_limit_mib * 1024:
            failures.append(f"peak RSS {max(peak, hwm) / 1024:.0f} MiB over the limit {args.rss_limit_mib} MiB")
        if max(peak, hwm) - base_rss > args.max_peak_over_mib * 1024:
            failures.append(f"peak RSS {(max(peak, hwm) - base_rss) / 1024:.1f} MiB over the baseline "
                            f"(limit {args.max_peak_over_mib:g} MiB)")
        if after_rss - base_rss > args.max_after_over_mib * 1024:
            failures.append(f"RSS {(after_rss - base_rss) / 1024:.1f} MiB over the baseline {args.settle:g} s after "
                            f"the load (limit {args.max_after_over_mib:g} MiB)")
        if after_fds > base_fds + 2:
            failures.append(f"descriptor leak: {base_fds} before, {after_fds} after")
        if args.max_p99_ms is not None and h.percentile(loaded, 99) / 1000 > args.max_p99_ms:
            failures.append(f"p99 under load {h.percentile(loaded, 99) / 1000:.2f} ms > {args.max_p99_ms} ms")
        if daemon.stop() != 0:
            failures.append("SIGTERM did not exit 0")
        failures += daemon.sanitizer_findings()
    finally:
        daemon.close()
    for f in failures:
        h.log("FAIL: " + f)
    h.log(f"load: {'FAILED' if failures else 'passed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
