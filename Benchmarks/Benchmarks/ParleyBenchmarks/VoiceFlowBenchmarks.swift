import Benchmark
import Foundation
import ParleyCore
import ParleyVoiceFlow

/// Metric 5: the engine's transitions per second through a chain of `process` modules, and the validation of a
/// generated 1,000-module flow (with its prompts) that uses every common module type.
enum VoiceFlowBenchmarks {
    static let chainLength = 1_000
    /// Built on first use, not at registration (which every benchmark process repeats).
    static let chain = Engine.Configuration(
        flow: try! VoiceFlow(parsing: processChain(chainLength)), maxTransitionsWithoutMedia: .max)
    static let generated: (VoiceFlow, PromptLibrary) = {
        let (flow, prompts) = generatedFlow(modules: 1_000)
        return (try! VoiceFlow(parsing: flow), try! PromptLibrary(parsing: prompts))
    }()

    static func register() {
        let iterations = quick ? 15 : 30

        Benchmark("voiceflow.transitions", configuration: measuring(.transitionsPerSecond, iterations: iterations)) {
            benchmark in
            let runs = quick ? 100 : 500
            var transitions = 0
            let start = ContinuousClock.now
            for _ in 0..<runs {
                var engine = Engine(configuration: chain)
                var actions = engine.handle(.start)
                while true {
                    guard let last = actions.last else { throw BenchmarkFailure("the engine stopped answering") }
                    if case .finish(let reason) = last {
                        guard reason == .completed else { throw BenchmarkFailure("the chain ended with \(reason)") }
                        break
                    }
                    if case .emit(.preModuleStart) = actions.first { transitions += 1 }
                    actions = engine.handle(.proceed)
                }
            }
            let elapsed = start.duration(to: .now)
            guard transitions == runs * (chainLength + 2) else {
                throw BenchmarkFailure("expected \(runs * (chainLength + 2)) modules entered, counted \(transitions)")
            }
            benchmark.measurement(.transitionsPerSecond, rate(transitions, in: elapsed))
        }

        Benchmark("voiceflow.validate1000", configuration: measuring(.duration, iterations: iterations)) { benchmark in
            let (flow, prompts) = generated
            let start = ContinuousClock.now
            let diagnostics = Validator.validate(flow, prompts: prompts)
            let elapsed = start.duration(to: .now)
            let errors = diagnostics.filter { $0.severity == .error }
            guard errors.isEmpty else { throw BenchmarkFailure("the generated flow is invalid: \(errors.prefix(3))") }
            benchmark.measurement(.duration, microseconds(elapsed))
        }
    }

    /// VF_START → P0 → … → P(n-1) → VF_END, each process module setting two runtime fields.
    static func processChain(_ count: Int) -> String {
        var modules = [#"{"id": "VF_START", "type": "node", "name": "start", "goTo": {"DEFAULT": "P0"}}"#]
        for index in 0..<count {
            let next = index == count - 1 ? "VF_END" : "P\(index + 1)"
            modules.append(
                #"{"id": "P\#(index)", "type": "process", "name": "P\#(index)", "processParams": {"setValueForFieldNameCollection": [{"name": "$[Step]", "value": "\#(index)"}, {"name": "$[Done]", "value": false}]}, "goTo": {"DEFAULT": "\#(next)"}}"#
            )
        }
        modules.append(#"{"id": "VF_END", "type": "node", "name": "end", "goTo": {"DEFAULT": ""}}"#)
        return "[" + modules.joined(separator: ",\n") + "]"
    }

    /// A flow of `count` modules cycling through process, playAudio, audioDialog (with retries, intents and
    /// user-input routes), recordAudio and node, each leading to the next, plus a prompt for every prompt id.
    static func generatedFlow(modules count: Int) -> (flow: String, prompts: String) {
        var modules = [#"{"id": "VF_START", "type": "node", "name": "start", "goTo": {"DEFAULT": "M0"}}"#]
        var prompts: [String] = []
        for index in 0..<count - 2 {
            let id = "M\(index)"
            let next = index == count - 3 ? "VF_END" : "M\(index + 1)"
            switch index % 5 {
            case 0:
                modules.append(
                    #"{"id": "\#(id)", "type": "process", "name": "\#(id)", "processParams": {"setValueForFieldNameCollection": [{"name": "$[Step]", "value": "\#(index)"}]}, "goTo": {"DEFAULT": "\#(next)"}}"#
                )
            case 1:
                prompts.append(#"{"id": "P\#(index)", "style": "single", "textString": "Step \#(index), $[Step]."}"#)
                modules.append(
                    #"{"id": "\#(id)", "type": "playAudio", "name": "\#(id)", "playAudioParams": {"promptID": "P\#(index)"}, "goTo": {"DEFAULT": "\#(next)"}}"#
                )
            case 2:
                prompts.append(#"{"id": "A\#(index)", "style": "single", "textString": "Yes or no?"}"#)
                prompts.append(#"{"id": "R\#(index)", "style": "single", "textString": "Please say yes or no."}"#)
                modules.append(
                    #"{"id": "\#(id)", "type": "audioDialog", "name": "\#(id)", "audioDialogParams": {"dialogPromptCollection": [{"type": "initial", "promptID": "A\#(index)"}, {"type": "timeout", "promptID": "R\#(index)"}, {"type": "garbage", "promptID": "R\#(index)"}], "maxRetryCount": {"timeout": 2, "garbage": 2, "sr_error": 1}}, "recordAudioParams": {"stopRecordParams": {"maxPreSpeechSilenceLengthMs": 3000}}, "goTo": {"DEFAULT": "\#(next)", "maxTimeoutCount": "\#(next)", "maxGarbageCount": "\#(next)", "maxSRErrorCount": "\#(next)", "userIntentCollection": [{"intent": "Stop", "goTo": "VF_END"}], "goToForUserInput": [{"input": "yes", "goTo": "\#(next)"}, {"input": "no", "comparator": "contains", "goTo": "\#(next)"}]}}"#
                )
            case 3:
                modules.append(
                    #"{"id": "\#(id)", "type": "recordAudio", "name": "\#(id)", "recordAudioParams": {"stopRecordParams": {"maxAudioLengthMs": 5000, "maxPreSpeechSilenceLengthMs": 3000}}, "goTo": {"DEFAULT": "\#(next)"}}"#
                )
            default:
                modules.append(#"{"id": "\#(id)", "type": "node", "name": "\#(id)", "goTo": {"DEFAULT": "\#(next)"}}"#)
            }
        }
        modules.append(#"{"id": "VF_END", "type": "node", "name": "end", "goTo": {"DEFAULT": ""}}"#)
        return ("[" + modules.joined(separator: ",\n") + "]", "[" + prompts.joined(separator: ",\n") + "]")
    }
}
