import Foundation
import ParleyCore
import ParleySpeech

// Entering, running and leaving modules: goTo targets, failure routes and the loop guard.
extension Engine {
    // MARK: Modules

    /// Leaves `id` for `target` (or finishes), counting the transition; `position` is the target's, when known.
    mutating func proceed(from id: String, to target: String, at position: Int?) -> [Action] {
        if id == "VF_END" || target.isEmpty {
            phase = .finished
            return [.finish(.completed)]
        }
        transitions += 1
        if transitions > configuration.maxTransitionsWithoutMedia {
            return fail(
                ParleyError(
                    .transitionLoop,
                    "the flow passed \(configuration.maxTransitionsWithoutMedia) modules without media; "
                        + "last \(id) → \(target)"
                ))
        }
        return enter(target, at: position)
    }

    /// Enters module `id`, found at `position` (looked up when nil). The position travels with the phase, so that
    /// a transition looks its target up once.
    mutating func enter(_ id: String, at position: Int? = nil) -> [Action] {
        guard let position = position ?? configuration.flow.position(of: id) else {
            return fail(ParleyError(.internalFailure, "no module \(id) in the flow"))
        }
        let type = configuration.flow.step(at: position).type
        visit = Visit(moduleID: id)
        if type == .audioDialog || type == .audioListener { userIntent = nil }
        phase = .entering(id, position)
        return [.emit(.preModuleStart(moduleID: id)), .proceed]
    }

    mutating func run(_ id: String, at position: Int) -> [Action] {
        // Modules without media run from their prepared step, without copying the module.
        let step = configuration.flow.step(at: position)
        switch step.type {
        case .node, .runAEC:
            return leave(id, step)
        case .process:
            for assignment in step.assignments {
                fields[assignment.field] =
                    assignment.isLiteral ? assignment.value : fields.resolve(assignment.value) ?? assignment.value
            }
            if let transition = step.interruptTransition { defaultInterruptTransition = transition }
            return leave(id, step)
        default:
            break
        }
        guard let module = configuration.flow[id] else { return fail(ParleyError(.internalFailure, "no module \(id)")) }
        switch module.parameters {
        case .playAudio(let choice):
            do {
                let list = try self.segments(for: choice, moduleID: id)
                return startPlayback(id, itemID: choice.promptID.resolve(with: fields) ?? id, list, then: .leave)
            } catch {
                return failure(id, "loadPromptFailure", error)
            }
        case .recordAudio(let record):
            if let promptID = record.promptID.resolve(with: fields),
                !(record.promptNoPlay.resolve(with: fields) ?? false)
            {
                do {
                    return startPlayback(
                        id, itemID: promptID, try segments(promptID, moduleID: id, attempt: 0), then: .record)
                } catch {
                    return failure(id, "loadPromptFailure", error)
                }
            }
            return startRecording(id)
        case .audioDialog:
            return startAttempt(id, kind: nil)
        case .audioListener(let listener):
            guard let promptID = listener.promptID.resolve(with: fields) else {
                return failure(
                    id, "loadPromptFailure", ParleyError(.loadPromptFailure, "audioListener \(id) has no promptID"))
            }
            visit.listenerQueue = [promptID]
            visit.listenerBargeIn = listener.recognizeWhilePlay.resolve(with: fields) ?? false
            var playback = Playback(moduleID: id, itemID: promptID, then: .recognize)
            return [
                .emit(
                    .mediaEvent(moduleID: id, mediaItemID: promptID, function: .playAudio, event: .started, data: [:]))
            ] + continuePlayback(&playback)
        case .empty where module.type == .pauseResume:
            phase = .paused(id)
            return [.waitForResume]
        default:
            return failure(
                id, "internalFailure", ParleyError(.unknownModuleType, "module \(id) has unknown type \(module.type)"))
        }
    }

    /// Leaves `id` for its step's `DEFAULT` target, found without a lookup when the target is literal.
    mutating func leave(_ id: String, _ step: VoiceFlow.Step) -> [Action] {
        guard let position = step.defaultTargetPosition, let target = step.defaultTarget else {
            return leave(id, target: step.defaultTarget)
        }
        phase = .leaving(id, target, position)
        return [.emit(.preModuleEnd(moduleID: id)), .proceed]
    }

    /// Leaves `id` for `target` (resolved now): `PreModuleEnd`, then the next module on ``Input/proceed``.
    mutating func leave(_ id: String, target: String?) -> [Action] {
        guard let raw = target else {
            return failure(
                id, "internalFailure", ParleyError(.missingKey, "module \(id) has no goTo target for this outcome"),
                isFallback: true)
        }
        guard let resolved = fields.resolve(raw) else {
            return failure(
                id, "internalFailure",
                ParleyError(.internalFailure, "goTo target \(raw) of \(id) is an unset runtime field"), isFallback: true
            )
        }
        let position = resolved.isEmpty ? nil : configuration.flow.position(of: resolved)
        if !resolved.isEmpty, id != "VF_END", position == nil {
            return failure(
                id, "internalFailure", ParleyError(.danglingGoTo, "goTo target \(resolved) of \(id) names no module"),
                isFallback: true)
        }
        phase = .leaving(id, resolved, position)
        return [.emit(.preModuleEnd(moduleID: id)), .proceed]
    }

    /// Takes the failure route `key` (`loadPromptFailure` falls back to `internalFailure`, both to `DEFAULT`).
    /// When even that is impossible (or this is already a fallback), the run fails.
    mutating func failure(_ id: String, _ key: String, _ error: ParleyError, isFallback: Bool = false)
        -> [Action]
    {
        lastError = error
        let goTo = configuration.flow[id]?.goTo ?? GoTo()
        let candidates =
            key == "loadPromptFailure"
            ? [goTo.routes["loadPromptFailure"], goTo.routes["internalFailure"]] : [goTo.routes["internalFailure"]]
        let defaultTarget = isFallback ? nil : goTo.defaultTarget
        for case let target? in candidates + [defaultTarget] {
            if let resolved = fields.resolve(target), resolved.isEmpty || configuration.flow[resolved] != nil {
                phase = .leaving(id, resolved, nil)
                return [.emit(.preModuleEnd(moduleID: id)), .proceed]
            }
        }
        return fail(error)
    }

    mutating func fail(_ error: ParleyError) -> [Action] {
        lastError = error
        phase = .finished
        return [.finish(.failed(error))]
    }
}
