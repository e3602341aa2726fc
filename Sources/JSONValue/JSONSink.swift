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
    /// The key of the next member of the current object: a literal that needs no JSON escaping
    /// (no `"`, `\` or control characters; asserted in debug builds), copied as it is.
    mutating func key(_ key: StaticString)
    /// A key that is not a literal (a name from the request). Disfavoured, so that a literal
    /// key (`s.key("ratio")`) is a `StaticString` and copied without escaping.
    @_disfavoredOverload
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
///
/// The text goes into one growable buffer (``JSONByteBuffer``) written through a pointer: an
/// `[UInt8]` paid a uniqueness and capacity check per append, which was a third of the cost of
/// writing a contrast answer. `bytes` copies the text out once.
public struct JSONByteWriter: JSONSink {
    private let buffer: JSONByteBuffer
    /// Whether the next value or key in the current container needs a comma before it.
    private var needsComma = false

    /// A writer whose buffer starts with room for `capacity` bytes (it grows as needed).
    public init(capacity: Int = 1024) {
        buffer = JSONByteBuffer(capacity: capacity)
    }

    /// The JSON text so far.
    public var bytes: [UInt8] { buffer.array }

    /// Bytes written so far.
    public var count: Int { buffer.count }

    @inline(__always)
    private mutating func separate() {
        if needsComma { buffer.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    public mutating func beginObject() {
        separate()
        buffer.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        buffer.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        separate()
        buffer.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        buffer.append(UInt8(ascii: "]"))
        needsComma = true
    }

    public mutating func key(_ key: StaticString) {
        let length = key.utf8CodeUnitCount
        let start = key.utf8Start
        assert(!UnsafeBufferPointer(start: start, count: length).contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C },
               "a literal JSON key must need no escaping; pass a String for \(key)")
        // `,"key":` in one copy.
        buffer.reserve(length + 4)
        buffer.appendUnchecked(needsComma, UInt8(ascii: ","))
        buffer.appendUnchecked(UInt8(ascii: "\""))
        buffer.appendUnchecked(start, length)
        buffer.appendUnchecked(UInt8(ascii: "\""))
        buffer.appendUnchecked(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func key(_ key: String) {
        separate()
        buffer.appendString(key)
        buffer.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func number(_ value: Double) {
        separate()
        buffer.appendNumber(value)
    }

    public mutating func string(_ value: String) {
        separate()
        buffer.appendString(value)
    }

    public mutating func bool(_ value: Bool) {
        separate()
        if value { buffer.append("true") } else { buffer.append("false") }
    }

    public mutating func null() {
        separate()
        buffer.append("null")
    }

    public mutating func value(_ value: JSON) {
        separate()
        buffer.append(value.serialized())
    }

    // Raw text, outside the event grammar: no comma is added and none is remembered. For the
    // precomputed pieces of a large answer (the contrast matrix writes most of each cell so);
    // the caller keeps the text valid JSON.

    /// Appends `text` as it is.
    public mutating func raw(_ text: StaticString) { buffer.append(text) }
    /// Appends `bytes` as they are.
    public mutating func raw(_ bytes: [UInt8]) { buffer.append(bytes) }
    /// Appends one byte.
    public mutating func raw(_ byte: UInt8) { buffer.append(byte) }
    /// Appends a number as `number(_:)` writes it.
    public mutating func rawNumber(_ value: Double) { buffer.appendNumber(value) }
    /// Appends a quoted, escaped string as `string(_:)` writes it.
    public mutating func rawString(_ value: String) { buffer.appendString(value) }
    /// Appends a copy of bytes already written: `range` is a range of byte offsets (`count`
    /// values taken earlier), within `0...count`.
    public mutating func rawRepeat(_ range: Range<Int>) { buffer.appendCopy(range) }
}

/// The growable byte buffer behind ``JSONByteWriter``: one allocation that doubles when full,
/// written through its pointer. A class so that the writer, a struct passed `inout`, never
/// copies it and its memory is freed once.
final class JSONByteBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// A copy of the bytes written.
    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Room for `extra` more bytes.
    @inline(__always)
    func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(count + extra) }
    }

    @inline(never)
    private func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    func appendUnchecked(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    /// `byte` when `condition` holds, without a branch the caller has to write.
    @inline(__always)
    func appendUnchecked(_ condition: Bool, _ byte: UInt8) {
        base[count] = byte
        count &+= condition ? 1 : 0
    }

    @inline(__always)
    func appendUnchecked(_ bytes: UnsafePointer<UInt8>, _ length: Int) {
        (base + count).update(from: bytes, count: length)
        count &+= length
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        appendUnchecked(byte)
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        reserve(bytes.count)
        appendUnchecked(start, bytes.count)
    }

    @inline(__always)
    func append(_ text: StaticString) {
        reserve(text.utf8CodeUnitCount)
        appendUnchecked(text.utf8Start, text.utf8CodeUnitCount)
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends a copy of the bytes at `range` of those written (growing first: `base` may move).
    func appendCopy(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the bytes written")
        reserve(range.count)
        appendUnchecked(base + range.lowerBound, range.count)
    }

    /// `s` as a quoted JSON string, escaped as `JSON.writeString(_:into:)` does (the same
    /// `JSON.writeEscaped`).
    func appendString(_ s: String) {
        // A native string's bytes in place; a bridged or lazy one copied once.
        let written: Void? = s.utf8.withContiguousStorageIfAvailable { appendQuoted($0) }
        if written == nil {
            var copy = s
            copy.withUTF8 { appendQuoted($0) }
        }
    }

    @inline(__always) private func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count + 2)
        appendUnchecked(UInt8(ascii: "\""))
        var output = Output(buffer: self)
        JSON.writeEscaped(bytes, into: &output)
        append(UInt8(ascii: "\""))
    }

    /// The buffer as a `JSONByteOutput`.
    private struct Output: JSONByteOutput {
        let buffer: JSONByteBuffer
        @inline(__always) mutating func append(_ byte: UInt8) { buffer.append(byte) }
        @inline(__always) mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) { buffer.append(bytes) }
        mutating func append(contentsOf bytes: [UInt8]) { buffer.append(bytes) }
    }

    /// A JSON number in the format of `JSON.writeNumber(_:into:)`.
    func appendNumber(_ d: Double) {
        guard d.isFinite else { return append("null") }
        // The same decision as `JSON.writeNumber` (a test holds the two writers' bytes equal);
        // kept apart because writing digits in place is faster on this path.
        if abs(d) < 9_007_199_254_740_992, Double(Int64(d)) == d {
            appendInteger(Int64(d))  // also turns -0 into 0
            return
        }
        if JSON.writeShortDecimal(d, into: { append($0) }) { return }
        // The shortest round-trip digits (the text of `description`), from Swift's stack buffer.
        var sink = Sink(buffer: self)
        d.write(to: &sink)
    }

    /// Decimal digits of `value` (|value| < 2^53).
    @inline(__always)
    func appendInteger(_ value: Int64) {
        reserve(21)
        if value < 0 { appendUnchecked(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            appendUnchecked(0x30 &+ UInt8(truncatingIfNeeded: magnitude))
            return
        }
        var digits = 0
        var probe = magnitude
        while probe > 0 { probe /= 10; digits &+= 1 }
        var position = count &+ digits
        count = position
        while magnitude > 0 {
            position &-= 1
            base[position] = 0x30 &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        }
    }

    private struct Sink: TextOutputStream {
        let buffer: JSONByteBuffer
        mutating func write(_ string: String) {
            var string = string
            string.withUTF8 { buffer.append($0) }
        }
        mutating func _writeASCII(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.append(bytes) }
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
