import Foundation
import ParleyCore
import ParleySpeech

// Playing prompts: the segment queue of a module, and the segments a prompt module resolves to.
extension Engine {
    // MARK: Playback

    mutating func startPlayback(
        _ id: String, itemID: String, _ segments: [PlaybackSegment], then: Playback.Then
    ) -> [Action] {
        var playback = Playback(moduleID: id, itemID: itemID, queue: segments, then: then)
        return [.emit(.mediaEvent(moduleID: id, mediaItemID: itemID, function: .playAudio, event: .started, data: [:]))]
            + continuePlayback(&playback)
    }

    mutating func continuePlayback(_ playback: inout Playback) -> [Action] {
        let isListener = configuration.flow[playback.moduleID]?.type == .audioListener
        if isListener, let target = intentTarget(playback.moduleID) {
            return [
                .emit(
                    .mediaEvent(
                        moduleID: playback.moduleID, mediaItemID: playback.itemID, function: .playAudio,
                        event: .stopped, data: [:]))
            ]
                + leave(playback.moduleID, target: target)
        }
        while playback.queue.isEmpty, isListener, !visit.listenerQueue.isEmpty {
            let promptID = visit.listenerQueue.removeFirst()
            do {
                let bargeIn = visit.listenerBargeIn
                playback.queue = try segments(promptID, moduleID: playback.moduleID, attempt: 0).map {
                    var segment = $0
                    segment.bargeIn = bargeIn
                    return segment
                }
            } catch {
                return failure(playback.moduleID, "loadPromptFailure", error)
            }
        }
        if let replay = playback.replay {
            playback.replay = nil
            playback.queue.insert(replay, at: 0)
        } else {
            playback.playCount = 0
        }
        guard !playback.queue.isEmpty else {
            let ended = Action.emit(
                .mediaEvent(
                    moduleID: playback.moduleID, mediaItemID: playback.itemID, function: .playAudio, event: .ended,
                    data: [:]))
            if playback.listening {
                phase = .recognizing(playback.moduleID)
                transitions = 0
                return [ended, .awaitRecognition]
            }
            switch playback.then {
            case .leave:
                return [ended]
                    + leave(playback.moduleID, target: configuration.flow[playback.moduleID]?.goTo.defaultTarget)
            case .record: return [ended] + startRecording(playback.moduleID)
            case .recognize: return [ended] + startRecognition(playback.moduleID)
            }
        }
        let segment = playback.queue.removeFirst()
        playback.current = segment
        playback.playCount += 1
        var actions: [Action] = []
        if segment.bargeIn, configuration.listensWhilePlaying, !playback.listening, playback.then == .recognize {
            // Listening starts with the first prompt the caller may barge into.
            do throws(ParleyError) {
                let plan = try recognitionPlan(playback.moduleID)
                playback.listening = true
                userIntent = nil
                visit.partials = []
                actions += [
                    .emit(
                        .mediaEvent(
                            moduleID: playback.moduleID, mediaItemID: playback.moduleID, function: .recognizeAudio,
                            event: .started, data: [:])),
                    .listen(plan),
                ]
            } catch {
                return failure(playback.moduleID, "internalFailure", error)
            }
        }
        phase = .playing(playback)
        transitions = 0
        return actions + [
            .emit(
                .playAudioSegmentData(
                    moduleID: playback.moduleID, promptID: segment.promptID, segmentType: segment.type,
                    audioFile: segment.audioFile, textString: segment.text, textFile: segment.textFile)),
            .emit(
                .mediaEvent(
                    moduleID: playback.moduleID, mediaItemID: segment.promptID, function: .playAudioSegment,
                    event: .started,
                    data: segment.plays == 1 ? [:] : ["playCount": .number(Double(playback.playCount))])),
            .play(segment),
        ]
    }

    // MARK: Prompts

    /// The segments of a `playAudioParams` (or dialog prompt) choice: `promptID`, or `promptCollection` chosen by
    /// `style` (default `single` with a `promptID`, `combo` with a collection).
    mutating func segments(for choice: PromptChoice, moduleID: String, attempt: Int = 0) throws(ParleyError)
        -> [PlaybackSegment]
    {
        let fields = self.fields
        let collection = choice.collection.compactMap { $0.resolve(with: fields) }
        let style = PromptStyle(
            rawValue: choice.style.resolve(with: fields) ?? (collection.isEmpty ? "single" : "combo"))
        if collection.isEmpty {
            guard let promptID = choice.promptID.resolve(with: fields) else {
                throw ParleyError(.loadPromptFailure, "\(moduleID) names no prompt (promptID or promptCollection)")
            }
            return try segments(promptID, moduleID: moduleID, attempt: attempt)
        }
        return try choose(collection, style: style, moduleID: moduleID, attempt: attempt, depth: 0)
    }

    mutating func choose(_ ids: [String], style: PromptStyle, moduleID: String, attempt: Int, depth: Int)
        throws(ParleyError) -> [PlaybackSegment]
    {
        switch style {
        case .select:
            let index = Int.random(in: 0..<ids.count, using: &random)
            return try segments(ids[index], moduleID: moduleID, attempt: attempt, depth: depth + 1)
        case .serial:
            return try segments(
                ids[min(attempt, ids.count - 1)], moduleID: moduleID, attempt: attempt, depth: depth + 1)
        default:
            var result: [PlaybackSegment] = []
            for id in ids { result += try segments(id, moduleID: moduleID, attempt: attempt, depth: depth + 1) }
            return result
        }
    }

    /// The segments prompt module `rawID` plays on `attempt` (0 = first).
    mutating func segments(_ rawID: String, moduleID: String, attempt: Int, depth: Int = 0) throws(ParleyError)
        -> [PlaybackSegment]
    {
        guard depth < 32 else { throw ParleyError(.promptCycle, "prompt modules nest more than 32 deep at \(rawID)") }
        guard let id = fields.resolve(rawID), let prompt = configuration.prompts[id] else {
            throw ParleyError(.loadPromptFailure, "no prompt module \(fields.resolve(rawID) ?? rawID)")
        }
        if prompt.style != .single, !prompt.promptCollection.isEmpty {
            let fields = self.fields
            return try choose(
                prompt.promptCollection.compactMap { (id: String) -> String? in fields.resolve(id) },
                style: prompt.style, moduleID: moduleID, attempt: attempt, depth: depth)
        }
        let fields = self.fields
        let text = prompt.textString.flatMap { fields.resolve($0) }.flatMap { $0.isEmpty ? nil : $0 }
        let textFile = prompt.textFile.flatMap { fields.resolve($0) }.flatMap { $0.isEmpty ? nil : $0 }
        let ssml = prompt.ssml.resolve(with: fields) ?? false
        let startPosition = try prompt.playback?.startPosition.resolve(with: fields).flatMap { $0 > 0 ? $0 : nil }
        // loopPlay: repeat until stopped, or maxPlayCount plays in all (0 or unset: no limit).
        let plays: Int? =
            prompt.playback?.loopPlay.resolve(with: fields) == true
            ? try prompt.playback?.maxPlayCount.resolve(with: fields, in: 0...1_000_000).flatMap { $0 > 0 ? $0 : nil }
            : 1
        func segment(
            _ type: AudioSegmentType, audio: String? = nil, text: String? = nil, file: String? = nil,
            language: String = "en-US"
        ) -> PlaybackSegment {
            PlaybackSegment(
                moduleID: moduleID, promptID: id, type: type, audioFile: audio, text: text, textFile: file,
                isSSML: ssml && type != .audioFile, language: language, startPosition: startPosition,
                plays: plays)
        }
        if let audio = prompt.audioFile.flatMap({ fields.resolve($0) }), !audio.isEmpty {
            if configuration.audioFileExists(audio) { return [segment(.audioFile, audio: audio, text: text)] }
            if let entry = configuration.audioToText[audio], let mapped = fields.resolve(entry.textString) {
                return [segment(.textString, audio: audio, text: mapped, language: entry.textLanguage)]
            }
            if let text { return [segment(.textString, audio: audio, text: text)] }
            if let textFile { return [segment(.textFile, audio: audio, file: textFile)] }
            throw ParleyError(
                .loadPromptFailure, "prompt \(id): audio file \(audio) is missing and there is no text for it")
        }
        if let text { return [segment(.textString, text: text)] }
        if let textFile { return [segment(.textFile, file: textFile)] }
        throw ParleyError(.loadPromptFailure, "prompt \(id) has nothing to play")
    }
}
