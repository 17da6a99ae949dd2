#!/usr/bin/env python3
"""Cold index build against fontconfig's uncached scan of the same files (issue 13).

    python3 scripts/bench-cold.py --bin .build/release [--rounds 3] LABEL=DIR ...

Per corpus, in one run, alternating, each the median of --rounds:
- fontregd: fork/exec to the `READY=1` datagram on a NOTIFY_SOCKET this script owns, with an
  empty --cache-dir (no face cache, no snapshot: every file walked, opened and parsed by the
  sandboxed workers, the index built, the snapshot written), `--no-system-fonts --watch no`;
- fontconfig in process: `FcConfigAppFontAddDir` on a fresh configuration whose only setting is
  an empty cache directory (as fontreg-bench's FontconfigPeer), through ctypes;
- fc-cache: `fc-cache` run on a configuration holding just the directory and an empty cache
  directory (fork/exec to exit; it writes its cache files, as fontregd writes its snapshot).
Also the fixed cost: fontregd to READY on an empty directory and on one font file. The files are
read once, untimed, before the rounds: every figure is of a scan from the page cache.
Benchmark tooling only: nothing fontreg ships needs Python.
"""
import argparse
import ctypes
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def log(message):
    print(f"bench-cold: {message}", file=sys.stderr, flush=True)


def fontregd_ready(binary, directory, work):
    """Seconds from fork/exec of fontregd to READY=1 with an empty cache directory, its status line, and
    the cores it kept busy meanwhile (CPU time of the daemon and its parse workers ÷ those seconds)."""
    run = tempfile.mkdtemp(dir=work)
    notify_path = os.path.join(run, "notify")
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(notify_path)
    notify.settimeout(900)
    arguments = [binary, "--socket", os.path.join(run, "s"), "--no-system-fonts", "--watch", "no",
                 "--state-dir", os.path.join(run, "state"), "--cache-dir", os.path.join(run, "cache"),
                 "--config", "/dev/null", "--fonts", directory]
    with open(os.path.join(run, "log"), "w") as out:
        started = time.perf_counter()
        process = subprocess.Popen(arguments, env=dict(os.environ, NOTIFY_SOCKET=notify_path), stdout=out,
                                   stderr=out, stdin=subprocess.DEVNULL)
        status = ""
        while True:
            message = notify.recv(4096).decode()
            fields = message.split("\n")
            status = next((f[7:] for f in fields if f.startswith("STATUS=")), status)
            if "READY=1" in fields:
                seconds = time.perf_counter() - started
                break
    process.send_signal(signal.SIGTERM)
    # The daemon's CPU time with that of the parse workers it waited for (they end with the scan).
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0
    notify.close()
    shutil.rmtree(run, ignore_errors=True)
    return seconds, status, (usage.ru_utime + usage.ru_stime) / seconds


class Fontconfig:
    """libfontconfig through ctypes: the uncached scan in this process."""

    def __init__(self):
        self.lib = ctypes.CDLL("libfontconfig.so.1")
        self.lib.FcConfigCreate.restype = ctypes.c_void_p
        self.lib.FcConfigParseAndLoadFromMemory.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        self.lib.FcConfigSetRescanInterval.argtypes = [ctypes.c_void_p, ctypes.c_int]
        self.lib.FcConfigAppFontAddDir.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        self.lib.FcConfigGetFonts.argtypes = [ctypes.c_void_p, ctypes.c_int]
        self.lib.FcConfigGetFonts.restype = ctypes.POINTER(ctypes.c_int)  # FcFontSet: nfont first
        self.lib.FcConfigDestroy.argtypes = [ctypes.c_void_p]

    def uncached(self, directory, work):
        """Seconds for FcConfigAppFontAddDir with an empty cache directory, and the patterns it holds."""
        cache = tempfile.mkdtemp(dir=work)
        config = self.lib.FcConfigCreate()
        xml = f'<?xml version="1.0"?><fontconfig><cachedir>{cache}</cachedir></fontconfig>'.encode()
        self.lib.FcConfigParseAndLoadFromMemory(config, xml, 1)
        self.lib.FcConfigSetRescanInterval(config, 0)
        started = time.perf_counter()
        self.lib.FcConfigAppFontAddDir(config, directory.encode())
        seconds = time.perf_counter() - started
        fonts = self.lib.FcConfigGetFonts(config, 1)  # FcSetApplication
        patterns = fonts[0] if fonts else 0
        self.lib.FcConfigDestroy(config)
        shutil.rmtree(cache, ignore_errors=True)
        return seconds, patterns


def fc_cache(directory, work):
    """Seconds for `fc-cache` (fork/exec to exit) on a configuration with the directory and an empty cache."""
    run = tempfile.mkdtemp(dir=work)
    config = os.path.join(run, "fonts.conf")
    with open(config, "w") as f:
        f.write(f'<?xml version="1.0"?><fontconfig><dir>{directory}</dir>'
                f'<cachedir>{os.path.join(run, "cache")}</cachedir></fontconfig>')
    environment = dict(os.environ, FONTCONFIG_FILE=config)
    environment.pop("FONTCONFIG_PATH", None)
    started = time.perf_counter()
    subprocess.run(["fc-cache", directory], env=environment, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    shutil.rmtree(run, ignore_errors=True)
    return seconds


def ms(seconds):
    return f"{seconds * 1000:,.0f} ms" if seconds < 10 else f"{seconds:.2f} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/release")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work", default=None)
    parser.add_argument("--no-fc-cache", action="store_true", help="skip the fc-cache column")
    parser.add_argument("--baseline", default=None, metavar="DIR",
                        help="another build's fontregd (e.g. before a change), measured in the same rounds")
    parser.add_argument("corpora", nargs="+", metavar="LABEL=DIR")
    arguments = parser.parse_args()
    binary = os.path.abspath(os.path.join(arguments.bin, "fontregd"))
    work = arguments.work or tempfile.mkdtemp(prefix="fontreg-cold-")
    os.makedirs(work, exist_ok=True)
    fontconfig = Fontconfig()

    empty = tempfile.mkdtemp(dir=work)
    one = tempfile.mkdtemp(dir=work)
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fonts", "Lato", "Lato-Regular.ttf")
    shutil.copy(source, one)
    fixed = {label: statistics.median(fontregd_ready(binary, directory, work)[0] for _ in range(5))
             for label, directory in (("empty directory", empty), ("one file", one))}
    print(f"fontregd fixed cost, fork/exec to READY (median of 5): empty directory {ms(fixed['empty directory'])}, "
          f"one file {ms(fixed['one file'])}")
    print()
    print("| corpus | faces (fontreg / fontconfig patterns) | fontregd fork/exec → READY, empty cache (cores busy) | "
          "fontconfig uncached, in process | fc-cache, uncached (fork/exec → exit) | fontregd ÷ fontconfig in process | "
          "fontregd ÷ fc-cache |" + (" baseline fontregd (÷ fontconfig in process) |" if arguments.baseline else ""))
    print("|---|---|---|---|---|---|---|" + ("---|" if arguments.baseline else ""))
    for corpus in arguments.corpora:
        label, _, directory = corpus.partition("=")
        directory = os.path.abspath(directory)
        daemon, inproc, cache, cores, before = [], [], [], [], []
        status, patterns = "", 0
        # Untimed: the files into the page cache, so that no side pays for the disk the other warmed.
        fontconfig.uncached(directory, work)
        for round in range(arguments.rounds):
            # Alternate which goes first, so neither always runs right after the other.
            steps = ["daemon", "fontconfig", "fc-cache"] + (["baseline"] if arguments.baseline else [])
            if round % 2:
                steps.reverse()
            for step in steps:
                if step == "daemon":
                    seconds, status, busy = fontregd_ready(binary, directory, work)
                    daemon.append(seconds)
                    cores.append(busy)
                elif step == "fontconfig":
                    seconds, patterns = fontconfig.uncached(directory, work)
                    inproc.append(seconds)
                elif step == "baseline":
                    before.append(fontregd_ready(os.path.abspath(os.path.join(arguments.baseline, "fontregd")),
                                                 directory, work)[0])
                elif not arguments.no_fc_cache:
                    cache.append(fc_cache(directory, work))
            log(f"{label} round {round + 1}: fontregd {ms(daemon[-1])} ({cores[-1]:.2f} cores), "
                f"fontconfig {ms(inproc[-1])}"
                + (f", fc-cache {ms(cache[-1])}" if cache else "")
                + (f", baseline fontregd {ms(before[-1])}" if before else "") + f" ({status})")
        d, f = statistics.median(daemon), statistics.median(inproc)
        c = statistics.median(cache) if cache else None
        faces = next((w for w in status.replace(",", "").split() if w.isdigit()), "?")
        print(f"| {label} | {faces} / {patterns} | {ms(d)} ({statistics.median(cores):.2f} cores) | {ms(f)} | {ms(c) if c else '–'} | {d / f:.2f}× | "
              + (f"{d / c:.2f}× |" if c else "– |")
              + (f" {ms(statistics.median(before))} ({statistics.median(before) / f:.2f}×) |" if before else ""),
              flush=True)
    if not arguments.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
