#!/usr/bin/env python3
"""A new process's start to its first answer: `fontresolve` against `fc-match` (issue 29 item 1).

    python3 scripts/bench-process-start.py --bin .build/release [--runs 41] LABEL=DIR ...

Per corpus, in one run, interleaved (one of each in turn, so load hits both alike), the median of
--runs fork/exec → exit:
- `fontresolve resolve FAMILY --weight 700 --json --socket S`, answered from the snapshot a
  release fontregd (`--no-system-fonts --watch no`, warm cache) publishes beside its socket S;
- `fc-match 'FAMILY:weight=200'` (fontconfig's bold) with a configuration holding only the
  corpus directory and a filled cache;
- `fontresolve --help` against `fc-match --version`: the fixed cost of a start.
A label `debian=/usr/share/fonts` uses the system fonts for both. FAMILY is the corpus's first
family (fc-list). Benchmark tooling only: nothing fontreg ships needs Python.
"""
import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

_spec = importlib.util.spec_from_file_location(
    "bench_warm", os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench-warm-start.py"))
warm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(warm)


def timed(arguments, environment):
    started = time.perf_counter()
    # stderr too: `fc-match --version` prints there, once a run, 4 × --runs lines per corpus.
    subprocess.run(arguments, env=environment, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=".build/release")
    parser.add_argument("--runs", type=int, default=41)
    parser.add_argument("corpora", nargs="+", metavar="LABEL=DIR")
    arguments = parser.parse_args()
    daemon_binary = os.path.abspath(os.path.join(arguments.bin, "fontregd"))
    client = os.path.abspath(os.path.join(arguments.bin, "fontresolve"))
    work = tempfile.mkdtemp(prefix="fontreg-process-")
    ms = lambda seconds: f"{seconds * 1000:.1f} ms"
    print("| corpus | fontresolve resolve --json (snapshot) | fc-match FAMILY:weight=200 | ratio | "
          "fontresolve --help | fc-match --version | ratio |")
    print("|---|---|---|---|---|---|---|")
    for corpus in arguments.corpora:
        label, _, directory = corpus.partition("=")
        directory = os.path.abspath(directory)
        config = os.path.join(work, label + ".conf")
        with open(config, "w") as f:
            f.write(f'<?xml version="1.0"?><fontconfig><dir>{directory}</dir>'
                    f'<cachedir>{os.path.join(work, label + "-fc-cache")}</cachedir></fontconfig>')
        fc_environment = dict(os.environ, FONTCONFIG_FILE=config)
        fc_environment.pop("FONTCONFIG_PATH", None)
        subprocess.run(["fc-cache", directory], env=fc_environment, check=True, stdout=subprocess.DEVNULL)
        family = sorted(subprocess.run(["fc-list", ":", "family"], env=fc_environment, check=True,
                                       capture_output=True, text=True).stdout.split("\n"))
        family = next(f for f in family if f.strip()).split(",")[0]
        cache = tempfile.mkdtemp(dir=work)
        warm.Daemon(daemon_binary, directory, cache, work).stop()  # cold: writes the index file
        daemon = warm.Daemon(daemon_binary, directory, cache, work)
        resolve = [client, "resolve", family, "--weight", "700", "--json", "--socket", daemon.socket_path]
        reply = subprocess.run(resolve, capture_output=True, text=True, check=True)
        if "warning" in reply.stderr:
            print(f"bench-process-start: {label}: {reply.stderr.strip()}", file=sys.stderr)
        pairs = {"resolve": ([], []), "help": ([], [])}
        for _ in range(arguments.runs):
            pairs["resolve"][0].append(timed(resolve, os.environ))
            pairs["resolve"][1].append(timed(["fc-match", f"{family}:weight=200"], fc_environment))
            pairs["help"][0].append(timed([client, "--help"], os.environ))
            pairs["help"][1].append(timed(["fc-match", "--version"], fc_environment))
        daemon.stop()
        r, m = (statistics.median(v) for v in pairs["resolve"])
        h, v = (statistics.median(v) for v in pairs["help"])
        print(f"| {label} ({family}) | {ms(r)} | {ms(m)} | {r / m:.2f}× | {ms(h)} | {ms(v)} | {h / v:.2f}× |",
              flush=True)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
