/*
 * Speech, as Oracle's Web SDK does it (docs/speech.md): the microphone streams 16 kHz, 16-bit mono PCM over
 * /voice/stream/recognize/{locale}/generic (first frame "Bearer <JWT>" on an authenticated channel); the server
 * answers partialResult and finalResult frames, and finds the end of the utterance itself. A click while recording
 * sends "Done". The final text is sent with sdkMetadata.speechId (enableSpeechAutoSend), or put in the input field.
 * Replies are read aloud through /tts/speak (enableBotAudioResponse) unless muted.
 */

import { SDK_VERSION, config, httpBase, isObject, socketBase } from "./configuration.js";
import { strings } from "./strings.js";
import { query } from "./identity.js";
import { notice, ui } from "./page.js";
import { disablePastActions, expectReply, showUserMessage, summary } from "./conversation.js";
import { sendFrame } from "./chat.js";
import { post, reportError } from "./bridge.js";

const speech = { active: false, socket: null, stream: null, context: null, processor: null, source: null };
const audio = { muted: config.initBotAudioMuted !== false, context: null, playing: null, queue: [] };

/** Whether the microphone records. */
export function isRecording() { return speech.active; }

/** Whether replies are not read aloud. */
export function isAudioMuted() { return audio.muted; }

function voiceURL() {
  var locale = String(config.speechLocale || "en-us").toLowerCase();
  return socketBase() + "/voice/stream/recognize/" + encodeURIComponent(locale)
    + "/generic?" + query() + "&encodeURI=" + encodeURIComponent("audio/raw") + (config.token ? "&jwtInBody=true" : "");
}

/** Averages the capture's samples into 16 kHz 16-bit ones, keeping the fraction of a sample between buffers. */
function makeResampler(inputRate) {
  var ratio = inputRate / 16000;
  var carry = 0;      // input samples of the next output sample already added
  var sum = 0;
  return function (input) {
    var output = [];
    for (var i = 0; i < input.length; i++) {
      sum += input[i];
      carry += 1;
      if (carry >= ratio) {
        var value = Math.max(-1, Math.min(1, sum / carry));
        output.push(value < 0 ? value * 0x8000 : value * 0x7FFF);
        carry -= ratio;
        sum = carry > 0 ? input[i] * carry : 0;
      }
    }
    return Int16Array.from(output);
  };
}

/** The voice visualizer: the buffer's loudness (RMS in dBFS, -60 to 0) as the bar's width. */
function showLevel(samples) {
  var total = 0;
  for (var i = 0; i < samples.length; i++) { total += samples[i] * samples[i]; }
  var rms = Math.sqrt(total / Math.max(1, samples.length));
  var dbfs = rms > 0 ? 20 * Math.log10(rms) : -96;
  var fraction = Math.max(0, Math.min(1, (dbfs + 60) / 60));
  ui.levelBar.style.width = Math.round(fraction * 100) + "%";
  ui.level.setAttribute("data-dbfs", dbfs.toFixed(1));
}

function setRecordingUI(recording) {
  ui.root.setAttribute("data-recording", recording ? "true" : "false");
  ui.speech.hidden = !recording;
  ui.mic.setAttribute("aria-pressed", recording ? "true" : "false");
  if (recording) { ui.partial.textContent = strings.odais_speech_start; }
}

function speechFailed(key, code) {
  stopCapture();
  closeSpeechSocket();
  speech.active = false;
  setRecordingUI(false);
  notice(strings[key] || key);
  reportError(code, strings[key] || key);
}

export function startRecording() {
  if (speech.active || !ui.mic) { return false; }
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia || !window.WebSocket) {
    speechFailed("odais_speech_error", "speech.unavailable");
    return false;
  }
  speech.active = true;
  setRecordingUI(true);
  navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true } }).then(function (stream) {
    if (!speech.active) { stream.getTracks().forEach(function (track) { track.stop(); }); return; }
    speech.stream = stream;
    openSpeechSocket();
    var Context = window.AudioContext || window.webkitAudioContext;
    var context = new Context();
    speech.context = context;
    var source = context.createMediaStreamSource(stream);
    var processor = context.createScriptProcessor(4096, 1, 1);  // Oracle's SDK captures 4096-sample buffers
    var resample = makeResampler(context.sampleRate);
    processor.onaudioprocess = function (event) {
      var samples = event.inputBuffer.getChannelData(0);
      showLevel(samples);
      var pcm = resample(samples);
      var socket = speech.socket;
      if (!socket || pcm.length === 0) { return; }
      if (socket.readyState === WebSocket.OPEN) { socket.send(pcm.buffer); } else if (socket.readyState === WebSocket.CONNECTING) { speech.pending.push(pcm.buffer); }
    };
    source.connect(processor);
    processor.connect(context.destination);  // a script processor runs only when connected; it outputs silence
    speech.source = source;
    speech.processor = processor;
  }, function () {
    speechFailed("odais_speech_permission_denied", "speech.permissionDenied");
  });
  return true;
}

function openSpeechSocket() {
  var socket = new WebSocket(voiceURL());
  socket.binaryType = "arraybuffer";
  speech.socket = socket;
  speech.pending = [];
  speech.finished = false;
  socket.onopen = function () {
    if (config.token) { socket.send("Bearer " + config.token); }
    speech.pending.forEach(function (buffer) { socket.send(buffer); });
    speech.pending = [];
  };
  socket.onmessage = function (event) {
    if (speech.socket !== socket || typeof event.data !== "string") { return; }
    var frame;
    try { frame = JSON.parse(event.data); } catch (e) { return; }
    if (!isObject(frame)) { return; }
    if (frame.event === "partialResult") {
      var partial = bestUtterance(frame);
      if (partial) { ui.partial.textContent = partial; }
      post({ event: "speechResponse", text: partial, final: false });
    } else if (frame.event === "finalResult") {
      finishRecognition(frame);
    } else if (frame.code !== undefined || frame.error !== undefined) {
      // An error frame (unsupported locale, limits): Oracle's clients show it and stop.
      var unsupported = /locale/i.test(String(frame.code || "") + " " + String(frame.message || frame.error || ""));
      speechFailed(unsupported ? "odais_speech_unsupported_locale" : "odais_speechrecognition_error",
        String(frame.code || "speech.failed"));
    }
  };
  socket.onclose = function (event) {
    if (speech.socket !== socket) { return; }
    speech.socket = null;
    if (speech.active && !speech.finished) {
      var unsupported = /locale/i.test(event.reason || "");
      speechFailed(unsupported ? "odais_speech_unsupported_locale" : "odais_speechrecognition_error",
        "speech.closed");
    }
  };
}

function bestUtterance(frame) {
  var best = Array.isArray(frame.nbest) && isObject(frame.nbest[0]) ? frame.nbest[0].utterance : "";
  return typeof best === "string" ? best : "";
}

/** The server's final result: the end of the recording, then the text sent or put in the input field. */
function finishRecognition(frame) {
  speech.finished = true;
  stopCapture();
  closeSpeechSocket();
  speech.active = false;
  setRecordingUI(false);
  var text = bestUtterance(frame);
  post({ event: "speechResponse", text: text, final: true });
  if (!text) {
    notice(strings.odais_speech_error);
    reportError(frame.resultCode !== undefined ? "speech.tooMuchSpeech" : "speech.noSpeech", strings.odais_speech_error);
    return;
  }
  if (config.enableSpeechAutoSend === false) {
    ui.input.value = text;
    ui.input.focus();
    return;
  }
  var payload = { type: "text", text: text };
  showUserMessage(payload);
  disablePastActions("text");
  var metadata = { version: SDK_VERSION };
  if (frame.requestId !== undefined) { metadata.speechId = String(frame.requestId); }
  sendFrame({ messagePayload: payload, userId: config.userId, sdkMetadata: metadata });
  expectReply();
}

/** The user's second click: no more audio; the server's final result follows ("Done", as Oracle's Web SDK). */
export function stopRecording() {
  if (!speech.active) { return false; }
  stopCapture();
  var socket = speech.socket;
  if (socket && socket.readyState === WebSocket.OPEN) { socket.send("Done"); } else { speechFailed("odais_speech_error", "speech.cancelled"); }
  return true;
}

function stopCapture() {
  if (speech.processor) { speech.processor.onaudioprocess = null; speech.processor.disconnect(); }
  if (speech.source) { speech.source.disconnect(); }
  if (speech.stream) { speech.stream.getTracks().forEach(function (track) { track.stop(); }); }
  if (speech.context) { speech.context.close().catch(function () {}); }
  speech.processor = speech.source = speech.stream = speech.context = null;
}

function closeSpeechSocket() {
  var socket = speech.socket;
  speech.socket = null;
  if (socket && socket.readyState <= WebSocket.OPEN) { socket.close(1000); }
}

// Reading replies aloud.

export function drawMute() {
  ui.mute.textContent = audio.muted ? "\uD83D\uDD07" : "\uD83D\uDD0A";  // speaker off / on
  var label = audio.muted ? strings.odais_access_label_button_audio_reponse_off
    : strings.odais_access_label_button_audio_reponse_on;
  ui.mute.setAttribute("aria-label", label);
  ui.mute.title = label;
  ui.mute.setAttribute("aria-pressed", audio.muted ? "true" : "false");
}

export function setAudioMuted(muted) {
  audio.muted = !!muted;
  if (audio.muted) { stopSpeech(); }
  if (ui.mute) { drawMute(); }
  return true;
}

/** What a reply says aloud: its text; a card's titles and descriptions. */
function spokenText(payload) {
  if (payload.type === "card") {
    return (payload.cards || []).map(function (card) {
      return [card.title, card.description].filter(function (part) { return typeof part === "string" && part; }).join(". ");
    }).join(". ");
  }
  return summary(payload);
}

export function speakReply(payload) {
  if (!config.enableBotAudioResponse || audio.muted) { return; }
  var text = spokenText(payload).trim();
  if (!text) { return; }
  audio.queue.push(text);
  if (!audio.playing) { playNext(); }
}

function playNext() {
  var text = audio.queue.shift();
  if (text === undefined) { audio.playing = null; return; }
  var url = httpBase() + "/tts/speak?text=" + encodeURIComponent(text) + "&stream=chunked&" + query();
  var headers = config.token ? { Authorization: "Bearer " + config.token } : {};
  var current = { cancelled: false, source: null };
  audio.playing = current;
  fetch(url, { headers: headers }).then(function (response) {
    if (!response.ok) { throw new Error("HTTP " + response.status); }
    return response.arrayBuffer();
  }).then(function (wav) {
    if (current.cancelled) { return; }
    var Context = window.AudioContext || window.webkitAudioContext;
    audio.context = audio.context || new Context();
    return audio.context.decodeAudioData(wav).then(function (buffer) {
      if (current.cancelled) { return; }
      var source = audio.context.createBufferSource();
      source.buffer = buffer;
      source.connect(audio.context.destination);
      current.source = source;
      ui.root.setAttribute("data-speaking", "true");
      post({ event: "speechSynthesis", text: text, seconds: buffer.duration });
      return new Promise(function (resolve) { source.onended = resolve; source.start(); });
    });
  }).catch(function (error) {
    reportError("speech.synthesisFailed", String(error && error.message || error));
  }).then(function () {
    if (audio.playing !== current) { return; }
    ui.root.removeAttribute("data-speaking");
    playNext();
  });
}

/** Oracle's stopSpeech(): what is being read stops, and what waits is dropped. */
export function stopSpeech() {
  audio.queue = [];
  var current = audio.playing;
  audio.playing = null;
  if (current) {
    current.cancelled = true;
    if (current.source) { try { current.source.stop(); } catch (e) { /* not started */ } }
  }
  if (ui.root) { ui.root.removeAttribute("data-speaking"); }
  return true;
}
