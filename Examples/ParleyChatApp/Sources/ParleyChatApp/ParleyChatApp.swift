import ParleyChatUI
import ParleyClient
import SwiftUI

/// Parley's chat screen in an app: `ChatView` over a `ChatViewModel` of a `ChatClient`, connected when the screen
/// appears. The server and channel come from ``ServerSettings`` (a `parley serve` on the Mac by default).
@main
struct ParleyChatApp: App {
    @State private var model = ServerSettings.current.makeModel()

    var body: some Scene {
        WindowGroup {
            NavigationStack {
                ChatView(model: model)
            }
            .task {
                do {
                    try await model.conversation.initialize()
                } catch {
                    print("Parley: could not connect: \(error)")
                }
            }
        }
    }
}
