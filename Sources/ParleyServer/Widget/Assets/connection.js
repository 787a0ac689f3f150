/*
 * The widget's connection lifecycle as a value, with the states and events of the Swift client's
 * ConnectionStateMachine (Sources/ParleyClient/Connection): `handle(event)` takes what happened (the page's wish,
 * the socket's news, a timer, the network) and returns what to do (get a session secret, open or close the socket,
 * start a timer, send the outbox, report a status or an error). No sockets, no timers, no DOM: chat.js performs the
 * actions in order and feeds back what came of them; the browser suite drives the machine directly
 * (connection_browser_test.py).
 *
 * Every attempt to open a socket has an id, carried by the events about it; an event about an attempt that is no
 * longer current returns no actions, and so does every event that makes no sense in the current state.
 *
 * - idle (status "disconnected"): leaves on connectRequested.
 * - connecting {attempt, retry, phase} ("connecting"): phase "preparing" (the session secret, when the channel
 *   wants one), "opening" (the socket), "handshaking" (auth and a ping sent, waiting for the pong). Leaves when the
 *   pong comes, the socket closes or fails, the opening times out, or on disconnect, background or network change.
 * - connected {attempt} ("connected"): heartbeats run; leaves when the socket closes, a pong is missed, or on
 *   disconnect, background or network change.
 * - waitingToReconnect {retry} ("connecting"; "disconnected" in the background): leaves when the retry timer
 *   fires, on connect or disconnect requested, foreground, or the network coming back.
 *
 * Where the widget differs from the client, on purpose:
 * - No caller waits for the first attempt (there is no `finishConnect`): every failed attempt is retried, as the
 *   widget always did, up to `reconnectMaxAttempts`, `reconnectInterval` apart.
 * - Close codes decide what is final (FINAL_CLOSE_CODES, the widget's list), not the reason's error domain; a final
 *   close reports the reason's `<code>: <message>` (nothing for 1000) and goes idle.
 * - Session secrets instead of token providers: a 4009 close (session.expired) renews the secret with itself and
 *   reconnects at once; a 4007 or 4008 close (session.required, session.invalid) forgets it and asks for a new
 *   one. Once each between two open sockets, as the client replaces an expired token once (`discardSession` is
 *   the widget's `discardToken`). A 4003 close (auth.tokenExpired) is final: the host hands a new token with
 *   setAppInfo.
 */

/** Close codes after which reconnecting with the same credentials cannot help. */
export const FINAL_CLOSE_CODES = [1000, 1008, 4001, 4002, 4003, 4004, 4005, 4006, 4007, 4008, 4009, 4010, 4011];
/** session.required, session.invalid: the stored secret is not the server's; ask for a new one, once. */
export const SESSION_CLOSE_CODES = [4007, 4008];
/** session.expired: the secret's lifetime is over; renew it with itself, once. */
export const SESSION_EXPIRED_CLOSE_CODE = 4009;

/** The machine's settings; times in milliseconds. The defaults are the client's and Oracle's Web SDK's. */
export const DEFAULT_CONNECTION_CONFIGURATION = {
  reconnectInterval: 5000,   // the widget's reconnectInterval: the same delay before every retry
  reconnectMaxAttempts: 5,   // retries after a drop (or a first attempt that failed) before giving up
  connectionTimeout: 15000,  // from opening the socket to the pong of the handshake's ping
  heartbeatInterval: 30000,  // between heartbeat pings on an open socket
  pongTimeout: 10000,        // how long a heartbeat ping may wait for its pong
  usesSessionSecrets: false  // the channel binds user ids to session secrets (GET /widget/config)
};

export class ConnectionMachine {
  /** A machine in the idle state. */
  constructor(configuration) {
    this.configuration = Object.assign({}, DEFAULT_CONNECTION_CONFIGURATION, configuration || {});
    this.state = { name: "idle" };
    this.status = "disconnected";
    this.isInBackground = false;
    this.isNetworkReachable = true;
    /** Whether a session secret was renewed or replaced since the last open socket. */
    this.replacedSession = false;
    this.lastAttempt = 0;
    this.timer = null;          // {id, purpose}: "opening", "retry", "heartbeat" or "pongDeadline"
    this.lastTimer = 0;
    this.pongSincePing = false;
  }

  /** The attempt whose socket is current (connecting or connected), or null: frames from any other are stale. */
  get currentAttempt() {
    return this.state.name === "connecting" || this.state.name === "connected" ? this.state.attempt : null;
  }

  /** Whether the page wants a connection (so that a drop is followed by reconnecting). */
  get wantsConnection() { return this.state.name !== "idle"; }

  /** Takes an event ({type, …}), returns the actions (none for an event that is stale or makes no sense now). */
  handle(event) {
    const state = this.state;
    switch (event.type) {
      case "connectRequested":
        if (state.name === "idle" || state.name === "waitingToReconnect") {
          return this.cancelTimer().concat(this.startAttempt(0));
        }
        return [];
      case "disconnectRequested":
        if (state.name === "idle") { return []; }
        return this.stop(event.reason || "the page disconnected");
      case "socketPrepared":
        if (!this.isPhase(event.attempt, "preparing")) { return []; }
        this.state = { name: "connecting", attempt: state.attempt, retry: state.retry, phase: "opening" };
        return this.startTimer("opening", this.configuration.connectionTimeout)
          .concat([{ type: "openSocket", attempt: state.attempt }]);
      case "socketOpened":
        if (!this.isPhase(event.attempt, "opening")) { return []; }
        this.state = { name: "connecting", attempt: state.attempt, retry: state.retry, phase: "handshaking" };
        return [{ type: "sendHandshake" }];
      case "pongReceived":
        if (this.isPhase(event.attempt, "handshaking")) { return this.opened(state.attempt); }
        if (state.name === "connected" && state.attempt === event.attempt) { this.pongSincePing = true; }
        return [];
      case "welcomeReceived":
        // The client's handshake waits for Parley's welcome from a server that spoke the extension before; the
        // widget does not speak it, so a welcome only counts as the server's answer.
        if (!this.isPhase(event.attempt, "handshaking")) { return []; }
        return this.opened(state.attempt);
      case "refusalReceived":
        if (!this.isPhase(event.attempt, "handshaking")) { return []; }
        this.refusal = event.error;
        return [];
      case "socketClosed":
        if (this.currentAttempt !== event.attempt) { return []; }
        return this.socketClosed(event.code, event.reason);
      case "socketFailed":
        if (this.currentAttempt !== event.attempt) { return []; }
        return this.socketEnded(event.error || { code: "client.connectionFailed", message: "the socket failed" });
      case "timerFired":
        if (!this.timer || this.timer.id !== event.id) { return []; }
        return this.timerFired(this.takeTimer());
      case "enteredBackground":
        return this.enteredBackground();
      case "enteredForeground":
        this.isInBackground = false;
        return state.name === "waitingToReconnect" ? this.scheduleRetry(1, true) : [];
      case "networkChanged":
        return this.networkChanged(event.isReachable !== false);
      default:
        return [];
    }
  }

  // --- Events ---------------------------------------------------------------------------------------------------

  isPhase(attempt, phase) {
    const state = this.state;
    return state.name === "connecting" && state.attempt === attempt && state.phase === phase;
  }

  takeTimer() {
    const purpose = this.timer.purpose;
    this.timer = null;
    return purpose;
  }

  timerFired(purpose) {
    const state = this.state;
    if (purpose === "opening" && state.name === "connecting") {
      return this.attemptFailed(state.retry, {
        code: "client.connectionFailed",
        message: "the server did not answer within " + this.configuration.connectionTimeout / 1000 + " s"
      });
    }
    if (purpose === "retry" && state.name === "waitingToReconnect") { return this.startAttempt(state.retry); }
    if (purpose === "heartbeat" && state.name === "connected") {
      this.pongSincePing = false;
      return [{ type: "sendPing" }].concat(this.startTimer("pongDeadline", this.configuration.pongTimeout));
    }
    if (purpose === "pongDeadline" && state.name === "connected") {
      if (this.pongSincePing) { return this.startTimer("heartbeat", this.configuration.heartbeatInterval); }
      const error = { code: "client.heartbeatTimeout",
        message: "no pong within " + this.configuration.pongTimeout / 1000 + " s; reconnecting" };
      return [{ type: "closeSocket", reason: null }, { type: "reportError", error: error }]
        .concat(this.scheduleRetry(1, true));
    }
    return [];  // cannot happen: leaving a state cancels its timer
  }

  enteredBackground() {
    this.isInBackground = true;
    const state = this.state;
    if (state.name === "idle") { return []; }
    if (state.name === "waitingToReconnect") {
      this.state = { name: "waitingToReconnect", retry: 1 };
      return this.cancelTimer().concat(this.updateStatus());
    }
    const actions = this.cancelTimer().concat([{ type: "closeSocket", reason: "the page is in the background" }]);
    this.state = { name: "waitingToReconnect", retry: 1 };
    return actions.concat(this.updateStatus());
  }

  networkChanged(isReachable) {
    this.isNetworkReachable = isReachable;
    const state = this.state;
    if (this.isInBackground || state.name === "idle") { return []; }
    if (!isReachable) {
      // An open socket may survive a brief loss; the heartbeat or the timeout finds out.
      return state.name === "waitingToReconnect" ? this.cancelTimer() : [];
    }
    if (state.name === "waitingToReconnect") { return this.scheduleRetry(1, true); }
    // A socket opened on the old path is likely dead without knowing it: replace it at once.
    return this.cancelTimer().concat([{ type: "closeSocket", reason: "the network changed" }])
      .concat(this.scheduleRetry(1, true));
  }

  /** The peer closed the current socket with `code` (1005 or 1006 when it sent none) and `reason`. */
  socketClosed(code, reason) {
    if (this.configuration.usesSessionSecrets && !this.replacedSession &&
        (code === SESSION_EXPIRED_CLOSE_CODE || SESSION_CLOSE_CODES.indexOf(code) >= 0)) {
      this.replacedSession = true;
      const actions = this.cancelTimer().concat([{ type: "closeSocket", reason: null },
        { type: "discardSession", renew: code === SESSION_EXPIRED_CLOSE_CODE }]);
      return actions.concat(this.scheduleRetry(this.nextRetry(), true));
    }
    if (FINAL_CLOSE_CODES.indexOf(code) >= 0) {
      const actions = this.cancelTimer().concat([{ type: "closeSocket", reason: null }]);
      this.state = { name: "idle" };
      if (code !== 1000) {
        const error = this.refusal && this.refusal.code ? this.refusal : closeError(code, reason);
        actions.push({ type: "reportError", error: error });
      }
      return actions.concat(this.updateStatus());
    }
    return this.socketEnded(closeError(code, reason));
  }

  // --- Transitions ----------------------------------------------------------------------------------------------

  /** The retry after the current state: the next one while connecting, the first after a drop. */
  nextRetry() { return this.state.name === "connecting" ? this.state.retry + 1 : 1; }

  startAttempt(retry) {
    this.lastAttempt += 1;
    this.refusal = null;
    this.state = { name: "connecting", attempt: this.lastAttempt, retry: retry, phase: "preparing" };
    return this.updateStatus().concat([{ type: "prepareSocket", attempt: this.lastAttempt }]);
  }

  /** The handshake is done. */
  opened(attempt) {
    this.state = { name: "connected", attempt: attempt };
    this.replacedSession = false;
    return this.cancelTimer().concat(this.updateStatus())
      .concat(this.startTimer("heartbeat", this.configuration.heartbeatInterval))
      .concat([{ type: "flushOutbox" }]);
  }

  /** The current socket closed or failed without a final reason. */
  socketEnded(error) {
    const state = this.state;
    if (state.name === "connecting") { return this.attemptFailed(state.retry, error); }
    if (state.name === "connected") {
      return this.cancelTimer().concat([{ type: "closeSocket", reason: null }]).concat(this.scheduleRetry(1, false));
    }
    return [];
  }

  /** The current attempt failed: a final error ends the wish for a connection, anything else is retried. */
  attemptFailed(retry, error) {
    const actions = this.cancelTimer().concat([{ type: "closeSocket", reason: null }]);
    if (isFinal(error)) {
      this.state = { name: "idle" };
      return actions.concat([{ type: "reportError", error: error }]).concat(this.updateStatus());
    }
    return actions.concat(this.scheduleRetry(retry + 1, false));
  }

  /** The page no longer wants a connection: close what is open. */
  stop(reason) {
    const actions = this.cancelTimer();
    if (this.state.name === "connecting" || this.state.name === "connected") {
      actions.push({ type: "closeSocket", reason: reason });
    }
    this.state = { name: "idle" };
    return actions.concat(this.updateStatus());
  }

  /**
   * Waits `reconnectInterval` before retry `retry`, or starts it at once. Not in the background or without a
   * network: those reports restart it. Gives up after `reconnectMaxAttempts` retries.
   */
  scheduleRetry(retry, immediately) {
    let actions = this.cancelTimer();
    this.state = { name: "waitingToReconnect", retry: retry };
    actions = actions.concat(this.updateStatus());
    if (this.isInBackground || !this.isNetworkReachable) { return actions; }
    if (retry > this.configuration.reconnectMaxAttempts) {
      this.state = { name: "idle" };
      actions.push({ type: "reportError", error: { code: "socket.unreachable", message: "the chat server cannot be reached" } });
      return actions.concat(this.updateStatus());
    }
    if (immediately) { return actions.concat(this.startAttempt(retry)); }
    return actions.concat(this.startTimer("retry", this.configuration.reconnectInterval));
  }

  // --- Status and timers ----------------------------------------------------------------------------------------

  /** Reports the status that goes with the state, when it changed. */
  updateStatus() {
    const name = this.state.name;
    const status = name === "connected" ? "connected"
      : name === "connecting" ? "connecting"
      : name === "waitingToReconnect" && !this.isInBackground ? "connecting" : "disconnected";
    if (status === this.status) { return []; }
    this.status = status;
    return [{ type: "statusChanged", status: status }];
  }

  startTimer(purpose, delay) {
    this.lastTimer += 1;
    this.timer = { id: this.lastTimer, purpose: purpose };
    return [{ type: "startTimer", id: this.lastTimer, delay: delay }];
  }

  cancelTimer() {
    if (!this.timer) { return []; }
    this.timer = null;
    return [{ type: "cancelTimer" }];
  }
}

/** What a close means: Parley's reasons read "<error code>: <message>". */
export function closeError(code, reason) {
  const text = String(reason || "");
  const split = text.indexOf(": ");
  if (split > 0 && text.slice(0, split).indexOf(".") > 0) {
    return { code: text.slice(0, split), message: text.slice(split + 2) };
  }
  return { code: "socket.closed." + code, message: "the server closed the connection (" + code + ")" };
}

/** Whether retrying with the same credentials cannot help: auth.*, channel.* and session.* errors. */
export function isFinal(error) {
  const domain = String(error && error.code || "").split(".")[0];
  return domain === "auth" || domain === "channel" || domain === "session";
}
