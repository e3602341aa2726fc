import Foundation

// CSS gradients (CSS Images 3 §3 and CSS Images 4 §3): `linear-gradient()`, `radial-gradient()`,
// `conic-gradient()` and their `repeating-` forms, with color stops (one or two positions),
// color hints (§3.5.3 "color transition hint") and the color interpolation method
// (`in <space> [<hue-method> hue]`, CSS Color 4 §12.1). Stop colors are read by `ColorSyntax`.
//
// Default interpolation space (CSS Color 4 §12.1 and CSS Images 4 §3.1, as Chromium implements
// it): oklab, except when every stop color is a legacy sRGB color (hex, named colors,
// `transparent`, `rgb()`/`rgba()`, `hsl()`/`hsla()`, `hwb()`), which interpolate in sRGB as
// they always have. Interpolation is premultiplied (CSS Color 4 §12.3), as Chromium does.

/// A parsed CSS gradient: its geometry, its color stops after fixup, and how colors between
/// stops are interpolated.
public struct CSSGradient: Sendable, Equatable {
    /// Most color stops (a double-position stop counts twice) accepted in one gradient.
    public static let maximumStops = 64
    /// Longest gradient text accepted, in Unicode scalars.
    public static let maximumLength = 4096

    /// The gradient's shape.
    public enum Geometry: Sendable, Equatable {
        /// `linear-gradient()` with an angle in degrees, clockwise from "to top" (0 = to top,
        /// 90 = to right; CSS Images 3 §3.1.1); any finite value below 1e9 in magnitude.
        case linear(angle: Double)
        /// `linear-gradient(to <corner>)`: the angle depends on the box's aspect ratio
        /// (§3.1.1, "magic corners"); x = +1 right / −1 left, y = +1 bottom / −1 top.
        case linearToCorner(x: Double, y: Double)
        /// `radial-gradient()`: circle or ellipse, its size, its center.
        case radial(circle: Bool, size: RadialSize, center: Position)
        /// `conic-gradient()`: the start angle in degrees and the center.
        case conic(from: Double, center: Position)
    }

    /// The size of a radial gradient's ending shape (CSS Images 3 §3.2.2).
    public enum RadialSize: Sendable, Equatable {
        /// The ending shape touches the side (or, for an ellipse, the sides in each axis)
        /// closest to / farthest from the center, or passes through the closest / farthest
        /// corner (an ellipse keeping the aspect ratio of the matching side size). The default
        /// is `farthestCorner`.
        case closestSide, farthestSide, closestCorner, farthestCorner
        /// Explicit radii; each a length in px or a fraction of the box's width (x) / height (y).
        case explicit(x: Length, y: Length)
    }

    /// A length in px or a fraction (`50%` = 0.5) of a reference size.
    public enum Length: Sendable, Equatable {
        /// CSS px, below 1e7 in magnitude.
        case px(Double)
        /// A percentage as a fraction (`50%` = 0.5) of the reference size.
        case fraction(Double)
        func resolve(_ reference: Double) -> Double {
            switch self {
            case .px(let v): return v
            case .fraction(let f): return f * reference
            }
        }
    }

    /// A `<position>` (CSS Values 4 §8.3): x from the left, y from the top.
    public struct Position: Sendable, Equatable {
        /// From the box's left edge (a fraction of its width).
        public var x: Length
        /// From the box's top edge (a fraction of its height).
        public var y: Length
        public static let center = Position(x: .fraction(0.5), y: .fraction(0.5))
    }

    /// A color stop after fixup (CSS Images 4 §3.5.3): its color and position on the gradient
    /// line (a fraction of the gradient line or of a turn for conic gradients), and the hint
    /// between it and the next stop (a fraction `0...1` of that interval; 0.5 = none).
    public struct Stop: Sendable, Equatable {
        /// The stop color as parsed (any space, straight alpha `0...1`).
        public var color: Color
        /// Fraction of the gradient line (linear), of the ray to the ending shape (radial) or of
        /// a turn (conic); may lie outside `0...1` (percentages up to ±1e6%, conic angles up to
        /// ±1e8 degrees), never below an earlier stop's.
        public var position: Double
        /// Where the hint lies between this stop and the next, as a fraction `0...1` of the
        /// interval (0.5: no hint, linear).
        public var hint: Double = 0.5
    }

    /// Shape and direction.
    public var geometry: Geometry
    /// Whether this is a `repeating-` gradient (CSS Images 3 §3.4): the stops' span repeats.
    public var repeating: Bool
    /// Stops after fixup: positions non-decreasing, at least two.
    public var stops: [Stop]
    /// The interpolation space (CSS Color 4 §12.1), given or the default.
    public var space: InterpolationSpace
    /// The hue interpolation method (CSS Color 4 §12.4; `shorter` unless given), for polar spaces.
    public var hue: HueInterpolationMethod
    /// Whether the interpolation method was given (else the default for the stops given).
    public var explicitMethod: Bool

    /// The CSS function name, e.g. `"repeating-linear-gradient"`.
    public var functionName: String {
        let base: String
        switch geometry {
        case .linear, .linearToCorner: base = "linear-gradient"
        case .radial: base = "radial-gradient"
        case .conic: base = "conic-gradient"
        }
        return repeating ? "repeating-" + base : base
    }

    /// Whether `text` starts with a gradient function name and `(` (after CSS whitespace), in any
    /// ASCII case: it is then read as a gradient or refused as one, never as a color. Reads the
    /// leading whitespace and at most 26 bytes after it, in place (it runs on every
    /// `/v1/contrast`).
    public static func looksLikeGradient(_ text: String) -> Bool {
        if let answer = text.utf8.withContiguousStorageIfAvailable({ startsWithGradientName($0) }) { return answer }
        return Array(text.utf8.prefix(64)).withUnsafeBufferPointer { startsWithGradientName($0) }
    }

    /// Whether `bytes` start, after CSS whitespace, with `[repeating-](linear|radial|conic)-gradient(`
    /// in any ASCII case.
    static func startsWithGradientName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < bytes.count, bytes[i] == 0x20 || (bytes[i] >= 0x09 && bytes[i] <= 0x0D && bytes[i] != 0x0B) { i += 1 }
        // Whether the next bytes are `word` (lower case ASCII), in any ASCII case; past them if so.
        func take(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard bytes.count - i >= n else { return false }
            let w = word.utf8Start
            for k in 0..<n {
                let b = bytes[i + k]
                if ((b >= 0x41 && b <= 0x5A) ? b | 0x20 : b) != w[k] { return false }
            }
            i += n
            return true
        }
        _ = take("repeating-")
        return (take("linear-") || take("radial-") || take("conic-")) && take("gradient(")
    }

    /// The words of the refusal of a px position without a box, by which a caller that can take
    /// a box recognizes it (to say how to give one).
    public static let boxNeeded = "give the box"

    /// Parses a CSS gradient.
    ///
    /// - Parameters:
    ///   - text: e.g. `"linear-gradient(in oklch longer hue to right, #f00, 30%, #00f 40% 60%)"`;
    ///     at most `maximumLength` scalars, at most `maximumStops` stops.
    ///   - hexOrder: digit order of 4- and 8-digit hex stop colors.
    ///   - colorScheme: the branch of `light-dark()` in stop colors.
    ///   - box: the element the gradient fills, which places stop positions and hints given in
    ///     px along the gradient line (linear: its length, CSS Images 3 §3.1.1; radial: the
    ///     ray to the ending shape, whose length is its horizontal radius, §3.2.1); nil when
    ///     none is known, and then a px position is refused.
    /// - Throws: `ColorParseError.invalid` with the reason for anything that is not a gradient
    ///   this parser reads (stop positions must be percentages, `0`, px with a `box` for linear
    ///   and radial gradients, or for conic gradients angles; a px position placing a stop
    ///   beyond ±1000000% of the line).
    public static func parse(_ text: String, hexOrder: HexOrder = .rgba,
                             colorScheme: CSSColorScheme = .light, box: Box? = nil) throws(ColorParseError) -> CSSGradient {
        var notes: [String] = []
        return try parse(text, hexOrder: hexOrder, colorScheme: colorScheme, box: box, notes: &notes)
    }

    /// How many parentheses (functions and `(` blocks) `text` leaves open at its end, which CSS
    /// closes there (CSS Syntax 3 §5.4.9): read by the tokenizer, so parentheses in comments,
    /// strings and escapes do not count. The caller bounds `text`'s length (as `parse` does).
    public static func unclosedParentheses(in text: String) -> Int {
        var tokenizer = CSSTokenizer(Array(text.unicodeScalars))
        var depth = 0
        for token in tokenizer.tokenize() {
            switch token.kind {
            case .function, .openParen: depth += 1
            case .closeParen: depth = Swift.max(0, depth - 1)
            default: break
            }
        }
        return depth
    }

    /// Whether `note` is one `parse` adds for a function (the gradient, or a color in it) left
    /// open at the end of the text; a caller that echoes the text closed (`unclosedParentheses`)
    /// says so in one note of its own instead.
    public static func isUnclosedNote(_ note: String) -> Bool { note.hasSuffix(ColorSyntax.unclosedNoteEnding) }

    /// `parse`, adding to `notes` what was read that a client may not have meant (a function
    /// left open at the end of the text, closed there as CSS does).
    public static func parse(_ text: String, hexOrder: HexOrder = .rgba, colorScheme: CSSColorScheme = .light,
                             box: Box? = nil, notes: inout [String]) throws(ColorParseError) -> CSSGradient {
        let syntax = try ColorSyntax.tokenizing(text, what: "gradient text", maximumLength: maximumLength,
                                                hexOrder: hexOrder, colorScheme: colorScheme)
        let tokens = syntax.tokens
        var k = 0
        while k < tokens.count, tokens[k].kind == .whitespace { k += 1 }
        guard k < tokens.count, case .function(let raw) = tokens[k].kind else {
            throw .invalid("not a gradient: expected linear-gradient(), radial-gradient() or conic-gradient()")
        }
        let name = CSSTokenizer.asciiLowercased(raw)
        let end = ColorSyntax.blockEnd(tokens, from: k, upTo: tokens.count)
        if end >= tokens.count {
            notes.append(ColorSyntax.unclosedNote(raw))
        }
        var after = end + 1
        while after < tokens.count, tokens[after].kind == .whitespace { after += 1 }
        if after < tokens.count {
            throw .invalid("unexpected text after the gradient: '\(syntax.text(tokens[after].range.lowerBound..<tokens[tokens.count - 1].range.upperBound))'")
        }
        // `blockEnd` is the index of the closing parenthesis (the end when it is missing).
        let body = Array(tokens[(k + 1)..<Swift.min(end, tokens.count)])
        var repeating = false
        var base = name
        if base.hasPrefix("repeating-") { repeating = true; base.removeFirst("repeating-".count) }
        var groups = ColorSyntax.splitAtCommas(body)
        // The optional first argument: geometry and/or interpolation method.
        var space: InterpolationSpace? = nil
        var hue = HueInterpolationMethod.shorter
        var geometry: Geometry
        switch base {
        case "linear-gradient": geometry = .linear(angle: 180)
        case "radial-gradient": geometry = .radial(circle: false, size: .farthestCorner, center: .center)
        case "conic-gradient": geometry = .conic(from: 0, center: .center)
        default: throw .invalid("'\(raw.prefix(40))()' is not a gradient function")
        }
        let firstValues = ColorSyntax.componentValues(groups.first ?? [])
        if try isPrelude(firstValues, base: base, syntax: syntax) {
            var values = firstValues
            // `in <space> [<hue> hue]` may come first or last in the prelude.
            if let inIndex = values.firstIndex(where: { v in
                if v.count == 1, case .ident(let w) = v[0].kind { return CSSTokenizer.asciiLowercased(w) == "in" }
                return false
            }) {
                // The space, then optionally `<hue-method> hue`.
                var methodEnd = Swift.min(inIndex + 2, values.count)
                if inIndex + 3 < values.count, values[inIndex + 3].count == 1,
                   case .ident(let w) = values[inIndex + 3][0].kind, CSSTokenizer.asciiLowercased(w) == "hue" {
                    methodEnd = inIndex + 4
                }
                // `in oklch longer` without `hue`: the method lacks its last word (a new user's and a
                // hostile pass: the hue word was left to the geometry and refused as a direction).
                if methodEnd == inIndex + 2, inIndex + 2 < values.count, values[inIndex + 2].count == 1,
                   case .ident(let w) = values[inIndex + 2][0].kind,
                   ["shorter", "longer", "increasing", "decreasing"].contains(CSSTokenizer.asciiLowercased(w)) {
                    let method = syntax.text(values[inIndex...(inIndex + 2)].flatMap { $0 })
                    throw .invalid("\(name)() interpolation method '\(method)' lacks the word 'hue': write '\(method) hue'")
                }
                let methodValues = Array(values[(inIndex + 1)..<methodEnd])
                do {
                    let (s, h) = try syntax.interpolationMethod(methodValues)
                    (space, hue) = (s, h)
                } catch {
                    throw .invalid(error.message.replacingOccurrences(of: "color-mix()", with: "\(name)()"))
                }
                values.removeSubrange(inIndex..<methodEnd)
            }
            geometry = try parseGeometry(values, base: base, syntax: syntax, default: geometry)
            groups.removeFirst()
        }
        // The length in px of the line (or ray) stop positions are measured along, when known.
        let shape = CSSGradient(geometry: geometry, repeating: repeating, stops: [], space: .srgb, hue: hue, explicitMethod: false)
        let lineLength = box.flatMap { shape.lineLength(in: $0) }
        let stops = try parseStops(groups, conic: base == "conic-gradient", syntax: syntax, name: name, lineLength: lineLength)
        let legacy = stops.legacyOnly
        // What reading the stops' colors noted (which color of a `light-dark()` the color scheme
        // took, CSS Color 5 §5), as a lone color's parse notes it (a new user's pass: a stop's
        // `light-dark()` in dark appearance was read right and said nothing).
        for note in syntax.notes where !notes.contains(note) { notes.append(note) }
        return CSSGradient(geometry: geometry, repeating: repeating, stops: stops.stops,
                           space: space ?? (legacy ? .srgb : .oklab), hue: hue, explicitMethod: space != nil)
    }

    /// Whether the first comma group is the prelude (geometry or interpolation method) rather
    /// than a color stop.
    static func isPrelude(_ values: [[CSSToken]], base: String, syntax: ColorSyntax) throws(ColorParseError) -> Bool {
        guard let first = values.first, let t = first.first else { return false }
        switch t.kind {
        case .ident(let w):
            let word = CSSTokenizer.asciiLowercased(w)
            return preludeWords.contains(word)
        case .dimension(_, let unit):
            let u = CSSTokenizer.asciiLowercased(unit)
            return ["deg", "grad", "rad", "turn", "px"].contains(u)
        case .number(let v):
            return v == 0 && values.count == 1 && base != "conic-gradient"
        case .percentage:
            return base == "radial-gradient"
        case .function(let name) where base == "linear-gradient" && CSSMath.functions.contains(CSSTokenizer.asciiLowercased(name)):
            // `calc(45deg)`, `calc(infinity * 1deg)`: an angle, however it ends.
            // A calculation that fails (infinite, malformed) is still the direction, so that
            // its problem is said; a color never starts with one.
            guard values.count == 1 else { return false }
            do { return try mathAngle(first, syntax: syntax) != nil } catch { return true }
        default:
            return false
        }
    }

    /// The angle in degrees of a math function (`calc(90deg - 45deg)`, CSS Values 4 §10) that
    /// is the whole of `value`, or nil when it is no math function or not an angle.
    /// - Throws: `ColorParseError.invalid` when the calculation is malformed, or its angle is
    ///   infinite or 1e9 degrees or more in magnitude (a hostile pass: `calc(infinity * 1deg)`
    ///   was reported as "stop 1 is not a color").
    static func mathAngle(_ value: [CSSToken], syntax: ColorSyntax) throws(ColorParseError) -> Double? {
        guard let t = value.first, case .function(let name) = t.kind, CSSMath.functions.contains(CSSTokenizer.asciiLowercased(name)) else { return nil }
        var math = CSSMath(tokens: value, keywords: [:], quote: { syntax.text($0) })
        let v = try math.evaluate()
        guard v.kind == .angle else { return nil }
        guard v.value.isFinite, abs(v.value) < 1e9 else {
            throw .invalid("angle '\(syntax.text(value))' is out of range (\(v.value.isFinite ? "it comes to \(v.value) degrees" : "it is infinite"); it must be finite and below 1e9 degrees in magnitude)")
        }
        return v.value
    }

    /// Words that can start a gradient's first argument (geometry or interpolation method).
    static let preludeWords: Set<String> = ["to", "in", "from", "at", "circle", "ellipse", "closest-side",
                                            "farthest-side", "closest-corner", "farthest-corner"]

    static func angleDegrees(_ token: CSSToken, zeroAllowed: Bool = true) -> Double? {
        switch token.kind {
        case .dimension(let v, let unit):
            let u = CSSTokenizer.asciiLowercased(unit)
            let factor: Double
            switch u {
            case "deg": factor = 1
            case "grad": factor = 0.9
            case "rad": factor = 180 / Double.pi
            case "turn": factor = 360
            default: return nil
            }
            guard v.isFinite, abs(v) < 1e9 else { return nil }
            return v * factor
        case .number(let v) where v == 0 && zeroAllowed: return 0
        default: return nil
        }
    }

    static func parseGeometry(_ values: [[CSSToken]], base: String, syntax: ColorSyntax,
                              default geometry: Geometry) throws(ColorParseError) -> Geometry {
        func word(_ v: [CSSToken]) -> String? {
            if v.count == 1, case .ident(let w) = v[0].kind { return CSSTokenizer.asciiLowercased(w) }
            return nil
        }
        // Only for messages: built when one is thrown.
        var shown: String { syntax.text(values.flatMap { $0 }) }
        switch base {
        case "linear-gradient":
            if values.isEmpty { return geometry }
            if values.count == 1, let a = angleDegrees(values[0][0]), values[0].count == 1 { return .linear(angle: a) }
            if values.count == 1, let a = try mathAngle(values[0], syntax: syntax) { return .linear(angle: a) }
            if values.count == 1, values[0].count == 1, case .dimension(let v, _) = values[0][0].kind, !(v.isFinite && abs(v) < 1e9) {
                throw .invalid("linear-gradient() angle '\(shown)' is out of range (its number must be below 1e9 in magnitude)")
            }
            guard word(values[0]) == "to", (2...3).contains(values.count) else {
                throw .invalid("linear-gradient() direction must be an angle or 'to' a side or corner, got '\(shown)'")
            }
            var x = 0.0, y = 0.0
            for v in values.dropFirst() {
                switch word(v) {
                case "left" where x == 0: x = -1
                case "right" where x == 0: x = 1
                case "top" where y == 0: y = -1
                case "bottom" where y == 0: y = 1
                default: throw .invalid("linear-gradient() direction must be 'to' top, bottom, left, right or a corner, got '\(shown)'")
                }
            }
            if x != 0 && y != 0 { return .linearToCorner(x: x, y: y) }
            if y == -1 { return .linear(angle: 0) }
            if x == 1 { return .linear(angle: 90) }
            if y == 1 { return .linear(angle: 180) }
            return .linear(angle: 270)
        case "conic-gradient":
            var from = 0.0
            var center = Position.center
            var k = 0
            if k < values.count, word(values[k]) == "from" {
                guard k + 1 < values.count, values[k + 1].count == 1, let a = angleDegrees(values[k + 1][0]) else {
                    // An angle too large is said so, as for linear-gradient() (a hostile pass).
                    if k + 1 < values.count, values[k + 1].count == 1, case .dimension(let v, let unit) = values[k + 1][0].kind,
                       ["deg", "grad", "rad", "turn"].contains(CSSTokenizer.asciiLowercased(unit)), !(v.isFinite && abs(v) < 1e9) {
                        throw .invalid("conic-gradient() angle '\(shown)' is out of range (its number must be below 1e9 in magnitude)")
                    }
                    throw .invalid("conic-gradient(): 'from' must be followed by an angle, got '\(shown)'")
                }
                from = a
                k += 2
            }
            if k < values.count, word(values[k]) == "at" {
                center = try parsePosition(Array(values[(k + 1)...]), syntax: syntax, name: "conic-gradient()")
                k = values.count
            }
            if k != values.count {
                throw .invalid("conic-gradient() prelude must be [from <angle>] [at <position>], got '\(shown)'")
            }
            return .conic(from: from, center: center)
        default:
            var circle: Bool? = nil
            var size: RadialSize? = nil
            var lengths: [Length] = []
            var center = Position.center
            var k = 0
            while k < values.count {
                let v = values[k]
                if let w = word(v) {
                    switch w {
                    case "circle" where circle == nil: circle = true
                    case "ellipse" where circle == nil: circle = false
                    case "closest-side" where size == nil && lengths.isEmpty: size = .closestSide
                    case "farthest-side" where size == nil && lengths.isEmpty: size = .farthestSide
                    case "closest-corner" where size == nil && lengths.isEmpty: size = .closestCorner
                    case "farthest-corner" where size == nil && lengths.isEmpty: size = .farthestCorner
                    case "at":
                        center = try parsePosition(Array(values[(k + 1)...]), syntax: syntax, name: "radial-gradient()")
                        k = values.count
                        continue
                    default:
                        throw .invalid("unexpected '\(syntax.text(v))' in the radial-gradient() prelude; expected circle, ellipse, a size keyword, lengths, 'at <position>' or 'in <space>'")
                    }
                } else if let l = length(v), size == nil, lengths.count < 2 {
                    if case .px(let p) = l, p < 0 { throw .invalid("radial-gradient() radii cannot be negative, got '\(syntax.text(v))'") }
                    if case .fraction(let p) = l, p < 0 { throw .invalid("radial-gradient() radii cannot be negative, got '\(syntax.text(v))'") }
                    lengths.append(l)
                } else {
                    if v.count == 1, size == nil, lengths.count < 2 {
                        switch v[0].kind {
                        case .dimension(_, let u) where CSSTokenizer.asciiLowercased(u) == "px":
                            throw .invalid("radial-gradient() radius '\(syntax.text(v))' is out of range; radii must be below 1e7 px")
                        case .percentage:
                            throw .invalid("radial-gradient() radius '\(syntax.text(v))' is out of range; radii must be below 1e7%")
                        default: break
                        }
                    }
                    throw .invalid("unexpected '\(syntax.text(v))' in the radial-gradient() prelude")
                }
                k += 1
            }
            if !lengths.isEmpty {
                if lengths.count == 1 {
                    guard case .px = lengths[0], circle != false else {
                        throw .invalid("radial-gradient(): one radius makes a circle and must be a length, got '\(shown)'")
                    }
                    return .radial(circle: true, size: .explicit(x: lengths[0], y: lengths[0]), center: center)
                }
                if circle == true { throw .invalid("radial-gradient(): a circle takes one radius, got two") }
                return .radial(circle: false, size: .explicit(x: lengths[0], y: lengths[1]), center: center)
            }
            return .radial(circle: circle ?? false, size: size ?? .farthestCorner, center: center)
        }
    }

    /// A px length, `0`, or a percentage, from one component value; nil otherwise.
    static func length(_ v: [CSSToken]) -> Length? {
        guard v.count == 1 else { return nil }
        switch v[0].kind {
        case .dimension(let x, let unit) where CSSTokenizer.asciiLowercased(unit) == "px" && x.isFinite && abs(x) < 1e7:
            return .px(x)
        case .number(let x) where x == 0: return .px(0)
        case .percentage(let p) where p.isFinite && abs(p) < 1e7: return .fraction(p / 100)
        default: return nil
        }
    }

    /// `<position>` with keywords, percentages and px (one or two values, or keyword-offset pairs
    /// are refused).
    static func parsePosition(_ values: [[CSSToken]], syntax: ColorSyntax, name: String) throws(ColorParseError) -> Position {
        // Only for messages: built when one is thrown.
        var shown: String { syntax.text(values.flatMap { $0 }) }
        func kw(_ v: [CSSToken]) -> String? {
            if v.count == 1, case .ident(let w) = v[0].kind { return CSSTokenizer.asciiLowercased(w) }
            return nil
        }
        guard (1...2).contains(values.count) else {
            throw .invalid("\(name): 'at' takes a position of one or two values (keywords, percentages or px), got '\(shown)'")
        }
        var x: Length? = nil, y: Length? = nil
        var pending: [Length] = []
        for v in values {
            let word = kw(v)
            if word == "left" || word == "right" {
                // A horizontal keyword: x, and only once (`left left`, `10px left` are invalid).
                guard x == nil, !pending.contains(where: { $0 != .fraction(0.5) }) else { throw .invalid("\(name): '\(shown)' is not a valid position") }
                x = .fraction(word == "left" ? 0 : 1)
                continue
            }
            if word == "top" || word == "bottom" {
                guard y == nil else { throw .invalid("\(name): '\(shown)' is not a valid position") }
                y = .fraction(word == "top" ? 0 : 1)
                continue
            }
            switch word {
            case "center"?: pending.append(.fraction(0.5))
            default:
                guard let l = length(v) else {
                    throw .invalid("\(name): '\(syntax.text(v))' is not a position value (keywords, percentages or px, each within ±1e7)")
                }
                pending.append(l)
            }
        }
        // Plain values fill x first, then y.
        for l in pending {
            if x == nil { x = l } else if y == nil { y = l } else {
                throw .invalid("\(name): '\(shown)' is not a valid position")
            }
        }
        return Position(x: x ?? .fraction(0.5), y: y ?? .fraction(0.5))
    }

    /// Color stops and hints with CSS Images 4 §3.5.3 fixup.
    static func parseStops(_ groups: [[CSSToken]], conic: Bool, syntax: ColorSyntax,
                           name: String, lineLength: Double? = nil) throws(ColorParseError) -> (stops: [Stop], legacyOnly: Bool) {
        struct Raw { var color: Color?; var position: Double? }   // color nil: a hint
        var raw: [Raw] = []
        var legacyOnly = true
        func position(_ v: [CSSToken]) throws(ColorParseError) -> Double {
            guard v.count == 1 else {
                if case .function(let f) = v[0].kind, v.count >= 1 {
                    throw .invalid("\(name)(): stop position '\(syntax.text(v))' uses \(CSSTokenizer.asciiLowercased(f))(), which is not read in a stop position; give the percentage\(conic ? " or angle" : " or px length") it comes to")
                }
                throw .invalid("\(name)(): '\(syntax.text(v))' is not a stop position")
            }
            switch v[0].kind {
            case .percentage(let p) where p.isFinite && abs(p) <= 1e6: return p / 100
            case .percentage:
                throw .invalid("\(name)(): stop position '\(syntax.text(v))' is out of range; percentages must lie within ±1000000%")
            case .number(let x) where x == 0: return 0
            case .dimension(_, let unit) where conic:
                if let a = angleDegrees(v[0]), abs(a) <= 1e8 { return a / 360 }
                if ["deg", "grad", "rad", "turn"].contains(CSSTokenizer.asciiLowercased(unit)) {
                    throw .invalid("\(name)(): stop angle '\(syntax.text(v))' is out of range; angles must lie within ±1e8 degrees")
                }
                throw .invalid("\(name)(): '\(syntax.text(v))' is not a stop position around a turn; conic stops take angles (deg, grad, rad, turn) or percentages")
            case .dimension(let x, let unit) where CSSTokenizer.asciiLowercased(unit) == "px":
                guard let lineLength else {
                    throw .invalid("\(name)(): stop position '\(syntax.text(v))' is a length, and where px fall on the gradient line depends on the size of the box it fills: \(boxNeeded) (width and height in px), or write the position as a percentage")
                }
                // A ray of no length (a radial shape of no size, CSS Images 3 §3.2.3) puts every
                // position at its center: only the last color shows, whatever the positions.
                guard lineLength > 0 else { return 0 }
                let f = x / lineLength
                guard f.isFinite, abs(f) <= 1e9 else {
                    throw .invalid("\(name)(): stop position '\(syntax.text(v))' lies beyond a billion times the gradient line's length (\(String(format: "%.6g", lineLength)) px in this box)")
                }
                return f
            case .dimension(_, let unit):
                throw .invalid("\(name)(): stop position '\(syntax.text(v))' in \(unit) is not supported; give stop positions as percentages of the gradient line or in px")
            default:
                throw .invalid("\(name)(): '\(syntax.text(v))' is not a stop position; expected a percentage\(conic ? " or an angle" : "")")
            }
        }
        for (n, group) in groups.enumerated() {
            let values = ColorSyntax.componentValues(group)
            guard !values.isEmpty else {
                throw .invalid("\(name)(): argument \(n + 1) is empty (two commas in a row, or a trailing comma)")
            }
            // A hint: a lone position.
            if values.count == 1, isPositionToken(values[0][0]) {
                guard let last = raw.last, last.color != nil else {
                    throw .invalid("\(name)(): a color hint '\(syntax.text(values[0]))' must sit between two color stops")
                }
                raw.append(Raw(color: nil, position: try position(values[0])))
                continue
            }
            guard values.count <= 3 else {
                throw .invalid("\(name)(): a color stop is a color and at most two positions, got '\(syntax.text(group))'")
            }
            let color: Color
            do { color = try syntax.nested { () throws(ColorParseError) -> Color in try syntax.parse(values[0]) } }
            catch {
                // Valid CSS this service cannot evaluate (`currentcolor`) stays so: a 422, as for a
                // color member, not a 400 (a second pass).
                if case .unsupported(let why) = error { throw .unsupported("\(name)(): stop \(n + 1) '\(syntax.text(values[0]))': \(why)") }
                throw .invalid("\(name)(): stop \(n + 1) '\(syntax.text(values[0]))' is not a color: \(error.message)"
                               + stopHint(syntax.text(group), color: syntax.text(values[0]), first: n == 0, linear: name.hasSuffix("linear-gradient")))
            }
            if !isLegacy(values[0], colorScheme: syntax.colorScheme) { legacyOnly = false }
            if values.count == 1 {
                raw.append(Raw(color: color, position: nil))
            } else {
                // Two colors with no comma between them (a new user's pass: `#fff #000` was told
                // "'#000' is not a stop position; expected a percentage").
                for k in 1..<values.count where !isPositionToken(values[k][0]) {
                    guard (try? syntax.nested({ () throws(ColorParseError) -> Color in try syntax.parse(values[k]) })) != nil else { break }
                    let before = syntax.text(Array(values[0..<k].joined()))
                    throw .invalid("\(name)(): '\(syntax.text(values[k]))' after '\(before)' is a color, not a stop position: a comma is missing between them ('\(before), \(syntax.text(values[k]))')")
                }
                raw.append(Raw(color: color, position: try position(values[1])))
                if values.count == 3 { raw.append(Raw(color: color, position: try position(values[2]))) }
            }
            if raw.count > 2 * maximumStops {
                throw .invalid("\(name)() has more than \(maximumStops) color stops")
            }
        }
        if let last = raw.last, last.color == nil {
            throw .invalid("\(name)(): a color hint must be followed by a color stop")
        }
        let colorCount = raw.count { $0.color != nil }
        guard colorCount >= 1 else { throw .invalid("\(name)() needs at least two color stops") }
        guard colorCount <= maximumStops else { throw .invalid("\(name)() has \(colorCount) color stops; at most \(maximumStops)") }
        if colorCount == 1 {
            // CSS Images 4 (§3.5.1 `<color-stop-list>`) allows one stop, and Chromium 156 paints
            // it as that color everywhere (a front-end pass: `linear-gradient(#000)` was a 400).
            guard raw.count == 1, let only = raw[0].color else {
                throw .invalid("\(name)(): a color hint must sit between two color stops")
            }
            return ([Stop(color: only, position: 0), Stop(color: only, position: 1)], legacyOnly)
        }
        // Fixup (§3.5.3): first and last default to 0% and 100%; each position at least the
        // largest before it; runs without positions spaced evenly.
        var positions = raw.map(\.position)
        let firstStop = raw.firstIndex { $0.color != nil }!, lastStop = raw.lastIndex { $0.color != nil }!
        if positions[firstStop] == nil { positions[firstStop] = 0 }
        if positions[lastStop] == nil { positions[lastStop] = 1 }
        var maxSoFar = -Double.infinity
        for i in positions.indices {
            if let p = positions[i] { let q = Swift.max(p, maxSoFar); positions[i] = q; maxSoFar = q }
        }
        var i = 0
        while i < raw.count {
            if positions[i] == nil {
                var j = i
                while positions[j] == nil { j += 1 }
                // Stops i..<j lack positions (hints always have one); spread them between i-1 and j.
                let a = positions[i - 1]!, b = positions[j]!
                let count = Double(j - i + 1)
                for m in i..<j { positions[m] = a + (b - a) * Double(m - i + 1) / count }
                i = j
            }
            i += 1
        }
        var stops: [Stop] = []
        for (m, r) in raw.enumerated() {
            if let c = r.color {
                stops.append(Stop(color: c, position: positions[m]!))
            } else if var prev = stops.popLast() {
                // A hint between the previous stop and the next one: as a fraction of that
                // interval, clamped into it (positions were already made non-decreasing).
                let next = positions[(m + 1)...].first { $0 != nil }!!
                let h = positions[m]!
                let span = next - prev.position
                prev.hint = span > 0 ? Swift.min(Swift.max((h - prev.position) / span, 0), 1) : 0.5
                stops.append(prev)
            }
        }
        return (stops, legacyOnly)
    }

    /// What a stop that is not a color was most likely meant to be, as a clause to add to the
    /// error (empty when nothing fits): a direction or angle written after the first comma
    /// (`in oklch, to right`; CSS Images 3 §3.1 puts it before the first comma, with the
    /// interpolation method), a side without `to` (the old prefixed syntax), an angle without
    /// its unit, or a misspelt color name.
    static func stopHint(_ text: String, color: String, first: Bool, linear: Bool) -> String {
        let stop = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let words = stop.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        guard let head = words.first else { return "" }
        let sides: Set<String> = ["left", "right", "top", "bottom"]
        if linear && first {
            if head == "to" {
                return "; a direction goes in the first argument, together with any interpolation method and no comma between them (e.g. '\(stop) in oklch')"
            }
            if sides.contains(head) { return "; a side is written with 'to', before the first comma: 'to \(stop)'" }
            if Double(head) != nil { return "; an angle needs a unit: '\(head)deg'" }
        }
        let suggestions = CSSColorParser.namedColorSuggestions(for: color)
        return suggestions.isEmpty ? "" : "; did you mean the CSS color '\(suggestions[0])'?"
    }

    static func isPositionToken(_ t: CSSToken) -> Bool {
        switch t.kind {
        case .percentage, .dimension: return true
        case .number(let v): return v == 0
        default: return false
        }
    }

    /// Whether a stop color is written in legacy sRGB syntax (CSS Color 4 §12.1: such stops keep
    /// the sRGB default): hex, a named color or `transparent`, `rgb()`, `rgba()`, `hsl()`,
    /// `hsla()`, `hwb()` (not relative colors, nor `color-mix()`); a `light-dark()` (CSS Color 5
    /// §5) is the branch `colorScheme` uses, the color it computes to (a new user's pass:
    /// `light-dark(#f00, #f00)` stops were mixed in OKLab, where Chromium 156 paints them as
    /// the hex stops, in sRGB: 5.25:1 for 3.93:1).
    static func isLegacy(_ v: [CSSToken], colorScheme: CSSColorScheme) -> Bool {
        guard let t = v.first else { return false }
        switch t.kind {
        case .hash: return true
        case .ident(let w):
            let name = CSSTokenizer.asciiLowercased(w)
            return name != "currentcolor" && name != "none"
        case .function(let raw):
            let name = CSSTokenizer.asciiLowercased(raw)
            if name == "light-dark" {
                var inner = v.dropFirst()
                if case .closeParen? = inner.last?.kind { inner = inner.dropLast() }
                let branches = ColorSyntax.splitAtCommas(Array(inner))
                guard branches.count == 2 else { return false }
                let used = ColorSyntax.componentValues(branches[colorScheme == .light ? 0 : 1])
                return used.count == 1 && isLegacy(used[0], colorScheme: colorScheme)
            }
            guard ["rgb", "rgba", "hsl", "hsla", "hwb"].contains(name) else { return false }
            // A relative color (`rgb(from #f00 r g b)`, CSS Color 5 §4) is not legacy: Chromium 156
            // mixes it in OKLab (Tests/Fixtures/gradients.jsonl; it had been taken for sRGB, 96 of
            // 255 off at a quarter of the way).
            let first = v.dropFirst().first { if case .whitespace = $0.kind { return false } else { return true } }
            if case .ident(let w)? = first?.kind, CSSTokenizer.asciiLowercased(w) == "from" { return false }
            // Nor is one with a `none` component, which only the modern syntax writes: Chromium
            // 156 mixes `rgb(255 0 0 / none)` and `hsl(none 100% 50%)` stops in OKLab (a
            // front-end pass: measured in sRGB, 1.96:1 where the pixels show 2.44:1).
            let hasNone = v.dropFirst().contains { t in
                if case .ident(let w) = t.kind { return CSSTokenizer.asciiLowercased(w) == "none" }
                return false
            }
            return !hasNone
        default: return false
        }
    }
}
