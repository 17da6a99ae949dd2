#!/usr/bin/env python3
"""Times a fresh `fc-list` with and without the daemon's fontconfig caches (issue 28).

    sudo python3 scripts/bench-fontconfig-cache.py .build/debug/fontregd Tests/Fixtures/fonts [runs]

Starts fontregd with FONTS as its font directory and the fontconfig bridge on, waits until the
bridge's <cachedir> holds a cache for every directory, then runs `fc-list` as nobody (HOME and
XDG_CACHE_HOME unwritable), RUNS times each, in three configurations in the same run:

  scan    a <dir> of FONTS and no cache anywhere: fontconfig scans every font, every run
          (what each user's first application pays without the daemon)
  user    a <dir> of FONTS and a cache directory already filled by an earlier fc-list run
          (what later runs of a user who scanned once pay)
  daemon  only the bridge file: the daemon's caches

and prints the median wall-clock time of each and the ratios. Needs root (the daemon gives its
cache worker to nobody) and util-linux's setpriv.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    daemon, fonts = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 11
    work = tempfile.mkdtemp(prefix="fontreg-fccache-")
    os.chmod(work, 0o755)
    try:
        run(daemon, fonts, runs, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def write(path, text, mode=0o644):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def run(daemon, fonts, runs, work):
    for name in ("state", "cache", "user-cache", "empty"):
        os.makedirs(os.path.join(work, name))
    os.chmod(os.path.join(work, "empty"), 0o755)
    write(os.path.join(work, "fontregd.conf"), "# bench\n")
    bridge = os.path.join(work, "bridge", "fontreg.conf")
    log = open(os.path.join(work, "log"), "w")
    proc = subprocess.Popen(
        [daemon, "--socket", os.path.join(work, "sock"), "--no-system-fonts", "--state-dir",
         os.path.join(work, "state"), "--cache-dir", os.path.join(work, "cache"), "--config",
         os.path.join(work, "fontregd.conf"), "--fonts", fonts, "--watch", "no", "--fontconfig-config", bridge],
        stdout=log, stderr=log)
    try:
        directories = [root for root, _, _ in os.walk(fonts)]
        deadline = time.time() + 600
        cachedir = os.path.join(work, "bridge", "cache")
        while time.time() < deadline:
            names = os.listdir(cachedir) if os.path.isdir(cachedir) else []
            if len([n for n in names if ".cache-" in n and not n.startswith(".")]) >= len(directories):
                break
            time.sleep(0.2)
        else:
            sys.exit("the daemon's caches did not appear; see " + log.name)
        built = time.time()
        header = '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
        configs = {
            "scan": f"{header}<fontconfig><dir>{fonts}</dir><cachedir>{work}/empty</cachedir></fontconfig>\n",
            "user": f"{header}<fontconfig><dir>{fonts}</dir><cachedir>{work}/user-cache</cachedir></fontconfig>\n",
            "daemon": f"{header}<fontconfig><include>{bridge}</include></fontconfig>\n",
        }
        for name, text in configs.items():
            write(os.path.join(work, name + ".conf"), text)
        shutil.chown(os.path.join(work, "user-cache"), "nobody")
        faces = {}
        times = {name: [] for name in configs}
        for index in range(runs + 1):
            for name in configs:
                env = {"FONTCONFIG_FILE": os.path.join(work, name + ".conf"), "HOME": "/nonexistent",
                       "XDG_CACHE_HOME": "/nonexistent", "PATH": "/usr/bin:/bin"}
                start = time.perf_counter()
                out = subprocess.run(
                    ["setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups", "fc-list", "--format",
                     "%{file}\n"], env=env, capture_output=True, check=True)
                spent = time.perf_counter() - start
                faces[name] = len(out.stdout.splitlines())
                if index > 0:  # the first round fills the user's cache
                    times[name].append(spent)
        files = sum(len(f) for _, _, f in os.walk(fonts))
        print(f"{fonts}: {files} files in {len(directories)} directories; caches built "
              f"{built - proc_start:.1f} s after start; {runs} runs each (median):")
        medians = {name: statistics.median(values) * 1000 for name, values in times.items()}
        for name in configs:
            print(f"  {name:6s} {medians[name]:8.1f} ms  ({faces[name]} faces listed)")
        print(f"  scan/daemon {medians['scan'] / medians['daemon']:.1f}x, "
              f"user/daemon {medians['user'] / medians['daemon']:.2f}x")
    finally:
        proc.terminate()
        proc.wait()


proc_start = time.time()
if __name__ == "__main__":
    main()
