#!/usr/bin/env python3
"""Helpers of parity_browser_test.py: agent tokens, element boxes, PNG pixels and the header's layout."""

import json
import os
import struct
import zlib

from selenium.webdriver.common.by import By

from widget_browser_test import check, js

AGENT_KEY = "agent-key"


def agent_token(name, key=AGENT_KEY, lifetime=3600):
    """An agent token for `name`, as `parley token --agent NAME` mints it with the server's agent key (docs/agents.md):
    the agent key itself does not sign in."""
    import base64, hashlib, hmac, time
    b64 = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    now = int(time.time())
    header = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = b64(json.dumps({"aud": "parley.agent", "agent": name, "iat": now, "exp": now + lifetime}).encode())
    signature = b64(hmac.new(key.encode(), (header + "." + claims).encode(), hashlib.sha256).digest())
    return header + "." + claims + "." + signature


def box(driver, element):
    return js(driver, "var r = arguments[0].getBoundingClientRect();"
                      "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}",
              element)


def overlaps(a, b):
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def png_pixel(png, x, y):
    """The (r, g, b) of a pixel of an 8-bit RGB or RGBA PNG, decoded here (no imaging library on the machine)."""
    check(png[:8] == b"\x89PNG\r\n\x1a\n", "a PNG")
    position, chunks, header = 8, [], None
    while position < len(png):
        length, kind = struct.unpack(">I4s", png[position:position + 8])
        data = png[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data)
        elif kind == b"IDAT":
            chunks.append(data)
        position += 12 + length
    width, height, depth, colour = header[0], header[1], header[2], header[3]
    check(depth == 8 and colour in (2, 6), "an 8-bit RGB or RGBA PNG")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    previous = bytearray(stride)
    for row in range(y + 1):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + predictor) & 0xFF
        previous = line
    return tuple(previous[x * channels:x * channels + 3]), (width, height)


def close_to(colour, expected, tolerance=12):
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected))


def header_layout(driver, output_dir, name):
    """The header's controls in a screenshot: each visible, inside the header and the window, none over another."""
    header = driver.find_element(By.CSS_SELECTOR, ".parley-header")
    header_box = box(driver, header)
    width = js(driver, "return document.documentElement.clientWidth")
    controls = {}
    for selector in [".parley-title", ".parley-language", ".parley-clear", ".parley-end"]:
        found = driver.find_elements(By.CSS_SELECTOR, selector)
        if found:
            check(found[0].is_displayed(), selector + " is shown")
            controls[selector] = box(driver, found[0])
    for selector, rect in controls.items():
        check(rect["width"] > 10 and rect["height"] > 10, "%s has a size (%s)" % (selector, rect))
        check(rect["left"] >= header_box["left"] and rect["right"] <= min(header_box["right"], width) + 0.5
              and rect["top"] >= header_box["top"] and rect["bottom"] <= header_box["bottom"] + 0.5,
              "%s lies inside the header and the window" % selector)
    names = list(controls)
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            check(not overlaps(controls[names[i]], controls[names[j]]), "%s and %s do not overlap" % (names[i], names[j]))
    for selector in [".parley-title", ".parley-language", ".parley-clear", ".parley-end"]:
        if selector in controls:
            check(js(driver, "var e = arguments[0]; return e.scrollWidth <= e.clientWidth + 1",
                     driver.find_element(By.CSS_SELECTOR, selector)), selector + " shows its whole text")
    png = driver.get_screenshot_as_png()
    with open(os.path.join(output_dir, name), "wb") as handle:
        handle.write(png)
    colour, size = png_pixel(png, int(header_box["left"]) + 3, int(header_box["top"]) + 3)
    check(size[0] == width, "the screenshot is the window's width (%s)" % (size,))
    check(close_to(colour, (0x00, 0x4C, 0x8C)), "the screenshot shows the header in HeaderColor (%s)" % (colour,))
    return {"width": size[0], "height": size[1], "controls": controls}
