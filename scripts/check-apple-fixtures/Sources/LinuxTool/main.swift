import Foundation

// Only Linux and macOS depend on this target: the check must not walk into it.
let process = Process()
