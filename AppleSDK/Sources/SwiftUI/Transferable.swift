// Mirrors the iOS 18 SDK (Xcode 16) CoreTransferable framework, which SwiftUI re-exports: the `Transferable`
// protocol and the conformance of `Data`. Transcribed from developer.apple.com/documentation/coretransferable/
// transferable (`protocol Transferable`, iOS 16; `associatedtype Representation : TransferRepresentation`) and its
// "Conforming Types" (Data). The representation machinery is left out: Parley only names the protocol. Interface
// only: nothing here runs.
public import Foundation

/// A protocol that describes how a type interacts with transport APIs such as drag and drop or copy and paste.
@available(iOS 16.0, *)
public protocol Transferable {}

extension Data: Transferable {}
