#!/usr/bin/env python3
"""Word error rate, real-time factor and latencies of Parley's speech engines through the real recognition socket
(issue 34), whisper and pocketsphinx side by side in one run.

    python3 Benchmarks/Scripts/speech_accuracy.py --parley BIN --whisper-model DIR --set DIR [--out DIR]
        [--latency N] [--engines whisper,pocketsphinx]

DIR of --set is made by speech_set.py. For each engine, one `parley serve --speech` runs (an open channel `voice`
without phrases: open dictation), and every utterance goes through Oracle's socket
(/voice/stream/recognize/en-us/generic) as a Web SDK sends it:

- accuracy pass: the WAV's PCM in 3,200-byte frames (100 ms) as fast as the socket takes them, then `Done`. WER is
  the word edit distance over the reference words, both normalised the same way (lowercase, no punctuation, digits
  as words: "2" and "two" are one word; contractions written out: "I'd" and "I would" are the same words). RTF is the
  wall time from the first frame to the final over the audio's length (with the engine's end-of-utterance wait,
  which is audio time, not wall time).
- latency pass: the first N clean utterances at the pace of a microphone (a 100 ms frame every 100 ms).
  first partial: from sending the frame where speech starts (the first 20 ms above -40 dBFS) to the first
  partialResult. end to final: from sending the frame where speech ends (the last 20 ms above -40 dBFS) to the
  finalResult; it includes the 500 ms of silence the server waits for before it decides the utterance is over.

Lines in scripts/bench's form go to standard output; OUT/speech-accuracy.json has every utterance's result.
"""

import argparse
import base64
import json
import math
import os
import re
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import wave

# --- Text normalisation and WER ------------------------------------------------------------------------------------

ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen " \
    "seventeen eighteen nineteen".split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
ORDINALS = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth", "nine": "ninth",
            "twelve": "twelfth"}
SPELLINGS = {"traveling": "travelling", "ok": "okay", "mister": "mr"}
# Contractions, written out as OpenAI's English text normaliser does (whisper/normalizers/english.py), so that "I'd
# like" and "I would like" are the same words on either side; the specific forms before the general suffixes.
CONTRACTIONS = [
    (r"\bwon't\b", "will not"), (r"\bcan't\b", "can not"), (r"\blet's\b", "let us"), (r"\bain't\b", "aint"),
    (r"\by'all\b", "you all"), (r"\bwanna\b", "want to"), (r"\bgonna\b", "going to"), (r"\bgotta\b", "got to"),
    (r"'d been\b", " had been"), (r"'s been\b", " has been"), (r"'d gone\b", " had gone"),
    (r"'s gone\b", " has gone"), (r"'d done\b", " had done"), (r"'s got\b", " has got"),
    (r"n't\b", " not"), (r"'re\b", " are"), (r"'s\b", " is"), (r"'d\b", " would"), (r"'ll\b", " will"),
    (r"'t\b", " not"), (r"'ve\b", " have"), (r"'m\b", " am"),
]


def number_words(value):
    if value < 20:
        return ONES[value]
    if value < 100:
        return TENS[value // 10] + ("" if value % 10 == 0 else " " + ONES[value % 10])
    if value < 1000:
        rest = value % 100
        return ONES[value // 100] + " hundred" + ("" if rest == 0 else " " + number_words(rest))
    if value < 1_000_000:
        rest = value % 1000
        return number_words(value // 1000) + " thousand" + ("" if rest == 0 else " " + number_words(rest))
    return " ".join(ONES[int(digit)] for digit in str(value))


def ordinal_words(value):
    words = number_words(value).split()
    last = words[-1]
    if last in ORDINALS:
        words[-1] = ORDINALS[last]
    elif last.endswith("y"):
        words[-1] = last[:-1] + "ieth"
    else:
        words[-1] = last + "th"
    return " ".join(words)


def digits(match):
    text = match.group(0)
    if len(text) > 1 and text.startswith("0"):
        return " ".join(ONES[int(digit)] for digit in text)
    value = int(text)
    # Account, order and PIN numbers are read digit by digit: "4572" is "four five seven two".
    if value >= 1000 and not (1900 <= value <= 2099):
        return " ".join(ONES[int(digit)] for digit in text)
    return number_words(value)


def normalize(text):
    """The words of `text` for WER, the same for a reference and a hypothesis: lowercase, typographic apostrophes as
    ASCII ones, contractions written out, "$"/"%"/times/ordinals/digits as words, punctuation and hyphens as spaces."""
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    text = re.sub(r"\bper cent\b", "percent", text)
    for pattern, replacement in CONTRACTIONS:
        text = re.sub(pattern, replacement, text)
    # A number written with thousands separators is a quantity ("1,250" is "one thousand two hundred fifty"); one
    # without them of four digits or more is an identifier, read digit by digit (`digits`).
    text = re.sub(
        r"(\$?)\b(\d{1,3}(?:,\d{3})+)\b",
        lambda match: number_words(int(match.group(2).replace(",", ""))) + (" dollars" if match.group(1) else ""), text)
    text = re.sub(r"\$(\d+)\.00\b", r"\1 dollars", text)
    text = re.sub(r"\$(\d+)\.(\d\d)\b", r"\1 dollars and \2 cents", text)
    text = re.sub(r"\$(\d+)", r"\1 dollars", text)
    text = re.sub(r"(\d+)%", r"\1 percent", text)
    text = re.sub(r"\b(\d{1,2}):00\b", r"\1", text)
    text = re.sub(r"\b(\d{1,2}):(\d\d)\b", r"\1 \2", text)
    text = re.sub(r"\b(\d+)(st|nd|rd|th)\b", lambda match: ordinal_words(int(match.group(1))), text)
    text = re.sub(r"\d+", digits, text)
    text = re.sub(r"[^a-z' ]+", " ", text)
    words = [SPELLINGS.get(word.strip("'"), word.strip("'")) for word in text.split()]
    return [word for word in words if word]


def edit_distance(reference, hypothesis):
    previous = list(range(len(hypothesis) + 1))
    for i, word in enumerate(reference, 1):
        current = [i] + [0] * len(hypothesis)
        for j, heard in enumerate(hypothesis, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (word != heard))
        previous = current
    return previous[-1]


# --- A minimal WebSocket client (RFC 6455), enough for the recognition socket ----------------------------------------

class Socket:
    def __init__(self, port, path):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=120)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("the server closed during the upgrade")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(head.decode(errors="replace"))
        self.lock = threading.Lock()

    def send(self, opcode, payload):
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 65536:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        with self.lock:
            self.sock.sendall(header + mask + masked)

    def exactly(self, count):
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data

    def receive(self):
        """(opcode, payload); opcode 8 is the close."""
        first, second = self.exactly(2)
        length = second & 0x7F
        if length == 126:
            (length,) = struct.unpack("!H", self.exactly(2))
        elif length == 127:
            (length,) = struct.unpack("!Q", self.exactly(8))
        return first & 0x0F, self.exactly(length)

    def close(self):
        try:
            self.send(8, struct.pack("!H", 1000))
        except OSError:
            pass
        self.sock.close()


def recognize(port, pcm, paced, frame=3200):
    """Sends `pcm`, returns (events as (seconds since the first frame, frame JSON), send times of each frame)."""
    path = "/voice/stream/recognize/en-us/generic?channelId=voice&userId=bench&encodeURI=audio/raw"
    connection = Socket(port, path)
    events = []
    sent = []
    start = time.perf_counter()

    def reader():
        try:
            while True:
                opcode, payload = connection.receive()
                if opcode == 8:
                    return
                if opcode == 1:
                    events.append((time.perf_counter() - start, json.loads(payload)))
        except (ConnectionError, OSError):
            return

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for index, offset in enumerate(range(0, len(pcm), frame)):
            if paced:
                delay = start + index * frame / 32000 - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
            if any(event.get("event") == "finalResult" for _, event in list(events)):
                break
            sent.append(time.perf_counter() - start)
            connection.send(2, pcm[offset:offset + frame])
        else:
            connection.send(1, b"Done")
    except OSError:
        pass
    thread.join(timeout=120)
    connection.close()
    return events, sent


def voiced_span(pcm):
    """The first and last sample of 20 ms frames above -40 dBFS."""
    count = len(pcm) // 2
    samples = struct.unpack(f"<{count}h", pcm[:count * 2])
    voiced = []
    for start in range(0, count - 320, 320):
        frame = samples[start:start + 320]
        rms = math.sqrt(sum(value * value for value in frame) / 320) / 32768
        if rms > 0 and 20 * math.log10(rms) > -40:
            voiced.append(start)
    return (voiced[0], voiced[-1] + 320) if voiced else (0, count)


# --- Servers -------------------------------------------------------------------------------------------------------

def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(parley, engine, model, folder):
    port = free_port()
    arguments = [parley, "serve", "--port", str(port), "--data", os.path.join(folder, engine), "--channel", "voice",
                 "--speech", "--speech-engine", engine]
    if engine == "whisper":
        arguments += ["--whisper-model", model]
    log = open(os.path.join(folder, f"{engine}.log"), "w")
    process = subprocess.Popen(arguments, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 120
    while time.time() < deadline:
        with open(os.path.join(folder, f"{engine}.log")) as written:
            if "listening" in written.read().lower():
                return process, port
        if process.poll() is not None:
            break
        time.sleep(0.2)
    process.kill()
    with open(os.path.join(folder, f"{engine}.log")) as written:
        raise RuntimeError(f"parley serve ({engine}) did not start: {written.read()[-2000:]}")


# --- The run -------------------------------------------------------------------------------------------------------

def utterance_text(event):
    nbest = event.get("nbest") or []
    return nbest[0].get("utterance", "") if nbest else ""


def run_engine(engine, port, manifest, latency_count):
    results = []
    for item in manifest:
        with wave.open(item["wav"]) as audio:
            pcm = audio.readframes(audio.getnframes())
        events, _ = recognize(port, pcm, paced=False)
        finals = [(at, event) for at, event in events if event.get("event") == "finalResult"]
        errors = [event for _, event in events if "code" in event]
        heard = utterance_text(finals[0][1]) if finals else ""
        reference, hypothesis = normalize(item["text"]), normalize(heard)
        results.append({
            "id": item["id"], "noisy": item["noisy"], "voice": item["voice"], "speed": item["speed"],
            "reference": item["text"], "heard": heard, "words": len(reference),
            "errors": edit_distance(reference, hypothesis), "seconds": item["seconds"],
            "wall": finals[0][0] if finals else None, "failure": errors[0] if errors else None})
    latencies = []
    for item in [item for item in manifest if not item["noisy"]][:latency_count]:
        with wave.open(item["wav"]) as audio:
            pcm = audio.readframes(audio.getnframes())
        first, last = voiced_span(pcm)
        events, sent = recognize(port, pcm, paced=True)
        start_frame, end_frame = first * 2 // 3200, min(len(sent) - 1, (last * 2 - 1) // 3200)
        partials = [at for at, event in events if event.get("event") == "partialResult"]
        finals = [at for at, event in events if event.get("event") == "finalResult"]
        latencies.append({
            "id": item["id"],
            "firstPartial": partials[0] - sent[start_frame] if partials and start_frame < len(sent) else None,
            "endToFinal": finals[0] - sent[end_frame] if finals and end_frame < len(sent) else None,
            "partials": len(partials)})
    return results, latencies


def wer(results, noisy=None):
    chosen = [result for result in results if noisy is None or result["noisy"] == noisy]
    words = sum(result["words"] for result in chosen)
    return 100.0 * sum(result["errors"] for result in chosen) / max(1, words), len(chosen)


def rtf(results):
    walls = [result["wall"] / result["seconds"] for result in results if result["wall"] is not None]
    return statistics.median(walls) if walls else float("nan")


def median(values):
    values = [value for value in values if value is not None]
    return statistics.median(values) if values else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parley", required=True)
    parser.add_argument("--whisper-model", required=True)
    parser.add_argument("--set", required=True)
    parser.add_argument("--out", default=None)
    parser.add_argument("--latency", type=int, default=10)
    parser.add_argument("--engines", default="whisper,pocketsphinx")
    arguments = parser.parse_args()
    with open(os.path.join(arguments.set, "manifest.json")) as file:
        manifest = json.load(file)
    folder = tempfile.mkdtemp(prefix="parley-speech-bench-")
    report = {}
    try:
        for engine in arguments.engines.split(","):
            process, port = start_server(arguments.parley, engine, arguments.whisper_model, folder)
            try:
                results, latencies = run_engine(engine, port, manifest, arguments.latency)
            finally:
                process.terminate()
                process.wait(timeout=30)
            report[engine] = {"results": results, "latencies": latencies}
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if arguments.out:
        with open(os.path.join(arguments.out, "speech-accuracy.json"), "w") as file:
            json.dump(report, file, indent=1)
    engines = list(report)
    baseline = "pocketsphinx" if "pocketsphinx" in report else engines[0]

    def line(name, unit, value_of):
        base = value_of(report[baseline])
        for engine in engines:
            value = value_of(report[engine])
            ratio = value / base if base and not math.isnan(base) and base != 0 else float("nan")
            print(f"{name} [{engine}]: {value:.3f} {unit} ({ratio:.2f} x {baseline})")

    line("speech.wer.clean", "%", lambda data: wer(data["results"], noisy=False)[0])
    line("speech.wer.noisy", "%", lambda data: wer(data["results"], noisy=True)[0])
    line("speech.wer.all", "%", lambda data: wer(data["results"])[0])
    line("speech.rtf", "x", lambda data: rtf(data["results"]))
    line("speech.first_partial", "s", lambda data: median([entry["firstPartial"] for entry in data["latencies"]]))
    line("speech.end_to_final", "s", lambda data: median([entry["endToFinal"] for entry in data["latencies"]]))
    for engine in engines:
        data = report[engine]
        failures = [result for result in data["results"] if result["failure"] or result["wall"] is None]
        print(f"speech.utterances [{engine}]: {len(data['results'])} (clean {wer(data['results'], False)[1]}, "
              f"noisy {wer(data['results'], True)[1]}; {len(failures)} without a final), latency on "
              f"{len(data['latencies'])}", file=sys.stderr)
        voices = sorted({result["voice"] for result in data["results"]})
        by_voice = ", ".join(
            f"{voice} {wer([result for result in data['results'] if result['voice'] == voice])[0]:.1f} %"
            for voice in voices)
        print(f"speech.wer.voices [{engine}]: {by_voice}", file=sys.stderr)


if __name__ == "__main__":
    main()
