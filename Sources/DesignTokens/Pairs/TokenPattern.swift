// Token path patterns of pair rules: literal text, `*` (any run of characters without `.` or
// `/`, i.e. within one path segment), `**` (any run, across segments) and `{name}` captures (any run
// of characters, possibly empty; the same name in the foreground and background pattern must match the
// same text: `--{x}-foreground` on `--{x}`). Matching is on UTF-8 bytes with backtracking,
// shortest captures first.

/// A compiled token path pattern.
public struct TokenPattern: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case literal([UInt8])
        case star
        case doubleStar
        case capture(String)
    }

    /// The pattern as written.
    public let text: String
    let parts: [Part]

    /// Longest pattern accepted, in bytes.
    public static let maximumLength = 512

    /// Compiles `text`.
    /// - Throws: a message when a `{` is not closed or a capture name is empty.
    public init(_ text: String) throws(TokenError) {
        self.text = text
        var parts: [Part] = []
        var literal: [UInt8] = []
        let b = Array(text.utf8)
        guard b.count <= Self.maximumLength else {
            throw TokenError(reason: "pattern '\(text.prefix(40))…' is longer than \(Self.maximumLength) bytes")
        }
        var i = 0
        func flush() { if !literal.isEmpty { parts.append(.literal(literal)); literal = [] } }
        while i < b.count {
            switch b[i] {
            case UInt8(ascii: "*"):
                flush()
                if i + 1 < b.count && b[i + 1] == UInt8(ascii: "*") { parts.append(.doubleStar); i += 2 } else { parts.append(.star); i += 1 }
            case UInt8(ascii: "{"):
                guard let close = b[(i + 1)...].firstIndex(of: UInt8(ascii: "}")) else {
                    throw TokenError(reason: "pattern '\(text)': '{' at byte \(i + 1) is not closed by '}'")
                }
                let name = String(decoding: b[(i + 1)..<close], as: UTF8.self)
                guard !name.isEmpty, name.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }) else {
                    throw TokenError(reason: "pattern '\(text)': a capture is {name} with letters, digits or _, got '{\(name)}'")
                }
                flush()
                parts.append(.capture(name))
                i = close + 1
            default:
                literal.append(b[i])
                i += 1
            }
        }
        flush()
        self.parts = parts
    }

    /// True when the pattern has no wildcard or capture: it names one token.
    public var isExact: Bool { parts.allSatisfy { if case .literal = $0 { return true } else { return false } } }

    /// The capture names, in order.
    public var captureNames: [String] {
        parts.compactMap { if case .capture(let n) = $0 { return n } else { return nil } }
    }

    /// The literal text before the first wildcard or capture (all tokens it matches start with it).
    public var literalPrefix: String {
        if case .literal(let l)? = parts.first { return String(decoding: l, as: UTF8.self) }
        return ""
    }

    /// The pattern with captures replaced by `values` (missing ones stay captures).
    public func substituting(_ values: [String: String]) -> TokenPattern {
        var out = ""
        for p in parts {
            switch p {
            case .literal(let l): out += String(decoding: l, as: UTF8.self)
            case .star: out += "*"
            case .doubleStar: out += "**"
            case .capture(let n): out += values[n] ?? "{\(n)}"
            }
        }
        return (try? TokenPattern(out)) ?? self
    }

    /// The captures when `path` matches, else nil.
    public func match(_ path: String) -> [String: String]? {
        let s = Array(path.utf8)
        var captures: [String: String] = [:]
        var steps = 0
        return Self.match(parts[...], s[...], &captures, &steps) ? captures : nil
    }

    /// Backtracking match; `steps` bounds the work (patterns are short, paths too).
    private static func match(_ parts: ArraySlice<Part>, _ s: ArraySlice<UInt8>, _ captures: inout [String: String], _ steps: inout Int) -> Bool {
        steps += 1
        if steps > 100_000 { return false }
        guard let part = parts.first else { return s.isEmpty }
        let rest = parts.dropFirst()
        switch part {
        case .literal(let l):
            guard s.count >= l.count, s.prefix(l.count).elementsEqual(l) else { return false }
            return match(rest, s.dropFirst(l.count), &captures, &steps)
        case .star, .doubleStar:
            var k = s.startIndex
            while true {
                if match(rest, s[k...], &captures, &steps) { return true }
                guard k < s.endIndex else { return false }
                if case .star = part, s[k] == UInt8(ascii: ".") || s[k] == UInt8(ascii: "/") { return false }
                k += 1
            }
        case .capture(let name):
            if let bound = captures[name] {
                let l = Array(bound.utf8)
                guard s.count >= l.count, s.prefix(l.count).elementsEqual(l) else { return false }
                return match(rest, s.dropFirst(l.count), &captures, &steps)
            }
            var k = s.startIndex
            while k <= s.endIndex {
                captures[name] = String(decoding: s[s.startIndex..<k], as: UTF8.self)
                if match(rest, s[k...], &captures, &steps) { return true }
                k += 1
            }
            captures[name] = nil
            return false
        }
    }
}
