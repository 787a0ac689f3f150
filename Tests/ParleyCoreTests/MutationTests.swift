import Foundation
import ParleyCore
import Testing

/// Seeded mutations of the fixtures: the parser and the typed model never crash, fail only with a `ParleyError`, and
/// never accept what `JSONSerialization` rejects or read it differently.
@Suite("Mutated input")
struct MutationTests {
    /// SplitMix64: a small seeded generator, so every run mutates the same way.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    static let alphabet = Array(#"{}[]:,"\0123456789.eE-+ truefalsnul\u"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xFF]

    static func mutate(_ bytes: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...3, using: &generator) where !bytes.isEmpty {
            let position = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: bytes[position] = alphabet.randomElement(using: &generator)!
            case 1: bytes.remove(at: position)
            case 2: bytes.insert(alphabet.randomElement(using: &generator)!, at: position)
            default: bytes.removeLast(bytes.count - position)
            }
        }
        return bytes
    }

    @Test func mutatedFixturesNeverCrashAndAgreeWithJSONSerialization() throws {
        var generator = SeededGenerator(state: 2026)
        var accepted = 0
        var rejected = 0
        for fixture in try Fixture.all() {
            let original = Array(fixture.data)
            for _ in 0..<150 {
                let mutated = Self.mutate(original, using: &generator)
                let ours: JSONValue
                do {
                    ours = try JSONValue(parsing: mutated)
                } catch {
                    rejected += 1
                    continue
                }
                accepted += 1
                let theirs = try? JSONSerialization.jsonObject(with: Data(mutated), options: [.fragmentsAllowed])
                let reread = try theirs.map {
                    try JSONValue(parsing: JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed]))
                }
                #expect(
                    reread == ours,
                    "accepted input that Foundation reads differently: \(String(decoding: mutated, as: UTF8.self))")
                // The typed model either decodes it or says why, with a code.
                do {
                    _ = try ServerFrame(json: ours)
                    _ = try ClientFrame(json: ours)
                } catch {
                    #expect(!error.code.rawValue.isEmpty)
                }
            }
        }
        #expect(accepted > 100)
        #expect(rejected > 1000)
    }

    @Test func randomValuesSurviveWriteAndRead() throws {
        var generator = SeededGenerator(state: 7)
        func randomValue(depth: Int) -> JSONValue {
            switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &generator) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &generator))
            case 2:
                let number = Double.random(in: -1e9...1e9, using: &generator)
                return .number(Bool.random(using: &generator) ? number.rounded() : number)
            case 3:
                let scalars = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                    Character(
                        Unicode.Scalar(
                            [0x22, 0x5C, 0x0A, 0x01, 0x41, 0xE9, 0x1F355].randomElement(using: &generator)!)!)
                }
                return .string(String(scalars))
            case 4:
                return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(depth: depth + 1) })
            default:
                var object = JSONObject()
                for index in 0..<Int.random(in: 0...4, using: &generator) {
                    object.append("k\(index)", randomValue(depth: depth + 1))
                }
                return .object(object)
            }
        }
        for _ in 0..<500 {
            let value = randomValue(depth: 0)
            #expect(try JSONValue(parsing: value.jsonBytes()) == value)
            #expect(try JSONValue(parsing: value.jsonBytes(pretty: true)) == value)
        }
    }
}
