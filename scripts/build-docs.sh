#!/usr/bin/env bash
# Builds the DocC documentation of FontRegCore, the library applications embed, and fails on any
# DocC warning or on a public symbol without a `///` comment.
#
#   scripts/build-docs.sh [OUTPUT]     (default .build/docs/FontRegCore.doccarchive)
#
# `swift package generate-documentation` needs the swift-docc-plugin package, which the project
# does not fetch; this drives the toolchain's `docc` directly: the compiler writes the module's
# symbol graph, `docc convert` turns it and the catalog Sources/FontRegCore/FontRegCore.docc into
# an archive. The symbol graph comes from a build in its own scratch directory, so the flags it
# needs do not invalidate the ordinary build in .build.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

output="${1:-.build/docs/FontRegCore.doccarchive}"
scratch=.build/docs/build
graphs=.build/docs/symbol-graphs
mkdir -p "$graphs" "$(dirname "$output")"
# The compiler writes the graphs when it emits the module; an up-to-date build keeps the last ones.

swift build --scratch-path "$scratch" --target FontRegCore \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" >.build/docs/build.log 2>&1 || {
    cat .build/docs/build.log >&2
    echo "build-docs.sh: building FontRegCore's symbol graph failed (above)" >&2
    exit 1
}
# Only FontRegCore's own graphs (the build writes those of its dependencies too).
core_graphs=.build/docs/core-symbol-graphs
rm -rf "$core_graphs" && mkdir -p "$core_graphs"
if [[ ! -f "$graphs/FontRegCore.symbols.json" ]]; then
    echo "build-docs.sh: the build wrote no $graphs/FontRegCore.symbols.json; remove $scratch and retry" >&2
    exit 1
fi
cp "$graphs"/FontRegCore.symbols.json "$core_graphs"/
cp "$graphs"/FontRegCore@*.symbols.json "$core_graphs"/ 2>/dev/null || true

# Every public symbol written in the source carries a documentation comment.
python3 - "$core_graphs" <<'PY'
import glob, json, sys
missing = []
for path in glob.glob(sys.argv[1] + "/*.symbols.json"):
    for symbol in json.load(open(path))["symbols"]:
        if symbol.get("accessLevel") != "public" or "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
            continue
        if "location" not in symbol:  # inherited from a protocol, not written here
            continue
        if not symbol.get("docComment", {}).get("lines"):
            where = symbol["location"]["uri"].split("/Sources/", 1)[-1]
            line = symbol["location"]["position"]["line"] + 1
            missing.append(f"Sources/{where}:{line}: {'.'.join(symbol['pathComponents'])}")
if missing:
    print("build-docs.sh: public symbols of FontRegCore without a /// comment:", file=sys.stderr)
    print("\n".join(sorted(missing)), file=sys.stderr)
    sys.exit(1)
PY

rm -rf "$output"
status=0
docc convert Sources/FontRegCore/FontRegCore.docc \
    --additional-symbol-graph-dir "$core_graphs" \
    --fallback-display-name FontRegCore --fallback-bundle-identifier io.fontreg.FontRegCore \
    --warnings-as-errors --output-path "$output" >.build/docs/docc.log 2>&1 || status=$?
cat .build/docs/docc.log
if [[ $status -ne 0 ]] || grep -qiE "(warning|error):" .build/docs/docc.log; then
    echo "build-docs.sh: docc reported problems (above); fix them: the documentation must build cleanly" >&2
    exit 1
fi
echo "build-docs.sh: documentation in $output"
