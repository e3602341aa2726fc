// CSS Syntax 3 §4 tokenizer, the subset a <color> needs (and the CSS Values 4 math inside it).

// MARK: - Tokenizer (CSS Syntax 3 §4, the subset a <color> needs)

/// One CSS token with its range in the source (Unicode scalar offsets).
struct CSSToken {
    enum Kind: Equatable {
        case whitespace
        case ident(String)
        case function(String)
        case hash(String)
        case number(Double)
        case percentage(Double)
        case dimension(Double, String)
        case comma
        case delim(Unicode.Scalar)
        case openParen
        case closeParen
        /// Any other token (strings, urls, brackets, braces, `:`, `;`, at-keywords, CDO/CDC,
        /// bad tokens): never part of a valid color.
        case other
    }
    var kind: Kind
    var range: Range<Int>
}

/// A CSS Syntax 3 tokenizer over Unicode scalars (comments dropped, escapes decoded).
/// Numbers that overflow a Double become ±`Double.greatestFiniteMagnitude`.
struct CSSTokenizer {
    let s: [Unicode.Scalar]
    var i = 0

    init(_ scalars: [Unicode.Scalar]) { s = scalars }

    func peek(_ k: Int = 0) -> Unicode.Scalar? { i + k < s.count ? s[i + k] : nil }

    static func isWhitespace(_ c: Unicode.Scalar?) -> Bool {
        guard let c else { return false }
        return c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}"
    }
    static func isNewline(_ c: Unicode.Scalar?) -> Bool {
        c == "\n" || c == "\r" || c == "\u{0C}"
    }
    static func isDigit(_ c: Unicode.Scalar?) -> Bool {
        guard let c else { return false }
        return c.value >= 0x30 && c.value <= 0x39
    }
    static func isHexDigit(_ c: Unicode.Scalar?) -> Bool {
        guard let c else { return false }
        let v = c.value
        return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x46) || (v >= 0x61 && v <= 0x66)
    }
    static func isIdentStart(_ c: Unicode.Scalar?) -> Bool {
        guard let c else { return false }
        let v = c.value
        return (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x5F || v >= 0x80
    }
    static func isNameChar(_ c: Unicode.Scalar?) -> Bool {
        isIdentStart(c) || isDigit(c) || c == "-"
    }
    static func isValidEscape(_ a: Unicode.Scalar?, _ b: Unicode.Scalar?) -> Bool {
        a == "\\" && !isNewline(b)
    }

    func startsIdent(_ k: Int = 0) -> Bool {
        let a = peek(k), b = peek(k + 1), c = peek(k + 2)
        if a == "-" {
            return Self.isIdentStart(b) || b == "-" || Self.isValidEscape(b, c)
        }
        if Self.isIdentStart(a) { return true }
        return Self.isValidEscape(a, b)
    }

    func startsNumber(_ k: Int = 0) -> Bool {
        let a = peek(k), b = peek(k + 1), c = peek(k + 2)
        if a == "+" || a == "-" {
            return Self.isDigit(b) || (b == "." && Self.isDigit(c))
        }
        if a == "." { return Self.isDigit(b) }
        return Self.isDigit(a)
    }

    mutating func tokenize() -> [CSSToken] {
        var out: [CSSToken] = []
        while true {
            skipComments()
            guard i < s.count else { break }
            let start = i
            let kind = nextToken()
            out.append(CSSToken(kind: kind, range: start..<i))
        }
        return out
    }

    mutating func skipComments() {
        while peek() == "/" && peek(1) == "*" {
            i += 2
            while i < s.count && !(peek() == "*" && peek(1) == "/") { i += 1 }
            i = Swift.min(i + 2, s.count)
        }
    }

    mutating func nextToken() -> CSSToken.Kind {
        let c = s[i]
        if Self.isWhitespace(c) {
            while Self.isWhitespace(peek()) { i += 1 }
            return .whitespace
        }
        switch c {
        case "\"", "'":
            i += 1
            while let d = peek(), d != c, !Self.isNewline(d) {
                if d == "\\" { i += 1 }
                i += 1
            }
            i = Swift.min(i, s.count)
            if peek() == c { i += 1 }
            return .other
        case "#":
            if Self.isNameChar(peek(1)) || Self.isValidEscape(peek(1), peek(2)) {
                i += 1
                return .hash(consumeName())
            }
            i += 1
            return .delim(c)
        case "(":
            i += 1; return .openParen
        case ")":
            i += 1; return .closeParen
        case ",":
            i += 1; return .comma
        case "+", ".":
            if startsNumber() { return consumeNumeric() }
            i += 1; return .delim(c)
        case "-":
            if startsNumber() { return consumeNumeric() }
            if peek(1) == "-" && peek(2) == ">" { i += 3; return .other }
            if startsIdent() { return consumeIdentLike() }
            i += 1; return .delim(c)
        case "<":
            if peek(1) == "!" && peek(2) == "-" && peek(3) == "-" { i += 4; return .other }
            i += 1; return .delim(c)
        case "@":
            i += 1
            if startsIdent() { _ = consumeName() }
            return .other
        case "\\":
            if Self.isValidEscape(c, peek(1)) { return consumeIdentLike() }
            i += 1; return .delim(c)
        case ":", ";", "[", "]", "{", "}":
            i += 1; return .other
        default:
            if Self.isDigit(c) { return consumeNumeric() }
            if Self.isIdentStart(c) { return consumeIdentLike() }
            i += 1
            return .delim(c)
        }
    }

    /// Consumes an escape after the backslash (CSS Syntax 3 §4.3.7).
    mutating func consumeEscape() -> Unicode.Scalar {
        guard let c = peek() else { return "\u{FFFD}" }
        if Self.isHexDigit(c) {
            var value: UInt32 = 0
            var n = 0
            while n < 6, let d = peek(), Self.isHexDigit(d) {
                value = value * 16 + UInt32(Int(String(d), radix: 16) ?? 0)
                i += 1; n += 1
            }
            if peek() == "\r" && peek(1) == "\n" { i += 2 } else if Self.isWhitespace(peek()) { i += 1 }
            if value == 0 || (value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF {
                return "\u{FFFD}"
            }
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        }
        i += 1
        return c == "\0" ? "\u{FFFD}" : c
    }

    mutating func consumeName() -> String {
        // Collected as UTF-8 bytes: appending scalar by scalar to a String grew it step by step
        // and cost about half of parsing a gradient (bench/profile gradient).
        var name: [UInt8] = []
        name.reserveCapacity(16)
        func put(_ c: Unicode.Scalar) {
            if c.isASCII { name.append(UInt8(c.value)) } else { name.append(contentsOf: String(c).utf8) }
        }
        while let c = peek() {
            if Self.isNameChar(c) {
                put(c == "\0" ? "\u{FFFD}" : c); i += 1
            } else if Self.isValidEscape(c, peek(1)) {
                i += 1
                put(consumeEscape())
            } else {
                break
            }
        }
        return String(decoding: name, as: UTF8.self)
    }

    mutating func consumeIdentLike() -> CSSToken.Kind {
        let name = consumeName()
        if peek() == "(" {
            i += 1
            if CSSTokenizer.asciiLowercased(name) == "url" {
                var k = i
                while k < s.count && Self.isWhitespace(s[k]) { k += 1 }
                if k < s.count && (s[k] == "\"" || s[k] == "'") { return .function(name) }
                // unquoted url token: consume up to ')' — never a color
                while let c = peek(), c != ")" { i += 1 }
                if peek() == ")" { i += 1 }
                return .other
            }
            return .function(name)
        }
        return .ident(name)
    }

    mutating func consumeNumeric() -> CSSToken.Kind {
        var repr = String.UnicodeScalarView()
        if peek() == "+" || peek() == "-" { repr.append(s[i]); i += 1 }
        while Self.isDigit(peek()) { repr.append(s[i]); i += 1 }
        if peek() == "." && Self.isDigit(peek(1)) {
            repr.append(s[i]); i += 1
            while Self.isDigit(peek()) { repr.append(s[i]); i += 1 }
        }
        if peek() == "e" || peek() == "E" {
            if Self.isDigit(peek(1)) || ((peek(1) == "+" || peek(1) == "-") && Self.isDigit(peek(2))) {
                repr.append(s[i]); i += 1
                if peek() == "+" || peek() == "-" { repr.append(s[i]); i += 1 }
                while Self.isDigit(peek()) { repr.append(s[i]); i += 1 }
            }
        }
        let value = Self.finiteDouble(String(repr))
        if startsIdent() {
            return .dimension(value, consumeName())
        }
        if peek() == "%" {
            i += 1
            return .percentage(value)
        }
        return .number(value)
    }

    /// The value of a CSS number literal; overflow becomes ±greatestFiniteMagnitude,
    /// underflow 0.
    static func finiteDouble(_ repr: String) -> Double {
        let negative = repr.hasPrefix("-")
        guard let v = Double(repr), !v.isNaN else {
            return negative ? -Double.greatestFiniteMagnitude : Double.greatestFiniteMagnitude
        }
        if v.isInfinite { return v < 0 ? -Double.greatestFiniteMagnitude : Double.greatestFiniteMagnitude }
        return v
    }
}

extension CSSTokenizer {
    /// ASCII-only lowercasing (CSS keywords are ASCII case-insensitive, CSS Syntax 3 §2).
    static func asciiLowercased(_ s: String) -> String {
        // Only ASCII bytes are changed (every byte of a multi-byte UTF-8 sequence is 0x80 or
        // more), and a name that is already lower case is returned as it is, without a copy.
        guard s.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return s }
        return String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
