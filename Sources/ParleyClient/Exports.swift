// And the conversation layer a screen speaks (Conversation, ChatEvent, ChatMessage, the screen options), which
// ChatClient implements.
@_exported public import ParleyConversation
// ParleyClient re-exports the wire model so that an app imports one module.
@_exported public import ParleyCore
// And the speech types its speech API speaks in (AudioLevel, RecordingState's engines, permissions), so that an app
// that sets up on-device speech or reads the microphone's level imports one module too.
@_exported public import ParleySpeech
