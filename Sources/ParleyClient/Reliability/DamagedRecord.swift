import Foundation

/// Keeps a damaged file instead of deleting it: renamed `NAME.damaged-YYYYMMDDTHHMMSSZ` beside itself.
enum DamagedRecord {
    /// Moves the file at `url` aside; the new location.
    /// - Throws: ``ParleyError/Code/transcriptStorage`` when the file cannot be renamed (it stays where it is).
    static func moveAside(_ url: URL, at date: Date = Date()) throws(ParleyError) -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = url.path + ".damaged-" + formatter.string(from: date)
        var target = base
        var attempt = 1
        while FileManager.default.fileExists(atPath: target) {
            attempt += 1
            target = "\(base)-\(attempt)"
        }
        do {
            try FileManager.default.moveItem(atPath: url.path, toPath: target)
        } catch {
            throw ParleyError(
                .transcriptStorage, "cannot move the damaged \(url.path) aside: \(error)", underlying: error)
        }
        return URL(fileURLWithPath: target)
    }

    /// The error that reports a damaged record of `what`, kept at `kept`.
    static func error(_ what: String, kept: URL, reason: String) -> ParleyError {
        ParleyError(.clientRecordDamaged, "\(what) could not be read (\(reason)); it was kept as \(kept.path)")
    }
}
