import Foundation

#if canImport(UIKit)
    import UIKit
#endif

/// What an iOS app may use: ProcessInfo, FileHandle.standardOutput, URLs built from strings.
func describe() -> String {
    FileHandle.standardOutput.write(Data("hi\n".utf8))
    let address = "https://example.com/proc/usr/share"
    return "\(ProcessInfo.processInfo.operatingSystemVersionString) \(address)"
}
