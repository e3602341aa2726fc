import Foundation

/// Why a string is not a usable CSS color.
public enum ColorParseError: Error, Equatable, Sendable {
    /// Not a valid CSS `<color>` (CSS Color 4 §4); the message says what is wrong, e.g.
    /// "hex color must have 3, 4, 6 or 8 digits, got 5".
    case invalid(String)
    /// Valid CSS, but its value depends on a document (current color, system colors, the
    /// cascade, custom properties, `calc()` …); the message names the feature, e.g.
    /// "currentcolor depends on the element's color and is not supported".
    case unsupported(String)

    /// The human-readable explanation carried by either case.
    public var message: String {
        switch self {
        case .invalid(let m), .unsupported(let m): return m
        }
    }
}

/// Digit order of 4- and 8-digit hex colors.
public enum HexOrder: String, Sendable, CaseIterable {
    /// CSS order `#RRGGBBAA` / `#RGBA` (CSS Color 4 §5.2); the default.
    case rgba
    /// `#AARRGGBB` / `#ARGB` (Android, .NET); only when the caller asks for it explicitly.
    case argb
}

/// A CSS Color 4 `<color>` parser that agrees with browsers (Chromium) on what is valid.
///
/// Accepts (ASCII case-insensitive, surrounding CSS whitespace and comments ignored, a missing
/// final `)` accepted as CSS does at end of input):
/// - hex `#rgb #rgba #rrggbb #rrggbbaa` (§5.2) → `.srgb`;
/// - the 148 named colors and `transparent` (§6.1) → `.srgb`;
/// - `rgb()`/`rgba()` (§5.1), legacy comma syntax (all numbers or all percentages, no `none`)
///   and modern space syntax (`none`, mixed numbers/percentages, `/ alpha`) → `.srgb` `0...1`,
///   channels clamped to `0...255` (`0%...100%`) at parse time;
/// - `hsl()`/`hsla()` (§7, legacy and modern) → `.hsl` (h degrees `[0, 360)`, s and l in
///   percent; a negative saturation is clamped to 0% at parse time, §7.1, nothing else is); `hwb()` (§8) → `.hwb` (w and b in percent as given; w + b > 100%
///   is normalised when converting);
/// - `lab()` (L: 100% = 100, a/b: 100% = 125), `lch()` (C: 100% = 150), `oklab()`
///   (L: 100% = 1, a/b: 100% = 0.4), `oklch()` (C: 100% = 0.4) (§9) → their own spaces;
///   lightness is clamped to `0...100` (Lab, LCH) or `0...1` (OKLab, OKLCH) and negative
///   LCH/OKLCH chroma to 0 at parse time (§9.1–§9.4);
/// - `color()` (§10) with `srgb`, `srgb-linear`, `display-p3`, `rec2020`, `xyz`/`xyz-d65`
///   (→ `.xyzD65`), `xyz-d50`, where 100% = 1; also `a98-rgb` (converted exactly to
///   `.xyzD65`) and `prophoto-rgb` (converted exactly to `.xyzD50`), which have no
///   `ColorSpace` case.
///
/// Hues accept `deg grad rad turn` or a bare number (degrees) and are wrapped into
/// `[0, 360)`. Alpha (number or percentage) is clamped to `0...1`; `none` alpha is 0.
/// A `none` component is stored as 0 and flagged in `Color.isNone`.
public enum CSSColorParser {
    /// Longest input accepted, in Unicode scalars.
    public static let maximumLength = 1024
    /// Largest magnitude accepted for a component that is not clamped or wrapped (Lab, OKLab,
    /// HSL/HWB percentages, `color()` channels), after percentage scaling; equals
    /// `Color.maximumCoordinateMagnitude`, so conversions stay finite.
    public static let maximumComponentMagnitude = Color.maximumCoordinateMagnitude

    /// Parses a CSS Color 4 color string.
    ///
    /// - Parameters:
    ///   - text: the CSS text, e.g. `"#336699"`, `"rebeccapurple"`, `"rgb(51 102 153 / 50%)"`,
    ///     `"oklch(0.6 0.15 250)"`, `"color(display-p3 0.2 0.4 0.6)"`; at most
    ///     `maximumLength` scalars.
    ///   - hexOrder: digit order for 4- and 8-digit hex colors (default CSS `#RRGGBBAA`).
    /// - Returns: the color in its source space (see the type documentation), alpha `0...1`,
    ///   all coordinates finite.
    /// - Throws: `ColorParseError.unsupported` for valid CSS that needs a document:
    ///   `currentcolor`, system colors (`Canvas`, `LinkText`, …, deprecated ones), CSS-wide
    ///   keywords (`inherit`, `initial`, `unset`, `revert`, `revert-layer`), `light-dark()`,
    ///   `color-mix()`, `contrast-color()`, relative color syntax (`from`), math functions
    ///   (`calc()`, `min()`, …) anywhere, `var()`, `env()`, `attr()`, `if()`.
    ///   `ColorParseError.invalid` for anything else that is not a CSS color, with a precise
    ///   message, and for components beyond `maximumComponentMagnitude`.
    public static func parse(_ text: String, hexOrder: HexOrder = .rgba) throws(ColorParseError) -> Color {
        // Fast path for the most common input, `#rrggbb` and friends, straight from UTF-8 bytes.
        if let color = fastHex(text, hexOrder: hexOrder) { return color }
        do {
            return try parseTokenized(text, hexOrder: hexOrder)
        } catch {
            throw strayCharacterError(text, hexOrder: hexOrder) ?? error
        }
    }

    /// For text that is not a color and holds a stray character (`CSSStrayCharacters`: U+00A0
    /// before `#fff`, U+000B before `red`): that character, where it is, and what the text is
    /// without it: "U+00A0 (no-break space) at character 1, before the color, is not whitespace
    /// CSS allows around a color (only space, tab, LF, CR and FF are); without it, '#fff' is a
    /// color". Nil when the text holds none (the tokenizer's message stands).
    static func strayCharacterError(_ text: String, hexOrder: HexOrder) -> ColorParseError? {
        guard let stray = CSSStrayCharacters.find(in: text) else { return nil }
        let it = stray.count == 1 ? "it" : "them"
        let rest = stray.remainder
        let quoted = rest.count > 40 ? "'\(rest.prefix(37))...'" : "'\(rest)'"
        if rest.isEmpty { return .invalid(stray.description) }
        do {
            _ = try parseTokenized(rest, hexOrder: hexOrder)
            return .invalid("\(stray.description); without \(it), \(quoted) is a color")
        } catch {
            switch error {
            case .invalid(let why): return .invalid("\(stray.description); without \(it), \(quoted) is not a color either: \(why)")
            case .unsupported(let why): return .invalid("\(stray.description); without \(it), \(quoted) is valid CSS, but \(why)")
            }
        }
    }

    /// The full CSS Syntax 3 path (every syntax, precise error messages).
    static func parseTokenized(_ text: String, hexOrder: HexOrder) throws(ColorParseError) -> Color {
        let scalars = Array(text.unicodeScalars.prefix(maximumLength + 1))
        if scalars.count > maximumLength {
            throw .invalid("color text is longer than \(maximumLength) characters")
        }
        var tokenizer = CSSTokenizer(scalars)
        let tokens = tokenizer.tokenize()
        let parser = ColorSyntax(source: scalars, tokens: tokens, hexOrder: hexOrder)
        return try parser.parseColor()
    }
}

extension CSSColorParser {
    /// A hex color (`#` and 3, 4, 6 or 8 hex digits, CSS whitespace around it allowed) parsed from
    /// UTF-8 bytes without tokenizing; nil for anything else (the full parser then decides).
    static func fastHex(_ text: String, hexOrder: HexOrder) -> Color? {
        var text = text
        return text.withUTF8 { bytes -> Color? in
            var lo = 0, hi = bytes.count
            func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C }
            while lo < hi && isSpace(bytes[lo]) { lo += 1 }
            while hi > lo && isSpace(bytes[hi - 1]) { hi -= 1 }
            guard hi - lo >= 4, bytes[lo] == UInt8(ascii: "#") else { return nil }
            return hexColor(UnsafeBufferPointer(rebasing: bytes[(lo + 1)..<hi]), hexOrder: hexOrder)
        }
    }

    /// The color of 3, 4, 6 or 8 ASCII hex digits (CSS Color 4 §5.2), or nil when the digits are
    /// not that. Alpha is last unless `hexOrder` is `.argb`.
    static func hexColor<C: Collection>(_ digits: C, hexOrder: HexOrder) -> Color? where C.Element == UInt8 {
        let n = digits.count
        guard n == 3 || n == 4 || n == 6 || n == 8 else { return nil }
        var acc: UInt32 = 0
        for b in digits {
            let v: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            acc = acc << 4 | UInt32(v)
        }
        var r, g, b, a: UInt32
        switch n {
        case 3: (r, g, b, a) = ((acc >> 8 & 0xF) * 17, (acc >> 4 & 0xF) * 17, (acc & 0xF) * 17, 255)
        case 4: (r, g, b, a) = ((acc >> 12 & 0xF) * 17, (acc >> 8 & 0xF) * 17, (acc >> 4 & 0xF) * 17, (acc & 0xF) * 17)
        case 6: (r, g, b, a) = (acc >> 16 & 0xFF, acc >> 8 & 0xFF, acc & 0xFF, 255)
        default: (r, g, b, a) = (acc >> 24 & 0xFF, acc >> 16 & 0xFF, acc >> 8 & 0xFF, acc & 0xFF)
        }
        if (n == 4 || n == 8) && hexOrder == .argb { (r, g, b, a) = (g, b, a, r) }
        return Color(space: .srgb, coordinates: SIMD3(Double(r), Double(g), Double(b)) / 255, alpha: Double(a) / 255)
    }
}

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
        var name = String.UnicodeScalarView()
        while let c = peek() {
            if Self.isNameChar(c) {
                name.append(c == "\0" ? "\u{FFFD}" : c); i += 1
            } else if Self.isValidEscape(c, peek(1)) {
                i += 1
                name.append(consumeEscape())
            } else {
                break
            }
        }
        return String(name)
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
        var out = String.UnicodeScalarView()
        for c in s.unicodeScalars {
            if c.value >= 0x41 && c.value <= 0x5A, let l = Unicode.Scalar(c.value + 32) {
                out.append(l)
            } else {
                out.append(c)
            }
        }
        return String(out)
    }
}

// MARK: - Color grammar (CSS Color 4 §4.1 <color>)

/// Parses a token list as one CSS `<color>`.
struct ColorSyntax {
    let source: [Unicode.Scalar]
    let tokens: [CSSToken]
    let hexOrder: HexOrder

    /// Functions that make any value valid at parse time and substitute later (CSS Values 5).
    static let substitutionFunctions: Set<String> = ["var", "env", "attr", "if", "inherit"]
    /// The color functions this parser evaluates.
    static let colorFunctions: Set<String> = [
        "rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color",
    ]
    /// CSS math functions (CSS Values 4 §10).
    static let mathFunctions: Set<String> = [
        "calc", "-webkit-calc", "min", "max", "clamp", "round", "mod", "rem", "sin", "cos",
        "tan", "asin", "acos", "atan", "atan2", "pow", "sqrt", "hypot", "log", "exp", "abs",
        "sign", "progress", "random", "sibling-index", "sibling-count",
    ]

    /// Quoted source text of a token range, shortened for messages.
    func text(_ range: Range<Int>) -> String {
        let clipped = range.clamped(to: 0..<source.count)
        var v = String.UnicodeScalarView()
        v.append(contentsOf: source[clipped])
        let t = String(v)
        return t.count > 40 ? String(t.prefix(37)) + "..." : t
    }

    func text(_ token: CSSToken) -> String { text(token.range) }

    func parseColor() throws(ColorParseError) -> Color {
        // Substitution functions anywhere make the value valid at parse time in browsers.
        for t in tokens {
            if case .function(let raw) = t.kind {
                let name = CSSTokenizer.asciiLowercased(raw)
                if Self.substitutionFunctions.contains(name) {
                    throw .unsupported("\(name)() is substituted from the document and is not supported; send the resolved color")
                }
            }
        }
        var first = 0
        while first < tokens.count, tokens[first].kind == .whitespace { first += 1 }
        var last = tokens.count
        while last > first, tokens[last - 1].kind == .whitespace { last -= 1 }
        guard first < last else {
            throw .invalid("empty color; expected a CSS color such as '#336699', 'rebeccapurple' or 'oklch(0.6 0.15 250)'")
        }
        let head = tokens[first]
        switch head.kind {
        case .hash(let digits):
            return try color(try parseHex(digits), thenEnd: first + 1, upTo: last)
        case .ident(let raw):
            var next = first + 1
            while next < last, tokens[next].kind == .whitespace { next += 1 }
            if next < last, tokens[next].kind == .openParen, next > first + 1,
               Self.colorFunctions.contains(CSSTokenizer.asciiLowercased(raw)) {
                throw .invalid("no space is allowed between '\(raw.prefix(40))' and '('")
            }
            return try color(try keyword(raw), thenEnd: first + 1, upTo: last)
        case .function(let raw):
            let name = CSSTokenizer.asciiLowercased(raw)
            // Find the matching ')' (or end of input, which closes the function).
            var depth = 1
            var k = first + 1
            while k < last {
                switch tokens[k].kind {
                case .function, .openParen: depth += 1
                case .closeParen: depth -= 1
                default: break
                }
                if depth == 0 { break }
                k += 1
            }
            let inner = Array(tokens[(first + 1)..<Swift.min(k, last)])
            return try color(try function(name, inner), thenEnd: k + 1, upTo: last)
        case .delim("#"):
            throw .invalid("'#' must be followed directly by 3, 4, 6 or 8 hex digits")
        case .number, .percentage, .dimension:
            throw .invalid("'\(text(head))' is a number, not a color")
        default:
            throw .invalid("'\(text(head))' is not a CSS color")
        }
    }

    /// The color of the head, when only whitespace follows it up to `end`. The head is judged
    /// first: `redd blue` is an unknown name, not "unexpected text after the color" (there is no
    /// color). Text after it still makes an unsupported head (`currentcolor x`) invalid.
    func color(_ head: @autoclosure () throws(ColorParseError) -> Color, thenEnd index: Int, upTo end: Int) throws(ColorParseError) -> Color {
        let color: Color
        do {
            color = try head()
        } catch {
            if case .unsupported = error, index < end { try expectEnd(after: index, upTo: end) }
            throw error
        }
        if index < end { try expectEnd(after: index, upTo: end) }
        return color
    }

    func expectEnd(after index: Int, upTo end: Int) throws(ColorParseError) {
        var k = index
        while k < end, tokens[k].kind == .whitespace { k += 1 }
        if k < end {
            throw .invalid("unexpected text after the color: '\(text(tokens[k].range.lowerBound..<tokens[end - 1].range.upperBound))'")
        }
    }

    // MARK: Hex (§5.2)

    func parseHex(_ digits: String) throws(ColorParseError) -> Color {
        for c in digits.unicodeScalars where !CSSTokenizer.isHexDigit(c) {
            throw .invalid("'#\(digits.prefix(20))' is not a hex color: '\(c)' is not a hexadecimal digit")
        }
        guard let color = CSSColorParser.hexColor(Array(digits.utf8), hexOrder: hexOrder) else {
            throw .invalid("hex color must have 3, 4, 6 or 8 digits, got \(digits.unicodeScalars.count)")
        }
        return color
    }

    // MARK: Keywords (§6)

    func keyword(_ raw: String) throws(ColorParseError) -> Color {
        let name = CSSTokenizer.asciiLowercased(raw)
        if let rgb = CSSNamedColors.rgb24[name] {
            return Color.srgb8(Int(rgb >> 16), Int((rgb >> 8) & 0xFF), Int(rgb & 0xFF))
        }
        if name == "transparent" {
            return Color(space: .srgb, coordinates: SIMD3(0, 0, 0), alpha: 0)
        }
        if name == "currentcolor" {
            throw .unsupported("currentcolor depends on the element's color and is not supported")
        }
        if CSSNamedColors.systemColors.contains(name) {
            throw .unsupported("'\(raw)' is a CSS system color; its value depends on the browser, platform and color scheme and is not supported")
        }
        if CSSNamedColors.vendorDocumentColors.contains(name) {
            throw .unsupported("'\(raw)' is a browser-specific color keyword resolved by the document and is not supported")
        }
        if CSSNamedColors.cssWideKeywords.contains(name) {
            throw .unsupported("'\(raw)' is a CSS-wide keyword resolved by the cascade and is not supported")
        }
        throw .invalid("unknown color name '\(raw.prefix(40))'")
    }

    // MARK: Functions (§5.1, §7, §8, §9, §10)

    /// One argument of a color function.
    enum Component {
        case number(Double)
        case percentage(Double)
        case dimension(Double, String)
        case ident(String)
        case math(String)
    }

    enum Item {
        case component(Component, Range<Int>)
        case comma
        case slash
    }

    func function(_ name: String, _ inner: [CSSToken]) throws(ColorParseError) -> Color {
        switch name {
        case _ where Self.colorFunctions.contains(name):
            break
        case "color-mix":
            throw .unsupported("color-mix() is not supported; send the mixed color")
        case "light-dark":
            throw .unsupported("light-dark() depends on the document's color scheme and is not supported; send the light or dark color")
        case "contrast-color":
            throw .unsupported("contrast-color() is not supported; send a color")
        case "device-cmyk":
            throw .invalid("device-cmyk() is not supported by browsers and is not a usable CSS color")
        default:
            if Self.mathFunctions.contains(name) {
                throw .invalid("\(name)() produces a number, not a color")
            }
            throw .invalid("unknown color function '\(name)()'")
        }
        let items = try self.items(of: name, inner)
        if case .component(.ident(let word), _)? = items.first, CSSTokenizer.asciiLowercased(word) == "from" {
            throw .unsupported("relative color syntax ('\(name)(from …)') is not supported; send the resolved color")
        }
        var math: String? = nil
        let color: Color
        switch name {
        case "color":
            color = try colorFunction(items, math: &math)
        default:
            color = try channelFunction(name, items, math: &math)
        }
        if let math {
            throw .unsupported("\(math)() and other CSS math functions are not supported; send the computed value")
        }
        return color
    }

    /// Turns the tokens inside a function into components, commas and slashes.
    func items(of name: String, _ inner: [CSSToken]) throws(ColorParseError) -> [Item] {
        var items: [Item] = []
        var k = 0
        while k < inner.count {
            let t = inner[k]
            switch t.kind {
            case .whitespace:
                break
            case .number(let v):
                items.append(.component(.number(v), t.range))
            case .percentage(let v):
                items.append(.component(.percentage(v), t.range))
            case .dimension(let v, let unit):
                items.append(.component(.dimension(v, unit), t.range))
            case .ident(let w):
                items.append(.component(.ident(w), t.range))
            case .comma:
                items.append(.comma)
            case .delim("/"):
                items.append(.slash)
            case .function(let raw):
                let fn = CSSTokenizer.asciiLowercased(raw)
                var depth = 1
                let start = k
                k += 1
                while k < inner.count {
                    switch inner[k].kind {
                    case .function, .openParen: depth += 1
                    case .closeParen: depth -= 1
                    default: break
                    }
                    if depth == 0 { break }
                    k += 1
                }
                let end = Swift.min(k, inner.count - 1)
                let range = inner[start].range.lowerBound..<inner[end].range.upperBound
                guard Self.mathFunctions.contains(fn) else {
                    throw .invalid("unexpected function '\(fn)()' inside \(name)()")
                }
                items.append(.component(.math(fn), range))
            default:
                throw .invalid("unexpected '\(text(t))' inside \(name)()")
            }
            k += 1
        }
        return items
    }

    /// What a channel position accepts.
    enum Slot {
        /// rgb(): number 0...255 or percentage.
        case rgbChannel
        /// A hue: number (degrees) or angle.
        case hue
        /// A number or percentage; `percentScale` is the value of 100%.
        case scaled(percentScale: Double)
        /// Lab/LCH/OKLab/OKLCH lightness: a number or percentage (100% = `percentScale`), clamped to
        /// `0...percentScale` at parse time (CSS Color 4 §9.1–§9.4; WPT lab-l-over-100, oklch-l-over-1).
        case lightness(percentScale: Double)
        /// Percentage only (legacy hsl saturation and lightness); 100% = 100.
        case percentOnly
        /// Alpha: number or percentage, clamped to 0...1.
        case alpha
    }

    /// Splits items into channel components plus an optional alpha, checking the legacy comma
    /// syntax or the modern space syntax.
    func layout(_ name: String, _ items: [Item], allowLegacy: Bool)
        throws(ColorParseError) -> (channels: [(Component, Range<Int>)], alpha: (Component, Range<Int>)?, legacy: Bool) {
        let hasComma = items.contains { if case .comma = $0 { return true } else { return false } }
        if hasComma {
            guard allowLegacy else {
                throw .invalid("\(name)() takes space-separated components, not commas")
            }
            var groups: [[Item]] = [[]]
            for item in items {
                switch item {
                case .comma: groups.append([])
                case .slash:
                    throw .invalid("\(name)() with commas must give alpha as a fourth comma-separated value, not after '/'")
                default: groups[groups.count - 1].append(item)
                }
            }
            var comps: [(Component, Range<Int>)] = []
            for g in groups {
                guard g.count == 1, case .component(let c, let r) = g[0] else {
                    if g.isEmpty { throw .invalid("\(name)() has an empty value between commas") }
                    throw .invalid("\(name)() mixes commas and spaces; separate all values with commas (legacy syntax) or with spaces (modern syntax)")
                }
                if case .ident(let w) = c, CSSTokenizer.asciiLowercased(w) == "none" {
                    throw .invalid("'none' is not allowed in the comma-separated (legacy) \(name)() syntax")
                }
                comps.append((c, r))
            }
            guard comps.count == 3 || comps.count == 4 else {
                throw .invalid("\(name)() needs 3 components and an optional alpha, got \(comps.count) values")
            }
            return (Array(comps.prefix(3)), comps.count == 4 ? comps[3] : nil, true)
        }
        var channels: [(Component, Range<Int>)] = []
        var alpha: [(Component, Range<Int>)] = []
        var slashes = 0
        for item in items {
            switch item {
            case .slash: slashes += 1
            case .component(let c, let r):
                if slashes == 0 { channels.append((c, r)) } else { alpha.append((c, r)) }
            case .comma: break
            }
        }
        if slashes > 1 { throw .invalid("\(name)() has more than one '/'") }
        guard channels.count == 3 else {
            throw .invalid("\(name)() needs 3 components, got \(channels.count)")
        }
        if slashes == 1 {
            guard alpha.count == 1 else {
                throw .invalid(alpha.isEmpty ? "\(name)() has '/' but no alpha after it"
                                             : "\(name)() takes one alpha value after '/', got \(alpha.count)")
            }
            return (channels, alpha[0], false)
        }
        return (channels, nil, false)
    }

    /// Resolves one component for a slot. Returns the value (none → 0) and whether it was none.
    func value(_ comp: (Component, Range<Int>), _ slot: Slot, in name: String, position: String,
               allowNone: Bool, math: inout String?) throws(ColorParseError) -> (Double, Bool) {
        let (c, range) = comp
        let quoted = "'\(text(range))'"
        switch c {
        case .math(let fn):
            if math == nil { math = fn }
            return (0, false)
        case .ident(let w):
            if CSSTokenizer.asciiLowercased(w) == "none" {
                guard allowNone else {
                    throw .invalid("'none' is not allowed in the comma-separated (legacy) \(name)() syntax")
                }
                return (0, true)
            }
            throw .invalid("\(quoted) is not a valid \(position) in \(name)()")
        case .number(let v):
            switch slot {
            case .percentOnly:
                throw .invalid("\(position) in comma-separated \(name)() must be a percentage, got \(quoted)")
            case .rgbChannel:
                return (Swift.min(Swift.max(v, 0), 255) / 255, false)
            case .hue:
                return (Self.hueDegrees(v, unit: "deg"), false)
            case .scaled:
                return (try bounded(v, quoted, name, position), false)
            case .lightness(let scale):
                return (Swift.min(Swift.max(v, 0), scale), false)
            case .alpha:
                return (Swift.min(Swift.max(v, 0), 1), false)
            }
        case .percentage(let p):
            switch slot {
            case .rgbChannel:
                return (Swift.min(Swift.max(p, 0), 100) / 100, false)
            case .hue:
                throw .invalid("hue in \(name)() must be a number or an angle (deg, grad, rad, turn), got \(quoted)")
            case .scaled(let scale):
                return (try bounded(p / 100 * scale, quoted, name, position), false)
            case .lightness(let scale):
                return (Swift.min(Swift.max(p, 0), 100) / 100 * scale, false)
            case .percentOnly:
                return (try bounded(p, quoted, name, position), false)
            case .alpha:
                return (Swift.min(Swift.max(p, 0), 100) / 100, false)
            }
        case .dimension(let v, let unit):
            let u = CSSTokenizer.asciiLowercased(unit)
            if case .hue = slot, ["deg", "grad", "rad", "turn"].contains(u) {
                return (Self.hueDegrees(v, unit: u), false)
            }
            if case .hue = slot {
                throw .invalid("unknown angle unit in \(quoted); use deg, grad, rad or turn")
            }
            throw .invalid("\(quoted) is not a valid \(position) in \(name)(): units are not allowed here")
        }
    }

    func bounded(_ v: Double, _ quoted: String, _ name: String, _ position: String) throws(ColorParseError) -> Double {
        guard abs(v) <= CSSColorParser.maximumComponentMagnitude else {
            throw .invalid("\(position) \(quoted) in \(name)() is out of the supported range (magnitude above 1e6)")
        }
        return v
    }

    /// An angle in degrees wrapped into [0, 360) (CSS Values 4 §7.1 angle units).
    static func hueDegrees(_ v: Double, unit: String) -> Double {
        let period: Double
        let toDegrees: Double
        switch unit {
        case "grad": period = 400; toDegrees = 0.9
        case "rad": period = 2 * Double.pi; toDegrees = 180 / Double.pi
        case "turn": period = 1; toDegrees = 360
        default: period = 360; toDegrees = 1
        }
        // Reduce huge values first so the product cannot overflow.
        let reduced = abs(v) < 1e9 ? v : v.truncatingRemainder(dividingBy: period)
        return ColorSpaceTree.normalizedHue(reduced * toDegrees)
    }

    func channelFunction(_ name: String, _ items: [Item], math: inout String?) throws(ColorParseError) -> Color {
        let legacyCapable = ["rgb", "rgba", "hsl", "hsla"].contains(name)
        let (channels, alphaComp, legacy) = try layout(name, items, allowLegacy: legacyCapable)
        let space: ColorSpace
        let slots: [Slot]
        let positions: [String]
        switch name {
        case "rgb", "rgba":
            space = .srgb
            slots = [.rgbChannel, .rgbChannel, .rgbChannel]
            positions = ["red", "green", "blue"]
            if legacy {
                // Legacy rgb(): all numbers or all percentages (§5.1).
                var sawNumber = false, sawPercent = false
                for (c, _) in channels {
                    switch c {
                    case .number: sawNumber = true
                    case .percentage: sawPercent = true
                    default: break
                    }
                }
                if sawNumber && sawPercent {
                    throw .invalid("comma-separated \(name)() must use all numbers or all percentages, not a mix")
                }
            }
        case "hsl", "hsla":
            space = .hsl
            slots = legacy ? [.hue, .percentOnly, .percentOnly] : [.hue, .scaled(percentScale: 100), .scaled(percentScale: 100)]
            positions = ["hue", "saturation", "lightness"]
        case "hwb":
            space = .hwb
            slots = [.hue, .scaled(percentScale: 100), .scaled(percentScale: 100)]
            positions = ["hue", "whiteness", "blackness"]
        case "lab":
            space = .lab
            slots = [.lightness(percentScale: 100), .scaled(percentScale: 125), .scaled(percentScale: 125)]
            positions = ["lightness", "a", "b"]
        case "lch":
            space = .lch
            slots = [.lightness(percentScale: 100), .scaled(percentScale: 150), .hue]
            positions = ["lightness", "chroma", "hue"]
        case "oklab":
            space = .oklab
            slots = [.lightness(percentScale: 1), .scaled(percentScale: 0.4), .scaled(percentScale: 0.4)]
            positions = ["lightness", "a", "b"]
        default:  // oklch
            space = .oklch
            slots = [.lightness(percentScale: 1), .scaled(percentScale: 0.4), .hue]
            positions = ["lightness", "chroma", "hue"]
        }
        var coords = SIMD3<Double>(repeating: 0)
        var none = ComponentFlags(repeating: false)
        for i in 0..<3 {
            (coords[i], none[i]) = try value(channels[i], slots[i], in: name, position: positions[i],
                                             allowNone: !legacy, math: &math)
        }
        if space == .lch || space == .oklch {
            coords.y = Swift.max(coords.y, 0)  // negative chroma clamps to 0 (§9.3, §9.4)
        }
        if space == .hsl {
            coords.y = Swift.max(coords.y, 0)  // negative saturation clamps to 0% (§7.1; WPT hsl-clamp-negative-saturation)
        }
        let alpha = try alphaValue(alphaComp, name, allowNone: !legacy, math: &math)
        return Color(space: space, coordinates: coords, alpha: alpha, isNone: none)
    }

    func alphaValue(_ comp: (Component, Range<Int>)?, _ name: String, allowNone: Bool,
                    math: inout String?) throws(ColorParseError) -> Double {
        guard let comp else { return 1 }
        return try value(comp, .alpha, in: name, position: "alpha", allowNone: allowNone, math: &math).0
    }

    /// `color()` (§10.1): a predefined color space and three channels, 100% = 1.
    func colorFunction(_ items: [Item], math: inout String?) throws(ColorParseError) -> Color {
        guard case .component(.ident(let rawSpace), _)? = items.first else {
            throw .invalid("color() must start with a color space name such as srgb, display-p3 or xyz-d65")
        }
        let spaceName = CSSTokenizer.asciiLowercased(rawSpace)
        let space: ColorSpace
        var converter: ((SIMD3<Double>) -> SIMD3<Double>)? = nil
        switch spaceName {
        case "srgb": space = .srgb
        case "srgb-linear": space = .srgbLinear
        case "display-p3": space = .displayP3
        case "rec2020": space = .rec2020
        case "xyz", "xyz-d65": space = .xyzD65
        case "xyz-d50": space = .xyzD50
        case "a98-rgb": space = .xyzD65; converter = PredefinedRGB.a98RGBToXYZD65
        case "prophoto-rgb": space = .xyzD50; converter = PredefinedRGB.prophotoRGBToXYZD50
        default:
            throw .invalid("unknown color space '\(rawSpace.prefix(40))' in color(); expected srgb, srgb-linear, display-p3, a98-rgb, prophoto-rgb, rec2020, xyz, xyz-d50 or xyz-d65")
        }
        let (channels, alphaComp, _) = try layout("color", Array(items.dropFirst()), allowLegacy: false)
        var coords = SIMD3<Double>(repeating: 0)
        var none = ComponentFlags(repeating: false)
        let positions = spaceName.hasPrefix("xyz") ? ["X", "Y", "Z"] : ["red", "green", "blue"]
        for i in 0..<3 {
            (coords[i], none[i]) = try value(channels[i], .scaled(percentScale: 1), in: "color",
                                             position: positions[i], allowNone: true, math: &math)
        }
        let alpha = try alphaValue(alphaComp, "color", allowNone: true, math: &math)
        if let converter {
            coords = converter(coords)
            none = ComponentFlags(repeating: false)
        }
        return Color(space: space, coordinates: coords, alpha: alpha, isNone: none)
    }
}
