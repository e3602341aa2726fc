/// JSON string escaping (RFC 8259 section 7) for hand-built JSON bodies.
public enum JSONEscaping {
    /// Appends `string` to `out` as a quoted JSON string: `"`, `\` and control characters
    /// U+0000...U+001F are escaped (`\n`, `\t`, … or `\u00XX`); everything else is copied as
    /// UTF-8. One pass; no allocation beyond the growth of `out`.
    ///
    /// ```swift
    /// var out: [UInt8] = []
    /// JSONEscaping.appendQuoted("a\"b\n", to: &out)   // "a\"b\n" (with the quotes)
    /// ```
    public static func appendQuoted(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""):
                out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "\\"))
            case 0x0A:
                out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D:
                out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09:
                out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0x08:
                out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "b"))
            case 0x0C:
                out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "f"))
            case 0x00...0x1F:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `string` as a quoted JSON string.
    public static func quoted(_ string: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(string.utf8.count + 2)
        appendQuoted(string, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
