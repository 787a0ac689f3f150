/// The repository's nginx configuration, `deploy/nginx/parley.conf`, made to run in front of given nodes: what the
/// cluster tests and the cluster benchmarks run, so that they test the file an operator uses.
public enum NginxConfiguration {
    /// `template` with `port` in its `listen 127.0.0.1:…` line and, in place of its upstream `server 127.0.0.1:…`
    /// lines, one per node of `nodes`, each with the options of the template's first (`max_fails=…` and so on).
    /// - Parameter listenOptions: Appended to the `listen` line (`backlog=4096` for a benchmark's load).
    public static func render(_ template: String, port: Int, nodes: [Int], listenOptions: String = "") -> String {
        var lines: [String] = []
        var nodesWritten = false
        for line in template.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("listen 127.0.0.1:") {
                lines.append("        listen 127.0.0.1:\(port)\(listenOptions.isEmpty ? "" : " " + listenOptions);")
            } else if trimmed.hasPrefix("server 127.0.0.1:") {
                guard !nodesWritten else { continue }
                nodesWritten = true
                let options = trimmed.split(separator: " ").dropFirst(2).joined(separator: " ")
                for node in nodes { lines.append("        server 127.0.0.1:\(node) \(options)") }
            } else {
                lines.append(String(line))
            }
        }
        return lines.joined(separator: "\n")
    }
}
