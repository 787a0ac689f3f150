// A microphone's level is a plain value that ParleyCore holds (a screen shows it without linking speech engines);
// ParleySpeech's analysis makes it, so an app that imports ParleySpeech alone keeps the name.
@_exported public import struct ParleyCore.AudioLevel
