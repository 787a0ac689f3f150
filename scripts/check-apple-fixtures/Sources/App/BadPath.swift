import Foundation

/// The memory in use, from the kernel: no `/proc` on iOS.
func residentMemory() -> String? {
    try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
}
