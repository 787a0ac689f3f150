/*
 * The conversation on the page: messages in (drawn, announced to the host, read aloud) and out (shown, sent), the
 * client's default responses for a slow skill, the chat language, attachments, clear and end.
 */

import { SDK_VERSION, clock, config, httpBase, isObject, now } from "./configuration.js";
import { chooseLanguage, chatLanguage, resolveLanguage, strings } from "./strings.js";
import { query } from "./identity.js";
import { addRow, agentDetails, el, finishRow, notice, relabel, scrollToEnd, showTyping, ui } from "./page.js";
import { renderPayload } from "./payloads.js";
import { resetTimestamps } from "./timestamps.js";
import { speakReply } from "./speech.js";
import { endConnection, hasStarted, openingSent, sendFrame } from "./chat.js";
import { post, reportError } from "./bridge.js";

let streams = {};              // textStream bubbles by streamId
let agentActive = false;       // the last message came from a live agent
let userSent = false;          // the user sent something in this conversation

// --- Messages in and out ------------------------------------------------------------------------

export function disablePastActions(kind) {
  if (config.disablePastActions === "none") { return; }
  var selector = kind === "postback" ? ".parley-bot button.parley-action[data-action-type=postback]"
    : ".parley-bot button.parley-action";
  if (config.disablePastActions === "postback") {
    selector = ".parley-bot button.parley-action[data-action-type=postback]";
  }
  var buttons = ui.messages.querySelectorAll(selector);
  for (var i = 0; i < buttons.length; i++) {
    if (!buttons[i].closest(".parley-edit-form")) { buttons[i].disabled = true; }
  }
}

export function showUserMessage(payload) {
  var row = addRow("user", now());
  row.appendChild(renderPayload(payload, { text: payload.text || "" }));
  finishRow(row);
}

export function summary(payload) {
  switch (payload.type) {
    case "text": case "textStream": return payload.aggregateText !== undefined ? payload.aggregateText : (payload.text || "");
    case "card": return (payload.cards || []).map(function (card) { return card.title; }).join("\n");
    case "attachment": return (payload.attachment && (payload.attachment.title || payload.attachment.url)) || "";
    case "location": return payload.location ? (payload.location.title || payload.location.latitude + ", " + payload.location.longitude) : "";
    case "editForm": return payload.title || payload.headerText || "";
    case "table": case "tableForm": return payload.tableTitle || payload.headerText || "";
    case "error": return payload.errorMessage || "";
    default: return payload.headerText || "";
  }
}

function options(payload) {
  var labels = [];
  var collect = function (actions) {
    (actions || []).forEach(function (action) {
      if (isObject(action) && action.type === "postback" && typeof action.label === "string") { labels.push(action.label); }
    });
  };
  collect(payload.actions);
  (payload.cards || []).forEach(function (card) { collect(card.actions); });
  collect(payload.globalActions);
  return labels;
}

/** Posts agentResponded (miibo's shape; `extensions` both inside and beside `bestResponse`). */
function announce(frame) {
  var payload = frame.messagePayload;
  var extensions = isObject(payload.properties) ? payload.properties : null;
  post({
    event: "agentResponded",
    bestResponse: {
      utterance: summary(payload),
      options: options(payload),
      is_enabled_free_input: true,
      extensions: extensions
    },
    extensions: extensions,
    source: frame.source || "BOT",
    messagePayload: payload
  });
}

export function receiveMessage(frame) {
  var payload = frame.messagePayload;
  if (!isObject(payload) || typeof payload.type !== "string") { return; }
  // As ParleyUI, a message's date is when this page received it (ChatMessage.date), on the page's clock.
  var created = now();
  var extensions = isObject(payload.channelExtensions) ? payload.channelExtensions : {};
  var session = isObject(extensions.agentSession) ? extensions.agentSession
    : (typeof extensions.agentName === "string" ? { name: extensions.agentName } : null);
  var sender = frame.source === "AGENT" ? { kind: "agent", agent: agentDetails(session) } : { kind: "bot" };
  if (payload.type !== "status") {
    endWaitingForReply();  // the skill (or an agent) answered: no default response follows
    agentActive = frame.source === "AGENT";
  }

  switch (payload.type) {
    case "status":
      showTyping(payload.status === "RESPONDING", sender.kind === "agent" ? sender.agent : null);
      return;
    case "command":
    case "outboundEvent":
    case "executeApplicationActionCommand":
    case "updateApplicationContextCommand":
      // Not shown; the host page hears them as DOM events (and a web view as unknown bridge events).
      post({ event: payload.type, messagePayload: payload });
      if (frame.endOfTurn) { showTyping(false); }
      return;
    case "sessionClosed":
      notice(strings.parley_conversation_ended);
      showTyping(false);
      return;
    case "textStream":
      receiveStream(frame, payload, created, sender);
      return;
    default:
      break;
  }
  if (frame.endOfTurn || frame.source === "AGENT") { showTyping(false); }
  var replace = extensions.replaceMessage === true || String(extensions.replaceMessage).toLowerCase() === "true";
  if (replace) {
    var rows = ui.messages.querySelectorAll(".parley-row.parley-bot");
    if (rows.length) { rows[rows.length - 1].remove(); }
  }
  var row = addRow("bot", created, sender);
  row.setAttribute("data-type", payload.type);
  if (frame.msgId) { row.setAttribute("data-msg-id", String(frame.msgId)); }
  row.appendChild(renderPayload(payload, { text: summary(payload) }));
  finishRow(row);
  if (payload.type === "error") {
    post({ error: { code: payload.errorCode || "skill.error", message: payload.errorMessage || "" } });
  } else {
    announce(frame);
    speakReply(payload);
  }
}

function receiveStream(frame, payload, created, sender) {
  var id = payload.streamId || "stream";
  var entry = streams[id];
  if (entry && payload.streamState === "start") {
    // The same input answered again (the server was stopped mid-stream): the half answer's bubble starts over.
    entry.text = "";
  } else if (!entry) {
    var row = addRow("bot", created, sender);
    row.setAttribute("data-type", "textStream");
    var node = renderPayload(payload, { text: payload.text || "" });
    row.appendChild(node);
    entry = streams[id] = { row: row, text: "" };
    finishRow(row);
  }
  var bubbleNode = entry.row.querySelector(".parley-bubble");
  if (payload.aggregateText !== undefined) {
    entry.text = payload.aggregateText;
  } else if (payload.streamState === "running") {
    entry.text += payload.text || "";
  } else {
    entry.text = payload.text || entry.text;
  }
  bubbleNode.textContent = entry.text;
  entry.row.setAttribute("data-stream-state", String(payload.streamState));
  if (payload.streamState === "end") {
    var finished = renderPayload(payload, { text: entry.text });
    finished.querySelector(".parley-bubble").textContent = entry.text;
    entry.row.replaceChild(finished, entry.row.querySelector(".parley-payload"));
    delete streams[id];
    if (frame.endOfTurn) { showTyping(false); }
    announce({ source: frame.source, messagePayload: { type: "text", text: entry.text, actions: payload.actions, properties: payload.properties } });
  }
  scrollToEnd();
}

export function sendPayload(payload, awaitsReply, keepActions) {
  if (!keepActions) { disablePastActions(payload.type); }
  sendFrame({ messagePayload: payload, userId: config.userId, sdkMetadata: { version: SDK_VERSION } });
  if (awaitsReply) { expectReply(); }
}

/** The page waits for the skill's answer to what the user sent: the typing row, then default responses. */
export function expectReply() {
  showTyping(true);
  waitForReply(!userSent);
  userSent = true;
}

/** As ParleyClient: the connection went, no default response follows. */
export function connectionLost() {
  endWaitingForReply();
  showTyping(false);
}

// --- Default client responses -------------------------------------------------------------------
// As ParleyClient (enableDefaultClientResponse): after the conversation's first user message, the greeting
// (odais_default_greeting_message) after defaultGreetingTimeout; then, and after later messages from the
// start, the wait message (odais_default_wait_message) every defaultWaitMessageInterval; at
// typingStatusTimeout the sorry message (odais_default_sorry_message), and the typing indicator goes. Any
// message from the skill or an agent stops it; not while a live agent has the conversation.


let replyWait = 0;             // counts the waits, so that a late timer of an earlier wait does nothing
let defaultTimer = null;

function waitForReply(firstOfConversation) {
  endWaitingForReply();
  if (!config.enableDefaultClientResponse || agentActive) { return; }
  var wait = replyWait;
  var greeting = Number(config.defaultGreetingTimeout);
  var interval = Math.max(0.001, Number(config.defaultWaitMessageInterval));
  var limit = Number(config.typingStatusTimeout);
  var waited = 0;
  var next = Math.min(firstOfConversation ? greeting : interval, limit);
  var kind = firstOfConversation ? "greeting" : "wait";
  function step() {
    defaultTimer = clock.setTimeout(function () {
      if (wait !== replyWait) { return; }
      waited = next;
      if (waited >= limit) {
        sayDefault("sorry");
        endWaitingForReply();
        showTyping(false);
        return;
      }
      sayDefault(kind);
      kind = "wait";
      next = Math.min(waited + interval, limit);
      step();
    }, Math.max(0, (next - waited) * 1000));
  }
  step();
}

function endWaitingForReply() {
  replyWait += 1;
  clock.clearTimeout(defaultTimer);
  defaultTimer = null;
}

/** One of the client's own default responses, shown as the skill's (ParleyUI: `isClientResponse`). */
function sayDefault(kind) {
  var row = addRow("bot", now(), { kind: "bot", clientResponse: kind });
  row.setAttribute("data-type", "text");
  row.appendChild(renderPayload({ type: "text", text: strings["odais_default_" + kind + "_message"] }, { text: "" }));
  finishRow(row);
  if (ui.typing && !ui.typing.hidden) { ui.messages.appendChild(ui.typing); scrollToEnd(); }
}

// --- The chat language --------------------------------------------------------------------------

/**
 * Oracle's setPrimaryLanguage, as ParleyClient does it: a change starts the conversation over in the new
 * language. The transcript is cleared, the texts follow the language, the choice is kept for the channel, a
 * profile update with the `languageTag` ("und" for detection) goes to the skill, then initUserHiddenMessage
 * again; the page hears `chatLanguageChanged`.
 */
export function setPrimaryLanguage(requested) {
  if (requested !== null && requested !== undefined && typeof requested !== "string") {
    reportError("bridge.invalidArgument", "setPrimaryLanguage takes a language tag or null");
    return false;
  }
  var chosen = resolveLanguage(requested);
  if (chosen === chatLanguage()) { if (ui.language) { ui.language.value = chosen || "und"; } return true; }
  chooseLanguage(chosen, hasStarted());
  clearConversation();
  relabel();
  userSent = false;
  try {
    window.dispatchEvent(new CustomEvent("parley:language", { detail: { language: chosen } }));
  } catch (e) { /* old browser */ }
  if (!openingSent()) { return true; }  // the opening, still to come, carries the language
  sendFrame({ profile: { languageTag: chosen || "und" }, userId: config.userId, sdkMetadata: { version: SDK_VERSION } });
  if (typeof config.initUserHiddenMessage === "string" && config.initUserHiddenMessage !== "") {
    sendFrame({ messagePayload: { type: "text", text: config.initUserHiddenMessage }, userId: config.userId });
    showTyping(true);
  }
  return true;
}

export function sendText(text) {
  var payload = { type: "text", text: text };
  showUserMessage(payload);
  sendPayload(payload, true);
}

// --- Attachments --------------------------------------------------------------------------------

export function upload(file) {
  if (file.size === 0 || file.size > Number(config.maxAttachmentSize)) {
    notice(strings.odais_file_size_warning);
    reportError("attachment.tooLarge", strings.odais_file_size_warning);
    return;
  }
  var data = new FormData();
  data.append("attachment", file, encodeURI(file.name));
  var headers = { "x-oda-meta-file-size": String(file.size) };
  if (config.token) { headers.Authorization = "Bearer " + config.token; }
  fetch(httpBase() + "/chat/v1/attachments?" + query(), { method: "POST", body: data, headers: headers })
    .then(function (response) {
      if (response.status === 413) { throw { code: "attachment.tooLarge", message: strings.odais_file_size_warning }; }
      if (response.status === 415) { throw { code: "attachment.unsupportedType", message: strings.odais_file_not_supported }; }
      if (!response.ok) { throw { code: "attachment.failed", message: "upload failed with HTTP " + response.status }; }
      return response.json();
    })
    .then(function (answer) {
      var major = String(answer.type || "").split("/")[0];
      var kind = ["image", "video", "audio"].indexOf(major) >= 0 ? major : "file";
      var payload = { type: "attachment", attachment: { type: kind, url: answer.url, title: answer.fileName } };
      showUserMessage(payload);
      sendPayload(payload, true);
    })
    .catch(function (error) {
      var code = error && error.code ? error.code : "attachment.failed";
      var message = error && error.message ? error.message : String(error);
      notice(message);
      reportError(code, message);
    });
}


// --- Clear and end ------------------------------------------------------------------------------------------------

export function clearConversation() {
  var rows = ui.messages.querySelectorAll(".parley-row, .parley-notice, .parley-day");
  for (var i = 0; i < rows.length; i++) { rows[i].remove(); }
  streams = {};
  resetTimestamps();
  endWaitingForReply();
  showTyping(false);
}

/** The end button (enableEndConversation) asks first, with ParleyUI's prompt. */
export function askToEndConversation() {
  if (ui.root.querySelector(".parley-end-prompt")) { return; }
  var overlay = el("div", "parley-overlay parley-end-prompt");
  var dialog = el("div", "parley-dialog");
  dialog.setAttribute("role", "alertdialog");
  dialog.setAttribute("aria-modal", "true");
  var title = el("div", "parley-dialog-title", strings.parley_end_conversation_title);
  title.id = "parley-end-title";
  dialog.setAttribute("aria-labelledby", title.id);
  dialog.appendChild(title);
  dialog.appendChild(el("div", "parley-dialog-message", strings.parley_end_conversation_message));
  var buttons = el("div", "parley-dialog-buttons");
  var cancel = el("button", "parley-action parley-end-cancel", strings.parley_end_conversation_cancel);
  cancel.type = "button";
  cancel.addEventListener("click", function () { overlay.remove(); });
  var confirm = el("button", "parley-action parley-danger parley-end-confirm", strings.parley_end_conversation_confirm);
  confirm.type = "button";
  confirm.addEventListener("click", function () { overlay.remove(); endConversation(); });
  buttons.appendChild(cancel);
  buttons.appendChild(confirm);
  dialog.appendChild(buttons);
  overlay.appendChild(dialog);
  ui.root.appendChild(overlay);
  cancel.focus();
}

/**
 * Ends the conversation, as ParleyClient's endChat: sends `closeSession`, disconnects and erases the messages;
 * the next message starts a new conversation (with its opening).
 */
export function endConversation() {
  endConnection();
  userSent = false;
  agentActive = false;
  clearConversation();
  notice(strings.parley_conversation_ended);
  try { window.dispatchEvent(new CustomEvent("parley:chatEnd", { detail: {} })); } catch (e) { /* old browser */ }
}

