/// Somewhere JSON is written to, one event at a time: a JSON tree (`JSONTreeBuilder`) or bytes
/// straight away (`JSONByteWriter`).
///
/// Why two: a hot answer written as bytes skips building and freeing a tree (a contrast answer
/// spent about 100k of its 217k instructions on its tree), while most code wants a `JSON` value
/// to inspect and combine. A shape written once against `JSONSink` serves both:
///
/// ```swift
/// static func verdict<S: JSONSink>(_ ratio: Double, into s: inout S) {
///     s.object { s in
///         s.member("ratio", ratio)
///         s.member("passes", ratio >= 4.5)
///     }
/// }
/// var tree = JSONTreeBuilder(); verdict(4.6, into: &tree); tree.value   // .object([...])
/// var bytes = JSONByteWriter(); verdict(4.6, into: &bytes); bytes.bytes  // {"ratio":4.6,"passes":true}
/// ```
///
/// The caller keeps the grammar: `key` before each value inside an object, none inside an array.
/// Non-finite numbers are written as `null`, as `JSON.serialized()` does.
public protocol JSONSink {
    mutating func beginObject()
    mutating func endObject()
    mutating func beginArray()
    mutating func endArray()
    /// The key of the next member of the current object.
    mutating func key(_ key: StaticString)
    /// A key that is not a literal (a weight column, a name from the request).
    mutating func key(_ key: String)
    mutating func number(_ value: Double)
    mutating func string(_ value: String)
    mutating func bool(_ value: Bool)
    mutating func null()
    /// A whole value built elsewhere.
    mutating func value(_ value: JSON)
}

extension JSONSink {
    /// `{ … }` around `body`.
    @inline(__always)
    public mutating func object(_ body: (inout Self) -> Void) {
        beginObject()
        body(&self)
        endObject()
    }

    /// `[ … ]` around `body`.
    @inline(__always)
    public mutating func array(_ body: (inout Self) -> Void) {
        beginArray()
        body(&self)
        endArray()
    }

    /// `"key": { … }`.
    @inline(__always)
    public mutating func object(_ key: StaticString, _ body: (inout Self) -> Void) {
        self.key(key)
        object(body)
    }

    @inline(__always)
    public mutating func member(_ key: StaticString, _ value: Double) {
        self.key(key)
        number(value)
    }

    /// `"key": number`, or `null` when `value` is nil.
    @inline(__always)
    public mutating func member(_ key: StaticString, _ value: Double?) {
        self.key(key)
        if let value { number(value) } else { null() }
    }

    @inline(__always)
    public mutating func member(_ key: StaticString, _ value: Int) {
        self.key(key)
        number(Double(value))
    }

    @inline(__always)
    public mutating func member(_ key: StaticString, _ value: String) {
        self.key(key)
        string(value)
    }

    @inline(__always)
    public mutating func member(_ key: StaticString, _ value: Bool) {
        self.key(key)
        bool(value)
    }

    @inline(__always)
    public mutating func member(_ key: StaticString, _ value: JSON) {
        self.key(key)
        self.value(value)
    }

    /// `[n, n, …]`.
    @inline(__always)
    public mutating func numbers(_ values: [Double]) {
        beginArray()
        for value in values { number(value) }
        endArray()
    }
}

/// Writes JSON bytes as the events arrive: the same bytes `JSON.serialized()` gives for the
/// same value, without a tree.
public struct JSONByteWriter: JSONSink {
    /// The JSON text so far.
    public private(set) var bytes: [UInt8]
    /// Whether the next value or key in the current container needs a comma before it.
    private var needsComma = false

    public init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @inline(__always)
    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    public mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        // Literal keys of this code base need no escaping.
        JSON.writeRaw(key, into: &bytes)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func key(_ key: String) {
        separate()
        JSON.writeString(key, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func number(_ value: Double) {
        separate()
        JSON.writeNumber(value, into: &bytes)
    }

    public mutating func string(_ value: String) {
        separate()
        JSON.writeString(value, into: &bytes)
    }

    public mutating func bool(_ value: Bool) {
        separate()
        if value { JSON.writeRaw("true", into: &bytes) } else { JSON.writeRaw("false", into: &bytes) }
    }

    public mutating func null() {
        separate()
        JSON.writeRaw("null", into: &bytes)
    }

    public mutating func value(_ value: JSON) {
        separate()
        value.write(into: &bytes)
    }
}

/// Builds a `JSON` value from the events; `value` is the finished tree.
public struct JSONTreeBuilder: JSONSink {
    /// An open object or array. A class, so the top of the stack is changed in place (an enum
    /// frame would be copied out and back on every value).
    private final class Container {
        let isObject: Bool
        var object = JSONObject()
        var items: [JSON] = []
        var key: String?
        init(isObject: Bool) { self.isObject = isObject }
    }

    private var stack: [Container] = []
    /// The finished value (`.null` until a top-level value has been written).
    public private(set) var value: JSON = .null

    public init() {}

    private mutating func add(_ item: JSON) {
        guard let top = stack.last else {
            value = item
            return
        }
        if top.isObject {
            guard let key = top.key else { preconditionFailure("JSONTreeBuilder: a value in an object needs a key first") }
            top.object.append(key, item)
            top.key = nil
        } else {
            top.items.append(item)
        }
    }

    public mutating func beginObject() { stack.append(Container(isObject: true)) }

    public mutating func endObject() {
        guard let top = stack.popLast(), top.isObject else { preconditionFailure("JSONTreeBuilder: endObject without beginObject") }
        add(.object(top.object))
    }

    public mutating func beginArray() { stack.append(Container(isObject: false)) }

    public mutating func endArray() {
        guard let top = stack.popLast(), !top.isObject else { preconditionFailure("JSONTreeBuilder: endArray without beginArray") }
        add(.array(top.items))
    }

    public mutating func key(_ key: StaticString) { self.key(key.description) }

    public mutating func key(_ key: String) {
        guard let top = stack.last, top.isObject else { preconditionFailure("JSONTreeBuilder: a key outside an object") }
        top.key = key
    }

    public mutating func number(_ value: Double) { add(.number(value)) }
    public mutating func string(_ value: String) { add(.string(value)) }
    public mutating func bool(_ value: Bool) { add(.bool(value)) }
    public mutating func null() { add(.null) }
    public mutating func value(_ value: JSON) { add(value) }
}

extension JSON {
    /// The value written by `body` into a `JSONTreeBuilder`.
    public static func build(_ body: (inout JSONTreeBuilder) -> Void) -> JSON {
        var builder = JSONTreeBuilder()
        body(&builder)
        return builder.value
    }
}
