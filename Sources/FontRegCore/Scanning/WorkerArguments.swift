/// What every worker mode's options hold: the sandbox's user and limits, and the tests' faults.
protocol WorkerOptions {
    /// The user to become when started as root (`--user`).
    var user: String { get set }
    /// The address-space limit in MiB (`--memory-mib`).
    var memoryMiB: UInt64 { get set }
    /// The CPU-time limit in seconds (`--cpu-seconds`).
    var cpuSeconds: UInt64 { get set }
    /// Test-only faults by file name (`--test-faults`); off unless asked.
    var testFaults: Bool { get set }
}

/// The command-line parser of the worker modes (`fontregd --parse-worker`, `fontregd
/// --fontconfig-cache-worker`): the options every worker takes (``WorkerOptions``) and the
/// numbers a mode adds, each setting one field; an unknown option, a missing value or a value
/// that is not a number refuses the whole line.
struct WorkerArguments<Options: WorkerOptions> {
    private var numbers: [String: (inout Options, String) -> Bool] = [:]

    /// A parser of the common options.
    init() {
        self = self.number("--memory-mib", \.memoryMiB).number("--cpu-seconds", \.cpuSeconds)
    }

    /// The parser with the option `name`, whose value is a decimal number for `field`, added.
    func number<Value: FixedWidthInteger>(_ name: String, _ field: WritableKeyPath<Options, Value>) -> Self {
        var copy = self
        copy.numbers[name] = { options, text in
            guard let value = Value(text) else { return false }
            options[keyPath: field] = value
            return true
        }
        return copy
    }

    /// Reads `arguments` over `defaults`, or `nil` when they are not understood.
    func parse(_ arguments: [String], defaults: Options) -> Options? {
        var options = defaults
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--test-faults": options.testFaults = true
            case "--user":
                guard let value = rest.popFirst() else { return nil }
                options.user = value
            default:
                guard let set = numbers[argument], let value = rest.popFirst(), set(&options, value) else { return nil }
            }
        }
        return options
    }
}
