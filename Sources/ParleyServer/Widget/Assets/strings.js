/*
 * The widget's texts and the chat language, as ParleyUI's (docs/ui.md §4). The tables are ParleyUI's `.strings`
 * files (Sources/ParleyUI/Resources/Strings), which the server serves as JSON (`GET /widget/strings.json`, one
 * object of texts by key per language), the widget's own buttons and notices (`parley_send`, …) included.
 *
 * The screen's language is the chat language the user chose, else `locale`, else the browser's. A text is the
 * override for that language (exact tag, then its language), then the override for every language, then the
 * table (exact, then language), then English, then the key.
 */

import { config, isObject, normalTag } from "./configuration.js";

/** The tables by language tag: ParleyUI's texts, once loaded. */
export const tables = {};
/** Every text in the screen's language (computeStrings); replaced in place, so that importers keep it. */
export const strings = {};

let language = null;          // the chat language chosen (a tag), or null: the skill detects it
let languagePicked = false;   // setPrimaryLanguage ran before the channel was known: keep that choice

/**
 * Loads ParleyUI's tables from the server that served this script (its `strings.json` beside it). Resolves to
 * null, or to an error ({code, message}) when they could not be read: the widget then shows the keys.
 */
export function loadStringTables() {
  var url = new URL("strings.json", import.meta.url).href;
  return fetch(url, { headers: { Accept: "application/json" } })
    .then(function (response) {
      if (!response.ok) { throw new Error("HTTP " + response.status); }
      return response.json();
    })
    .then(function (served) {
      if (!isObject(served)) { throw new Error("not an object"); }
      Object.keys(served).forEach(function (tag) {
        if (!isObject(served[tag])) { return; }
        var name = normalTag(tag);
        tables[name] = Object.assign(tables[name] || {}, served[tag]);
      });
      return null;
    })
    .catch(function (error) {
      return { code: "widget.stringsUnavailable", message: "the texts could not be loaded from " + url + ": " + error };
    });
}

export function format(template, value) { return String(template).split("{0}").join(String(value)); }

export function screenLocale() {
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
    var table = tables[chain[i]];
    if (table && typeof table[key] === "string") { return table[key]; }
  }
  return tables.en && typeof tables.en[key] === "string" ? tables.en[key] : key;
}

/** Puts every text of the English table (the complete one) into `strings`, in the screen's language. */
export function computeStrings() {
  var locale = screenLocale();
  Object.keys(strings).forEach(function (key) { delete strings[key]; });
  Object.keys(tables.en || {}).forEach(function (key) { strings[key] = lookup(key, locale); });
}

/** The text of `key` in the screen's language (a key without a text is itself). */
export function text(key) { return typeof strings[key] === "string" ? strings[key] : key; }

// --- The chat language ---------------------------------------------------------------------------------------------

/** The chat language chosen (a tag), or null: the skill detects it. */
export function chatLanguage() { return language; }

/** Chooses the chat language (null for detection); kept for the channel once it is known (`started`). */
export function chooseLanguage(chosen, started) {
  language = chosen;
  if (started) { saveLanguage(); } else { languagePicked = true; }
}

/** `multiLangChat.supportedLanguages`, the entries with a `lang`. */
export function supportedLanguages() {
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
export function resolveLanguage(requested) {
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
export function languageName(entry) {
  if (typeof entry.label === "string" && entry.label !== "") { return entry.label; }
  try {
    var name = new Intl.DisplayNames([screenLocale()], { type: "language" }).of(entry.lang);
    if (name && name !== entry.lang) { return name.charAt(0).toLocaleUpperCase(screenLocale()) + name.slice(1); }
  } catch (e) { /* an old browser, or not a tag */ }
  return entry.lang;
}

function languageKey() { return "parley.language." + config.channelId; }

/** The language kept for this channel (the user's last choice), else `multiLangChat.primaryLanguage`. */
export function loadLanguage() {
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
