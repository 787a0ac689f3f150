#!/usr/bin/env python3
"""The web widget's parity with ParleyUI (issue 24), in headless Chromium driven by Selenium, used as a person uses
it: the language menu, default client responses, avatars and a live agent's name, clear and end, timestamps, and
strings overridden from the embedding page.

Started by the Swift test WidgetBrowserTests with a running in-process server:

    parity_browser_test.py BASE_URL STRINGS_DIR OUTPUT_DIR

BASE_URL     the server, with channels "demo" (the pizza demo, English and French) and "slow"
             (Browser/slow-skill.json), and the agent key "agent-key"
STRINGS_DIR  ParleyUI's string tables (Sources/ParleyUI/Resources/Strings), which the widget's must match
OUTPUT_DIR   where to write the screenshots (header.png, agent.png) and layout.json

Time that matters is the page's: a test clock (window.parleyClock) is installed before the widget runs and moved
by the script, so that no check waits for real seconds to pass.

Exits 0 when every check passed; otherwise prints what failed and exits 1.
"""

import datetime
import json
import os
import re
import sys
import traceback
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from widget_browser_test import check, js, log, texts, wait_until
from widget_browser_test import new_driver as widget_new_driver
from parity_support import agent_token, box, close_to, header_layout, overlaps, png_pixel
# Installed before every page's scripts: a clock the script moves (parleyClock.advance(ms) runs the timers that
# fall due, in order), a record of the frames the page sends, and optionally the browser's language.
PAGE_HOOKS = """
(function () {
  var time = Date.now(), timers = [], next = 0;
  window.parleyClock = {
    now: function () { return time; },
    setTimeout: function (callback, ms) { next += 1; timers.push({id: next, at: time + Math.max(0, ms || 0), run: callback}); return next; },
    clearTimeout: function (id) { timers = timers.filter(function (t) { return t.id !== id; }); },
    advance: function (ms) {
      var end = time + ms;
      for (;;) {
        timers.sort(function (a, b) { return a.at - b.at || a.id - b.id; });
        if (!timers.length || timers[0].at > end) { break; }
        var due = timers.shift();
        time = due.at;
        due.run();
      }
      time = end;
    }
  };
  window.__sent = [];
  window.__errors = [];
  window.__violations = [];
  document.addEventListener("securitypolicyviolation", function (e) {
    window.__violations.push(e.violatedDirective + " " + e.blockedURI);
  });
  window.addEventListener("error", function (e) { window.__errors.push(String(e.message) + " @" + e.lineno); });
  var send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (String(this.url).indexOf("/chat/v1/") >= 0) { try { window.__sent.push(JSON.parse(data)); } catch (e) {} }
    return send.call(this, data);
  };
  var language = sessionStorage.getItem("test.navigatorLanguage");
  if (language) { Object.defineProperty(navigator, "language", {get: function () { return language; }}); }
})();
"""


def new_driver():
    return widget_new_driver(browser_log=True)


def bot_texts(driver):
    return texts(driver, ".parley-bot .parley-bubble")


def wait_for_bot_text(driver, text, timeout=20):
    wait_until(driver, lambda: text in bot_texts(driver), "the bot to say " + repr(text), timeout)


def type_message(driver, text):
    field = driver.find_element(By.CSS_SELECTOR, ".parley-input")
    field.send_keys(text)
    field.send_keys(Keys.ENTER)


def say_and_wait(driver, text):
    """Types `text` and waits for the skill's next message."""
    def count():
        return len(driver.find_elements(By.CSS_SELECTOR, ".parley-row.parley-bot"))
    before = count()
    type_message(driver, text)
    wait_until(driver, lambda: count() > before, "an answer to " + repr(text))


def advance(driver, seconds):
    js(driver, "window.parleyClock.advance(arguments[0])", int(seconds * 1000))


def open_widget(driver, base, config, navigator_language=None):
    """Opens the widget with `config` as ?config=<JSON>, the way an embedding page configures it."""
    driver.get(base + "/widget/config")  # an origin for sessionStorage before the widget's page loads
    js(driver, "sessionStorage.clear(); localStorage.clear();"
               "if (arguments[0]) { sessionStorage.setItem('test.navigatorLanguage', arguments[0]); }",
       navigator_language)
    reload_widget(driver, base, config)


def reload_widget(driver, base, config):
    driver.get(base + "/?" + urllib.parse.urlencode({"config": json.dumps(config)}))
    wait_until(driver, lambda: js(driver, "return window.parley && window.parley.status()") == "connected",
               "the widget to connect")
    check(js(driver, "return window.__violations") == [], "no Content-Security-Policy violation while starting")


def sent(driver):
    """The frames the page sent on the chat socket, without its state frames (auth, pings)."""
    return js(driver, "return window.__sent.filter(function (f) { return !f.state; })")


# --- Strings --------------------------------------------------------------------------------------------

def read_strings_file(path):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    return {m.group(1): m.group(2).replace('\\"', '"')
            for m in re.finditer(r'^"([^"]+)"\s*=\s*"((?:[^"\\]|\\.)*)";', text, re.M)}


def strings_match_parleyui(driver, base, strings_dir):
    """The widget's texts are ParleyUI's `.strings` tables, served by the server as JSON, its own buttons' included."""
    open_widget(driver, base, {"channelId": "demo"})
    served = js(driver, "return fetch('/widget/strings.json').then(r => r.json())")
    tables = js(driver, "return window.parley.stringTables()")
    check(sorted(served.keys()) == ["en", "es", "fr"] and sorted(tables.keys()) == ["en", "es", "fr"],
          "the server serves ParleyUI's English, French and Spanish, and the widget uses them")
    for language, table in tables.items():
        reference = read_strings_file(os.path.join(strings_dir, language + ".lproj", "Localizable.strings"))
        check(len(reference) >= 80 and served[language] == reference,
              "%s: /widget/strings.json is ParleyUI's table, every text (%d keys)" % (language, len(reference)))
        different = [key for key in reference if table.get(key) != reference[key]]
        check(different == [], "%s: the widget shows ParleyUI's texts (%s)" % (language, different))
        own = sorted(key for key in table if key not in reference)
        check(own == [], "%s: the widget adds no text of its own (%s)" % (language, own))
    strings = js(driver, "return window.parley.strings()")
    check(strings["odais_write_a_message"] == "Write a message" and strings["parley_send"] == "Send",
          "the page's texts come from the tables")


def overridden_strings(driver, base):
    config = {"channelId": "demo", "initUserHiddenMessage": "Hi", "odais_chat_title": "Pizza Line",
              "multiLangChat": {"supportedLanguages": [{"lang": "en"}, {"lang": "fr"}]},
              "strings": {"odais_write_a_message": "Your order…",
                          "fr": {"odais_write_a_message": "Votre commande…", "parley_end_conversation_title": "Fin"},
                          "odais_end_conversation": "Stop"}}
    open_widget(driver, base, config)
    field = driver.find_element(By.CSS_SELECTOR, ".parley-input")
    check(field.get_attribute("placeholder") == "Your order…", "a string overridden for every language")
    check(driver.find_element(By.CSS_SELECTOR, ".parley-title").text == "Pizza Line", "odais_chat_title from the page")
    check(driver.find_element(By.CSS_SELECTOR, ".parley-end").text == "Stop",
          "the older name odais_end_conversation still overrides the end button")
    Select(driver.find_element(By.CSS_SELECTOR, ".parley-language")).select_by_value("fr")
    wait_until(driver, lambda: field.get_attribute("placeholder") == "Votre commande…",
               "the French override of the placeholder")
    check(driver.find_element(By.CSS_SELECTOR, ".parley-end").text == "Fin", "a string overridden for French only")
    check(driver.find_element(By.CSS_SELECTOR, ".parley-send").text == "Envoyer",
          "a string not overridden is the widget's French")
    check(driver.find_element(By.CSS_SELECTOR, ".parley-title").text == "Pizza Line",
          "an override for every language holds in French too")

    # No chat language chosen: the texts follow the browser's language ("match device").
    open_widget(driver, base, {"channelId": "demo"}, navigator_language="es-MX")
    check(js(driver, "return navigator.language") == "es-MX", "the browser's language is es-MX")
    check(driver.find_element(By.CSS_SELECTOR, ".parley-input").get_attribute("placeholder") == "Escribe un mensaje",
          "without a chat language the texts are in the browser's language (es-MX → es)")
    open_widget(driver, base, {"channelId": "demo", "locale": "fr"}, navigator_language="es-MX")
    check(driver.find_element(By.CSS_SELECTOR, ".parley-input").get_attribute("placeholder") == "Écrivez un message",
          "locale from the page wins over the browser's language")


# --- Language menu --------------------------------------------------------------------------------------

def language_menu(driver, base, output_dir):
    config = {"channelId": "demo", "initUserHiddenMessage": "Hi", "enableClearMessage": True,
              "multiLangChat": {"supportedLanguages": [{"lang": "en"}, {"lang": "fr"}, {"lang": "es", "label": "Español"}]}}
    open_widget(driver, base, config)
    wait_for_bot_text(driver, "Hi there! Welcome to Parley Pizza.")
    menu = Select(driver.find_element(By.CSS_SELECTOR, ".parley-language"))
    labels = [option.text for option in menu.options]
    check(labels == ["Detect Language", "English", "French", "Español"],
          "the menu: Detect Language, then each language's label or its name (%s)" % labels)
    check(menu.first_selected_option.text == "Detect Language",
          "without primaryLanguage the menu starts on Detect Language")
    check(driver.find_element(By.CSS_SELECTOR, ".parley-language").get_attribute("aria-label") == "Language",
          "the menu's label is parley_language_menu")
    check(not any("languageTag" in json.dumps(frame) for frame in sent(driver)),
          "detection sends no languageTag in the opening")
    layout = header_layout(driver, output_dir, "header.png")

    say_and_wait(driver, "menu")
    check(len(driver.find_elements(By.CSS_SELECTOR, ".parley-row.parley-bot")) == 3,
          "three skill messages before the language changes")
    before = len(sent(driver))
    menu.select_by_visible_text("French")
    wait_for_bot_text(driver, "Bonjour à vous ! Bienvenue chez Parley Pizza.")
    after = sent(driver)[before:]
    check(after[0] == {"profile": {"languageTag": "fr"}, "userId": js(driver, "return window.parley.appInfo().uid"),
                       "sdkMetadata": {"version": "parley-widget-1"}},
          "a language change sends the profile update ParleyClient sends (%s)" % after[0])
    check(after[1]["messagePayload"] == {"type": "text", "text": "Hi"}, "then initUserHiddenMessage again")
    check(texts(driver, ".parley-user .parley-bubble") == [], "the conversation starts over: the user's messages went")
    check(bot_texts(driver)[0] == "Bonjour à vous ! Bienvenue chez Parley Pizza.", "… and the skill's earlier messages")
    check(driver.find_element(By.CSS_SELECTOR, ".parley-input").get_attribute("placeholder") == "Écrivez un message",
          "the texts follow the chat language")
    check(driver.find_element(By.CSS_SELECTOR, ".parley-end").text == "Terminer la conversation",
          "the end button is French")
    check(js(driver, "return document.querySelector('.parley').getAttribute('lang')") == "fr", "lang=fr on the widget")
    check([o.text for o in menu.options][0] == "Détecter la langue", "the menu itself is French")
    layout_fr = header_layout(driver, output_dir, "header-fr.png")

    # The choice is kept: the page opened again starts in French, and says so in the opening.
    reload_widget(driver, base, config)
    wait_until(driver, lambda: len(sent(driver)) >= 2, "the opening")
    check(Select(driver.find_element(By.CSS_SELECTOR, ".parley-language")).first_selected_option.get_attribute("value")
          == "fr", "the language chosen is kept for the next visit")
    check(sent(driver)[0]["profile"] == {"languageTag": "fr"}, "the opening carries the kept language")
    check(driver.find_element(By.CSS_SELECTOR, ".parley-input").get_attribute("placeholder") == "Écrivez un message",
          "the page opened again is in French")

    # Detect Language sends und, and the skill answers in its first language again.
    Select(driver.find_element(By.CSS_SELECTOR, ".parley-language")).select_by_value("und")
    wait_for_bot_text(driver, "Hi there! Welcome to Parley Pizza.")
    check({"profile": {"languageTag": "und"}} in [{"profile": f.get("profile")} for f in sent(driver) if "profile" in f],
          "Detect Language sends languageTag und")
    check(js(driver, "return window.parley.chatLanguage()") is None, "no chat language while detecting")

    # The page's API: setPrimaryLanguage("fr-CA") picks fr (its language), an unknown one detection.
    check(js(driver, "return window.parley.setPrimaryLanguage('fr-CA')") is True, "setPrimaryLanguage('fr-CA')")
    check(js(driver, "return window.parley.chatLanguage()") == "fr", "fr-CA selects fr")
    js(driver, "window.parley.setPrimaryLanguage('de')")
    check(js(driver, "return window.parley.chatLanguage()") is None, "a language not offered means detection")
    return layout, layout_fr


# --- Default client responses ---------------------------------------------------------------------------

def default_responses(driver, base):
    config = {"channelId": "slow", "initUserHiddenMessage": "start", "enableDefaultClientResponse": True,
              "defaultGreetingTimeout": 3, "defaultWaitMessageInterval": 4, "typingStatusTimeout": 12}
    open_widget(driver, base, config)
    wait_for_bot_text(driver, "Ready.")

    def defaults():
        return js(driver, "return Array.from(document.querySelectorAll('.parley-bot[data-client-response]'))"
                          ".map(r => r.getAttribute('data-client-response') + ':' + r.querySelector('.parley-bubble').textContent)")

    def typing():
        return js(driver, "return document.querySelector('.parley').getAttribute('data-typing')")

    type_message(driver, "slow")
    wait_until(driver, lambda: "slow" in texts(driver, ".parley-user .parley-bubble"), "the user's message")
    wait_until(driver, lambda: typing() == "true", "the typing indicator")
    advance(driver, 2.9)
    check(defaults() == [], "nothing before defaultGreetingTimeout")
    advance(driver, 0.1)
    greeting = "greeting:Hey, Nice to meet you! Allow me a moment to get back to you."
    wait_ = "wait:I'm still working on your request. Thank you for your patience!"
    sorry = "sorry:I'm sorry. I can't get you the right content. Please try again."
    check(defaults() == [greeting], "the greeting (odais_default_greeting_message) after 3 s")
    check(texts(driver, ".parley-bot[data-client-response] .parley-time")[0].strip() != "",
          "the greeting has a timestamp")
    advance(driver, 3.9)
    check(defaults() == [greeting], "no wait message before defaultWaitMessageInterval")
    advance(driver, 0.1)
    check(defaults() == [greeting, wait_], "a wait message 4 s later (odais_default_wait_message)")
    advance(driver, 4)
    check(defaults() == [greeting, wait_, wait_], "and every 4 s")
    check(typing() == "true", "the typing indicator stays while waiting")
    advance(driver, 1)
    check(defaults() == [greeting, wait_, wait_, sorry], "the sorry message at typingStatusTimeout (12 s)")
    check(typing() == "false", "the sorry message ends the typing indicator")
    advance(driver, 60)
    check(len(defaults()) == 4, "nothing more after the sorry message")

    # A later message: the wait message first, no greeting.
    type_message(driver, "slow")
    wait_until(driver, lambda: texts(driver, ".parley-user .parley-bubble").count("slow") == 2, "the second message")
    advance(driver, 4)
    check(defaults()[4:] == [wait_], "after the first message of a conversation the wait message comes first")

    # A skill that answers stops the default responses.
    type_message(driver, "quick")
    wait_for_bot_text(driver, "You said: quick")
    count = len(defaults())
    advance(driver, 30)
    check(len(defaults()) == count, "no default response once the skill answered")


# --- Avatars, a live agent, clear and end ---------------------------------------------------------------

RED_DOT = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC")
GREEN_DOT = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNg+M8AAAICAQB7CYF4AAAAAElFTkSuQmCC")


def element_colour(element):
    png = element.screenshot_as_png
    rect = element.rect
    colour, _ = png_pixel(png, int(rect["width"] / 2), int(rect["height"] / 2))
    return colour


def avatars_agent_clear_end(driver, base, output_dir):
    config = {"channelId": "demo", "initUserHiddenMessage": "Hi", "enableClearMessage": True,
              "botAvatar": RED_DOT, "personAvatar": GREEN_DOT}
    open_widget(driver, base, config)
    wait_for_bot_text(driver, "What do you want to do?")
    bot_rows = driver.find_elements(By.CSS_SELECTOR, ".parley-row.parley-bot")
    check(len(bot_rows) == 2, "the greeting and the question: two skill messages")
    check([len(r.find_elements(By.CSS_SELECTOR, ".parley-avatar")) for r in bot_rows] == [1, 0],
          "the skill's avatar on the first message of its run only")
    avatar = bot_rows[0].find_element(By.CSS_SELECTOR, ".parley-avatar")
    check(close_to(element_colour(avatar), (255, 0, 0)), "the skill's avatar shows botAvatar's image (red)")
    check(not overlaps(box(driver, avatar), box(driver, bot_rows[0].find_element(By.CSS_SELECTOR, ".parley-bubble"))),
          "the avatar does not cover the bubble")
    check(box(driver, bot_rows[0].find_element(By.CSS_SELECTOR, ".parley-bubble"))["left"]
          == box(driver, bot_rows[1].find_element(By.CSS_SELECTOR, ".parley-bubble"))["left"],
          "the run's bubbles line up")

    say_and_wait(driver, "menu")
    user_avatar = driver.find_element(By.CSS_SELECTOR, ".parley-user .parley-avatar")
    check(close_to(element_colour(user_avatar), (0, 255, 0)), "the user's avatar shows personAvatar's image (green)")
    js(driver, "window.parley.setPersonAvatar(arguments[0])", RED_DOT)
    check(close_to(element_colour(driver.find_element(By.CSS_SELECTOR, ".parley-user .parley-avatar")), (255, 0, 0)),
          "setPersonAvatar changes the earlier messages' avatar too")

    # A live agent takes over: an agent console in another tab, on the agent socket.
    widget = driver.current_window_handle
    user = js(driver, "return window.parley.appInfo().uid")
    type_message(driver, "agent")
    wait_for_bot_text(driver, "I'm connecting you to one of our agents. Please wait.")
    driver.switch_to.new_window("tab")
    driver.get(base + "/widget/config")
    agent = {"name": "Ava Lopez", "nameTextColor": "#AA0000", "avatarTextColor": "#FFFFFF",
             "avatarBackgroundColor": "#00AA00"}
    driver.execute_async_script("""
        var done = arguments[arguments.length - 1];
        var socket = new WebSocket(arguments[0]);
        window.__frames = [];
        window.__agent = socket;
        socket.onmessage = function (e) { window.__frames.push(JSON.parse(e.data)); };
        socket.onopen = function () { socket.send(JSON.stringify({type: "auth", token: arguments[1], agent: arguments[2]})); done(true); };
    """.replace("arguments[1]", json.dumps(agent_token(agent["name"]))).replace("arguments[2]", json.dumps(agent)),
        base.replace("http", "ws", 1) + "/agent/socket")
    wait_until(driver, lambda: js(driver, "return window.__frames.some(f => (f.type === 'queue' && "
                                          "f.conversations.some(c => c.userId === arguments[0])) || "
                                          "(f.type === 'queueChanged' && "
                                          "f.changes.some(c => c.conversation.userId === arguments[0])))", user),
               "the conversation in the agent queue")
    js(driver, "window.__agent.send(JSON.stringify({type: 'join', channelId: 'demo', userId: arguments[0]}))", user)
    wait_until(driver, lambda: js(driver, "return window.__frames.some(f => f.type === 'joined')"), "joined")
    js(driver, "window.__agent.send(JSON.stringify({type: 'typing', channelId: 'demo', userId: arguments[0],"
               "status: 'RESPONDING'}))", user)
    agent_tab = driver.current_window_handle
    driver.switch_to.window(widget)
    typing = driver.find_element(By.CSS_SELECTOR, ".parley-typing")
    wait_until(driver, lambda: typing.is_displayed(), "the agent's typing indicator")
    check(typing.text == "Ava Lopez Responding..." and typing.get_attribute("data-sender") == "agent",
          "an agent typing shows the agent's name with odais_typing_status (%r)" % typing.text)
    driver.switch_to.window(agent_tab)
    for text in ["Hello, I'm Ava.", "How can I help?"]:
        js(driver, "window.__agent.send(JSON.stringify({type: 'message', channelId: 'demo', userId: arguments[0],"
                   "messagePayload: {type: 'text', text: arguments[1]}}))", user, text)
    driver.switch_to.window(widget)
    wait_for_bot_text(driver, "How can I help?")
    check(not typing.is_displayed(), "the agent's message ends the typing indicator")
    agent_rows = driver.find_elements(By.CSS_SELECTOR, ".parley-row[data-sender=agent]")
    check(len(agent_rows) == 2, "the agent's two messages")
    names = [r.find_elements(By.CSS_SELECTOR, ".parley-sender") for r in agent_rows]
    check([len(n) for n in names] == [1, 0] and names[0][0].text == "Ava Lopez",
          "the agent's name (from agentSession) on the first message of the agent's run")
    check(js(driver, "return getComputedStyle(arguments[0]).color", names[0][0]) == "rgb(170, 0, 0)",
          "the name in the agent's nameTextColor")
    check(agent_rows[0].get_attribute("aria-label") == "Agent", "an agent message is labelled parley_access_label_agent")
    initials = agent_rows[0].find_element(By.CSS_SELECTOR, ".parley-avatar.parley-initials")
    check(initials.text == "AL", "without an avatar image the agent's initials")
    check(js(driver, "return getComputedStyle(arguments[0]).color", initials) == "rgb(255, 255, 255)",
          "the initials in avatarTextColor")
    check(close_to(element_colour(initials), (0, 170, 0), 40), "the initials' circle painted in avatarBackgroundColor")
    bubble = agent_rows[0].find_element(By.CSS_SELECTOR, ".parley-bubble")
    check(not overlaps(box(driver, initials), box(driver, bubble)) and
          not overlaps(box(driver, initials), box(driver, names[0][0])),
          "the agent's avatar covers neither the name nor the bubble")
    driver.save_screenshot(os.path.join(output_dir, "agent.png"))

    # setAgentDetails overrides the server's details for the next messages.
    js(driver, "window.parley.setAgentDetails({name: 'Bob', avatarImage: arguments[0]})", RED_DOT)
    driver.switch_to.window(agent_tab)
    js(driver, "window.__agent.send(JSON.stringify({type: 'message', channelId: 'demo', userId: arguments[0],"
               "messagePayload: {type: 'text', text: 'Bob here.'}}))", user)
    js(driver, "window.__agent.send(JSON.stringify({type: 'handBack', channelId: 'demo', userId: arguments[0]}))", user)
    driver.switch_to.window(widget)
    wait_for_bot_text(driver, "You are back with the assistant.")
    bob = driver.find_elements(By.CSS_SELECTOR, ".parley-row[data-sender=agent]")[-1]
    check(bob.find_element(By.CSS_SELECTOR, ".parley-sender").text == "Bob",
          "setAgentDetails renames the agent: a new run, with the new name")
    check(close_to(element_colour(bob.find_element(By.CSS_SELECTOR, ".parley-avatar")), (255, 0, 0)),
          "… and its avatarImage")
    back = driver.find_elements(By.CSS_SELECTOR, ".parley-row")[-1]
    check(back.get_attribute("data-sender") == "bot" and back.get_attribute("data-run-first") == "true",
          "the skill's message after the agent starts a new run")

    # Clear: the messages on the page go, the conversation goes on.
    driver.find_element(By.CSS_SELECTOR, ".parley-clear").click()
    check(len(driver.find_elements(By.CSS_SELECTOR, ".parley-row")) == 0, "clear removes every message")
    check(js(driver, "return window.parley.status()") == "connected", "clear keeps the conversation")
    check(not any(f.get("messagePayload", {}).get("type") == "closeSession" for f in sent(driver)),
          "clear sends nothing to the server")
    say_and_wait(driver, "menu")

    # End: the prompt first; No keeps everything.
    driver.find_element(By.CSS_SELECTOR, ".parley-end").click()
    prompt = driver.find_element(By.CSS_SELECTOR, ".parley-end-prompt")
    check(prompt.find_element(By.CSS_SELECTOR, ".parley-dialog-title").text == "End conversation"
          and prompt.find_element(By.CSS_SELECTOR, ".parley-dialog-message").text
          == "Are you sure you want to end the conversation?", "the end prompt's texts are ParleyUI's")
    buttons = [b.text for b in prompt.find_elements(By.CSS_SELECTOR, "button")]
    check(buttons == ["No", "Yes"], "the prompt's buttons (%s)" % buttons)
    prompt.find_element(By.CSS_SELECTOR, ".parley-end-cancel").click()
    check(len(driver.find_elements(By.CSS_SELECTOR, ".parley-end-prompt")) == 0, "No closes the prompt")
    check(js(driver, "return window.parley.status()") == "connected"
          and len(driver.find_elements(By.CSS_SELECTOR, ".parley-row")) == 2,
          "No keeps the conversation and its messages")
    driver.find_element(By.CSS_SELECTOR, ".parley-end").click()
    driver.find_element(By.CSS_SELECTOR, ".parley-end-confirm").click()
    wait_until(driver, lambda: js(driver, "return window.parley.status()") == "disconnected", "the socket to close")
    check(sent(driver)[-1] == {"messagePayload": {"type": "closeSession"}, "userId": user},
          "Yes sends closeSession, as ParleyClient's endChat")
    check(len(driver.find_elements(By.CSS_SELECTOR, ".parley-row")) == 0
          and texts(driver, ".parley-notice") == ["The conversation has ended."], "the history is erased, and the end said")
    driver.switch_to.window(agent_tab)
    driver.close()
    driver.switch_to.window(widget)


# --- Timestamps -----------------------------------------------------------------------------------------

def timestamps(driver, base):
    driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "UTC"})
    open_widget(driver, base, {"channelId": "slow", "initUserHiddenMessage": "start"})
    wait_for_bot_text(driver, "Ready.")
    stamp = driver.find_elements(By.CSS_SELECTOR, ".parley-row .parley-time")[-1]
    when = datetime.datetime.fromtimestamp(int(stamp.get_attribute("data-time")) / 1000, datetime.timezone.utc)
    expected = "%s %d, %d %02d:%02d" % (when.strftime("%B"), when.day, when.year, when.hour, when.minute)
    check(stamp.text == expected, "the default timestampFormat MMMM d, yyyy HH:mm (%r, %r)" % (stamp.text, expected))

    open_widget(driver, base, {"channelId": "slow", "initUserHiddenMessage": "start",
                               "timestampFormat": "EEE dd/MM/yy hh:mm:ss a 'at' HH'h'", "timeZone": "Asia/Tokyo"})
    wait_for_bot_text(driver, "Ready.")
    stamp = driver.find_elements(By.CSS_SELECTOR, ".parley-row .parley-time")[-1]
    when = datetime.datetime.fromtimestamp(int(stamp.get_attribute("data-time")) / 1000,
                                           datetime.timezone(datetime.timedelta(hours=9)))
    twelve = when.hour % 12 or 12
    expected = "%s %02d/%02d/%02d %02d:%02d:%02d %s at %02dh" % (
        when.strftime("%a"), when.day, when.month, when.year % 100, twelve, when.minute, when.second,
        "AM" if when.hour < 12 else "PM", when.hour)
    check(stamp.text == expected, "timestampFormat and timeZone (%r, %r)" % (stamp.text, expected))

    open_widget(driver, base, {"channelId": "slow", "timestampMode": "relative", "locale": "en",
                               "multiLangChat": {"supportedLanguages": [{"lang": "en"}, {"lang": "fr"}]}})
    type_message(driver, "one")
    wait_for_bot_text(driver, "Ready.")
    type_message(driver, "two")
    wait_for_bot_text(driver, "You said: two")

    def shown():
        return js(driver, "return Array.from(document.querySelectorAll('.parley-time'))"
                          ".filter(e => !e.hidden).map(e => e.textContent)")

    check(shown() == ["Just now"], "relative: only the latest message has a time, Just now")
    check(len(driver.find_elements(By.CSS_SELECTOR, ".parley-time")) == 4, "relative: every message keeps its date")
    days = driver.find_elements(By.CSS_SELECTOR, ".parley-day")
    first = datetime.datetime.fromtimestamp(int(days[0].get_attribute("data-time")) / 1000, datetime.timezone.utc)
    check(len(days) == 1 and days[0].text == "%s %d, %d %02d:%02d" % (
        first.strftime("%B"), first.day, first.year, first.hour, first.minute),
        "relative: a header with the day's first message's date and time in timestampFormat")
    steps = [(9.9, "Just now"), (0.1, "A few moments ago"), (49.9, "A few moments ago"), (0.1, "1 min ago"),
             (60, "2 min ago"), (57 * 60, "59 min ago"), (60, "1 hr ago"), (2 * 3600, "3 hr ago"),
             (21 * 3600, "1 day ago"), (86400, "2 days ago"), (28 * 86400, "1 month ago"),
             (30 * 86400, "2 months ago"), (305 * 86400, "1 year ago"), (365 * 86400, "2 years ago")]
    for seconds, label in steps:
        advance(driver, seconds)
        check(shown() == [label], "relative: %s after %s s more" % (label, seconds))
    type_message(driver, "three")
    wait_for_bot_text(driver, "You said: three")
    check(shown() == ["Just now"], "relative: a new message takes the time, Just now again")
    check(len(driver.find_elements(By.CSS_SELECTOR, ".parley-day")) == 2, "relative: a new day, a new header")
    Select(driver.find_element(By.CSS_SELECTOR, ".parley-language")).select_by_value("fr")
    check(len(driver.find_elements(By.CSS_SELECTOR, ".parley-row")) == 0, "a language change clears the messages")
    type_message(driver, "quatre")
    wait_until(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, ".parley-bot")) >= 1, "an answer in French")
    advance(driver, 3 * 3600)
    french = js(driver, "return window.parley.stringTables().fr.parley_time_hours").replace("{0}", "3")
    check(french.startswith("Il y a 3") and shown() == [french], "relative: the buckets in the chat language (%r)" % shown())
    header = driver.find_elements(By.CSS_SELECTOR, ".parley-day")[-1]
    check(re.match(r"^(janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre) \d+, \d{4} \d\d:\d\d$",
                   header.text) is not None, "the day header's month in French (%r)" % header.text)

    open_widget(driver, base, {"channelId": "slow", "timestampMode": "default"})
    type_message(driver, "one")
    wait_for_bot_text(driver, "Ready.")
    stamps = driver.find_elements(By.CSS_SELECTOR, ".parley-row .parley-time")
    check(len(stamps) == 2 and all(re.match(r"^[A-Z][a-z]+ \d+, \d{4} \d\d:\d\d$", s.text) for s in stamps)
          and len(driver.find_elements(By.CSS_SELECTOR, ".parley-day")) == 0,
          "any other timestampMode (the default) is absolute: every message, no day header")

    open_widget(driver, base, {"channelId": "slow", "enableTimestamp": False, "timestampMode": "relative"})
    type_message(driver, "one")
    wait_for_bot_text(driver, "Ready.")
    check(len(driver.find_elements(By.CSS_SELECTOR, ".parley-time, .parley-day")) == 0,
          "enableTimestamp false: no time and no day header")


def main():
    base, strings_dir, output_dir = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    driver = new_driver()
    layouts = {}
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PAGE_HOOKS})
        steps = [("strings match ParleyUI", lambda: strings_match_parleyui(driver, base, strings_dir)),
                 ("strings overridden from the page", lambda: overridden_strings(driver, base)),
                 ("language menu", lambda: layouts.update(zip(["en", "fr"], language_menu(driver, base, output_dir)))),
                 ("default client responses", lambda: default_responses(driver, base)),
                 ("avatars, agent, clear and end", lambda: avatars_agent_clear_end(driver, base, output_dir)),
                 ("timestamps", lambda: timestamps(driver, base))]
        only = os.environ.get("PARLEY_PARITY_ONLY")
        for name, step in steps:
            if only and only not in name:
                continue
            log("== " + name)
            step()
            violations = js(driver, "return window.__violations")
            check(violations == [], "no Content-Security-Policy violation on the page (%s)" % violations)
        errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"
                  and "favicon" not in entry.get("message", "")]
        check(errors == [], "no error in the browser's console (%s)" % errors)
    except Exception:
        traceback.print_exc(file=sys.stdout)
        try:
            driver.save_screenshot(os.path.join(output_dir, "failure.png"))
            log("browser console: " + json.dumps(driver.get_log("browser")))
            log("page errors: " + json.dumps(js(driver, "return window.__errors")))
            log("sent: " + json.dumps(js(driver, "return window.__sent"), ensure_ascii=False))
            log("rows: " + json.dumps(texts(driver, ".parley-row"), ensure_ascii=False))
        except Exception:
            pass
        return 1
    finally:
        driver.quit()
    with open(os.path.join(output_dir, "layout.json"), "w") as handle:
        json.dump(layouts, handle)
    log("all parity browser checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
