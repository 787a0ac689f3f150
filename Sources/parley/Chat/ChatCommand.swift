import ArgumentParser
import Foundation
import ParleyClient
import ParleyGenesys
import ParleyUI

/// `parley chat`: a terminal chat with a Parley or Oracle chat server.
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Chat with a skill in the terminal.",
        discussion: """
            In a terminal: type messages, choose actions by number, /help for commands. With a pipe or a file on \
            standard input: one message per line; the skill's replies are printed as text, then the next line is \
            sent. Example: printf 'Order Pizza\\n' | parley chat --url http://127.0.0.1:8080 --channel demo. \
            With --backend genesys the same screen chats with a Genesys Mobile Services chat service (Chat API \
            version 1 or 2 over CometD), such as the simulator of `parley serve --gms`: \
            parley chat --backend genesys --url http://127.0.0.1:8080 --service customer-support. \
            With --voice, /listen (or an empty line in a terminal) records one utterance from the microphone (sox's \
            rec) or --audio-file, shows what is heard as it is heard, sends it, and reads the replies aloud (sox's \
            play); without a sound device the replies stay text.
            """
    )

    @Option(help: "The chat server, such as http://127.0.0.1:8080 or https://oda.example.com; for Genesys, GMS.")
    var url: String

    @Option(help: "Who answers: parley (Parley's or Oracle's chat server, the default) or genesys (a GMS chat).")
    var backend: Backend = .parley

    @Option(help: "With --backend genesys: the GMS chat service's name.")
    var service = "customer-support"

    @Option(help: "With --backend genesys: the customer's name, as the agent sees it.")
    var name = "Customer"

    @Option(help: "With --backend genesys: the GMS Chat API version, 1 (REST and Comet) or 2 (CometD only).")
    var chatAPI: ChatAPIChoice = .one

    @Option(help: "The channel id (not needed with --token, whose claims name it).")
    var channel: String?

    @Option(help: "The user id; a random one when absent.")
    var user: String?

    @Option(help: "A JWT for a channel with client authentication (from your backend or `parley token`).")
    var token: String?

    @Option(help: "A message sent when the chat opens, not shown (Oracle's initUserHiddenMessage).")
    var hiddenMessage: String?

    @Option(
        help: """
            Timestamps under messages: absolute, relative or none (Oracle's enableTimestamp and timestampMode). \
            Default: absolute in a terminal, none with a pipe.
            """)
    var timestamps: TimestampChoice?

    @Option(
        help: """
            The languages the user may choose from with /lang, comma-separated language tags such as en,fr \
            (Oracle's multiLangChat); the first is the primary language.
            """)
    var languages: String?

    @Flag(help: "Speak: /listen records one utterance and sends it; replies are read aloud.")
    var voice = false

    @Option(help: "With --voice: a sound file (any format sox reads) to use as the microphone, instead of rec.")
    var audioFile: String?

    @Option(
        help: """
            With --voice: where speech is recognised and synthesised: server (the chat server's /voice and /tts \
            endpoints, the default) or device (in this process: PocketSphinx and espeak-ng on Linux).
            """)
    var speech: SpeechChoice = .server

    @Option(
        help: "With --voice --speech device: the phrases to listen for, comma-separated (a grammar for PocketSphinx).")
    var phrases: String?

    @Option(help: "With --voice: the speech locale (Oracle's speechLocale), such as en-us or fr-fr.")
    var speechLocale = "en-us"

    /// With --voice --speech device: `--speech-engine whisper|pocketsphinx` and `--whisper-model DIR`.
    @OptionGroup var recognition: RecognizerOptions

    func validate() throws {
        guard let serverURL = URL(string: url), serverURL.scheme != nil, serverURL.host != nil else {
            throw ValidationError("--url \(url) is not a URL such as http://127.0.0.1:8080")
        }
        if backend == .parley, channel == nil, token == nil {
            throw ValidationError("--channel is required without --token")
        }
        if backend == .genesys, service.isEmpty || service.contains("/") {
            throw ValidationError("--service \(service) is not a GMS service name")
        }
        if !voice, audioFile != nil || phrases != nil {
            throw ValidationError("--audio-file and --phrases go with --voice")
        }
        if voice, backend == .genesys { throw ValidationError("--voice needs --backend parley") }
        if let audioFile, !FileManager.default.fileExists(atPath: audioFile) {
            throw ValidationError("--audio-file \(audioFile) does not exist")
        }
    }

    func run() async throws {
        guard let serverURL = URL(string: url) else { throw ValidationError("--url \(url) is not a URL") }
        if backend == .genesys {
            let status = await TerminalChat.run(
                genesys: serverURL, service: service, customer: name, version: chatAPI.version)
            if status != 0 { throw ExitCode(status) }
            return
        }
        var configuration: ChatClient.Configuration
        if let token {
            configuration = .init(url: serverURL) { token }
        } else {
            configuration = .init(url: serverURL, channelId: channel ?? "", userId: user)
        }
        configuration.initUserHiddenMessage = hiddenMessage
        if let timestamps { timestamps.apply(to: &configuration) }
        if let languages {
            let tags = languages.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            configuration.multiLangChat = MultiLangChat(
                supportedLanguages: tags.map { SupportedLanguage(lang: $0) }, primaryLanguage: tags.first)
        }
        var speechSetup: ChatClient.SpeechSetup?
        if voice {
            configuration.enableSpeechRecognition = true
            configuration.enableSpeechSynthesis = true
            configuration.initSpeechSynthesisMuted = false
            configuration.speechLocale = speechLocale
            speechSetup = voiceSetup()
        }
        let status = await TerminalChat.run(configuration, speech: speechSetup, timestampsChosen: timestamps != nil)
        if status != 0 { throw ExitCode(status) }
    }
}

extension ChatCommand {
    /// The speech engines `--voice` asks for: the microphone or `--audio-file`, sox's `play`, the server's speech
    /// endpoints or this machine's engines.
    func voiceSetup() -> ChatClient.SpeechSetup {
        // sox on every platform the tool runs on (a Mac too): `rec` records, `play` plays.
        var setup = ChatClient.SpeechSetup(microphone: SoxAudioSource.microphone(), speaker: SoxStreamingPlayer())
        if let audioFile {
            setup.microphone = SoxAudioSource.file(URL(fileURLWithPath: audioFile))
            // A file needs nobody's permission; recognition's own is still the platform's.
            setup.permissions = FilePermissions()
        }
        if speech == .device {
            let list = (phrases ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let request = StreamingRecognitionRequest(phrases: list.filter { !$0.isEmpty })
            // --speech-engine / --whisper-model (validated already); Apple's recogniser where the choice does not run.
            #if os(Linux)
                let fallback: any StreamingRecognizer = PocketsphinxStreamingRecognizer()
            #else
                let fallback: any StreamingRecognizer = AppleStreamingRecognizer()
            #endif
            let recognizer = ((try? recognition.recognizer()) ?? nil) ?? fallback
            setup.service = OnDeviceSpeechService(
                recognizer: recognizer, synthesizer: EspeakSynthesizer(), request: request)
        }
        return setup
    }
}

/// The microphone is a file: granted; recognition as the platform says.
struct FilePermissions: PermissionSource {
    func status(of permission: Permission) async -> PermissionStatus {
        permission == .microphone ? .granted : await SystemPermissionSource().status(of: permission)
    }

    func request(_ permission: Permission) async -> PermissionStatus {
        permission == .microphone ? .granted : await SystemPermissionSource().request(permission)
    }
}

/// What `--speech` chooses.
enum SpeechChoice: String, ExpressibleByArgument, CaseIterable {
    case server, device
}

/// What `--chat-api` chooses.
enum ChatAPIChoice: String, ExpressibleByArgument, CaseIterable {
    case one = "1", two = "2"

    var version: ChatAPIVersion { self == .one ? .version1 : .version2 }
}

/// What `--backend` chooses.
enum Backend: String, ExpressibleByArgument, CaseIterable {
    case parley, genesys
}

/// What `--timestamps` chooses.
enum TimestampChoice: String, ExpressibleByArgument, CaseIterable {
    case absolute, relative, none

    /// Sets `enableTimestamp` and `timestampMode`.
    func apply(to configuration: inout ChatClient.Configuration) {
        configuration.enableTimestamp = self != .none
        configuration.timestampMode = self == .relative ? .relative : .absolute
    }
}

extension TerminalChat {
    /// Runs a terminal chat with a new client on standard input and output. The terminal shows what a screen
    /// with these flags shows; in a terminal it adds the connection status (`showConnectionStatus`), and it offers
    /// `/clear` (`enableClearMessage`). With a pipe, timestamps are off unless the configuration's caller chose.
    static func run(
        _ configuration: ChatClient.Configuration, speech: ChatClient.SpeechSetup? = nil, timestampsChosen: Bool = false
    ) async -> Int32 {
        var configuration = configuration
        let interactive = standardInputIsTerminal
        configuration.showConnectionStatus = interactive
        configuration.enableClearMessage = true
        if !interactive, !timestampsChosen { configuration.enableTimestamp = false }
        let client = ChatClient(configuration: configuration, speech: speech ?? ChatClient.SpeechSetup())
        let chat = TerminalChat(conversation: client, interactive: interactive, voice: speech != nil)
        return await chat.run(lines: standardInputLines())
    }

    /// Runs a terminal chat with a GMS chat service through the same screen model as a chat with a Parley server:
    /// Chat API version 1 at `{gms}/genesys/1/service/{service}/ixn/chat`, or version 2 on the CometD channel
    /// `/service/chatV2/{service}`; Comet at `{gms}/genesys/cometd`.
    static func run(genesys gms: URL, service: String, customer: String, version: ChatAPIVersion) async -> Int32 {
        let interactive = standardInputIsTerminal
        let start = gms.appending(path: "genesys/1/service/\(service)/ixn/chat")
        let names = customer.split(separator: " ", maxSplits: 1).map(String.init)
        var parameters = ["firstName": names.first ?? customer, "subject": "parley chat"]
        if names.count > 1 { parameters["lastName"] = names[1] }
        let comet = gms.appending(path: "genesys/cometd")
        let session = ChatSession.Configuration(startChatURL: start, cometURL: comet, parameters: parameters)
        let sessionV2 = ChatV2Session.Configuration(
            cometURL: comet, serviceName: service, nickname: customer, firstName: parameters["firstName"],
            lastName: parameters["lastName"], subject: parameters["subject"])
        var screen = ScreenOptions()
        screen.title = "Genesys chat"
        screen.showConnectionStatus = interactive
        screen.enableClearMessage = true
        screen.enableEndConversation = true
        if !interactive { screen.enableTimestamp = false }
        let conversation = GenesysConversation(screenOptions: screen) {
            switch version {
            case .version1: ChatSession(configuration: session)
            case .version2: ChatV2Session(configuration: sessionV2)
            }
        }
        let chat = TerminalChat(conversation: conversation, interactive: interactive)
        return await chat.run(lines: standardInputLines())
    }
}
