"""What the daemon benchmarks share (issue 29): a plain Varlink client and the binary's settling.

Used by bench-all.py, bench-warm-start.py and bench-memory.py (`sys.path` holds scripts/).
"""
import json
import os
import socket


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
