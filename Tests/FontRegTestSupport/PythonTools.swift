import Foundation

/// The project's own Python, with the PyPI tools the tests use (fontTools, brotli, varlink,
/// PyYAML), as `scripts/venv.sh` installs them into `.venv`.
package enum PythonTools {
    /// `.venv/bin/python` in the repository, created by `scripts/setup-deps.sh --test`
    /// (`scripts/venv.sh`); `python3` from `PATH` when there is none.
    package static var python: String {
        let venv = BuildProducts.packageRoot.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
    }
}
