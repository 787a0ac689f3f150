/// A JSON object that keeps its members in order.
///
/// Order is kept so that a message re-encodes the way it arrived (unknown keys included) and so that
/// output is stable across runs. Equality ignores order, as JSON does. Keys are unique: parsing
/// rejects a repeated key, and ``subscript(_:)`` replaces an existing member in place.
///
/// Lookups are linear, which is the fast choice for the small objects of a chat protocol.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One `"key": value` pair.
    public struct Member: Sendable, Hashable {
        /// The member's name.
        public var key: String
        /// The member's value.
        public var value: JSONValue
        /// Creates a member.
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in order.
    public private(set) var members: [Member]

    /// Creates an object from members, which must have distinct keys.
    public init(_ members: [Member] = []) {
        self.members = members
    }

    /// Creates an object from a literal, keeping its order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { Member($0.0, $0.1) }
    }

    /// The position of the first member.
    public var startIndex: Int { members.startIndex }
    /// The position after the last member.
    public var endIndex: Int { members.endIndex }
    /// The member at `position`.
    public subscript(position: Int) -> Member { members[position] }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// The value for `key`; setting replaces it in place, appends it if new, or removes it when `nil`.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in members where member.key.isSameKey(key) { return member.value }
            return nil
        }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key, newValue))
            }
        }
    }

    /// Appends a member without checking for an existing one with the same key.
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key, value))
    }

    /// Appends members without checking their keys.
    public mutating func append(contentsOf other: JSONObject) {
        members.append(contentsOf: other.members)
    }

    /// The object without the member `key`.
    public func removing(_ key: String) -> JSONObject {
        JSONObject(members.filter { $0.key != key })
    }

    /// Removes every member and keeps the storage.
    public mutating func removeAll() {
        members.removeAll(keepingCapacity: true)
    }

    /// Reserves room for `capacity` members.
    public mutating func reserveCapacity(_ capacity: Int) {
        members.reserveCapacity(capacity)
    }

    /// Equal when both have the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        if lhs.members == rhs.members { return true }
        for member in lhs.members where rhs[member.key] != member.value { return false }
        return true
    }

    /// Hashes the members independently of their order.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(combined)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object as compact JSON.
    public var description: String { JSONValue.object(self).jsonString() }
}

extension String {
    /// Equality for object keys that tells most different keys apart by their UTF-8 length (constant time for
    /// native strings) before comparing them: typed decoding looks up many keys that are absent.
    @inline(__always)
    func isSameKey(_ other: String) -> Bool {
        utf8.count == other.utf8.count && self == other
    }

    /// One bit of 64 chosen by the UTF-8 length, which a string knows without reading its bytes: OR-ed over an
    /// object's keys, it tells most keys that cannot be among them without comparing any.
    @inline(__always)
    var keyLengthBit: UInt64 {
        1 << (UInt64(truncatingIfNeeded: utf8.count) & 63)
    }
}
