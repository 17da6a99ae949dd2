#!/usr/bin/env python3
"""matplotlib's font matching as a peer of fontreg's resolver, on the same fonts and queries.

    .venv/bin/python scripts/bench-matplotlib.py LABEL QUERIES.tsv SECONDS DIR[,DIR...]

Builds a FontManager over exactly the font files of DIR (the system fonts it finds on its
own are dropped), then times `findfont(FontProperties(family, weight, style),
fallback_to_default=False)` over the queries fontreg-bench wrote (family<TAB>weight<TAB>italic).
`findfont` keeps an lru_cache of 1,024 answers; it is cleared before every call, so every call
scores the font list as a first query would (the clear itself costs well under a microsecond).
Prints one JSON object. Benchmark tooling only: nothing fontreg ships needs Python.
"""
import json
import logging
import os
import sys
import time

import matplotlib
from matplotlib import font_manager
from matplotlib.font_manager import FontManager, FontProperties

EXTENSIONS = {".ttf", ".otf", ".ttc", ".otc"}


def font_files(directories):
    for directory in directories:
        for root, dirs, files in os.walk(directory):
            dirs.sort()
            for name in sorted(files):
                if os.path.splitext(name)[1].lower() in EXTENSIONS:
                    yield os.path.join(root, name)


def main():
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)  # one "now using 500" line per miss
    label, queries_file, seconds, directories = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4].split(",")
    manager = FontManager()
    manager.ttflist, manager.afmlist = [], []
    start = time.perf_counter()
    skipped = 0
    for path in font_files(directories):
        try:
            manager.addfont(path)
        except Exception:  # matplotlib's FT2Font refuses a few files fontreg reads (e.g. some CFF collections)
            skipped += 1
    build = time.perf_counter() - start

    queries = []
    with open(queries_file) as handle:
        for line in handle:
            family, weight, italic = line.rstrip("\n").split("\t")
            queries.append(FontProperties(family=[family], weight=int(weight), style="italic" if italic == "1" else "normal"))
    clear = FontManager._findfont_cached.cache_clear
    calls = found = 0
    samples = []  # per call; the median is the figure (a call preempted by another engineer's build is an outlier)
    start = time.perf_counter()
    while True:
        for prop in queries:
            clear()
            began = time.perf_counter()
            try:
                manager.findfont(prop, fallback_to_default=False, rebuild_if_missing=False)
                found += 1
            except ValueError:
                pass
            samples.append(time.perf_counter() - began)
            calls += 1
            if calls % 8 == 0 and time.perf_counter() - start >= seconds:
                break
        else:
            continue
        break
    samples.sort()
    print(json.dumps({
        "label": label, "entries": len(manager.ttflist), "skippedFiles": skipped, "buildSeconds": build,
        "findfontNanoseconds": samples[len(samples) // 2] * 1e9, "findfontCalls": calls, "found": found,
        "matplotlib": matplotlib.__version__,
    }, sort_keys=True))


if __name__ == "__main__":
    main()
