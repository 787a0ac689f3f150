import Foundation
import ParleyCore

/// A JSON fixture under `Fixtures/`, named `<Type>.<case>[.<detail>].json`: the type it decodes as and the case it
/// decodes to.
struct Fixture: CustomStringConvertible, Sendable {
    let url: URL
    let group: String

    var name: String { url.deletingPathExtension().lastPathComponent }
    var typeName: String { String(name.split(separator: ".")[0]) }
    var expectedCase: String { String(name.split(separator: ".")[1]) }
    var data: Data { (try? Data(contentsOf: url)) ?? Data() }
    var description: String { "\(group)/\(name)" }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")

    /// Every fixture of `groups`, sorted by name.
    static func all(_ groups: [String] = ["seed", "protocol"]) throws -> [Fixture] {
        try groups.flatMap { group in
            try FileManager.default.contentsOfDirectory(
                at: directory.appendingPathComponent(group), includingPropertiesForKeys: nil
            )
            .filter { $0.pathExtension == "json" }
            .map { Fixture(url: $0, group: group) }
        }
        .sorted { $0.description < $1.description }
    }

    static func named(_ name: String) throws -> Fixture {
        guard let fixture = try all().first(where: { $0.name == name }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
        }
        return fixture
    }

    /// The fixture's payload, when it is a conversation message.
    func payload() throws -> MessagePayload {
        switch typeName {
        case "SkillMessage": try SkillMessage(decoding: data).payload
        case "UserMessage": try UserMessage(decoding: data).payload
        default: try MessagePayload(decoding: data)
        }
    }
}

/// Expects `body` to throw a `ParleyError` and returns it.
func parleyError(_ body: () throws -> Void) -> ParleyError? {
    do {
        try body()
        return nil
    } catch let error as ParleyError {
        return error
    } catch {
        return nil
    }
}
