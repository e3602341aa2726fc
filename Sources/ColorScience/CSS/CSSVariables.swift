// var() substitution (CSS Custom Properties 1 §3) from a set of custom properties the caller
// gives (a request's `variables`, a theme file's declarations): `var(--name)` and
// `var(--name, fallback)`, reference chains, invalid and undefined names reported with the chain.
// Substitution is textual, token by token: the reference is replaced by the property's value
// (trimmed of CSS whitespace), itself substituted first, with an empty comment where it would
// otherwise run into the text beside it (CSS Syntax 3 §9).

/// Custom properties colors may refer to with `var()`.
public struct CSSVariables: Sendable, Equatable {
    /// Most properties accepted in one set.
    public static let maximumCount = 1024
    /// Longest property value, in Unicode scalars.
    public static let maximumValueLength = 1024
    /// Longest text a color may become after substitution, in Unicode scalars.
    public static let maximumExpandedLength = 8192
    /// Longest reference chain (`--a` → `--b` → …).
    public static let maximumChain = 32
    /// Deepest nesting of fallbacks (`var(--a, var(--b, …))`).
    public static let maximumFallbackDepth = 16

    /// Property name (with its `--`) → value, as given.
    public let values: [String: String]
    /// Why a property's value cannot be substituted, found once by `expandingEach` (a value
    /// that fails is not expanded again for every reference to it).
    let failures: [String: ColorParseError]
    /// The errors that make a property invalid at computed-value time (CSS Variables 1 §2.3,
    /// §3), by message, each with the properties of its cycle (none when a name is undefined
    /// and has no fallback): a `var()` naming such a property from outside the cycle takes its
    /// fallback, as browsers do.
    let invalid: [String: Set<String>]

    /// A set of properties; check each name with `problem(withName:)` and each value's length
    /// first (callers name the offending member).
    public init(_ values: [String: String]) {
        self.values = values
        self.failures = [:]
        self.invalid = [:]
    }

    init(values: [String: String], failures: [String: ColorParseError], invalid: [String: Set<String>]) {
        (self.values, self.failures, self.invalid) = (values, failures, invalid)
    }

    /// A set of properties and properties that exist but cannot be substituted, each with why
    /// (`unusable`: name → the message, e.g. "var(--l): '--l' (t.css line 3) is an expression, …"): a
    /// reference to one fails with that reason rather than "not defined".
    public init(_ values: [String: String], unusable: [String: String]) {
        self.values = values
        self.failures = unusable.mapValues { ColorParseError.invalid($0) }
        self.invalid = [:]
    }

    /// The same properties with every value's `var()` substituted once, all values sharing one
    /// cache, and the failures remembered: each later substitution is then linear in its own
    /// text. A theme file's properties are substituted for every token that refers to them; a
    /// hostile pass sent one property of 6,000 nested fallbacks referred to by others, and the
    /// audit took 30 s, holding the heavy-work pool from every other client.
    ///
    /// `budget` (characters) bounds what the substituted values hold in all: each value
    /// substituted is counted against it, and once it is spent every property not yet
    /// substituted fails naming the limit (a hostile pass: 9,900 properties of 511 nested
    /// `color-mix()`, 7.7 KB each once substituted, held 180 MB and the heavy-work pool for 30 s).
    /// Share one budget among the modes of a file.
    public func expandingEach(budget: inout Int) -> CSSVariables {
        var cache: [String: String] = [:]
        var out = values, failures = self.failures, invalid = self.invalid
        let spent: ColorParseError = .invalid("the custom properties substitute to too much text in all (var() inside var() multiplies it; nested color-mix() of var() is the usual cause): this one was not substituted")
        for name in values.keys.sorted() where cache[name] == nil && failures[name] == nil {
            guard let value = values[name], Self.mayReferToVariables(value) else { continue }
            guard budget > 0 else { failures[name] = spent; continue }
            do throws(ColorParseError) {
                let before = cache.count
                let expanded = try expand(value.trimmingCSSWhitespace, chain: [name], cache: &cache, failed: &failures, invalid: &invalid, depth: 0)
                cache[name] = expanded
                // The value and, at most, what it substituted along the way (each of those no
                // longer than it: they lie inside it).
                budget -= expanded.utf8.count * Swift.max(1, cache.count - before)
            } catch {
                failures[name] = error
            }
        }
        for (name, expanded) in cache { out[name] = expanded }
        return CSSVariables(values: out, failures: failures, invalid: invalid)
    }

    /// A custom property name as a stylesheet writes it, with its escapes decoded (CSS Syntax 3
    /// §4.3.7: `--prim\61 ry` is `--primary`, as a browser reads it), when the result is a name
    /// `problem(withName:)` accepts; otherwise `raw` unchanged (`--brand\.500` stays as written,
    /// so that a declaration and a `var()` written alike still match). Text without `\` is
    /// returned as is.
    public static func unescapedName(_ raw: String) -> String {
        guard raw.utf8.contains(UInt8(ascii: "\\")), raw.utf8.count <= 4 * 256 else { return raw }
        var tokenizer = CSSTokenizer(Array(raw.unicodeScalars))
        let tokens = tokenizer.tokenize()
        guard tokens.count == 1, case .ident(let name) = tokens[0].kind, problem(withName: name) == nil else { return raw }
        return name
    }

    /// Why `name` cannot be a custom property name (CSS Custom Properties 1 §2: `--` followed
    /// by name characters; escapes are not accepted here), or nil when it can.
    public static func problem(withName name: String) -> String? {
        guard name.hasPrefix("--") else { return "a custom property name starts with '--'" }
        guard name.unicodeScalars.count > 2 else { return "'--' alone is not a custom property name" }
        guard name.unicodeScalars.count <= 256 else { return "a custom property name is at most 256 characters" }
        for c in name.unicodeScalars.dropFirst(2) where !CSSTokenizer.isNameChar(c) {
            return "'\(c.escapedForMessage)' may not appear in a custom property name (letters, digits, '-' and '_' may)"
        }
        return nil
    }

    /// What follows the name in the message of a `var()` whose custom property is not defined
    /// and has no fallback: `var(--x): '--x' is not defined in variables and has no fallback`.
    static let undefinedMarker = "' is not defined in variables"

    /// The custom property a substitution error's message names as not defined (the message as
    /// `substitute` throws it, possibly inside a longer one), or nil when it names none.
    public static func undefinedName(in message: String) -> String? {
        guard let marker = message.range(of: undefinedMarker),
              let open = message[..<marker.lowerBound].lastIndex(of: "'") else { return nil }
        let name = message[message.index(after: open)..<marker.lowerBound]
        return name.hasPrefix("--") ? String(name) : nil
    }

    /// Whether `text` holds a `var(` (ASCII case-insensitive), so substitution has work to do.
    public static func mayReferToVariables(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 4 else { return false }
        for k in 0...(bytes.count - 4) where bytes[k + 3] == UInt8(ascii: "(") {
            if bytes[k] | 0x20 == UInt8(ascii: "v") && bytes[k + 1] | 0x20 == UInt8(ascii: "a") && bytes[k + 2] | 0x20 == UInt8(ascii: "r") {
                return true
            }
        }
        return false
    }

    /// The error of the cycle `name` is part of, when `expandingEach` met one through it: the
    /// property is then invalid at computed-value time, whatever fallbacks its own value has
    /// (`--a: var(--b, red); --b: var(--a)`: neither is red; CSS Variables 1 §2.3). Substituting
    /// its value as text, with no property around it, would take the fallback.
    public func cycle(through name: String) -> ColorParseError? {
        guard let failure = failures[name], case .invalid(let message) = failure,
              invalid[message]?.contains(name) == true else { return nil }
        return failure
    }

    /// `text` with every `var()` replaced by its value (recursively) or fallback.
    /// - Throws: `ColorParseError.invalid` for an undefined property without fallback, a cycle,
    ///   a chain longer than `maximumChain`, a malformed `var()`, or a result longer than
    ///   `maximumExpandedLength`; the message names the property and the chain, e.g.
    ///   "--brand-hover → --brand: '--brand' is not defined in variables".
    public func substitute(in text: String) throws(ColorParseError) -> String {
        var cache: [String: String] = [:], failed = failures, invalid = self.invalid
        return try expand(text, chain: [], cache: &cache, failed: &failed, invalid: &invalid, depth: 0)
    }

    /// `text` substituted; `depth` counts the fallbacks it lies in. Text longer than
    /// `maximumExpandedLength` is refused before it is read, and fallbacks deeper than
    /// `maximumFallbackDepth`: each level is read again, so that bounds the work.
    func expand(_ text: String, chain: [String], cache: inout [String: String], failed: inout [String: ColorParseError],
                invalid: inout [String: Set<String>], depth: Int) throws(ColorParseError) -> String {
        if text.unicodeScalars.count > Self.maximumExpandedLength {
            throw .invalid("variables expand to more than \(Self.maximumExpandedLength) characters")
        }
        let scalars = Array(text.unicodeScalars)
        var tokenizer = CSSTokenizer(scalars)
        let tokens = tokenizer.tokenize()
        var out = String.UnicodeScalarView()
        var copied = 0
        var k = 0
        func chainText(_ names: [String]) -> String { names.joined(separator: " → ") }
        while k < tokens.count {
            guard case .function(let raw) = tokens[k].kind, CSSTokenizer.asciiLowercased(raw) == "var" else { k += 1; continue }
            let end = ColorSyntax.blockEnd(tokens, from: k, upTo: tokens.count)
            let inner = Array(tokens[(k + 1)..<Swift.min(end, tokens.count)])
            var j = 0
            while j < inner.count, inner[j].kind == .whitespace { j += 1 }
            guard j < inner.count, case .ident(let name) = inner[j].kind, name.hasPrefix("--") else {
                throw .invalid("var() must name a custom property such as var(--brand)")
            }
            j += 1
            while j < inner.count, inner[j].kind == .whitespace { j += 1 }
            var fallback: String? = nil
            if j < inner.count {
                guard inner[j].kind == .comma else {
                    throw .invalid("var(\(name)) takes a property name and an optional fallback after a comma")
                }
                let from = inner[j].range.upperBound
                let to = end < tokens.count ? tokens[end].range.lowerBound : scalars.count
                var v = String.UnicodeScalarView()
                v.append(contentsOf: scalars[from..<to])
                fallback = String(v)
            }
            /// The fallback substituted, one level of fallbacks deeper.
            func fallbackText(_ fallback: String) throws(ColorParseError) -> String {
                guard depth < Self.maximumFallbackDepth else {
                    throw .invalid("var() fallbacks nest more than \(Self.maximumFallbackDepth) deep")
                }
                return try expand(fallback.trimmingCSSWhitespace, chain: chain, cache: &cache, failed: &failed, invalid: &invalid, depth: depth + 1)
            }
            var replacement: String
            if failed[name] != nil || values[name] != nil {
                do throws(ColorParseError) {
                    replacement = try substituted(name, chain: chain, cache: &cache, failed: &failed, invalid: &invalid)
                } catch {
                    // A property in a cycle, or one naming an undefined property without a
                    // fallback, is invalid at computed-value time: from outside the cycle, a var()
                    // naming it takes its fallback (CSS Variables 1 §3; a hostile pass: `--x:
                    // var(--a, blue)` beside `--a: var(--b); --b: var(--a)` was a 400, where the
                    // browser shows blue). Inside the cycle, the fallback does not help.
                    guard let fallback, case .invalid(let message) = error, let members = invalid[message],
                          !chain.contains(where: members.contains) else { throw error }
                    replacement = try fallbackText(fallback)
                }
            } else if let fallback {
                replacement = try fallbackText(fallback)
            } else {
                let via = chain.isEmpty ? "" : " (referenced by \(chainText(chain)))"
                let message = "var(\(name)): '\(name)\(Self.undefinedMarker) and has no fallback\(via)"
                // The property holding it is invalid at computed-value time: a var() naming
                // that property takes its fallback (a hostile pass: `var(--a, red)` beside `--a:
                // var(--zz)` was a 400; Chromium paints red).
                invalid[message] = []
                throw .invalid(message)
            }
            // Substituted as tokens, not text (CSS Variables 1 §3): where the value would run
            // into the text beside it and make other tokens of both (`hsl(var(--h)deg …)` with
            // `--h: 120` is a number and an ident, no angle; `var(--a)var(--b)` of `re` and `d`
            // no `red`), an empty comment keeps them apart, as CSS Syntax 3 §9 serializes them
            // (a hostile pass: Chromium painted none of these, and they were read as colors).
            out.append(contentsOf: scalars[copied..<tokens[k].range.lowerBound])
            if let last = out.last, let first = replacement.unicodeScalars.first, Self.mayJoin(last, first) {
                out.append(contentsOf: "/**/".unicodeScalars)
            }
            out.append(contentsOf: replacement.unicodeScalars)
            copied = end < tokens.count ? tokens[end].range.upperBound : scalars.count
            if copied < scalars.count, let last = out.last, Self.mayJoin(last, scalars[copied]) {
                out.append(contentsOf: "/**/".unicodeScalars)
            }
            if out.count > Self.maximumExpandedLength {
                throw .invalid("variables expand to more than \(Self.maximumExpandedLength) characters")
            }
            k = end + 1
        }
        out.append(contentsOf: scalars[copied...])
        if out.count > Self.maximumExpandedLength {
            throw .invalid("variables expand to more than \(Self.maximumExpandedLength) characters")
        }
        return String(out)
    }

    /// Whether text ending in `a` and text starting with `b` might make one token where they
    /// meet (letters, digits, `-`, `_`, `.`, `%`, `#`, `@`, `+`, `\`, non-ASCII; `b` also `(`,
    /// which makes a name a function). Generous: a comment between tokens that stay apart
    /// anyway changes nothing, the tokenizer drops it.
    static func mayJoin(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
        func wordish(_ c: Unicode.Scalar) -> Bool {
            switch c.value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x5F, 0x2E, 0x25, 0x23, 0x40, 0x2B, 0x5C: return true
            default: return c.value > 0x7F
            }
        }
        return wordish(a) && (wordish(b) || b == "(")
    }

    /// The value of the defined property `name` substituted (from `cache` when known), met
    /// while `chain` is substituted. A cycle's error is remembered in `invalid` with its members.
    private func substituted(_ name: String, chain: [String], cache: inout [String: String], failed: inout [String: ColorParseError],
                             invalid: inout [String: Set<String>]) throws(ColorParseError) -> String {
        if let failure = failed[name] { throw failure }
        guard let value = values[name] else { throw .invalid("var(\(name)): '\(name)\(Self.undefinedMarker)") }
        if let i = chain.firstIndex(of: name) {
            let message = "variables refer to each other in a cycle: \((Array(chain[i...]) + [name]).joined(separator: " → "))"
            invalid[message] = Set(chain[i...])
            throw .invalid(message)
        }
        if chain.count >= Self.maximumChain {
            throw .invalid("variables refer to each other more than \(Self.maximumChain) deep: \((chain.prefix(4) + ["…", name]).joined(separator: " → "))")
        }
        if let known = cache[name] { return known }
        do throws(ColorParseError) {
            let replacement = try expand(value.trimmingCSSWhitespace, chain: chain + [name], cache: &cache, failed: &failed, invalid: &invalid, depth: 0)
            // A CSS-wide keyword, written or substituted (`initial`, or `var(--b, initial)`),
            // makes the property the guaranteed-invalid value: a set of properties as one
            // element holds them has no parent to inherit from (CSS Variables 1 §2.2, §3; a
            // hostile pass: `var(--a, red)` beside `--a: initial` was a 422; Chromium paints red).
            let keyword = replacement.trimmingCSSWhitespace.lowercased()
            if CSSNamedColors.cssWideKeywords.contains(keyword) {
                let message = "var(\(name)): '\(name)' is '\(keyword)', the guaranteed-invalid value of a custom property here (no parent to inherit from)\(chain.isEmpty ? "" : " (referenced by \(chain.joined(separator: " → ")))")"
                invalid[message] = []
                throw .invalid(message)
            }
            cache[name] = replacement
            return replacement
        } catch {
            // Remembered, so that every later reference fails at once (a cycle's message names
            // the chain as first met).
            failed[name] = error
            throw error
        }
    }
}

extension Unicode.Scalar {
    /// The scalar itself when printable ASCII, else `U+XXXX` (at least four uppercase hex digits).
    public var escapedForMessage: String {
        value >= 0x21 && value < 0x7F ? String(self) : "U+" + String(value, radix: 16, uppercase: true).leftPadded(to: 4)
    }
}

extension String {
    func leftPadded(to n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
