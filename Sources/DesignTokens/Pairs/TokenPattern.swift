// Token path patterns of pair rules: literal text, `*` (any run of characters without `.` or
// `/`, i.e. within one path segment), `**` (any run, across segments) and `{name}` captures (any run
// of characters, possibly empty; the same name in the foreground and background pattern must match the
// same text: `--{x}-foreground` on `--{x}`). Matching is on UTF-8 bytes with backtracking,
// shortest captures first; tails without captures are matched for every position at once (dynamic programming), and every match counts steps
// against a budget the caller gives (an audit's whole budget), so no pattern runs unbounded.

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
    /// True for part indexes from which no capture follows: the rest matches or not whatever
    /// was captured, decided by position alone.
    let captureFree: [Bool]
    /// Bytes of the literal parts together: no shorter path matches.
    let literalBytes: Int

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
        var free = [Bool](repeating: true, count: parts.count + 1)
        var k = parts.count - 1
        while k >= 0 {
            if case .capture = parts[k] { free[k] = false } else { free[k] = free[k + 1] }
            k -= 1
        }
        self.captureFree = free
        self.literalBytes = parts.reduce(0) { if case .literal(let l) = $1 { return $0 + l.count } else { return $0 } }
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

    /// The captures when `path` matches, else nil (nil too past 100,000 steps of matching).
    public func match(_ path: String) -> [String: String]? {
        var steps = 100_000
        return try? firstMatch(path, steps: &steps)
    }

    /// Matching took more steps than allowed.
    public struct Exhausted: Error {}

    /// The captures of the first match (shortest captures first), or nil when `path` does not
    /// match; every step of matching counts down `steps`.
    /// - Throws: `Exhausted` when `steps` runs out.
    public func firstMatch(_ path: String, steps: inout Int) throws(Exhausted) -> [String: String]? {
        let s = Array(path.utf8)
        if cannotMatch(s) { return nil }
        var result: [String: String]? = nil
        var caps: [(String, ArraySlice<UInt8>)] = []
        var memo: [Int: [Bool]] = [:]
        _ = try search(0, s[...], &caps, &memo, s, &steps) { caps in
            result = Dictionary(caps.map { ($0.0, String(decoding: $0.1, as: UTF8.self)) }, uniquingKeysWith: { a, _ in a })
            return true
        }
        return result
    }

    /// Every distinct tuple of the captures `names` (in that order) over all the ways `path`
    /// matches, shortest captures first, until `limit` are found; empty when it does not match.
    /// The join of pair rules: a background token is filed under each tuple, and a foreground's
    /// own captures look it up.
    /// - Throws: `Exhausted` when `steps` runs out.
    public func bindings(_ path: String, of names: [String], steps: inout Int, limit: Int = .max) throws(Exhausted) -> Set<[String]> {
        let s = Array(path.utf8)
        if cannotMatch(s) { return [] }
        var out = Set<[String]>()
        var caps: [(String, ArraySlice<UInt8>)] = []
        var memo: [Int: [Bool]] = [:]
        _ = try search(0, s[...], &caps, &memo, s, &steps) { caps in
            out.insert(names.map { n in caps.first { $0.0 == n }.map { String(decoding: $0.1, as: UTF8.self) } ?? "" })
            return out.count >= limit
        }
        return out
    }


    /// Backtracking search over the ways `s` matches `parts[i...]`, shortest wildcards and
    /// captures first, calling `found` with the captures of each until it returns true. Tails
    /// without captures are decided for every position at once (parts × length), so `**` runs
    /// cost no exponential; `steps` bounds the rest.
    private func search(_ i: Int, _ s: ArraySlice<UInt8>, _ caps: inout [(String, ArraySlice<UInt8>)], _ memo: inout [Int: [Bool]], _ full: [UInt8],
                        _ steps: inout Int, _ found: (inout [(String, ArraySlice<UInt8>)]) -> Bool) throws(Exhausted) -> Bool {
        steps -= 1
        if steps < 0 { throw Exhausted() }
        guard i < parts.count else {
            guard s.isEmpty else { return false }
            steps -= 8  // a match: its captures are copied out
            return found(&caps)
        }
        if i > 0, captureFree[i] {
            // The rest has no capture: whether it matches depends on the position only, for
            // every position at once by dynamic programming (parts × length).
            if memo[i] == nil { memo[i] = try tail(i, full, &steps) }
            return memo[i]![s.startIndex] ? found(&caps) : false
        }
        return try searchFrom(i, s, &caps, &memo, full, &steps, found)
    }

    /// True when `s` cannot match: it does not end with the pattern's last literal, or is
    /// shorter than its literals together (a quick test before the search).
    private func cannotMatch(_ s: [UInt8]) -> Bool {
        if case .literal(let l)? = parts.last, s.count < l.count || !s[(s.count - l.count)...].elementsEqual(l) { return true }
        return s.count < literalBytes
    }

    /// For each position p of `s`, whether `parts[i...]` (no captures) matches `s[p...]`.
    private func tail(_ i: Int, _ s: [UInt8], _ steps: inout Int) throws(Exhausted) -> [Bool] {
        let n = s.count
        var next = [Bool](repeating: false, count: n + 1)
        next[n] = true
        var j = parts.count - 1
        while j >= i {
            steps -= n + 1
            if steps < 0 { throw Exhausted() }
            var cur = [Bool](repeating: false, count: n + 1)
            switch parts[j] {
            case .literal(let l):
                if l.count <= n {
                    for p in 0...(n - l.count) where next[p + l.count] {
                        cur[p] = s[p..<(p + l.count)].elementsEqual(l)
                    }
                }
            case .doubleStar:
                cur[n] = next[n]
                var p = n - 1
                while p >= 0 { cur[p] = next[p] || cur[p + 1]; p -= 1 }
            case .star:
                cur[n] = next[n]
                var p = n - 1
                while p >= 0 {
                    cur[p] = next[p] || (s[p] != UInt8(ascii: ".") && s[p] != UInt8(ascii: "/") && cur[p + 1])
                    p -= 1
                }
            case .capture:
                preconditionFailure("tail(_:) is only for capture-free parts")
            }
            next = cur
            j -= 1
        }
        return next
    }

    private func searchFrom(_ i: Int, _ s: ArraySlice<UInt8>, _ caps: inout [(String, ArraySlice<UInt8>)], _ memo: inout [Int: [Bool]], _ full: [UInt8],
                            _ steps: inout Int, _ found: (inout [(String, ArraySlice<UInt8>)]) -> Bool) throws(Exhausted) -> Bool {
        let part = parts[i]
        switch part {
        case .literal(let l):
            guard s.count >= l.count, s.prefix(l.count).elementsEqual(l) else { return false }
            return try search(i + 1, s.dropFirst(l.count), &caps, &memo, full, &steps, found)
        case .capture(let name) where caps.contains(where: { $0.0 == name }):
            let bound = caps.first { $0.0 == name }!.1
            guard s.count >= bound.count, s.prefix(bound.count).elementsEqual(bound) else { return false }
            return try search(i + 1, s.dropFirst(bound.count), &caps, &memo, full, &steps, found)
        case .star, .doubleStar, .capture:
            // The next literal's first byte, to skip ends where it cannot start.
            var next: UInt8? = nil
            if i + 1 < parts.count, case .literal(let l) = parts[i + 1] { next = l.first }
            let last = i + 1 == parts.count
            var k = last ? s.endIndex : s.startIndex
            if last, case .star = part, s.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "/") }) { return false }
            while true {
                // Every end tried is a step, also those the next literal's first byte skips.
                steps -= 1
                if steps < 0 { throw Exhausted() }
                if next == nil || (k < s.endIndex && s[k] == next!) {
                    if case .capture(let name) = part {
                        caps.append((name, s[s.startIndex..<k]))
                        let done = try search(i + 1, s[k...], &caps, &memo, full, &steps, found)
                        caps.removeLast()
                        if done { return true }
                    } else if try search(i + 1, s[k...], &caps, &memo, full, &steps, found) {
                        return true
                    }
                }
                guard k < s.endIndex else { return false }
                if case .star = part, s[k] == UInt8(ascii: ".") || s[k] == UInt8(ascii: "/") { return false }
                k += 1
            }
        }
    }
}
