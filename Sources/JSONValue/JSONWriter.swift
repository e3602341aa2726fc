extension JSON {
    /// The compact UTF-8 serialization (no insignificant whitespace, members in order).
    ///
    /// Numbers: integral values with magnitude below 2^53 print without a fraction (`21`), others
    /// use Swift's shortest round-trip form (`4.542224959605`, `1e-07`). Non-finite numbers cannot
    /// be represented in JSON and are written as `null`; the API never produces them.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(into: &out)
        return out
    }

    /// The serialization as a `String`.
    public var serializedString: String { String(decoding: serialized(), as: UTF8.self) }

    /// The serialization for a file a person reads and a repository diffs: each object member on
    /// its own line, indented two spaces a level, `": "` after a name, an array of scalars on one
    /// line (`[0, 0.478431, 1]`), other arrays one element a line; a final newline. Numbers and
    /// strings as `serialized()` writes them. (Files written on one line put every audit location
    /// at line 1: a new user's pass, stop 49.)
    public func serializedForFiles() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        writeIndented(into: &out, level: 0)
        out.append(0x0A)
        return out
    }

    private func writeIndented(into out: inout [UInt8], level: Int) {
        func newline(_ level: Int) {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
        }
        switch self {
        case .array(let items) where !items.isEmpty && items.contains(where: { if case .array = $0 { return true }; if case .object = $0 { return true }; return false }):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(level + 1)
                item.writeIndented(into: &out, level: level + 1)
            }
            newline(level)
            out.append(UInt8(ascii: "]"))
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")]) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object) where !object.storage.isEmpty:
            out.append(UInt8(ascii: "{"))
            var first = true
            for member in object.storage {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                newline(level + 1)
                JSON.writeString(member.key, into: &out)
                out.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
                member.value.writeIndented(into: &out, level: level + 1)
            }
            newline(level)
            out.append(UInt8(ascii: "}"))
        default:
            write(into: &out)
        }
    }

    /// Appends the compact serialization to `out`.
    public func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(let b):
            if b { out.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) } else { out.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65]) }
        case .number(let d): JSON.writeNumber(d, into: &out)
        case .string(let s): JSON.writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            for member in object.storage {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                JSON.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a JSON number (see `serialized()` for the format). No allocation for integral
    /// values; one at most (Swift's shortest round-trip text) otherwise.
    public static func writeNumber(_ d: Double, into out: inout [UInt8]) {
        guard d.isFinite else {
            out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
            return
        }
        // Integral (truncation is exact below 2^53; `rounded()` would call libm).
        if abs(d) < 9_007_199_254_740_992, Double(Int64(d)) == d {
            writeInteger(Int64(d), into: &out)  // also turns -0 into 0
            return
        }
        if writeShortDecimal(d, into: { out.append(contentsOf: $0) }) { return }
        // `Double.write(to:)` hands the shortest round-trip digits (the text of `description`)
        // to the stream's `_writeASCII` straight from a stack buffer: no String is made.
        var sink = ByteSink()
        swap(&sink.bytes, &out)
        d.write(to: &sink)
        swap(&sink.bytes, &out)
    }

    /// Writes `d` through `emit` when it is a decimal with one or two fraction digits (`19.5`,
    /// `-4.25`, `0.05`; |d| below 10^13) and returns true; false, writing nothing, otherwise.
    ///
    /// Such a `d` is the double nearest that decimal (checked: the decimal divided back gives
    /// `d`), and no string with fewer digits rounds to the same double, so the decimal is the
    /// shortest round-trip text, the one `description` prints, without Swift's general
    /// algorithm (about 600 instructions). A test compares the two on a few hundred thousand values.
    @inline(__always)
    static func writeShortDecimal(_ d: Double, into emit: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        // Integral tenths or hundredths, tested by truncation (exact in these ranges).
        var scaled: Int64 = 0, digits = 0
        let tenths = d * 10
        if abs(tenths) < 1e14 && Double(Int64(tenths)) == tenths {
            scaled = Int64(tenths)
            guard Double(scaled) / 10 == d else { return false }
            digits = 1
        } else {
            let hundredths = d * 100
            guard abs(hundredths) < 1e15 && Double(Int64(hundredths)) == hundredths else { return false }
            scaled = Int64(hundredths)
            guard scaled % 10 != 0, Double(scaled) / 100 == d else { return false }
            digits = 2
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var magnitude = scaled.magnitude
            var position = 24
            for _ in 0..<digits {
                position -= 1
                buffer[position] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
            }
            position -= 1
            buffer[position] = UInt8(ascii: ".")
            repeat {
                position -= 1
                buffer[position] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if scaled < 0 {
                position -= 1
                buffer[position] = UInt8(ascii: "-")
            }
            emit(UnsafeBufferPointer(rebasing: buffer[position...]))
            return true
        }
    }

    /// A `TextOutputStream` that appends to a byte array, taking ASCII text without a String.
    struct ByteSink: TextOutputStream {
        var bytes: [UInt8] = []
        mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }
        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }
    }

    /// Appends the decimal digits of `value` (`-2^63` excluded: callers pass magnitudes below 2^53).
    static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value == 0 { out.append(0x30); return }
        var magnitude = value.magnitude
        if value < 0 { out.append(UInt8(ascii: "-")) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            while magnitude > 0 {
                digits[19 - count] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    /// Appends `s` as a quoted JSON string (RFC 8259 §7): `"` and `\` escaped, control
    /// characters U+0000...U+001F as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`; the characters a
    /// reader of the raw text would not see (`isHidden`: DEL, C1 controls, U+2028/U+2029, and
    /// format characters such as the bidi overrides U+202A...U+202E and isolates U+2066...U+2069,
    /// zero-width spaces, U+FEFF) as `\u202e`, a pair of surrogates above U+FFFF (RFC 8259 §7);
    /// everything else copied as UTF-8. The escapes are lossless (a parser reads the same
    /// string), and a U+202E in a client's token name no longer reorders what a terminal, a log
    /// viewer or a diff shows ("Trojan Source", CVE-2021-42574). Runs without escapes are
    /// copied in one piece.
    ///
    /// ```swift
    /// var out: [UInt8] = []
    /// JSON.writeString("a\"b\n", into: &out)   // "a\"b\n" (with the quotes)
    /// JSON.writeString("x\u{202E}y", into: &out)   // "x\u202ey"
    /// ```
    public static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let written: Void? = s.utf8.withContiguousStorageIfAvailable { bytes in
            writeEscaped(bytes, into: &out)
        }
        if written == nil {
            var copy = s
            copy.withUTF8 { writeEscaped($0, into: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether `c` is a character a reader of raw text would not see, or that changes how the
    /// rest is shown: a control character (C0, DEL, C1), a line or paragraph separator
    /// (U+2028, U+2029), a format character (Unicode general category Cf: the bidi
    /// embeddings, overrides and isolates, zero-width spaces and joiners, U+FEFF, the tags), or
    /// another default-ignorable code point but the variation selectors.
    /// JSON answers escape them; the service's text reports and generated files show them as
    /// `\u202E` or a space.
    public static func isHidden(_ c: Unicode.Scalar) -> Bool {
        if c.value < 0x20 || (0x7F...0x9F).contains(c.value) || c.value == 0x2028 || c.value == 0x2029 { return true }
        guard c.value >= 0xA0 else { return false }
        if c.properties.generalCategory == .format { return true }
        // Default-ignorable code points a font draws as nothing (the Hangul fillers U+115F,
        // U+3164, U+FFA0, the combining grapheme joiner U+034F: a hostile pass), but not the
        // variation selectors, which choose how the character before them looks (an emoji's
        // U+FE0F).
        return c.properties.isDefaultIgnorableCodePoint && !(0xFE00...0xFE0F).contains(c.value) && !(0xE0100...0xE01EF).contains(c.value)
            && !(0x180B...0x180D).contains(c.value)
    }

    /// The inside of a JSON string literal for UTF-8 `bytes` (see `writeString(_:into:)`), into
    /// a byte array or the byte writer's buffer. `bytes` are a Swift string's, so valid UTF-8.
    @inline(__always)
    static func writeEscaped<Output: JSONByteOutput>(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout Output) {
        // `.` for a byte copied as it is (printable ASCII but `"` and `\`), `e` for one looked at:
        // one load and compare a byte (a literal: no lazy global to check).
        let plain: StaticString = "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee..e.........................................................e..................................eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"
        let classes = plain.utf8Start
        var runStart = 0, skip = 0
        for index in 0..<bytes.count {
            let b = bytes[index]
            if classes[Int(b)] == UInt8(ascii: ".") { continue }
            // The continuation bytes of a scalar already looked at.
            if skip > 0 { skip -= 1; continue }
            if b >= 0x80 {
                // A scalar of 2, 3 or 4 bytes (a continuation byte alone, 1): copied in the run
                // unless hidden.
                let (length, hidden) = hiddenScalar(bytes, at: index)
                skip = length - 1
                guard let hidden else { continue }
                if index > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
                appendEscape(hidden, into: &out)
                runStart = index + length
                continue
            }
            if index > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
            runStart = index + 1
            switch b {
            case 0x22: out.append(0x5C); out.append(0x22)
            case 0x5C: out.append(0x5C); out.append(0x5C)
            case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
            case 0x08: out.append(0x5C); out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(0x5C); out.append(UInt8(ascii: "f"))
            default: appendEscape(UInt32(b), into: &out)
            }
        }
        if bytes.count > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...])) }
    }

    /// The UTF-8 scalar starting at `index` (a lead byte at or above 0x80): its length in bytes,
    /// and its value when `isHidden`. A continuation byte alone counts as one byte, not hidden.
    @inline(never)
    static func hiddenScalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (length: Int, hidden: UInt32?) {
        let b = bytes[index]
        guard b >= 0xC0 else { return (1, nil) }
        let length = b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
        guard index + length <= bytes.count else { return (1, nil) }
        var value = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length { value = value << 6 | UInt32(bytes[index + k] & 0x3F) }
        guard let scalar = Unicode.Scalar(value), isHidden(scalar) else { return (length, nil) }
        return (length, value)
    }

    /// `\u00XX` for a code point up to U+FFFF, a surrogate pair above (RFC 8259 §7).
    @inline(never)
    static func appendEscape<Output: JSONByteOutput>(_ value: UInt32, into out: inout Output) {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        func unit(_ u: UInt32) {
            out.append(contentsOf: [0x5C, UInt8(ascii: "u"), digits[Int(u >> 12 & 0xF)], digits[Int(u >> 8 & 0xF)],
                                    digits[Int(u >> 4 & 0xF)], digits[Int(u & 0xF)]])
        }
        if value > 0xFFFF {
            let v = value - 0x10000
            unit(0xD800 + (v >> 10))
            unit(0xDC00 + (v & 0x3FF))
        } else {
            unit(value)
        }
    }

    /// Appends literal JSON text (`#"{"ratio":"#`) as it is: one copy, no String machinery.
    @inline(__always)
    public static func writeRaw(_ text: StaticString, into out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `s` as a quoted JSON string (see `writeString(_:into:)`).
    public static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 2)
        writeString(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// Where `JSON.writeEscaped` appends: `[UInt8]`, or the pointer-written buffer of `JSONByteWriter`.
protocol JSONByteOutput {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>)
    mutating func append(contentsOf bytes: [UInt8])
}

extension Array: JSONByteOutput where Element == UInt8 {}
