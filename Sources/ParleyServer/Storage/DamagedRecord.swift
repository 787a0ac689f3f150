import Foundation

/// Keeps a damaged record instead of deleting it: the file is renamed `NAME.damaged-<UTC time>` beside itself, so
/// that the rest of the server goes on without it and an operator can still read (and repair) what it held.
enum DamagedRecord {
    /// Renames the file at `path` to `path.damaged-YYYYMMDDTHHMMSSZ` (with `-2`, `-3`… when that name is taken).
    /// - Returns: The new path.
    /// - Throws: When the file cannot be renamed (it is left where it is).
    static func moveAside(_ path: String, at date: Date = Date()) throws -> String {
        let base = "\(path).damaged-\(stamp(date))"
        var target = base
        var attempt = 1
        while FileManager.default.fileExists(atPath: target) {
            attempt += 1
            target = "\(base)-\(attempt)"
        }
        try FileManager.default.moveItem(atPath: path, toPath: target)
        return target
    }

    /// `20261128T051500Z`.
    static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }
}
