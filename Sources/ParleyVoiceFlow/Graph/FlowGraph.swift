import Foundation

/// Draws a voice flow's `goTo` graph as Mermaid or Graphviz DOT text.
///
/// Nodes are modules (labelled `id` and type); edges are labelled with the rule that takes them (`DEFAULT`
/// unlabelled, intents as `intent: X`, inputs as `"text"`). A target that is a runtime field becomes a dashed edge
/// to a node named after the field; an empty target (end of flow) is not drawn.
public enum FlowGraph {
    /// An output format.
    public enum Format: String, Sendable, CaseIterable {
        /// Mermaid `flowchart TD`.
        case mermaid
        /// Graphviz `digraph`.
        case dot
    }

    /// One edge of the graph.
    public struct Edge: Sendable, Hashable {
        /// The source module.
        public var from: String
        /// The target module (or `$[Field]`).
        public var to: String
        /// The rule, or `nil` for `DEFAULT`.
        public var label: String?
    }

    /// Every edge of `flow`, in module order.
    public static func edges(of flow: VoiceFlow) -> [Edge] {
        var edges: [Edge] = []
        for module in flow.modules {
            let goTo = module.goTo
            func add(_ target: String, _ label: String?) {
                guard !target.isEmpty else { return }
                edges.append(Edge(from: module.id, to: target, label: label))
            }
            for route in goTo.userIntents { add(route.target, "intent: \(route.intent)") }
            for route in goTo.userInputs { add(route.target, "\"\(route.input)\"") }
            for key in GoTo.routeKeys { if let target = goTo.routes[key] { add(target, key) } }
            for (key, target) in goTo.stopRecordReasons.sorted(by: { $0.key < $1.key }) { add(target, "stop: \(key)") }
            if let target = goTo.defaultTarget { add(target, nil) }
        }
        return edges
    }

    /// The graph of `flow` in `format`.
    public static func render(_ flow: VoiceFlow, format: Format) -> String {
        var ids: [String: String] = [:]
        func node(_ id: String) -> String {
            if let existing = ids[id] { return existing }
            let name = "m\(ids.count)"
            ids[id] = name
            return name
        }
        let edges = edges(of: flow)
        var lines: [String] = []
        switch format {
        case .mermaid:
            lines.append("flowchart TD")
            for module in flow.modules {
                let label = "\(module.id)<br/><i>\(module.type)</i>"
                let shape = module.type == .node ? "([\"\(escape(label))\"])" : "[\"\(escape(label))\"]"
                lines.append("    \(node(module.id))\(shape)")
            }
            for edge in edges where flow[edge.to] == nil {
                if ids[edge.to] == nil { lines.append("    \(node(edge.to)){{\"\(escape(edge.to))\"}}") }
            }
            for edge in edges {
                let dynamic = flow[edge.to] == nil
                let arrow = dynamic ? "-.->" : "-->"
                let label = edge.label.map { "|\"\(escape($0))\"|" } ?? ""
                lines.append("    \(node(edge.from)) \(arrow)\(label) \(node(edge.to))")
            }
        case .dot:
            lines.append("digraph voiceflow {")
            lines.append("    rankdir=TB;")
            for module in flow.modules {
                let shape = module.type == .node ? "ellipse" : "box"
                lines.append(
                    "    \(node(module.id)) [label=\"\(dotEscape(module.id))\\n\(module.type)\", shape=\(shape)];")
            }
            for edge in edges where flow[edge.to] == nil && ids[edge.to] == nil {
                lines.append("    \(node(edge.to)) [label=\"\(dotEscape(edge.to))\", shape=hexagon];")
            }
            for edge in edges {
                var attributes: [String] = []
                if let label = edge.label { attributes.append("label=\"\(dotEscape(label))\"") }
                if flow[edge.to] == nil { attributes.append("style=dashed") }
                let suffix = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
                lines.append("    \(node(edge.from)) -> \(node(edge.to))\(suffix);")
            }
            lines.append("}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "#quot;")
    }

    private static func dotEscape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
