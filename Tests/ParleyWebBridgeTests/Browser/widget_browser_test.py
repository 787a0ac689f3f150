#!/usr/bin/env python3
"""Drives Parley's web widget in headless Chromium (Debian's chromium + chromium-driver) with Selenium.

Started by the Swift test WidgetBrowserTests with a running in-process server:

    widget_browser_test.py BASE_URL COMMANDS_JSON OUTPUT_DIR MODEL_PORT

BASE_URL      the server, such as http://127.0.0.1:41234, with channels "demo" (pizza), "gallery"
              (Browser/gallery-skill.json), "llm" (a language model at http://127.0.0.1:MODEL_PORT/v1) and an
              authenticated channel listed first
COMMANDS_JSON hostile strings with the JavaScript ParleyWebBridge generates for them:
              [{"value": s, "literal": js, "sendMessage": js, "setAppInfo": js, "configuration": js}, ...]
OUTPUT_DIR    where to write bridge-events.json (the bodies the page posted) and widget.png
MODEL_PORT    where this script serves the "llm" channel's OpenAI-compatible endpoint, whose answer it holds back
              after its first piece until it has seen that piece in the page

Exits 0 when every check passed; otherwise prints what failed and exits 1.
"""

import json
import os
import sys
import tempfile
import threading
import traceback
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"  # the system driver: Selenium Manager never downloads one


def log(message):
    print(message, flush=True)


def check(condition, what):
    if not condition:
        raise AssertionError(what)
    log("ok: " + what)


def new_driver(extra_arguments=(), browser_log=False):
    """Headless Chromium through the system's chromedriver; `browser_log` keeps the console for get_log."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=480,860", "--lang=en-US", "--force-device-scale-factor=1"] + list(extra_arguments):
        options.add_argument(argument)
    if browser_log:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


def wait_until(driver, condition, what, timeout=20):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda _: condition())
    except TimeoutException:
        raise AssertionError("timed out waiting for " + what)


def js(driver, script, *arguments):
    return driver.execute_script(script, *arguments)


def texts(driver, selector):
    return js(driver, "return Array.from(document.querySelectorAll(arguments[0])).map(e => e.textContent)", selector)


def bot_texts(driver):
    return texts(driver, ".parley-bot .parley-bubble")


def wait_for_bot_text(driver, text, timeout=20):
    wait_until(driver, lambda: text in bot_texts(driver), "the bot to say " + repr(text), timeout)


def button(driver, label, scope=None):
    xpath = "//button[normalize-space(.)=%s]" % xpath_literal(label)
    if scope is not None:
        xpath = "." + xpath
        candidates = scope.find_elements(By.XPATH, xpath)
    else:
        candidates = driver.find_elements(By.XPATH, xpath)
    enabled = [c for c in candidates if c.is_enabled()]
    check(len(enabled) > 0, "an enabled button labelled " + repr(label))
    return enabled[-1]


def xpath_literal(text):
    if "'" not in text:
        return "'" + text + "'"
    return "concat('" + text.replace("'", "',\"'\",'") + "')"


def type_message(driver, text):
    field = driver.find_element(By.CSS_SELECTOR, ".parley-input")
    field.send_keys(text)
    field.send_keys(Keys.ENTER)


def page(base, **parameters):
    return base + "/?" + urllib.parse.urlencode(parameters) if parameters else base + "/"


# --- A language model's answer, growing -----------------------------------------------------------------

def start_model_endpoint(port, release):
    """An OpenAI-compatible chat-completions endpoint on `port`: streams "Hel", waits until `release` is set (at most
    20 s), then streams the rest of "Hello, growing world." and its end."""
    def chunk(delta):
        return ("data: " + json.dumps({"choices": [{"index": 0, "delta": delta}]}) + "\n\n").encode()

    class Endpoint(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(chunk({"role": "assistant", "content": "Hel"}))
            self.wfile.flush()
            release.wait(20)
            for piece in ["lo, ", "growing ", "world."]:
                self.wfile.write(chunk({"content": piece}))
            end = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
            self.wfile.write(("data: " + json.dumps(end) + "\n\ndata: [DONE]\n\n").encode())
            self.wfile.flush()

    server = ThreadingHTTPServer(("127.0.0.1", port), Endpoint)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def growing_answer(driver, base, model_port):
    """The widget shows a model's answer as it grows: one bubble, its first piece while the rest is held back, then
    the whole text once the stream ends."""
    release = threading.Event()
    endpoint = start_model_endpoint(model_port, release)
    try:
        driver.get(page(base, channelId="llm"))
        wait_until(driver, lambda: js(driver, "return window.parley.status()") == "connected", "the llm channel")
        type_message(driver, "Say hello")

        def streams():
            return js(driver, """return Array.from(document.querySelectorAll('.parley-bot[data-type=textStream]'))
                .map(r => [r.querySelector('.parley-bubble').textContent, r.getAttribute('data-stream-state')])""")

        wait_until(driver, lambda: streams() == [["Hel", "start"]], "the first piece, alone, while the rest is held")
        release.set()
        wait_until(driver, lambda: streams() == [["Hello, growing world.", "end"]],
                   "the whole answer in the same bubble (saw %s)" % streams())
        check(bot_texts(driver)[-1] == "Hello, growing world.", "the answer is the last bot bubble")
    finally:
        release.set()
        endpoint.shutdown()


# --- The pizza order, by clicking ----------------------------------------------------------------------

def pizza_by_clicking(driver, base, output_dir):
    origin = base.rstrip("/")
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["geolocation"]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                           {"latitude": 45.9285271, "longitude": 132.6101925, "accuracy": 1})
    driver.get(page(base, showConnectionStatus="true", enableClearMessage="true", initUserHiddenMessage="Hi",
                    initUserProfile=json.dumps({"givenName": "Ada"}), odais_chat_title="Parley Pizza",
                    BotMessageColor="#E3F2FD", odais_write_a_message="Write your order"))
    wait_for_bot_text(driver, "What do you want to do?")
    check(bot_texts(driver)[0] == "Hi Ada! Welcome to Parley Pizza.",
          "the hidden first message and the profile reach the demo skill on the default channel")
    check(driver.find_element(By.CSS_SELECTOR, ".parley-title").text == "Parley Pizza", "odais_chat_title is the title")
    check(driver.find_element(By.CSS_SELECTOR, ".parley-input").get_attribute("placeholder") == "Write your order",
          "odais_write_a_message is the placeholder")
    wait_until(driver, lambda: driver.find_element(By.CSS_SELECTOR, ".parley-status").text == "Connected",
               "the status Connected")
    check(True, "the connection status shows odais_connected")
    colour = js(driver, "return getComputedStyle(document.querySelector('.parley-bot .parley-bubble')).backgroundColor")
    check(colour == "rgb(227, 242, 253)", "BotMessageColor colours the bot bubbles (%s)" % colour)
    stamps = texts(driver, ".parley-row .parley-time")
    check(len(stamps) >= 2 and all(s.strip() for s in stamps), "every message has an absolute timestamp")
    check(js(driver, "return window.parley.configuration().channelId") == "demo",
          "with no channelId the widget uses the first unauthenticated channel")

    button(driver, "Order Pizza").click()
    wait_until(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, ".parley-cards-horizontal .parley-card")) == 3,
               "the horizontal card carousel")
    check("Order Pizza" in texts(driver, ".parley-user .parley-bubble"), "the tapped postback shows as the user's message")
    check(not driver.find_element(By.XPATH, "//button[normalize-space(.)='Order Pizza']").is_enabled(),
          "past actions are disabled (disablePastActions all)")
    titles = texts(driver, ".parley-card-title")
    check(titles == ["Hawaiian Pizza", "Cheese Pizza", "Margherita Pizza"], "the cards' titles")
    call = driver.find_element(By.CSS_SELECTOR, ".parley-global-actions a[data-action-type=call]")
    check(call.get_attribute("href") == "tel:123456789", "a call action is a tel: link")

    cheese = driver.find_elements(By.CSS_SELECTOR, ".parley-card")[1]
    button(driver, "Order Large", cheese).click()
    wait_for_bot_text(driver, "Where should we deliver your large cheese pizza?")
    driver.save_screenshot(os.path.join(output_dir, "widget.png"))
    button(driver, "Share Location").click()
    wait_for_bot_text(driver, "Thank you! Your large cheese pizza on thick crust is on its way to you.")
    check("45.92853, 132.61019" in texts(driver, ".parley-user .parley-bubble")[-1],
          "the location action sends the browser's position")
    check("Delivery location: 45.9285271, 132.6101925" in texts(driver, ".parley-footer-text"), "footer text")
    check(js(driver, "return document.querySelector('.parley-root, .parley').getAttribute('data-typing')") == "false",
          "the typing indicator is hidden after the end of the turn")

    # Attachment upload through POST /chat/v1/attachments.
    upload = os.path.join(tempfile.mkdtemp(), "note.txt")
    with open(upload, "w") as handle:
        handle.write("extra cheese, please\n")
    js(driver, "document.querySelector('.parley-file').hidden = false")
    driver.find_element(By.CSS_SELECTOR, ".parley-file").send_keys(upload)
    wait_until(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, ".parley-user .parley-file-link")) == 1,
               "the uploaded attachment in the user's messages")
    link = driver.find_element(By.CSS_SELECTOR, ".parley-user .parley-file-link")
    check(link.text == "note.txt" and "/attachment/v1/attachments/" in link.get_attribute("href"),
          "the attachment links to the server's download URL")
    wait_for_bot_text(driver, 'Your pizza is on its way. Type "menu" to order another one, or "bye" to leave.')
    downloaded = js(driver, "return fetch(arguments[0]).then(r => r.text())", link.get_attribute("href"))
    check(downloaded == "extra cheese, please\n", "the uploaded file downloads unchanged")

    driver.find_element(By.CSS_SELECTOR, ".parley-clear").click()
    check(len(driver.find_elements(By.CSS_SELECTOR, ".parley-row")) == 0, "the clear button removes the messages")

    driver.find_element(By.CSS_SELECTOR, ".parley-end").click()
    driver.find_element(By.CSS_SELECTOR, ".parley-end-confirm").click()  # the prompt's Yes
    wait_until(driver, lambda: js(driver, "return window.parley.status()") == "disconnected", "the socket to close")
    check("The conversation has ended." in texts(driver, ".parley-notice"), "ending the conversation says so")
    check(driver.find_element(By.CSS_SELECTOR, ".parley-status").text == "Disconnected", "odais_disconnected")
    type_message(driver, "menu")
    wait_for_bot_text(driver, "What do you want to do?")
    check(js(driver, "return window.parley.status()") == "connected",
          "typing after the end reconnects and starts a new session")


# --- Every payload type ---------------------------------------------------------------------------------

def every_payload_type(driver, base):
    driver.get(page(base, channelId="gallery", timestampMode="relative"))
    wait_until(driver, lambda: js(driver, "return window.parley.status()") == "connected", "the gallery channel")
    js(driver, """
        window.__typing = [];
        new MutationObserver(() => window.__typing.push(document.querySelector('.parley').getAttribute('data-typing')))
            .observe(document.querySelector('.parley'), {attributes: true, attributeFilter: ['data-typing']});
        window.__domEvents = [];
        window.addEventListener('parley:bridge', e => window.__domEvents.push(e.detail));
    """)
    type_message(driver, "hello")
    wait_for_bot_text(driver, "Gallery ready.")
    type_message(driver, "show all")
    wait_for_bot_text(driver, "End of gallery.")

    def rows(kind):
        return driver.find_elements(By.CSS_SELECTOR, ".parley-bot[data-type=%s]" % kind)

    text = rows("text")[1]
    check(text.find_element(By.CSS_SELECTOR, ".parley-bubble").get_attribute("textContent") == "Plain <b>text</b> stays text",
          "text: markup in a skill's text is shown as text")
    check(len(driver.find_elements(By.CSS_SELECTOR, ".parley-messages b")) == 0, "text: no element made from a server string")
    check(text.find_element(By.CSS_SELECTOR, ".parley-header-text").text == "Header here", "headerText")
    check(text.find_element(By.CSS_SELECTOR, ".parley-footer-text").text == "Footer here", "footerText")
    kinds = js(driver, "return Array.from(arguments[0].querySelectorAll('.parley-actions:not(.parley-global-actions) "
                       "[data-action-type]')).map(e => e.tagName + ':' + e.getAttribute('data-action-type'))", text)
    check(kinds == ["BUTTON:postback", "A:url", "BUTTON:url", "A:call", "BUTTON:share", "BUTTON:client", "BUTTON:popup",
                    "BUTTON:webview"], "actions: every action type, a javascript: URL not made a link (%s)" % kinds)
    check(text.find_element(By.CSS_SELECTOR, "a[data-action-type=url]").get_attribute("href") == "https://example.com/menu",
          "actions: url")
    check(text.find_element(By.CSS_SELECTOR, "a[data-action-type=call]").get_attribute("href") == "tel:+18005555555",
          "actions: call")
    check(len(driver.find_elements(By.CSS_SELECTOR, "[href^='javascript:'], [src^='javascript:']")) == 0,
          "no javascript: URL anywhere")
    check(texts(driver, ".parley-global-actions .parley-action")[-1] == "Global action", "globalActions")

    button(driver, "More").click()
    check(driver.find_element(By.CSS_SELECTOR, ".parley-overlay .parley-bubble").text == "Popup text", "popup action")
    button(driver, "Done").click()
    check(len(driver.find_elements(By.CSS_SELECTOR, ".parley-overlay")) == 0, "the popup closes")

    cards = rows("card")
    check(len(cards[0].find_elements(By.CSS_SELECTOR, ".parley-cards-horizontal .parley-card")) == 2, "card: horizontal")
    check(len(cards[1].find_elements(By.CSS_SELECTOR, ".parley-cards-vertical .parley-card")) == 1, "card: vertical")
    check(cards[0].find_element(By.CSS_SELECTOR, ".parley-card-title a").get_attribute("href") == "https://example.com/two",
          "card: url")

    attachments = rows("attachment")
    kinds = [a.find_element(By.CSS_SELECTOR, "[data-attachment-type]").tag_name for a in attachments]
    check(kinds == ["img", "video", "audio", "a"], "attachment: image, video, audio and file (%s)" % kinds)
    check(attachments[3].text == "receipt.pdf", "attachment: a file shows its title")

    location = rows("location")[0]
    check("Pizza Place" in location.text and "37.50000, -122.20000" in location.text, "location")

    table = rows("table")[0]
    check(texts(driver, ".parley-bot[data-type=table] th") == ["Order", "Total"], "table: headings")
    check(texts(driver, ".parley-bot[data-type=table] td") == ["#1042", "$42.10"], "table: cells")
    check("Showing 1 of 12 orders" in table.text and "Orders" in table.text, "table: title and pagination")

    form = rows("form")[0]
    check("Jane Doe" in form.text and "Engineer" in form.text, "form: title and fields")
    check(form.find_element(By.LINK_TEXT, "View").get_attribute("href") == "https://example.com/jane", "form: link field")

    table_form = rows("tableForm")[0]
    detail = table_form.find_element(By.CSS_SELECTOR, ".parley-table-form")
    check(not detail.is_displayed(), "tableForm: the row's form starts closed")
    button(driver, "Details", table_form).click()
    check(detail.is_displayed() and "Manager" in detail.text, "tableForm: Details opens the row's form")

    stream = rows("textStream")
    check(len(stream) == 1 and stream[0].find_element(By.CSS_SELECTOR, ".parley-bubble").text == "Hello, streaming world",
          "textStream: start, running and end make one bubble with the whole text")
    check("receipt" in rows("raw")[0].text, "raw: the payload as JSON")
    check(len(rows("command")) == 0 and len(rows("outboundEvent")) == 0, "command and outboundEvent are not shown")
    check("brandNewType" in rows("brandNewType")[0].text, "an unknown payload type is shown as JSON, not dropped")
    events = js(driver, "return window.__domEvents.map(e => e.event || 'error')")
    check("outboundEvent" in events and "command" in events, "command and outboundEvent reach the host page as events")
    typing = js(driver, "return window.__typing")
    check("true" in typing and typing[-1] == "false", "status: RESPONDING shows and LISTENING hides typing (%s)" % typing)

    stamps = driver.find_elements(By.CSS_SELECTOR, ".parley-time")
    visible = [s for s in stamps if s.is_displayed()]
    check(len(visible) == 1 and visible[0] == stamps[-1] and visible[0].text == "Just now",
          "relative timestamps: only the latest message shows one")
    check(len(driver.find_elements(By.CSS_SELECTOR, ".parley-day")) == 1, "relative timestamps: a day header")

    edit = rows("editForm")[0]
    edit.find_element(By.CSS_SELECTOR, "input[name=subject]").send_keys("Taxi")
    edit.find_element(By.XPATH, ".//label[span='Meals']/input").click()
    edit.find_element(By.XPATH, ".//label[span='Cheese']/input").click()
    edit.find_element(By.CSS_SELECTOR, "input[name=receipt]").click()
    button(driver, "Submit", edit).click()
    expected = 'Form received: {"subject":"Taxi","amount":6,"kind":"MEALS","extras":["CHEESE"],"receipt":"yes"}'
    wait_for_bot_text(driver, expected)
    check(True, "editForm: submitForm sends a formSubmission with every field")


# --- The bridge ----------------------------------------------------------------------------------------

FAKE_WEBKIT = """
window.__bridge = [];
window.webkit = {messageHandlers: {meboCallBack: {postMessage: function (body) { window.__bridge.push(body); }}}};
"""


def bridge(driver, base, commands, output_dir):
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAKE_WEBKIT})
    driver.get(page(base, channelId="gallery"))

    def posted():
        return js(driver, "return window.__bridge.slice()")

    wait_until(driver, lambda: len(posted()) >= 1, "agentLoaded")
    check(posted() == ['{"event":"agentLoaded"}'], "agentLoaded is posted first, as a JSON string")
    check(js(driver, "return window.parley.status()") == "disconnected",
          "with a host web view the page waits for setAppInfo before connecting")

    setup = [c for c in commands if c["value"] == "bridge-user"][0]
    js(driver, setup["setAppInfo"])  # setAppInfo(null, "bridge-user") as ParleyWebBridge writes it
    wait_until(driver, lambda: js(driver, "return window.parley.status()") == "connected", "the connection after setAppInfo")
    check(js(driver, "return window.parley.appInfo().uid") == "bridge-user", "setAppInfo sets the user id")

    hello = [c for c in commands if c["value"] == "hello"][0]
    js(driver, hello["sendMessage"])
    wait_until(driver, lambda: len(posted()) >= 2, "agentResponded")
    responded = json.loads(posted()[1])
    check(responded["event"] == "agentResponded" and responded["bestResponse"]["utterance"] == "Gallery ready."
          and responded["bestResponse"]["options"] == ["Show all"], "agentResponded carries utterance and options")
    check(responded["bestResponse"]["extensions"] == {"appAction": "openGallery", "step": 1}
          and responded["extensions"] == responded["bestResponse"]["extensions"],
          "agentResponded carries the payload's properties as extensions, inside and beside bestResponse")

    failing = [c for c in commands if c["value"] == "fail please"][0]
    js(driver, failing["sendMessage"])
    wait_until(driver, lambda: len(posted()) >= 3, "the error event")
    check(json.loads(posted()[2]) == {"error": {"code": "gallery.failed", "message": "Something went wrong."}},
          "a skill's error payload is posted as an error event")
    check(js(driver, "return window.sendMessage('   ')") is False, "sendMessage refuses a blank message")
    wait_until(driver, lambda: len(posted()) >= 4, "the invalid-argument error")
    check(json.loads(posted()[3])["error"]["code"] == "bridge.invalidArgument", "a bad command is reported as an error")

    # Hostile strings through every command: the generated JavaScript evaluates to exactly the original.
    for entry in commands:
        value = entry["value"]
        check(js(driver, "return " + entry["literal"]) == value, "the literal of %r evaluates to it" % value)
        js(driver, entry["configuration"])
        check(js(driver, "return window.parleyConfig.title") == value,
              "the configuration script for %r sets exactly that string" % value)
        js(driver, entry["setAppInfo"])
        expected = None if value == "bridge-user" else value  # its command is setAppInfo(null, "bridge-user")
        check(js(driver, "return window.parley.appInfo().apiKey") == expected,
              "setAppInfo(%r, …) hands the page exactly that string" % value)
        if value.strip() == "" or value in ("hello", "fail please", "show all", "bridge-user"):
            continue
        before = len(bot_texts(driver))
        js(driver, entry["sendMessage"])
        wait_until(driver, lambda: len(bot_texts(driver)) > before, "the echo of %r" % value)
        shown = texts(driver, ".parley-user .parley-bubble")[-1]
        check(shown == value, "sendMessage(%r) shows exactly that string" % value)
        check(bot_texts(driver)[-1] == "You said: " + value, "the server received exactly %r" % value)
    check(js(driver, "return window.__pwned === undefined"), "no hostile string ran as script")

    with open(os.path.join(output_dir, "bridge-events.json"), "w") as handle:
        json.dump(posted(), handle)


def main():
    base, commands_path, output_dir = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    model_port = int(sys.argv[4])
    with open(commands_path) as handle:
        commands = json.load(handle)
    driver = new_driver()
    try:
        for name, step in [("pizza by clicking", lambda: pizza_by_clicking(driver, base, output_dir)),
                           ("every payload type", lambda: every_payload_type(driver, base)),
                           ("a model's answer, growing", lambda: growing_answer(driver, base, model_port)),
                           ("bridge", lambda: bridge(driver, base, commands, output_dir))]:
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
    log("all browser checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
