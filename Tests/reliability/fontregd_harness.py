"""Shared harness for the reliability scripts: start the real fontregd on a temporary socket,
talk raw Varlink to it, and check that it still answers correct Resolve calls.

No mocks: every script drives the built `fontregd` binary over a real Unix socket.
Only the standard library is used.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURE_FONTS = os.path.join(ROOT, "Tests", "Fixtures", "fonts")
REAL_FONTS = os.path.join(ROOT, "fonts")
IFACE = "io.fontreg.Registry"

# Resolve calls whose answers are fixed by the fixture fonts: the daemon must keep giving exactly these.
KNOWN_ANSWERS = [
    ({"family": "Fixture Sans"}, "FixtureSans-Regular"),
    ({"family": "Fixture Sans", "weight": "700"}, "FixtureSans-Bold"),
    ({"family": "Fixture Sans", "weight": "semibold", "italic": True}, "FixtureSans-SemiBoldItalic"),
    ({"family": "Avenir Fixture", "weight": "600"}, "AvenirFixture-DemiBold"),
    ({"family": "Fixture Sans", "weight": "regular", "boldText": True}, "FixtureSans-Medium"),
]


def build_dir():
    """The directory holding the built binaries: $FONTREG_BUILD_DIR, else .build/debug."""
    return os.environ.get("FONTREG_BUILD_DIR", os.path.join(ROOT, ".build", "debug"))


def binary(name):
    path = os.path.join(build_dir(), name)
    if not os.access(path, os.X_OK):
        sys.exit(f"{path} is missing: run `swift build` first (or set FONTREG_BUILD_DIR)")
    return path


def log(message):
    print(message, flush=True)


class Daemon:
    """The real fontregd, on a socket in a private temporary directory."""

    def __init__(self, extra=(), fonts=(FIXTURE_FONTS,), directory=None, keep_dir=False):
        self.own_dir = directory is None
        self.dir = directory or tempfile.mkdtemp(prefix="fontreg-rel-")
        os.chmod(self.dir, 0o755)
        self.socket_path = os.path.join(self.dir, "fontregd.sock")
        self.state_dir = os.path.join(self.dir, "state")
        self.log_path = os.path.join(self.dir, "fontregd.log")
        self.keep_dir = keep_dir
        config = os.path.join(self.dir, "fontregd.conf")
        if not os.path.exists(config):
            with open(config, "w") as f:
                f.write("# reliability\n")
        self.args = [binary("fontregd"), "--socket", self.socket_path, "--no-system-fonts",
                     "--state-dir", self.state_dir, "--cache-dir", os.path.join(self.dir, "cache"),
                     "--config", config, "--watch", "no"]
        for f in fonts:
            self.args += ["--fonts", f]
        self.args += list(extra)
        self.proc = None
        self.start()

    def start(self, wait=True):
        logfile = open(self.log_path, "ab")
        self.proc = subprocess.Popen(self.args, stdout=logfile, stderr=logfile, stdin=subprocess.DEVNULL)
        logfile.close()
        if wait:
            self.wait_until_serving()

    def wait_until_serving(self, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"fontregd exited with {self.proc.returncode}:\n{self.log()[-3000:]}")
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.settimeout(2)
                s.connect(self.socket_path)
                s.close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("fontregd did not serve in time")

    @property
    def pid(self):
        return self.proc.pid

    def alive(self):
        return self.proc.poll() is None

    def rss_kib(self):
        """Resident memory of the daemon, KiB (VmRSS from /proc)."""
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def hwm_kib(self):
        """Peak resident memory of the daemon, KiB (VmHWM)."""
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0

    def fd_count(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def log(self):
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def sanitizer_findings(self):
        """Reports a sanitizer-built daemon (FONTREG_BUILD_DIR=.build/asan/debug, .build/tsan/debug) wrote to its log."""
        markers = ("WARNING: ThreadSanitizer", "ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")
        lines = [line for line in self.log().splitlines() if any(m in line for m in markers)]
        return [f"sanitizer report in fontregd's log ({self.log_path}): {line}" for line in lines[:10]]

    def kill9(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self):
        """SIGTERM; returns the exit status (the daemon must exit 0)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                return -9
        return self.proc.returncode

    def close(self):
        self.kill9()
        if self.sanitizer_findings():
            os.makedirs(os.path.join(ROOT, ".build", "reliability"), exist_ok=True)
            shutil.copy(self.log_path, os.path.join(ROOT, ".build", "reliability", f"fontregd-sanitizer-{self.pid}.log"))
        if self.own_dir and not self.keep_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def connect(self, timeout=10):
        return Connection(self.socket_path, timeout)


def unix_connect(path, timeout=10):
    """A connected Unix stream socket; retries while the listen backlog is full (EAGAIN)."""
    deadline = time.monotonic() + timeout
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(timeout)
        try:
            s.connect(path)
            return s
        except BlockingIOError:
            s.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.005)


class Connection:
    """A raw Varlink connection: NUL-terminated JSON both ways."""

    def __init__(self, path, timeout=10):
        self.sock = unix_connect(path, timeout)
        self.buffer = b""

    def send(self, obj):
        self.sock.sendall(json.dumps(obj).encode() + b"\0")

    def send_raw(self, data):
        self.sock.sendall(data)

    def receive(self):
        """The next reply as a dict; None when the daemon closed the connection."""
        while b"\0" not in self.buffer:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                return None
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        return json.loads(message)

    def call(self, method, **parameters):
        self.send({"method": method, "parameters": parameters})
        reply = self.receive()
        if reply is None:
            raise ConnectionError(f"daemon closed the connection on {method}")
        return reply

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def check_resolves(daemon, answers=KNOWN_ANSWERS):
    """Raises unless the daemon answers every known Resolve call with the known face."""
    if not daemon.alive():
        raise AssertionError(f"fontregd died (status {daemon.proc.returncode}):\n{daemon.log()[-3000:]}")
    c = daemon.connect()
    try:
        for params, expected in answers:
            reply = c.call(f"{IFACE}.Resolve", **params)
            got = reply.get("parameters", {}).get("postscriptName")
            if reply.get("error") or got != expected:
                raise AssertionError(f"Resolve {params}: expected {expected}, got {reply}")
    finally:
        c.close()


PROBE_CALL = json.dumps({"method": f"{IFACE}.Resolve",
                         "parameters": {"family": "Fixture Sans", "weight": "600"}}).encode() + b"\0"
PROBE_ANSWER = "FixtureSans-SemiBold"


def probe_latencies(socket_path, seconds, pause=0.001):
    """The well-behaved client of the load and fairness runs: sequential Resolve round trips on
    one connection for `seconds`, `pause` apart (a program drawing text between lookups, not a
    benchmark loop). Returns (latencies in µs, number of wrong answers)."""
    s = unix_connect(socket_path, 30)
    latencies, wrong, buffer = [], 0, b""
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            t0 = time.perf_counter_ns()
            s.sendall(PROBE_CALL)
            while b"\0" not in buffer:
                chunk = s.recv(65536)
                if not chunk:
                    raise SystemExit("probe: daemon closed the well-behaved connection")
                buffer += chunk
            message, _, buffer = buffer.partition(b"\0")
            latencies.append((time.perf_counter_ns() - t0) / 1000)
            if json.loads(message).get("parameters", {}).get("postscriptName") != PROBE_ANSWER:
                wrong += 1
            time.sleep(pause)
    finally:
        s.close()
    return latencies, wrong


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, int(round(p / 100.0 * (len(ordered) - 1)))))
    return ordered[k]


def raise_fd_limit(wanted):
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(max(soft, wanted), hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return target


def as_user(name):
    """The command prefix that runs a Python script as local user `name` with that user's groups.

    As root only (otherwise the script runs as the caller). The system Python is used because the
    caller's interpreter may sit in a directory the user cannot reach (a pyenv under /root).
    """
    if os.geteuid() != 0:
        return [sys.executable]
    import pwd
    entry = pwd.getpwnam(name)
    python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
    return ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--init-groups", "--", python]
