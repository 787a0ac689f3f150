import Foundation
import ParleyCore
import Testing

@Suite struct UUIDRandomTests {
    /// Version 4 with the RFC's variant, as `UUID()` makes them, and never the same twice.
    @Test func randomUUIDsAreVersionFourAndDistinct() {
        var seen = Set<UUID>()
        for _ in 0..<10_000 {
            let uuid = UUID.random()
            let text = uuid.uuidString
            let characters = Array(text)
            #expect(characters[14] == "4", "version nibble of \(text)")
            #expect("89AB".contains(characters[19]), "variant of \(text)")
            #expect(UUID(uuidString: text) == uuid)
            seen.insert(uuid)
        }
        #expect(seen.count == 10_000)
    }
}
