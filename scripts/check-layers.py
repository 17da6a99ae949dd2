#!/usr/bin/env python3
"""Checks the promises of fontreg's layers that the compiler does not check by itself.

1. The kernel choke point: library code outside FontRegSystem makes no system call. It imports
   neither Glibc nor CShim, reads no `errno`, and calls no libc system-call function by its bare
   name (Foundation re-exports Glibc on Linux, so an import check alone would miss those).
2. FontRegCore's folders depend on each other in one order, lowest first (CORE_ORDER, as the
   README states it): a file may name what a folder below its own declares, never above.
3. Every target imports only what Package.swift lists for it, and lists nothing it never imports.

Usage: scripts/check-layers.py [--root DIR] [--self-test]. Exits 1 with one line per broken promise, naming
the file and the line; 0 when every promise holds. Run by scripts/test.sh.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys

# FontRegCore's folders, lowest first. Keep in step with README.md ("Layout of the code").
CORE_ORDER = [
    "Model",
    "Native",
    "Scanning",
    "Rules",
    "Index",
    "Snapshot",
    "Resolution",
    "Fallback",
    "Layout",
    "Registry",
]

# Library targets bound by the choke point. Executables, the bench and fuzz tools and the tests may
# call the kernel themselves.
LIBRARY_TARGETS = [
    "FontRegJSON",
    "FontRegCore",
    "Varlink",
    "FontRegProtocol",
    "FontRegService",
    "FontRegServer",
    "FontRegAudit",
    "FontRegCLI",
]

KERNEL_MODULES = {"Glibc", "CShim", "Musl", "SwiftGlibc"}

# libc functions that are system calls (or thin wrappers of one). A call by the bare name outside
# FontRegSystem goes around the choke point; a method of the same name (`fd.close()`) does not.
SYSCALLS = {
    "open", "openat", "openat2", "close", "read", "write", "pread", "pwrite", "readv", "writev",
    "lseek", "fstat", "stat", "lstat", "fstatat", "statx", "access", "faccessat", "mkdir",
    "mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat", "renameat2", "link", "linkat",
    "symlink", "symlinkat", "readlink", "readlinkat", "chmod", "fchmod", "fchmodat", "chown",
    "fchown", "fchownat", "lchown", "ftruncate", "truncate", "fsync", "fdatasync", "sync",
    "socket", "socketpair", "bind", "listen", "accept", "accept4", "connect", "send", "sendto",
    "sendmsg", "recv", "recvfrom", "recvmsg", "shutdown", "getsockopt", "setsockopt", "pipe",
    "pipe2", "dup", "dup2", "dup3", "fcntl", "ioctl", "mmap", "munmap", "madvise", "mprotect",
    "epoll_create1", "epoll_ctl", "epoll_wait", "eventfd", "signalfd", "inotify_init1",
    "inotify_add_watch", "inotify_rm_watch", "kill", "getpid", "getppid", "getuid", "geteuid",
    "getgid", "getegid", "setuid", "setgid", "setgroups", "setresuid", "setresgid", "fork",
    "vfork", "execv", "execve", "execvp", "waitpid", "waitid", "wait4", "_exit", "sigaction",
    "sigprocmask", "pthread_sigmask", "prctl", "getrlimit", "setrlimit", "prlimit", "clock_gettime",
    "nanosleep", "usleep", "sleep", "poll", "select", "umask", "chdir", "fchdir", "getcwd",
    "opendir", "fdopendir", "readdir", "closedir", "getdents64", "realpath", "getpwnam",
    "getpwuid", "getpwnam_r", "getpwuid_r", "getgrnam", "getgrgid", "getgrouplist", "syscall",
    "posix_spawn", "posix_spawnp", "memfd_create", "flock", "futimens", "utimensat", "sysconf",
    "sched_setaffinity", "setpriority", "getpriority", "close_range",
}


def strip_comments_and_strings(source):
    """Blanks comments and string literals, keeping line numbers."""

    def blank(match):
        return re.sub(r"[^\n]", " ", match.group(0))

    source = re.sub(r'"""(?:.|\n)*?"""', blank, source)
    source = re.sub(r"/\*(?:.|\n)*?\*/", blank, source)
    source = re.sub(r'"(?:\\.|[^"\\\n])*"', blank, source)
    source = re.sub(r"//[^\n]*", blank, source)
    return source


def swift_files(directory):
    for folder, _, names in os.walk(directory):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(folder, name)


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


IMPORT = re.compile(
    r"^[ \t]*(?:@[\w]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_]\w*)",
    re.M,
)


def imports(text):
    return [(m.group(1), line_of(text, m.start())) for m in IMPORT.finditer(text)]


def check_choke_point(root, problems):
    # A bare call of a function the project declares (outside FontRegSystem) is that function: a
    # JSONWriter extension calling its own write(_:), not libc's write(2).
    texts, raw_lines = {}, {}
    declared = set()
    for target in LIBRARY_TARGETS:
        for path in swift_files(os.path.join(root, "Sources", target)):
            source = open(path, encoding="utf-8").read()
            raw_lines[path] = source.split("\n")
            texts[path] = strip_comments_and_strings(source)
            declared.update(re.findall(r"\bfunc\s+([A-Za-z_]\w*)", texts[path]))
    for path, text in texts.items():
        rel = os.path.relpath(path, root)
        raw = raw_lines[path]
        for module, line in imports(text):
            # A C module imported for a type or a non-kernel function says so on its line.
            if module in KERNEL_MODULES and "no kernel call" not in raw[line - 1]:
                problems.append(
                    f"{rel}:{line}: imports {module}; only FontRegSystem calls the kernel "
                    "(add the operation to FontRegSystem and call that)"
                )
        for match in re.finditer(r"(?<![.\w])errno\b(?!\s*:|\s+\w+\s*:)", text):
            problems.append(
                f"{rel}:{line_of(text, match.start())}: reads errno; FontRegSystem's operations "
                "throw SystemError with a typed Errno"
            )
        for match in re.finditer(r"(?<![\w.$])(?:Glibc\.)?([a-z_][a-z0-9_]*)\s*\(", text):
            name = match.group(1)
            if name not in SYSCALLS or name in declared:
                continue
            before = text[max(0, match.start() - 12) : match.start()]
            if re.search(r"\b(func|case|var|let)\s+$", before):
                continue
            problems.append(
                f"{rel}:{line_of(text, match.start())}: calls {name}(), a system call, outside "
                "FontRegSystem"
            )


def check_core_order(root, problems):
    core = os.path.join(root, "Sources", "FontRegCore")
    texts = {}
    for path in swift_files(core):
        rel = os.path.relpath(path, core)
        folder = rel.split(os.sep)[0] if os.sep in rel else "."
        if folder.endswith(".docc"):
            continue
        if folder not in CORE_ORDER:
            problems.append(
                f"Sources/FontRegCore/{rel}: folder {folder}/ is not in FontRegCore's order "
                f"({' ← '.join(CORE_ORDER)}); add it to CORE_ORDER and the README"
            )
            continue
        texts[rel] = (folder, strip_comments_and_strings(open(path, encoding="utf-8").read()))
    declaration = re.compile(
        r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect"
        r"|nonisolated)\s+)*(?:struct|enum|class|protocol|typealias|actor)\s+([A-Z]\w*)",
        re.M,
    )
    declared_in = collections.defaultdict(set)
    for rel, (folder, text) in texts.items():
        for match in declaration.finditer(text):
            declared_in[match.group(1)].add(folder)
    # Members that extensions add, where the member's name is declared in one folder only: a file
    # calling `index.publishedBytes(...)` depends on the folder whose extension declares it.
    member_folders = collections.defaultdict(set)
    extension_member = {}
    for rel, (folder, text) in texts.items():
        for match in re.finditer(r"\b(?:func|var|let|case)\s+([a-z_]\w*)", text):
            member_folders[match.group(1)].add(folder)
        for block in re.finditer(r"^(?:public |package )?extension\s+(\w+)[^{\n]*\{(.*?)^\}", text, re.M | re.S):
            for match in re.finditer(r"^    (?:[a-z@][^\n]*?\s)?(?:func|var|let)\s+([a-z_]\w*)", block.group(2), re.M):
                extension_member[match.group(1)] = (folder, block.group(1))
    rank = {folder: i for i, folder in enumerate(CORE_ORDER)}
    for rel, (folder, text) in sorted(texts.items()):
        seen = set()
        for match in re.finditer(r"\b[A-Z]\w*\b", text):
            folders = declared_in.get(match.group(0), set())
            if len(folders) != 1:
                continue
            (other,) = folders
            if rank[other] > rank[folder] and (match.group(0), other) not in seen:
                seen.add((match.group(0), other))
                problems.append(
                    f"Sources/FontRegCore/{rel}:{line_of(text, match.start())}: {folder}/ names "
                    f"{match.group(0)} of {other}/, which lies above it ({' ← '.join(CORE_ORDER)})"
                )
        for match in re.finditer(r"\.([a-z_]\w*)\b", text):
            name = match.group(1)
            if len(name) < 8 or name not in extension_member or len(member_folders[name]) != 1:
                continue
            other, extended = extension_member[name]
            if rank[other] > rank[folder] and (name, other) not in seen:
                seen.add((name, other))
                problems.append(
                    f"Sources/FontRegCore/{rel}:{line_of(text, match.start())}: {folder}/ uses "
                    f"{extended}.{name} of {other}/, which lies above it"
                )


def check_target_imports(root, problems):
    dump = subprocess.run(
        ["swift", "package", "dump-package"], cwd=root, check=True, capture_output=True, text=True
    ).stdout
    package = json.loads(dump)
    modules = {target["name"] for target in package["targets"]}
    for target in package["targets"]:
        name = target["name"]
        if target["type"] == "system" or name.startswith("C") and name[1:2].isupper():
            continue
        listed = set()
        for dependency in target.get("dependencies", []):
            for kind in ("byName", "target", "product"):
                if kind in dependency:
                    listed.add(dependency[kind][0])
        default = "Tests" if target["type"] == "test" else "Sources"
        directory = os.path.join(root, target.get("path") or os.path.join(default, name))
        used = set()
        for path in swift_files(directory):
            text = strip_comments_and_strings(open(path, encoding="utf-8").read())
            for module, line in imports(text):
                if module not in modules or module == name:
                    continue
                used.add(module)
                if module not in listed:
                    problems.append(
                        f"{os.path.relpath(path, root)}:{line}: imports {module}, which Package.swift "
                        f"does not list for {name}"
                    )
        for module in sorted(listed - used):
            problems.append(
                f"Package.swift: {name} lists {module} but no file of it imports {module}; remove it"
            )


def check(root):
    problems = []
    check_choke_point(root, problems)
    check_core_order(root, problems)
    check_target_imports(root, problems)
    return problems


def self_test(root):
    """Plants one breach of each promise in a copy of the sources and expects each to be reported."""
    import shutil
    import tempfile

    scratch = tempfile.mkdtemp(prefix="fontreg-check-layers-")
    try:
        for part in ("Sources", "Tests"):
            shutil.copytree(os.path.join(root, part), os.path.join(scratch, part),
                            ignore=shutil.ignore_patterns("*.ttf", "*.otf", "*.ttc", "*.woff2", "Snapshots"))
        shutil.copy(os.path.join(root, "Package.swift"), scratch)
        if check(scratch):
            raise SystemExit("check-layers --self-test: the untouched copy already fails")
        plants = {
            "Sources/FontRegCLI/PlantedKernelCall.swift":
                "import Glibc\n\nfunc planted() -> Int32 {\n    _ = unlink(\"/x\")\n    return errno\n}\n",
            "Sources/FontRegCore/Model/PlantedUpwardEdge.swift":
                "func plantedEdge(_ registry: FontRegistry) {}\n",
            "Sources/FontRegJSON/PlantedImport.swift": "import FontRegCore\n",
        }
        for rel, text in plants.items():
            with open(os.path.join(scratch, rel), "w", encoding="utf-8") as file:
                file.write(text)
        found = "\n".join(check(scratch))
        expected = [
            "PlantedKernelCall.swift:1: imports Glibc",
            "PlantedKernelCall.swift:4: calls unlink()",
            "PlantedKernelCall.swift:5: reads errno",
            "PlantedUpwardEdge.swift:1: Model/ names FontRegistry of Registry/",
            "PlantedImport.swift:1: imports FontRegCore, which Package.swift does not list for FontRegJSON",
        ]
        missed = [e for e in expected if e not in found]
        if missed:
            raise SystemExit("check-layers --self-test: not reported: " + "; ".join(missed) + "\n" + found)
        print(f"check-layers --self-test: all {len(expected)} planted breaches reported")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    parser.add_argument("--self-test", action="store_true", help="plant a breach of each promise in a copy; expect each reported")
    arguments = parser.parse_args()
    root = os.path.abspath(arguments.root)
    if arguments.self_test:
        self_test(root)
        return 0
    problems = check(root)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-layers: {len(problems)} broken promise(s) of the layers (above)", file=sys.stderr)
        return 1
    print("check-layers: the kernel choke point, FontRegCore's folder order and the targets' imports hold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
