#!/usr/bin/env python3
"""Times fontregd's start with N users' persistent registrations in platform.json (issue 24).

    scripts/bench-user-registrations.py N [--path-bytes B] [--users U] [--binary PATH]

Makes N empty directories of about B bytes of path each (default 3,700) under a temporary
user-font-root, owned by U uids (default 1) that have no home, writes them into the state
directory's platform.json as those users' persistent registrations, starts fontregd (as root:
it checks each owner) with NOTIFY_SOCKET, and prints when it sent READY=1, when it first answered
GetStatus and when its log said the users' registrations were restored (after READY since issue 24),
and how long root's Register of an empty folder, sent as soon as GetStatus first answered, took
(while the restore runs: one change before issue 24's chunks, a chunk since). Run as root; build
first (swift build).
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from persisted_state import make_registration, write_state  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("count", type=int)
parser.add_argument("--path-bytes", type=int, default=3700)
parser.add_argument("--users", type=int, default=1)
parser.add_argument("--binary", default=os.path.join(os.path.dirname(__file__), "..", ".build", "debug", "fontregd"))
arguments = parser.parse_args()

work = tempfile.mkdtemp(prefix="fontreg-startup-")
root = os.path.join(work, "users")
state = os.path.join(work, "state")
os.makedirs(state)
records = []
for n in range(arguments.count):
    uid = 50000 + n % arguments.users
    path = os.path.join(root, str(n))
    while len(path) + 201 < arguments.path_bytes:
        path = os.path.join(path, "d" * 200)
    records.append(make_registration(root, path, uid))
size = write_state(state, records)
print(f"{arguments.count} registrations, {arguments.users} users, platform.json {size >> 10} KiB")

notify_path = os.path.join(work, "notify")
notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
notify.bind(notify_path)
notify.setblocking(False)
os.chmod(notify_path, 0o666)
os.makedirs(os.path.join(work, "none"))
admin = os.path.join(work, "admin")
os.makedirs(os.path.join(admin, "folder"))
log_path = os.path.join(work, "log")
log = open(log_path, "w")
started = time.perf_counter()
process = subprocess.Popen(
    [arguments.binary, "--socket", os.path.join(work, "s.sock"), "--no-system-fonts", "--watch", "no",
     "--state-dir", state, "--cache-dir", os.path.join(work, "cache"), "--config", "/dev/null",
     "--user-font-root", root, "--fonts", os.path.join(work, "none"), "--allow-root", admin],
    env=dict(os.environ, NOTIFY_SOCKET=notify_path), stdout=log, stderr=log)
def answers():
    try:
        client = socket.socket(socket.AF_UNIX)
        client.settimeout(5)
        client.connect(os.path.join(work, "s.sock"))
        client.sendall(b'{"method":"io.fontreg.Registry.GetStatus"}\0')
        return client.recv(65536).startswith(b'{"parameters"')
    except OSError:
        return False


notified = None


def poll_notify():
    global notified
    try:
        while notified is None:
            if b"READY=1" in notify.recv(4096):
                notified = time.perf_counter() - started
    except BlockingIOError:
        pass


while not answers():
    poll_notify()
    if process.poll() is not None:
        raise SystemExit(open(log_path).read())
    time.sleep(0.02)
ready = time.perf_counter() - started
time.sleep(0.02)
poll_notify()
client = socket.socket(socket.AF_UNIX)
client.connect(os.path.join(work, "s.sock"))
sent = time.perf_counter()
client.sendall(json.dumps({"method": "io.fontreg.Registry.Register",
                           "parameters": {"paths": [os.path.join(admin, "folder")]}}).encode() + b"\0")
reply = b""
while not reply.endswith(b"\0"):
    reply += client.recv(65536)
root_register = time.perf_counter() - sent
client.close()
while notified is None and time.perf_counter() - started < 900 and process.poll() is None:
    poll_notify()
    time.sleep(0.02)
restored = None
deadline = time.time() + 900
while restored is None and time.time() < deadline and process.poll() is None:
    with open(log_path) as file:
        if any("users' persistent registrations in" in line and "restored" in line for line in file):
            restored = time.perf_counter() - started
    time.sleep(0.05)
print(f"READY=1 after {notified:.2f} s; first GetStatus answered after {ready:.2f} s; "
      + "users' registrations restored after "
      + (f"{restored:.2f} s" if restored is not None else "(not logged)"))
print(f"root's Register sent at {ready:.2f} s answered in {root_register:.2f} s"
      + ("" if reply.startswith(b'{"parameters"') else f": {reply[:200]!r}"))
with open(log_path) as file:
    print("".join(line for line in file if "restored" in line or "refused" in line)[:2000], end="")
process.terminate()
process.wait()
notify.close()
log.close()
shutil.rmtree(work)
