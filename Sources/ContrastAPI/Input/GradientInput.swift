import AppleDesign
import ColorScience
import JSONValue

/// A CSS gradient from a request (a `background`, a layer, or a matrix gradient): the text as
/// sent, where it was, and what it parsed to.
struct GradientInput {
    var input: String
    var path: FieldPath
    var gradient: CSSGradient
    /// What was read differently from how it was written (`var()` substituted), for the answer.
    var notes: [String] = []

    /// Whether any stop is translucent (then something must lie behind the gradient).
    var isTranslucent: Bool { gradient.stops.contains { $0.color.alpha < 1 } }
}

/// Largest box side accepted, in CSS px (a 16K display is 15,360 px wide).
let maxGradientBoxSide = 16_384.0

/// Parses a gradient string (one that `CSSGradient.looksLikeGradient` accepted). `box`, when
/// the request gives one, places px stop positions; `boxHint` says how to give one when a px
/// position is refused for want of it.
///
/// - Throws: 400 `invalid-color` naming `path` with the parser's reason (not a gradient, a bad
///   stop, more than `CSSGradient.maximumStops` stops, longer than `CSSGradient.maximumLength`
///   characters); 422 `unsupported-color` for valid CSS this service cannot evaluate.
func resolveGradient(_ text: String, at path: FieldPath, hexOrder: HexOrder, box: CSSGradient.Box? = nil,
                     boxHint: @autoclosure () -> String = "") throws(Problem) -> GradientInput {
    if text.utf8.count > CSSGradient.maximumLength {
        throw Problem.invalidColor(path, "\(path.display) is longer than \(CSSGradient.maximumLength) bytes (a gradient takes at most \(CSSGradient.maximumStops) color stops)")
    }
    // `var()` is filled from the request's `variables`, as in a color member (Tailwind v4
    // writes `linear-gradient(var(--tw-gradient-stops))`); the expansion is bounded by
    // CSSVariables and the result by the gradient's own length limit. Without `variables` a
    // `var()` takes its fallback, as in a color member (`linear-gradient(var(--a, #000), #333)`
    // had been refused as "unknown color function 'var()'").
    var source = text
    var notes: [String] = []
    let mayReferToVariables = CSSVariables.mayReferToVariables(text)
    // With variables, the reading is bounded (`CSSRequestScope.maxReadingNanoseconds`).
    let reading = mayReferToVariables ? try CSSRequestScope.beginReading(at: path) : nil
    defer { CSSRequestScope.endReading(reading) }
    if mayReferToVariables {
        let variables = CSSRequestScope.variables ?? CSSVariables([:])
        try CSSRequestScope.checkInlineTime()
        do throws(ColorParseError) { source = try variables.substitute(in: text) } catch {
            throw gradientProblem(error, text, at: path, box: box, boxHint: boxHint())
        }
        let shown = source.count > 120 ? String(source.prefix(117)) + "..." : source
        notes.append("var(): the gradient is '\(shown)' with the variables substituted")
        if source.utf8.count > CSSGradient.maximumLength {
            throw gradientProblem(.invalid("with its variables substituted it is longer than \(CSSGradient.maximumLength) bytes"),
                                  text, at: path, box: box, boxHint: boxHint())
        }
    }
    // Apple system color names become the colors they resolve to in the request's context, as
    // a color member resolves them (a new user wrote `linear-gradient(systemBlue, systemPink)`).
    if let (substituted, resolved) = try substitutingSystemColors(in: source, at: path) {
        source = substituted
        notes.append("Apple system colors in the gradient resolved in the request's context: "
            + resolved.map { "\($0.name) → \($0.hex)" }.joined(separator: ", "))
    }
    // `light-dark()` in a stop follows the request's appearance, as in a color member.
    let scheme: CSSColorScheme = AppleRequestScope.context.appearance == .dark ? .dark : .light
    do throws(ColorParseError) {
        let g = try CSSGradient.parse(source, hexOrder: hexOrder, colorScheme: scheme, box: box, notes: &notes)
        // CSS closes what is left open at the end of a value (CSS Syntax 3 §5.4.9), and so does
        // the parser; the text echoed into the fixes' `css` is closed too, so that a declaration
        // pasted after it is not swallowed (a new user's pass: `linear-gradient(#6366f1, #ec4899`).
        // Counted on the text echoed (before var() is filled), by the CSS tokenizer.
        let depth = CSSGradient.unclosedParentheses(in: text)
        var input = text
        if depth > 0 {
            input += String(repeating: ")", count: depth)
            // One note rather than the parser's beside this one (a final review: two notes said it).
            notes.removeAll(where: CSSGradient.isUnclosedNote)
            notes.append("the gradient had \(depth) unclosed parenthes\(depth == 1 ? "is" : "es"), closed at its end as CSS closes them: '\(input.count > 120 ? String(input.prefix(117)) + "..." : input)'; in a stylesheet the rest of the declaration would be read inside it")
        }
        return GradientInput(input: input, path: path, gradient: g, notes: notes)
    } catch {
        // The text as parsed (variables substituted), so that a hex without '#' that came from
        // a variable is named as when written in place (a new user's pass, stop 38: "a color
        // hint '6366f1' must sit between two color stops").
        throw gradientProblem(error, source, at: path, box: box, boxHint: boxHint())
    }
}

/// The 400 (or 422 for valid CSS this service cannot evaluate) for a gradient `text` at `path`
/// that did not parse: the parser's reason, a stray invisible character, how to give a box, how
/// `var()` is filled, a hex without `#`.
private func gradientProblem(_ error: ColorParseError, _ text: String, at path: FieldPath, box: CSSGradient.Box?,
                             boxHint: @autoclosure () -> String) -> Problem {
    let varHint = CSSRequestScope.variables == nil && CSSVariables.mayReferToVariables(text)
        ? "; var() is filled from the request's 'variables' member, e.g. {\"--brand\": \"#0066cc\"}" : ""
    switch error {
    case .invalid(let why):
        let needsBox = box == nil && why.contains(CSSGradient.boxNeeded) ? boxHint() : ""
        // A character that looks like whitespace or cannot be seen is named, as in a color
        // (hostile pass: a NUL was echoed as "unexpected text after the gradient: ' '").
        let stray = CSSStrayCharacters.find(in: text).map {
            "; the text holds \($0.firstLocated)\($0.others), which CSS does not read as whitespace or as part of a gradient"
        } ?? ""
        // A comma after the gradient: a pasted CSS background list (a scrim fix's `css` is one).
        let isBackground = path.pointer.map { $0 == "/background" || $0.hasPrefix("/layers") } ?? (path.parameter == "background")
        let afterComma = why.hasPrefix("unexpected text after the gradient: ',")
        let list = !afterComma ? ""
            : isBackground ? "; a comma after a gradient starts another background (CSS lists stacked backgrounds top first): "
              + "give the bottom one as 'background' and each one above it in 'layers', bottom to top"
            : "; a comma after a gradient starts another background (CSS lists stacked backgrounds top first): give one gradient here"
        // A hex color without '#' leads: it is the cause, whatever the parser then made of it
        // (a new user's pass: '6366f1' was first called a misplaced color hint).
        let hex = bareHexHint(text)
        if !hex.isEmpty {
            return Problem.invalidColor(path, "\(path.display) is not a valid CSS gradient: \(hex.dropFirst(2)) (read as CSS: \(why))\(stray)\(needsBox)\(varHint)")
        }
        return Problem.invalidColor(path, "\(path.display) is not a valid CSS gradient: \(why)\(stray)\(list)\(needsBox)\(varHint)")
    case .unsupported(let why):
        return Problem.unsupportedColor(path, "\(path.display) is not supported: \(why)\(varHint)")
    }
}

/// `; '6366f1' looks like …` for the first word of `text` that is hex without `#` (3, 4, 6 or 8
/// hex digits with a letter among them, or 6 or 8 digits): inside a gradient every color is CSS,
/// where `6366f1` reads as the number 6366 with the unit `f1`. Only words standing as stops are
/// looked at (directly inside the gradient's parentheses), and not short ones CSS reads as
/// numbers: `color(display-p3 1e9 …)` had been told that `1e9` looked like hex (a hostile pass).
/// Empty when there is none.
func bareHexHint(_ text: String) -> String {
    let separators: Set<Character> = [" ", ",", "/", "\t", "\n"]
    var depth = 0, word = ""
    func hint() -> String? {
        defer { word = "" }
        guard depth == 1, let w = CSSColorParser.bareHexDigits(word), w.contains(where: \.isLetter) || w.count >= 6,
              w.count >= 6 || Double(w) == nil else { return nil }
        return "; '\(w)' looks like a hex color without '#': inside a gradient write #\(w)"
    }
    for c in text + " " {
        if c == "(" || c == ")" || separators.contains(c) {
            if let h = hint() { return h }
            if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
        } else {
            word.append(c)
        }
    }
    return ""
}

extension Fields {
    /// `box`: the size of the element the gradient fills, in CSS px: `{"width", "height"}` in a
    /// body, `width,height` in a query (or a body string); each `1...16384`.
    func gradientBox() throws(Problem) -> CSSGradient.Box? {
        guard let v = value("box") else { return nil }
        let path = field("box")
        var isObject = false
        let (w, h): (Double, Double)
        switch v {
        case .object(let o):
            isObject = true
            let bf = Fields(object: o, path: path, fromQuery: fromQuery)
            try bf.rejectUnknown(["width", "height"])
            w = try bf.number("width", in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude, required: true)!
            h = try bf.number("height", in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude, required: true)!
        case .string(let s):
            let parts = Fields.numberList(s)
            guard let parts, parts.count == 2 else {
                throw Problem.invalidField(path, "\(path.display) must be \"width,height\" in px (e.g. \"320,48\") or {\"width\", \"height\"}, got \(ClientText.quoted(s))")
            }
            (w, h) = (parts[0], parts[1])
        default:
            throw Problem.invalidField(path, "\(path.display) must be {\"width\", \"height\"} in px, not \(v.typeName)")
        }
        for (name, d) in [("width", w), ("height", h)] where !(d >= 1 && d <= maxGradientBoxSide) {
            // A query's `box=w,h` is one parameter: the problem names it, and the part in words
            // (hostile pass: it had named a parameter "box.width" that does not exist).
            let at = isObject ? path.appending(name) : path
            // "the width in query parameter 'box'", not "'box''s width" (a hostile pass).
            let what = isObject ? at.display : "the \(name) in \(at.display)"
            throw Problem.invalidField(at, "\(what) must be between 1 and \(Fields.format(maxGradientBoxSide)) px, got \(Fields.format(d))")
        }
        return CSSGradient.Box(width: w, height: h)
    }

    /// `region`: the rectangle of `box` under the text, in CSS px from the box's top-left corner:
    /// `{"x", "y", "width", "height"}` in a body, `x,y,width,height` in a query. It must lie in
    /// the box and have a positive size; it needs a `box`.
    func gradientRegion(box: CSSGradient.Box?) throws(Problem) -> CSSGradient.Region? {
        guard let v = value("region") else { return nil }
        let path = field("region")
        guard let box else {
            throw Problem.invalidField(path, "\(path.display) needs \(field("box").display): a region is a part of the box the gradient fills")
        }
        var r: [Double]
        var isObject = false
        switch v {
        case .object(let o):
            isObject = true
            let rf = Fields(object: o, path: path, fromQuery: fromQuery)
            try rf.rejectUnknown(["x", "y", "width", "height"])
            r = []
            for name in ["x", "y", "width", "height"] {
                r.append(try rf.number(name, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude, required: true)!)
            }
        case .string(let s):
            guard let parts = Fields.numberList(s), parts.count == 4 else {
                throw Problem.invalidField(path, "\(path.display) must be \"x,y,width,height\" in px (e.g. \"16,8,200,24\") or {\"x\", \"y\", \"width\", \"height\"}, got \(ClientText.quoted(s))")
            }
            r = parts
        default:
            throw Problem.invalidField(path, "\(path.display) must be {\"x\", \"y\", \"width\", \"height\"} in px, not \(v.typeName)")
        }
        let names = ["x", "y", "width", "height"]
        // At least 1/64 px, the smallest length Chromium lays out (a LayoutUnit): a hostile pass's
        // 1e-9 × 1e-300 px region was measured as if text could sit there.
        for k in 2...3 where !(r[k] >= 1.0 / 64) {
            let at = isObject ? path.appending(names[k]) : path
            let what = isObject ? at.display : "the \(names[k]) in \(at.display)"
            throw Problem.invalidField(at, "\(what) must be at least 1/64 px (0.015625), the smallest length a browser lays out, got \(Fields.format(r[k]))")
        }
        if r[0] < 0 || r[1] < 0 || r[0] + r[2] > box.width || r[1] + r[3] > box.height {
            throw Problem.invalidField(path, "\(path.display) (\(Fields.format(r[0])), \(Fields.format(r[1])), \(Fields.format(r[2])) × \(Fields.format(r[3]))) lies outside \(field("box").display) (\(Fields.format(box.width)) × \(Fields.format(box.height)) px): x + width must be at most the box's width, y + height at most its height, x and y at least 0")
        }
        return CSSGradient.Region(x: r[0], y: r[1], width: r[2], height: r[3])
    }

    /// Comma-separated finite decimal numbers (`"16, 8,200,24"`); nil when one is not a number.
    static func numberList(_ s: String) -> [Double]? {
        guard s.utf8.count <= 128 else { return nil }
        var out: [Double] = []
        for part in s.split(separator: ",", omittingEmptySubsequences: false) {
            guard let d = Fields.decimal(part.trimmingWhitespace()), d.isFinite else { return nil }
            out.append(d)
        }
        return out
    }
}

/// `text` with each Apple system color name written as a bare identifier (`systemBlue`,
/// `UIColor.systemBlue`, `label`; not a function name, not after `--` or `#`) replaced by the
/// color it resolves to in the request's context (`AppleRequestScope.context`, as
/// `resolveColor`), written as a 6-digit hex when that is exact and otherwise as `rgb(r, g, b, a)`
/// unrounded, and the names with their hex in
/// order of appearance (each once); nil when there is none. At most
/// `CSSGradient.maximumLength` bytes are scanned (the caller has checked the length).
func substitutingSystemColors(in text: String, at path: FieldPath) throws(Problem) -> (String, [(name: String, hex: String)])? {
    let bytes = Array(text.utf8)
    func isNameByte(_ b: UInt8) -> Bool {
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: ".")
            || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b >= 0x80
    }
    var out: [UInt8] = []
    var resolved: [(name: String, hex: String)] = []
    var i = 0, copied = 0
    while i < bytes.count {
        guard isNameByte(bytes[i]) else { i += 1; continue }
        var j = i
        while j < bytes.count && isNameByte(bytes[j]) { j += 1 }
        let before = i > 0 ? bytes[i - 1] : 0
        // A candidate starts with a letter, is not a function name, a hex color's digits, a
        // custom property or a number's unit (`10px`: the letter follows a digit).
        let startsWithLetter = (bytes[i] | 0x20) >= UInt8(ascii: "a") && (bytes[i] | 0x20) <= UInt8(ascii: "z")
        let isFunction = j < bytes.count && bytes[j] == UInt8(ascii: "(")
        if startsWithLetter, !isFunction, before != UInt8(ascii: "#"), j - i <= maxSystemColorNameLength {
            let word = String(decoding: bytes[i..<j], as: UTF8.self)
            if let system = try resolveSystemColor(word, at: path, context: AppleRequestScope.context) {
                let hex = ColorJSON.hex(system.display.srgb, alpha: system.display.alpha)
                // In legacy syntax, so that the default interpolation stays sRGB as with a hex stop
                // (a modern form would make it oklab, CSS Color 4 §12.1), and as short as exact (the
                // expanded text counts against the gradient's length limit: `label` had become 23
                // bytes): the 6-digit hex of an opaque 8-bit color (read alike in either
                // `hexOrder`), else `rgb()` with the channels unrounded (an 8-digit hex would be
                // read by `hexOrder`).
                let c = system.display.srgb * 255, a = system.display.alpha
                out += bytes[copied..<i]
                if a >= 1 && (0..<3).allSatisfy({ c[$0] == c[$0].rounded() }) {
                    out += Array(hex.utf8)
                } else {
                    func n(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e6 ? String(Int(v)) : "\(v)" }
                    out += Array("rgb(\(n(c.x)), \(n(c.y)), \(n(c.z)), \(n(a)))".utf8)
                }
                copied = j
                if !resolved.contains(where: { $0.name == word }) { resolved.append((word, hex)) }
            }
        }
        i = j
    }
    guard !resolved.isEmpty else { return nil }
    out += bytes[copied...]
    return (String(decoding: out, as: UTF8.self), resolved)
}
