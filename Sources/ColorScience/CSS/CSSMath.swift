import Foundation  // sin, cos, tan, asin, acos, atan, atan2, pow, log, exp

// CSS math functions inside a color (CSS Values 4 §10: calc(), min(), max(), clamp(), round(),
// mod(), rem(), abs(), sign(), the trigonometric and exponential functions, the constants e, pi,
// infinity, -infinity and NaN), with the type checking of §10.7: numbers, percentages and angles
// do not mix under + and −, * needs a number on one side, / a number on the right. In relative
// colors (CSS Color 5 §4) the channel keywords (`r`, `l`, `alpha`, …) are numbers.

/// A calculation's value and its CSS type (CSS Values 4 §10.7).
struct CSSMathValue: Equatable {
    enum Kind: Equatable {
        case number
        case percentage
        /// An angle, in degrees.
        case angle
    }
    var value: Double
    var kind: Kind
}

/// Evaluates one math function (its tokens from the function token to its `)`) to a value.
struct CSSMath {
    /// Deepest nesting of math functions and parentheses accepted.
    static let maximumDepth = 32

    let tokens: [CSSToken]
    /// Channel keywords of a relative color (lowercase name → value), empty elsewhere.
    let keywords: [String: Double]
    /// Quotes source text for messages.
    let quote: (Range<Int>) -> String
    var i = 0
    var depth = 0

    /// The functions evaluated here (CSS Values 4 §10).
    static let functions: Set<String> = [
        "calc", "-webkit-calc", "min", "max", "clamp", "round", "mod", "rem", "abs", "sign", "sin",
        "cos", "tan", "asin", "acos", "atan", "atan2", "pow", "sqrt", "hypot", "log", "exp",
    ]

    init(tokens: [CSSToken], keywords: [String: Double], quote: @escaping (Range<Int>) -> String) {
        self.tokens = tokens
        self.keywords = keywords
        self.quote = quote
    }

    /// Evaluates `tokens` (which start with a math function token) and censors the result as
    /// CSS Values 4 §10.9 says for a top-level calculation: NaN becomes 0; infinities stay (the
    /// caller clamps them to its range).
    /// - Throws: `ColorParseError.invalid` naming the problem (unknown function or keyword, type
    ///   mismatch, missing operand, text after the function).
    mutating func evaluate() throws(ColorParseError) -> CSSMathValue {
        skipSpace()
        var v = try term()
        skipSpace()
        if i < tokens.count {
            throw .invalid("unexpected '\(quote(tokens[i].range))' after \(quote(tokens[0].range.lowerBound..<tokens[i].range.lowerBound))")
        }
        if v.value.isNaN { v.value = 0 }
        return v
    }

    mutating func skipSpace() {
        while i < tokens.count, tokens[i].kind == .whitespace { i += 1 }
    }

    func describe(_ k: CSSMathValue.Kind) -> String {
        switch k {
        case .number: return "a number"
        case .percentage: return "a percentage"
        case .angle: return "an angle"
        }
    }

    /// One value: a number, percentage, angle, keyword, parenthesized sum or math function.
    mutating func term() throws(ColorParseError) -> CSSMathValue {
        skipSpace()
        guard i < tokens.count else { throw .invalid("a math expression ends where a value was expected") }
        let t = tokens[i]
        switch t.kind {
        case .number(let v):
            i += 1; return CSSMathValue(value: v, kind: .number)
        case .percentage(let v):
            i += 1; return CSSMathValue(value: v, kind: .percentage)
        case .dimension(let v, let unit):
            i += 1
            let u = CSSTokenizer.asciiLowercased(unit)
            switch u {
            case "deg": return CSSMathValue(value: v, kind: .angle)
            case "grad": return CSSMathValue(value: v * 0.9, kind: .angle)
            case "rad": return CSSMathValue(value: v * 180 / Double.pi, kind: .angle)
            case "turn": return CSSMathValue(value: v * 360, kind: .angle)
            default: throw .invalid("'\(quote(t.range))' has a unit a color cannot use; only numbers, percentages and angles (deg, grad, rad, turn) are allowed")
            }
        case .ident(let raw):
            i += 1
            let w = CSSTokenizer.asciiLowercased(raw)
            switch w {
            case "e": return CSSMathValue(value: M_E, kind: .number)
            case "pi": return CSSMathValue(value: Double.pi, kind: .number)
            case "infinity": return CSSMathValue(value: .infinity, kind: .number)
            case "-infinity": return CSSMathValue(value: -.infinity, kind: .number)
            case "nan": return CSSMathValue(value: .nan, kind: .number)
            default:
                if let v = keywords[w] { return CSSMathValue(value: v, kind: .number) }
                if keywords.isEmpty {
                    throw .invalid("unknown keyword '\(quote(t.range))' in a math function (channel keywords such as 'l' or 'r' exist only in relative colors: 'oklch(from …)')")
                }
                let known = keywords.keys.sorted().joined(separator: ", ")
                throw .invalid("unknown keyword '\(quote(t.range))' in a math function; this relative color's channel keywords are \(known)")
            }
        case .openParen:
            i += 1
            return try group(closing: t)
        case .function(let raw):
            i += 1
            return try function(CSSTokenizer.asciiLowercased(raw), t)
        default:
            throw .invalid("'\(quote(t.range))' is not a value in a math expression")
        }
    }

    /// A sum inside parentheses or `calc(`, up to the matching `)` (or the end of input).
    mutating func group(closing open: CSSToken) throws(ColorParseError) -> CSSMathValue {
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth {
            throw .invalid("math expression is nested more than \(Self.maximumDepth) levels deep")
        }
        let v = try sum()
        skipSpace()
        if i < tokens.count {
            guard tokens[i].kind == .closeParen else {
                throw .invalid("unexpected '\(quote(tokens[i].range))' in a math expression")
            }
            i += 1
        }
        return v
    }

    /// `product [('+' | '-') product]*`; + and − must have whitespace on both sides (§10.1).
    mutating func sum() throws(ColorParseError) -> CSSMathValue {
        var v = try product()
        while true {
            let before = i
            skipSpace()
            guard i < tokens.count, case .delim(let op) = tokens[i].kind, op == "+" || op == "-" else {
                // A signed number right after a value (`l -0.1`) is a missing operator.
                if i < tokens.count, i > before, case .number(let n) = tokens[i].kind, n < 0 || quote(tokens[i].range).hasPrefix("+") {
                    throw .invalid("'\(quote(tokens[i].range))' follows a value without an operator; write '- \(quote(tokens[i].range).dropFirst())' with spaces around the operator")
                }
                i = before
                return v
            }
            let opToken = tokens[i]
            guard i > before, i + 1 < tokens.count, tokens[i + 1].kind == .whitespace else {
                throw .invalid("'\(op)' in a math expression needs whitespace on both sides")
            }
            i += 1
            let rhs = try product()
            guard rhs.kind == v.kind else {
                var message = "cannot \(op == "+" ? "add" : "subtract") \(describe(rhs.kind)) \(op == "+" ? "to" : "from") \(describe(v.kind)) at '\(quote(opToken.range))'"
                // In a relative color the channel keywords are numbers (CSS Color 5 §4.1): `l`
                // of hsl() is 0–100, not a percentage (a new user's pass, stop 38, wrote
                // `hsl(from #3b82f6 h s calc(l - 20%))`).
                if !keywords.isEmpty, v.kind == .number, rhs.kind == .percentage {
                    message += "; in a relative color the channel keywords are numbers (hsl()'s s and l are 0–100, oklch()'s l 0–1): write the change as a number, e.g. calc(l \(op) 20) in hsl()"
                }
                throw .invalid(message)
            }
            v.value = op == "+" ? v.value + rhs.value : v.value - rhs.value
        }
    }

    /// `term [('*' | '/') term]*`.
    mutating func product() throws(ColorParseError) -> CSSMathValue {
        var v = try term()
        while true {
            let before = i
            skipSpace()
            guard i < tokens.count, case .delim(let op) = tokens[i].kind, op == "*" || op == "/" else {
                i = before
                return v
            }
            i += 1
            let rhs = try term()
            if op == "*" {
                guard v.kind == .number || rhs.kind == .number else {
                    throw .invalid("cannot multiply \(describe(v.kind)) by \(describe(rhs.kind)): one side must be a number")
                }
                v = CSSMathValue(value: v.value * rhs.value, kind: v.kind == .number ? rhs.kind : v.kind)
            } else {
                guard rhs.kind == .number else {
                    throw .invalid("cannot divide by \(describe(rhs.kind)): the divisor must be a number")
                }
                v.value = v.value / rhs.value
            }
        }
    }

    /// The comma-separated arguments of a function, each a sum, up to its `)`.
    mutating func arguments(_ name: String) throws(ColorParseError) -> [CSSMathValue] {
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth {
            throw .invalid("math expression is nested more than \(Self.maximumDepth) levels deep")
        }
        var args: [CSSMathValue] = []
        while true {
            skipSpace()
            if i < tokens.count, tokens[i].kind == .closeParen, args.isEmpty {
                throw .invalid("\(name)() needs an argument")
            }
            args.append(try sum())
            skipSpace()
            guard i < tokens.count else { return args }
            switch tokens[i].kind {
            case .comma: i += 1
            case .closeParen: i += 1; return args
            default: throw .invalid("unexpected '\(quote(tokens[i].range))' in \(name)()")
            }
        }
    }

    /// `round()`'s rounding strategy, when its first argument is one.
    mutating func roundingStrategy() -> String? {
        let save = i
        skipSpace()
        if i < tokens.count, case .ident(let raw) = tokens[i].kind {
            let w = CSSTokenizer.asciiLowercased(raw)
            if ["nearest", "up", "down", "to-zero"].contains(w) {
                i += 1
                skipSpace()
                if i < tokens.count, tokens[i].kind == .comma { i += 1; return w }
            }
        }
        i = save
        return nil
    }

    mutating func function(_ name: String, _ token: CSSToken) throws(ColorParseError) -> CSSMathValue {
        guard Self.functions.contains(name) else {
            if ColorSyntax.mathFunctions.contains(name) {
                throw .unsupported("\(name)() depends on the document and is not supported; send the computed value")
            }
            throw .invalid("'\(name)()' is not a CSS math function usable in a color")
        }
        if name == "calc" || name == "-webkit-calc" { return try group(closing: token) }
        let strategy = name == "round" ? roundingStrategy() : nil
        let args = try arguments(name)
        func count(_ allowed: ClosedRange<Int>) throws(ColorParseError) {
            guard allowed.contains(args.count) else {
                let want = allowed.lowerBound == allowed.upperBound ? "\(allowed.lowerBound)" : "\(allowed.lowerBound) to \(allowed.upperBound)"
                throw .invalid("\(name)() takes \(want) argument\(allowed.upperBound == 1 ? "" : "s"), got \(args.count)")
            }
        }
        func sameKind() throws(ColorParseError) -> CSSMathValue.Kind {
            let k = args[0].kind
            for a in args.dropFirst() where a.kind != k {
                throw .invalid("\(name)() mixes \(describe(k)) and \(describe(a.kind))")
            }
            return k
        }
        func numbers() throws(ColorParseError) {
            for a in args where a.kind != .number {
                throw .invalid("\(name)() takes numbers, got \(describe(a.kind))")
            }
        }
        /// A number (radians) or an angle, in radians.
        func radians(_ v: CSSMathValue) -> Double { v.kind == .angle ? v.value * Double.pi / 180 : v.value }
        switch name {
        case "min", "max":
            let k = try sameKind()
            let values = args.map(\.value)
            if values.contains(where: \.isNaN) { return CSSMathValue(value: .nan, kind: k) }
            return CSSMathValue(value: name == "min" ? values.min()! : values.max()!, kind: k)
        case "clamp":
            try count(3...3)
            let k = try sameKind()
            let (lo, v, hi) = (args[0].value, args[1].value, args[2].value)
            return CSSMathValue(value: Swift.max(lo, Swift.min(v, hi)), kind: k)
        case "round":
            try count(1...2)
            let k = try sameKind()
            if args.count == 1 && k != .number {
                throw .invalid("round() of \(describe(k)) needs the rounding interval as a second argument")
            }
            let a = args[0].value, b = args.count == 2 ? args[1].value : 1
            return CSSMathValue(value: Self.round(a, to: b, strategy: strategy ?? "nearest"), kind: k)
        case "mod", "rem":
            try count(2...2)
            let k = try sameKind()
            let (a, b) = (args[0].value, args[1].value)
            if b == 0 || a.isInfinite { return CSSMathValue(value: .nan, kind: k) }
            var r = a.truncatingRemainder(dividingBy: b)
            if name == "mod", r != 0, (r < 0) != (b < 0) { r += b }
            if b.isInfinite { r = name == "mod" && (a < 0) != (b < 0) && a != 0 ? .nan : a }
            return CSSMathValue(value: r, kind: k)
        case "abs":
            try count(1...1)
            return CSSMathValue(value: abs(args[0].value), kind: args[0].kind)
        case "sign":
            try count(1...1)
            let v = args[0].value
            return CSSMathValue(value: v > 0 ? 1 : v < 0 ? -1 : v, kind: .number)
        case "sin", "cos", "tan":
            try count(1...1)
            guard args[0].kind != .percentage else { throw .invalid("\(name)() takes a number or an angle, got a percentage") }
            let r = radians(args[0])
            let v = name == "sin" ? sin(r) : name == "cos" ? cos(r) : tan(r)
            return CSSMathValue(value: v, kind: .number)
        case "asin", "acos", "atan":
            try count(1...1)
            try numbers()
            let x = args[0].value
            let v = name == "asin" ? asin(x) : name == "acos" ? acos(x) : atan(x)
            return CSSMathValue(value: v * 180 / Double.pi, kind: .angle)
        case "atan2":
            try count(2...2)
            _ = try sameKind()
            return CSSMathValue(value: atan2(args[0].value, args[1].value) * 180 / Double.pi, kind: .angle)
        case "pow":
            try count(2...2)
            try numbers()
            return CSSMathValue(value: pow(args[0].value, args[1].value), kind: .number)
        case "sqrt":
            try count(1...1)
            try numbers()
            return CSSMathValue(value: args[0].value.squareRoot(), kind: .number)
        case "hypot":
            let k = try sameKind()
            return CSSMathValue(value: args.reduce(0) { $0 + $1.value * $1.value }.squareRoot(), kind: k)
        case "log":
            try count(1...2)
            try numbers()
            let v = args.count == 2 ? log(args[0].value) / log(args[1].value) : log(args[0].value)
            return CSSMathValue(value: v, kind: .number)
        default:  // exp
            try count(1...1)
            try numbers()
            return CSSMathValue(value: exp(args[0].value), kind: .number)
        }
    }

    /// `round(<strategy>, a, b)` (CSS Values 4 §10.3): a rounded to a multiple of b.
    static func round(_ a: Double, to b: Double, strategy: String) -> Double {
        if b == 0 || a.isNaN || b.isNaN { return .nan }
        if a.isInfinite { return b.isInfinite ? .nan : a }
        if b.isInfinite {
            switch strategy {
            case "up": return a > 0 ? .infinity : (a < 0 ? -0.0 : a)
            case "down": return a < 0 ? -.infinity : (a > 0 ? 0 : a)
            default: return a < 0 ? -0.0 : 0
            }
        }
        let step = abs(b)
        let q = a / step
        let rounded: Double
        switch strategy {
        case "up": rounded = q.rounded(.up)
        case "down": rounded = q.rounded(.down)
        case "to-zero": rounded = q.rounded(.towardZero)
        default:
            // Nearest, halfway cases toward +∞ (CSS Values 4 §10.3).
            rounded = (q + 0.5).rounded(.down)
        }
        return rounded * step
    }
}
