public import Foundation

extension URL {
    /// `http://127.0.0.1:PORT`: a server on this machine, such as one a test or `parley demo` started.
    public static func loopback(port: Int) -> URL {
        var components = URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = port
        // A scheme, an IPv4 host and a port always make a URL.
        guard let url = components.url else { preconditionFailure("no URL for 127.0.0.1 port \(port)") }
        return url
    }
}
