# The `swift build` flags of the binaries as shipped, in the array `flags`; sourced (from the
# checkout's root) by build-release.sh and bench-all.sh, so that benchmarks measure what users run.
# Why each (figures: docs/benchmarks.md, "Issue 29 item 1: a new process's fixed start"):
#
# - `-c release --static-swift-stdlib`: the Swift runtime and Foundation linked in.
# - libstdc++ linked in too (the static Swift runtime is its only user): loading the shared
#   libstdc++ and binding its symbols was 2.0 M of the 8.7 M instructions of `fontresolve --help`.
#   The toolchain's link line names `-lstdc++` itself (static-stdlib-args.lnk), so a directory
#   holding only GCC's `libstdc++.a`, searched before GCC's own (swiftc's `-L` comes first),
#   makes that `-lstdc++` the archive. Without GCC's archive (no libstdc++-12-dev) the binaries
#   load the shared libstdc++ as before.
# - The toolchain's lld with packed relative relocations (DT_RELR, read by glibc 2.36 and
#   later): the ~80,000 `R_X86_64_RELATIVE` entries of the static runtime's pointers become a
#   15 KB bitmap, 0.4 M fewer instructions and ~25 fewer page faults a start. The binaries stay
#   position-independent (ASLR). Debian's `ld.gold`, the default, refuses the option.
flags=(-c release --static-swift-stdlib)
static_libstdcxx=$(clang -print-file-name=libstdc++.a 2>/dev/null || true)
if [[ $static_libstdcxx == /* && -f $static_libstdcxx ]]; then
    mkdir -p .build/static-libstdc++
    ln -sfn "$static_libstdcxx" .build/static-libstdc++/libstdc++.a
    flags+=(-Xswiftc -Xclang-linker -Xswiftc "-L$PWD/.build/static-libstdc++")
else
    echo "release-flags.sh: no static libstdc++ (install libstdc++-12-dev); linking the shared one" >&2
fi
if [[ -x $(dirname "$(command -v swiftc)")/ld.lld ]]; then
    flags+=(-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
else
    echo "release-flags.sh: the toolchain has no ld.lld; linking with the default linker, without DT_RELR" >&2
fi
