import Foundation

/// Reads a line the user typed: an app has no terminal.
func readAnswer() -> String {
    String(decoding: FileHandle.standardInput.availableData, as: UTF8.self)
}

#if os(Linux)
    func linuxOnly() {}
#else
    // The `#else` of `os(Linux)` is compiled for iOS.
    func start() throws {
        try Process.run(URL(fileURLWithPath: "/bin/true"), arguments: [])
    }
#endif
