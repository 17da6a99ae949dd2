#!/usr/bin/env python3
"""Leaves every Swift file importing only the modules it uses, with the compiler as the judge.

It removes each file's imports of the project's modules and of Foundation, Dispatch,
Synchronization and Glibc, builds (with MemberImportVisibility on, as Package.swift sets it, a
member used from a module not imported is an error naming that module), puts back exactly the
imports the errors ask for, and repeats until the build is clean. A file whose errors do not say
which module is missing gets all of its own imports back. `Testing`, `XCTest` and the C modules'
`internal import`s are left alone.

  scripts/minimize-imports.py           rewrite the files (then review `git diff`)
  scripts/minimize-imports.py --since REV   only the files changed since REV
  scripts/minimize-imports.py --check   change nothing; exit 1 when some file imports a module it
                                        does not use (builds in a scratch copy: several minutes)

The cheap checks of the layers (kernel calls, FontRegCore's folder order, imports against
Package.swift) are scripts/check-layers.py, run by scripts/test.sh.
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

OTHER_MODULES = {"Foundation", "Dispatch", "Synchronization", "Glibc"}
IMPORT = re.compile(
    r"^(?P<attrs>(?:@\w+\s+)*)(?P<access>(?:public|package|internal)\s+)?import\s+(?P<module>\w+)\s*$"
)
DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|open|internal|final|indirect|static|nonisolated"
    r"|mutating)\s+)*(?:struct|enum|class|protocol|typealias|actor|func|var|let)\s+([A-Za-z_]\w*)",
    re.M,
)


def swift_files(root):
    for top in ("Sources", "Tests"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


def module_of(root, path):
    rel = os.path.relpath(path, root).split(os.sep)
    return rel[1]


def project_modules(root):
    return {module_of(root, p) for p in swift_files(root)}


def declarations(root):
    """Names declared in each project module (to tell which module a 'cannot find X' needs)."""
    declared = collections.defaultdict(set)
    for path in swift_files(root):
        text = open(path, encoding="utf-8").read()
        for match in DECLARATION.finditer(text):
            declared[match.group(1)].add(module_of(root, path))
    return declared


def read_imports(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    found = {}
    for i, line in enumerate(lines):
        match = IMPORT.match(line)
        if match:
            found[match.group("module")] = (i, line)
    return lines, found


def write_imports(path, lines, original, keep, removable):
    """Rewrites the import block: the kept removable imports, in order, plus every other import."""
    kept_lines = [original[m][1] for m in sorted(keep) if m in original]
    kept_lines += [f"import {m}" for m in sorted(keep) if m not in original]
    out, placed = [], False
    for line in lines:
        match = IMPORT.match(line)
        if match and match.group("module") in removable:
            if not placed:
                out.extend(kept_lines)
                placed = True
            continue
        out.append(line)
    if not placed and kept_lines:
        first = next((i for i, l in enumerate(out) if IMPORT.match(l)), 0)
        out[first:first] = kept_lines
    # Imports sorted as swift-format's OrderedImports wants: by module name within a block.
    block = [i for i, l in enumerate(out) if IMPORT.match(l)]
    if block:
        start, end = block[0], block[-1] + 1
        if all(IMPORT.match(l) or not l.strip() for l in out[start:end]):
            imports = [l for l in out[start:end] if IMPORT.match(l)]
            plain = sorted({l for l in imports if not l.startswith("@")}, key=lambda l: IMPORT.match(l).group("module"))
            tested = sorted({l for l in imports if l.startswith("@")}, key=lambda l: IMPORT.match(l).group("module"))
            merged = plain + ([""] if plain and tested else []) + tested
            out[start:end] = merged
    text = "\n".join(out)
    text = re.sub(r"\n{3,}", "\n\n", text)
    open(path, "w", encoding="utf-8").write(text)


ERROR = re.compile(r"^(?P<file>/[^:]+\.swift):(?P<line>\d+):\d+: error: (?P<message>.*)$", re.M)
MISSING_MODULE = re.compile(r"missing import of defining module '(\w+)'|add import of module '(\w+)'|module '(\w+)' (?:is|was) not imported")
CANNOT_FIND = re.compile(r"cannot find (?:type )?'(\w+)' in scope|no such module '(\w+)'")


def build(root):
    result = subprocess.run(
        ["swift", "build", "--build-tests"], cwd=root, capture_output=True, text=True
    )
    return result.returncode == 0, result.stdout + result.stderr


def minimize(root, verbose=True, under=("Sources", "Tests"), only=None):
    modules = project_modules(root) | OTHER_MODULES
    declared = declarations(root)
    state = {}
    for path in swift_files(root):
        rel = os.path.relpath(path, root)
        if rel.split(os.sep)[0] not in under or (only is not None and rel not in only):
            continue
        lines, found = read_imports(path)
        own = module_of(root, path)
        removable = {m for m in found if m in modules and m != own}
        if not removable:
            continue
        state[path] = {"lines": lines, "original": found, "removable": removable, "keep": set()}
        write_imports(path, lines, found, set(), removable)
    rounds = 0
    while True:
        rounds += 1
        ok, log = build(root)
        if ok:
            break
        asked = collections.defaultdict(set)
        unexplained = set()
        for match in ERROR.finditer(log):
            path = os.path.realpath(match.group("file"))
            path = next((p for p in state if os.path.realpath(p) == path), None)
            if path is None:
                continue
            message = match.group("message")
            wanted = MISSING_MODULE.search(message)
            if wanted:
                module = next(g for g in wanted.groups() if g)
                # Foundation's parts are imported as Foundation.
                asked[path].add("Foundation" if module.startswith("Foundation") else module)
                continue
            missing = CANNOT_FIND.search(message)
            if missing:
                name = next(g for g in missing.groups() if g)
                owners = declared.get(name, set()) & state[path]["removable"]
                if len(owners) >= 1:
                    asked[path].update(owners)
                else:
                    others = state[path]["removable"] & OTHER_MODULES
                    asked[path].update(others) if others else unexplained.add(path)
                continue
            unexplained.add(path)
        progress = False
        for path, wanted in asked.items():
            entry = state[path]
            new = (wanted & entry["removable"]) - entry["keep"]
            if new:
                entry["keep"] |= new
                progress = True
        for path in unexplained - set(asked):
            entry = state[path]
            if entry["keep"] != entry["removable"]:
                entry["keep"] = set(entry["removable"])
                progress = True
        if not progress:
            print(log[-4000:], file=sys.stderr)
            raise SystemExit("minimize-imports: the build fails for a reason no import explains (above)")
        for path in set(asked) | unexplained:
            entry = state[path]
            write_imports(path, entry["lines"], entry["original"], entry["keep"], entry["removable"])
        if verbose:
            print(f"round {rounds}: {len(asked) + len(unexplained)} file(s) took imports back", file=sys.stderr)
    unused = {p: e["removable"] - e["keep"] for p, e in state.items() if e["removable"] - e["keep"]}
    return unused


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--under", choices=["Sources", "Tests"], help="only the files under this folder")
    parser.add_argument("--since", metavar="REV", help="only the Swift files changed since this commit")
    arguments = parser.parse_args()
    root = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    if arguments.check:
        scratch = tempfile.mkdtemp(prefix="fontreg-imports-")
        shutil.copytree(root, scratch, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".git"))
        unused = minimize(scratch, under=(arguments.under,) if arguments.under else ("Sources", "Tests"))
        shutil.rmtree(scratch, ignore_errors=True)
        for path, modules in sorted(unused.items()):
            rel = os.path.relpath(path, scratch)
            print(f"{rel}: imports {', '.join(sorted(modules))} but uses nothing of it")
        return 1 if unused else 0
    only = None
    if arguments.since:
        changed = subprocess.run(
            ["git", "diff", "--name-only", arguments.since, "--", "*.swift"], cwd=root, check=True,
            capture_output=True, text=True).stdout.split()
        only = set(changed)
    unused = minimize(root, under=(arguments.under,) if arguments.under else ("Sources", "Tests"), only=only)
    print(f"minimize-imports: removed {sum(len(m) for m in unused.values())} import(s) from {len(unused)} file(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
