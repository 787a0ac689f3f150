#!/usr/bin/env python3
"""Identity and page headers of Parley's web widget and agent console, in headless Chromium (issue 18).

Started by the Swift test WidgetBrowserTests.identityAndFramingInChromium with a running in-process server:

    identity_browser_test.py BASE_URL OUTPUT_DIR

BASE_URL    the server, such as http://127.0.0.1:41234, with channels "demo" (the default, framed by any site),
            "closed" (no other origin), "sealed" (session secrets) and "unset" (framing left at its default),
            and an agent key
OUTPUT_DIR  where to write failure.png when a check fails

Checks: a link's `URI` cannot point the page at another chat server; the generated user id is `user-` and 32 hex digits from crypto.getRandomValues (Math.random cannot
influence it); on a channel with session secrets the widget gets a secret once, keeps it, and sends it with
the socket and upload URLs, and a refused secret (close 4008) makes it start over once; the browser obeys frame-ancestors (a page of another origin may frame the widget
only when the channel allows it, nobody may frame /agent); the agent console runs under its strict CSP with
no violation.

Exits 0 when every check passed; otherwise prints what failed and exits 1.
"""

import json
import os
import re
import sys
import tempfile
import traceback
import urllib.parse

from selenium.webdriver.common.by import By

from widget_browser_test import check, js, log, new_driver, wait_until

USER_ID = re.compile(r"user-[0-9a-f]{32}")

# Before any script of the page: record socket URLs and fetches, and CSP violations; Math.random always 0.5.
RECORDER = """
window.__sockets = [];
window.__fetches = [];
window.__violations = [];
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(url, protocols) { super(url, protocols); window.__sockets.push(String(url)); }
};
const nativeFetch = window.fetch.bind(window);
window.fetch = function (url, options) {
  window.__fetches.push({url: String(url), method: (options && options.method) || "GET"});
  return nativeFetch(url, options);
};
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.violatedDirective + " " + e.blockedURI);
});
Math.random = function () { return 0.5; };
"""


def connected(driver):
    return js(driver, "return window.parley && window.parley.status()") == "connected"


def open_widget(driver, base, **parameters):
    driver.get(base + "/?" + urllib.parse.urlencode(parameters))
    wait_until(driver, lambda: connected(driver), "the widget to connect with %s" % parameters)


def generated_ids(driver, base):
    open_widget(driver, base, channelId="demo")
    first = js(driver, "return window.parley.appInfo().uid")
    check(USER_ID.fullmatch(first) is not None, "the generated user id is user- and 32 hex digits (%s)" % first)
    check(js(driver, "return localStorage.getItem('parley.userId.demo')") == first, "it is kept in localStorage")
    check(js(driver, "return __sockets.length === 1 && __sockets[0].indexOf('userId=' + arguments[0]) > 0", first),
          "the socket uses it")
    open_widget(driver, base, channelId="demo")
    check(js(driver, "return window.parley.appInfo().uid") == first, "a reloaded page keeps it")
    js(driver, "localStorage.clear()")
    open_widget(driver, base, channelId="demo")
    second = js(driver, "return window.parley.appInfo().uid")
    check(USER_ID.fullmatch(second) is not None and second != first,
          "a new browser gets another id, though Math.random always says 0.5 (%s)" % second)


def session_secrets(driver, base):
    js(driver, "localStorage.clear()")
    open_widget(driver, base, channelId="sealed")
    stored = json.loads(js(driver, "return localStorage.getItem('parley.session.sealed')") or "null")
    check(isinstance(stored, dict) and USER_ID.fullmatch(stored.get("userId", "")) is not None
          and re.fullmatch(r"[A-Za-z0-9_-]{43}", stored.get("sessionSecret", "")) is not None,
          "the widget keeps the user id and a 256-bit session secret for the channel (%s)" % stored)
    check(js(driver, "return window.parley.appInfo().uid") == stored["userId"], "and chats as that user id")
    posts = js(driver, "return __fetches.filter(f => f.url.indexOf('/chat/v1/sessions') >= 0 && f.method === 'POST')")
    check(len(posts) == 1, "it asked POST /chat/v1/sessions once (%s)" % posts)
    secret = urllib.parse.quote(stored["sessionSecret"], safe="")
    sockets = js(driver, "return __sockets")
    check(len(sockets) == 1 and ("sessionSecret=" + secret) in sockets[0] and ("userId=" + stored["userId"]) in sockets[0],
          "the socket URL carries the secret (%s)" % sockets)
    again = js(driver, "return fetch('/chat/v1/sessions?channelId=sealed&userId=' + arguments[0], {method: 'POST'})"
                       ".then(r => r.json().then(b => [r.status, b.error && b.error.code]))", stored["userId"])
    check(again == [409, "session.userBound"], "the server has bound the user id (%s)" % again)

    upload = os.path.join(tempfile.mkdtemp(), "note.txt")
    with open(upload, "w") as handle:
        handle.write("no onions\n")
    js(driver, "document.querySelector('.parley-file').hidden = false")
    driver.find_element(By.CSS_SELECTOR, ".parley-file").send_keys(upload)
    wait_until(driver, lambda: js(driver, "return __fetches.some(f => f.url.indexOf('/chat/v1/attachments') >= 0)"),
               "the upload")
    uploads = js(driver, "return __fetches.filter(f => f.url.indexOf('/chat/v1/attachments') >= 0).map(f => f.url)")
    check(("sessionSecret=" + secret) in uploads[0], "the upload URL carries the secret (%s)" % uploads)

    open_widget(driver, base, channelId="sealed")
    check(js(driver, "return window.parley.appInfo().uid") == stored["userId"], "a reloaded page keeps the user id")
    check(js(driver, "return __fetches.filter(f => f.url.indexOf('/chat/v1/sessions') >= 0).length") == 0,
          "and the secret, without asking again")
    check(("sessionSecret=" + secret) in js(driver, "return __sockets[0]"), "and sends it")

    # A secret the server does not know (here: tampered with) is refused with 4008; the widget asks for a new
    # session once, and since its user id is bound to the real secret, it starts over with an id from the server.
    js(driver, "localStorage.setItem('parley.session.sealed', JSON.stringify({userId: arguments[0], "
               "sessionSecret: 'A'.repeat(43)}))", stored["userId"])
    driver.get(base + "/?channelId=sealed")
    wait_until(driver, lambda: js(driver, "return __sockets.length") == 2 and connected(driver),
               "a second socket after the refused one")
    sockets = js(driver, "return __sockets")
    renewed = json.loads(js(driver, "return localStorage.getItem('parley.session.sealed')"))
    check(len(sockets) == 2 and "sessionSecret=" + "A" * 43 in sockets[0],
          "the socket with the wrong secret was refused, a second one opened (%s)" % sockets)
    check(renewed["userId"] != stored["userId"] and USER_ID.fullmatch(renewed["userId"]) is not None
          and ("sessionSecret=" + urllib.parse.quote(renewed["sessionSecret"], safe="")) in sockets[1],
          "with a new user id and secret from the server (%s)" % renewed)


def links_cannot_move_the_chat(driver, base):
    """A link that names another chat server (`?URI=`, or `URI` in `?config=`) cannot send the visitor's user id
    and session secret there: the page served by the server connects to its own origin only (the script ignores the
    link's server and reports it; the page's CSP would block the connection anyway)."""
    port = urllib.parse.urlparse(base).port
    elsewhere = "127.0.0.2:%d" % port  # the same server on another origin, standing in for the attacker's
    js(driver, "localStorage.clear()")
    for parameters in [{"channelId": "demo", "URI": elsewhere},
                       {"config": json.dumps({"channelId": "demo", "URI": "http://" + elsewhere})}]:
        open_widget(driver, base, **parameters)
        sockets = js(driver, "return __sockets")
        fetches = [entry["url"] for entry in js(driver, "return __fetches")]
        check(len(sockets) >= 1 and all(url.startswith("ws://127.0.0.1:%d/" % port) for url in sockets),
              "the socket goes to the page's own server, not the link's (%s, %s)" % (parameters, sockets))
        check(all(url.startswith(base) for url in fetches),
              "every request goes to the page's own server (%s)" % fetches)
        check(js(driver, "return __violations.length") == 0, "no connection was even tried elsewhere")


def frame_loaded(driver, frame, selector):
    """Whether `frame` shows a document with `selector` (a frame the browser refused shows an error page)."""
    driver.switch_to.frame(frame)
    try:
        return len(driver.find_elements(By.CSS_SELECTOR, selector)) > 0
    finally:
        driver.switch_to.default_content()


def framing(driver, base):
    port = urllib.parse.urlparse(base).port
    other = "http://localhost:%d" % port  # another origin for the browser, the same server
    for framer, url, selector, allowed, what in [
        (other, base + "/?channelId=demo", ".parley-input", True, "a channel allowing any origin: another origin frames the widget"),
        (other, base + "/?channelId=closed", ".parley-input", False, "a channel allowing no other origin: the browser refuses the frame"),
        (other, base + "/?channelId=unset", ".parley-input", False, "a channel that says nothing: only the server's own pages frame it"),
        (other, base + "/agent", "#login", False, "nobody frames the agent console"),
        (base, base + "/?channelId=closed", ".parley-input", True, "the server's own pages may frame the closed channel's widget"),
        (base, base + "/agent", "#login", False, "not even the server's own pages frame the agent console"),
    ]:
        driver.get(framer + "/widget/config")  # a page without a CSP of its own
        js(driver, """
            window.__loaded = false;
            const frame = document.createElement('iframe');
            frame.id = 'framed';
            frame.onload = () => { window.__loaded = true; };
            frame.src = arguments[0];
            document.body.appendChild(frame);
        """, url)
        wait_until(driver, lambda: js(driver, "return window.__loaded"), "the frame of " + url)
        frame = driver.find_element(By.ID, "framed")
        if allowed:
            wait_until(driver, lambda: frame_loaded(driver, frame, selector), what)
            check(True, what)
        else:
            check(not frame_loaded(driver, frame, selector), what)


def agent_console(driver, base):
    driver.get(base + "/agent")
    check(js(driver, "return getComputedStyle(document.body).display") == "grid",
          "the console's hashed inline style applies")
    driver.find_element(By.ID, "key").send_keys("wrong key")
    driver.find_element(By.CSS_SELECTOR, "#login button").click()
    wait_until(driver, lambda: driver.find_element(By.ID, "status").text.startswith("Disconnected ("),
               "the console's socket to be refused")
    check(True, "the console's hashed inline script runs and reaches the agent socket")
    check(driver.current_url == base + "/agent", "the login form was not submitted as a page (%s)" % driver.current_url)
    violations = js(driver, "return window.__violations")
    check(violations == [], "no Content-Security-Policy violation on /agent (%s)" % violations)


def main():
    base, output_dir = sys.argv[1].rstrip("/"), sys.argv[2]
    driver = new_driver()
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
        for name, step in [("generated user ids", lambda: generated_ids(driver, base)),
                           ("session secrets", lambda: session_secrets(driver, base)),
                           ("links cannot move the chat", lambda: links_cannot_move_the_chat(driver, base)),
                           ("framing", lambda: framing(driver, base)),
                           ("agent console", lambda: agent_console(driver, base))]:
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
    log("all identity browser checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
