import Foundation
import ParleyCore
import ParleySpeech

// What the engine remembers between inputs: its phase, the playback in progress, where an interruption resumes and
// the current module visit.

/// A concrete generator around an existential one, so generic APIs such as `Int.random(in:using:)` take it.
struct AnyRandom: RandomNumberGenerator, Sendable {
    var base: any RandomNumberGenerator & Sendable
    mutating func next() -> UInt64 { base.next() }
}

extension Engine {
    enum Phase: Sendable {
        case idle
        /// A module and its position in the flow.
        case entering(String, Int)
        // Boxed: a playback is large, and the phase is copied at every transition.
        indirect case playing(Playback)
        indirect case afterSegment(Playback)
        case recognizing(String)
        case reviewing(String, String, [String])
        case retrying(String, String)
        case recording(String)
        /// A module, its target, and the target's position when known.
        case leaving(String, String, Int?)
        case paused(String)
        /// An audio-session interruption holds the module; how to go on if it resumes.
        indirect case interrupted(String, ResumePoint)
        case finished

        var moduleID: String? {
            switch self {
            case .idle, .finished: nil
            case .entering(let id, _), .recognizing(let id), .reviewing(let id, _, _), .retrying(let id, _),
                .recording(let id),
                .leaving(let id, _, _), .paused(let id), .interrupted(let id, _):
                id
            case .playing(let playback), .afterSegment(let playback): playback.moduleID
            }
        }
    }

    struct Playback: Sendable {
        enum Then: Sendable { case leave, record, recognize }
        var moduleID: String
        var itemID: String
        var queue: [PlaybackSegment] = []
        var current: PlaybackSegment?
        var then: Then
        /// The segment to play again (`loopPlay`), and how often the current one has played.
        var replay: PlaybackSegment?
        var playCount = 0
        /// Whether listening started with the playback (`recognizeWhilePlay`).
        var listening = false
    }

    /// Where an interrupted module goes on when `transitionType` is `resume`.
    indirect enum ResumePoint: Sendable {
        /// The playback, its current segment stopped this far in.
        case playback(Playback, Duration?)
        case recognition
        case recording
        case pause
        /// A step without media: the engine sends ``Input/proceed`` again.
        case step(Phase)
    }

    /// What the engine remembers about the current module visit: reset on every entry.
    struct Visit: Sendable {
        var moduleID: String
        var counts: [String: Int] = [:]
        var attempts = 0
        var playedPreInitial = false
        var rejected = false
        var listenerQueue: [String] = []
        var listenerBargeIn = false
        /// The partial hypotheses streamed during the current listening.
        var partials: [String] = []

        func count(_ kind: String) -> Int { counts[kind] ?? 0 }
    }
}
