import ParleyCore
import Testing

@Suite("Seeded random number generator")
struct SeededRandomNumberGeneratorTests {
    @Test func itIsSplitMix64() {
        // The reference sequence of SplitMix64 for seed 1234567 (Vigna's splitmix64.c).
        var generator = SeededRandomNumberGenerator(seed: 1_234_567)
        let values = (0..<5).map { _ in generator.next() }
        #expect(
            values == [
                6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
                4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
            ])
    }

    @Test func theSameSeedGivesTheSameSequence() {
        var first = SeededRandomNumberGenerator(seed: 42)
        var second = SeededRandomNumberGenerator(seed: 42)
        let a = (0..<100).map { _ in first.next() }
        let b = (0..<100).map { _ in second.next() }
        #expect(a == b)
        #expect(Set(a).count == 100)
        // Through the standard library's random APIs too.
        var third = SeededRandomNumberGenerator(seed: 42)
        var fourth = SeededRandomNumberGenerator(seed: 42)
        #expect(
            (0..<20).map { _ in Int.random(in: 1...6, using: &third) }
                == (0..<20).map { _ in Int.random(in: 1...6, using: &fourth) })
    }

    @Test func differentSeedsGiveDifferentSequences() {
        var zero = SeededRandomNumberGenerator(seed: 0)
        var one = SeededRandomNumberGenerator(seed: 1)
        let a = (0..<10).map { _ in zero.next() }
        let b = (0..<10).map { _ in one.next() }
        #expect(Set(a).isDisjoint(with: b))
    }
}
