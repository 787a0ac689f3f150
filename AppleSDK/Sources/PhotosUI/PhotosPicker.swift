// Mirrors the iOS 18 SDK (Xcode 16) PhotosUI framework: the SwiftUI photos picker. Transcribed from
// developer.apple.com/documentation/photosui: PhotosPicker (`@MainActor @preconcurrency struct PhotosPicker<Label>
// where Label : View`, iOS 16), PhotosPicker/init(selection:matching:preferreditemencoding:label:) (`@preconcurrency
// nonisolated`, `@ViewBuilder label: @Sendable () -> Label`), View/photosPicker(ispresented:selection:matching:
// preferreditemencoding:) (`nonisolated`, iOS 16), PhotosPickerItem (`struct`, Transferable, Sendable),
// PhotosPickerItem/loadtransferable(type:) (`func loadTransferable<T>(type: T.Type) async throws -> T? where T :
// Transferable`), PhotosPickerItem/supportedcontenttypes, PhotosPickerItem/EncodingDisambiguationPolicy,
// PHPickerFilter (`struct`, iOS 14; `images`, `videos`, `any(of:)`). Interface only: nothing here runs.
@_exported import UIKit
public import SwiftUI
public import UniformTypeIdentifiers

/// A view that displays a Photos picker for choosing assets from the photo library.
@available(iOS 16.0, *)
@MainActor @preconcurrency public struct PhotosPicker<Label: View>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
    /// Creates a picker that selects an item and optionally configures the types of items to show, item encoding,
    /// and label behavior.
    @preconcurrency nonisolated public init(
        selection: Binding<PhotosPickerItem?>, matching filter: PHPickerFilter? = nil,
        preferredItemEncoding: PhotosPickerItem.EncodingDisambiguationPolicy = .automatic,
        @ViewBuilder label: @Sendable () -> Label
    ) { fatalError() }
}

/// A type that represents an item you use with a Photos picker.
@available(iOS 16.0, *)
public struct PhotosPickerItem: Equatable, Hashable, Transferable, Sendable {
    /// An array of types that the item supports, in order of preference.
    public var supportedContentTypes: [UTType] { fatalError() }
    /// The local identifier of the item.
    public var itemIdentifier: String? { fatalError() }
    /// Loads a transferable object using a representation of the item by matching content types.
    public func loadTransferable<T: Transferable>(type: T.Type) async throws -> T? { fatalError() }

    /// A policy that decides how to resolve an ambiguous encoding of a selected item.
    public struct EncodingDisambiguationPolicy: Equatable, Hashable, Sendable {
        /// A policy that uses the best encoding as determined by the system.
        public static let automatic = EncodingDisambiguationPolicy()
        /// A policy that uses the current encoding to avoid transcoding.
        public static let current = EncodingDisambiguationPolicy()
        /// A policy that uses the most compatible encoding if possible.
        public static let compatible = EncodingDisambiguationPolicy()
        private init() {}
    }
}

/// A filter that restricts which types of assets to show.
@available(iOS 14.0, *)
public struct PHPickerFilter: Equatable, Hashable, Sendable {
    /// A filter that represents images, and includes Live Photos.
    public static var images: PHPickerFilter { fatalError() }
    /// A filter that represents videos.
    public static var videos: PHPickerFilter { fatalError() }
    /// A filter that represents Live Photos.
    public static var livePhotos: PHPickerFilter { fatalError() }
    /// Returns a new filter based on the asset types it matches.
    public static func any(of subfilters: [PHPickerFilter]) -> PHPickerFilter { fatalError() }
}

extension View {
    /// Presents a Photos picker that selects a `PhotosPickerItem`.
    @available(iOS 16.0, *)
    nonisolated public func photosPicker(
        isPresented: Binding<Bool>, selection: Binding<PhotosPickerItem?>, matching filter: PHPickerFilter? = nil,
        preferredItemEncoding: PhotosPickerItem.EncodingDisambiguationPolicy = .automatic
    ) -> some View { self }
}
