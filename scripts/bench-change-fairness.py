#!/usr/bin/env python3
"""Times root's Register+Unregister pair while another user changes its own fonts in a loop (issue 24).

    scripts/bench-change-fairness.py [--connections 0 1 8] [--flood] [--pairs 20] [--user fontreg-test-a] [--binary PATH]

Starts fontregd on the fixtures in a temporary directory (allowed root: that directory), then,
for each count of connections: that many connections of the user (through setpriv), each
registering and unregistering a folder of its own under ~/.local/share/fonts in a loop, while
root makes PAIRS Register+Unregister pairs of a folder of its own; prints the pair's median and
p90. 0 connections is the idle figure. With --flood, one more run: the user registers a folder of
its own and floods it with file events (creating, renaming and deleting small .ttf files as fast
as it can) while root makes its pairs; the number of file operations is printed; and a control:
the same flood in a folder of the user's that is not registered (what the flood costs the machine
without the daemon watching it). Run as root; build first (swift build); the user comes
from scripts/setup-deps.sh --test.
"""
import argparse
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("--connections", type=int, nargs="+", default=[0, 1, 8])
parser.add_argument("--flood", action="store_true")
parser.add_argument("--pairs", type=int, default=20)
parser.add_argument("--user", default="fontreg-test-a")
parser.add_argument("--binary", default=os.path.join(HERE, "..", ".build", "debug", "fontregd"))
arguments = parser.parse_args()

FIXTURES = os.path.join(HERE, "..", "Tests", "Fixtures", "fonts")
FONT = os.path.join(FIXTURES, "families", "AvenirFixture-Regular.ttf")

# The user's own folders, one for each connection, owned by it down from its home.
user = pwd.getpwnam(arguments.user)
base = os.path.join(user.pw_dir, ".local", "share", "fonts")
os.makedirs(base, exist_ok=True)
for path in (os.path.dirname(os.path.dirname(base)), os.path.dirname(base), base):
    os.chown(path, user.pw_uid, user.pw_gid)
folders = []
# Each run gets folders of its own: the last run's loop may be killed between Register and Unregister.
for index in range(sum(arguments.connections) + (1 if arguments.flood else 0)):
    folder = os.path.join(base, "fontreg-change-bench-%d" % index)
    os.makedirs(folder, exist_ok=True)
    os.makedirs(folder + "-unwatched", exist_ok=True)
    os.chown(folder + "-unwatched", user.pw_uid, user.pw_gid)
    font = os.path.join(folder, "Bench%d.ttf" % index)
    shutil.copy(FONT, font)
    for path in (folder, font):
        os.chown(path, user.pw_uid, user.pw_gid)
    folders.append(folder)

work = tempfile.mkdtemp(prefix="fontreg-change-bench-")
os.chmod(work, 0o755)  # the user's connections reach the socket
mine = os.path.join(work, "root-fonts")
os.makedirs(mine)
shutil.copy(FONT, os.path.join(mine, "RootBench.ttf"))
config = os.path.join(work, "fontregd.conf")
open(config, "w").close()
sock = os.path.join(work, "fontregd.sock")
daemon = subprocess.Popen(
    [arguments.binary, "--socket", sock, "--no-system-fonts", "--state-dir", os.path.join(work, "state"),
     "--cache-dir", os.path.join(work, "cache"), "--config", config, "--fonts", FIXTURES, "--allow-root", work],
    stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "fontregd.log"), "w"))

LOOP = r"""
import json, os, socket, sys, threading
path, folders = sys.argv[1], sys.argv[2:]
def call(s, method, params):
    s.sendall(json.dumps({"method": "io.fontreg.Registry." + method, "parameters": params}).encode() + b"\0")
    data = b""
    while not data.endswith(b"\0"):
        chunk = s.recv(65536)
        if not chunk:
            sys.exit("connection closed")
        data += chunk
    if b'"error"' in data[:100]:
        sys.exit(data[:300].decode())
def run(folder):
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(path)
        while True:
            call(s, "Register", {"paths": [folder]})
            call(s, "Unregister", {"paths": [folder]})
    except BaseException as error:
        print("the loop failed:", error, file=sys.stderr, flush=True)
        os._exit(1)
for folder in folders:
    threading.Thread(target=run, args=(folder,), daemon=True).start()
print("running", flush=True)
sys.stdin.read()
"""

# The event flood: the folder registered on one connection (kept open), then files made, renamed
# and deleted in it as fast as the user can; prints the operations made when its stdin closes.
FLOOD = r"""
import json, os, socket, sys, threading
path, folder, watched = sys.argv[1], sys.argv[2], sys.argv[3] == "watched"
s = socket.socket(socket.AF_UNIX)
s.connect(path)
# The control makes the same call count without registering: its folder is not watched.
call = ({"method": "io.fontreg.Registry.Register", "parameters": {"paths": [folder]}} if watched
        else {"method": "io.fontreg.Registry.GetStatus"})
s.sendall(json.dumps(call).encode() + b"\0")
data = b""
while not data.endswith(b"\0"):
    data += s.recv(65536)
if b'"error"' in data[:100]:
    sys.exit(data[:300].decode())
operations = 0
stop = threading.Event()
def flood():
    global operations
    n = 0
    while not stop.is_set():
        name = os.path.join(folder, "flood%d.ttf" % (n % 64))
        with open(name, "wb") as file:
            file.write(b"\0\1\0\0")
        os.rename(name, name + ".tmp.ttf")
        os.unlink(name + ".tmp.ttf")
        n += 1
        operations += 3
threading.Thread(target=flood, daemon=True).start()
print("running", flush=True)
sys.stdin.read()
stop.set()
print(operations, flush=True)
"""


def call(s, method, params):
    s.sendall(json.dumps({"method": "io.fontreg.Registry." + method, "parameters": params}).encode() + b"\0")
    data = b""
    while not data.endswith(b"\0"):
        chunk = s.recv(65536)
        if not chunk:
            sys.exit("the daemon closed the connection")
        data += chunk
    if b'"error"' in data[:100]:
        sys.exit(data[:300].decode())


try:
    for _ in range(200):
        if os.path.exists(sock):
            break
        time.sleep(0.05)
    used = 0
    runs = list(arguments.connections) + (["flood", "unwatched"] if arguments.flood else [])
    for count in runs:
        loop = None
        if count in ("flood", "unwatched"):
            loop = subprocess.Popen(
                ["/usr/bin/setpriv", "--reuid=%d" % user.pw_uid, "--regid=%d" % user.pw_gid, "--init-groups",
                 "/usr/bin/python3", "-c", FLOOD, sock, folders[used] + ("" if count == "flood" else "-unwatched"),
                 "watched" if count == "flood" else "control"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            loop.stdout.readline()
            time.sleep(2)
        elif count:
            loop = subprocess.Popen(
                ["/usr/bin/setpriv", "--reuid=%d" % user.pw_uid, "--regid=%d" % user.pw_gid, "--init-groups",
                 "/usr/bin/python3", "-c", LOOP, sock] + folders[used:used + count],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            used += count
            loop.stdout.readline()
            time.sleep(2)
        s = socket.socket(socket.AF_UNIX)
        s.connect(sock)
        times = []
        for _ in range(arguments.pairs):
            started = time.monotonic()
            call(s, "Register", {"paths": [mine]})
            call(s, "Unregister", {"paths": [mine]})
            times.append(time.monotonic() - started)
        s.close()
        what = "%d connections of %s looping" % (count, arguments.user) if isinstance(count, int) else ""
        if loop:
            if loop.poll() is not None:
                sys.exit("the user's loop ended early; its figures are not a flood's")
            if not isinstance(count, int):
                loop.stdin.close()
                what = "%s flooding its %s folder (%s file operations)" % (
                    arguments.user, "registered" if count == "flood" else "unregistered (control)",
                    loop.stdout.readline().strip().decode())
            loop.kill()
            loop.wait()
        times.sort()
        print("%s: root's pair median %.3f s, p90 %.3f s"
              % (what, times[len(times) // 2], times[int(len(times) * 0.9)]), flush=True)
finally:
    daemon.terminate()
    daemon.wait()
    shutil.rmtree(work, ignore_errors=True)
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(folder + "-unwatched", ignore_errors=True)
