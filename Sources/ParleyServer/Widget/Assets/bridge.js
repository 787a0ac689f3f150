/*
 * The web-view bridge (docs/web-bridge.md): events go to the host app's WebKit message handler as JSON strings
 * (miibo's shape) and to the page as `parley:bridge` DOM events; the host's commands are `setAppInfo(apiKey, uid)`
 * and `sendMessage(text)` on window, with the rest of the page's API on `window.parley` (parley-widget.js).
 */

import { config, isObject } from "./configuration.js";
import { userIdWasGiven } from "./identity.js";
import { appInfoArrived } from "./chat.js";
import { sendText } from "./conversation.js";

export function bridgeHandler() {
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
export function post(event) {
  var handler = bridgeHandler();
  if (handler) {
    try { handler.postMessage(JSON.stringify(event)); } catch (e) { /* the host went away */ }
  }
  try { window.dispatchEvent(new CustomEvent("parley:bridge", { detail: event })); } catch (e) { /* old browser */ }
}

export function reportError(code, message) {
  post({ error: { code: String(code), message: String(message) } });
}

// --- The bridge's commands ----------------------------------------------------------------------

/**
 * `setAppInfo(apiKey, uid)`, miibo's call after agentLoaded. For Parley, `apiKey` is the channel's JWT
 * (empty or null on an unauthenticated channel) and `uid` the user id. Reconnects when either changes.
 */
export function setAppInfo(apiKey, uid) {
  if (isObject(apiKey)) { uid = apiKey.userId; apiKey = apiKey.token; }
  if ((apiKey !== undefined && apiKey !== null && typeof apiKey !== "string") ||
      (uid !== undefined && uid !== null && typeof uid !== "string")) {
    reportError("bridge.invalidArgument", "setAppInfo takes two strings");
    return false;
  }
  var token = apiKey ? apiKey : null;
  var user = uid ? uid : config.userId;
  if (uid) { userIdWasGiven(); }
  var changed = token !== config.token || user !== config.userId;
  config.token = token;
  config.userId = user;
  appInfoArrived(changed);
  return true;
}

/** `sendMessage(text)`: sends text as if the user had typed it. */
export function sendMessage(text) {
  if (typeof text !== "string" || text.trim() === "") {
    reportError("bridge.invalidArgument", "sendMessage takes a non-empty string");
    return false;
  }
  sendText(text);
  return true;
}
