/*
 * Who the widget chats as: the user id (generated, kept in localStorage, or given by the host) and, on a channel
 * with session secrets, the secret that binds it (docs/security.md, "Identity on open channels").
 */

import { config, httpBase, isObject } from "./configuration.js";

let usesSessionSecrets = false; // /widget/config says the channel binds user ids to session secrets
let session = null;             // {userId, sessionSecret} for config.userId on such a channel
let sessionRequest = null;      // the POST /chat/v1/sessions under way: a promise of the session
let expiredSecret = null;       // the secret a 4009 close (session.expired) ended: renewed with itself
let userIdGiven = false;        // the host chose the user id (configuration or setAppInfo)

/**
 * The user id for the channel `/widget/config` named (`serverDefaults`): the host's, else the stored session's,
 * else the one kept for the channel, else a new one.
 */
export function chooseUserId(serverDefaults) {
  usesSessionSecrets = Boolean(serverDefaults && serverDefaults.sessionSecrets === true &&
    serverDefaults.channelId === config.channelId);
  userIdGiven = typeof config.userId === "string" && config.userId !== "";
  if (!userIdGiven) {
    var stored = usesSessionSecrets ? storedSession() : null;
    config.userId = stored ? stored.userId : storedUserId(config.channelId);
  }
}

/** Whether the channel binds user ids to session secrets. */
export function channelUsesSessionSecrets() { return usesSessionSecrets; }

/** The host chose the user id (setAppInfo with a uid). */
export function userIdWasGiven() { userIdGiven = true; }

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

/**
 * The session secret was refused: forget it (4007, 4008), or, when it expired (4009), keep it to renew the binding
 * of the same user id with it.
 */
export function discardSession(renew) {
  if (renew && session) {
    expiredSecret = session.sessionSecret;
    session = null;
  } else {
    forgetSession();
  }
}

/** Whether the socket needs a session secret first. */
export function needsSession() {
  return usesSessionSecrets && !config.token && !(session && session.userId === config.userId);
}

/**
 * Gets the session secret of config.userId, from storage or by asking the server: a promise that resolves when the
 * secret is in hand, or rejects with a coded error ({code, message}). A user id the widget made and the server
 * already bound elsewhere is replaced by one the server makes; a user id the host chose is not.
 */
export function obtainSession() {
  if (sessionRequest) { return sessionRequest; }
  var stored = storedSession();
  // A stored secret other than the expired one (another tab of the page renewed it already) is used as it is.
  if (stored && stored.sessionSecret !== expiredSecret && (stored.userId === config.userId || !config.userId)) {
    session = stored;
    config.userId = stored.userId;
    expiredSecret = null;
    return Promise.resolve(session);
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
        throw coded && typeof coded.code === "string" ? coded
          : { code: "session.failed", message: "the session request failed with HTTP " + answer.status };
      }
      config.userId = answer.body.userId;
      expiredSecret = null;
      keepSession({ userId: answer.body.userId, sessionSecret: answer.body.sessionSecret });
      return session;
    }, function (error) {
      sessionRequest = null;
      throw error && error.code ? error
        : { code: "session.failed", message: error && error.message ? error.message : String(error) };
    });
  return sessionRequest;
}

/** The query of the socket, upload and speech URLs: the channel, the user id and its session secret. */
export function query() {
  var text = "channelId=" + encodeURIComponent(config.channelId) + "&userId=" + encodeURIComponent(config.userId);
  if (usesSessionSecrets && session && session.userId === config.userId) {
    text += "&sessionSecret=" + encodeURIComponent(session.sessionSecret);
  }
  return text;
}
