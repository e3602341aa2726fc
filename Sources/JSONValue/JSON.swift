/// A JSON value (RFC 8259) with exact types and ordered object members.
///
/// Why not Foundation: on Linux `JSONSerialization` reports the number `1` as a `Bool` (so a wrong
/// type cannot be told apart), silently keeps one of two duplicate keys, and neither it nor
/// `JSONEncoder` keeps member order; `JSONEncoder` also took 0.74 s for a 64k-cell matrix here.
/// Requests must be validated to the field, and responses must read in a stable, logical order.
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A finite double. The parser rejects numbers outside the double range.
    case number(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)

    /// A short type name for error messages: "null", "boolean", "number", "string", "array", "object".
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The member `key` of an object, or nil (also nil when `self` is not an object).
    public subscript(key: String) -> JSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
}

/// JSON object members in document (or insertion) order. Keys are unique: the parser rejects
/// duplicates, and `set` replaces an existing member in place.
public struct JSONObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// One member. A struct rather than a `(key, value)` tuple: the runtime destroys an array of
    /// tuples through its generic tuple witness, which cost a tenth of a contrast request.
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSON
    }

    /// The members in order.
    public private(set) var storage: [Member] = []

    public init() {}

    public init(dictionaryLiteral elements: (String, JSON)...) {
        storage.reserveCapacity(elements.count)
        for (k, v) in elements { set(k, v) }
    }

    public init(_ pairs: [(String, JSON)]) {
        storage.reserveCapacity(pairs.count)
        for (k, v) in pairs { set(k, v) }
    }

    /// Members in order as pairs (a new array; iterate `storage` where speed matters).
    public var members: [(key: String, value: JSON)] {
        storage.map { ($0.key, $0.value) }
    }

    /// The value for `key`, or nil. Linear scan: request objects are small.
    public subscript(key: String) -> JSON? {
        // Lengths first: most members a lookup passes have a name of another length, and the
        // length of a short string is read without calling into the string comparison.
        let length = key.utf8.count
        for member in storage where member.key.utf8.count == length && member.key == key { return member.value }
        return nil
    }

    /// Sets `key` to `value`, keeping the member's position when it exists.
    public mutating func set(_ key: String, _ value: JSON) {
        if let index = storage.firstIndex(where: { $0.key == key }) {
            storage[index].value = value
        } else {
            if storage.capacity == 0 { storage.reserveCapacity(8) }
            storage.append(Member(key: key, value: value))
        }
    }

    /// Appends a member without checking for duplicates (the caller guarantees uniqueness).
    public mutating func append(_ key: String, _ value: JSON) {
        // Room for 8 members at the first append: growing 1, 2, 4, 8 cost a fifth of the
        // instructions of building a contrast answer.
        if storage.capacity == 0 { storage.reserveCapacity(8) }
        storage.append(Member(key: key, value: value))
    }

    /// The member keys in order.
    public var keys: [String] { storage.map(\.key) }

    public var count: Int { storage.count }
}

// MARK: - Convenience literals

extension JSON: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByFloatLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSON {
    /// `.number(value)`, or `.null` when `value` is nil.
    public static func number(_ value: Double?) -> JSON {
        value.map { .number($0) } ?? .null
    }

    /// An array of numbers.
    public static func numbers(_ values: [Double]) -> JSON {
        .array(values.map { .number($0) })
    }

    /// An object from ordered pairs.
    public static func object(_ pairs: [(String, JSON)]) -> JSON {
        .object(JSONObject(pairs))
    }
}
