/*
 * The widget's configuration: the defaults Oracle's SDKs document, then `window.parleyConfig`, then `?config=<JSON>`,
 * then single query parameters (docs/widget.md, "Configuration"); the chat server's address; and the page's clock.
 */

/** The Oracle iOS SDK's colour names (plus HeaderColor and ErrorColor), set as CSS variables. */
export const COLOR_NAMES = [
  "ActionButtonColor", "ActionLabelTextColor", "BotMessageColor", "BotTextColor", "CardBackgroundColor",
  "CardDescriptionTextColor", "CardTitleTextColor", "ChatBackgroundColor", "FooterColor", "FooterIconsColor",
  "HeaderColor", "HeaderIconsColor", "HeaderTextColor", "InputFieldColor", "InputFieldTextColor", "TimestampColor",
  "UserMessageColor", "UserTextColor", "ErrorColor"
];

/** Older names of the widget's strings, still read from a configuration. */
export const STRING_ALIASES = {
  odais_end_conversation: "parley_end_conversation_title",
  odais_conversation_ended: "parley_conversation_ended",
  odais_relative_just_now: "parley_time_now",
  odais_relative_few_seconds: "parley_time_moments",
  odais_relative_minutes: "parley_time_minutes",
  odais_relative_hours: "parley_time_hours",
  odais_relative_days: "parley_time_days",
  odais_relative_months: "parley_time_months",
  odais_relative_years: "parley_time_years",
  odais_send: "parley_send",
  odais_attach: "parley_attach",
  odais_clear: "parley_clear",
  odais_location_error: "parley_location_error",
  odais_show_form: "parley_show_form",
  odais_submit: "parley_submit"
};

/** Feature flags with the defaults the Oracle SDKs document. */
export const DEFAULTS = {
  URI: null,                     // host[:port] of the chat server; this page's host when absent
  channelId: null,               // the server's first unauthenticated channel when absent (GET /widget/config)
  userId: null,                  // generated (user-<32 hex digits>) and kept in localStorage when absent
  token: null,                   // a JWT for a client-authenticated channel
  enableSecureConnection: null,  // wss/https; follows this page's scheme when absent
  enableAttachment: true,
  enableClearMessage: false,
  enableEndConversation: true,
  enableTimestamp: true,
  timestampMode: "absolute",     // "absolute" or "relative"
  timestampFormat: "MMMM d, yyyy HH:mm",  // Unicode date pattern, as Swift's DateFormatter reads it
  timeZone: null,                // an IANA zone for timestamps; the browser's when absent
  enableDefaultClientResponse: false,
  enableSpeech: false,           // the microphone button: speech to text through /voice/stream/recognize
  enableSpeechAutoSend: true,    // send the recognised text at once; false puts it in the input field
  speechLocale: "en-us",         // the recognition locale (Oracle's list: docs/speech.md)
  enableBotAudioResponse: false, // read replies aloud through /tts/speak, with a mute button
  initBotAudioMuted: true,       // the mute button starts muted
  defaultGreetingTimeout: 5,     // seconds before the greeting when the skill has not answered the first message
  defaultWaitMessageInterval: 5, // seconds between wait messages
  multiLangChat: null,           // {supportedLanguages: [{lang, label?}], primaryLanguage?}
  locale: null,                  // the texts' and dates' language without a chat language; navigator.language
  botAvatar: null,
  agentAvatar: null,
  personAvatar: null,
  showConnectionStatus: false,
  showTypingStatus: true,
  typingStatusTimeout: 20,
  disablePastActions: "all",     // "all", "postback" or "none"
  actionsLayout: "horizontal",   // "horizontal" or "vertical"
  initUserHiddenMessage: null,
  initUserProfile: null,
  reconnectInterval: 5,
  reconnectMaxAttempts: 5,
  maxAttachmentSize: 26214400,
  bridgeHandler: null,           // webkit message handler name; "parley" then "meboCallBack" when absent
  waitForAppInfo: null,          // wait for setAppInfo before connecting; true when a bridge handler exists
  title: null,
  colors: {},
  strings: {}
};

const BOOLEAN_KEYS = ["enableAttachment", "enableClearMessage", "enableEndConversation", "enableTimestamp",
  "showConnectionStatus", "showTypingStatus", "enableSecureConnection", "waitForAppInfo",
  "enableDefaultClientResponse", "enableSpeech", "enableSpeechAutoSend", "enableBotAudioResponse",
  "initBotAudioMuted"];
const NUMBER_KEYS = ["typingStatusTimeout", "reconnectInterval", "reconnectMaxAttempts", "maxAttachmentSize",
  "defaultGreetingTimeout", "defaultWaitMessageInterval"];
const JSON_KEYS = ["initUserProfile", "multiLangChat"];
export const SDK_VERSION = "parley-widget-1";

export function isObject(value) { return value !== null && typeof value === "object" && !Array.isArray(value); }

export function isStringKey(key) { return key.indexOf("odais_") === 0 || key.indexOf("parley_") === 0; }

/**
 * Adds string overrides: a string value is for every language, an object value (keyed by a language tag such
 * as "fr" or "fr-CA") for that language. Older key names are read as their new names.
 */
function mergeStrings(target, source) {
  Object.keys(source).forEach(function (name) {
    var value = source[name];
    if (typeof value === "string") {
      target[STRING_ALIASES[name] || name] = value;
    } else if (isObject(value)) {
      var tag = normalTag(name);
      if (!isObject(target[tag])) { target[tag] = {}; }
      Object.keys(value).forEach(function (key) {
        if (typeof value[key] === "string") { target[tag][STRING_ALIASES[key] || key] = value[key]; }
      });
    }
  });
}

export function normalTag(tag) { return String(tag).toLowerCase().replace(/_/g, "-"); }

function merge(target, source) {
  if (!isObject(source)) { return target; }
  Object.keys(source).forEach(function (key) {
    var value = source[key];
    if (key === "colors") {
      if (isObject(value)) { Object.keys(value).forEach(function (name) { target.colors[name] = value[name]; }); }
    } else if (key === "strings") {
      if (isObject(value)) { mergeStrings(target.strings, value); }
    } else if (COLOR_NAMES.indexOf(key) >= 0) {
      target.colors[key] = value;
    } else if (isStringKey(key)) {
      mergeStrings(target.strings, { [key]: value });
    } else if (Object.prototype.hasOwnProperty.call(DEFAULTS, key)) {
      target[key] = value;
    }
  });
  return target;
}

function parseQueryValue(key, text) {
  if (BOOLEAN_KEYS.indexOf(key) >= 0) { return text === "true" || text === "1" || text === ""; }
  if (NUMBER_KEYS.indexOf(key) >= 0) { var number = Number(text); return isFinite(number) ? number : DEFAULTS[key]; }
  if (JSON_KEYS.indexOf(key) >= 0) { try { return JSON.parse(text); } catch (e) { return null; } }
  return text;
}

/**
 * The chat servers a link may point this page at: the page's own origin, and those the server serving the page
 * lists in `<meta name="parley-chat-servers" content="https://a.example https://b.example">` (its configuration's
 * `widgetChatServers`). A page that loads the script itself names its server in `window.parleyConfig` instead.
 */
function linkableServers() {
  var servers = [window.location.origin];
  var meta = document.querySelector('meta[name="parley-chat-servers"]');
  if (meta && meta.content) {
    meta.content.split(/\s+/).forEach(function (origin) { if (origin) { servers.push(origin.toLowerCase()); } });
  }
  return servers;
}

/** The origin `uri` (host[:port], or a URL) means for a page whose scheme is http or https. */
function originOf(uri, secureConnection) {
  var text = String(uri).trim();
  if (!/^https?:\/\//i.test(text)) {
    var https = typeof secureConnection === "boolean" ? secureConnection : window.location.protocol === "https:";
    text = (https ? "https://" : "http://") + text;
  }
  try { return new URL(text).origin.toLowerCase(); } catch (e) { return null; }
}

/**
 * Defaults, then `window.parleyConfig`, then `?config=<JSON>`, then single query parameters. The query string is
 * a link anyone can write: a `URI` from it is used only when it names one of `linkableServers()` (otherwise a link
 * would send the visitor's user id and session secret to a server of the link's author, docs/security.md).
 */
function readConfiguration() {
  var config = merge({ colors: {}, strings: {} }, DEFAULTS);
  config.colors = {};
  config.strings = {};
  var problems = [];
  if (isObject(window.parleyConfig)) { merge(config, window.parleyConfig); }
  var chosenURI = config.URI;
  var query = new URLSearchParams(window.location.search);
  if (query.has("config")) {
    try { merge(config, JSON.parse(query.get("config"))); } catch (e) { problems.push("config is not JSON"); }
  }
  query.forEach(function (value, key) {
    if (key === "config") { return; }
    var single = {};
    single[key] = COLOR_NAMES.indexOf(key) >= 0 || isStringKey(key) ? value : parseQueryValue(key, value);
    merge(config, single);
  });
  if (config.URI !== chosenURI && typeof config.URI === "string" && config.URI !== "") {
    var origin = originOf(config.URI, config.enableSecureConnection);
    if (origin === null || linkableServers().indexOf(origin) < 0) {
      problems.push("the link names a chat server this page does not connect to: " + config.URI);
      config.URI = chosenURI;
    } else {
      // Exactly the server allowed, in the scheme allowed.
      config.URI = origin;
      config.enableSecureConnection = origin.indexOf("https:") === 0;
    }
  } else if (config.URI !== chosenURI) {
    config.URI = chosenURI;
  }
  return { config: config, problems: problems };
}

/** The configuration read when the module loads, and what was wrong in it (reported once the page starts). */
export const loaded = readConfiguration();
export const config = loaded.config;

/**
 * Time, for everything the user sees change with it (timestamps, default responses, the typing timeout). A test
 * may set `window.parleyClock` ({now, setTimeout, clearTimeout}) before the script runs to drive it. The
 * connection's heartbeat and reconnection stay on the browser's timers.
 */
export const clock = isObject(window.parleyClock) && typeof window.parleyClock.now === "function" ? window.parleyClock : {
  now: function () { return Date.now(); },
  setTimeout: function (callback, milliseconds) { return window.setTimeout(callback, milliseconds); },
  clearTimeout: function (id) { window.clearTimeout(id); }
};

export function now() { return new Date(clock.now()); }

// --- The chat server ----------------------------------------------------------------------------------------------

export function secure() {
  if (typeof config.enableSecureConnection === "boolean") { return config.enableSecureConnection; }
  return window.location.protocol === "https:";
}

export function host() {
  var uri = typeof config.URI === "string" && config.URI !== "" ? config.URI : window.location.host;
  return uri.replace(/^https?:\/\//i, "").replace(/\/+$/, "");
}

export function httpBase() { return (secure() ? "https://" : "http://") + host(); }

export function socketBase() { return (secure() ? "wss://" : "ws://") + host(); }

/** A URL the widget may put into href/src: http(s), or the listed extra schemes. */
export function safeURL(value, extraSchemes) {
  if (typeof value !== "string" || value === "") { return null; }
  try {
    var url = new URL(value, window.location.href);
    var allowed = ["http:", "https:"].concat(extraSchemes || []);
    return allowed.indexOf(url.protocol) >= 0 ? url.href : null;
  } catch (e) { return null; }
}

/** `value` when it is a CSS colour, else null. */
export function cssColor(value) {
  if (typeof value !== "string" || value === "") { return null; }
  if (window.CSS && CSS.supports && !CSS.supports("color", value)) { return null; }
  return value;
}
