import Foundation
import ParleyCore
import ParleySpeech

// Dialogs and listeners: attempts, listening and recording plans, judging a hypothesis, retries.
extension Engine {
    // MARK: Dialogs and listeners

    /// Plays the prompts of a dialog attempt (`kind` nil = first attempt), then listens.
    mutating func startAttempt(_ id: String, kind: String?) -> [Action] {
        var prompts: [DialogPrompt] = []
        if case .audioDialog(let dialog)? = configuration.flow[id]?.parameters { prompts = dialog.prompts }
        func of(_ type: String) -> [DialogPrompt] {
            prompts.filter { $0.kind == type }
        }
        var chosen: [(DialogPrompt, Int)] = []
        if let kind, !of(kind).isEmpty {
            chosen = of(kind).map { ($0, visit.count(kind) - 1) }
        } else {
            if !visit.playedPreInitial { chosen = of(DialogPromptType.preInitial).map { ($0, 0) } }
            chosen += of(DialogPromptType.initial).map { ($0, visit.attempts) }
        }
        visit.playedPreInitial = true
        visit.attempts += 1
        var segments: [PlaybackSegment] = []
        do {
            for (prompt, attempt) in chosen {
                let bargeIn = prompt.recognizeWhilePlay.resolve(with: fields) ?? false
                segments += try self.segments(for: prompt.choice, moduleID: id, attempt: attempt).map {
                    var segment = $0
                    segment.bargeIn = bargeIn
                    return segment
                }
            }
        } catch {
            return failure(id, "loadPromptFailure", error)
        }
        if segments.isEmpty { return startRecognition(id) }
        return startPlayback(id, itemID: id, segments, then: .recognize)
    }

    /// How module `id` listens, its runtime fields resolved now.
    func recognitionPlan(_ id: String) throws(ParleyError) -> RecognitionPlan {
        guard let module = configuration.flow[id] else { throw ParleyError(.internalFailure, "no module \(id)") }
        let listening = module.parameters.listening ?? ListeningParameters([:])
        let fields = self.fields
        func limit(_ parameter: Parameter<Int>) throws(ParleyError) -> Duration? {
            guard let ms = try parameter.resolve(with: fields), ms > 0 else { return nil }
            return .milliseconds(ms)
        }
        return RecognitionPlan(
            moduleID: id,
            locale: listening.recognize.locale.resolve(with: fields) ?? "en-US",
            engine: listening.recognize.engine.resolve(with: fields),
            phrases: module.goTo.userInputs.map(\.input),
            noInputTimeout: try listening.stop.maxPreSpeechSilence.resolve(with: fields).map { .milliseconds($0) }
                ?? configuration.defaultNoInputTimeout,
            partialResults: listening.recognize.partialResults.resolve(with: fields) ?? false,
            voiceActivity: try voiceActivity(listening.voiceActivity),
            endSilence: try limit(listening.stop.maxPostSpeechSilence),
            maxSpeech: try limit(listening.stop.maxSpeechLength)
        )
    }

    /// `vadParams` when `enableVAD` (or its runtime twin) is true.
    func voiceActivity(_ vad: VoiceActivityDetection) throws(ParleyError) -> VoiceActivityPlan? {
        guard vad.enabled.resolve(with: fields) == true else { return nil }
        return VoiceActivityPlan(
            minSpeech: .milliseconds(try vad.minSpeech.resolve(with: fields) ?? 200),
            minSilence: .milliseconds(try vad.minSilence.resolve(with: fields) ?? 500))
    }

    mutating func startRecognition(_ id: String) -> [Action] {
        let plan: RecognitionPlan
        do throws(ParleyError) {
            plan = try recognitionPlan(id)
        } catch {
            return failure(id, "internalFailure", error)
        }
        visit.partials = []
        userIntent = nil
        phase = .recognizing(id)
        transitions = 0
        return [
            .emit(.mediaEvent(moduleID: id, mediaItemID: id, function: .recognizeAudio, event: .started, data: [:])),
            .recognize(plan),
        ]
    }

    mutating func startRecording(_ id: String) -> [Action] {
        var record = RecordAudioParameters(nil)
        if case .recordAudio(let parameters)? = configuration.flow[id]?.parameters { record = parameters }
        let fields = self.fields
        func limit(_ parameter: Parameter<Int>) throws(ParleyError) -> Duration? {
            guard let ms = try parameter.resolve(with: fields), ms > 0 else { return nil }
            return .milliseconds(ms)
        }
        let plan: RecordingPlan
        do throws(ParleyError) {
            let maxLength = try limit(record.stop.maxAudioLength)
            plan = RecordingPlan(
                moduleID: id, fileName: (record.fileID.resolve(with: fields) ?? id) + ".wav",
                maxLength: maxLength == nil ? try limit(record.stop.maxRecordLength) : maxLength,
                maxPreSpeechSilence: try limit(record.stop.maxPreSpeechSilence),
                maxPostSpeechSilence: try limit(record.stop.maxPostSpeechSilence),
                voiceActivity: try voiceActivity(record.voiceActivity))
        } catch {
            return failure(id, "internalFailure", error)
        }
        phase = .recording(id)
        transitions = 0
        return [
            .emit(.mediaEvent(moduleID: id, mediaItemID: id, function: .recordAudio, event: .started, data: [:])),
            .record(plan),
        ]
    }

    func intentTarget(_ id: String) -> String? {
        guard let intent = userIntent else { return nil }
        return configuration.flow[id]?.goTo.userIntents.first { $0.intent == intent }?.target
    }

    /// After the `SRHypothesis` callbacks: intents, then input matches, then DEFAULT or garbage.
    mutating func evaluate(_ id: String, hypothesis: String, partials: [String]) -> [Action] {
        guard let module = configuration.flow[id] else { return fail(ParleyError(.internalFailure, "no module \(id)")) }
        if visit.rejected { return retry(id, kind: DialogPromptType.garbage) }
        if let target = intentTarget(id) { return leave(id, target: target) }
        if let route = module.goTo.userInputs.first(where: { $0.matches(hypothesis) })
            ?? module.goTo.userInputs.first(where: { route in
                route.matchesPartialHypotheses && partials.contains(where: route.matches)
            })
        {
            return leave(id, target: route.target)
        }
        if module.goTo.userInputs.isEmpty, module.goTo.userIntents.isEmpty {
            return leave(id, target: module.goTo.defaultTarget)
        }
        return retry(id, kind: DialogPromptType.garbage)
    }

    /// Counts a timeout, garbage or recognition error; retries with that kind's prompt or takes the max-count route.
    mutating func retry(_ id: String, kind: String) -> [Action] {
        guard let module = configuration.flow[id] else { return fail(ParleyError(.internalFailure, "no module \(id)")) }
        let routeKey =
            ["timeout": "maxTimeoutCount", "garbage": "maxGarbageCount", "sr_error": "maxSRErrorCount"][kind]
            ?? "internalFailure"
        visit.counts[kind, default: 0] += 1
        if case .audioDialog(let dialog) = module.parameters {
            let limit: Int
            do throws(ParleyError) {
                limit =
                    try dialog.maxRetryCount[kind]?.resolve(with: fields, in: 0...1_000) ?? Self.defaultRetries[kind]
                    ?? 2
            } catch {
                return failure(id, "internalFailure", error)
            }
            if visit.count(kind) <= limit { return startAttempt(id, kind: kind) }
        }
        return leave(id, target: module.goTo.routes[routeKey] ?? module.goTo.defaultTarget)
    }

    /// Retries allowed after the first attempt when `maxRetryCount` does not say.
    public static let defaultRetries = ["timeout": 2, "garbage": 2, "sr_error": 1]
}
