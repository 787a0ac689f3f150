import Foundation
import Testing

@testable import ParleyServer

/// A lock this process gives back a moment after another application of it asks (as when a child being spawned still
/// holds a copy of the descriptor) is taken; one it keeps is refused, after the short wait.
@Suite struct DataFolderLockTests {
    @Test func aLockThisProcessGivesBackWithinTheWaitIsTaken() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-lock-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try DataFolderLock(folder: folder)
        let released = Thread {
            Thread.sleep(forTimeInterval: 0.05); first.release()
        }
        released.start()
        let second = try DataFolderLock(folder: folder)
        second.release()
    }

    @Test func aLockThisProcessKeepsIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-lock-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try DataFolderLock(folder: folder)
        #expect(throws: ParleyError.self) { try DataFolderLock(folder: folder) }
        first.release()
    }
}
