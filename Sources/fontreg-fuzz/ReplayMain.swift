import Foundation

// fontreg-fuzz: the protocol fuzz target (see ProtocolFuzzTarget.swift and docs/reliability.md).
//
// Built plainly (`swift build`), it replays inputs: `fontreg-fuzz FILE|DIR…` runs each file once,
// which is how CI re-checks the corpus and every crash ever found. Built with libFuzzer
// (`-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFONTREG_LIBFUZZER
// -Xswiftc -use-ld=lld`) its entry point (in ProtocolFuzzTarget.swift) hands over to libFuzzer's
// driver, which takes libFuzzer's usual flags (`-max_total_time=60 CORPUS_DIR`).
// `FONTREG_FUZZ_TARGET=snapshot` picks the snapshot target (SnapshotFuzzTarget.swift) in both builds.

#if !FONTREG_LIBFUZZER
    @main
    enum ReplayMain {
        static func main() {
            var files: [String] = []
            for argument in CommandLine.arguments.dropFirst() {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                    FileHandle.standardError.write(Data("fontreg-fuzz: \(argument): no such file or directory\n".utf8))
                    exit(64)
                }
                if isDirectory.boolValue {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
                    files += names.sorted().map { argument + "/" + $0 }
                } else {
                    files.append(argument)
                }
            }
            if files.isEmpty {
                FileHandle.standardError.write(
                    Data(
                        "usage: [FONTREG_FUZZ_TARGET=snapshot] fontreg-fuzz FILE|DIR… (replays inputs through framing, JSON decoding and dispatch, or the snapshot reader)\n"
                            .utf8))
                exit(64)
            }
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                data.withUnsafeBytes {
                    if FuzzTargetChoice.snapshot { SnapshotFuzzTarget.run($0) } else { ProtocolFuzzTarget.run($0) }
                }
            }
            print("fontreg-fuzz: replayed \(files.count) inputs, no crash")
        }
    }
#endif
