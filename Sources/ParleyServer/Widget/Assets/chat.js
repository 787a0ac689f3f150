/*
 * The chat socket (docs/protocol.md): performs what the connection machine (connection.js) asks — getting the
 * session secret, opening and closing the socket, the handshake and heartbeat pings, timers on the browser's clock,
 * the opening and the outbox — and feeds it what happens. Frames with a payload go to conversation.js.
 */

import { ConnectionMachine } from "./connection.js";
import { config, isObject, socketBase } from "./configuration.js";
import { channelUsesSessionSecrets, discardSession, needsSession, obtainSession, query } from "./identity.js";
import { chatLanguage } from "./strings.js";
import { setStatus, showTyping } from "./page.js";
import { connectionLost, receiveMessage } from "./conversation.js";
import { reportError } from "./bridge.js";

const machine = new ConnectionMachine();
let current = null;            // {attempt, socket}: the socket of the machine's current attempt
let timer = null;              // the machine's one timer (window.setTimeout)
let events = [];               // events waiting while the actions of an earlier one are performed
let handling = false;
let outbox = [];               // frames waiting for a connected socket
let started = false;           // the server's /widget/config answer is in (or failed)
let appInfoReceived = false;   // the host called setAppInfo
let initialised = false;       // the opening (initUserProfile, initUserHiddenMessage) was sent

/** "disconnected", "connecting" or "connected". */
export function connectionStatus() { return machine.status; }

/** Whether the channel is known, so that the widget may connect. */
export function hasStarted() { return started; }

/** Whether this conversation's opening was sent. */
export function openingSent() { return initialised; }

/** Feeds the machine an event and performs its actions, in order; events from the actions queue behind them. */
function handle(event) {
  events.push(event);
  if (handling) { return; }
  handling = true;
  try {
    while (events.length) { machine.handle(events.shift()).forEach(perform); }
  } finally {
    handling = false;
  }
}

function perform(action) {
  switch (action.type) {
    case "prepareSocket":
      prepare(action.attempt);
      return;
    case "openSocket":
      open(action.attempt);
      return;
    case "sendHandshake":
      if (config.token) { send({ state: { type: "auth", tokenType: "jwt", token: config.token } }); }
      send({ state: { type: "ping" } });
      return;
    case "sendPing":
      send({ state: { type: "ping" } });
      return;
    case "closeSocket":
      closeSocket(action.reason);
      return;
    case "startTimer":
      window.clearTimeout(timer);
      timer = window.setTimeout(function () { timer = null; handle({ type: "timerFired", id: action.id }); },
        action.delay);
      return;
    case "cancelTimer":
      window.clearTimeout(timer);
      timer = null;
      return;
    case "flushOutbox":
      flush();
      return;
    case "discardSession":
      discardSession(action.renew);
      return;
    case "reportError":
      reportError(action.error.code, action.error.message);
      return;
    case "statusChanged":
      setStatus(action.status);
      return;
  }
}

/** The session secret first when the channel wants one; then the socket may open. */
function prepare(attempt) {
  if (!needsSession()) {
    handle({ type: "socketPrepared", attempt: attempt });
    return;
  }
  obtainSession().then(function () {
    handle({ type: "socketPrepared", attempt: attempt });
  }, function (error) {
    handle({ type: "socketFailed", attempt: attempt, error: error });
  });
}

function open(attempt) {
  var socket;
  try {
    socket = new WebSocket(socketBase() + "/chat/v1/chats/sockets/websdk?" + query());
  } catch (error) {
    handle({ type: "socketFailed", attempt: attempt,
      error: { code: "client.connectionFailed", message: String(error && error.message || error) } });
    return;
  }
  current = { attempt: attempt, socket: socket };
  socket.addEventListener("open", function () {
    if (isCurrent(socket)) { handle({ type: "socketOpened", attempt: attempt }); }
  });
  socket.addEventListener("message", function (event) {
    if (!isCurrent(socket)) { return; }
    var frame;
    try { frame = JSON.parse(event.data); } catch (e) { return; }
    if (!isObject(frame)) { return; }
    if (isObject(frame.state) && frame.state.type === "pong") { handle({ type: "pongReceived", attempt: attempt }); }
    if (isObject(frame.messagePayload)) { receiveMessage(frame); }
    // other state frames and suggestions are not used by the widget
  });
  socket.addEventListener("close", function (event) {
    if (!isCurrent(socket)) { return; }
    handle({ type: "socketClosed", attempt: attempt, code: event.code, reason: event.reason });
  });
}

function isCurrent(socket) { return current !== null && current.socket === socket; }

/** Sends on the current socket, if it is open. */
function send(frame) {
  if (current && current.socket.readyState === WebSocket.OPEN) { current.socket.send(JSON.stringify(frame)); }
}

function closeSocket(reason) {
  var closing = current;
  current = null;
  connectionLost();
  if (!closing) { return; }
  try { closing.socket.close(1000, reason ? String(reason).slice(0, 100) : undefined); } catch (e) { /* closed */ }
}

/** Connected: the opening once per conversation, then what waited. */
function flush() {
  if (!initialised) {
    initialised = true;
    // As ParleyClient's opening: initUserProfile, with the chosen language as its languageTag.
    var profile = null;
    if (isObject(config.initUserProfile)) {
      profile = JSON.parse(JSON.stringify(isObject(config.initUserProfile.profile)
        ? config.initUserProfile : { profile: config.initUserProfile }));
    }
    if (chatLanguage()) {
      profile = profile || { profile: {} };
      profile.profile.languageTag = chatLanguage();
    }
    if (profile) { send(profile); }
    if (typeof config.initUserHiddenMessage === "string" && config.initUserHiddenMessage !== "") {
      send({ messagePayload: { type: "text", text: config.initUserHiddenMessage }, userId: config.userId });
      showTyping(true);
    }
  }
  var waiting = outbox;
  outbox = [];
  waiting.forEach(send);
}

/** Sends a frame, or keeps it until the socket is connected (and asks for a connection when none is wanted). */
export function sendFrame(frame) {
  if (machine.state.name === "connected" && current && current.socket.readyState === WebSocket.OPEN) {
    send(frame);
    return;
  }
  outbox.push(frame);
  if (!machine.wantsConnection) { connect(); }
}

/** Connects, once the channel is known. */
export function connect() {
  if (!config.channelId || !started) { return; }
  handle({ type: "connectRequested" });
}

/** Closes the socket and stops reconnecting. */
export function disconnect(reason) {
  handle({ type: "disconnectRequested", reason: reason });
}

/** The end of the conversation (ParleyClient's endChat): `closeSession`, then no socket; the next one opens anew. */
export function endConnection() {
  if (machine.state.name === "connected") {
    send({ messagePayload: { type: "closeSession" }, userId: config.userId });
  }
  initialised = false;
  outbox = [];
  disconnect("the conversation ended");
}

/** The host's setAppInfo: a new token or user id closes the socket; then the widget connects. */
export function appInfoArrived(changed) {
  appInfoReceived = true;
  if (changed && machine.wantsConnection) { disconnect("new app info"); }
  connect();
}

/**
 * The channel is known (`/widget/config` answered): the machine's settings, then the connection, unless the host
 * is to hand its app info first.
 */
export function startConnection(waitForAppInfo) {
  machine.configuration.reconnectInterval = Math.max(0, Number(config.reconnectInterval)) * 1000;
  machine.configuration.reconnectMaxAttempts = Number(config.reconnectMaxAttempts);
  machine.configuration.usesSessionSecrets = channelUsesSessionSecrets();
  started = true;
  window.addEventListener("online", function () { handle({ type: "networkChanged", isReachable: true }); });
  window.addEventListener("offline", function () { handle({ type: "networkChanged", isReachable: false }); });
  if (!waitForAppInfo || appInfoReceived) { connect(); }
}
