import Foundation
import JSONValue

/// Tokens Studio's color modifiers (`$extensions["studio.tokens"].modify`: `lighten`, `darken`,
/// `mix`, `alpha`, each in the color space `lch`, `srgb`, `p3` or `hsl`), written as the CSS
/// Color 5 text that computes the same color, so that the resolver reads it as any other value
/// (its `{references}` substituted, then parsed).
///
/// Source: Tokens Studio's "Modified Colors" (docs.tokens.studio, token types, color, modified)
/// and its reference implementation, `@tokens-studio/sd-transforms` `src/color-modifiers/`
/// (`modifyColor`, `lighten`, `darken`, `mix`, `transparentize`; colorjs.io 0.5):
/// - `lighten` by `a`: in `lch`, `l + (100 − l)·a` (at most 100) and `c − a·c` (at least 0); in
///   `hsl`, `l + (100 − l)·a` (at most 100); in `srgb` and `p3`, each channel `x + a·(1 − x)` (at
///   most 1);
/// - `darken` by `a`: in `lch`, `l − l·a` and `c − a·c` (at least 0); in `hsl`, `l − l·a`; in
///   `srgb` and `p3`, `x − a·x` (at least 0);
/// - `mix` with `color` by `a` (clamped to `0...1`): the mix in the space (colorjs's `mix`, as
///   `color-mix(in <space>, base, color a·100%)`: shorter hue, an achromatic hue missing);
/// - `alpha` `a`: the alpha set to `a` (clamped to `0...1`), not multiplied;
/// - no space, or a type other than the four: the color as written (sd-transforms catches the
///   conversion's error and keeps the base color);
/// - `format: "hex"`: the result in 8-bit sRGB (colorjs's hex), rounded here per channel.
/// The `value` may be arithmetic (`0.5 - 0.3`, `0.5 + 6 * 0.04`), as sd-transforms evaluates it.
/// sd-transforms then writes the color with 5 digits; this computes it unrounded (within 1e-5).
enum TokensStudioModifier {
    /// What a modifier makes of `base` (CSS text, or `{reference}`): the CSS text, and a note
    /// when the color is left as written; or why it cannot be computed (a reference in the
    /// amount, an unknown space, an amount that is not a number).
    enum Outcome: Equatable {
        case css(String, note: String?)
        case unsupported(String)
    }

    static func css(_ modify: JSON, base: String) -> Outcome {
        guard case .object(let m) = modify else { return .unsupported("'modify' is not an object") }
        func text(_ key: String) -> String? {
            switch m[key] {
            case .string(let s)?: return s
            case .number(let n)?: return "\(n)"
            default: return nil
            }
        }
        let type = text("type")?.lowercased() ?? ""
        let space = text("space")?.lowercased() ?? ""
        guard ["lighten", "darken", "mix", "alpha"].contains(type) else {
            return .css(base, note: "its modifier type '\(type.prefix(40))' is none of lighten, darken, mix, alpha: the color as written, as Tokens Studio shows it")
        }
        guard !space.isEmpty else {
            return .css(base, note: "its modifier has no 'space': the color as written, as Tokens Studio and sd-transforms leave it")
        }
        guard let cssSpace = ["lch": "lch", "hsl": "hsl", "p3": "display-p3", "srgb": "srgb"][space] else {
            return .unsupported("its modifier's space '\(space.prefix(40))' is none of lch, srgb, p3, hsl")
        }
        guard let written = text("value") else { return .unsupported("its modifier has no 'value'") }
        if written.contains("{") { return .unsupported("its modifier's value '\(written.prefix(40))' refers to another token, which this audit does not resolve inside a modifier") }
        guard let amount = Arithmetic.evaluate(written) else {
            return .unsupported("its modifier's value '\(written.prefix(40))' is not a number or arithmetic of numbers")
        }
        // A hostile pass: 1e308 was called "not a number".
        guard amount.isFinite, abs(amount) <= 1e6 else {
            return .unsupported("its modifier's value '\(written.prefix(40))' is \(amount.isFinite ? "beyond ±1,000,000" : "not finite") (an amount is a fraction: 0.2 for 20%)")
        }
        let a = "\(amount)"
        var out: String
        switch (type, space) {
        case ("lighten", "lch"): out = "lch(from \(base) min(100, l + (100 - l) * \(a)) max(0, c - \(a) * c) h)"
        case ("lighten", "hsl"): out = "hsl(from \(base) h s min(100, l + (100 - l) * \(a)))"
        case ("lighten", _): out = "color(from \(base) \(cssSpace) min(1, r + \(a) * (1 - r)) min(1, g + \(a) * (1 - g)) min(1, b + \(a) * (1 - b)))"
        case ("darken", "lch"): out = "lch(from \(base) max(0, l - l * \(a)) max(0, c - \(a) * c) h)"
        case ("darken", "hsl"): out = "hsl(from \(base) h s max(0, l - l * \(a)))"
        case ("darken", _): out = "color(from \(base) \(cssSpace) max(0, r - \(a) * r) max(0, g - \(a) * g) max(0, b - \(a) * b))"
        case ("mix", _):
            guard let other = text("color"), !other.isEmpty else {
                return .css(base, note: "its mix modifier has no 'color': the color as written, as Tokens Studio and sd-transforms leave it")
            }
            let p = Swift.max(0, Swift.min(1, amount)) * 100
            out = "color-mix(in \(cssSpace), \(base), \(other) \(p)%)"
        default:  // alpha
            let alpha = "\(Swift.max(0, Swift.min(1, amount)))"
            switch space {
            case "lch": out = "lch(from \(base) l c h / \(alpha))"
            case "hsl": out = "hsl(from \(base) h s l / \(alpha))"
            default: out = "color(from \(base) \(cssSpace) r g b / \(alpha))"
            }
        }
        if text("format")?.lowercased() == "hex" {
            out = "color(from \(out) srgb clamp(0, round(r * 255) / 255, 1) clamp(0, round(g * 255) / 255, 1) clamp(0, round(b * 255) / 255, 1))"
        }
        return .css(out, note: nil)
    }

    /// A modifier's amount: a number (an exponent allowed: `1e-3`), or `+ - * /` and parentheses
    /// over numbers (sd-transforms evaluates such text); nil for anything else. At most 64
    /// characters.
    enum Arithmetic {
        static func evaluate(_ text: String) -> Double? {
            guard text.utf8.count <= 64 else { return nil }
            var p = Parser(bytes: Array(text.utf8))
            guard let v = p.sum(depth: 0) else { return nil }
            p.skipSpaces()
            return p.i == p.bytes.count ? v : nil
        }

        struct Parser {
            let bytes: [UInt8]
            var i = 0
            mutating func skipSpaces() { while i < bytes.count, bytes[i] == 0x20 { i += 1 } }
            /// Terms joined by `+`/`-` (`level` 0) or factors by `*`/`/` (`level` 1), left to right.
            mutating func chain(_ level: Int, depth: Int) -> Double? {
                let (plus, minus): (UInt8, UInt8) = level == 0 ? (UInt8(ascii: "+"), UInt8(ascii: "-")) : (UInt8(ascii: "*"), UInt8(ascii: "/"))
                func operand(_ p: inout Parser) -> Double? { level == 0 ? p.chain(1, depth: depth) : p.factor(depth: depth) }
                guard var v = operand(&self) else { return nil }
                while true {
                    skipSpaces()
                    guard i < bytes.count, bytes[i] == plus || bytes[i] == minus else { return v }
                    let first = bytes[i] == plus
                    i += 1
                    guard let r = operand(&self) else { return nil }
                    v = level == 0 ? (first ? v + r : v - r) : (first ? v * r : v / r)
                }
            }
            mutating func sum(depth: Int) -> Double? { chain(0, depth: depth) }
            mutating func factor(depth: Int) -> Double? {
                skipSpaces()
                guard i < bytes.count, depth < 16 else { return nil }
                if bytes[i] == UInt8(ascii: "-") { i += 1; return factor(depth: depth + 1).map { -$0 } }
                if bytes[i] == UInt8(ascii: "(") {
                    i += 1
                    guard let v = sum(depth: depth + 1) else { return nil }
                    skipSpaces()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ")") else { return nil }
                    i += 1
                    return v
                }
                let start = i
                func digits() { while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 || bytes[i] == UInt8(ascii: ".") { i += 1 } }
                digits()
                guard i > start else { return nil }
                // An exponent (`1e-3`), as JavaScript's numbers take it.
                if i + 1 < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
                    var j = i + 1
                    if bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
                    if j < bytes.count, bytes[j] >= 0x30 && bytes[j] <= 0x39 {
                        i = j
                        while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
                    }
                }
                return Double(String(decoding: bytes[start..<i], as: UTF8.self))
            }
        }
    }
}
