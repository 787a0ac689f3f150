import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The agent console served at `/agent`: one page, no build step and no third-party script, speaking the agent
/// socket protocol of `docs/agents.md`. Every text from a user or the server goes into the page as text, never as
/// markup.
///
/// The page is served with a strict Content-Security-Policy: its one inline script and one inline style are
/// allowed by their SHA-256 hashes (computed from ``script`` and ``style`` when the server starts, so they cannot
/// drift), nothing else runs or loads, it may not be framed, and it is never cached. The page has no `style`
/// attributes and no inline event handlers, which a hash cannot allow.
enum AgentConsolePage {
    /// The page's stylesheet, the whole text of its `<style>` element.
    static let style = #"""
          body { font: 15px system-ui, sans-serif; margin: 0; display: grid; grid-template-columns: 18rem 1fr;
                 height: 100vh; color: #1d1d1f; }
          aside { border-right: 1px solid #ddd; padding: 1rem; overflow: auto; background: #fafafa; }
          main { display: flex; flex-direction: column; min-height: 0; }
          #log { flex: 1; overflow: auto; padding: 1rem; }
          .msg { margin: .3rem 0; padding: .4rem .6rem; border-radius: .6rem; max-width: 70%; white-space: pre-wrap; }
          .user { background: #e9e9eb; }
          .server { background: #0a84ff; color: white; margin-left: auto; }
          .note { color: #888; font-size: .85rem; text-align: center; }
          .queue button { display: block; width: 100%; text-align: left; margin: .3rem 0; padding: .5rem; }
          form { display: flex; gap: .5rem; padding: .6rem; border-top: 1px solid #ddd; }
          form input[type=text] { flex: 1; padding: .5rem; }
          #typing { height: 1.2rem; padding: 0 1rem; color: #888; font-size: .85rem; }
          label { display: block; margin: .4rem 0; }
          aside h1 { font-size: 1.1rem; }
          aside h2 { font-size: 1rem; }
          #login { display: block; border: 0; padding: 0; }
        """#

    /// The page's script, the whole text of its `<script>` element.
    static let script = #"""
        "use strict";
        let socket = null, current = null, typingSent = 0;
        const $ = (id) => document.getElementById(id);
        const same = (a, b) => a && b && a.channelId === b.channelId && a.userId === b.userId;
        const send = (frame) => socket && socket.readyState === 1 && socket.send(JSON.stringify(frame));
        const note = (text) => { const p = document.createElement("p"); p.className = "note"; p.textContent = text;
                                 $("log").append(p); $("log").scrollTop = 1e9; };
        function describe(payload) {
          if (!payload) return "";
          if (payload.text) return payload.text;
          if (payload.type === "postback") return "[postback] " + JSON.stringify(payload.postback);
          if (payload.type === "location") return "[location] " + payload.latitude + ", " + payload.longitude;
          if (payload.type === "attachment" && payload.attachment) return "[" + payload.attachment.type + "] " + payload.attachment.url;
          if (payload.type === "card") return "[cards] " + (payload.cards || []).map((c) => c.title).join(", ");
          return "[" + payload.type + "]";
        }
        function show(from, frame) {
          const payload = frame.messagePayload;
          if (!payload || payload.type === "status") return;
          const div = document.createElement("div");
          div.className = "msg " + from;
          div.textContent = (frame.source === "AGENT" ? "" : from === "server" ? "Bot: " : "") + describe(payload);
          $("log").append(div); $("log").scrollTop = 1e9;
        }
        function setCurrent(conversation) {
          current = conversation;
          for (const id of ["text", "send", "back"]) $(id).disabled = !conversation;
          $("header").textContent = conversation ? "With " + conversation.userId + " on " + conversation.channelId
                                                 : "Join a conversation from the list.";
          if (!conversation) $("typing").textContent = "";
        }
        $("login").addEventListener("submit", (event) => {
          event.preventDefault();
          if (socket) socket.close();
          const url = new URL("/agent/socket", location.href);
          url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
          socket = new WebSocket(url);
          socket.onopen = () => send({ type: "auth", key: $("key").value, agent: { name: $("name").value } });
          socket.onclose = (event) => { $("status").textContent = "Disconnected (" + event.code + " " + event.reason + ")";
                                        setCurrent(null); };
          socket.onmessage = (event) => {
            const frame = JSON.parse(event.data);
            switch (frame.type) {
            case "welcome": $("status").textContent = "Connected as " + frame.agent.name; break;
            case "queue": {
              const list = $("queue"); list.replaceChildren();
              if (frame.conversations.length === 0) { const p = document.createElement("p"); p.className = "note";
                                                      p.textContent = "Nobody is waiting."; list.append(p); }
              for (const c of frame.conversations) {
                const button = document.createElement("button");
                button.textContent = c.userId + " (" + c.channelId + ")" + (c.agent ? " — " + c.agent.name : "");
                button.onclick = () => send({ type: "join", channelId: c.channelId, userId: c.userId });
                list.append(button);
              }
              break;
            }
            case "joined":
              setCurrent({ channelId: frame.channelId, userId: frame.userId });
              $("log").replaceChildren();
              for (const entry of frame.history) show(entry.from, entry.frame);
              note("You joined the conversation.");
              break;
            case "message": if (same(frame, current)) show("user", frame.frame); break;
            case "typing":
              if (same(frame, current)) $("typing").textContent = frame.status === "RESPONDING"
                ? "The user is typing" + (frame.text && frame.text !== "..." ? ": " + frame.text : "…") : "";
              break;
            case "ended": if (same(frame, current)) { note("The conversation ended (" + frame.reason + ")."); setCurrent(null); } break;
            case "error": note("Error " + frame.error.code + ": " + frame.error.message); break;
            }
          };
        });
        $("composer").addEventListener("submit", (event) => {
          event.preventDefault();
          const text = $("text").value.trim();
          if (!text || !current) return;
          send({ type: "message", ...current, messagePayload: { type: "text", text } });
          send({ type: "typing", ...current, status: "LISTENING" }); typingSent = 0;
          show("server", { source: "AGENT", messagePayload: { type: "text", text } });
          $("text").value = "";
        });
        $("text").addEventListener("input", () => {
          if (!current || Date.now() - typingSent < 3000) return;
          typingSent = Date.now();
          send({ type: "typing", ...current, status: "RESPONDING" });
        });
        $("back").addEventListener("click", () => { if (current) send({ type: "handBack", ...current }); });
        """#

    /// The page.
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Parley agent console</title>
        <style>\#(style)</style>
        </head>
        <body>
        <aside>
          <h1>Parley agents</h1>
          <form id="login">
            <label>Name <input id="name" required value="Agent"></label>
            <label>Agent key <input id="key" type="password" required></label>
            <button>Connect</button>
          </form>
          <p id="status" class="note">Not connected</p>
          <h2>Waiting conversations</h2>
          <div id="queue" class="queue"></div>
        </aside>
        <main>
          <div id="header" class="note">Join a conversation from the list.</div>
          <div id="log"></div>
          <div id="typing"></div>
          <form id="composer">
            <input id="text" type="text" autocomplete="off" placeholder="Write to the user" disabled>
            <button id="send" disabled>Send</button>
            <button id="back" type="button" disabled>Hand back</button>
          </form>
        </main>
        <script>\#(script)</script>
        </body>
        </html>
        """#

    /// The page's Content-Security-Policy: only its own inline script and style (by hash), sockets and requests to
    /// this server only, no plugins, no `<base>`, no form submission (the forms are handled by the script; a
    /// submitted login form would put the agent key in the URL), and no framing.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src '\(sha256(script))'; style-src '\(sha256(style))'; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// `sha256-<base64>`: the CSP source expression that allows an inline element whose text is `text`.
    static func sha256(_ text: String) -> String {
        "sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
    }

    /// The headers of the page: the CSP, and no framing, sniffing, referrer or caching.
    static var headers: HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[HTTPField.Name("Content-Security-Policy")!] = contentSecurityPolicy
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[.cacheControl] = "no-store"
        return headers
    }

    /// The answer to `GET /agent`.
    static func response() -> Response {
        Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
