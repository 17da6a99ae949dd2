#!/usr/bin/env bash
# Every benchmark side by side, in one run; writes docs/benchmarks.md and docs/benchmarks.png
# (fontconfig, matplotlib and Pango's itemizer as the peers).
#   scripts/bench-all.sh                 the whole benchmark (about 15 minutes on 2 busy cores,
#                                        plus a few minutes the first time to make the 100k corpus)
#   BENCH_SIZES="1000 10000" scripts/bench-all.sh     fewer generated corpora
#   BENCH_SECONDS=2 scripts/bench-all.sh              longer timed loops
# Installs what it needs when missing: the Debian fonts (fonts-noto-core, fonts-lato, fonts-inter,
# fonts-roboto-unhinted, fonts-open-sans, fonts-noto-cjk), fontTools and matplotlib from PyPI
# (benchmark tooling only: nothing fontreg ships needs Python).
# Generated corpora (scripts/make-corpus.py) are made once and kept under ${TMPDIR:-/tmp}.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

bash scripts/setup-deps.sh --test
dpkg-query -W -f='${Status}' fonts-noto-cjk 2>/dev/null | grep -q "install ok installed" || {
    sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
    echo "bench-all: installing fonts-noto-cjk" >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq fonts-noto-cjk >/dev/null
}
# valgrind and strace count a warm start's instructions and system calls (bench-warm-start-instructions.py).
for package in valgrind strace; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || {
        sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
        echo "bench-all: installing $package" >&2
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$package" >/dev/null
    }
done
py=$(bash scripts/venv.sh matplotlib)   # the project's Python, with fontTools and matplotlib

# The binaries as shipped (scripts/build-release.sh: the Swift runtime, Foundation and libstdc++
# linked statically), so that a new process's start is measured as users get it.
source scripts/release-flags.sh
for product in fontreg-bench fontregd fontregd-bench fontresolve; do
    swift build "${flags[@]}" --product "$product" >/dev/null
done
bin=$(swift build "${flags[@]}" --show-bin-path)
# A binary just linked has its pages dirty in the page cache until they are written back, and
# /proc/PID/smaps counts them as the daemon's private dirty memory (8 MiB of fontregd's text):
# written back now, so that no memory figure below depends on when the kernel flushes them.
sync

tmp=${TMPDIR:-/tmp}
corpora=("debian=/usr/share/fonts/truetype/noto,/usr/share/fonts/truetype/lato,/usr/share/fonts/opentype/inter,/usr/share/fonts/truetype/roboto,/usr/share/fonts/truetype/open-sans,/usr/share/fonts/opentype/noto")
for n in ${BENCH_SIZES:-1000 10000 100000}; do
    dir="$tmp/fontreg-corpus-$n"
    if [[ ! -d $dir ]]; then
        echo "bench-all: generating $n faces into $dir (kept for the next run)" >&2
        rm -rf "$dir.partial"
        "$py" scripts/make-corpus.py "$n" "$dir.partial" >&2
        mv "$dir.partial" "$dir"
    fi
    label=$n; ((n % 1000 == 0)) && label="$((n / 1000))k"
    corpora+=("generated-$label=$dir")
done

work=$(mktemp -d "$tmp/fontreg-bench-all.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The 1-minute load average before and after each part, so the section states the load of the
# whole run (the peers' scripts run before bench-all.py); and what the run measured.
sample_load() { cut -d' ' -f1 /proc/loadavg >>"$work/loads"; }
sample_load
started=$(date -u '+%Y-%m-%d %H:%M UTC')   # the measurements start here, after the build
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- Sources Package.swift 2>/dev/null || commit="$commit, with uncommitted changes to Sources"
failed=()
# In the same run, the peers of issue 29: text fallback per code point against Pango's itemizer and
# fontconfig (Debian fonts); a new process's start against fc-match; a warm start to READY against
# fc-match and fontconfig's warm cache, with private dirty memory after a cold and a warm start.
tables=()
echo "bench-all: text fallback against Pango and fontconfig" >&2
if FONTREG_BIN="$bin" FONTREG_BENCH_SECONDS="${BENCH_SECONDS:-1}" bash scripts/bench-fallback.sh >"$work/fallback.md"; then
    tables+=(--table "Text fallback against Pango's itemizer and fontconfig (scripts/bench-fallback.sh)=$work/fallback.md")
else
    failed+=(--failed "scripts/bench-fallback.sh")
fi
sample_load
starts=("debian=/usr/share/fonts")
for corpus in "${corpora[@]:1}"; do starts+=("$corpus"); done
echo "bench-all: a new process against fc-match" >&2
if "$py" scripts/bench-process-start.py --bin "$bin" --runs 21 "${starts[@]}" >"$work/process.md"; then
    tables+=(--table "A new process against fc-match (scripts/bench-process-start.py --runs 21; debian = all of /usr/share/fonts)=$work/process.md")
else
    failed+=(--failed "scripts/bench-process-start.py")
fi
sample_load
echo "bench-all: warm start against fc-match" >&2
if "$py" scripts/bench-warm-start.py --bin "$bin" --rounds 3 --queries 5000 "${starts[@]}" >"$work/warm.md"; then
    tables+=(--table "Warm start to READY and memory (scripts/bench-warm-start.py --rounds 3 --queries 5000; debian = all of /usr/share/fonts)=$work/warm.md")
else
    failed+=(--failed "scripts/bench-warm-start.py")
fi
sample_load
# The repeatable half of a warm start's figure: instructions to READY against one fc-match process,
# on the corpora up to 10,000 faces (callgrind runs a start 50 times slower: at 100,000 faces that
# is minutes a start), without and with 1,000 users' registrations. valgrind cannot read the static
# runtime's debug information, hence the stripped copy.
echo "bench-all: warm start instructions against fc-match (callgrind)" >&2
cp "$bin/fontregd" "$work/fontregd-stripped" && strip --strip-debug "$work/fontregd-stripped"
small=()
for corpus in "${starts[@]}"; do
    n=${corpus#generated-}; n=${n%%=*}
    [[ $corpus == generated-* && $n == *k && ${n%k} -gt 10 ]] || small+=("$corpus")
done
largest_small=${small[-1]}
if "$py" scripts/bench-warm-start-instructions.py "$work/fontregd-stripped" "${small[@]}" >"$work/instructions.md" &&
    "$py" scripts/bench-warm-start-instructions.py --registrations 1000 "$work/fontregd-stripped" \
        "${small[0]}" "$largest_small" >"$work/instructions-registrations.md"; then
    tables+=(--table "Warm start to READY in instructions against an fc-match process (scripts/bench-warm-start-instructions.py; corpora up to 10,000 faces)=$work/instructions.md")
    tables+=(--table "The same with 1,000 users' registrations (scripts/bench-warm-start-instructions.py --registrations 1000)=$work/instructions-registrations.md")
else
    failed+=(--failed "scripts/bench-warm-start-instructions.py")
fi
sample_load
"$py" scripts/bench-all.py --bin "$bin" --work "$work" --seconds "${BENCH_SECONDS:-1}" \
    --results "${BENCH_RESULTS:-$work/results.json}" --commit "$commit" --started "$started" --loads-file "$work/loads" \
    --command "${BENCH_SIZES:+BENCH_SIZES=\"$BENCH_SIZES\" }${BENCH_SECONDS:+BENCH_SECONDS=$BENCH_SECONDS }scripts/bench-all.sh" \
    "${tables[@]}" "${failed[@]}" "${corpora[@]}"
