public import ParleyCore

// Runtime fields, the user intent and listener prompts: what the application sets while a flow runs.
extension VoiceFlowRunner {
    // MARK: Runtime fields and intents

    /// Sets a runtime field (`setVoiceflowRuntimeField`).
    public func setRuntimeField(_ name: String, _ value: JSONValue) {
        if engine != nil { engine?.fields[name] = value } else { storedFields[name] = value }
    }

    /// A runtime field's value (`getVoiceflowRuntimeField`).
    public func runtimeField(_ name: String) -> JSONValue? {
        engine?.fields[name] ?? (engine == nil ? storedFields[name] : nil)
    }

    /// Removes a runtime field (`resetVoiceflowRuntimeField`); returns whether it was set.
    @discardableResult
    public func resetRuntimeField(_ name: String) -> Bool {
        guard engine != nil else { return storedFields.reset(name) }
        return engine?.fields.reset(name) ?? false
    }

    /// Every runtime field.
    public var runtimeFields: RuntimeFields { engine?.fields ?? storedFields }

    /// Sets the user intent (`setUserIntent`).
    public func setUserIntent(_ intent: String) {
        if engine != nil { engine?.userIntent = intent } else { storedIntent = intent }
    }

    /// Clears the user intent (`resetUserIntent`).
    public func resetUserIntent() {
        if engine != nil { engine?.userIntent = nil } else { storedIntent = nil }
    }

    /// The user intent.
    public var userIntent: String? { engine.map(\.userIntent) ?? storedIntent }

    /// Queues a prompt module for the running `audioListener` (`loadAudioListenerPrompt`).
    /// - Returns: `false` when no `audioListener` module is running.
    @discardableResult
    public func loadAudioListenerPrompt(_ promptID: String) -> Bool {
        engine?.loadListenerPrompt(promptID) ?? false
    }
}
