import Foundation
import ParleyClient
import Testing

/// Oracle's other names for three flags read and write Parley's flags. The deprecated names are used through a
/// protocol whose requirements are not deprecated, so this file builds with warnings as errors.
@Suite("Oracle's flag aliases")
struct OracleAliasTests {
    @Test func theSpeechAliasesForwardToEnableAutoSendSpeechResponse() {
        var configuration = ChatClient.Configuration(url: .loopbackTestURL, channelId: "demo")
        #expect(configuration.enableAutoSendSpeechResponse)
        #expect((configuration as any OracleFlagNames).speechAutoSendAlias)
        (configuration as any OracleFlagNames).setSpeechAutoSendAlias(false, in: &configuration)
        #expect(configuration.enableAutoSendSpeechResponse == false)
        #expect((configuration as any OracleFlagNames).recognitionAutoSendAlias == false)
        (configuration as any OracleFlagNames).setRecognitionAutoSendAlias(true, in: &configuration)
        #expect(configuration.enableAutoSendSpeechResponse)
    }

    @Test func sharePopupConfigurationForwardsToShareMenuConfiguration() {
        var configuration = ChatClient.Configuration(url: .loopbackTestURL, channelId: "demo")
        #expect((configuration as any OracleFlagNames).sharePopupAlias == ShareMenuConfiguration())
        let onlyFiles = ShareMenuConfiguration(
            items: [.files], customItems: [ShareMenuCustomItem(types: ["public.jpeg"])])
        (configuration as any OracleFlagNames).setSharePopupAlias(onlyFiles, in: &configuration)
        #expect(configuration.shareMenuConfiguration == onlyFiles)
    }
}

/// Reaches the deprecated names without a deprecation warning at the call site.
private protocol OracleFlagNames {
    var speechAutoSendAlias: Bool { get }
    var recognitionAutoSendAlias: Bool { get }
    var sharePopupAlias: ShareMenuConfiguration { get }
    func setSpeechAutoSendAlias(_ value: Bool, in configuration: inout ChatClient.Configuration)
    func setRecognitionAutoSendAlias(_ value: Bool, in configuration: inout ChatClient.Configuration)
    func setSharePopupAlias(_ value: ShareMenuConfiguration, in configuration: inout ChatClient.Configuration)
}

extension ChatClient.Configuration: OracleFlagNames {
    @available(*, deprecated)
    var speechAutoSendAlias: Bool { enableSpeechAutoSendSpeechResponse }
    @available(*, deprecated)
    var recognitionAutoSendAlias: Bool { enableSpeechRecognitionAutoSend }
    @available(*, deprecated)
    var sharePopupAlias: ShareMenuConfiguration { sharePopupConfiguration }
    @available(*, deprecated)
    func setSpeechAutoSendAlias(_ value: Bool, in configuration: inout ChatClient.Configuration) {
        configuration.enableSpeechAutoSendSpeechResponse = value
    }
    @available(*, deprecated)
    func setRecognitionAutoSendAlias(_ value: Bool, in configuration: inout ChatClient.Configuration) {
        configuration.enableSpeechRecognitionAutoSend = value
    }
    @available(*, deprecated)
    func setSharePopupAlias(_ value: ShareMenuConfiguration, in configuration: inout ChatClient.Configuration) {
        configuration.sharePopupConfiguration = value
    }
}

extension URL {
    fileprivate static var loopbackTestURL: URL {
        guard let url = URL(string: "http://127.0.0.1:1") else { preconditionFailure("a literal URL") }
        return url
    }
}
