import Foundation
import Testing

/// Error codes are declared in one place per module (`ParleyError+Module.swift`), so that a module's codes can be
/// read, and reviewed for wire stability, in one file; and no two declarations share a string.
@Suite("Error code declarations")
struct ErrorCodeDeclarationTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources").standardizedFileURL

    /// Every Swift file under Sources that extends `ParleyError.Code`, by module (the folder under Sources).
    static func declaringFiles() throws -> [String: [String]] {
        var files: [String: [String]] = [:]
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            guard text.contains("extension ParleyError.Code {") else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(sources.path.count + 1))
            let module = String(relative.prefix { $0 != "/" })
            files[module, default: []].append(relative)
        }
        return files
    }

    @Test func eachModuleDeclaresItsCodesInOneFile() throws {
        let files = try Self.declaringFiles()
        #expect(files["ParleyCore"] == ["ParleyCore/Errors/ParleyError+Codes.swift"])
        #expect(files["ParleyServer"] == ["ParleyServer/ParleyError+Server.swift"])
        for (module, paths) in files {
            #expect(paths.count == 1, "\(module) declares codes in \(paths.sorted())")
        }
    }

    /// A string is one code: declared once in a module, and under one name where two modules declare it (the
    /// client's and the server's `attachment.tooLarge`, which import no module of each other).
    @Test func aStringIsDeclaredOnceAModuleAndUnderOneName() throws {
        var seen: [String: (module: String, name: String)] = [:]
        for (module, paths) in try Self.declaringFiles() {
            for path in paths {
                let text = try String(contentsOf: Self.sources.appendingPathComponent(path), encoding: .utf8)
                for line in text.split(separator: "\n") where line.contains(": Self = \"") {
                    let name = String(line.split(separator: ":")[0].split(separator: " ").last ?? "")
                    let value = String(line.split(separator: "\"")[1])
                    if let other = seen[value] {
                        #expect(other.module != module, "\(value) is declared twice in \(module)")
                        #expect(
                            other.name == name, "\(value) is \(other.name) in \(other.module), \(name) in \(module)")
                    }
                    seen[value] = (module, name)
                }
            }
        }
        #expect(seen["store.inputAnswered"]?.name == "storeInputAnswered")
        #expect(seen.count > 100)
    }
}
