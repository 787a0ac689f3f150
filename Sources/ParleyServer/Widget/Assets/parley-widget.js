/*
 * Parley web chat widget: plain JavaScript modules, served as they are, no build step, no third-party code.
 *
 *   <script type="module" src="https://chat.example.com/widget/parley-widget.js"></script>
 *
 * This module starts the widget and puts its API on window; the others do the work:
 *   configuration.js  the settings (window.parleyConfig, ?config=, query parameters), the server, the clock
 *   strings.js        ParleyUI's texts (GET /widget/strings.json) and the chat language
 *   identity.js       the user id and the session secret
 *   connection.js     the connection lifecycle, a state machine with the Swift client's states and events
 *   chat.js           the chat socket that performs the machine's actions
 *   conversation.js   messages in and out, default responses, the language, attachments, clear and end
 *   page.js, payloads.js, timestamps.js   the rendering
 *   speech.js         the microphone and replies read aloud
 *   bridge.js         the web-view bridge (setAppInfo, sendMessage, events to the host app)
 *
 * It speaks the Parley/Oracle chat socket protocol (docs/protocol.md) and the web-view bridge contract
 * (docs/web-bridge.md). Every DOM node is built with createElement and textContent: nothing from the server, the
 * user or the configuration is ever parsed as HTML.
 */

import { config, httpBase, loaded } from "./configuration.js";
import { chatLanguage, loadLanguage, loadStringTables, strings, tables } from "./strings.js";
import { chooseUserId } from "./identity.js";
import { connectionStatus, startConnection } from "./chat.js";
import { clearConversation, endConversation, setPrimaryLanguage } from "./conversation.js";
import { agentDetails, buildPage, notice, relabel, setAgentDetails, setPersonAvatar, ui } from "./page.js";
import { isAudioMuted, isRecording, setAudioMuted, startRecording, stopRecording, stopSpeech } from "./speech.js";
import { bridgeHandler, post, reportError, sendMessage, setAppInfo } from "./bridge.js";

function copy(value) { return JSON.parse(JSON.stringify(value)); }

const api = {
  setAppInfo: setAppInfo,
  sendMessage: sendMessage,
  clearConversation: clearConversation,
  endConversation: endConversation,
  setPrimaryLanguage: setPrimaryLanguage,
  chatLanguage: chatLanguage,
  setPersonAvatar: setPersonAvatar,
  setAgentDetails: setAgentDetails,
  getAgentDetails: function () { return agentDetails(null); },
  strings: function () { return copy(strings); },
  stringTables: function () { return copy(tables); },
  appInfo: function () { return { apiKey: config.token, uid: config.userId, channelId: config.channelId }; },
  status: connectionStatus,
  configuration: function () { return copy(config); },
  startRecording: startRecording,
  stopRecording: stopRecording,
  isRecording: isRecording,
  stopSpeech: stopSpeech,
  setAudioMuted: setAudioMuted,
  isAudioMuted: isAudioMuted
};
window.parley = api;
window.setAppInfo = setAppInfo;
window.sendMessage = sendMessage;

/** The server's `/widget/config` answer (or null) and the texts are in: the page says so and connects. */
function start(serverDefaults, stringsProblem) {
  if (!config.channelId && serverDefaults && typeof serverDefaults.channelId === "string") {
    config.channelId = serverDefaults.channelId;
  }
  if (serverDefaults && typeof serverDefaults.maxAttachmentSize === "number") {
    config.maxAttachmentSize = serverDefaults.maxAttachmentSize;
  }
  ui.root.removeAttribute("data-loading");
  if (!config.channelId) {
    relabel();
    notice("No channel to connect to.");
    post({ event: "agentLoaded" });
    reportError("widget.noChannel", "the server has no unauthenticated channel and none was configured");
    return;
  }
  chooseUserId(serverDefaults);
  loadLanguage();
  relabel();
  post({ event: "agentLoaded" });
  if (stringsProblem) { reportError(stringsProblem.code, stringsProblem.message); }
  loaded.problems.forEach(function (problem) { reportError("widget.invalidConfiguration", problem); });
  startConnection(typeof config.waitForAppInfo === "boolean" ? config.waitForAppInfo : bridgeHandler() !== null);
}

function boot() {
  buildPage();
  // The page is drawn once the texts are in (data-loading hides it until then).
  ui.root.setAttribute("data-loading", "true");
  // Asked even when the page names the channel: the answer says whether it wants a session secret.
  var named = config.channelId ? "?channelId=" + encodeURIComponent(config.channelId) : "";
  var defaults = fetch(httpBase() + "/widget/config" + named, { headers: { Accept: "application/json" } })
    .then(function (response) { return response.ok ? response.json() : null; })
    .catch(function () { return null; });
  Promise.all([defaults, loadStringTables()]).then(function (answers) { start(answers[0], answers[1]); });
}

// A module runs once the document is parsed; a page may still add the widget's element later.
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", boot);
} else {
  boot();
}
