import Foundation
import ParleyCore

/// A message example from the seeds and the protocol research (Tests/ParleyCoreTests/Fixtures), as bytes.
struct MessageFixture: Sendable {
    let name: String
    let isSkillMessage: Bool
    let bytes: [UInt8]
}

enum Fixtures {
    /// Every `SkillMessage.*` and `UserMessage.*` example, in name order.
    static let messages: [MessageFixture] = {
        let folder = repositoryRoot.appendingPathComponent("Tests/ParleyCoreTests/Fixtures")
        var found: [MessageFixture] = []
        for group in ["seed", "protocol"] {
            let directory = folder.appendingPathComponent(group)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where name.hasPrefix("SkillMessage.") || name.hasPrefix("UserMessage.") {
                guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path)
                else { continue }
                found.append(
                    MessageFixture(name: name, isSkillMessage: name.hasPrefix("Skill"), bytes: Array(data)))
            }
        }
        precondition(!found.isEmpty, "no message fixtures under \(folder.path)")
        return found
    }()

    /// The seed's user text message ("Order Pizza"), which the load benchmarks send.
    static let userText: UserMessage = {
        let url = repositoryRoot.appendingPathComponent(
            "Tests/ParleyCoreTests/Fixtures/seed/UserMessage.text.order-pizza.json")
        return try! UserMessage(decoding: Array(FileManager.default.contents(atPath: url.path)!))
    }()
}
