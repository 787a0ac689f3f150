// Mirrors the iOS 18 SDK (Xcode 16) UniformTypeIdentifiers framework: the part of `UTType` Parley uses.
// Transcribed from developer.apple.com/documentation/uniformtypeidentifiers/uttype (struct UTType, iOS 14),
// …/uttype/init(_:) , …/uttype/init(mimetype:conformingto:), …/uttype/init(filenameextension:conformingto:),
// …/uttype/preferredmimetype, …/uttype/identifier, …/uttype/conforms(to:), …/system-declared-uniform-type-identifiers.
// Interface only: bodies trap, nothing here runs.
@_exported import DarwinFoundation
@_exported import Foundation

/// A structure that represents a type of data to load, send, or receive.
@available(iOS 14.0, macOS 11.0, *)
public struct UTType: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    private init() { fatalError() }

    /// Creates a type based on an identifier.
    public init?(_ identifier: String) { fatalError() }
    /// Creates a type that represents the specified MIME type.
    public init?(mimeType: String, conformingTo supertype: UTType = .data) { fatalError() }
    /// Creates a type based on a filename extension.
    public init?(filenameExtension: String, conformingTo supertype: UTType = .data) { fatalError() }

    /// The string that represents the type.
    public var identifier: String { fatalError() }
    /// The preferred MIME type for the type.
    public var preferredMIMEType: String? { fatalError() }
    /// The preferred filename extension for the type.
    public var preferredFilenameExtension: String? { fatalError() }
    /// A localized string that describes the type.
    public var localizedDescription: String? { fatalError() }
    /// Returns a Boolean value that indicates whether a type conforms to the type you specify.
    public func conforms(to type: UTType) -> Bool { fatalError() }

    public var description: String { fatalError() }
    public var debugDescription: String { fatalError() }

    /// A generic base type for most things, including files, directories, and symbolic links.
    public static var item: UTType { fatalError() }
    /// A base type for all document content.
    public static var content: UTType { fatalError() }
    /// A base type for any sort of simple byte stream, including files and in-memory data.
    public static var data: UTType { fatalError() }
    /// A base type for all image data.
    public static var image: UTType { fatalError() }
    /// A JPEG image.
    public static var jpeg: UTType { fatalError() }
    /// A PNG image.
    public static var png: UTType { fatalError() }
    /// A base type representing media formats that may contain both video and audio.
    public static var movie: UTType { fatalError() }
    /// A base type for video formats that don't contain audio.
    public static var video: UTType { fatalError() }
    /// An audio format that doesn't contain video.
    public static var audio: UTType { fatalError() }
    /// A base type for all text-encoded data, including text with markup.
    public static var text: UTType { fatalError() }
    /// A type for text with no markup and an unspecified encoding.
    public static var plainText: UTType { fatalError() }
    /// A type for Adobe Portable Document Format (PDF) documents.
    public static var pdf: UTType { fatalError() }
}
