#!/usr/bin/env python3
"""Black-box protocol fuzzer: throws hostile Varlink messages at the real fontregd.

Every input goes over a real Unix socket to the built daemon. Inputs are generated from a
seed (reproducible): mutated valid calls (byte flips, insertions, deletions, splices),
truncated messages, huge strings and batches, deeply nested arrays and objects, random
bytes, NUL bytes in the middle, unknown top-level keys and parameters, every parameter
with every wrong JSON type, invalid UTF-8 and escapes, absurd numbers, conflicting flags,
hostile paths for Register/Unregister, and connections dropped mid-message.

After each input the connection gets a sentinel `GetStatus`: the daemon must answer it, or
have closed the connection right after a connection error (`InvalidMessage`,
`MessageTooLarge`); it must never go silent. Every reply must be one JSON object with
either `parameters` or a fully qualified `error`. Every few hundred inputs, and at the end,
the daemon must still answer the known `Resolve` calls with the known faces, and at the end
its resident memory, open descriptors and connection count must be back within bounds.

    Tests/reliability/protocol_fuzz.py --count 20000 --seconds 120 --seed 1

Exit status 0 when everything held; 1 with the failing input saved under --artifacts.
"""

import argparse
import json
import os
import random
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
import fontregd_harness as h  # noqa: E402

I = h.IFACE
CONNECTION_ERRORS = {f"{I}.InvalidMessage", f"{I}.MessageTooLarge", f"{I}.TooManyConnections"}

VALID_CALLS = [
    {"method": f"{I}.Resolve", "parameters": {"family": "Fixture Sans", "weight": "600"}},
    {"method": f"{I}.Resolve", "parameters": {"family": "Avenir Fixture", "weight": "semibold", "italic": True,
                                              "boldText": True, "boldPolicy": "ios-system", "strict": True}},
    {"method": f"{I}.ResolveMany", "parameters": {"queries": [{"family": "Fixture Sans"}, {"family": "Nope", "strict": True}]}},
    {"method": f"{I}.ListFamilies"},
    {"method": f"{I}.ListFaces", "parameters": {"family": "Fixture Sans"}},
    {"method": f"{I}.GetFace", "parameters": {"postscriptName": "FixtureSans-Bold"}},
    {"method": f"{I}.GetStatus", "parameters": {}},
    {"method": f"{I}.Monitor", "more": True},
    {"method": f"{I}.Register", "parameters": {"paths": ["/nonexistent/font.ttf"], "persist": False}},
    {"method": f"{I}.Unregister", "parameters": {"paths": ["/nonexistent"]}},
    {"method": "org.varlink.service.GetInfo"},
    {"method": "org.varlink.service.GetInterfaceDescription", "parameters": {"interface": I}},
    {"method": f"{I}.Resolve", "parameters": {"family": "Fixture Sans"}, "oneway": True},
]

WRONG_TYPES = [None, True, False, 0, -1, 1.5, 1e308, 2**63, -(2**63) - 1, "", "x" * 300, [], [1, "a"], {}, {"a": {}}]

HOSTILE_PATHS = ["", "/", "relative/font.ttf", "/etc/shadow", "/proc/self/mem", "/dev/zero", "/dev/urandom",
                 "/tmp/../etc/passwd", "/./././", "//", "/a\u0000b", "/" + "a" * 5000, "/\u202eevil.ttf",
                 "~/.ssh/id_rsa", "/proc/self/fd/0", "/sys/kernel/notes", "file:///etc/passwd"]

SPECIAL_STRINGS = ["\ud800", "\\ud800", "\u0000", "\x7f", "\ufeff", "é", "𝔉", "\u202e", "%s%n%x", "' OR 1=1 --",
                   "../../../../etc/passwd", "A" * 65536, "\\u0000"]


def encode(obj):
    return json.dumps(obj, ensure_ascii=False, allow_nan=True).encode("utf-8", "surrogatepass")


class Generator:
    def __init__(self, rng):
        self.r = rng
        self.kinds = [
            ("mutated", 20, self.mutated), ("truncated", 6, self.truncated), ("random_bytes", 6, self.random_bytes),
            ("nul_inside", 5, self.nul_inside), ("deep", 5, self.deep), ("huge", 2, self.huge),
            ("unknown_keys", 6, self.unknown_keys), ("wrong_types", 12, self.wrong_types),
            ("bad_text", 6, self.bad_text), ("numbers", 4, self.numbers), ("flags", 5, self.flags),
            ("paths", 6, self.paths), ("methods", 6, self.methods), ("batch", 3, self.batch),
            ("pipelined", 6, self.pipelined), ("structural", 6, self.structural),
        ]
        self.total = sum(w for _, w, _ in self.kinds)

    def pick(self):
        n = self.r.uniform(0, self.total)
        for name, weight, fn in self.kinds:
            n -= weight
            if n <= 0:
                return name, fn()
        return self.kinds[0][0], self.kinds[0][2]()

    def valid(self):
        return json.loads(json.dumps(self.r.choice(VALID_CALLS)))

    def mutated(self):
        data = bytearray(encode(self.valid()))
        for _ in range(self.r.randint(1, 8)):
            op = self.r.randint(0, 5)
            pos = self.r.randrange(len(data)) if data else 0
            if op == 0 and data:
                data[pos] ^= 1 << self.r.randrange(8)
            elif op == 1:
                data.insert(pos, self.r.randrange(256))
            elif op == 2 and data:
                del data[pos:pos + self.r.randint(1, 8)]
            elif op == 3 and data:
                data[pos] = self.r.choice(b'{}[]",:\\0-e.tfn ')
            elif op == 4:
                chunk = data[pos:pos + self.r.randint(1, 32)]
                data[pos:pos] = chunk * self.r.randint(1, 4)
            else:
                other = encode(self.valid())
                cut = self.r.randrange(len(other))
                data[pos:] = other[cut:]
        return [bytes(data).replace(b"\0", b"") + b"\0"]

    def truncated(self):
        data = encode(self.valid())
        cut = self.r.randrange(len(data))
        # with a NUL (a short message) or without (then the connection is dropped mid-message)
        return [data[:cut] + b"\0"] if self.r.random() < 0.5 else [data[:cut], "DROP"]

    def random_bytes(self):
        n = self.r.choice([1, 2, 7, 64, 1000, 70000])
        data = bytes(self.r.randrange(256) for _ in range(n)) if n < 5000 else os.urandom(n)
        return [data + b"\0"] if self.r.random() < 0.7 else [data, "DROP"]

    def nul_inside(self):
        data = encode(self.valid())
        pos = self.r.randrange(1, len(data))
        return [data[:pos] + b"\0" + data[pos:] + b"\0"]

    def deep(self):
        depth = self.r.choice([63, 64, 65, 100, 1000, 100000])
        shape = self.r.randint(0, 3)
        if shape == 0:
            inner = "[" * depth + "]" * depth
        elif shape == 1:
            inner = '{"a":' * depth + "1" + "}" * depth
        elif shape == 2:
            inner = "[" * depth  # never closed
        else:
            inner = '[{"a":' * (depth // 2) + "null" + "}]" * (depth // 2)
        body = '{"method":"%s.Resolve","parameters":{"family":%s}}' % (I, inner)
        return [body.encode() + b"\0"]

    def huge(self):
        choice = self.r.randint(0, 3)
        if choice == 0:  # a long family, just under and just over the 64 KiB read size
            return [encode({"method": f"{I}.Resolve", "parameters": {"family": "F" * self.r.choice([65535, 65536, 200000])}}) + b"\0"]
        if choice == 1:  # over the daemon's 1 MiB limit (set on the command line), with NUL
            return [b'{"method":"' + b"x" * (1 << 20) + b'"}\0']
        if choice == 2:  # over the limit, never terminated
            return [b"[" + b"1," * (600 * 1024), "DROP"]
        return [encode({"method": f"{I}.Resolve", "parameters": {"family": "x", "pad": ["y" * 100] * 5000}}) + b"\0"]

    def unknown_keys(self):
        call = self.valid()
        if self.r.random() < 0.5:
            call[self.r.choice(["id", "params", "Method", "", "method ", "\u0000", "parameters2"])] = self.r.choice(WRONG_TYPES)
        else:
            call.setdefault("parameters", {})[self.r.choice(["colour", "Family", "", "family ", "__proto__"])] = 1
        return [encode(call) + b"\0"]

    def wrong_types(self):
        call = self.valid()
        if self.r.random() < 0.3:
            key = self.r.choice(["method", "parameters", "oneway", "more", "upgrade"])
            call[key] = self.r.choice(WRONG_TYPES)
        elif self.r.random() < 0.1:
            return [encode(self.r.choice(WRONG_TYPES)) + b"\0"]
        else:
            params = call.setdefault("parameters", {})
            names = list(params.keys()) or ["family"]
            params[self.r.choice(names)] = self.r.choice(WRONG_TYPES)
        return [encode(call) + b"\0"]

    def bad_text(self):
        choice = self.r.randint(0, 4)
        if choice == 0:  # invalid UTF-8 inside a string
            bad = self.r.choice([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82"])
            return [b'{"method":"' + I.encode() + b'.Resolve","parameters":{"family":"A' + bad + b'B"}}\0']
        if choice == 1:  # bad escapes
            esc = self.r.choice([r"\ud800", r"\udc00\ud800", r"\u12", r"\x41", "\\", r"\u0000", r"\uD83D\uDE00"])
            return [('{"method":"%s.Resolve","parameters":{"family":"A%sB"}}' % (I, esc)).encode() + b"\0"]
        if choice == 2:  # raw control characters in strings
            return [b'{"method":"' + I.encode() + b'.Resolve","parameters":{"family":"a\x01\tb\n"}}\0']
        if choice == 3:
            return [encode({"method": f"{I}.Resolve", "parameters": {"family": self.r.choice(SPECIAL_STRINGS)}}) + b"\0"]
        return [b"\xef\xbb\xbf" + encode(self.valid()) + b"\0"]  # a UTF-8 byte-order mark

    def numbers(self):
        n = self.r.choice(["1e400", "-1e400", "99999999999999999999999", "-0", "0.0000000000000000001", "1E+2",
                           "01", "1.", ".5", "-", "NaN", "Infinity", "0x10", "1e", "9223372036854775808", "-9223372036854775809"])
        key = self.r.choice(["weight", "family", "italic"])
        return [('{"method":"%s.Resolve","parameters":{"family":"Fixture Sans","%s":%s}}' % (I, key, n)).encode() + b"\0"]

    def flags(self):
        call = self.valid()
        for f in self.r.sample(["oneway", "more", "upgrade"], self.r.randint(1, 3)):
            call[f] = self.r.choice([True, False, None, 1, "true"])
        return [encode(call) + b"\0"]

    def paths(self):
        method = self.r.choice(["Register", "Unregister"])
        paths = [self.r.choice(HOSTILE_PATHS) for _ in range(self.r.randint(0, 4))]
        params = {"paths": paths}
        if self.r.random() < 0.5:
            params["persist"] = self.r.choice([True, False, "yes", 1])
        return [encode({"method": f"{I}.{method}", "parameters": params}) + b"\0"]

    def methods(self):
        m = self.r.choice(["", ".", "a.", ".b", I, I + ".", I + ".resolve", I + ".Resolve.Extra", "org.varlink.service.Nope",
                           "org.varlink.service.GetInterfaceDescription", "org.varlink.service", "x" * 100000,
                           "io.fontreg.Registry\u0000.Resolve", "io.fontreg.registry.Resolve", "io.fontreg.Registry.Monitor"])
        call = {"method": m}
        if self.r.random() < 0.5:
            call["parameters"] = {"interface": self.r.choice([I, "", "nope", "org.varlink.service", 1])}
        return [encode(call) + b"\0"]

    def batch(self):
        n = self.r.choice([0, 1, 1000, 20000])
        queries = [{"family": self.r.choice(["Fixture Sans", "Nope", ""]), "weight": str(self.r.randint(-5, 1200))} for _ in range(n)]
        if n and self.r.random() < 0.3:
            queries[self.r.randrange(n)] = self.r.choice(WRONG_TYPES)
        return [encode({"method": f"{I}.ResolveMany", "parameters": {"queries": queries}}) + b"\0"]

    def pipelined(self):
        out = b"".join(encode(self.valid()) + b"\0" for _ in range(self.r.randint(2, 200)))
        if self.r.random() < 0.5:  # split at random points into several writes
            cuts = sorted(self.r.sample(range(1, len(out)), min(5, len(out) - 1)))
            pieces, last = [], 0
            for c in cuts:
                pieces.append(out[last:c])
                last = c
            pieces.append(out[last:])
            return pieces
        return [out]

    def structural(self):
        return [self.r.choice([b"\0", b"\0\0\0", b" \0", b"{}\0", b"[]\0", b"null\0", b'""\0', b"{\0", b"}\0",
                               b'{"method":"a.b"}{"method":"a.b"}\0', b'{"method":"a.b",}\0', b'{"method":"a.b"\0',
                               b'{"method" "a.b"}\0', b"{'method':'a.b'}\0", b'{"method":"a.b","method":"c.d"}\0'])]


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.inputs = 0
        self.by_kind = {}
        self.errors = {}
        self.closed_after_error = 0
        self.answered = 0
        self.failures = []

    def add(self, kind, outcome, names):
        with self.lock:
            self.inputs += 1
            self.by_kind[kind] = self.by_kind.get(kind, 0) + 1
            for n in names:
                self.errors[n] = self.errors.get(n, 0) + 1
            if outcome == "closed":
                self.closed_after_error += 1
            elif outcome == "answered":
                self.answered += 1


SENTINEL = {"method": f"{I}.GetStatus"}


def valid_reply(reply):
    if not isinstance(reply, dict):
        return False
    if "error" in reply:
        return isinstance(reply["error"], str) and reply["error"].count(".") >= 2 and "continues" not in reply
    return isinstance(reply.get("parameters", {}), dict)


def run_input(daemon, pieces, timeout):
    """Sends one input on a fresh connection, then the sentinel. Returns (outcome, error names) or raises."""
    conn = daemon.connect(timeout=timeout)
    names = []
    try:
        dropped = False
        for piece in pieces:
            if piece == "DROP":
                dropped = True
                break
            try:
                conn.send_raw(piece)
            except (BrokenPipeError, ConnectionResetError):
                return "closed", names  # the daemon gave up on a message that was too large
        if dropped:
            return "dropped", names
        try:
            conn.send(SENTINEL)
        except (BrokenPipeError, ConnectionResetError):
            pass
        while True:
            try:
                raw = conn.receive()
            except socket.timeout:
                raise AssertionError(f"no reply and no close within {timeout} s: the daemon went silent")
            except ConnectionResetError:
                return "closed", names
            except json.JSONDecodeError as e:
                raise AssertionError(f"reply is not JSON: {e}")
            if raw is None:
                if names and names[-1] in CONNECTION_ERRORS:
                    return "closed", names
                raise AssertionError(f"connection closed without a connection error (replies so far: {names})")
            if not valid_reply(raw):
                raise AssertionError(f"reply is not a Varlink reply: {str(raw)[:300]}")
            if "error" in raw:
                names.append(raw["error"])
                continue
            if raw.get("continues"):
                # A Monitor stream: the connection now only carries events and makes no more calls.
                return "subscribed", names
            params = raw.get("parameters", {})
            if "uptimeSeconds" in params and "faces" in params and not raw.get("continues"):
                return "answered", names
    finally:
        conn.close()


def worker(daemon, seed, deadline, budget, stats, args, stop):
    rng = random.Random(seed)
    gen = Generator(rng)
    while not stop.is_set() and time.monotonic() < deadline:
        with budget["lock"]:
            if budget["left"] <= 0:
                return
            budget["left"] -= 1
            number = budget["total"] - budget["left"]
        kind, pieces = gen.pick()
        try:
            outcome, names = run_input(daemon, pieces, args.timeout)
            stats.add(kind, outcome, names)
        except Exception as e:  # noqa: BLE001 - any failure is reported with its input
            path = os.path.join(args.artifacts, f"protocol-failure-{seed}-{number}.bin")
            os.makedirs(args.artifacts, exist_ok=True)
            with open(path, "wb") as f:
                f.write(b"".join(p for p in pieces if isinstance(p, bytes)))
            with stats.lock:
                stats.failures.append(f"input {number} ({kind}, saved to {path}): {e}")
            if not daemon.alive():
                stop.set()
                return


def many_connections(daemon, rng, count):
    """Opens `count` connections at once; each sends a partial or junk message; then all vanish."""
    socks = []
    for _ in range(count):
        s = h.unix_connect(daemon.socket_path, 10)
        choice = rng.randint(0, 3)
        try:
            if choice == 0:
                s.sendall(b'{"method":"' + I.encode() + b'.Resol')
            elif choice == 1:
                s.sendall(os.urandom(rng.randint(1, 4096)))
            elif choice == 2:
                s.sendall(encode({"method": f"{I}.Monitor", "more": True}) + b"\0")
        except OSError:
            pass
        socks.append(s)
    h.check_resolves(daemon)  # served while all of them hang around
    for s in socks:
        s.close()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--count", type=int, default=5000, help="inputs to send (default 5000)")
    p.add_argument("--seconds", type=float, default=60, help="stop after this long (default 60)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--clients", type=int, default=8, help="concurrent fuzzing clients (default 8)")
    p.add_argument("--timeout", type=float, default=15, help="seconds to wait for a reply before calling it a hang")
    p.add_argument("--rss-growth-mib", type=float, default=128, help="allowed RSS growth over the warmed-up baseline")
    p.add_argument("--artifacts", default=os.path.join(h.ROOT, ".build", "reliability"))
    args = p.parse_args()
    h.raise_fd_limit(4096)

    allowed = os.path.join(os.path.join(h.ROOT, ".build"), "reliability-allowed")
    daemon = h.Daemon(extra=["--max-message-size", str(1 << 20), "--allow-root", h.FIXTURE_FONTS])
    try:
        # Warm up: fill the caches the way ordinary use does, then take the baseline.
        for _ in range(3):
            h.check_resolves(daemon)
        base_rss, base_fds = daemon.rss_kib(), daemon.fd_count()
        h.log(f"protocol fuzz: seed {args.seed}, up to {args.count} inputs / {args.seconds:.0f} s, "
              f"{args.clients} clients; baseline RSS {base_rss / 1024:.1f} MiB, {base_fds} fds")
        stats = Stats()
        stop = threading.Event()
        started = time.monotonic()
        deadline = started + args.seconds
        budget = {"lock": threading.Lock(), "left": args.count, "total": args.count}
        threads = [threading.Thread(target=worker, args=(daemon, args.seed * 1000 + i, deadline, budget, stats, args, stop))
                   for i in range(args.clients)]
        for t in threads:
            t.start()
        last_check = time.monotonic()
        checks = 0
        peak_rss = base_rss
        while any(t.is_alive() for t in threads):
            time.sleep(0.5)
            if not daemon.alive():
                break
            peak_rss = max(peak_rss, daemon.rss_kib())
            if time.monotonic() - last_check > 5:
                try:
                    h.check_resolves(daemon)
                    checks += 1
                except Exception as e:  # noqa: BLE001
                    stats.failures.append(f"Resolve check during the run failed: {e}")
                    stop.set()
                last_check = time.monotonic()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - started
        rng = random.Random(args.seed)
        if daemon.alive():
            many_connections(daemon, rng, 300)
        # Give the daemon a moment to notice closed connections, then check it is back to normal.
        time.sleep(1)
        failures = list(stats.failures)
        if not daemon.alive():
            os.makedirs(args.artifacts, exist_ok=True)
            crash_log = os.path.join(args.artifacts, f"fontregd-died-seed{args.seed}.log")
            with open(crash_log, "w") as f:
                f.write(daemon.log())
            failures.append(f"fontregd died: status {daemon.proc.returncode}; its log is in {crash_log}")
        else:
            try:
                h.check_resolves(daemon)
            except Exception as e:  # noqa: BLE001
                failures.append(f"final Resolve check failed: {e}")
            # Closed connections are noticed by the event loops in their own time: allow 15 s.
            settle = time.monotonic() + 15
            while True:
                c = daemon.connect()
                connections = c.call(f"{I}.GetStatus")["parameters"].get("connections")
                c.close()
                time.sleep(0.2)
                final_fds = daemon.fd_count()
                if (connections <= 1 and final_fds <= base_fds + 2) or time.monotonic() > settle:
                    break
                time.sleep(0.5)
            final_rss, hwm = daemon.rss_kib(), daemon.hwm_kib()
            h.log(f"protocol fuzz: {stats.inputs} inputs in {elapsed:.1f} s ({stats.inputs / max(elapsed, 0.001):.0f}/s); "
                  f"{stats.answered} answered after the input, {stats.closed_after_error} closed with a connection error, "
                  f"{checks + 2} Resolve checks passed")
            h.log("  inputs by kind: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.by_kind.items())))
            h.log("  error replies: " + ", ".join(f"{k.rsplit('.', 1)[-1]} {v}" for k, v in sorted(stats.errors.items(), key=lambda kv: -kv[1])))
            h.log(f"  RSS: baseline {base_rss / 1024:.1f} MiB, peak {max(peak_rss, hwm) / 1024:.1f} MiB (VmHWM), final {final_rss / 1024:.1f} MiB; "
                  f"fds: baseline {base_fds}, final {final_fds}; connections open at the end: {connections}")
            if final_rss - base_rss > args.rss_growth_mib * 1024:
                failures.append(f"RSS grew by {(final_rss - base_rss) / 1024:.1f} MiB (limit {args.rss_growth_mib} MiB)")
            if final_fds > base_fds + 2:
                failures.append(f"descriptor leak: {base_fds} fds before, {final_fds} after")
            if connections is not None and connections > 1:
                failures.append(f"{connections} connections still open after every client left")
            status = daemon.stop()
            if status != 0:
                failures.append(f"SIGTERM exit status {status}, expected 0")
        failures += daemon.sanitizer_findings()
        for f in failures[:20]:
            h.log("FAIL: " + f)
        h.log(f"protocol fuzz: {'FAILED' if failures else 'passed'} ({len(failures)} failures)")
        return 1 if failures else 0
    finally:
        daemon.close()


if __name__ == "__main__":
    sys.exit(main())
