#!/usr/bin/env python3
"""Talks to Parley's web widget in headless Chromium, whose fake microphone plays a WAV that espeak-ng made.

Started by the Swift test WidgetSpeechBrowserTests with a running in-process server:

    speech_browser_test.py BASE_URL SPEECH_WAV SILENCE_WAV OUTPUT_DIR

BASE_URL    the server, with an open channel "voice" whose speech is on and whose skill echoes
SPEECH_WAV  the caller's audio: a sentence with silence after it (Chromium's fake capture device plays it once)
SILENCE_WAV silence only
OUTPUT_DIR  where to write speech.json (what the page sent and heard) and failure.png

The widget streams the microphone to /voice/stream/recognize, shows partial text and a level, and sends the
final text with sdkMetadata.speechId; the reply is read aloud through /tts/speak. Exits 0 when every check passed.
"""

import json
import os
import sys
import traceback
import urllib.parse

from selenium.webdriver.common.by import By

from widget_browser_test import check, js, log, wait_until
from widget_browser_test import new_driver as widget_new_driver

# Before the widget's script: record the chat frames it sends, every partial text it shows, and the page's errors.
PAGE_HOOKS = """
(function () {
  window.__sent = [];
  window.__voice = [];
  window.__partials = [];
  window.__loudest = -1000;
  window.__errors = [];
  window.__violations = [];
  document.addEventListener("securitypolicyviolation", function (e) {
    window.__violations.push(e.violatedDirective + " " + e.blockedURI);
  });
  window.addEventListener("error", function (e) { window.__errors.push(String(e.message) + " @" + e.lineno); });
  var send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    var url = String(this.url);
    if (url.indexOf("/chat/v1/") >= 0) { try { window.__sent.push(JSON.parse(data)); } catch (e) {} }
    if (url.indexOf("/voice/stream/recognize/") >= 0) {
      window.__voice.push(typeof data === "string" ? data : (data.byteLength || 0));
    }
    return send.call(this, data);
  };
  new MutationObserver(function () {
    var partial = document.querySelector(".parley-partial");
    if (partial && window.__partials[window.__partials.length - 1] !== partial.textContent) {
      window.__partials.push(partial.textContent);
    }
    var level = document.querySelector(".parley-level");
    var dbfs = level ? Number(level.getAttribute("data-dbfs")) : NaN;
    if (dbfs > window.__loudest) { window.__loudest = dbfs; }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true,
                         attributeFilter: ["data-dbfs"] });
})();
"""


def new_driver(wav):
    driver = widget_new_driver(
        ["--autoplay-policy=no-user-gesture-required", "--use-fake-ui-for-media-stream",
         "--use-fake-device-for-media-stream", "--use-file-for-fake-audio-capture=" + wav + "%noloop"],
        browser_log=True)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PAGE_HOOKS})
    return driver


def open_widget(driver, base, config):
    driver.get(base + "/?" + urllib.parse.urlencode({"config": json.dumps(config)}))
    wait_until(driver, lambda: js(driver, "return window.parley && window.parley.status()") == "connected",
               "the widget to connect")


def user_texts(driver):
    return [row.text for row in driver.find_elements(By.CSS_SELECTOR, ".parley-row.parley-user")]


def spoken_sentence(driver, base, output):
    config = {"channelId": "voice", "enableSpeech": True, "enableBotAudioResponse": True,
              "initBotAudioMuted": False, "enableTimestamp": False}
    open_widget(driver, base, config)
    mic = driver.find_element(By.CSS_SELECTOR, ".parley-mic")
    check(mic.get_attribute("aria-label") == "Speak button", "the microphone button is there, labelled")
    mute = driver.find_element(By.CSS_SELECTOR, ".parley-mute")
    check(mute.get_attribute("aria-label") == "Mute audio response", "the mute button says it would mute")
    mic.click()
    check(js(driver, "return window.parley.isRecording()"), "recording after the click")
    wait_until(driver, lambda: any("lights" in text for text in user_texts(driver)),
               "the spoken sentence as a user message", timeout=40)
    check(not js(driver, "return window.parley.isRecording()"), "recording stopped by itself at the final result")
    said = [text for text in user_texts(driver) if "lights" in text][0]
    log("heard: " + said)
    check("turn on the lights" in said.lower(), "the sentence was heard: " + said)
    voice = js(driver, "return window.__voice")
    frames = [entry for entry in voice if isinstance(entry, int)]
    check(len(frames) >= 10, "the microphone went to the server as binary frames (%d)" % len(frames))
    check("Done" not in voice, "the server found the end of the utterance: the page never sent Done")
    partials = [text for text in js(driver, "return window.__partials") if text and text != "Listening..."]
    check(len(partials) >= 1, "partial text showed while the user spoke (%s)" % partials)
    loudest = js(driver, "return window.__loudest")
    check(loudest > -40, "the level bar followed the voice (at most %.1f dBFS)" % loudest)
    sent = js(driver, "return window.__sent")
    spoken = [frame for frame in sent if frame.get("messagePayload", {}).get("text", "").lower().find("lights") >= 0]
    check(len(spoken) == 1, "one text message carries the sentence")
    check(bool(spoken[0].get("sdkMetadata", {}).get("speechId")), "with sdkMetadata.speechId")
    wait_until(driver, lambda: js(
        driver, "return performance.getEntriesByType('resource').some(function (e) {"
                "  return e.name.indexOf('/tts/speak?') >= 0 && e.name.indexOf('lights') >= 0; })"),
        "the reply read aloud through /tts/speak")
    entry = js(driver, "return performance.getEntriesByType('resource').filter(function (e) {"
                       "  return e.name.indexOf('/tts/speak?') >= 0; }).map(function (e) { return e.name; })")
    check(all("stream=chunked" in url and "channelId=voice" in url for url in entry), "asked as Oracle's SDK asks")
    mute.click()
    check(js(driver, "return window.parley.isAudioMuted()"), "the mute button mutes")
    check(mute.get_attribute("aria-label") == "Unmute audio response", "and says it would unmute")
    with open(os.path.join(output, "speech.json"), "w") as handle:
        json.dump({"sent": sent, "partials": partials, "heard": said, "tts": entry}, handle)


def silence_is_no_speech(driver, base):
    config = {"channelId": "voice", "enableSpeech": True, "enableTimestamp": False}
    open_widget(driver, base, config)
    before = len(user_texts(driver))
    driver.find_element(By.CSS_SELECTOR, ".parley-mic").click()
    wait_until(driver, lambda: not js(driver, "return window.parley.isRecording()"),
               "the recording to end without speech", timeout=40)
    notices = [row.text for row in driver.find_elements(By.CSS_SELECTOR, ".parley-notice")]
    check(any("Error in voice recognition" in text for text in notices), "no speech is said (%s)" % notices)
    check(len(user_texts(driver)) == before, "nothing was sent")


def main():
    base, speech_wav, silence_wav, output = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3], sys.argv[4]
    for name, wav, step in [("a spoken sentence", speech_wav, lambda d: spoken_sentence(d, base, output)),
                            ("silence", silence_wav, lambda d: silence_is_no_speech(d, base))]:
        driver = new_driver(wav)
        try:
            log("== " + name)
            step(driver)
            check(js(driver, "return window.__violations") == [], "no Content-Security-Policy violation")
            check(js(driver, "return window.__errors") == [], "no script error")
        except Exception:
            traceback.print_exc(file=sys.stdout)
            try:
                driver.save_screenshot(os.path.join(output, "failure.png"))
                log("browser console: " + json.dumps(driver.get_log("browser")))
                log("voice: " + json.dumps(js(driver, "return window.__voice"))[:2000])
                log("partials: " + json.dumps(js(driver, "return window.__partials")))
                log("rows: " + json.dumps([r.text for r in driver.find_elements(By.CSS_SELECTOR, ".parley-row")]))
            except Exception:
                pass
            return 1
        finally:
            driver.quit()
    log("all speech browser checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
