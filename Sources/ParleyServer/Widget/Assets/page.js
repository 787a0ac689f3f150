/*
 * The page: the widget's frame (header, messages, footer), its texts, the connection status, the typing row,
 * notices, and the rows messages go in, with their avatars and runs. Payloads are drawn by payloads.js.
 */

import { COLOR_NAMES, config, cssColor, isObject, now, safeURL, clock } from "./configuration.js";
import { chatLanguage, computeStrings, languageName, screenLocale, strings, supportedLanguages } from "./strings.js";
import { askToEndConversation, clearConversation, sendText, setPrimaryLanguage, upload } from "./conversation.js";
import { drawMute, isRecording, setAudioMuted, isAudioMuted, startRecording, stopRecording } from "./speech.js";
import { connectionStatus } from "./chat.js";
import { dayOf, stamp } from "./timestamps.js";
import { reportError } from "./bridge.js";

/** The page's elements, by role. */
export const ui = {};

let typingAgent = null;        // the live agent who is typing, or null
let typingTimer = null;

export function el(tag, className, text) {
  var node = document.createElement(tag);
  if (className) { node.className = className; }
  if (text !== undefined && text !== null) { node.textContent = String(text); }
  return node;
}

function applyColors() {
  Object.keys(config.colors).forEach(function (name) {
    var value = config.colors[name];
    if (COLOR_NAMES.indexOf(name) < 0 || typeof value !== "string") { return; }
    if (window.CSS && CSS.supports && !CSS.supports("color", value)) { return; }
    ui.root.style.setProperty("--parley-" + name, value);
  });
}

export function buildPage() {
  var root = document.getElementById("parley-widget");
  if (!root) { root = el("div", "parley"); root.id = "parley-widget"; document.body.appendChild(root); }
  root.classList.add("parley");
  ui.root = root;
  applyColors();

  var header = el("div", "parley-header");
  var titles = el("div", "parley-header-titles");
  ui.title = el("div", "parley-title");
  ui.status = el("div", "parley-status");
  ui.status.setAttribute("aria-live", "polite");
  ui.status.hidden = !config.showConnectionStatus;
  ui.typingStatus = el("div", "parley-typing-status");
  ui.typingStatus.hidden = true;
  titles.appendChild(ui.title);
  titles.appendChild(ui.status);
  titles.appendChild(ui.typingStatus);
  header.appendChild(titles);
  var controls = el("div", "parley-header-controls");  // kept together, at the right; wraps below the title
  if (supportedLanguages().length >= 2) {
    // Oracle: the menu shows with two languages or more, Detect Language first.
    ui.language = el("select", "parley-language");
    ui.language.addEventListener("change", function () { setPrimaryLanguage(ui.language.value); });
    controls.appendChild(ui.language);
  }
  if (config.enableClearMessage) {
    ui.clear = el("button", "parley-clear");
    ui.clear.type = "button";
    ui.clear.addEventListener("click", clearConversation);
    controls.appendChild(ui.clear);
  }
  if (config.enableBotAudioResponse) {
    ui.mute = el("button", "parley-mute");
    ui.mute.type = "button";
    ui.mute.addEventListener("click", function () { setAudioMuted(!isAudioMuted()); });
    controls.appendChild(ui.mute);
  }
  if (config.enableEndConversation) {
    ui.end = el("button", "parley-end");
    ui.end.type = "button";
    ui.end.addEventListener("click", askToEndConversation);
    controls.appendChild(ui.end);
  }
  if (controls.firstChild) { header.appendChild(controls); }
  root.appendChild(header);

  ui.messages = el("div", "parley-messages");
  ui.messages.setAttribute("role", "log");
  ui.typing = el("div", "parley-typing");
  ui.typing.hidden = true;
  ui.messages.appendChild(ui.typing);
  root.appendChild(ui.messages);

  var footer = el("form", "parley-footer");
  if (config.enableAttachment) {
    ui.file = el("input", "parley-file");
    ui.file.type = "file";
    ui.file.hidden = true;
    ui.file.addEventListener("change", function () {
      if (ui.file.files && ui.file.files[0]) { upload(ui.file.files[0]); }
      ui.file.value = "";
    });
    ui.attach = el("button", "parley-attach");
    ui.attach.type = "button";
    ui.attach.addEventListener("click", function () { ui.file.click(); });
    footer.appendChild(ui.file);
    footer.appendChild(ui.attach);
  }
  ui.input = el("input", "parley-input");
  ui.input.type = "text";
  footer.appendChild(ui.input);
  ui.send = el("button", "parley-send");
  ui.send.type = "submit";
  footer.appendChild(ui.send);
  if (config.enableSpeech) {
    ui.mic = el("button", "parley-mic");
    ui.mic.type = "button";
    ui.mic.addEventListener("click", function () { if (isRecording()) { stopRecording(); } else { startRecording(); } });
    footer.appendChild(ui.mic);
    ui.speech = el("div", "parley-speech");
    ui.speech.hidden = true;
    ui.level = el("div", "parley-level");
    ui.levelBar = el("div", "parley-level-bar");
    ui.level.appendChild(ui.levelBar);
    ui.partial = el("div", "parley-partial");
    ui.partial.setAttribute("aria-live", "polite");
    ui.speech.appendChild(ui.level);
    ui.speech.appendChild(ui.partial);
  }
  footer.addEventListener("submit", function (event) {
    event.preventDefault();
    var text = ui.input.value;
    if (text.trim() === "") { return; }
    ui.input.value = "";
    sendText(text);
  });
  if (ui.speech) { root.appendChild(ui.speech); }
  root.appendChild(footer);
  relabel();
  setStatus("disconnected");
}

/** Puts the screen's texts in the current language (after a language change, or loading the kept one). */
export function relabel() {
  computeStrings();
  ui.root.setAttribute("lang", screenLocale());
  ui.title.textContent = strings.odais_chat_title;
  ui.title.setAttribute("aria-label", strings.odais_access_label_chat_title + " " + strings.odais_chat_title);
  ui.typingStatus.textContent = strings.odais_typing_status;
  drawTyping();
  if (ui.language) {
    while (ui.language.firstChild) { ui.language.removeChild(ui.language.firstChild); }
    ui.language.setAttribute("aria-label", strings.parley_language_menu);
    ui.language.title = strings.parley_language_menu;
    var detect = el("option", null, strings.parley_detect_language);
    detect.value = "und";
    ui.language.appendChild(detect);
    supportedLanguages().forEach(function (entry) {
      var option = el("option", null, languageName(entry));
      option.value = entry.lang;
      ui.language.appendChild(option);
    });
    ui.language.value = chatLanguage() || "und";
  }
  if (ui.clear) {
    ui.clear.textContent = strings.parley_clear;
    ui.clear.setAttribute("aria-label", strings.odais_access_label_button_clear);
  }
  if (ui.end) {
    ui.end.textContent = strings.parley_end_conversation_title;
    ui.end.setAttribute("aria-label", strings.parley_end_conversation_title);
  }
  if (ui.attach) {
    ui.attach.textContent = strings.parley_attach;
    ui.attach.setAttribute("aria-label", strings.odais_access_label_button_attach);
  }
  if (ui.mic) {
    ui.mic.textContent = "\uD83C\uDFA4";  // a microphone
    ui.mic.setAttribute("aria-label", strings.odais_access_label_button_speak);
    ui.mic.title = strings.odais_access_label_button_speak;
  }
  if (ui.mute) { drawMute(); }
  ui.input.placeholder = strings.odais_write_a_message;
  ui.input.setAttribute("aria-label", strings.odais_write_a_message);
  ui.send.textContent = strings.parley_send;
  ui.send.setAttribute("aria-label", strings.odais_access_label_button_send);
  if (ui.status) { setStatus(connectionStatus()); }
}

export function setStatus(next) {
  ui.root.setAttribute("data-status", next);
  ui.status.textContent = strings["odais_" + next] || next;
  ui.status.setAttribute("aria-label", strings.odais_access_label_chat_status + " " + ui.status.textContent);
}

export function scrollToEnd() { ui.messages.scrollTop = ui.messages.scrollHeight; }

/** The typing row: "Responding..." for the skill; for a live agent (ParleyUI's TypingRow) the agent's name too. */
function drawTyping() {
  while (ui.typing.firstChild) { ui.typing.removeChild(ui.typing.firstChild); }
  ui.typing.setAttribute("data-sender", typingAgent ? "agent" : "bot");
  if (typingAgent) {
    var name = el("span", "parley-typing-name", typingAgent.name || strings.parley_access_label_agent);
    var colour = cssColor(typingAgent.nameTextColor);
    if (colour) { name.style.color = colour; }
    ui.typing.appendChild(name);
    ui.typing.appendChild(document.createTextNode(" "));
  }
  ui.typing.appendChild(document.createTextNode(strings.odais_typing_status));
}

export function showTyping(visible, agent) {
  typingAgent = visible && agent ? agent : null;
  drawTyping();
  clock.clearTimeout(typingTimer);
  var show = visible && config.showTypingStatus;
  ui.typing.hidden = !show;
  ui.typingStatus.hidden = !show;
  ui.root.setAttribute("data-typing", show ? "true" : "false");
  if (show) {
    ui.messages.appendChild(ui.typing);  // keep it last
    scrollToEnd();
    typingTimer = clock.setTimeout(function () { showTyping(false); }, Number(config.typingStatusTimeout) * 1000);
  }
}

export function notice(text) {
  var node = el("div", "parley-notice", text);
  ui.messages.insertBefore(node, ui.typing);
  scrollToEnd();
  return node;
}

// --- Avatars and runs ---------------------------------------------------------------------------
// As ParleyUI (docs/ui.md §1.1): consecutive messages of one sender (for agents, one agent) on one day form a
// run; its first message carries the avatar and, for an agent, the agent's name. User: `personAvatar`; skill:
// `botAvatar`; agent: the agent's `avatarImage` (channelExtensions.agentSession, with what setAgentDetails
// overrides member by member), else `agentAvatar`, else the name's initials in the agent's colours.

let agentOverrides = {};       // setAgentDetails(…)

export function agentDetails(session) {
  var details = {};
  ["name", "avatarImage", "nameTextColor", "avatarTextColor", "avatarBackgroundColor"].forEach(function (key) {
    var value = typeof agentOverrides[key] === "string" ? agentOverrides[key]
      : (isObject(session) && typeof session[key] === "string" ? session[key] : null);
    if (value !== null) { details[key] = value; }
  });
  return details;
}

function initials(name) {
  return String(name || "").trim().split(/\s+/).filter(Boolean).slice(0, 2).map(function (word) {
    return word.charAt(0).toLocaleUpperCase();
  }).join("");
}

function imageAvatar(url, alt) {
  var box = el("div", "parley-avatar");
  var img = el("img");
  img.src = url;
  img.alt = alt;
  box.appendChild(img);
  return box;
}

/** The avatar of a run's first message, or null. */
function avatarFor(who) {
  if (who.kind === "user") {
    var person = safeURL(config.personAvatar, ["data:", "blob:"]);
    return person ? imageAvatar(person, strings.odais_access_label_user) : null;
  }
  if (who.kind === "agent") {
    var details = who.agent || {};
    var image = safeURL(details.avatarImage, ["data:"]) || safeURL(config.agentAvatar, ["data:", "blob:"]);
    if (image) { return imageAvatar(image, details.name || strings.parley_access_label_agent); }
    var box = el("div", "parley-avatar parley-initials", initials(details.name) || "?");
    box.setAttribute("aria-hidden", "true");
    var text = cssColor(details.avatarTextColor);
    var background = cssColor(details.avatarBackgroundColor);
    if (text) { box.style.color = text; }
    if (background) { box.style.background = background; }
    return box;
  }
  var bot = safeURL(config.botAvatar, ["data:", "blob:"]);
  return bot ? imageAvatar(bot, strings.odais_access_label_skill) : null;
}

/** Whether messages of this kind leave room for an avatar (so that a run's messages line up). */
function hasGutter(kind) {
  if (kind === "user") { return Boolean(safeURL(config.personAvatar, ["data:", "blob:"])); }
  if (kind === "agent") { return true; }
  return Boolean(safeURL(config.botAvatar, ["data:", "blob:"]));
}

function decorateRow(row, who) {
  var old = row.querySelector(":scope > .parley-avatar");
  if (old) { old.remove(); }
  row.classList.toggle("parley-gutter", hasGutter(who.kind));
  if (row.getAttribute("data-run-first") !== "true") { return; }
  var avatar = avatarFor(who);
  if (avatar) { row.insertBefore(avatar, row.firstChild); }
}

/** Adds a message row; `who` is {kind: "user" | "bot" | "agent", agent: details, clientResponse: kind}. */
export function addRow(side, date, who) {
  who = who || { kind: side === "user" ? "user" : "bot" };
  var row = el("div", "parley-row parley-" + side);
  row.setAttribute("data-sender", who.kind);
  row.setAttribute("aria-label", who.kind === "user" ? strings.odais_access_label_user
    : who.kind === "agent" ? strings.parley_access_label_agent : strings.odais_access_label_skill);
  var run = who.kind + "|" + (who.kind === "agent" ? String((who.agent || {}).name || "") : "") + "|" + dayOf(date);
  var rows = ui.messages.querySelectorAll(".parley-row");
  var previous = rows.length ? rows[rows.length - 1] : null;
  row.setAttribute("data-run", run);
  row.setAttribute("data-run-first", !previous || previous.getAttribute("data-run") !== run ? "true" : "false");
  if (who.clientResponse) { row.setAttribute("data-client-response", who.clientResponse); }
  if (who.kind === "agent" && row.getAttribute("data-run-first") === "true") {
    var details = who.agent || {};
    var name = el("div", "parley-sender", details.name || strings.parley_access_label_agent);
    var colour = cssColor(details.nameTextColor);
    if (colour) { name.style.color = colour; }
    row.appendChild(name);
  }
  decorateRow(row, who);
  ui.messages.insertBefore(row, ui.typing);
  row._parleyDate = date;
  return row;
}

/** Oracle's setPersonAvatar: the user's avatar on every message, earlier ones included. */
export function setPersonAvatar(url) {
  if (url !== null && typeof url !== "string") {
    reportError("bridge.invalidArgument", "setPersonAvatar takes a URL string or null");
    return false;
  }
  config.personAvatar = url;
  var rows = ui.messages.querySelectorAll(".parley-row.parley-user");
  for (var i = 0; i < rows.length; i++) { decorateRow(rows[i], { kind: "user" }); }
  return true;
}

/** Oracle's setAgentDetails: overrides the server's agent details, member by member, for later messages. */
export function setAgentDetails(details) {
  if (!isObject(details)) {
    reportError("bridge.invalidArgument", "setAgentDetails takes an object");
    return false;
  }
  agentOverrides = {};
  Object.keys(details).forEach(function (key) {
    if (typeof details[key] === "string") { agentOverrides[key] = details[key]; }
  });
  return true;
}

export function finishRow(row) {
  stamp(row, row._parleyDate || now());
  scrollToEnd();
}
