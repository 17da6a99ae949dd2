#!/usr/bin/env python3
"""Times one user's persistent Register + Unregister while other users hold their full budget (issue 24).

    scripts/bench-persist-cost.py [--others U] [--rounds R] [--binary PATH]

Writes U other uids (default 1, uids 50000+ without a home), each holding the default budget of
persisted state (256 persistent registrations of empty directories, about 256 KiB as
serialized), into the state directory's platform.json (a daemon with per-user files migrates it
at start), starts fontregd (as root) and waits until the users' registrations are restored.
Then, as fontreg-test-a (setpriv), it times R pairs of a persistent Register of an empty folder
of its own and its Unregister, and prints the median and p90 of each call, the daemon's CPU time per
pair (utime + stime, which the machine's load moves less than wall time) and the bytes the
daemon wrote per pair (`wchar` of /proc/<pid>/io). Before per-user
files, each persistent change rewrote the whole state, so its cost grew with the others' state;
run it with --binary of an earlier build for the before. Run as root; build first (swift build).
"""
import argparse
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from persisted_state import make_registration, write_state  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--others", type=int, default=1)
parser.add_argument("--rounds", type=int, default=30)
parser.add_argument("--binary", default=os.path.join(os.path.dirname(__file__), "..", ".build", "debug", "fontregd"))
arguments = parser.parse_args()
user = pwd.getpwnam("fontreg-test-a")

work = tempfile.mkdtemp(prefix="fontreg-persist-")
os.chmod(work, 0o755)
root = os.path.join(work, "users")
state = os.path.join(work, "state")
os.makedirs(state)
records = []
for other in range(arguments.others):
    uid = 50000 + other
    for n in range(256):
        # About 1,000 bytes a record as serialized: 256 of them are the 256 KiB budget.
        path = os.path.join(root, str(uid), f"{n:03}-" + "d" * 200, "d" * 200, "d" * 200, "d" * 200, "d" * 80)
        records.append(make_registration(root, path, uid))
size = write_state(state, records)
print(f"{arguments.others} other users, {len(records)} registrations, platform.json {size >> 10} KiB")
own = os.path.join(root, "a", "fonts")
os.makedirs(own)
for path in (own, os.path.dirname(own)):
    os.chown(path, user.pw_uid, user.pw_gid)

os.makedirs(os.path.join(work, "none"))
log_path = os.path.join(work, "log")
log = open(log_path, "w")
sock = os.path.join(work, "s.sock")
process = subprocess.Popen(
    [arguments.binary, "--socket", sock, "--no-system-fonts", "--watch", "no",
     "--state-dir", state, "--cache-dir", os.path.join(work, "cache"), "--config", "/dev/null",
     "--user-font-root", root, "--fonts", os.path.join(work, "none")],
    stdout=log, stderr=log)
deadline = time.time() + 600
while time.time() < deadline and process.poll() is None:
    with open(log_path) as file:
        if any("users' persistent registrations in" in line and "restored" in line for line in file):
            break
    time.sleep(0.05)
else:
    raise SystemExit(open(log_path).read())

client = r'''
import json, socket, statistics, sys, time
sock, path, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
connection = socket.socket(socket.AF_UNIX)
connection.settimeout(120)
connection.connect(sock)
def call(method, parameters):
    connection.sendall(json.dumps({"method": "io.fontreg.Registry." + method, "parameters": parameters}).encode() + b"\0")
    reply = b""
    while not reply.endswith(b"\0"):
        reply += connection.recv(65536)
    answer = json.loads(reply[:-1])
    if "error" in answer:
        raise SystemExit(f"{method}: {answer}")
times = {"Register": [], "Unregister": []}
for _ in range(rounds):
    for method, parameters in (("Register", {"paths": [path], "scope": "persistent"}), ("Unregister", {"paths": [path]})):
        started = time.perf_counter()
        call(method, parameters)
        times[method].append(time.perf_counter() - started)
for method, values in times.items():
    values.sort()
    print(f"{method} (persistent): median {statistics.median(values) * 1000:.1f} ms, "
          f"p90 {values[int(len(values) * 0.9)] * 1000:.1f} ms over {len(values)}")
'''
def written():
    with open(f"/proc/{process.pid}/io") as file:
        return next(int(line.split()[1]) for line in file if line.startswith("wchar:"))


def cpu_seconds():
    """The daemon's user + system CPU time so far (/proc/<pid>/stat): less moved by the load than wall time."""
    with open(f"/proc/{process.pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


before = written()
cpu_before = cpu_seconds()
subprocess.run(
    ["setpriv", "--reuid", str(user.pw_uid), "--regid", str(user.pw_gid), "--clear-groups",
     "python3", "-c", client, sock, own, str(arguments.rounds)], check=True)
print(f"fontregd CPU per Register + Unregister pair: {(cpu_seconds() - cpu_before) / arguments.rounds * 1000:.1f} ms "
      "(utime + stime)")
print(f"fontregd wrote {(written() - before) / arguments.rounds / 1024:.1f} KiB per Register + Unregister pair "
      "(wchar: state files, log, replies)")
listing = sorted(os.listdir(state))
print("state directory:", " ".join(listing))
process.terminate()
process.wait()
log.close()
shutil.rmtree(work)
