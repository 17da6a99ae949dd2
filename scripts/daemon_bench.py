"""What the daemon benchmarks share (issue 29): a daemon started to READY, a plain Varlink
client, the binary's settling, and a fontconfig configuration of one corpus.

Used by bench-all.py, bench-warm-start.py, bench-memory.py, bench-process-instructions.py and
bench-warm-start-instructions.py (`sys.path` holds scripts/).
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time


def settle_binary(binary):
    """Writes the binary's pages back to disk (fsync) before any daemon maps it.

    A file just written (a fresh build, a copy) has dirty pages in the page cache until the kernel
    writes them back, some 30 s later; a process that maps it sees them as its own
    `Private_Dirty` (nothing else maps them): 13.5 MiB of a release fontregd's text, counted
    as the daemon's memory, more the more code a start runs. Measured on this machine, 2026-12-02.
    """
    descriptor = os.open(binary, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


class Client:
    """A plain Varlink client: one call at a time, NUL-terminated JSON."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""

    def call(self, method, **parameters):
        self.sock.sendall(json.dumps({"method": "io.fontreg.Registry." + method,
                                      "parameters": parameters}).encode() + b"\0")
        while b"\0" not in self.buffer:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise RuntimeError("the daemon closed the connection")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        return json.loads(message)


class Daemon:
    """A release fontregd on one corpus (a folder or a list of them) with a cache directory that
    outlives it (and a state directory, when given), started and waited for until READY; `ready`
    is fork/exec to READY, in seconds."""

    def __init__(self, binary, directory, cache, work, state=None):
        self.run = tempfile.mkdtemp(dir=work)
        self.socket_path = os.path.join(self.run, "s")
        self.binary = os.path.realpath(binary)
        notify_path = os.path.join(self.run, "notify")
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(notify_path)
        notify.settimeout(900)
        arguments = [binary, "--socket", self.socket_path, "--no-system-fonts", "--watch", "no",
                     "--state-dir", state or os.path.join(self.run, "state"), "--cache-dir", cache,
                     "--config", "/dev/null"]
        for folder in [directory] if isinstance(directory, str) else directory:
            arguments += ["--fonts", folder]
        self.log = open(os.path.join(self.run, "log"), "w")
        started = time.perf_counter()
        self.process = subprocess.Popen(arguments, env=dict(os.environ, NOTIFY_SOCKET=notify_path),
                                        stdout=self.log, stderr=self.log, stdin=subprocess.DEVNULL)
        self.status = ""
        while True:
            fields = notify.recv(4096).decode().split("\n")
            self.status = next((f[7:] for f in fields if f.startswith("STATUS=")), self.status)
            if "READY=1" in fields:
                self.ready = time.perf_counter() - started
                break
        notify.close()

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait()
        self.log.close()
        shutil.rmtree(self.run, ignore_errors=True)


def fontconfig_corpus(directory, work):
    """A fontconfig configuration of `directory` alone, its cache built, in `work`.

    Returns the environment that selects it and the first family it lists (sorted), for an
    `fc-match FAMILY:weight=200` of the corpus."""
    config = os.path.join(work, "fc.conf")
    with open(config, "w") as f:
        f.write(f'<?xml version="1.0"?><fontconfig><dir>{directory}</dir>'
                f'<cachedir>{work}/fc-cache</cachedir></fontconfig>')
    environment = dict(os.environ, FONTCONFIG_FILE=config)
    environment.pop("FONTCONFIG_PATH", None)
    subprocess.run(["fc-cache", directory], env=environment, check=True, stdout=subprocess.DEVNULL)
    families = subprocess.run(["fc-list", ":", "family"], env=environment, capture_output=True,
                              text=True, check=True).stdout.split("\n")
    return environment, sorted(f for f in families if f.strip())[0].split(",")[0]
