import Foundation
import ParleyChatUI
import ParleyClient

/// Where the app chats: `parley serve` on the Mac that runs the simulator (`http://localhost:8080`, channel `demo`),
/// or an Oracle Digital Assistant web channel. Set `PARLEY_URL`, `PARLEY_CHANNEL` and `PARLEY_USER` in the scheme's
/// environment to change them without editing code.
struct ServerSettings {
    var url: URL
    var channelId: String
    var userId: String

    static var current: ServerSettings {
        let environment = ProcessInfo.processInfo.environment
        let url = environment["PARLEY_URL"].flatMap(URL.init(string:)) ?? URL(fileURLWithPath: "/")
        return ServerSettings(
            url: environment["PARLEY_URL"] == nil ? localServer : url,
            channelId: environment["PARLEY_CHANNEL"] ?? "demo",
            userId: environment["PARLEY_USER"] ?? "ios-example")
    }

    /// `parley serve`'s default address. An ODA channel is `https://<your instance>` with the channel's id.
    static let localServer: URL = {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "localhost"
        components.port = 8080
        return components.url ?? URL(fileURLWithPath: "/")
    }()

    /// The screen's model: the flags an iOS chat usually turns on, speech included (the microphone in place of
    /// send while the field is empty, read-aloud with its mute button), and the location for the share menu.
    @MainActor func makeModel() -> ChatViewModel {
        var flags = ChatClient.Configuration(url: url, channelId: channelId, userId: userId)
        flags.showConnectionStatus = true
        flags.enableClearMessage = true
        flags.enableSpeechRecognition = true
        flags.enableSpeechSynthesis = true
        flags.enableAutoSendSpeechResponse = false  // dictated text lands in the field to edit first
        flags.shareMenuConfiguration = ShareMenuConfiguration(
            items: [.photoAndVideoLibrary, .camera, .files, .location],
            customItems: [ShareMenuCustomItem(types: ["com.adobe.pdf", "public.plain-text"], label: "Documents")])
        let client = ChatClient(configuration: flags)
        var look = ChatViewModel.Configuration()
        look.strings[.chatTitle] = "Parley"
        return ChatViewModel(
            client: client, configuration: look,
            platform: ChatViewModel.PlatformActions(requestLocation: { await CurrentLocation.once() }))
    }
}
