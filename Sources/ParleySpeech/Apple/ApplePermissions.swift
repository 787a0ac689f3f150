// Apple's permission prompts. Never compiled on Linux, where this package is developed: kept small, on long-standing
// API (AVAudioApplication: iOS 17 / macOS 14, the package's floor).
#if canImport(AVFoundation) && canImport(Speech)
    import AVFoundation
    import Speech

    /// The answers of `AVAudioApplication` (microphone) and `SFSpeechRecognizer` (speech recognition), for
    /// ``SystemPermissionSource``.
    enum ApplePermissions {
        static func status(of permission: Permission) -> PermissionStatus {
            switch permission {
            case .microphone:
                switch AVAudioApplication.shared.recordPermission {
                case .granted: .granted
                case .denied: .denied(reason: "the user denied microphone access (Settings, Privacy, Microphone)")
                default: .waiting
                }
            case .speechRecognition:
                answer(SFSpeechRecognizer.authorizationStatus())
            }
        }

        static func request(_ permission: Permission) async -> PermissionStatus {
            switch permission {
            case .microphone:
                await AVAudioApplication.requestRecordPermission()
                    ? .granted : .denied(reason: "the user denied microphone access")
            case .speechRecognition:
                answer(
                    await withCheckedContinuation { continuation in
                        SFSpeechRecognizer.requestAuthorization { continuation.resume(returning: $0) }
                    })
            }
        }

        private static func answer(_ status: SFSpeechRecognizerAuthorizationStatus) -> PermissionStatus {
            switch status {
            case .authorized: .granted
            case .denied: .denied(reason: "the user denied speech recognition")
            case .restricted: .denied(reason: "speech recognition is restricted on this device")
            default: .waiting
            }
        }
    }
#endif
