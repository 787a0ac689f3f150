import ParleyCore
import Testing

@testable import ParleySpeech

/// The decisions behind Apple's audio session (`SystemAudioSession` only performs them): when it is activated and
/// given back, and what interruptions and route changes stop.
@Suite struct AudioSessionUsageTests {
    @Test func theFirstUserActivatesAndTheLastGivesBack() {
        var usage = AudioSessionUsage()
        #expect(usage.begin(.recording) == [.activate])
        #expect(usage.begin(.playback) == [])
        #expect(usage.isActive)
        #expect(usage.end(.recording) == [])
        #expect(usage.users == [.playback: 1])
        #expect(usage.end(.playback) == [.deactivate])
        #expect(!usage.isActive)
        #expect(usage.users.isEmpty)
    }

    @Test func usesAreCountedSoTwoReadsNeedTwoEnds() {
        var usage = AudioSessionUsage()
        #expect(usage.begin(.playback) == [.activate])
        #expect(usage.begin(.playback) == [])
        #expect(usage.end(.playback) == [])
        #expect(usage.end(.playback) == [.deactivate])
    }

    @Test func anEndWithoutABeginDoesNothing() {
        var usage = AudioSessionUsage()
        #expect(usage.end(.recording) == [])
        #expect(usage.begin(.recording) == [.activate])
        #expect(usage.end(.playback) == [])
        #expect(usage.isActive)
    }

    @Test func anInterruptionDeactivatesSoTheNextUserActivatesAgain() {
        var usage = AudioSessionUsage()
        _ = usage.begin(.playback)
        usage.handle(.interruptionBegan)
        #expect(!usage.isActive)
        // The reader still counts until it ends, but the session is no longer Parley's to give back.
        #expect(usage.begin(.recording) == [.activate])
        #expect(usage.end(.playback) == [])
        #expect(usage.end(.recording) == [.deactivate])
    }

    @Test func aMediaServicesResetAlsoDeactivates() {
        var usage = AudioSessionUsage()
        _ = usage.begin(.recording)
        usage.handle(.mediaServicesReset)
        #expect(!usage.isActive)
        #expect(usage.end(.recording) == [])
    }

    @Test func routeChangesAndTheEndOfAnInterruptionLeaveTheSessionAsItIs() {
        var usage = AudioSessionUsage()
        _ = usage.begin(.recording)
        usage.handle(.routeChanged(.oldDeviceUnavailable))
        usage.handle(.interruptionEnded(shouldResume: true))
        #expect(usage.isActive)
    }

    @Test func aFailedActivationDoesNotCountTheUse() {
        var usage = AudioSessionUsage()
        #expect(usage.begin(.recording) == [.activate])
        usage.activationFailed(for: .recording)
        #expect(!usage.isActive)
        #expect(usage.users.isEmpty)
        #expect(usage.begin(.recording) == [.activate])
    }
}

@Suite struct AudioSessionEventTests {
    @Test func interruptionsDecodeFromAppleRawValues() {
        // AVAudioSession.InterruptionType: began = 1, ended = 0; InterruptionOptions.shouldResume = 1.
        #expect(AudioSessionEvent(interruptionType: 1, options: nil) == .interruptionBegan)
        #expect(AudioSessionEvent(interruptionType: 0, options: 1) == .interruptionEnded(shouldResume: true))
        #expect(AudioSessionEvent(interruptionType: 0, options: 0) == .interruptionEnded(shouldResume: false))
        #expect(AudioSessionEvent(interruptionType: 0, options: nil) == .interruptionEnded(shouldResume: false))
        #expect(AudioSessionEvent(interruptionType: 7, options: nil) == nil)
    }

    @Test func routeChangesDecodeFromAppleRawValues() {
        let expected: [UInt: AudioSessionEvent.RouteChangeReason] = [
            0: .unknown, 1: .newDeviceAvailable, 2: .oldDeviceUnavailable, 3: .categoryChange, 4: .override,
            6: .wakeFromSleep, 7: .noSuitableRouteForCategory, 8: .routeConfigurationChange,
        ]
        for (raw, reason) in expected {
            #expect(AudioSessionEvent(routeChangeReason: raw) == .routeChanged(reason))
        }
        // 5 is not a reason AVAudioSession has; an unknown value is `unknown`, never a crash.
        #expect(AudioSessionEvent(routeChangeReason: 5) == .routeChanged(.unknown))
        #expect(AudioSessionEvent(routeChangeReason: 99) == .routeChanged(.unknown))
    }

    @Test func interruptionsAndLostDevicesStopTheMicrophoneAndReadAloud() {
        let both: AudioSessionResponse = [.stopListening, .stopSpeaking]
        #expect(AudioSessionEvent.interruptionBegan.response == both)
        #expect(AudioSessionEvent.mediaServicesReset.response == both)
        #expect(AudioSessionEvent.routeChanged(.oldDeviceUnavailable).response == both)
        #expect(AudioSessionEvent.routeChanged(.noSuitableRouteForCategory).response == both)
    }

    @Test func otherEventsStopNothing() {
        let events: [AudioSessionEvent] = [
            .interruptionEnded(shouldResume: true), .interruptionEnded(shouldResume: false),
            .routeChanged(.newDeviceAvailable), .routeChanged(.categoryChange), .routeChanged(.override),
            .routeChanged(.wakeFromSleep), .routeChanged(.routeConfigurationChange), .routeChanged(.unknown),
        ]
        for event in events {
            #expect(event.response.isEmpty, "\(event)")
        }
    }

    @Test func noAudioSessionDoesNothingAndEndsItsEvents() async throws {
        let session = NoAudioSession()
        try await session.begin(.recording)
        await session.end(.recording)
        var count = 0
        for await _ in session.events() { count += 1 }
        #expect(count == 0)
    }
}

@Suite struct AudioBufferFloatTests {
    @Test func int16SamplesBecomeFloatsInRange() {
        let buffer = AudioBuffer(samples: [0, 16_384, -32_768, 32_767], sampleRate: 22_050)
        #expect(buffer.floatSamples == [0, 0.5, -1, Float(32_767) / 32_768])
    }

    @Test func floatsBecomeInt16ClippedAndRounded() {
        let samples: [Float] = [0, 0.5, -0.5, 1, -1, 2, -3, .infinity, -.infinity, .nan, 0.00002]
        #expect(
            AudioBuffer.int16Samples(fromFloat: samples) == [
                0, 16_384, -16_384, 32_767, -32_767, 32_767, -32_767, 32_767, -32_767, 0, 1,
            ])
    }

    @Test func aRoundTripKeepsTheSamplesWithinOne() {
        let original: [Int16] = [0, 1, -1, 1_000, -1_000, 12_345, -23_456, 32_767, -32_767]
        let back = AudioBuffer.int16Samples(fromFloat: AudioBuffer(samples: original).floatSamples)
        for (a, b) in zip(original, back) {
            #expect(abs(Int(a) - Int(b)) <= 1, "\(a) came back as \(b)")
        }
    }
}
