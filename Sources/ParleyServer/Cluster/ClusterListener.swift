import Logging
import ServiceLifecycle

extension ChatHub {
    /// Acts on what a node of the cluster announced (this node's own announcements come back too, and change
    /// nothing: its sockets have those messages).
    func heard(_ event: ClusterEvent) async {
        switch event {
        case .messages(let key, let outbound):
            heard(key, upTo: outbound)
        case .userInput(let key, let sequence):
            await heardUserInput(sequence, of: key)
        case .userMessage(let key, let sequence, let node):
            await heardUserMessage(sequence, of: key, node: node)
        case .toAgent(let name, let frame):
            writeToAgents(named: name, frame)
        case .toUser(let key, let frame):
            await broadcast(unstoredText: frame, to: key)
        case .agentQueue:
            await publishQueue()
        case .agentQueueEntry(let key):
            await heardQueueEntry(key)
        case .resynchronize:
            catchUpEverySocket()
            await publishQueue()
            await recoverPendingInputs()
        }
    }
}

/// Runs a node's part of the cluster: acts on what the nodes announce and, every ``sweepInterval`` on the server's
/// clock, sweeps: looks for inputs that no node answers (their node died mid-turn), sends its sockets what other
/// nodes stored that a lost or dropped hint did not bring (``ChatHub/sweepDeliveries()``), and counts the hints the
/// cluster dropped (``ServerMetrics/clusterHintsDropped``).
struct ClusterListener: Service {
    let hub: ChatHub
    let cluster: any Cluster
    let clock: ServerClock
    /// How often the node sweeps.
    let sweepInterval: Duration

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await event in cluster.events {
                        await hub.heard(event)
                    }
                }
                group.addTask {
                    var counted = 0
                    while (try? await clock.sleep(for: sweepInterval)) != nil {
                        counted = await sweep(countedDrops: counted)
                    }
                }
            }
        }
    }

    /// One sweep; returns the cluster's dropped hints counted so far.
    func sweep(countedDrops: Int) async -> Int {
        let dropped = cluster.droppedHints
        hub.metrics.clusterHintsDropped(dropped - countedDrops)
        await hub.recoverPendingInputs()
        await hub.sweepDeliveries()
        return max(dropped, countedDrops)
    }
}
