import Foundation

// MARK: - Color grammar (CSS Color 4 §4.1 <color>)

/// Parses a token list as one CSS `<color>` (CSS Color 4 §4.1, with the CSS Color 5 functions:
/// `color-mix()` §3, relative colors §4, `light-dark()` §5, `contrast-color()` §6).
final class ColorSyntax {
    let source: [Unicode.Scalar]
    let tokens: [CSSToken]
    let hexOrder: HexOrder
    /// The color scheme `light-dark()` picks its branch by.
    let colorScheme: CSSColorScheme
    /// Notes for the caller (which `light-dark()` branch was used, …), in the order they arose.
    var notes: [String] = []
    /// Whether a function left open at the end of the input has been noted.
    var unclosedNoted = false
    /// The note for the function `raw` left open at the end of the input (a color's or a
    /// gradient's), closed there as CSS does at the end of a value.
    static func unclosedNote(_ raw: String) -> String {
        "'\(raw.prefix(40))(' " + unclosedNoteEnding
    }
    /// How `unclosedNote` ends (`CSSGradient.isUnclosedNote`).
    static let unclosedNoteEnding = "has no closing ')': it is closed at the end of the value, as CSS does; in a stylesheet the rest of the declaration would be read inside it"
    /// Whether a `light-dark()` was met (its value depends on the color scheme).
    var dependsOnColorScheme = false
    /// Current nesting depth of color functions.
    var depth = 0
    /// Deepest nesting of color functions accepted (`color-mix()` in `oklch(from …)` in …).
    static let maximumDepth = 24

    /// `text` tokenized (CSS Syntax 3) for reading: at most `maximumLength` Unicode scalars,
    /// longer is refused naming `what` ("color text", "gradient text") before any tokenizing.
    static func tokenizing(_ text: String, what: String, maximumLength: Int, hexOrder: HexOrder,
                           colorScheme: CSSColorScheme) throws(ColorParseError) -> ColorSyntax {
        var scalars: [Unicode.Scalar] = []
        let utf8 = text.utf8
        if utf8.count <= maximumLength {
            // At most as many scalars as bytes: no length check, and ASCII text (all CSS a
            // client usually sends) is taken byte by byte instead of decoding UTF-8.
            scalars.reserveCapacity(utf8.count)
            for b in utf8 {
                guard b < 0x80 else { scalars = Array(text.unicodeScalars); break }
                scalars.append(Unicode.Scalar(b))
            }
        } else {
            scalars = Array(text.unicodeScalars.prefix(maximumLength + 1))
            if scalars.count > maximumLength {
                throw .invalid("\(what) is longer than \(maximumLength) characters")
            }
        }
        var tokenizer = CSSTokenizer(scalars)
        return ColorSyntax(source: scalars, tokens: tokenizer.tokenize(), hexOrder: hexOrder, colorScheme: colorScheme)
    }

    init(source: [Unicode.Scalar], tokens: [CSSToken], hexOrder: HexOrder, colorScheme: CSSColorScheme = .light) {
        self.source = source
        self.tokens = tokens
        self.hexOrder = hexOrder
        self.colorScheme = colorScheme
    }

    /// Functions that make any value valid at parse time and substitute later (CSS Values 5).
    static let substitutionFunctions: Set<String> = ["var", "env", "attr", "if", "inherit"]
    /// The color functions with channels (CSS Color 4 §5–§10), relative forms included.
    static let colorFunctions: Set<String> = [
        "rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color",
    ]
    /// CSS math functions (CSS Values 4 §10); those of `CSSMath.functions` are evaluated.
    static let mathFunctions: Set<String> = CSSMath.functions.union([
        "progress", "random", "sibling-index", "sibling-count",
    ])

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
                    if name == "var" {
                        throw .unsupported("var() refers to a custom property, and no variables were given to resolve it; define them or send the resolved color")
                    }
                    throw .unsupported("\(name)() is substituted from the document and is not supported; send the resolved color")
                }
            }
        }
        guard tokens.contains(where: { $0.kind != .whitespace }) else {
            throw .invalid("empty color; expected a CSS color such as '#336699', 'rebeccapurple' or 'oklch(0.6 0.15 250)'")
        }
        return try parse(tokens)
    }

    /// Exactly one color in `toks` (CSS whitespace around it allowed).
    func parse(_ toks: [CSSToken]) throws(ColorParseError) -> Color {
        var first = 0
        while first < toks.count, toks[first].kind == .whitespace { first += 1 }
        var last = toks.count
        while last > first, toks[last - 1].kind == .whitespace { last -= 1 }
        guard first < last else {
            throw .invalid("a color is missing")
        }
        let head = toks[first]
        switch head.kind {
        case .hash(let digits):
            return try color(try parseHex(digits), toks, thenEnd: first + 1, upTo: last)
        case .ident(let raw):
            var next = first + 1
            while next < last, toks[next].kind == .whitespace { next += 1 }
            if next < last, toks[next].kind == .openParen, next > first + 1,
               Self.colorFunctions.contains(CSSTokenizer.asciiLowercased(raw)) {
                throw .invalid("no space is allowed between '\(raw.prefix(40))' and '('")
            }
            return try color(try keyword(raw), toks, thenEnd: first + 1, upTo: last)
        case .function(let raw):
            let name = CSSTokenizer.asciiLowercased(raw)
            let k = Self.blockEnd(toks, from: first, upTo: last)
            // Input that ends inside the function closes it, as CSS does at the end of a value;
            // said once, since in a stylesheet the rest of the declaration would be read inside
            // it (a new user's pass: `rgb(255 255 255` was answered without a word).
            if k >= last, !unclosedNoted {
                unclosedNoted = true
                notes.append(Self.unclosedNote(raw))
            }
            let inner = Array(toks[(first + 1)..<Swift.min(k, last)])
            return try color(try nested { () throws(ColorParseError) -> Color in try function(name, inner, head) },
                             toks, thenEnd: k + 1, upTo: last)
        case .delim("#"):
            throw .invalid("'#' must be followed directly by 3, 4, 6 or 8 hex digits")
        case .number, .percentage, .dimension:
            if let wrapped = bareChannels(Array(toks[first..<last])) {
                throw .invalid("'\(text(head))' is a number, not a color: these look like a color's channels written without "
                               + "their function (as shadcn themes and Tailwind write them for var()); did you mean '\(wrapped)'?")
            }
            // Hex copied without '#' into a function (`oklch(from 3b82f6 l c h)`, `color-mix(…,
            // 000000 …)`): say to write it, as a gradient's stop does (a new user's pass). Three
            // or four decimal digits stay numbers (`100`).
            if let digits = CSSColorParser.bareHexDigits(text(head)), digits.contains(where: \.isLetter) || digits.utf8.count >= 6 {
                throw .invalid("'\(digits)' looks like a hex color without '#': write #\(digits)")
            }
            throw .invalid("'\(text(head))' is a number, not a color")
        default:
            throw .invalid("'\(text(head))' is not a CSS color")
        }
    }

    /// `hsl(…)` or `rgb(…)` around `toks` when they are three bare channels (optionally with
    /// `/ alpha`): hue, saturation %, lightness % (shadcn's `--primary: 0 0% 9%`), or three
    /// numbers (Tailwind's `255 255 255`); `nil` otherwise. Only for the error's suggestion: a
    /// bare triplet is never read as a color.
    func bareChannels(_ toks: [CSSToken]) -> String? {
        let parts = toks.filter { $0.kind != .whitespace }
        guard parts.count == 3 || (parts.count == 5 && parts[3].kind == .delim("/")),
              parts.allSatisfy({ text($0).count <= 16 }) else { return nil }
        func isNumber(_ t: CSSToken) -> Bool { if case .number = t.kind { return true }; return false }
        func isPercentage(_ t: CSSToken) -> Bool { if case .percentage = t.kind { return true }; return false }
        if parts.count == 5, !(isNumber(parts[4]) || isPercentage(parts[4])) { return nil }
        let channels = parts.prefix(3)
        let function: String
        if isNumber(channels[0]) && isPercentage(channels[1]) && isPercentage(channels[2]) {
            function = "hsl"
        } else if channels.allSatisfy(isNumber) {
            function = "rgb"
        } else {
            return nil
        }
        return function + "(" + parts.map(text).joined(separator: " ") + ")"
    }

    /// Index of the `)` closing the function or parenthesis at `start` (or `end` when input ends
    /// first, which closes it as CSS does).
    static func blockEnd(_ toks: [CSSToken], from start: Int, upTo end: Int) -> Int {
        var depth = 1
        var k = start + 1
        while k < end {
            switch toks[k].kind {
            case .function, .openParen: depth += 1
            case .closeParen: depth -= 1
            default: break
            }
            if depth == 0 { break }
            k += 1
        }
        return k
    }

    /// `body` one color-function level deeper; past `maximumDepth` a 400.
    func nested(_ body: () throws(ColorParseError) -> Color) throws(ColorParseError) -> Color {
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth {
            throw .invalid("colors are nested more than \(Self.maximumDepth) functions deep")
        }
        return try body()
    }

    /// The color of the head, when only whitespace follows it up to `end`. The head is judged
    /// first: `redd blue` is an unknown name, not "unexpected text after the color" (there is no
    /// color). Text after it still makes an unsupported head (`currentcolor x`) invalid.
    func color(_ head: @autoclosure () throws(ColorParseError) -> Color, _ toks: [CSSToken], thenEnd index: Int, upTo end: Int) throws(ColorParseError) -> Color {
        let color: Color
        do {
            color = try head()
        } catch {
            if case .unsupported = error, index < end { try expectEnd(toks, after: index, upTo: end) }
            throw error
        }
        if index < end { try expectEnd(toks, after: index, upTo: end) }
        return color
    }

    func expectEnd(_ toks: [CSSToken], after index: Int, upTo end: Int) throws(ColorParseError) {
        var k = index
        while k < end, toks[k].kind == .whitespace { k += 1 }
        if k < end {
            throw .invalid("unexpected text after the color: '\(text(toks[k].range.lowerBound..<toks[end - 1].range.upperBound))'")
        }
    }

    /// Splits `toks` at top-level commas (commas inside functions and parentheses stay).
    static func splitAtCommas(_ toks: [CSSToken]) -> [[CSSToken]] {
        var groups: [[CSSToken]] = [[]]
        var depth = 0
        for t in toks {
            switch t.kind {
            case .function, .openParen: depth += 1
            case .closeParen: depth -= 1
            case .comma where depth == 0:
                groups.append([])
                continue
            default: break
            }
            groups[groups.count - 1].append(t)
        }
        return groups
    }

    /// The top-level component values of `toks`: single tokens, or a function or parenthesis
    /// block with everything up to its `)`; whitespace dropped.
    static func componentValues(_ toks: [CSSToken]) -> [[CSSToken]] {
        var out: [[CSSToken]] = []
        var k = 0
        while k < toks.count {
            switch toks[k].kind {
            case .whitespace:
                k += 1
            case .function, .openParen:
                let end = blockEnd(toks, from: k, upTo: toks.count)
                out.append(Array(toks[k..<Swift.min(end + 1, toks.count)]))
                k = end + 1
            default:
                out.append([toks[k]])
                k += 1
            }
        }
        return out
    }

    /// Source text of a run of tokens, shortened for messages.
    func text(_ toks: [CSSToken]) -> String {
        guard let a = toks.first, let b = toks.last else { return "" }
        return text(a.range.lowerBound..<b.range.upperBound)
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

    // MARK: Functions (§5.1, §7, §8, §9, §10; CSS Color 5 §3–§6)

    /// One argument of a color function.
    enum Component {
        case number(Double)
        case percentage(Double)
        case dimension(Double, String)
        case ident(String)
        /// A math function with its tokens up to its `)` (CSS Values 4 §10).
        case math([CSSToken])
    }

    enum Item {
        case component(Component, Range<Int>)
        case comma
        case slash
    }

    /// What channel values may refer to and how they are clamped.
    struct ChannelEnvironment {
        /// Channel keywords of a relative color (lowercase → value), empty otherwise.
        var keywords: [String: Double] = [:]
        /// A relative color (CSS Color 5 §4): rgb() channels and HSL saturation are kept as
        /// computed (Chromium serializes them unclamped); lightness, chroma and alpha still clamp.
        var relative = false
        static let plain = ChannelEnvironment()
    }

    func function(_ name: String, _ inner: [CSSToken], _ head: CSSToken) throws(ColorParseError) -> Color {
        switch name {
        case _ where Self.colorFunctions.contains(name):
            break
        case "color-mix":
            return try colorMix(inner)
        case "light-dark":
            return try lightDark(inner)
        case "contrast-color":
            return try contrastColor(inner)
        case "device-cmyk":
            throw .invalid("device-cmyk() is not supported by browsers and is not a usable CSS color")
        default:
            if Self.mathFunctions.contains(name) {
                throw .invalid("\(name)() produces a number, not a color")
            }
            throw .invalid("unknown color function '\(name)()'")
        }
        if let from = inner.firstIndex(where: { $0.kind != .whitespace }),
           case .ident(let word) = inner[from].kind, CSSTokenizer.asciiLowercased(word) == "from" {
            return try relativeColor(name, Array(inner[(from + 1)...]))
        }
        let items = try self.items(of: name, inner)
        switch name {
        case "color":
            return try colorFunction(items, env: .plain)
        default:
            return try channelFunction(name, items, env: .plain)
        }
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
                let end = Self.blockEnd(inner, from: k, upTo: inner.count)
                let block = Array(inner[k..<Swift.min(end + 1, inner.count)])
                let range = t.range.lowerBound..<block[block.count - 1].range.upperBound
                guard CSSMath.functions.contains(fn) else {
                    if Self.mathFunctions.contains(fn) {
                        throw .unsupported("\(fn)() depends on the document and is not supported; send the computed value")
                    }
                    throw .invalid("unexpected function '\(fn)()' inside \(name)()")
                }
                items.append(.component(.math(block), range))
                k = end
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
               allowNone: Bool, env: ChannelEnvironment) throws(ColorParseError) -> (Double, Bool) {
        let (c, range) = comp
        let quoted = "'\(text(range))'"
        switch c {
        case .math(let toks):
            var math = CSSMath(tokens: toks, keywords: env.keywords, quote: { self.text($0) })
            let v = try math.evaluate()
            // A hue is wrapped, never clamped: `calc(1234567)` is 127°, not 1e6's 280° (a hostile
            // pass, stop 39: `hsl(calc(1e300) 50% 50%)` was #9540bf where browsers show #bf4040).
            // A hue has no largest value and 360° is 0°, so an infinite one is 0° as NaN is
            // (WPT css-color parsing: `hsl(calc(infinity) 100% 50%)` is rgb(255, 0, 0),
            // `hwb(calc(infinity) 20% 10%)` rgb(230, 51, 51)).
            if case .hue = slot, v.kind != .percentage {
                return (v.value.isFinite ? Self.hueDegrees(v.value, unit: "deg") : 0, false)
            }
            // Infinities clamp to the largest value a component may take (CSS Values 4 §10.9).
            let m = CSSColorParser.maximumComponentMagnitude
            // A component without a largest value (chroma, a/b, color() channels, a relative
            // rgb() channel) is refused past 1e6 as when written directly: `lch(50 calc(1e7) 30)`
            // had been measured as white and `calc(infinity)` as a chroma of 1e6 (a hostile
            // pass, stop 38). Components that clamp (rgb(), alpha, lightness) clamp as CSS does.
            if v.value.isInfinite || abs(v.value) > m, Self.isUnbounded(slot, kind: v.kind, relative: env.relative) {
                _ = try bounded(v.value.isInfinite ? .infinity : v.value, quoted, name, position)
            }
            let x = Swift.min(Swift.max(v.value, -m), m)
            switch v.kind {
            case .number: return try value((.number(x), range), slot, in: name, position: position, allowNone: allowNone, env: env)
            case .percentage: return try value((.percentage(x), range), slot, in: name, position: position, allowNone: allowNone, env: env)
            case .angle:
                guard case .hue = slot else {
                    throw .invalid("\(quoted) is an angle; the \(position) in \(name)() takes a number or a percentage")
                }
                return (Self.hueDegrees(x, unit: "deg"), false)
            }
        case .ident(let w):
            let word = CSSTokenizer.asciiLowercased(w)
            if word == "none" {
                guard allowNone else {
                    throw .invalid("'none' is not allowed in the comma-separated (legacy) \(name)() syntax")
                }
                return (0, true)
            }
            if let v = env.keywords[word] {
                return try value((.number(v), range), slot, in: name, position: position, allowNone: allowNone, env: env)
            }
            if !env.keywords.isEmpty {
                let known = env.keywords.keys.sorted().joined(separator: ", ")
                throw .invalid("\(quoted) is not a channel keyword of \(name)(from …); use \(known), a number or calc()")
            }
            throw .invalid("\(quoted) is not a valid \(position) in \(name)()")
        case .number(let v):
            switch slot {
            case .percentOnly:
                throw .invalid("\(position) in comma-separated \(name)() must be a percentage, got \(quoted)")
            case .rgbChannel:
                if env.relative { return (try bounded(v, quoted, name, position) / 255, false) }
                return (Swift.min(Swift.max(v, 0), 255) / 255, false)
            case .hue:
                return (Self.hueDegrees(v, unit: "deg"), false)
            case .scaled:
                return (try bounded(v, quoted, name, position), false)
            case .lightness(let scale):
                // OKLab/OKLCH lightness is 0–1 as a number: 55.6 is clamped to white, as CSS
                // does, and said, since it is most likely 55.6% (a new user's pass: `oklch(55.6 0 0)`
                // answered #ffffff without a word). Not in a relative color's arithmetic.
                if scale == 1, v > 1, v <= 100, !env.relative {
                    // The percentage is the likely meaning of 55.6, not of 1.2 (1.2% is nearly
                    // black: a new user's pass, stop 38).
                    notes.append(v >= 10
                        ? "\(name)() lightness \(quoted) is above 1 and was clamped to 1 (white), as CSS does; as a percentage write '\(text(range))%'"
                        : "\(name)() lightness \(quoted) is above 1 and was clamped to 1 (white), as CSS does; its lightness is a number from 0 to 1 (or a percentage)")
                }
                return (Swift.min(Swift.max(v, 0), scale), false)
            case .alpha:
                return (Swift.min(Swift.max(v, 0), 1), false)
            }
        case .percentage(let p):
            switch slot {
            case .rgbChannel:
                if env.relative { return (try bounded(p / 100 * 255, quoted, name, position) / 255, false) }
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

    /// Whether a slot takes a number or percentage of `kind` without clamping it (`bounded`
    /// refuses it past `CSSColorParser.maximumComponentMagnitude` instead).
    static func isUnbounded(_ slot: Slot, kind: CSSMathValue.Kind, relative: Bool) -> Bool {
        switch slot {
        case .scaled: return kind != .angle
        case .percentOnly: return kind == .percentage
        case .rgbChannel: return relative && kind != .angle
        case .hue, .lightness, .alpha: return false
        }
    }

    func bounded(_ v: Double, _ quoted: String, _ name: String, _ position: String) throws(ColorParseError) -> Double {
        guard abs(v) <= CSSColorParser.maximumComponentMagnitude else {
            throw .invalid("\(position) \(quoted) in \(name)() \(ColorParseError.outOfRangeReason)")
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

    func channelFunction(_ name: String, _ items: [Item], env: ChannelEnvironment) throws(ColorParseError) -> Color {
        let legacyCapable = !env.relative && ["rgb", "rgba", "hsl", "hsla"].contains(name)
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
                                             allowNone: !legacy, env: env)
        }
        if space == .lch || space == .oklch {
            coords.y = Swift.max(coords.y, 0)  // negative chroma clamps to 0 (§9.3, §9.4)
        }
        if space == .hsl && !env.relative {
            coords.y = Swift.max(coords.y, 0)  // negative saturation clamps to 0% (§7.1; WPT hsl-clamp-negative-saturation)
        }
        if space == .srgb && !env.relative { noteUnitChannels(name, channels) }
        let (alpha, alphaNone) = try alphaValue(alphaComp, name, allowNone: !legacy, env: env)
        none[3] = alphaNone
        return Color(space: space, coordinates: coords, alpha: alpha, isNone: none)
    }

    /// Notes `rgb()` channels that all lie in 0–1 with a fraction among them (`rgb(0.1 0.2 0.3)`):
    /// valid CSS, read on the 0–255 scale (CSS Color 4 §5.1) as nearly black, but most likely
    /// 0–1 channels as Figma's plugin API and UIKit write them (a plugin author's pass: answered
    /// #000000 without a word). `color(srgb …)` takes them as meant.
    func noteUnitChannels(_ name: String, _ channels: [(Component, Range<Int>)]) {
        var values: [Double] = []
        for (c, _) in channels {
            guard case .number(let v) = c, v >= 0, v <= 1 else { return }
            values.append(v)
        }
        guard values.contains(where: { $0 != $0.rounded() }) else { return }
        let list = channels.map { text($0.1) }.joined(separator: " ")
        notes.append("\(name)() channels run from 0 to 255, so \(name)(\(list)) is nearly black; for channels from 0 to 1 (Figma, UIKit) write color(srgb \(list))")
    }

    /// Alpha (1 when absent) and whether it was `none`.
    func alphaValue(_ comp: (Component, Range<Int>)?, _ name: String, allowNone: Bool,
                    env: ChannelEnvironment) throws(ColorParseError) -> (Double, Bool) {
        // A relative color without `/ alpha` keeps the origin's alpha (CSS Color 5 §4.1).
        guard let comp else { return (env.keywords["alpha"] ?? 1, false) }
        return try value(comp, .alpha, in: name, position: "alpha", allowNone: allowNone, env: env)
    }

    /// `color()` (§10.1): a predefined color space and three channels, 100% = 1.
    func colorFunction(_ items: [Item], env: ChannelEnvironment) throws(ColorParseError) -> Color {
        guard case .component(.ident(let rawSpace), _)? = items.first else {
            throw .invalid("color() must start with a color space name such as srgb, display-p3 or xyz-d65")
        }
        let space = try predefinedSpace(rawSpace)
        let (channels, alphaComp, _) = try layout("color", Array(items.dropFirst()), allowLegacy: false)
        var coords = SIMD3<Double>(repeating: 0)
        var none = ComponentFlags(repeating: false)
        let positions = space.rawValue.hasPrefix("xyz") ? ["X", "Y", "Z"] : ["red", "green", "blue"]
        for i in 0..<3 {
            (coords[i], none[i]) = try value(channels[i], .scaled(percentScale: 1), in: "color",
                                             position: positions[i], allowNone: true, env: env)
        }
        let (alpha, alphaNone) = try alphaValue(alphaComp, "color", allowNone: true, env: env)
        var color = space.color(coords, alpha: alpha, isNone: none)
        color.alphaIsNone = alphaNone
        return color
    }

    /// The predefined color space of `color()` (CSS Color 4 §10) named `raw`.
    func predefinedSpace(_ raw: String) throws(ColorParseError) -> InterpolationSpace {
        let name = CSSTokenizer.asciiLowercased(raw)
        guard let space = InterpolationSpace(rawValue: name), space.hueIndex == nil,
              space != .lab, space != .oklab else {
            throw .invalid("unknown color space '\(raw.prefix(40))' in color(); expected srgb, srgb-linear, display-p3, display-p3-linear, a98-rgb, prophoto-rgb, rec2020, xyz, xyz-d50 or xyz-d65")
        }
        return space
    }

    // MARK: Relative colors (CSS Color 5 §4)

    /// `rgb(from <color> r g b / alpha)` and the other functions' relative forms: the origin
    /// color converted to the function's space, its channels (and `alpha`) available as keywords
    /// (`r g b` as 0–255 in rgb(), `s l`/`w b` in percent numbers, `l a b`, `l c h`, `x y z`
    /// as the space's own numbers; a missing origin component is 0), then the channels as in the
    /// absolute form.
    func relativeColor(_ name: String, _ rest: [CSSToken]) throws(ColorParseError) -> Color {
        let values = Self.componentValues(rest)
        guard let originTokens = values.first else {
            throw .invalid("\(name)(from …) needs an origin color after 'from'")
        }
        if originTokens.count == 1, case .comma = originTokens[0].kind {
            throw .invalid("\(name)(from …) takes space-separated components, not commas")
        }
        let origin = try parse(originTokens)
        let afterOrigin = rest.firstIndex(where: { $0.range.lowerBound >= originTokens[originTokens.count - 1].range.upperBound }) ?? rest.count
        let items = try self.items(of: name, Array(rest[afterOrigin...]))
        if items.contains(where: { if case .comma = $0 { return true } else { return false } }) {
            throw .invalid("\(name)(from …) takes space-separated components, not commas")
        }
        let alpha = origin.alphaIsNone ? 0 : origin.alpha
        var env = ChannelEnvironment(relative: true)
        switch name {
        case "color":
            guard case .component(.ident(let rawSpace), _)? = items.first else {
                throw .invalid("color(from …) needs a color space name after the origin color, such as srgb or display-p3")
            }
            let space = try predefinedSpace(rawSpace)
            let c = space.coordinates(of: origin).0
            let names = space.rawValue.hasPrefix("xyz") ? ["x", "y", "z"] : ["r", "g", "b"]
            env.keywords = [names[0]: c.x, names[1]: c.y, names[2]: c.z, "alpha": alpha]
            return try colorFunction(items, env: env)
        default:
            let space: ColorSpace
            let names: [String]
            switch name {
            case "rgb", "rgba": (space, names) = (.srgb, ["r", "g", "b"])
            case "hsl", "hsla": (space, names) = (.hsl, ["h", "s", "l"])
            case "hwb": (space, names) = (.hwb, ["h", "w", "b"])
            case "lab": (space, names) = (.lab, ["l", "a", "b"])
            case "lch": (space, names) = (.lch, ["l", "c", "h"])
            case "oklab": (space, names) = (.oklab, ["l", "a", "b"])
            default: (space, names) = (.oklch, ["l", "c", "h"])
            }
            var c = origin.converted(to: space).coordinates
            if space == .srgb { c *= 255 }
            env.keywords = [names[0]: c.x, names[1]: c.y, names[2]: c.z, "alpha": alpha]
            return try channelFunction(name, items, env: env)
        }
    }
}
