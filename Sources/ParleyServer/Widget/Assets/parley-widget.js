/*
 * Parley web chat widget: plain JavaScript, no build step, no third-party code.
 *
 * Speaks the Parley/Oracle chat socket protocol (docs/protocol.md) and the web-view bridge contract
 * (docs/web-bridge.md). Every DOM node is built with createElement and textContent: nothing from the
 * server, the user or the configuration is ever parsed as HTML.
 */
(function () {
  "use strict";

  // --- Configuration ------------------------------------------------------------------------------

  /** The Oracle iOS SDK's colour names (plus HeaderColor and ErrorColor), set as CSS variables. */
  var COLOR_NAMES = [
    "ActionButtonColor", "ActionLabelTextColor", "BotMessageColor", "BotTextColor", "CardBackgroundColor",
    "CardDescriptionTextColor", "CardTitleTextColor", "ChatBackgroundColor", "FooterColor", "FooterIconsColor",
    "HeaderColor", "HeaderIconsColor", "HeaderTextColor", "InputFieldColor", "InputFieldTextColor", "TimestampColor",
    "UserMessageColor", "UserTextColor", "ErrorColor"
  ];

  /**
   * The texts the widget shows, by language: the Oracle SDKs' `odais_*` keys with Oracle's English, and ParleyUI's
   * `parley_*` keys for what Oracle names no string for. The same texts as ParleyUI's tables
   * (Sources/ParleyUI/Resources/Strings; a browser test compares them), plus the widget's own button labels.
   */
  var STRING_TABLES = {
    en: {
      odais_speech_start: "Listening...",
      odais_speech_error: "Error in voice recognition. Please try again later.",
      odais_speechrecognition_error: "Speech Recognition Error",
      odais_speech_permission_denied: "Permission_Denied",
      odais_speech_unsupported_locale: "The set speech locale is not supported. Cannot start recording.",
      odais_access_label_button_speak: "Speak button",
      odais_access_label_button_audio_reponse_off: "Unmute audio response",
      odais_access_label_button_audio_reponse_on: "Mute audio response",
      odais_chat_title: "Ask",
      odais_connected: "Connected",
      odais_connecting: "Connecting",
      odais_disconnected: "Disconnected",
      odais_typing_status: "Responding...",
      odais_file_not_supported: "File type not supported",
      odais_file_size_warning: "You can only attach files of size upto 25MB",
      odais_write_a_message: "Write a message",
      odais_error: "Error",
      odais_ok: "Ok",
      odais_done: "Done",
      odais_check_url: "Please check the url!",
      odais_access_label_skill: "Skill",
      odais_access_label_user: "User",
      odais_access_label_button_send: "Send button",
      odais_access_label_button_clear: "Clear messages",
      odais_access_label_button_attach: "Upload attachment",
      odais_access_label_chat_title: "Chat title",
      odais_access_label_chat_status: "Chat status",
      odais_default_greeting_message: "Hey, Nice to meet you! Allow me a moment to get back to you.",
      odais_default_wait_message: "I'm still working on your request. Thank you for your patience!",
      odais_default_sorry_message: "I'm sorry. I can't get you the right content. Please try again.",
      parley_detect_language: "Detect Language",
      parley_language_menu: "Language",
      parley_end_conversation_title: "End conversation",
      parley_end_conversation_message: "Are you sure you want to end the conversation?",
      parley_end_conversation_confirm: "Yes",
      parley_end_conversation_cancel: "No",
      parley_conversation_ended: "The conversation has ended.",
      parley_access_label_agent: "Agent",
      parley_time_now: "Just now",
      parley_time_moments: "A few moments ago",
      parley_time_minute: "1 min ago",
      parley_time_minutes: "{0} min ago",
      parley_time_hour: "1 hr ago",
      parley_time_hours: "{0} hr ago",
      parley_time_day: "1 day ago",
      parley_time_days: "{0} days ago",
      parley_time_month: "1 month ago",
      parley_time_months: "{0} months ago",
      parley_time_year: "1 year ago",
      parley_time_years: "{0} years ago",
      odais_send: "Send",
      odais_attach: "Attach",
      odais_clear: "Clear",
      odais_location_error: "Your location could not be read.",
      odais_show_form: "Details",
      odais_submit: "Submit"
    },
    fr: {
      odais_speech_start: "J'écoute…",
      odais_speech_error: "Erreur de reconnaissance vocale. Veuillez réessayer plus tard.",
      odais_speechrecognition_error: "Erreur de reconnaissance vocale",
      odais_speech_permission_denied: "Accès au micro refusé",
      odais_speech_unsupported_locale: "La langue choisie pour la reconnaissance vocale n'est pas prise en charge. Impossible de lancer l'enregistrement.",
      odais_access_label_button_speak: "Bouton Parler",
      odais_access_label_button_audio_reponse_off: "Activer la réponse audio",
      odais_access_label_button_audio_reponse_on: "Couper la réponse audio",
      odais_chat_title: "Assistant",
      odais_connected: "Connecté",
      odais_connecting: "Connexion…",
      odais_disconnected: "Déconnecté",
      odais_typing_status: "Réponse en cours…",
      odais_file_not_supported: "Type de fichier non pris en charge",
      odais_file_size_warning: "Vous ne pouvez joindre que des fichiers de 25 Mo au maximum",
      odais_write_a_message: "Écrivez un message",
      odais_error: "Erreur",
      odais_ok: "OK",
      odais_done: "Terminé",
      odais_check_url: "Veuillez vérifier l'adresse du lien !",
      odais_access_label_skill: "Assistant",
      odais_access_label_user: "Utilisateur",
      odais_access_label_button_send: "Bouton Envoyer",
      odais_access_label_button_clear: "Effacer les messages",
      odais_access_label_button_attach: "Joindre un fichier",
      odais_access_label_chat_title: "Titre de la conversation",
      odais_access_label_chat_status: "État de la conversation",
      odais_default_greeting_message: "Bonjour, ravi de faire votre connaissance ! Laissez-moi un instant pour vous répondre.",
      odais_default_wait_message: "Je travaille encore sur votre demande. Merci de votre patience !",
      odais_default_sorry_message: "Désolé, je n'arrive pas à obtenir la bonne réponse. Veuillez réessayer.",
      parley_detect_language: "Détecter la langue",
      parley_language_menu: "Langue",
      parley_end_conversation_title: "Terminer la conversation",
      parley_end_conversation_message: "Voulez-vous vraiment terminer la conversation ?",
      parley_end_conversation_confirm: "Oui",
      parley_end_conversation_cancel: "Non",
      parley_conversation_ended: "La conversation est terminée.",
      parley_access_label_agent: "Agent",
      parley_time_now: "À l'instant",
      parley_time_moments: "Il y a quelques instants",
      parley_time_minute: "Il y a 1 min",
      parley_time_minutes: "Il y a {0} min",
      parley_time_hour: "Il y a 1 h",
      parley_time_hours: "Il y a {0} h",
      parley_time_day: "Il y a 1 jour",
      parley_time_days: "Il y a {0} jours",
      parley_time_month: "Il y a 1 mois",
      parley_time_months: "Il y a {0} mois",
      parley_time_year: "Il y a 1 an",
      parley_time_years: "Il y a {0} ans",
      odais_send: "Envoyer",
      odais_attach: "Joindre",
      odais_clear: "Effacer",
      odais_location_error: "Votre position n'a pas pu être lue.",
      odais_show_form: "Détails",
      odais_submit: "Valider"
    },
    es: {
      odais_speech_start: "Escuchando…",
      odais_speech_error: "Error en el reconocimiento de voz. Inténtalo de nuevo más tarde.",
      odais_speechrecognition_error: "Error de reconocimiento de voz",
      odais_speech_permission_denied: "Acceso al micrófono denegado",
      odais_speech_unsupported_locale: "El idioma de voz configurado no es compatible. No se puede iniciar la grabación.",
      odais_access_label_button_speak: "Botón Hablar",
      odais_access_label_button_audio_reponse_off: "Activar la respuesta de audio",
      odais_access_label_button_audio_reponse_on: "Silenciar la respuesta de audio",
      odais_chat_title: "Asistente",
      odais_connected: "Conectado",
      odais_connecting: "Conectando…",
      odais_disconnected: "Desconectado",
      odais_typing_status: "Respondiendo…",
      odais_file_not_supported: "Tipo de archivo no admitido",
      odais_file_size_warning: "Solo puedes adjuntar archivos de hasta 25 MB",
      odais_write_a_message: "Escribe un mensaje",
      odais_error: "Error",
      odais_ok: "Aceptar",
      odais_done: "Listo",
      odais_check_url: "Comprueba la dirección del enlace.",
      odais_access_label_skill: "Asistente",
      odais_access_label_user: "Usuario",
      odais_access_label_button_send: "Botón Enviar",
      odais_access_label_button_clear: "Borrar los mensajes",
      odais_access_label_button_attach: "Adjuntar un archivo",
      odais_access_label_chat_title: "Título del chat",
      odais_access_label_chat_status: "Estado del chat",
      odais_default_greeting_message: "¡Hola, encantado de conocerte! Dame un momento para responderte.",
      odais_default_wait_message: "Sigo trabajando en tu solicitud. ¡Gracias por tu paciencia!",
      odais_default_sorry_message: "Lo siento, no consigo la respuesta adecuada. Inténtalo de nuevo.",
      parley_detect_language: "Detectar idioma",
      parley_language_menu: "Idioma",
      parley_end_conversation_title: "Finalizar la conversación",
      parley_end_conversation_message: "¿Seguro que quieres finalizar la conversación?",
      parley_end_conversation_confirm: "Sí",
      parley_end_conversation_cancel: "No",
      parley_conversation_ended: "La conversación ha finalizado.",
      parley_access_label_agent: "Agente",
      parley_time_now: "Ahora mismo",
      parley_time_moments: "Hace unos instantes",
      parley_time_minute: "Hace 1 min",
      parley_time_minutes: "Hace {0} min",
      parley_time_hour: "Hace 1 h",
      parley_time_hours: "Hace {0} h",
      parley_time_day: "Hace 1 día",
      parley_time_days: "Hace {0} días",
      parley_time_month: "Hace 1 mes",
      parley_time_months: "Hace {0} meses",
      parley_time_year: "Hace 1 año",
      parley_time_years: "Hace {0} años",
      odais_send: "Enviar",
      odais_attach: "Adjuntar",
      odais_clear: "Borrar",
      odais_location_error: "No se pudo leer tu ubicación.",
      odais_show_form: "Detalles",
      odais_submit: "Enviar"
    }
  };

  /** Older names of the widget's strings, still read from a configuration. */
  var STRING_ALIASES = {
    odais_end_conversation: "parley_end_conversation_title",
    odais_conversation_ended: "parley_conversation_ended",
    odais_relative_just_now: "parley_time_now",
    odais_relative_few_seconds: "parley_time_moments",
    odais_relative_minutes: "parley_time_minutes",
    odais_relative_hours: "parley_time_hours",
    odais_relative_days: "parley_time_days",
    odais_relative_months: "parley_time_months",
    odais_relative_years: "parley_time_years"
  };

  /** Feature flags with the defaults the Oracle SDKs document. */
  var DEFAULTS = {
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

  var BOOLEAN_KEYS = ["enableAttachment", "enableClearMessage", "enableEndConversation", "enableTimestamp",
    "showConnectionStatus", "showTypingStatus", "enableSecureConnection", "waitForAppInfo",
    "enableDefaultClientResponse", "enableSpeech", "enableSpeechAutoSend", "enableBotAudioResponse",
    "initBotAudioMuted"];
  var NUMBER_KEYS = ["typingStatusTimeout", "reconnectInterval", "reconnectMaxAttempts", "maxAttachmentSize",
    "defaultGreetingTimeout", "defaultWaitMessageInterval"];
  var JSON_KEYS = ["initUserProfile", "multiLangChat"];
  var SDK_VERSION = "parley-widget-1";
  var FINAL_CLOSE_CODES = [1000, 1008, 4001, 4002, 4003, 4004, 4005, 4006, 4007, 4008, 4009, 4010, 4011];
  var SESSION_CLOSE_CODES = [4007, 4008];  // session.required, session.invalid: get a new session secret once

  function isObject(value) { return value !== null && typeof value === "object" && !Array.isArray(value); }

  function isStringKey(key) { return key.indexOf("odais_") === 0 || key.indexOf("parley_") === 0; }

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

  function normalTag(tag) { return String(tag).toLowerCase().replace(/_/g, "-"); }

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

  // --- State --------------------------------------------------------------------------------------

  var loaded = readConfiguration();
  var config = loaded.config;
  /**
   * Time, for everything the user sees change with it (timestamps, default responses, the typing timeout). A
   * test may set `window.parleyClock` ({now, setTimeout, clearTimeout}) before the script runs to drive it.
   */
  var clock = isObject(window.parleyClock) && typeof window.parleyClock.now === "function" ? window.parleyClock : {
    now: function () { return Date.now(); },
    setTimeout: function (callback, milliseconds) { return window.setTimeout(callback, milliseconds); },
    clearTimeout: function (id) { window.clearTimeout(id); }
  };
  function now() { return new Date(clock.now()); }

  var language = null;           // the chat language chosen (a tag), or null: the skill detects it
  var languagePicked = false;    // setPrimaryLanguage ran before the channel was known: keep that choice
  var typingAgent = null;        // the live agent who is typing, or null
  var strings = {};              // every text in the screen's language (computeStrings)

  var socket = null;
  var status = "disconnected";
  var reconnectAttempts = 0;
  var reconnectTimer = null;
  var heartbeatTimer = null;
  var typingTimer = null;
  var relativeTimer = null;
  var outbox = [];               // frames waiting for an open socket
  var appInfoReceived = false;
  var ended = false;
  var initialised = false;       // initUserProfile and initUserHiddenMessage sent
  var streams = {};              // textStream bubbles by streamId
  var lastDay = null;
  var ui = {};
  var usesSessionSecrets = false; // /widget/config says the channel binds user ids to session secrets
  var session = null;            // {userId, sessionSecret} for config.userId on such a channel
  var sessionRequest = null;     // the POST /chat/v1/sessions under way
  var sessionRenewed = false;    // a refused secret was replaced since the last open socket
  var expiredSecret = null;      // the secret a 4009 close (session.expired) ended: renewed with itself
  var userIdGiven = false;       // the host chose the user id (configuration or setAppInfo)
  var started = false;           // the server's /widget/config answer is in (or failed)

  // --- Small helpers ------------------------------------------------------------------------------

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function format(template, value) { return String(template).split("{0}").join(String(value)); }

  // --- Strings and the chat language --------------------------------------------------------------
  // As ParleyUI (docs/ui.md §4): the screen's language is the chat language the user chose, else `locale`,
  // else the browser's. A text is the override for that language (exact tag, then its language), then the
  // override for every language, then the widget's table (exact, then language), then English, then the key.

  function screenLocale() {
    if (language) { return language; }
    if (typeof config.locale === "string" && config.locale !== "") { return config.locale; }
    return navigator.language || "en";
  }

  function localeChain(locale) {
    var tag = normalTag(locale);
    var base = tag.split("-")[0];
    return tag === base ? [tag] : [tag, base];
  }

  function lookup(key, locale) {
    if (key === "odais_chat_title" && typeof config.title === "string") { return config.title; }
    var chain = localeChain(locale);
    var i;
    for (i = 0; i < chain.length; i++) {
      var override = config.strings[chain[i]];
      if (isObject(override) && typeof override[key] === "string") { return override[key]; }
    }
    if (typeof config.strings[key] === "string") { return config.strings[key]; }
    for (i = 0; i < chain.length; i++) {
      var table = STRING_TABLES[chain[i]];
      if (table && typeof table[key] === "string") { return table[key]; }
    }
    return typeof STRING_TABLES.en[key] === "string" ? STRING_TABLES.en[key] : key;
  }

  function computeStrings() {
    var locale = screenLocale();
    strings = {};
    Object.keys(STRING_TABLES.en).forEach(function (key) { strings[key] = lookup(key, locale); });
  }

  /** `multiLangChat.supportedLanguages`, the entries with a `lang`. */
  function supportedLanguages() {
    var multi = config.multiLangChat;
    if (!isObject(multi) || !Array.isArray(multi.supportedLanguages)) { return []; }
    return multi.supportedLanguages.filter(function (entry) {
      return isObject(entry) && typeof entry.lang === "string" && entry.lang !== "";
    });
  }

  /**
   * The language `requested` selects, as ParleyClient's `setPrimaryLanguage`: null, "" or "und" is detection;
   * with supported languages, the exact tag, then its language part, else detection; without, any tag.
   */
  function resolveLanguage(requested) {
    if (typeof requested !== "string" || requested === "" || requested.toLowerCase() === "und") { return null; }
    var supported = supportedLanguages();
    if (supported.length === 0) { return requested; }
    var wanted = normalTag(requested);
    var exact = supported.filter(function (entry) { return normalTag(entry.lang) === wanted; })[0];
    if (exact) { return exact.lang; }
    var base = wanted.split("-")[0];
    var partial = supported.filter(function (entry) { return normalTag(entry.lang) === base; })[0];
    return partial ? partial.lang : null;
  }

  /** A language's name in the menu: its `label`, else its name in the screen's language, else its tag. */
  function languageName(entry) {
    if (typeof entry.label === "string" && entry.label !== "") { return entry.label; }
    try {
      var name = new Intl.DisplayNames([screenLocale()], { type: "language" }).of(entry.lang);
      if (name && name !== entry.lang) { return name.charAt(0).toLocaleUpperCase(screenLocale()) + name.slice(1); }
    } catch (e) { /* an old browser, or not a tag */ }
    return entry.lang;
  }

  function languageKey() { return "parley.language." + config.channelId; }

  /** The language kept for this channel (the user's last choice), else `multiLangChat.primaryLanguage`. */
  function loadLanguage() {
    if (languagePicked) { saveLanguage(); return; }
    try {
      var kept = JSON.parse(window.localStorage.getItem(languageKey()));
      if (isObject(kept) && Object.prototype.hasOwnProperty.call(kept, "language")) {
        language = typeof kept.language === "string" ? resolveLanguage(kept.language) : null;
        return;
      }
    } catch (e) { /* no storage, or not JSON */ }
    language = resolveLanguage(isObject(config.multiLangChat) ? config.multiLangChat.primaryLanguage : null);
  }

  function saveLanguage() {
    try { window.localStorage.setItem(languageKey(), JSON.stringify({ language: language })); } catch (e) { /* not kept */ }
  }

  /** A URL the widget may put into href/src: http(s), or the listed extra schemes. */
  function safeURL(value, extraSchemes) {
    if (typeof value !== "string" || value === "") { return null; }
    try {
      var url = new URL(value, window.location.href);
      var allowed = ["http:", "https:"].concat(extraSchemes || []);
      return allowed.indexOf(url.protocol) >= 0 ? url.href : null;
    } catch (e) { return null; }
  }

  /**
   * `user-` and 128 random bits in hex, from the browser's cryptographic generator. On a channel without
   * client authentication the user id is the user's credential: it must not be guessable.
   */
  function generatedUserId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    var hex = "";
    for (var i = 0; i < bytes.length; i++) { hex += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16); }
    return "user-" + hex;
  }

  function storedUserId(channelId) {
    var key = "parley.userId." + channelId;
    try {
      var existing = window.localStorage.getItem(key);
      if (existing) { return existing; }
      var made = generatedUserId();
      window.localStorage.setItem(key, made);
      return made;
    } catch (e) { return generatedUserId(); }
  }

  // --- Session secrets ----------------------------------------------------------------------------
  // A channel with session secrets binds each user id to a secret the server issues once
  // (POST /chat/v1/sessions). The pair is kept in localStorage per channel and the secret travels as the
  // sessionSecret query parameter of the socket and upload URLs. A secret lasts the channel's
  // sessionSecretLifetimeDays: when the server closes the socket with 4009 (session.expired), the widget asks for a
  // new secret for the same user id with the old one in X-Parley-Session-Secret, and the conversation goes on.

  function sessionKey() { return "parley.session." + config.channelId; }

  function storedSession() {
    try {
      var stored = JSON.parse(window.localStorage.getItem(sessionKey()));
      if (isObject(stored) && typeof stored.userId === "string" && typeof stored.sessionSecret === "string") {
        return stored;
      }
    } catch (e) { /* no storage, or not JSON */ }
    return null;
  }

  function keepSession(pair) {
    session = pair;
    try {
      window.localStorage.setItem(sessionKey(), JSON.stringify(pair));
      // The user id of the channel, for a later page on a channel without session secrets.
      window.localStorage.setItem("parley.userId." + config.channelId, pair.userId);
    } catch (e) { /* kept for this page only */ }
  }

  function forgetSession() {
    session = null;
    try { window.localStorage.removeItem(sessionKey()); } catch (e) { /* nothing kept */ }
  }

  function needsSession() {
    return usesSessionSecrets && !config.token && !(session && session.userId === config.userId);
  }

  /**
   * Gets the session secret of config.userId (from storage, or by asking the server), then calls `then`.
   * A user id the widget made and the server already bound elsewhere is replaced by one the server makes; a
   * user id the host chose is not.
   */
  function obtainSession(then) {
    if (sessionRequest) { return; }
    var stored = storedSession();
    // A stored secret other than the expired one (another tab of the page renewed it already) is used as it is.
    if (stored && stored.sessionSecret !== expiredSecret && (stored.userId === config.userId || !config.userId)) {
      session = stored;
      config.userId = stored.userId;
      expiredSecret = null;
      then();
      return;
    }
    function request(userId) {
      var url = httpBase() + "/chat/v1/sessions?channelId=" + encodeURIComponent(config.channelId) +
        (userId ? "&userId=" + encodeURIComponent(userId) : "");
      var headers = { Accept: "application/json" };
      // The stored secret of this user id renews its binding (expired or not); without it the id is refused.
      if (stored && userId && stored.userId === userId) { headers["X-Parley-Session-Secret"] = stored.sessionSecret; }
      return fetch(url, { method: "POST", headers: headers }).then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (body) {
          return { status: response.status, body: body };
        });
      });
    }
    setStatus("connecting");
    var wanted = config.userId;
    sessionRequest = request(wanted)
      .then(function (answer) {
        if (answer.status === 409 && wanted && !userIdGiven) { return request(null); }
        return answer;
      })
      .then(function (answer) {
        sessionRequest = null;
        if (answer.status !== 200 || !isObject(answer.body) || typeof answer.body.sessionSecret !== "string") {
          var coded = isObject(answer.body) && isObject(answer.body.error) ? answer.body.error : null;
          var error = coded && typeof coded.code === "string" ? coded
            : { code: "session.failed", message: "the session request failed with HTTP " + answer.status };
          throw error;
        }
        config.userId = answer.body.userId;
        expiredSecret = null;
        keepSession({ userId: answer.body.userId, sessionSecret: answer.body.sessionSecret });
        then();
      })
      .catch(function (error) {
        sessionRequest = null;
        setStatus("disconnected");
        reportError(error && error.code ? error.code : "session.failed",
          error && error.message ? error.message : String(error));
      });
  }

  function secure() {
    if (typeof config.enableSecureConnection === "boolean") { return config.enableSecureConnection; }
    return window.location.protocol === "https:";
  }

  function host() {
    var uri = typeof config.URI === "string" && config.URI !== "" ? config.URI : window.location.host;
    return uri.replace(/^https?:\/\//i, "").replace(/\/+$/, "");
  }

  function httpBase() { return (secure() ? "https://" : "http://") + host(); }

  function query() {
    var text = "channelId=" + encodeURIComponent(config.channelId) + "&userId=" + encodeURIComponent(config.userId);
    if (usesSessionSecrets && session && session.userId === config.userId) {
      text += "&sessionSecret=" + encodeURIComponent(session.sessionSecret);
    }
    return text;
  }

  // --- Bridge -------------------------------------------------------------------------------------

  function bridgeHandler() {
    var handlers = window.webkit && window.webkit.messageHandlers;
    if (!handlers) { return null; }
    var names = typeof config.bridgeHandler === "string" && config.bridgeHandler !== ""
      ? [config.bridgeHandler] : ["parley", "meboCallBack"];
    for (var i = 0; i < names.length; i++) {
      var handler = handlers[names[i]];
      if (handler && typeof handler.postMessage === "function") { return handler; }
    }
    return null;
  }

  /** Posts an event to the host app as a JSON string (miibo's shape) and as a DOM event on window. */
  function post(event) {
    var handler = bridgeHandler();
    if (handler) {
      try { handler.postMessage(JSON.stringify(event)); } catch (e) { /* the host went away */ }
    }
    try { window.dispatchEvent(new CustomEvent("parley:bridge", { detail: event })); } catch (e) { /* old browser */ }
  }

  function reportError(code, message) {
    post({ error: { code: String(code), message: String(message) } });
  }

  // --- Building the page --------------------------------------------------------------------------

  function applyColors() {
    Object.keys(config.colors).forEach(function (name) {
      var value = config.colors[name];
      if (COLOR_NAMES.indexOf(name) < 0 || typeof value !== "string") { return; }
      if (window.CSS && CSS.supports && !CSS.supports("color", value)) { return; }
      ui.root.style.setProperty("--parley-" + name, value);
    });
  }

  function buildPage() {
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
      ui.mute.addEventListener("click", function () { setAudioMuted(!audio.muted); });
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
      ui.mic.addEventListener("click", function () { if (speech.active) { stopRecording(); } else { startRecording(); } });
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
  function relabel() {
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
      ui.language.value = language || "und";
    }
    if (ui.clear) {
      ui.clear.textContent = strings.odais_clear;
      ui.clear.setAttribute("aria-label", strings.odais_access_label_button_clear);
    }
    if (ui.end) {
      ui.end.textContent = strings.parley_end_conversation_title;
      ui.end.setAttribute("aria-label", strings.parley_end_conversation_title);
    }
    if (ui.attach) {
      ui.attach.textContent = strings.odais_attach;
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
    ui.send.textContent = strings.odais_send;
    ui.send.setAttribute("aria-label", strings.odais_access_label_button_send);
    if (ui.status) { setStatus(status); }
  }

  function setStatus(next) {
    status = next;
    ui.root.setAttribute("data-status", next);
    ui.status.textContent = strings["odais_" + next] || next;
    ui.status.setAttribute("aria-label", strings.odais_access_label_chat_status + " " + ui.status.textContent);
  }

  function scrollToEnd() { ui.messages.scrollTop = ui.messages.scrollHeight; }

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

  function showTyping(visible, agent) {
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

  function notice(text) {
    var node = el("div", "parley-notice", text);
    ui.messages.insertBefore(node, ui.typing);
    scrollToEnd();
    return node;
  }

  // --- Timestamps ---------------------------------------------------------------------------------
  // As ParleyUI (docs/ui.md §2): `absolute` puts `timestampFormat` on every message; `relative` shows only the
  // latest message's time relative to now, re-drawn when its label changes, and puts a header with the date
  // and time (`timestampFormat`) before each day's first message.

  /** The date's fields in `config.timeZone` (or the browser's). */
  function dateFields(date, browserZone) {
    var options = { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric",
      second: "numeric", hourCycle: "h23" };
    if (!browserZone && typeof config.timeZone === "string" && config.timeZone !== "") {
      options.timeZone = config.timeZone;
    }
    var fields = {};
    try {
      new Intl.DateTimeFormat("en-US", options).formatToParts(date).forEach(function (part) {
        if (part.type !== "literal") { fields[part.type] = Number(part.value); }
      });
    } catch (e) {
      if (!browserZone) { return dateFields(date, true); }  // an unknown zone: the browser's
    }
    if (fields.hour === 24) { fields.hour = 0; }
    return fields;
  }

  function dateName(date, options) {
    if (typeof config.timeZone === "string" && config.timeZone !== "") { options.timeZone = config.timeZone; }
    try { return new Intl.DateTimeFormat(screenLocale(), options).format(date); } catch (e) {
      delete options.timeZone;
      return new Intl.DateTimeFormat(undefined, options).format(date);
    }
  }

  function pad(number, width) { var text = String(number); while (text.length < width) { text = "0" + text; } return text; }

  /**
   * `date` formatted with a Unicode date pattern, the format Swift's DateFormatter reads (`timestampFormat`):
   * y, M and L (1–4 letters), d, E, H, h, k, K, m, s, S, a, and 'quoted text'. Names are in the screen's language.
   */
  function formatDate(date, pattern) {
    var fields = dateFields(date);
    var out = "";
    var i = 0;
    while (i < pattern.length) {
      var c = pattern.charAt(i);
      if (c === "'") {
        var close = pattern.indexOf("'", i + 1);
        if (close === i + 1) { out += "'"; i += 2; continue; }
        if (close < 0) { close = pattern.length; }
        out += pattern.slice(i + 1, close);
        i = close + 1;
        continue;
      }
      if (!/[A-Za-z]/.test(c)) { out += c; i += 1; continue; }
      var n = 1;
      while (pattern.charAt(i + n) === c) { n += 1; }
      i += n;
      switch (c) {
        case "y": out += n === 2 ? pad(fields.year % 100, 2) : pad(fields.year, n); break;
        case "M": case "L":
          if (n >= 4) { out += dateName(date, { month: "long" }); }
          else if (n === 3) { out += dateName(date, { month: "short" }); }
          else { out += pad(fields.month, n); }
          break;
        case "d": out += pad(fields.day, n); break;
        case "E": out += dateName(date, { weekday: n >= 4 ? "long" : "short" }); break;
        case "H": out += pad(fields.hour, n); break;
        case "k": out += pad(fields.hour === 0 ? 24 : fields.hour, n); break;
        case "K": out += pad(fields.hour % 12, n); break;
        case "h": out += pad(fields.hour % 12 === 0 ? 12 : fields.hour % 12, n); break;
        case "m": out += pad(fields.minute, n); break;
        case "s": out += pad(fields.second, n); break;
        case "S": out += pad(date.getMilliseconds(), 3).slice(0, n); break;
        case "a": out += fields.hour < 12 ? "AM" : "PM"; break;
        default: out += new Array(n + 1).join(c);  // a letter this formatter does not know stays as written
      }
    }
    return out;
  }

  function absoluteTime(date) {
    var pattern = typeof config.timestampFormat === "string" && config.timestampFormat !== ""
      ? config.timestampFormat : DEFAULTS.timestampFormat;
    return formatDate(date, pattern);
  }

  /** ParleyUI's RelativeTime buckets: the label, and the elapsed seconds at which it changes next. */
  function relativeBucket(elapsed) {
    var seconds = Math.max(0, elapsed);
    var minute = 60, hour = 3600, day = 86400, month = 30 * day, year = 365 * day;
    function counted(unit, one, many, next) {
      var count = Math.max(1, Math.floor(seconds / unit));
      return { text: count === 1 ? strings[one] : format(strings[many], count), next: next(count) };
    }
    if (seconds < 10) { return { text: strings.parley_time_now, next: 10 }; }
    if (seconds < minute) { return { text: strings.parley_time_moments, next: minute }; }
    if (seconds < hour) {
      return counted(minute, "parley_time_minute", "parley_time_minutes", function (n) { return (n + 1) * minute; });
    }
    if (seconds < day) {
      return counted(hour, "parley_time_hour", "parley_time_hours", function (n) { return (n + 1) * hour; });
    }
    if (seconds < month) {
      return counted(day, "parley_time_day", "parley_time_days", function (n) { return (n + 1) * day; });
    }
    if (seconds < year) {
      return counted(month, "parley_time_month", "parley_time_months", function (n) {
        return Math.min((n + 1) * month, year);
      });
    }
    return counted(year, "parley_time_year", "parley_time_years", function (n) { return (n + 1) * year; });
  }

  function relativeTime(date) { return relativeBucket((clock.now() - date.getTime()) / 1000).text; }

  /** Shows only the latest message's time, then waits (on the clock) until its label changes. */
  function refreshRelative() {
    clock.clearTimeout(relativeTimer);
    relativeTimer = null;
    var stamps = ui.messages.querySelectorAll(".parley-time");
    for (var i = 0; i < stamps.length; i++) {
      var latest = i === stamps.length - 1;
      stamps[i].hidden = !latest;
      if (latest) {
        var elapsed = (clock.now() - Number(stamps[i].getAttribute("data-time"))) / 1000;
        var bucket = relativeBucket(elapsed);
        stamps[i].textContent = bucket.text;
        relativeTimer = clock.setTimeout(refreshRelative, Math.max(1, (bucket.next - elapsed) * 1000));
      }
    }
  }

  function dayOf(date) {
    var fields = dateFields(date);
    return fields.year + "-" + fields.month + "-" + fields.day;
  }

  function stamp(row, date) {
    if (!config.enableTimestamp) { return; }
    var node = el("div", "parley-time");
    node.setAttribute("data-time", String(date.getTime()));
    node.setAttribute("data-mode", config.timestampMode === "relative" ? "relative" : "absolute");
    if (config.timestampMode === "relative") {
      var day = dayOf(date);
      if (day !== lastDay) {
        lastDay = day;
        var header = el("div", "parley-day", absoluteTime(date));
        header.setAttribute("data-time", String(date.getTime()));
        ui.messages.insertBefore(header, row);
      }
      row.appendChild(node);
      refreshRelative();
    } else {
      node.textContent = absoluteTime(date);
      row.appendChild(node);
    }
  }

  // --- Rendering payloads -------------------------------------------------------------------------

  // --- Avatars and runs ---------------------------------------------------------------------------
  // As ParleyUI (docs/ui.md §1.1): consecutive messages of one sender (for agents, one agent) on one day form a
  // run; its first message carries the avatar and, for an agent, the agent's name. User: `personAvatar`; skill:
  // `botAvatar`; agent: the agent's `avatarImage` (channelExtensions.agentSession, with what setAgentDetails
  // overrides member by member), else `agentAvatar`, else the name's initials in the agent's colours.

  var agentOverrides = {};       // setAgentDetails(…)
  var agentActive = false;       // the last message came from a live agent

  function cssColor(value) {
    if (typeof value !== "string" || value === "") { return null; }
    if (window.CSS && CSS.supports && !CSS.supports("color", value)) { return null; }
    return value;
  }

  function agentDetails(session) {
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
  function addRow(side, date, who) {
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
  function setPersonAvatar(url) {
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
  function setAgentDetails(details) {
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

  function finishRow(row) {
    stamp(row, row._parleyDate || now());
    scrollToEnd();
  }

  function bubble(text, className) {
    var node = el("div", "parley-bubble" + (className ? " " + className : ""), text);
    return node;
  }

  /** Renders one payload's content (without header, footer or actions) into a new element. */
  function renderContent(payload, context) {
    var type = payload.type;
    var node;
    switch (type) {
      case "text":
        node = bubble(payload.text);
        if (payload.channelExtensions && payload.channelExtensions.displayType === "stars") {
          node.classList.add("parley-stars-text");
        }
        return node;
      case "postback":
        return bubble(typeof payload.text === "string" ? payload.text : JSON.stringify(payload.postback));
      case "attachment":
        return renderAttachment(payload.attachment || {});
      case "location":
        return renderLocation(payload.location || {});
      case "card":
        return renderCards(payload, context);
      case "table":
        return renderTable(payload, context, false);
      case "tableForm":
        return renderTable(payload, context, true);
      case "form":
        return renderForms(payload, context);
      case "editForm":
        return renderEditForm(payload, context);
      case "formSubmission":
        return bubble(Object.keys(payload.submittedFields || {}).map(function (key) {
          return key + ": " + JSON.stringify(payload.submittedFields[key]);
        }).join("\n"));
      case "textStream":
        return bubble(payload.aggregateText !== undefined ? payload.aggregateText : payload.text);
      case "error":
        node = bubble(payload.errorMessage, "parley-error");
        node.setAttribute("role", "alert");
        return node;
      case "raw":
        return el("pre", "parley-raw", JSON.stringify(payload.payload, null, 2));
      default:
        node = el("pre", "parley-raw parley-unknown", JSON.stringify(payload, null, 2));
        return node;
    }
  }

  function renderAttachment(attachment) {
    var box = el("div", "parley-bubble parley-media");
    var url = safeURL(attachment.url, attachment.type === "image" ? ["blob:", "data:"] : ["blob:"]);
    var title = attachment.title || attachment.filename || "";
    if (!url) {
      box.textContent = title || strings.odais_check_url;
      return box;
    }
    var kind = attachment.type;
    var media;
    if (kind === "image") {
      media = el("img");
      media.alt = title;
      media.src = url;
    } else if (kind === "video" || kind === "audio") {
      media = el(kind);
      media.controls = true;
      media.src = url;
    } else {
      media = el("a", "parley-file-link", title || url);
      media.href = url;
      media.target = "_blank";
      media.rel = "noopener noreferrer";
    }
    media.setAttribute("data-attachment-type", String(kind));
    box.appendChild(media);
    if (title && kind !== "file") { box.appendChild(el("div", "parley-footer-text", title)); }
    return box;
  }

  function renderLocation(location) {
    var box = el("div", "parley-bubble parley-location");
    var text = (location.title ? location.title + "\n" : "") +
      Number(location.latitude).toFixed(5) + ", " + Number(location.longitude).toFixed(5);
    var url = safeURL(location.url);
    if (url) {
      var link = el("a", null, text);
      link.href = url;
      link.target = "_blank";
      link.rel = "noopener noreferrer";
      box.appendChild(link);
    } else {
      box.textContent = text;
    }
    return box;
  }

  function renderCards(payload, context) {
    var layout = payload.layout === "vertical" ? "vertical" : "horizontal";
    var box = el("div", "parley-cards parley-cards-" + layout);
    (payload.cards || []).forEach(function (card) {
      var node = el("div", "parley-card");
      var image = safeURL(card.imageUrl);
      if (image) { var img = el("img"); img.src = image; img.alt = card.title || ""; node.appendChild(img); }
      var title = el("div", "parley-card-title");
      var url = safeURL(card.url);
      if (url) {
        var link = el("a", null, card.title);
        link.href = url; link.target = "_blank"; link.rel = "noopener noreferrer";
        title.appendChild(link);
      } else {
        title.textContent = card.title || "";
      }
      node.appendChild(title);
      if (card.description) { node.appendChild(el("div", "parley-card-description", card.description)); }
      if (card.actions && card.actions.length) { node.appendChild(renderActions(card.actions, context, "parley-actions")); }
      box.appendChild(node);
    });
    return box;
  }

  function fieldText(field) {
    var value = field.value;
    if (value === undefined || value === null) { return ""; }
    var text = typeof value === "string" ? value : JSON.stringify(value);
    if (typeof field.truncateAt === "number" && text.length > field.truncateAt) {
      text = text.slice(0, field.truncateAt) + "…";
    }
    return text;
  }

  /** A read-only field: text, link, media or action. */
  function renderReadOnlyField(field, context) {
    var node = el("span", "parley-field-value");
    switch (field.displayType) {
      case "link": {
        var url = safeURL(field.value);
        if (url) {
          var link = el("a", null, field.linkLabel || field.value);
          link.href = url; link.target = "_blank"; link.rel = "noopener noreferrer";
          node.appendChild(link);
        } else {
          node.textContent = fieldText(field);
        }
        return node;
      }
      case "media": {
        var src = safeURL(field.value);
        if (src && field.mediaType === "image") {
          var img = el("img"); img.src = src; img.alt = field.label || ""; img.style.maxWidth = "100%";
          node.appendChild(img);
        } else if (src && (field.mediaType === "video" || field.mediaType === "audio")) {
          var media = el(field.mediaType); media.controls = true; media.src = src; node.appendChild(media);
        } else {
          node.textContent = fieldText(field);
        }
        return node;
      }
      case "action":
        return field.action ? renderAction(field.action, context) : node;
      default:
        node.textContent = fieldText(field);
        return node;
    }
  }

  function formFields(form) {
    if (form.formRows && form.formRows.length) {
      var fields = [];
      form.formRows.forEach(function (row) {
        (row.columns || []).forEach(function (column) { fields = fields.concat(column.fields || []); });
      });
      return fields;
    }
    return form.fields || [];
  }

  function renderReadOnlyForm(form, context, columns) {
    var box = el("div", "parley-form");
    if (form.title) { box.appendChild(el("div", "parley-form-title", form.title)); }
    var grid = el("div", "parley-form-grid");
    grid.style.gridTemplateColumns = "repeat(" + Math.max(1, Math.min(2, columns || 1)) + ", 1fr)";
    formFields(form).forEach(function (field) {
      var cell = el("div", "parley-field");
      if (field.label && field.displayType !== "action") { cell.appendChild(el("div", "parley-field-label", field.label)); }
      cell.appendChild(renderReadOnlyField(field, context));
      grid.appendChild(cell);
    });
    box.appendChild(grid);
    if (form.actions && form.actions.length) { box.appendChild(renderActions(form.actions, context, "parley-actions")); }
    return box;
  }

  function renderForms(payload, context) {
    var box = el("div", "parley-forms");
    (payload.forms || []).forEach(function (form) {
      box.appendChild(renderReadOnlyForm(form, context, payload.formColumns));
    });
    appendPagination(box, payload.paginationInfo);
    return box;
  }

  function appendPagination(box, info) {
    if (info && typeof info.status === "string" && info.totalCount > info.rangeSize) {
      box.appendChild(el("div", "parley-pagination", info.status));
    }
  }

  function renderTable(payload, context, withForms) {
    var box = el("div", "parley-table-box");
    if (payload.tableTitle) { box.appendChild(el("div", "parley-table-title", payload.tableTitle)); }
    var table = el("table", "parley-table");
    var head = el("tr");
    (payload.headings || []).forEach(function (heading) {
      var th = el("th", null, heading.label);
      if (heading.alignment) { th.style.textAlign = heading.alignment; }
      if (typeof heading.width === "number") { th.style.width = heading.width + "%"; }
      head.appendChild(th);
    });
    if (withForms) { head.appendChild(el("th")); }
    var thead = el("thead"); thead.appendChild(head); table.appendChild(thead);
    var body = el("tbody");
    (payload.rows || []).forEach(function (row, index) {
      var tr = el("tr");
      (row.fields || []).forEach(function (field) {
        var td = el("td");
        if (field.alignment) { td.style.textAlign = field.alignment; }
        td.appendChild(renderReadOnlyField(field, context));
        tr.appendChild(td);
      });
      body.appendChild(tr);
      if (withForms) {
        var form = (payload.forms || [])[index];
        var td = el("td");
        var detail = el("tr", "parley-table-form");
        var detailCell = el("td");
        detailCell.colSpan = (payload.headings || []).length + 1;
        if (form) { detailCell.appendChild(renderReadOnlyForm(form, context, payload.formColumns)); }
        detail.appendChild(detailCell);
        detail.hidden = payload.disclosedFormIndex !== index;
        var toggle = el("button", "parley-action parley-show-form", payload.showFormButtonLabel || strings.odais_show_form);
        toggle.type = "button";
        toggle.addEventListener("click", function () { detail.hidden = !detail.hidden; });
        td.appendChild(toggle);
        tr.appendChild(td);
        body.appendChild(detail);
      }
      if (row.selectAction) {
        tr.style.cursor = "pointer";
        tr.title = row.selectAction.label || "";
        tr.addEventListener("click", function (event) {
          if (event.target && event.target.tagName === "BUTTON") { return; }
          performAction(row.selectAction, context, null);
        });
      }
    });
    table.appendChild(body);
    box.appendChild(table);
    appendPagination(box, payload.paginationInfo);
    return box;
  }

  /** An edit form: inputs for every editable field; submitForm actions send a formSubmission. */
  function renderEditForm(payload, context) {
    var form = el("form", "parley-form parley-edit-form");
    form.noValidate = true;
    if (payload.title) { form.appendChild(el("div", "parley-form-title", payload.title)); }
    if (payload.errorMessage) { form.appendChild(el("div", "parley-form-error", payload.errorMessage)); }
    var grid = el("div", "parley-form-grid");
    grid.style.gridTemplateColumns = payload.formRows && payload.formRows.length ? "1fr"
      : "repeat(" + Math.max(1, Math.min(2, payload.formColumns || 1)) + ", 1fr)";
    var readers = {};
    formFields(payload).forEach(function (field) {
      var cell = el("div", "parley-field");
      cell.setAttribute("data-display-type", String(field.displayType));
      if (field.label) { cell.appendChild(el("label", "parley-field-label", field.label)); }
      var reader = renderEditableField(field, cell, context, function () {
        if (field.autoSubmit) { submitForm(readers, null, field.id, context); }
      });
      if (reader && typeof field.id === "string") { readers[field.id] = reader; }
      if (field.serverErrorMessage) { cell.appendChild(el("div", "parley-field-error", field.serverErrorMessage)); }
      grid.appendChild(cell);
    });
    form.appendChild(grid);
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    context.formReaders = readers;
    return form;
  }

  /** Adds the input for `field` to `cell`; returns a function that reads its value. */
  function renderEditableField(field, cell, context, changed) {
    var input;
    switch (field.displayType) {
      case "textInput":
        input = field.multiLine ? el("textarea") : el("input");
        if (!field.multiLine) {
          var styles = ["text", "tel", "url", "email", "password"];
          input.type = styles.indexOf(field.inputStyle) >= 0 ? field.inputStyle : "text";
        }
        if (typeof field.placeholder === "string") { input.placeholder = field.placeholder; }
        if (typeof field.maxLength === "number") { input.maxLength = field.maxLength; }
        if (typeof field.defaultValue === "string") { input.value = field.defaultValue; }
        input.name = String(field.id);
        input.addEventListener("change", changed);
        cell.appendChild(input);
        return function () { return input.value; };
      case "numberInput":
        input = el("input"); input.type = "number"; input.step = "any"; input.name = String(field.id);
        if (typeof field.minValue === "number") { input.min = String(field.minValue); }
        if (typeof field.maxValue === "number") { input.max = String(field.maxValue); }
        if (typeof field.defaultValue === "number") { input.value = String(field.defaultValue); }
        input.addEventListener("change", changed);
        cell.appendChild(input);
        return function () { return input.value === "" ? "" : Number(input.value); };
      case "datePicker":
      case "timePicker":
        input = el("input"); input.type = field.displayType === "datePicker" ? "date" : "time"; input.name = String(field.id);
        var min = field.displayType === "datePicker" ? field.minDate : field.minTime;
        var max = field.displayType === "datePicker" ? field.maxDate : field.maxTime;
        if (typeof min === "string") { input.min = min; }
        if (typeof max === "string") { input.max = max; }
        if (typeof field.defaultValue === "string") { input.value = field.defaultValue; }
        input.addEventListener("change", changed);
        cell.appendChild(input);
        return function () { return input.value; };
      case "toggle":
        input = el("input"); input.type = "checkbox"; input.name = String(field.id);
        input.checked = field.defaultValue !== undefined && JSON.stringify(field.defaultValue) === JSON.stringify(field.valueOn);
        var toggleLabel = el("label", "parley-toggle");
        toggleLabel.appendChild(input);
        var caption = el("span", null, input.checked ? (field.labelOn || "") : (field.labelOff || ""));
        toggleLabel.appendChild(caption);
        input.addEventListener("change", function () {
          caption.textContent = input.checked ? (field.labelOn || "") : (field.labelOff || "");
          changed();
        });
        cell.appendChild(toggleLabel);
        return function () { return input.checked ? field.valueOn : field.valueOff; };
      case "singleSelect":
      case "multiSelect": {
        var multiple = field.displayType === "multiSelect";
        var options = field.options || [];
        var defaults = multiple ? (Array.isArray(field.defaultValue) ? field.defaultValue : [])
          : (field.defaultValue === undefined ? [] : [field.defaultValue]);
        var valueOf = function (option) { return option.value === undefined ? option.label : option.value; };
        var isDefault = function (option) {
          return defaults.some(function (value) { return JSON.stringify(value) === JSON.stringify(valueOf(option)); });
        };
        if (field.layoutStyle === "radioGroup" || field.layoutStyle === "checkboxes") {
          var group = el("div", "parley-choice-group");
          var boxes = [];
          options.forEach(function (option, index) {
            var label = el("label", "parley-choice");
            var box = el("input");
            box.type = multiple ? "checkbox" : "radio";
            box.name = String(field.id);
            box.value = String(index);
            box.checked = isDefault(option);
            box.addEventListener("change", changed);
            label.appendChild(box);
            label.appendChild(el("span", null, option.label));
            group.appendChild(label);
            boxes.push(box);
          });
          cell.appendChild(group);
          return function () {
            var chosen = boxes.filter(function (b) { return b.checked; }).map(function (b) { return valueOf(options[Number(b.value)]); });
            return multiple ? chosen : (chosen.length ? chosen[0] : "");
          };
        }
        input = el("select"); input.name = String(field.id); input.multiple = multiple;
        if (!multiple) { input.appendChild(el("option", null, "")); }
        options.forEach(function (option, index) {
          var item = el("option", null, option.label);
          item.value = String(index);
          item.selected = isDefault(option);
          input.appendChild(item);
        });
        input.addEventListener("change", changed);
        cell.appendChild(input);
        return function () {
          var chosen = Array.prototype.filter.call(input.options, function (o) { return o.selected && o.value !== ""; })
            .map(function (o) { return valueOf(options[Number(o.value)]); });
          return multiple ? chosen : (chosen.length ? chosen[0] : "");
        };
      }
      default:
        cell.appendChild(renderReadOnlyField(field, context));
        return null;
    }
  }

  function submitForm(readers, action, partialField, context) {
    var submitted = {};
    Object.keys(readers).forEach(function (id) {
      var value = readers[id]();
      if (value === "" || (Array.isArray(value) && value.length === 0) || value === undefined) { return; }
      submitted[id] = value;
    });
    var payload = { type: "formSubmission", submittedFields: submitted };
    if (partialField) {
      payload.partialSubmitField = partialField;
    } else if (action && action.postback !== undefined) {
      payload.postback = action.postback;
    }
    if (!partialField) { showUserMessage(payload); }
    sendPayload(payload, true, Boolean(partialField));
  }

  function renderActions(actions, context, className) {
    var vertical = config.actionsLayout === "vertical";
    var box = el("div", className + (vertical ? " parley-vertical" : ""));
    actions.forEach(function (action) {
      var node = renderAction(action, context);
      if (node) { box.appendChild(node); }
    });
    return box;
  }

  /** One action as a button or link. Actions without a label or image are skipped (protocol §6.1). */
  function renderAction(action, context) {
    if (!isObject(action)) { return null; }
    var label = typeof action.label === "string" ? action.label : "";
    var image = safeURL(action.imageUrl);
    if (label === "" && !image) { return null; }
    var node;
    var link = null;
    if (action.type === "url") { link = safeURL(action.url); }
    if (action.type === "call" && typeof action.phoneNumber === "string") {
      link = "tel:" + action.phoneNumber.replace(/[^0-9+*#]/g, "");
    }
    if (link) {
      node = el("a", "parley-action");
      node.href = link;
      if (action.type === "url") { node.target = "_blank"; node.rel = "noopener noreferrer"; }
    } else {
      node = el("button", "parley-action");
      node.type = "button";
      node.addEventListener("click", function () { performAction(action, context, node); });
    }
    node.setAttribute("data-action-type", String(action.type));
    if (typeof action.tooltip === "string") { node.title = action.tooltip; }
    if (image) { var img = el("img"); img.src = image; img.alt = label; node.appendChild(img); }
    if (label) { node.appendChild(el("span", null, label)); }
    if (action.style === "primary" || action.type === "submitForm") { node.classList.add("parley-primary"); }
    if (action.style === "danger") { node.classList.add("parley-danger"); }
    return node;
  }

  function performAction(action, context, node) {
    switch (action.type) {
      case "postback": {
        var payload = { type: "postback", postback: action.postback };
        if (typeof action.label === "string") { payload.text = action.label; }
        showUserMessage({ type: "text", text: action.label || "" });
        sendPayload(payload, true);
        if (node && config.disablePastActions !== "none") { node.disabled = true; }
        return;
      }
      case "submitForm":
        submitForm(context.formReaders || {}, action, null, context);
        return;
      case "location":
        shareLocation();
        return;
      case "share":
        shareText(context.text || "");
        return;
      case "webview": {
        var url = safeURL(action.url);
        if (url) { window.open(url, "_blank", "noopener"); }
        return;
      }
      case "client":
        if (action.actionType === "copyMessageText") { copyText(context.text || ""); }
        post({ event: "clientAction", action: action });
        return;
      case "popup":
        if (isObject(action.popupContent)) { showPopup(action.popupContent); }
        return;
      default:
        post({ event: "clientAction", action: action });
    }
  }

  function shareLocation() {
    if (!navigator.geolocation) { notice(strings.odais_location_error); return; }
    navigator.geolocation.getCurrentPosition(function (position) {
      var payload = {
        type: "location",
        location: { latitude: position.coords.latitude, longitude: position.coords.longitude }
      };
      showUserMessage(payload);
      sendPayload(payload, true);
    }, function (error) {
      notice(strings.odais_location_error);
      reportError("widget.location", error && error.message ? error.message : "location unavailable");
    }, { timeout: 10000 });
  }

  function shareText(text) {
    if (navigator.share) { navigator.share({ text: text }).catch(function () {}); } else { copyText(text); }
  }

  function copyText(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) { navigator.clipboard.writeText(text).catch(function () {}); }
  }

  function showPopup(payload) {
    var overlay = el("div", "parley-overlay");
    var dialog = el("div", "parley-dialog");
    var context = { text: payload.text || "", popup: overlay };
    dialog.appendChild(renderPayload(payload, context));
    var close = el("button", "parley-action", strings.odais_done);
    close.type = "button";
    close.addEventListener("click", function () { overlay.remove(); });
    dialog.appendChild(close);
    overlay.appendChild(dialog);
    ui.root.appendChild(overlay);
  }

  /** A payload with its header text, content, footer text, actions, global actions and footer form. */
  function renderPayload(payload, context) {
    var box = el("div", "parley-payload");
    box.setAttribute("data-type", String(payload.type));
    if (payload.headerText) { box.appendChild(el("div", "parley-header-text", payload.headerText)); }
    box.appendChild(renderContent(payload, context));
    if (payload.footerText) { box.appendChild(el("div", "parley-footer-text", payload.footerText)); }
    if (Array.isArray(payload.actions) && payload.actions.length) {
      var stars = payload.channelExtensions && payload.channelExtensions.displayType === "stars";
      box.appendChild(renderActions(payload.actions, context, "parley-actions" + (stars ? " parley-stars" : "")));
    }
    if (isObject(payload.footerForm)) { box.appendChild(renderReadOnlyForm(payload.footerForm, context, 1)); }
    if (Array.isArray(payload.globalActions) && payload.globalActions.length) {
      box.appendChild(renderActions(payload.globalActions, context, "parley-actions parley-global-actions"));
    }
    return box;
  }

  // --- Messages in and out ------------------------------------------------------------------------

  function disablePastActions(kind) {
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

  function showUserMessage(payload) {
    var row = addRow("user", now());
    row.appendChild(renderPayload(payload, { text: payload.text || "" }));
    finishRow(row);
  }

  function summary(payload) {
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

  function receiveMessage(frame) {
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
    if (!entry || payload.streamState === "start") {
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

  function sendFrame(frame) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify(frame));
    } else {
      outbox.push(frame);
      if (ended || (status === "disconnected" && !reconnectTimer)) { ended = false; connect(); }
    }
  }

  function sendPayload(payload, expectReply, keepActions) {
    if (!keepActions) { disablePastActions(payload.type); }
    sendFrame({ messagePayload: payload, userId: config.userId, sdkMetadata: { version: SDK_VERSION } });
    if (expectReply) {
      showTyping(true);
      waitForReply(!userSent);
      userSent = true;
    }
  }

  // --- Default client responses -------------------------------------------------------------------
  // As ParleyClient (enableDefaultClientResponse): after the conversation's first user message, the greeting
  // (odais_default_greeting_message) after defaultGreetingTimeout; then, and after later messages from the
  // start, the wait message (odais_default_wait_message) every defaultWaitMessageInterval; at
  // typingStatusTimeout the sorry message (odais_default_sorry_message), and the typing indicator goes. Any
  // message from the skill or an agent stops it; not while a live agent has the conversation.

  var replyWait = 0;             // counts the waits, so that a late timer of an earlier wait does nothing
  var defaultTimer = null;
  var userSent = false;          // the user sent something in this conversation

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
  function setPrimaryLanguage(requested) {
    if (requested !== null && requested !== undefined && typeof requested !== "string") {
      reportError("bridge.invalidArgument", "setPrimaryLanguage takes a language tag or null");
      return false;
    }
    var chosen = resolveLanguage(requested);
    if (chosen === language) { if (ui.language) { ui.language.value = language || "und"; } return true; }
    language = chosen;
    if (started) { saveLanguage(); } else { languagePicked = true; }
    clearConversation();
    relabel();
    userSent = false;
    try {
      window.dispatchEvent(new CustomEvent("parley:language", { detail: { language: language } }));
    } catch (e) { /* old browser */ }
    if (!initialised) { return true; }  // the opening, still to come, carries the language
    sendFrame({ profile: { languageTag: language || "und" }, userId: config.userId, sdkMetadata: { version: SDK_VERSION } });
    if (typeof config.initUserHiddenMessage === "string" && config.initUserHiddenMessage !== "") {
      sendFrame({ messagePayload: { type: "text", text: config.initUserHiddenMessage }, userId: config.userId });
      showTyping(true);
    }
    return true;
  }

  function sendText(text) {
    var payload = { type: "text", text: text };
    showUserMessage(payload);
    sendPayload(payload, true);
  }

  // --- Speech -------------------------------------------------------------------------------------
  // Oracle's speech protocol (docs/speech.md): the microphone streams 16 kHz, 16-bit mono PCM over
  // /voice/stream/recognize/{locale}/generic (first frame "Bearer <JWT>" on an authenticated channel); the server
  // answers partialResult and finalResult frames, and finds the end of the utterance itself. A click while
  // recording sends "Done". The final text is sent with sdkMetadata.speechId (enableSpeechAutoSend), or put in the
  // input field. Replies are read aloud through /tts/speak (enableBotAudioResponse) unless muted.

  var speech = { active: false, socket: null, stream: null, context: null, processor: null, source: null };
  var audio = { muted: true, context: null, playing: null, queue: [] };

  function voiceURL() {
    var locale = String(config.speechLocale || "en-us").toLowerCase();
    return (secure() ? "wss://" : "ws://") + host() + "/voice/stream/recognize/" + encodeURIComponent(locale)
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

  function startRecording() {
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
    showTyping(true);
    waitForReply(!userSent);
    userSent = true;
  }

  /** The user's second click: no more audio; the server's final result follows ("Done", as Oracle's Web SDK). */
  function stopRecording() {
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

  function drawMute() {
    ui.mute.textContent = audio.muted ? "\uD83D\uDD07" : "\uD83D\uDD0A";  // speaker off / on
    var label = audio.muted ? strings.odais_access_label_button_audio_reponse_off
      : strings.odais_access_label_button_audio_reponse_on;
    ui.mute.setAttribute("aria-label", label);
    ui.mute.title = label;
    ui.mute.setAttribute("aria-pressed", audio.muted ? "true" : "false");
  }

  function setAudioMuted(muted) {
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

  function speakReply(payload) {
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
  function stopSpeech() {
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

  // --- Attachments --------------------------------------------------------------------------------

  function upload(file) {
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

  // --- Connection ---------------------------------------------------------------------------------

  function connect() {
    if (!config.channelId || !started) { return; }
    if (socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)) { return; }
    if (needsSession()) { obtainSession(connect); return; }
    clearTimeout(reconnectTimer);
    reconnectTimer = null;
    ended = false;
    setStatus("connecting");
    var url = (secure() ? "wss://" : "ws://") + host() + "/chat/v1/chats/sockets/websdk?" + query();
    var opened = new WebSocket(url);
    socket = opened;
    opened.addEventListener("open", function () {
      if (socket !== opened) { return; }
      reconnectAttempts = 0;
      sessionRenewed = false;
      if (config.token) { opened.send(JSON.stringify({ state: { type: "auth", tokenType: "jwt", token: config.token } })); }
      setStatus("connected");
      clearInterval(heartbeatTimer);
      heartbeatTimer = setInterval(function () {
        if (opened.readyState === WebSocket.OPEN) { opened.send(JSON.stringify({ state: { type: "ping" } })); }
      }, 30000);
      if (!initialised) {
        initialised = true;
        // As ParleyClient's opening: initUserProfile, with the chosen language as its languageTag.
        var profile = null;
        if (isObject(config.initUserProfile)) {
          profile = JSON.parse(JSON.stringify(isObject(config.initUserProfile.profile)
            ? config.initUserProfile : { profile: config.initUserProfile }));
        }
        if (language) {
          profile = profile || { profile: {} };
          profile.profile.languageTag = language;
        }
        if (profile) { opened.send(JSON.stringify(profile)); }
        if (typeof config.initUserHiddenMessage === "string" && config.initUserHiddenMessage !== "") {
          opened.send(JSON.stringify({ messagePayload: { type: "text", text: config.initUserHiddenMessage }, userId: config.userId }));
          showTyping(true);
        }
      }
      var waiting = outbox;
      outbox = [];
      waiting.forEach(function (frame) { opened.send(JSON.stringify(frame)); });
    });
    opened.addEventListener("message", function (event) {
      if (socket !== opened) { return; }
      var frame;
      try { frame = JSON.parse(event.data); } catch (e) { return; }
      if (!isObject(frame)) { return; }
      if (isObject(frame.messagePayload)) { receiveMessage(frame); }
      // state frames (pong, Parley's extension) and suggestions are not used by the widget
    });
    opened.addEventListener("close", function (event) {
      if (socket !== opened) { return; }
      socket = null;
      clearInterval(heartbeatTimer);
      setStatus("disconnected");
      endWaitingForReply();  // as ParleyClient: the connection went, no default response follows
      showTyping(false);
      if (ended) { return; }
      if (event.code === 4009 && usesSessionSecrets && session && !sessionRenewed) {
        // session.expired: renew the secret with itself, for the same user id, and reconnect (once per socket).
        sessionRenewed = true;
        expiredSecret = session.sessionSecret;
        session = null;
        connect();
        return;
      }
      if (SESSION_CLOSE_CODES.indexOf(event.code) >= 0 && usesSessionSecrets && !sessionRenewed) {
        // The server does not know the stored secret (its data was reset, say): ask for a new one, once.
        sessionRenewed = true;
        forgetSession();
        connect();
        return;
      }
      if (FINAL_CLOSE_CODES.indexOf(event.code) >= 0) {
        if (event.code !== 1000) {
          var reason = String(event.reason || "");
          var split = reason.indexOf(": ");
          var code = split > 0 ? reason.slice(0, split) : "socket.closed." + event.code;
          var message = split > 0 ? reason.slice(split + 2) : "the server closed the connection (" + event.code + ")";
          reportError(code, message);
        }
        return;
      }
      if (reconnectAttempts < Number(config.reconnectMaxAttempts)) {
        reconnectAttempts += 1;
        reconnectTimer = setTimeout(function () { reconnectTimer = null; connect(); }, Number(config.reconnectInterval) * 1000);
      } else {
        reportError("socket.unreachable", "the chat server cannot be reached");
      }
    });
  }

  function disconnect() {
    var current = socket;
    socket = null;
    clearInterval(heartbeatTimer);
    clearTimeout(reconnectTimer);
    reconnectTimer = null;
    if (current) { try { current.close(1000); } catch (e) { /* already closed */ } }
    setStatus("disconnected");
  }

  /** The clear button (enableClearMessage): the messages on this page go; the conversation goes on. */
  function clearConversation() {
    var rows = ui.messages.querySelectorAll(".parley-row, .parley-notice, .parley-day");
    for (var i = 0; i < rows.length; i++) { rows[i].remove(); }
    streams = {};
    lastDay = null;
    clock.clearTimeout(relativeTimer);
    relativeTimer = null;
    endWaitingForReply();
    showTyping(false);
  }

  /** The end button (enableEndConversation) asks first, with ParleyUI's prompt. */
  function askToEndConversation() {
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
  function endConversation() {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ messagePayload: { type: "closeSession" }, userId: config.userId }));
    }
    ended = true;
    initialised = false;
    userSent = false;
    agentActive = false;
    outbox = [];
    disconnect();
    clearConversation();
    notice(strings.parley_conversation_ended);
    try { window.dispatchEvent(new CustomEvent("parley:chatEnd", { detail: {} })); } catch (e) { /* old browser */ }
  }

  // --- The bridge's commands ----------------------------------------------------------------------

  /**
   * `setAppInfo(apiKey, uid)`, miibo's call after agentLoaded. For Parley, `apiKey` is the channel's JWT
   * (empty or null on an unauthenticated channel) and `uid` the user id. Reconnects when either changes.
   */
  function setAppInfo(apiKey, uid) {
    if (isObject(apiKey)) { uid = apiKey.userId; apiKey = apiKey.token; }
    if ((apiKey !== undefined && apiKey !== null && typeof apiKey !== "string") ||
        (uid !== undefined && uid !== null && typeof uid !== "string")) {
      reportError("bridge.invalidArgument", "setAppInfo takes two strings");
      return false;
    }
    var token = apiKey ? apiKey : null;
    var user = uid ? uid : config.userId;
    if (uid) { userIdGiven = true; }
    var changed = token !== config.token || user !== config.userId;
    config.token = token;
    config.userId = user;
    appInfoReceived = true;
    if (changed && socket) { disconnect(); }
    if (config.channelId) { connect(); }
    return true;
  }

  /** `sendMessage(text)`: sends text as if the user had typed it. */
  function sendMessage(text) {
    if (typeof text !== "string" || text.trim() === "") {
      reportError("bridge.invalidArgument", "sendMessage takes a non-empty string");
      return false;
    }
    sendText(text);
    return true;
  }

  var api = {
    setAppInfo: setAppInfo,
    sendMessage: sendMessage,
    clearConversation: clearConversation,
    endConversation: endConversation,
    setPrimaryLanguage: setPrimaryLanguage,
    chatLanguage: function () { return language; },
    setPersonAvatar: setPersonAvatar,
    setAgentDetails: setAgentDetails,
    getAgentDetails: function () { return agentDetails(null); },
    strings: function () { return JSON.parse(JSON.stringify(strings)); },
    stringTables: function () { return JSON.parse(JSON.stringify(STRING_TABLES)); },
    appInfo: function () { return { apiKey: config.token, uid: config.userId, channelId: config.channelId }; },
    status: function () { return status; },
    configuration: function () { return JSON.parse(JSON.stringify(config)); },
    startRecording: startRecording,
    stopRecording: stopRecording,
    isRecording: function () { return speech.active; },
    stopSpeech: stopSpeech,
    setAudioMuted: setAudioMuted,
    isAudioMuted: function () { return audio.muted; }
  };
  window.parley = api;
  window.setAppInfo = setAppInfo;
  window.sendMessage = sendMessage;

  // --- Start --------------------------------------------------------------------------------------

  function start(serverDefaults) {
    if (!config.channelId && serverDefaults && typeof serverDefaults.channelId === "string") {
      config.channelId = serverDefaults.channelId;
    }
    if (serverDefaults && typeof serverDefaults.maxAttachmentSize === "number") {
      config.maxAttachmentSize = serverDefaults.maxAttachmentSize;
    }
    usesSessionSecrets = Boolean(serverDefaults && serverDefaults.sessionSecrets === true &&
      serverDefaults.channelId === config.channelId);
    if (!config.channelId) {
      notice("No channel to connect to.");
      post({ event: "agentLoaded" });
      reportError("widget.noChannel", "the server has no unauthenticated channel and none was configured");
      return;
    }
    userIdGiven = typeof config.userId === "string" && config.userId !== "";
    if (!userIdGiven) {
      var stored = usesSessionSecrets ? storedSession() : null;
      config.userId = stored ? stored.userId : storedUserId(config.channelId);
    }
    started = true;
    loadLanguage();
    relabel();
    post({ event: "agentLoaded" });
    loaded.problems.forEach(function (problem) { reportError("widget.invalidConfiguration", problem); });
    var wait = typeof config.waitForAppInfo === "boolean" ? config.waitForAppInfo : bridgeHandler() !== null;
    if (!wait || appInfoReceived) { connect(); }
  }

  function boot() {
    audio.muted = config.initBotAudioMuted !== false;
    buildPage();
    // Asked even when the page names the channel: the answer says whether it wants a session secret.
    var named = config.channelId ? "?channelId=" + encodeURIComponent(config.channelId) : "";
    fetch(httpBase() + "/widget/config" + named, { headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .catch(function () { return null; })
      .then(start);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", boot);
  } else {
    boot();
  }
})();
