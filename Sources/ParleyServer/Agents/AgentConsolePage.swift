import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The agent console served at `/agent`: one page, no build step and no third-party script, speaking the agent
/// socket protocol of `docs/agents.md`. Every text from a user or the server goes into the page as text, never as
/// markup.
///
/// The page is the package resource `Agents/Assets/agent.html` of ParleyServer, read once when the server is
/// built (``load()``). It is served with a strict Content-Security-Policy: its one inline script and one inline
/// style are allowed by their SHA-256 hashes, computed from the file's `<script>` and `<style>` elements when it is
/// loaded (so an edit of the file cannot make them drift); nothing else runs or loads, it may not be framed, and it
/// is never cached. The page has no `style` attributes and no inline event handlers, which a hash cannot allow.
struct AgentConsolePage: Sendable {
    /// The name of the page's file in the resource bundle.
    static let fileName = "agent.html"

    /// The page.
    let html: String
    /// The page's Content-Security-Policy: only its own inline script and style (by hash), sockets and requests to
    /// this server only, no plugins, no `<base>`, no form submission (the forms are handled by the script; a
    /// submitted login form would put the agent key in the URL), and no framing.
    let contentSecurityPolicy: String

    /// The page `html`, whose one `<script>` and one `<style>` element get allowed by hash.
    /// - Parameter source: Names the page in errors.
    /// - Throws: ``ParleyError`` with code ``ParleyError/Code/serverResourceUnreadable`` when the page has not
    ///   exactly one `<script>` or one `<style>` element.
    init(html: String, source: String) throws(ParleyError) {
        let script = try Self.inlineText(of: "script", in: html, source: source)
        let style = try Self.inlineText(of: "style", in: html, source: source)
        self.html = html
        self.contentSecurityPolicy =
            "default-src 'none'; script-src '\(Self.sha256(script))'; style-src '\(Self.sha256(style))'; "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    /// Reads the page from ParleyServer's resource bundle.
    /// - Throws: ``ParleyError`` with code ``ParleyError/Code/serverResourceUnreadable`` naming the file when it is
    ///   missing, unreadable or not in the expected shape.
    static func load() throws(ParleyError) -> AgentConsolePage {
        guard let url = Bundle.module.url(forResource: fileName, withExtension: nil) else {
            throw ParleyError(
                .serverResourceUnreadable,
                "the agent console page \(fileName) is missing from ParleyServer's resources "
                    + "(\(Bundle.module.bundlePath))")
        }
        let html: String
        do {
            html = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ParleyError(
                .serverResourceUnreadable,
                "cannot read the agent console page \(url.path): \(error.localizedDescription)", underlying: error)
        }
        return try AgentConsolePage(html: html, source: url.path)
    }

    /// The text of the one `<name>` element of `html` (an element written exactly `<name>…</name>`).
    static func inlineText(of name: String, in html: String, source: String) throws(ParleyError) -> String {
        let parts = html.components(separatedBy: "<\(name)>")
        let inner = parts.count == 2 ? parts[1].components(separatedBy: "</\(name)>") : []
        guard inner.count == 2 else {
            throw ParleyError(
                .serverResourceUnreadable,
                "the agent console page \(source) must have exactly one <\(name)> element, closed by </\(name)>")
        }
        return inner[0]
    }

    /// `sha256-<base64>`: the CSP source expression that allows an inline element whose text is `text`.
    static func sha256(_ text: String) -> String {
        "sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
    }

    /// The headers of the page: the CSP, and no framing, sniffing, referrer or caching.
    var headers: HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xFrameOptions] = "DENY"
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "no-referrer"
        headers[.cacheControl] = "no-store"
        return headers
    }

    /// The answer to `GET /agent`.
    func response() -> Response {
        Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
