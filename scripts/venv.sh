#!/usr/bin/env bash
# Prints the path of the project's own Python, a virtual environment in .venv (gitignored),
# creating it and installing the PyPI tools the tests use when they are missing: fontTools and
# brotli (fixture and corpus fonts, the font fuzzer), varlink and asyncvarlink (the third-party
# client tests) and PyYAML (the audit's Flutter pubspec is parsed as YAML).
# Nothing is installed into the system's Python.
#
#   py=$(bash scripts/venv.sh)               # the test tools
#   py=$(bash scripts/venv.sh matplotlib)    # and more packages (the benchmarks)
#
# FONTREG_VENV names another directory for the environment.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${FONTREG_VENV:-$PWD/.venv}
if [[ ! -x $venv/bin/python ]]; then
    echo "venv: creating $venv" >&2
    python3 -m venv "$venv" >&2 || {
        echo "venv: python3 -m venv failed; install python3-venv (scripts/setup-deps.sh --test)" >&2
        exit 1
    }
fi
missing=()
for package in fonttools brotli varlink asyncvarlink pyyaml "$@"; do
    module=$package
    [[ $package == fonttools ]] && module=fontTools
    [[ $package == pyyaml ]] && module=yaml
    "$venv/bin/python" -c "import $module" 2>/dev/null || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "venv: pip install ${missing[*]}" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${missing[@]}" >&2
fi
echo "$venv/bin/python"
