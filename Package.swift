// swift-tools-version:6.1
import PackageDescription

/// Strictness shared by every target: Swift 6 mode plus the upcoming features the model codebases adopt.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

let package = Package(
    name: "Parley",
    platforms: [.iOS(.v16), .macOS(.v13)],
    products: [
        .library(name: "ParleyCore", targets: ["ParleyCore"]),
        .library(name: "ParleyClient", targets: ["ParleyClient"]),
        .library(name: "ParleySkills", targets: ["ParleySkills"]),
        .library(name: "ParleyServer", targets: ["ParleyServer"]),
        .library(name: "ParleyTesting", targets: ["ParleyTesting"]),
        .executable(name: "parley", targets: ["parley"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // Wire model: payloads, actions, envelopes, JSONValue, errors. No package dependencies.
        .target(name: "ParleyCore"),
        // Headless chat client (filled by issue 4).
        .target(name: "ParleyClient", dependencies: ["ParleyCore"]),
        // Scripted skills: the dialog-definition format, its interpreter and the demo skill (issue 3).
        .target(name: "ParleySkills", dependencies: ["ParleyCore"]),
        // Reference chat server (filled by issue 3).
        .target(name: "ParleyServer", dependencies: ["ParleyCore", "ParleySkills"]),
        // Test support shipped to app developers (filled by issues 4 and 5).
        .target(name: "ParleyTesting", dependencies: ["ParleyClient", "ParleyServer"]),
        .executableTarget(
            name: "parley",
            dependencies: [
                "ParleyCore",
                "ParleyClient",
                "ParleyServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ParleyCoreTests", dependencies: ["ParleyCore"], exclude: ["Fixtures"]),
        .testTarget(name: "ParleySkillsTests", dependencies: ["ParleySkills"]),
        .testTarget(name: "ParleyCLITests", dependencies: ["parley"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
