#!/usr/bin/env python3
"""Parley's Whisper worker: one process that loads a CTranslate2 Whisper model once and decodes utterances.

Started by ParleySpeech's WhisperRecognizer (docs/speech.md, "Whisper"):

    python3 whisper_worker.py --model DIR [--threads N] [--compute-type int8]

It never downloads anything (HF_HUB_OFFLINE=1; the model is a folder with model.bin, config.json, tokenizer.json).

Frames, both ways (all integers big-endian):

    "PRLY"  u32 header length  header (UTF-8 JSON object)  u32 payload length  payload

A request's payload is 16 kHz mono 16-bit little-endian PCM; a reply's is empty. Requests:

    {"op": "decode", "id": 7, "language": "en", "prompt": "pizza, large", "beams": 1, "alternatives": 1,
     "padSeconds": 1.0}
    {"op": "ping", "id": 8}

Replies carry the request's id: {"id": 7, "text": "...", "alternatives": [{"text": "...", "confidence": 0.9}],
"noSpeech": 0.01, "audioSeconds": 2.1, "timings": {"features": s, "encode": s, "decode": s, "total": s}}, or
{"id": 7, "error": {"code": "...", "message": "..."}}. The first frame the worker writes is {"event": "ready", ...}
once the model is loaded, or {"event": "failed", "error": {...}} before it exits with status 3.

Bad input never ends the worker: a frame without the magic is answered with frame.badMagic and the worker skips to
the next "PRLY"; a header that is not a JSON object, an odd or oversized payload or an unknown op get a coded error
reply, and the worker goes on reading. Only the end of standard input ends it (status 0).
"""

import argparse
import json
import math
import os
import struct
import sys
import time

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

MAGIC = b"PRLY"
MAX_HEADER = 64 * 1024
MAX_PAYLOAD = 4 * 1024 * 1024  # 131 s of audio
SAMPLE_RATE = 16_000
FRAMES_PER_SECOND = 100  # Whisper's mel frames
MAX_FRAMES = 3000  # 30 s, the model's whole window

# Replies go to the real standard output; anything a library prints goes to standard error instead.
_replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
sys.stdout = sys.stderr
_requests = sys.stdin.buffer


def reply(header):
    body = json.dumps(header, separators=(",", ":")).encode("utf-8")
    _replies.write(MAGIC + struct.pack(">I", len(body)) + body + struct.pack(">I", 0))


def error(request_id, code, message):
    reply({"id": request_id, "error": {"code": code, "message": message}})


def read_exactly(count):
    """count bytes, or None at the end of input."""
    chunks = []
    while count > 0:
        chunk = _requests.read(count)
        if not chunk:
            return None
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)


def skip(count):
    while count > 0:
        chunk = _requests.read(min(count, 65536))
        if not chunk:
            return False
        count -= len(chunk)
    return True


def resync(window):
    """Reads byte by byte until the last four bytes are the magic; False at the end of input."""
    while window != MAGIC:
        byte = _requests.read(1)
        if not byte:
            return False
        window = window[1:] + byte
    return True


def without_loop(tokens, shortest=4):
    """The tokens up to where they start repeating themselves: a decoder that does not find the end of a short
    utterance says it again and again ("Where is my package? Where is my package? Where is…"). A run of at least
    `shortest` tokens followed at once by the same run is cut after its first copy."""
    for start in range(len(tokens)):
        for length in range(shortest, (len(tokens) - start) // 2 + 1):
            if tokens[start:start + length] == tokens[start + length:start + 2 * length]:
                return tokens[:start + length]
    return tokens


class Decoder:
    def __init__(self, folder, threads, compute_type):
        for name in ("model.bin", "config.json", "tokenizer.json"):
            if not os.path.isfile(os.path.join(folder, name)):
                raise FileNotFoundError(f"{name} is missing from {folder}")
        from faster_whisper import WhisperModel
        from faster_whisper.tokenizer import Tokenizer
        import numpy
        import ctranslate2

        self.numpy = numpy
        self.ctranslate2 = ctranslate2
        self.Tokenizer = Tokenizer
        self.model = WhisperModel(
            folder, device="cpu", compute_type=compute_type, cpu_threads=threads, num_workers=1,
            local_files_only=True)
        self.tokenizers = {}

    def tokenizer(self, language):
        if language not in self.tokenizers:
            multilingual = self.model.model.is_multilingual
            if not multilingual and language != "en":
                raise ValueError(f"this model is English-only, not {language}")
            self.tokenizers[language] = self.Tokenizer(
                self.model.hf_tokenizer, multilingual, task="transcribe", language=language if multilingual else None)
        return self.tokenizers[language]

    def decode(self, header, payload):
        numpy = self.numpy
        started = time.perf_counter()
        language = str(header.get("language") or "en").lower()
        tokenizer = self.tokenizer(language)
        alternatives = max(1, min(int(header.get("alternatives", 1)), 5))
        beams = max(alternatives, min(int(header.get("beams", 1)), 5))
        pad = max(0.0, min(float(header.get("padSeconds", 5.0)), 30.0))
        audio = numpy.frombuffer(payload, dtype="<i2").astype(numpy.float32) / 32768.0
        seconds = len(audio) / SAMPLE_RATE
        # The encoder runs on the utterance and `pad` seconds of silence, not on a whole 30 s window: its cost
        # follows the audio's length. (Much less padding makes the decoder miss the end and repeat itself; with 5 s
        # the word error rate on the bench's set was lower than with the whole window, at a fifth of the cost.)
        frames = min(MAX_FRAMES, max(100, int(math.ceil((seconds + pad) * FRAMES_PER_SECOND))))
        padded = numpy.zeros(frames * SAMPLE_RATE // FRAMES_PER_SECOND, dtype=numpy.float32)
        used = min(len(audio), len(padded))
        padded[:used] = audio[:used]
        features = self.model.feature_extractor(padded)[:, :frames]
        if features.shape[1] < frames:
            features = numpy.pad(features, ((0, 0), (0, frames - features.shape[1])))
        featured = time.perf_counter()
        encoded = self.model.model.encode(
            self.ctranslate2.StorageView.from_array(numpy.ascontiguousarray(features[None])), to_cpu=False)
        encoded_at = time.perf_counter()
        prompt = []
        text_prompt = str(header.get("prompt") or "").strip()
        if text_prompt:
            prompt = [tokenizer.sot_prev] + tokenizer.encode(" " + text_prompt)[-200:]
        prompt += list(tokenizer.sot_sequence) + [tokenizer.no_timestamps]
        # About 3 tokens a second is speech; a bound keeps a hallucinating loop from costing more than the audio.
        # CTranslate2's max_length counts the prompt too.
        new_tokens = min(200, int(seconds * 8) + 16)
        result = self.model.model.generate(
            encoded, [prompt], beam_size=beams, num_hypotheses=alternatives, return_scores=True,
            return_no_speech_prob=True, max_length=min(448, len(prompt) + new_tokens), suppress_blank=True,
            suppress_tokens=[-1])[0]
        decoded = time.perf_counter()
        no_speech = float(getattr(result, "no_speech_prob", 0.0) or 0.0)
        hypotheses = []
        keys = []
        for ids, score in zip(result.sequences_ids, result.scores):
            text = tokenizer.decode(without_loop([token for token in ids if token < tokenizer.eot])).strip()
            # The n-best list differs in words, not in punctuation or case ("pizza." and "pizza").
            key = "".join(c for c in text.lower() if c.isalnum() or c.isspace()).split()
            if text and all(key != seen_key for seen_key in keys):
                keys.append(key)
                hypotheses.append({"text": text, "confidence": round(min(1.0, math.exp(score)), 4)})
        best = hypotheses[0] if hypotheses else {"text": "", "confidence": None}
        # Whisper's own rule for silence: probably no speech, and not confident in the words either.
        if no_speech > 0.6 and (best["confidence"] or 0) < math.exp(-1.0):
            hypotheses = []
            best = {"text": "", "confidence": None}
        return {
            "id": header.get("id"), "text": best["text"], "alternatives": hypotheses, "noSpeech": round(no_speech, 4),
            "audioSeconds": round(seconds, 3), "frames": frames,
            "timings": {
                "features": round(featured - started, 4), "encode": round(encoded_at - featured, 4),
                "decode": round(decoded - encoded_at, 4), "total": round(decoded - started, 4)},
        }


def serve(decoder):
    while True:
        magic = read_exactly(4)
        if magic is None:
            return
        if magic != MAGIC:
            error(None, "frame.badMagic", "a frame must start with PRLY; skipping to the next frame")
            if not resync(magic):
                return
        raw = read_exactly(4)
        if raw is None:
            return
        (header_length,) = struct.unpack(">I", raw)
        if header_length > MAX_HEADER:
            error(None, "frame.tooLarge", f"a header of {header_length} bytes is over {MAX_HEADER}; skipping")
            if not resync(b"\0\0\0\0"):
                return
            _requests_pushback(MAGIC)
            continue
        body = read_exactly(header_length)
        raw = read_exactly(4) if body is not None else None
        if raw is None:
            return
        (payload_length,) = struct.unpack(">I", raw)
        try:
            header = json.loads(body.decode("utf-8"))
            if not isinstance(header, dict):
                raise ValueError("not an object")
        except ValueError as failure:
            header = None
            reason = failure
        request_id = header.get("id") if header else None
        if payload_length > MAX_PAYLOAD:
            error(request_id, "frame.tooLarge", f"a payload of {payload_length} bytes is over {MAX_PAYLOAD}")
            if not skip(payload_length):
                return
            continue
        payload = read_exactly(payload_length)
        if payload is None:
            return
        if header is None:
            error(None, "frame.badHeader", f"the header is not a JSON object: {reason}")
            continue
        op = header.get("op")
        if op == "ping":
            reply({"id": request_id, "ok": True})
        elif op == "decode":
            if payload_length % 2:
                error(request_id, "audio.badLength", f"{payload_length} bytes is not a whole number of samples")
                continue
            try:
                reply(decoder.decode(header, payload))
            except ValueError as failure:
                error(request_id, "request.invalid", str(failure))
            except Exception as failure:  # the engine failed on this request; the next one may work
                error(request_id, "decode.failed", f"{type(failure).__name__}: {failure}")
        else:
            error(request_id, "request.unknownOp", f"unknown op {op!r}; decode or ping")




def _requests_pushback(data):
    """Puts bytes back in front of standard input (after a resync consumed the magic)."""
    global _requests
    _requests = _Pushback(data, _requests)


class _Pushback:
    def __init__(self, data, base):
        self.data = data
        self.base = base

    def read(self, count):
        if self.data:
            chunk, self.data = self.data[:count], self.data[count:]
            return chunk
        return self.base.read(count)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--compute-type", default="int8")
    arguments = parser.parse_args()
    started = time.perf_counter()
    try:
        decoder = Decoder(arguments.model, arguments.threads, arguments.compute_type)
    except ImportError as failure:
        reply({"event": "failed", "error": {
            "code": "runtime.missing", "message": f"{failure}: pip install faster-whisper (scripts/test does)"}})
        sys.exit(3)
    except Exception as failure:
        reply({"event": "failed", "error": {
            "code": "model.broken", "message": f"cannot load {arguments.model}: {type(failure).__name__}: {failure}"}})
        sys.exit(3)
    reply({"event": "ready", "model": arguments.model, "loadSeconds": round(time.perf_counter() - started, 3),
           "multilingual": bool(decoder.model.model.is_multilingual), "pid": os.getpid()})
    serve(decoder)


if __name__ == "__main__":
    main()
