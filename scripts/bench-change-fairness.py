#!/usr/bin/env python3
"""Times root's Register+Unregister pair while another user changes its own fonts in a loop (issue 24).

    scripts/bench-change-fairness.py [--connections 0 1 8] [--pairs 20] [--user fontreg-test-a] [--binary PATH]

Starts fontregd on the fixtures in a temporary directory (allowed root: that directory), then,
for each count of connections: that many connections of the user (through setpriv), each
registering and unregistering a folder of its own under ~/.local/share/fonts in a loop, while
root makes PAIRS Register+Unregister pairs of a folder of its own; prints the pair's median and
p90. 0 connections is the idle figure. Run as root; build first (swift build); the user comes
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
for index in range(sum(arguments.connections)):
    folder = os.path.join(base, "fontreg-change-bench-%d" % index)
    os.makedirs(folder, exist_ok=True)
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
    for count in arguments.connections:
        loop = None
        if count:
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
        if loop:
            if loop.poll() is not None:
                sys.exit("the user's loop ended early; its figures are not a flood's")
            loop.kill()
            loop.wait()
        times.sort()
        print("%d connections of %s looping: root's pair median %.3f s, p90 %.3f s"
              % (count, arguments.user, times[len(times) // 2], times[int(len(times) * 0.9)]), flush=True)
finally:
    daemon.terminate()
    daemon.wait()
    shutil.rmtree(work, ignore_errors=True)
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)
