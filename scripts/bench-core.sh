#!/usr/bin/env bash
# The core benchmark: index build and in-process resolve against fontconfig on the same fonts.
# Part of scripts/bench-all.sh, which runs every benchmark side by side; this one alone is quicker.
#   scripts/bench-core.sh            writes the table into docs/benchmarks.md
# Corpora: the real Debian fonts (installed here if missing) and a generated corpus of
# 10,000 faces (made on the fly by scripts/make-corpus.py into $TMPDIR, not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
bash scripts/setup-deps.sh --test
swift build -c release --product fontreg-bench >/dev/null

tmp=${TMPDIR:-/tmp}
for n in 1000 10000; do
    [[ -d "$tmp/fontreg-corpus-$n" ]] || "$(bash scripts/venv.sh)" scripts/make-corpus.py "$n" "$tmp/fontreg-corpus-$n" >&2
done
debian=/usr/share/fonts/truetype/noto,/usr/share/fonts/truetype/lato,/usr/share/fonts/opentype/inter,/usr/share/fonts/truetype/roboto,/usr/share/fonts/truetype/open-sans
table=$(.build/release/fontreg-bench "debian=$debian" "generated-1k=$tmp/fontreg-corpus-1000" "generated-10k=$tmp/fontreg-corpus-10000")
echo "$table"

machine="$(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(lscpu | sed -n 's/^Model name: *//p'), fontconfig $(pkg-config --modversion fontconfig), FreeType $(pkg-config --modversion freetype2)"
section=$(cat <<MD
<!-- core-benchmark:start -->
## Core: index build and in-process resolve (issue 2)

Command: \`scripts/bench-core.sh\` (release build; $(date -u +%Y-%m-%d); $machine).

$table

- *fontreg resolve / query*: \`Resolver.resolve\` in process, 2,000 distinct queries (family × nine
  weights × upright/italic, a third with Bold Text) cycled for at least a second, trace included.
- *FcFontMatch / query*: the same queries as prepared patterns (family, weight converted with
  \`FcWeightFromOpenType\`, slant; \`FcConfigSubstitute\` + \`FcDefaultSubstitute\` done beforehand) on a
  private fontconfig configuration holding the same directories; only \`FcFontMatch\` is timed.
- *ready to serve*: \`FontRegistry(configuration:)\` returns — walk, read every face with FreeType (one
  descriptor per checked regular file), build the index. *with its fontconfig view*: until the registry's
  private fontconfig configuration has every file too (\`FcConfigAppFontAddFile\`, fed on a background queue
  because fontconfig's own parse, its charset above all, costs several times FreeType's and nothing in
  resolution waits for it). *warm face cache*: the same again with the face cache (\`faces.cache\`) the first
  build wrote. *fontconfig scan*: \`FcConfigAppFontAddDir\` on a fresh configuration with an empty cache
  directory (uncached), then again with that cache (warm). Times are medians of timed rounds.
  \`scripts/bench-all.sh\` runs this with the peers (matplotlib, the daemon) on up to 100,000 faces.
<!-- core-benchmark:end -->
MD
)
doc=docs/benchmarks.md
[[ -f $doc ]] || printf '# Benchmarks\n\nEvery figure comes from a command in this repository; machines here are shared and noisy, so compare the ratios measured in the same run.\n\n' > $doc
python3 - "$doc" "$section" <<'PY'
import re, sys
path, section = sys.argv[1], sys.argv[2]
text = open(path).read()
pattern = re.compile(r"<!-- core-benchmark:start -->.*?<!-- core-benchmark:end -->", re.S)
text = pattern.sub(lambda _: section, text) if pattern.search(text) else text.rstrip() + "\n\n" + section + "\n"
open(path, "w").write(text)
PY
echo "wrote $doc" >&2
