import Hummingbird
import ParleyGMSSimulator
import ParleyServer
import ParleyServerTesting

/// The GMS simulator's routes on the chat server, joined as `parley serve --gms` joins them.
struct GMSRoutes: ServerRoutes {
    let simulator: GMSSimulator

    func register(on router: Router<some RequestContext>) {
        simulator.register(on: router)
    }
}

extension InProcessServer {
    /// Runs a Parley server without channels, with the GMS simulator under `/genesys`, for the duration of `body`.
    static func runWithGMS<Result: Sendable>(
        _ configuration: GMSSimulatorConfiguration = GMSSimulatorConfiguration(),
        _ body: (InProcessServer) async throws -> Result
    ) async throws -> Result {
        let simulator = GMSSimulator(configuration: configuration, defaultAuthority: "127.0.0.1")
        return try await run(channels: [], routes: [GMSRoutes(simulator: simulator)], body)
    }

    /// Runs a Parley server with `simulator` under `/genesys` (one with its own clock, say) for `body`.
    static func run<Result: Sendable>(
        gms simulator: GMSSimulator, _ body: (InProcessServer) async throws -> Result
    ) async throws -> Result {
        try await run(channels: [], routes: [GMSRoutes(simulator: simulator)], body)
    }
}
