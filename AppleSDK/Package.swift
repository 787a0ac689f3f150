// swift-tools-version:6.1
import PackageDescription

// Interface modules named like Apple's frameworks, declaring the API Parley's Apple-only code uses, each declaration
// transcribed from Apple's documentation for the iOS 18 SDK (signature, availability, isolation, Sendable). They exist
// so that `scripts/check-apple --typecheck` can compile every Apple-only line of Parley on Linux (docs/ios.md,
// "What the Linux type-check covers"). Not a product of Parley, never linked into anything shipped: the bodies are
// `fatalError()` and nothing here runs.
//
// `DarwinFoundation` holds the few Foundation declarations the Darwin SDK has and swift-corelibs-foundation lacks
// (`NSErrorPointer`, …); the framework modules re-export it as Apple's do Foundation.
let package = Package(
    name: "AppleSDK",
    products: [],
    targets: [
        .target(name: "DarwinFoundation"),
        .target(name: "UniformTypeIdentifiers", dependencies: ["DarwinFoundation"]),
        .target(name: "AVFAudio", dependencies: ["DarwinFoundation"]),
        .target(name: "AVFoundation", dependencies: ["AVFAudio"]),
        .target(name: "Speech", dependencies: ["AVFoundation"]),
        .target(name: "CoreLocation", dependencies: ["DarwinFoundation"]),
        .target(name: "UIKit", dependencies: ["UniformTypeIdentifiers"]),
        .target(name: "SwiftUI", dependencies: ["UIKit"]),
        .target(name: "AVKit", dependencies: ["AVFoundation", "SwiftUI", "UIKit"]),
        .target(name: "PhotosUI", dependencies: ["SwiftUI", "UIKit"]),
        .target(name: "QuickLook", dependencies: ["SwiftUI", "UIKit"]),
        .target(name: "WebKit", dependencies: ["UIKit"]),
    ],
    swiftLanguageModes: [.v6]
)
