#!/usr/bin/env python3
"""The widget's connection lifecycle (Widget/Assets/connection.js) in headless Chromium: the state machine driven
event by event, as ConnectionStateMachineTests drive the Swift client's, then the real page through its states
against the real server.

Started by the Swift test WidgetBrowserTests.connectionStatesInChromium with a running in-process server:

    connection_browser_test.py BASE_URL OUTPUT_DIR

BASE_URL    the server, such as http://127.0.0.1:41234, with the channel "demo"
OUTPUT_DIR  where to write failure.png when a check fails

Exits 0 when every check passed; otherwise prints what failed and exits 1.
"""

import json
import os
import sys
import traceback
import urllib.parse

from widget_browser_test import check, js, log, new_driver, wait_until

# Before any script of the page: every socket the page opens, and every status the page shows, in order.
RECORDER = """
window.__sockets = [];
window.__statuses = [];
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(url, protocols) { super(url, protocols); window.__sockets.push(this); }
};
new MutationObserver(function (changes) {
  changes.forEach(function (change) {
    var status = change.target.getAttribute("data-status");
    if (window.__statuses[window.__statuses.length - 1] !== status) { window.__statuses.push(status); }
  });
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-status"]});
"""

SETTINGS = {"reconnectInterval": 5000, "reconnectMaxAttempts": 2, "connectionTimeout": 15000,
            "heartbeatInterval": 30000, "pongTimeout": 10000}


class Machine:
    """A ConnectionMachine in the page, made by importing the served module."""

    def __init__(self, driver, **settings):
        self.driver = driver
        configuration = dict(SETTINGS, **settings)
        loaded = driver.execute_async_script("""
            var done = arguments[arguments.length - 1];
            import('/widget/connection.js').then(function (module) {
              window.__machine = new module.ConnectionMachine(CONFIGURATION);
              done(true);
            }, function (error) { done(String(error)); });
        """.replace("CONFIGURATION", json.dumps(configuration)))
        check(loaded is True, "the page imports connection.js (%s)" % loaded)

    def handle(self, event_type, **members):
        event = dict(members, type=event_type)
        return js(self.driver, "return window.__machine.handle(arguments[0])", event)

    def state(self):
        return js(self.driver, "return window.__machine.state")

    def status(self):
        return js(self.driver, "return window.__machine.status")

    def expect(self, event_type, expected, what, **members):
        actions = self.handle(event_type, **members)
        check(actions == expected, "%s: %s → %s" % (what, event_type, json.dumps(actions)))


def status(value):
    return {"type": "statusChanged", "status": value}


def timer(identifier, delay):
    return {"type": "startTimer", "id": identifier, "delay": delay}


CANCEL = {"type": "cancelTimer"}
CLOSE = {"type": "closeSocket", "reason": None}


def connect(machine, attempt, first_timer):
    """Takes a fresh machine (or one waiting to reconnect with no timer) through an attempt to connected."""
    machine.handle("connectRequested")
    machine.expect("socketPrepared", [timer(first_timer, 15000), {"type": "openSocket", "attempt": attempt}],
                   "the secret is in hand: the socket opens, with the opening deadline", attempt=attempt)
    machine.expect("socketOpened", [{"type": "sendHandshake"}], "the socket is open: the handshake", attempt=attempt)
    machine.expect("pongReceived", [CANCEL, status("connected"), timer(first_timer + 1, 30000), {"type": "flushOutbox"}],
                   "the pong ends the handshake: connected, heartbeat, outbox", attempt=attempt)


def machine_states(driver, base):
    driver.get(base + "/widget/config")  # an origin that may import the module

    machine = Machine(driver)
    check(machine.state() == {"name": "idle"} and machine.status() == "disconnected", "a new machine is idle")
    machine.expect("connectRequested", [status("connecting"), {"type": "prepareSocket", "attempt": 1}],
                   "connecting prepares attempt 1")
    check(machine.state() == {"name": "connecting", "attempt": 1, "retry": 0, "phase": "preparing"}, "preparing")
    machine.expect("connectRequested", [], "a second connect while connecting does nothing")
    machine.expect("socketOpened", [], "an event of a phase not reached does nothing", attempt=1)
    machine.expect("socketPrepared", [timer(1, 15000), {"type": "openSocket", "attempt": 1}], "opening", attempt=1)
    machine.expect("pongReceived", [], "a pong before the socket opened does nothing", attempt=1)
    machine.expect("socketOpened", [{"type": "sendHandshake"}], "handshaking", attempt=1)
    check(machine.state()["phase"] == "handshaking", "the phase is handshaking")
    machine.expect("pongReceived", [CANCEL, status("connected"), timer(2, 30000), {"type": "flushOutbox"}],
                   "connected", attempt=1)
    check(machine.state() == {"name": "connected", "attempt": 1}, "the state is connected")

    # Heartbeats: a ping every 30 s; a pong within 10 s keeps the socket, none replaces it.
    machine.expect("timerFired", [{"type": "sendPing"}, timer(3, 10000)], "the heartbeat pings", id=2)
    machine.expect("pongReceived", [], "its pong", attempt=1)
    machine.expect("timerFired", [timer(4, 30000)], "the pong came: the next heartbeat", id=3)
    machine.expect("timerFired", [], "a timer no longer current does nothing", id=3)
    machine.expect("timerFired", [{"type": "sendPing"}, timer(5, 10000)], "the next ping", id=4)
    machine.expect("timerFired", [CLOSE, {"type": "reportError", "error": {
        "code": "client.heartbeatTimeout", "message": "no pong within 10 s; reconnecting"}}, status("connecting"),
        {"type": "prepareSocket", "attempt": 2}], "no pong: the socket is replaced at once", id=5)
    machine.expect("socketClosed", [], "the old socket's close does nothing", attempt=1, code=1006, reason="")

    # A drop: retries reconnectInterval apart, then giving up after reconnectMaxAttempts.
    machine = Machine(driver)
    connect(machine, 1, 1)
    machine.expect("socketClosed", [CANCEL, CLOSE, status("connecting"), timer(3, 5000)],
                   "a dropped socket waits to reconnect", attempt=1, code=1006, reason="")
    check(machine.state() == {"name": "waitingToReconnect", "retry": 1}, "waiting for retry 1")
    machine.expect("timerFired", [{"type": "prepareSocket", "attempt": 2}], "retry 1", id=3)
    machine.expect("socketPrepared", [timer(4, 15000), {"type": "openSocket", "attempt": 2}], "opening", attempt=2)
    machine.expect("socketClosed", [CANCEL, CLOSE, timer(5, 5000)], "retry 1 fails", attempt=2, code=1006, reason="")
    machine.expect("timerFired", [{"type": "prepareSocket", "attempt": 3}], "retry 2", id=5)
    machine.expect("socketPrepared", [timer(6, 15000), {"type": "openSocket", "attempt": 3}], "opening", attempt=3)
    machine.expect("timerFired", [CLOSE, {"type": "reportError", "error": {
        "code": "socket.unreachable", "message": "the chat server cannot be reached"}}, status("disconnected")],
        "retry 2 times out, and the machine gives up after reconnectMaxAttempts", id=6)
    check(machine.state() == {"name": "idle"}, "idle after giving up")
    machine.expect("connectRequested", [status("connecting"), {"type": "prepareSocket", "attempt": 4}],
                   "a message after giving up connects again")

    # Final closes: reported with the reason's code, then idle; a normal close is not reported.
    machine = Machine(driver)
    connect(machine, 1, 1)
    machine.expect("socketClosed", [CANCEL, CLOSE, {"type": "reportError", "error": {
        "code": "auth.tokenExpired", "message": "the token expired"}}, status("disconnected")],
        "4003 (the token expired) is final", attempt=1, code=4003, reason="auth.tokenExpired: the token expired")
    machine = Machine(driver)
    connect(machine, 1, 1)
    machine.expect("socketClosed", [CANCEL, CLOSE, status("disconnected")], "1000 from the server is final, silent",
                   attempt=1, code=1000, reason="")
    machine = Machine(driver)
    connect(machine, 1, 1)
    machine.expect("socketClosed", [CANCEL, CLOSE, status("connecting"), timer(3, 5000)],
                   "4020 (socket.tooSlow) is not final", attempt=1, code=4020, reason="socket.tooSlow: behind")
    machine = Machine(driver)
    connect(machine, 1, 1)
    machine.expect("socketClosed", [CANCEL, CLOSE, {"type": "reportError", "error": {
        "code": "session.expired", "message": "the secret expired"}}, status("disconnected")],
        "4009 is final on a channel without session secrets", attempt=1, code=4009,
        reason="session.expired: the secret expired")

    # Session secrets: 4009 renews the secret with itself, 4007/4008 replace it; once between two open sockets.
    machine = Machine(driver, usesSessionSecrets=True)
    connect(machine, 1, 1)
    machine.expect("socketClosed", [CANCEL, CLOSE, {"type": "discardSession", "renew": True}, status("connecting"),
                                    {"type": "prepareSocket", "attempt": 2}],
                   "4009 (session.expired): renew the secret and reconnect at once", attempt=1, code=4009,
                   reason="session.expired: the secret expired")
    machine.expect("socketPrepared", [timer(3, 15000), {"type": "openSocket", "attempt": 2}], "opening", attempt=2)
    machine.expect("socketClosed", [CANCEL, CLOSE, {"type": "reportError", "error": {
        "code": "session.invalid", "message": "unknown secret"}}, status("disconnected")],
        "a second refusal before a socket opened is final", attempt=2, code=4008, reason="session.invalid: unknown secret")
    machine = Machine(driver, usesSessionSecrets=True)
    connect(machine, 1, 1)
    machine.expect("socketClosed", [CANCEL, CLOSE, {"type": "discardSession", "renew": False}, status("connecting"),
                                    {"type": "prepareSocket", "attempt": 2}],
                   "4008 (session.invalid): forget the secret and ask for a new one", attempt=1, code=4008, reason="")
    machine.expect("socketPrepared", [timer(3, 15000), {"type": "openSocket", "attempt": 2}], "opening", attempt=2)
    machine.expect("socketOpened", [{"type": "sendHandshake"}], "handshaking", attempt=2)
    machine.expect("pongReceived", [CANCEL, status("connected"), timer(4, 30000), {"type": "flushOutbox"}],
                   "connected again", attempt=2)
    machine.expect("socketClosed", [CANCEL, CLOSE, {"type": "discardSession", "renew": True}, status("connecting"),
                                    {"type": "prepareSocket", "attempt": 3}],
                   "after an open socket, a secret may be renewed again", attempt=2, code=4009, reason="")
    machine.expect("socketFailed", [CLOSE, {"type": "reportError", "error": {
        "code": "session.userBound", "message": "bound"}}, status("disconnected")],
        "a refused session request is final", attempt=3, error={"code": "session.userBound", "message": "bound"})

    # The page's own disconnect, stale events, the network and the background.
    machine = Machine(driver)
    machine.handle("connectRequested")
    machine.handle("socketPrepared", attempt=1)
    machine.expect("disconnectRequested", [CANCEL, {"type": "closeSocket", "reason": "the page disconnected"},
                                           status("disconnected")], "disconnect while opening")
    machine.expect("socketOpened", [], "the abandoned socket's open does nothing", attempt=1)
    machine.expect("disconnectRequested", [], "disconnect when idle does nothing")
    connect(machine, 2, 2)
    machine.expect("networkChanged", [], "losing the network leaves an open socket to the heartbeat",
                   isReachable=False)
    machine.expect("networkChanged", [CANCEL, {"type": "closeSocket", "reason": "the network changed"},
                                      status("connecting"), {"type": "prepareSocket", "attempt": 3}],
                   "the network back: the socket of the old path is replaced at once", isReachable=True)
    machine.expect("socketFailed", [CLOSE, timer(4, 5000)], "the attempt fails", attempt=3,
                   error={"code": "client.connectionFailed", "message": "refused"})
    machine.expect("networkChanged", [CANCEL], "no network: no retry timer", isReachable=False)
    machine.expect("networkChanged", [{"type": "prepareSocket", "attempt": 4}], "the network back: retry at once",
                   isReachable=True)
    machine.expect("enteredBackground", [{"type": "closeSocket", "reason": "the page is in the background"},
                                         status("disconnected")], "the background closes the socket")
    machine.expect("enteredForeground", [status("connecting"), {"type": "prepareSocket", "attempt": 5}],
                   "the foreground reconnects")


def page_states(driver, base):
    """The real page through its states: connecting, connected; a dropped socket reconnects; the end disconnects."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
    driver.get(base + "/?channelId=demo&reconnectInterval=0.2&initUserHiddenMessage=Hi")
    wait_until(driver, lambda: js(driver, "return window.parley.status()") == "connected", "the page to connect")
    statuses = js(driver, "return window.__statuses")
    check(statuses == ["disconnected", "connecting", "connected"],
          "the page shows disconnected, connecting, connected (%s)" % statuses)
    wait_until(driver, lambda: js(driver, "return document.querySelectorAll('.parley-bot').length") >= 1,
               "the skill's greeting")
    sent = js(driver, "return window.__sockets.length")
    check(sent == 1, "one socket")

    # The socket drops (1006: no close frame; the event is made here, since the server answers a page's close with
    # 1000, which is final): the page closes what is left of it and reconnects after reconnectInterval.
    js(driver, "window.__sockets[0].dispatchEvent(new CloseEvent('close', {code: 1006, reason: ''}))")
    wait_until(driver, lambda: js(driver, "return window.__sockets.length") == 2
               and js(driver, "return window.parley.status()") == "connected", "a second socket")
    statuses = js(driver, "return window.__statuses")
    check(statuses[-2:] == ["connecting", "connected"], "connecting, then connected again (%s)" % statuses)
    greetings = js(driver, "return document.querySelectorAll('.parley-bot').length")
    js(driver, "window.parley.sendMessage('menu')")
    wait_until(driver, lambda: js(driver, "return document.querySelectorAll('.parley-bot').length") > greetings,
               "an answer on the second socket")
    greetings = js(driver, "return Array.from(document.querySelectorAll('.parley-bot .parley-bubble'))"
                           ".filter(e => e.textContent === 'Hi there! Welcome to Parley Pizza.').length")
    check(greetings == 1, "the conversation goes on on the second socket, without a second opening (%d)" % greetings)

    js(driver, "window.parley.endConversation()")
    wait_until(driver, lambda: js(driver, "return window.parley.status()") == "disconnected", "the end")
    check(js(driver, "return window.__sockets[1].readyState") >= 2, "ending closes the socket")


def embedded_on_another_site(driver, base):
    """docs/widget.md's embedding: a page of another origin loads the module script (a CORS request) and the
    style from the chat server, names the server in window.parleyConfig, and chats."""
    port = urllib.parse.urlparse(base).port
    driver.get("http://localhost:%d/widget/config" % port)  # another origin for the browser, a page without a CSP
    js(driver, """
        window.parleyConfig = {URI: arguments[1], channelId: "demo", initUserHiddenMessage: "Hi"};
        var link = document.createElement("link");
        link.rel = "stylesheet";
        link.href = arguments[0] + "/widget/parley-widget.css";
        document.head.appendChild(link);
        var box = document.createElement("div");
        box.id = "parley-widget";
        document.body.appendChild(box);
        var script = document.createElement("script");
        script.type = "module";
        script.src = arguments[0] + "/widget/parley-widget.js";
        document.body.appendChild(script);
    """, base, "127.0.0.1:%d" % port)
    wait_until(driver, lambda: js(driver, "return window.parley !== undefined && window.parley.status()") == "connected",
               "the embedded widget to connect")
    check(js(driver, "return location.origin") == "http://localhost:%d" % port, "the page is of another origin")
    wait_until(driver, lambda: js(driver, "return document.querySelectorAll('.parley-bot').length") >= 1,
               "the skill's greeting on the embedding page")
    check(js(driver, "return document.querySelector('.parley-input').placeholder") == "Write a message",
          "the texts came from the chat server's strings.json")


def main():
    base, output_dir = sys.argv[1].rstrip("/"), sys.argv[2]
    driver = new_driver(browser_log=True)
    try:
        for name, step in [("the machine, event by event", lambda: machine_states(driver, base)),
                           ("the page's states", lambda: page_states(driver, base)),
                           ("embedded on another site", lambda: embedded_on_another_site(driver, base))]:
            log("== " + name)
            step()
    except Exception:
        traceback.print_exc(file=sys.stdout)
        try:
            driver.save_screenshot(os.path.join(output_dir, "failure.png"))
            log("browser console: " + json.dumps(driver.get_log("browser")))
        except Exception:
            pass
        return 1
    finally:
        driver.quit()
    log("all connection browser checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
