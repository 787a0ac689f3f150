/// What an app must be allowed to do before it listens.
public enum Permission: String, Sendable, Hashable, CaseIterable {
    /// Capturing audio from a microphone.
    case microphone
    /// Sending speech to a recognizer (Apple's `SFSpeechRecognizer` asks for it; elsewhere it is whether a
    /// recognizer is there to use).
    case speechRecognition
}

/// The platform's answer about a ``Permission``.
public enum PermissionStatus: Sendable, Hashable {
    /// Not answered yet: asking will prompt the user (the seed's `ST_PERMISSION_WAIT`).
    case waiting
    /// Allowed.
    case granted
    /// Refused, with the platform's reason (the user said no, or there is no device or engine).
    case denied(reason: String)
}

/// Answers permission questions: the platform's permission system on Apple platforms, the devices and engines
/// that are there on Linux, a fixed answer in tests.
///
/// Parley ships ``SystemPermissionSource`` (what this platform says) and ``FixedPermissionSource`` (tests).
public protocol PermissionSource: Sendable {
    /// The answer now, without asking the user.
    func status(of permission: Permission) async -> PermissionStatus
    /// Asks (prompting the user the first time, where the platform does) and returns the answer:
    /// ``PermissionStatus/granted`` or ``PermissionStatus/denied(reason:)``.
    func request(_ permission: Permission) async -> PermissionStatus
}

extension PermissionSource {
    /// The answers as events: ``PermissionStatus/waiting`` first when the user has to be asked, then the answer.
    public func requestEvents(_ permission: Permission) -> AsyncStream<PermissionStatus> {
        AsyncStream { continuation in
            let task = Task {
                if await status(of: permission) == .waiting { continuation.yield(.waiting) }
                continuation.yield(await request(permission))
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// Answers from a table: for tests, and for servers that decide themselves.
public struct FixedPermissionSource: PermissionSource {
    /// The answers; a permission missing from the table is denied.
    public var answers: [Permission: PermissionStatus]

    /// Creates a source with `answers`.
    public init(_ answers: [Permission: PermissionStatus]) {
        self.answers = answers
    }

    /// A source that grants everything.
    public static var grantingAll: Self {
        Self(Dictionary(uniqueKeysWithValues: Permission.allCases.map { ($0, .granted) }))
    }

    /// The table's answer.
    public func status(of permission: Permission) async -> PermissionStatus {
        answers[permission] ?? .denied(reason: "no answer for \(permission.rawValue)")
    }

    /// The table's answer; ``PermissionStatus/waiting`` in the table is answered as denied, as a user who never
    /// answers would be.
    public func request(_ permission: Permission) async -> PermissionStatus {
        switch await status(of: permission) {
        case .waiting: .denied(reason: "\(permission.rawValue): nobody answered")
        case let answer: answer
        }
    }
}
