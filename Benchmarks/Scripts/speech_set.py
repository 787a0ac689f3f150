#!/usr/bin/env python3
"""Speaks Benchmarks/SpeechSet/sentences.txt into a spoken test set (issue 34): 16 kHz mono WAVs and a manifest.

    python3 Benchmarks/Scripts/speech_set.py OUT_DIR

Every sentence is spoken once, by espeak-ng, with a voice and a speed taken in turn from VOICES and SPEEDS (so the
set mixes them without anyone choosing which sentence gets which), with 0.3 s of silence before and 1.2 s after;
every third one gets pink noise mixed in with sox (about 25 dB below the speech). The reference text is the sentence
as written. Nothing is hand-picked: a sentence is in the list or not. The audio is made at bench time, never
committed. OUT_DIR/manifest.json lists {"id", "text", "voice", "speed", "noisy", "wav", "seconds"}.
"""

import json
import os
import subprocess
import sys
import wave

HERE = os.path.dirname(os.path.abspath(__file__))
SENTENCES = os.path.join(HERE, "..", "SpeechSet", "sentences.txt")
VOICES = ["en-us", "en-gb-x-rp", "en-us+f3", "en-gb-scotland", "en-029"]
SPEEDS = [175, 150, 200]
NOISE_VOLUME = 0.02  # pink noise: about -47 dBFS RMS, some 24 dB under espeak-ng's speech (and under the detector)


def sentences():
    with open(SENTENCES, encoding="utf-8") as lines:
        return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def run(*command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    manifest = []
    for index, text in enumerate(sentences()):
        voice = VOICES[index % len(VOICES)]
        speed = SPEEDS[(index // len(VOICES)) % len(SPEEDS)]
        noisy = index % 3 == 2
        name = f"{index:03d}"
        raw = os.path.join(out, f"{name}-espeak.wav")
        clean = os.path.join(out, f"{name}-clean.wav")
        wav = os.path.join(out, f"{name}.wav")
        run("espeak-ng", "-v", voice, "-s", str(speed), "-w", raw, text)
        run("sox", raw, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", clean, "pad", "0.3", "1.2")
        if noisy:
            noise = os.path.join(out, f"{name}-noise.wav")
            run("sox", clean, noise, "synth", "pinknoise", "vol", str(NOISE_VOLUME))
            run("sox", "-m", "-v", "1", clean, "-v", "1", noise, wav)
            os.remove(noise)
            os.remove(clean)
        else:
            os.replace(clean, wav)
        os.remove(raw)
        with wave.open(wav) as audio:
            seconds = audio.getnframes() / audio.getframerate()
        manifest.append(
            {"id": name, "text": text, "voice": voice, "speed": speed, "noisy": noisy, "wav": wav,
             "seconds": round(seconds, 3)})
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as file:
        json.dump(manifest, file, indent=1)
    print(f"speech_set: {len(manifest)} utterances in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
