// Mirrors the iOS 18 SDK (Xcode 16) QuickLook framework: SwiftUI's Quick Look preview modifier. Transcribed from
// developer.apple.com/documentation/swiftui/view/quicklookpreview(_:) (`nonisolated func quickLookPreview(_ item:
// Binding<URL?>) -> some View`, iOS 14, declared in QuickLook's SwiftUI overlay). Interface only: nothing here runs.
@_exported import UIKit
public import SwiftUI

extension View {
    /// Presents a Quick Look preview of the contents of a single URL.
    @available(iOS 14.0, *)
    nonisolated public func quickLookPreview(_ item: Binding<URL?>) -> some View { self }
}
