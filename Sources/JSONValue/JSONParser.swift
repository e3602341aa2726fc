/// Why a document is not acceptable JSON, with the byte offset where reading stopped.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Human-readable reason, e.g. "expected ',' or '}' after an object member".
    public var reason: String
    /// Zero-based byte offset into the input.
    public var offset: Int
    /// The RFC 6901 JSON pointer of the value being read when reading stopped (`/colors/3`);
    /// `""` for the document itself and for errors outside any member or element.
    public var pointer: String = ""
    /// The document is valid JSON grammar, but a number in it lies outside the double range
    /// (beyond ±1.797…e308, e.g. `1e400`; RFC 8259 §6 lets parsers limit the range): the value at
    /// `pointer` is refused, not the syntax.
    public var isNumberOutOfRange = false
    /// The document is valid JSON grammar, but a number in it that is not a whole number
    /// (`699.99999999999999999`, `1e-400`) has more digits than a double holds and would read as
    /// one (700, 0), where a whole number can decide a verdict (a font weight of 700 is bold):
    /// the value at `pointer` is refused (`JSONParser.parse(_:maxDepth:refusingInexactWholeNumbers:)`).
    public var isInexactWholeNumber = false

    public init(reason: String, offset: Int, pointer: String = "", isNumberOutOfRange: Bool = false, isInexactWholeNumber: Bool = false) {
        self.reason = reason
        self.offset = offset
        self.pointer = pointer
        self.isNumberOutOfRange = isNumberOutOfRange
        self.isInexactWholeNumber = isInexactWholeNumber
    }

    public var description: String { "\(reason) at byte \(offset)" }

    /// This error as seen from the parent of the value it is in: `token` (an object key or an
    /// array index) is put in front of `pointer`.
    fileprivate func within(_ token: String) -> JSONParseError {
        var e = self
        e.pointer = "/" + JSONPointer.escaped(token) + pointer
        return e
    }
}

/// RFC 6901 JSON pointers.
public enum JSONPointer {
    /// One reference token escaped for a pointer: `~` becomes `~0`, `/` becomes `~1` (RFC 6901 §3).
    public static func escaped(_ token: String) -> String {
        // Read in place (the generic scan of the UTF-8 view took about 60 instructions a byte of
        // a 1 MB member name, for every message naming it).
        var bytes = token
        guard bytes.withUTF8({ $0.contains { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") } }) else { return token }
        var out = ""
        out.reserveCapacity(token.utf8.count + 4)
        for scalar in token.unicodeScalars {
            switch scalar {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// A strict RFC 8259 parser.
///
/// Rejects what lenient parsers let through: trailing commas, comments, leading zeros, `NaN`,
/// numbers outside the double range, invalid UTF-8, lone surrogates, control characters in
/// strings, duplicate object keys, trailing data, and nesting deeper than `maxDepth`.
public struct JSONParser {
    /// Parses one JSON document from UTF-8 bytes.
    /// - Parameters:
    ///   - bytes: the whole document (leading/trailing whitespace allowed).
    ///   - maxDepth: the deepest nesting of arrays and objects accepted (default 64).
    ///   - refusingInexactWholeNumbers: refuse a number that is not a whole number as written
    ///     but reads as one (`JSONParseError.isInexactWholeNumber`); request bodies do.
    /// - Throws: `JSONParseError` naming the problem and its byte offset.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 64, refusingInexactWholeNumbers: Bool = false) throws(JSONParseError) -> JSON {
        var p = JSONParser(bytes: bytes, maxDepth: maxDepth)
        p.refusesInexactWholeNumbers = refusingInexactWholeNumbers
        p.skipWhitespace()
        if p.index == bytes.count { throw JSONParseError(reason: "empty body: expected a JSON value", offset: 0) }
        let value = try p.parseValue(depth: 0)
        p.skipWhitespace()
        if p.index != bytes.count {
            throw JSONParseError(reason: "unexpected data after the JSON value", offset: p.index)
        }
        return value
    }

    /// Parses a JSON document from a string.
    public static func parse(_ text: String, maxDepth: Int = 64, refusingInexactWholeNumbers: Bool = false) throws(JSONParseError) -> JSON {
        try parse(Array(text.utf8), maxDepth: maxDepth, refusingInexactWholeNumbers: refusingInexactWholeNumbers)
    }

    /// Objects with up to this many members are checked for duplicate keys by a scan.
    static let scannedMembers = 16

    private let bytes: [UInt8]
    private let maxDepth: Int
    private var index = 0
    private var refusesInexactWholeNumbers = false

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// A key quoted for a message, at most 64 characters (Unicode scalars) of it: a 1 MB key is
    /// cut with `…` and its length said, as ContrastAPI's `ClientText` cuts client text.
    static func quotedKey(_ key: String) -> String {
        let limit = 64
        let scalars = key.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
              end != scalars.endIndex else { return "\"\(key)\"" }
        let length = limit + scalars[end...].count
        return "\"\(String(String.UnicodeScalarView(scalars[..<end])))…\" (\(length) characters, shortened)"
    }

    private func fail(_ reason: String) -> JSONParseError {
        JSONParseError(reason: reason, offset: index)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSON {
        guard index < bytes.count else { throw fail("unexpected end of input: expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default:
            throw fail("unexpected character '\(printable(bytes[index]))': expected a value")
        }
    }

    private func printable(_ b: UInt8) -> String {
        (0x21...0x7E).contains(b) ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16)
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let start = index
        let n = word.utf8CodeUnitCount
        guard start + n <= bytes.count else { throw fail("invalid literal: expected \(word)") }
        let ok = word.withUTF8Buffer { w in
            for i in 0..<n where bytes[start + i] != w[i] { return false }
            return true
        }
        guard ok else { throw fail("invalid literal: expected \(word)") }
        index += n
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSON {
        guard depth <= maxDepth else { throw fail("nesting deeper than \(maxDepth) levels") }
        index += 1
        var object = JSONObject()
        var keys: Set<String>? = nil
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw fail("expected a string key in object")
            }
            let keyOffset = index
            let key = try parseString()
            // Duplicates: a scan of the few members of a request object, a set once there are
            // many (a scan per member made a 1 MB object of 90k members take 21 s).
            if keys?.contains(key) ?? (object[key] != nil) {
                throw JSONParseError(reason: "duplicate key \(Self.quotedKey(key)) in object", offset: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw fail("expected ':' after object key \(Self.quotedKey(key))")
            }
            index += 1
            skipWhitespace()
            let value: JSON
            do { value = try parseValue(depth: depth) } catch { throw error.within(key) }
            object.append(key, value)
            if keys != nil {
                keys!.insert(key)
            } else if object.count == JSONParser.scannedMembers {
                keys = Set(object.storage.map(\.key))
            }
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input in object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
            throw fail("expected ',' or '}' after an object member")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSON {
        guard depth <= maxDepth else { throw fail("nesting deeper than \(maxDepth) levels") }
        index += 1
        var items: [JSON] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            do { items.append(try parseValue(depth: depth)) } catch { throw error.within(String(items.count)) }
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input in array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw fail("expected ',' or ']' after an array element")
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number: expected a digit") }
        let integerStart = index
        var integer: Int64 = 0
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw fail("invalid number: leading zero") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) {
                if index - integerStart < 15 { integer = integer &* 10 &+ Int64(bytes[index] &- 0x30) }
                index += 1
            }
        }
        // A plain integer of at most 15 digits is exact as a Double: no need for strtod.
        let isPlainInteger = index - integerStart <= 15
            && (index == bytes.count || (bytes[index] != UInt8(ascii: ".") && bytes[index] | 0x20 != UInt8(ascii: "e")))
        if isPlainInteger {
            return negative ? (integer == 0 ? -0.0 : -Double(integer)) : Double(integer)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw fail("invalid number: expected a digit after '.'")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw fail("invalid number: expected a digit in the exponent")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(reason: "number \(text.prefix(40)) is outside the double range", offset: start,
                                 isNumberOutOfRange: true)
        }
        if refusesInexactWholeNumbers, value == value.rounded(.towardZero), !isWholeNumber(start, index) {
            throw JSONParseError(reason: Self.inexactWholeNumberReason(String(text.prefix(40)), value), offset: start, isInexactWholeNumber: true)
        }
        return value
    }

    /// Why the number written `text` is refused when it is no whole number but reads as the
    /// whole number `value` (`JSONParseError.isInexactWholeNumber`; query strings say the same).
    public static func inexactWholeNumberReason(_ text: String, _ value: Double) -> String {
        "number \(text) is not a whole number, but no 64-bit number holds it and it would read as \(abs(value) < 9e18 ? String(Int64(value)) : "\(value)"), a whole number: write at most 17 significant digits"
    }

    /// Whether the decimal literal `text` (an optional sign, digits, an optional fraction and
    /// exponent: JSON's grammar, with `+` and leading zeros as query strings write them) is a
    /// whole number as written; false for text of another shape.
    public static func isWholeNumberLiteral(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var i = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 || bytes[i] == UInt8(ascii: ".") else { return false }
        let p = JSONParser(bytes: bytes, maxDepth: 0)
        return p.isWholeNumber(i, bytes.count)
    }

    /// Whether the number literal `bytes[start..<end]` (valid JSON grammar, its sign at `start`
    /// or already passed) is a whole number as written: its digits, trailing zeros dropped, end
    /// at or before the decimal point once the exponent has moved it.
    private func isWholeNumber(_ start: Int, _ end: Int) -> Bool {
        var i = start
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        var digits: [UInt8] = [], integerDigits = 0
        while i < end, isDigit(bytes[i]) { digits.append(bytes[i]); integerDigits += 1; i += 1 }
        if i < end, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, isDigit(bytes[i]) { digits.append(bytes[i]); i += 1 }
        }
        var exponent = 0
        if i < end, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var negative = false
            if i < end, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { negative = bytes[i] == UInt8(ascii: "-"); i += 1 }
            // Past a million the value is 0 or out of range, which the caller has sorted out.
            while i < end, isDigit(bytes[i]) { if exponent < 1_000_000 { exponent = exponent * 10 + Int(bytes[i] - 0x30) }; i += 1 }
            if negative { exponent = -exponent }
        }
        while let last = digits.last, last == UInt8(ascii: "0") { digits.removeLast() }
        if digits.allSatisfy({ $0 == UInt8(ascii: "0") }) { return true }
        return digits.count <= integerDigits + exponent
    }

    @inline(__always) private func isDigit(_ b: UInt8) -> Bool {
        b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let s = try validatedString(bytes[start..<index], offset: start)
                index += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw fail("control character in string must be escaped") }
            index += 1
        }
        var buffer = Array(bytes[start..<index])
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                return try validatedString(buffer[...], offset: start)
            }
            if b < 0x20 { throw fail("control character in string must be escaped") }
            if b != UInt8(ascii: "\\") {
                buffer.append(b)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): buffer.append(0x22)
            case UInt8(ascii: "\\"): buffer.append(0x5C)
            case UInt8(ascii: "/"): buffer.append(0x2F)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw fail("lone high surrogate in \\u escape") }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("invalid low surrogate in \\u escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw fail("lone low surrogate in \\u escape")
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
                buffer.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw fail("invalid escape '\\\(printable(e))' in string")
            }
        }
        throw fail("unterminated string")
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    private func validatedString(_ slice: ArraySlice<UInt8>, offset: Int) throws(JSONParseError) -> String {
        // Pure ASCII is always valid UTF-8.
        if slice.allSatisfy({ $0 < 0x80 }) { return String(decoding: slice, as: UTF8.self) }
        guard let s = String(validating: slice, as: UTF8.self) else {
            throw JSONParseError(reason: "string is not valid UTF-8", offset: offset)
        }
        return s
    }
}
