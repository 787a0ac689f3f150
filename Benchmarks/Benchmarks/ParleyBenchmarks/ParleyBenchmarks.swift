import Benchmark

/// Parley's benchmarks (issue 10). `scripts/bench` runs them and prints one line per metric with its ratio to the
/// baseline measured in the same run; docs/performance.md explains each.
let benchmarks: @Sendable () -> Void = {
    CodecBenchmarks.register()
    SocketBenchmarks.register()
    UploadBenchmarks.register()
    StorageBenchmarks.register()
    VoiceFlowBenchmarks.register()
    TranscriptBenchmarks.register()
    ClusterBenchmarks.register()
    LanguageModelBenchmarks.register()
    LanguageModelStreams.register()
    #if os(Linux)
        SpeechBenchmarks.register()
    #endif
}
