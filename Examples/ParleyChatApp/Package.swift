// swift-tools-version:6.1
import PackageDescription

// A minimal SwiftUI chat app over Parley's ParleyChatUI (README.md): the app's sources as a Swift package that depends
// on this repository by path. Xcode 16.3 or later (swift-tools-version 6.1). Its Info.plist keys are in Info.plist,
// next to this file. `scripts/check-apple --typecheck` type-checks Sources/ParleyChatApp on Linux; nothing builds
// this package there (it would resolve every dependency again).
let package = Package(
    name: "ParleyChatApp",
    platforms: [.iOS(.v17), .macOS(.v14)],
    dependencies: [
        .package(name: "Parley", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "ParleyChatApp",
            dependencies: [
                .product(name: "ParleyChatUI", package: "Parley"), .product(name: "ParleyClient", package: "Parley"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    ],
    swiftLanguageModes: [.v6]
)
