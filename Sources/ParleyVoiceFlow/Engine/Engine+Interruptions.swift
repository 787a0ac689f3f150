import Foundation
import ParleyCore
import ParleySpeech

// Audio-session interruptions: what stops, and how `audioInterruptTransitionParams` go on.
extension Engine {
    // MARK: Audio-session interruptions

    mutating func interruptionBegan(playedTo position: Duration?) -> [Action] {
        guard isActive, !isInterrupted, let id = phase.moduleID else { return [] }
        let resume: ResumePoint
        switch phase {
        case .playing(let playback), .afterSegment(let playback): resume = .playback(playback, position)
        case .recognizing: resume = .recognition
        case .recording: resume = .recording
        case .paused: resume = .pause
        default: resume = .step(phase)
        }
        let actions = stopMedia()
        phase = .interrupted(id, resume)
        return actions + [
            .emit(
                .mediaEvent(
                    moduleID: id, mediaItemID: id, function: .audioSession, event: .interruptionBegan, data: [:])),
            .waitForInterruptionEnd,
        ]
    }

    /// Applies the module's `audioInterruptTransitionParams` (or the flow-wide ones a `process` module set):
    /// `resume` (the default is `end`), `repeat`, `goto` or `end`.
    mutating func interruptionEnded(_ id: String, resume: ResumePoint) -> [Action] {
        let own = configuration.flow[id]?.interruptTransition
        let transition = own.flatMap { $0.isEmpty ? nil : $0 } ?? defaultInterruptTransition
        let type = transition.transitionType.resolve(with: fields) ?? "end"
        let ended = Action.emit(
            .mediaEvent(
                moduleID: id, mediaItemID: id, function: .audioSession, event: .interruptionEnded,
                data: ["transitionType": .string(type)]))
        switch type {
        case "resume":
            return [ended] + resumeAfterInterruption(id, resume, transition: transition)
        case "repeat":
            return [ended, .emit(.preModuleEnd(moduleID: id))] + enter(id)
        case "goto":
            let target = transition.goToModuleID.resolve(with: fields) ?? "VF_END"
            guard let position = configuration.flow.position(of: target) else {
                return [ended]
                    + failure(
                        id, "internalFailure",
                        ParleyError(.danglingGoTo, "goToVoiceFlowModuleID \(target) of \(id) names no module"),
                        isFallback: true)
            }
            transitions = 0
            return [ended, .emit(.preModuleEnd(moduleID: id))] + enter(target, at: position)
        default:
            phase = .finished
            return [ended, .emit(.preModuleEnd(moduleID: id)), .finish(.interrupted)]
        }
    }

    mutating func resumeAfterInterruption(_ id: String, _ resume: ResumePoint, transition: InterruptTransition)
        -> [Action]
    {
        switch resume {
        case .playback(var playback, let position):
            let rewind: Int
            do throws(ParleyError) {
                rewind = try transition.rewind.resolve(with: fields) ?? 0
            } catch {
                phase = .afterSegment(playback)
                return failure(id, "internalFailure", error)
            }
            if var segment = playback.current {
                playback.current = nil
                let from = position.map { max(0, Self.milliseconds($0) - rewind) }
                segment.startPosition = from ?? segment.startPosition
                playback.replay = segment
                playback.playCount -= 1
            }
            if playback.listening {
                // The interruption stopped the listening too: it starts again with the prompt.
                playback.listening = false
            }
            return [
                .emit(
                    .mediaEvent(
                        moduleID: id, mediaItemID: playback.itemID, function: .playAudio, event: .started, data: [:]))
            ] + continuePlayback(&playback)
        case .recognition:
            return startRecognition(id)
        case .recording:
            return startRecording(id)
        case .pause:
            phase = .paused(id)
            return [.waitForResume]
        case .step(let saved):
            phase = saved
            return [.proceed]
        }
    }

    mutating func stopMedia() -> [Action] {
        switch phase {
        case .playing(let playback), .afterSegment(let playback):
            var actions: [Action] = []
            if let segment = playback.current {
                actions.append(
                    .emit(
                        .mediaEvent(
                            moduleID: playback.moduleID, mediaItemID: segment.promptID, function: .playAudioSegment,
                            event: .stopped, data: [:])))
            }
            actions.append(
                .emit(
                    .mediaEvent(
                        moduleID: playback.moduleID, mediaItemID: playback.itemID, function: .playAudio,
                        event: .stopped, data: [:])))
            if playback.listening {
                actions.append(
                    .emit(
                        .mediaEvent(
                            moduleID: playback.moduleID, mediaItemID: playback.moduleID, function: .recognizeAudio,
                            event: .stopped, data: [:])))
            }
            return actions
        case .recognizing(let id):
            return [
                .emit(.mediaEvent(moduleID: id, mediaItemID: id, function: .recognizeAudio, event: .stopped, data: [:]))
            ]
        case .recording(let id):
            return [
                .emit(.mediaEvent(moduleID: id, mediaItemID: id, function: .recordAudio, event: .stopped, data: [:]))
            ]
        default:
            return []
        }
    }
}
