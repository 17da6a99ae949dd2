"""Headless Chromium through its DevTools protocol, for the scripts that check fontreg against a
real browser (scripts/chromium-reference.py, scripts/chromium-baseline.py).

A websocket client (RFC 6455, client side, text frames) of the standard library only, a DevTools
session that waits for a call's answer, and the start of a headless Chromium with a fresh profile.
CHROMIUM names the browser (default /usr/bin/chromium).
"""

import base64
import json
import os
import socket
import struct
import subprocess
import time
import urllib.parse
import urllib.request

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")



def ws_connect(url):
    parts = urllib.parse.urlparse(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {parts.path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
        f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    )
    sock.sendall(request.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            raise RuntimeError("websocket: connection closed during the handshake")
        head += chunk
    if b" 101 " not in head.split(b"\r\n", 1)[0]:
        raise RuntimeError(f"websocket: handshake refused: {head[:80]!r}")
    return sock


def ws_send(sock, text, opcode=0x1):
    payload = text.encode() if isinstance(text, str) else text
    header = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        header += bytes([0x80 | n])
    elif n < 1 << 16:
        header += bytes([0x80 | 126]) + struct.pack(">H", n)
    else:
        header += bytes([0x80 | 127]) + struct.pack(">Q", n)
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    sock.sendall(header + mask + masked)


def read_exactly(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise RuntimeError("websocket: connection closed")
        data += chunk
    return data


def ws_recv(sock):
    message = b""
    while True:
        first, second = read_exactly(sock, 2)
        opcode, n = first & 0x0F, second & 0x7F
        if n == 126:
            n = struct.unpack(">H", read_exactly(sock, 2))[0]
        elif n == 127:
            n = struct.unpack(">Q", read_exactly(sock, 8))[0]
        mask = read_exactly(sock, 4) if second & 0x80 else None
        payload = read_exactly(sock, n)
        if mask:
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        if opcode == 0x8:
            raise RuntimeError("websocket: closed by the browser")
        if opcode == 0x9:
            ws_send(sock, payload, opcode=0xA)
            continue
        if opcode in (0x0, 0x1, 0x2):
            message += payload
            if first & 0x80:
                return message.decode()


class DevTools:
    """One page's DevTools session: call(method, params) waits for the answer, skipping events."""

    def __init__(self, url):
        self.sock = ws_connect(url)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        ws_send(self.sock, json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            reply = json.loads(ws_recv(self.sock))
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"page script failed: {result['exceptionDetails']}")
        return result["result"]["value"]


def start_chromium(profile, extra_args=()):
    """Starts headless Chromium with a fresh profile; returns the process and its first page's session."""
    args = [
        CHROMIUM, "--headless", "--remote-debugging-port=0", f"--user-data-dir={profile}",
        "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--no-sandbox", *extra_args,
        "about:blank",
    ]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port_file = os.path.join(profile, "DevToolsActivePort")
    for _ in range(300):
        if os.path.exists(port_file) and open(port_file).read().count("\n") >= 1:
            break
        time.sleep(0.1)
    else:
        process.kill()
        raise RuntimeError("chromium did not open its DevTools port")
    port = int(open(port_file).read().split("\n")[0])
    for _ in range(100):
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        pages = [t for t in targets if t.get("type") == "page"]
        if pages:
            return process, DevTools(pages[0]["webSocketDebuggerUrl"])
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("chromium opened no page")


def stop_chromium(process, profile):
    """Stops Chromium and removes the singleton directory it keeps in /tmp.

    Chromium removes /tmp/org.chromium.Chromium.XXXXXX (the target of the profile's SingletonSocket
    link) only on a clean exit of its own; after SIGTERM it stays behind, one per run.
    """
    singleton = None
    try:
        target = os.readlink(os.path.join(profile, "SingletonSocket"))
        parent = os.path.dirname(target)
        if os.path.basename(parent).startswith("org.chromium.Chromium."):
            singleton = parent
    except OSError:
        pass
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
    if singleton:
        for name in ("SingletonSocket", "SingletonCookie"):
            try:
                os.unlink(os.path.join(singleton, name))
            except OSError:
                pass
        try:
            os.rmdir(singleton)
        except OSError:
            pass
