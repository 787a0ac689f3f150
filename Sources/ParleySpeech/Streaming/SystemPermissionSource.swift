#if os(Linux) && canImport(Subprocess)
    import ParleyCore
#endif

/// The permissions this platform gives, asked the platform's way.
///
/// - Apple platforms: the microphone through `AVAudioApplication.requestRecordPermission()`, speech recognition
///   through `SFSpeechRecognizer.requestAuthorization(_:)`; the user is prompted the first time.
/// - Linux: nobody is asked; the answer is whether the thing can be used. The microphone is granted when sox's
///   `rec` opens the default capture device (it records 10 ms and stops), denied with sox's reason otherwise —
///   `no default audio device configured` on a machine without a sound card. Speech recognition is granted when
///   the PocketSphinx libraries load, denied naming the Debian packages otherwise.
public struct SystemPermissionSource: PermissionSource {
    /// Creates the platform's source.
    public init() {}

    /// The platform's answer now; on Linux the same as ``request(_:)``.
    public func status(of permission: Permission) async -> PermissionStatus {
        #if canImport(AVFoundation) && canImport(Speech)
            ApplePermissions.status(of: permission)
        #elseif os(Linux) && canImport(Subprocess)
            await LinuxPermissions.answer(permission)
        #else
            .denied(reason: "this platform has no way to capture or recognise speech")
        #endif
    }

    /// Asks the platform (prompting the user the first time on Apple platforms).
    public func request(_ permission: Permission) async -> PermissionStatus {
        #if canImport(AVFoundation) && canImport(Speech)
            await ApplePermissions.request(permission)
        #elseif os(Linux) && canImport(Subprocess)
            await LinuxPermissions.answer(permission)
        #else
            .denied(reason: "this platform has no way to capture or recognise speech")
        #endif
    }
}

#if os(Linux) && canImport(Subprocess)
    /// Linux's answers: whether the device opens and the engine loads.
    enum LinuxPermissions {
        static func answer(_ permission: Permission) async -> PermissionStatus {
            switch permission {
            case .microphone: await microphone()
            case .speechRecognition: speechRecognition()
            }
        }

        /// Records 10 ms of the default capture device with `program` (sox's `rec`).
        static func microphone(program: String = "rec") async -> PermissionStatus {
            do {
                _ = try await ProgramRunner.run(program, ["-q"] + SoxFormat.raw16k + ["trim", "0", "0.01"])
                return .granted
            } catch {
                return .denied(reason: "the default capture device does not open: \(error.message)")
            }
        }

        static func speechRecognition() -> PermissionStatus {
            switch PocketsphinxLibrary.shared {
            case .success: .granted
            case .failure(let error): .denied(reason: error.message)
            }
        }
    }
#endif
