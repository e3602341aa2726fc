import AppleDesign
import ColorScience
import Foundation

// MARK: Swift (UIKit and SwiftUI)

extension PaletteExport {
    /// A Swift source file for iOS 15+: one caseless `enum` named after the palette holding, per
    /// color, a dynamic `UIColor` (`UIColor(dynamicProvider:)`) that picks the variant from the
    /// trait collection (`userInterfaceStyle`, `accessibilityContrast`, and for a background with
    /// elevated dark values `userInterfaceLevel`), and a SwiftUI `Color`
    /// of it (`Color(uiColor:)`, iOS 15), named `<color>Color`.
    ///
    /// What an asset catalog cannot say, code can (an iOS designer's pass): a color given as an
    /// Apple system color name, with no variant of its own, is the system color
    /// (`UIColor.secondarySystemBackground`), so UIKit resolves it, its elevated dark value
    /// (#2c2c2e in sheets, #1c1c1e at the base level) and the device's own values included,
    /// rather than the hex of one catalog generation at one level.
    ///
    /// Components are the measured colors: sRGB as the 8-bit values the answer's hex gives
    /// (`rgb(0x5B, 0x4C, 0xF0)`, a private helper dividing by 255); Display P3 with four
    /// decimals (`p3(…)`); alpha with up to four decimals.
    /// Names are lower camel case Swift identifiers from the palette names (a name that is a
    /// Swift keyword is written in backquotes), unique within the enum.
    func swift() -> String {
        let typeName = Self.swiftTypeName(name)
        // `rgb` and `p3` are the helper's names: a color named so is `rgb2`. `self` and `init`
        // after a type name are its metatype and initializer whatever a member is called (a new
        // user's pass: `Palette.self` returned the metatype, not the color named `self`).
        let reserved = ["rgb", "p3", "self", "init"]
        let names = Self.unique(reserved + results.map { Self.swiftIdentifier($0.entry.name) }, separator: "", derived: ["Color"],
                                preferred: reserved.map { _ in true } + Self.keepsItsName(results),
                                written: reserved + results.map(\.entry.name)).dropFirst(reserved.count)
        var out = "// \(Self.swiftComment(generatorLine))\n"
        out += "// Light, dark and increased-contrast variants chosen from the trait collection; Apple system\n"
        out += "// color names stay the system colors (iOS draws its own values: measured here as \(request.generation.rawValue)).\n"
        let failingColors = results.filter { !$0.passes }
        if !failingColors.isEmpty {
            let listed = failingColors.map { "\($0.entry.name) (\(Self.failingModes($0)))" }.joined(separator: "; ")
            out += "// Failing their targets: \(Self.swiftComment(listed)).\n"
        }
        out += "import SwiftUI\nimport UIKit\n\n"
        out += "enum \(typeName) {\n"
        for (i, (r, id)) in zip(results, names).enumerated() {
            if i > 0 { out += "\n" }
            out += swiftColor(r, id: id)
        }
        // The one helper the colors call (named so that no palette color can take its name).
        if colorSpace == .srgb {
            out += "\n    private static func rgb(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: CGFloat = 1) -> UIColor {\n"
            out += "        UIColor(red: CGFloat(red) / 255, green: CGFloat(green) / 255, blue: CGFloat(blue) / 255, alpha: alpha)\n    }\n"
        } else {
            out += "\n    private static func p3(_ red: CGFloat, _ green: CGFloat, _ blue: CGFloat, _ alpha: CGFloat = 1) -> UIColor {\n"
            out += "        UIColor(displayP3Red: red, green: green, blue: blue, alpha: alpha)\n    }\n"
        }
        out += "}\n"
        return out
    }

    /// One color's two declarations.
    func swiftColor(_ r: PaletteEntryResult, id: String) -> String {
        let e = r.entry
        var doc = "\(e.name) (\(e.role.rawValue)): " + Self.order.map { v in
            "\(Self.modeName(v)) \(r[v].color.hex)" + (r[v].elevated.map { " (elevated \($0.hex))" } ?? "")
        }.joined(separator: ", ")
        if !r.passes { doc += "; fails in \(Self.failingModes(r))" }
        var out = "    /// \(Self.swiftComment(doc))\n"
        let color = Self.keyword(id), swiftUI = Self.keyword(id + "Color")
        if let system = systemName(of: r) {
            out += "    static let \(color) = UIColor.\(system)\n"
        } else {
            out += "    static let \(color) = UIColor { traits in\n"
            out += "        let high = traits.accessibilityContrast == .high\n"
            out += "        if traits.userInterfaceStyle == .dark {\n"
            let (dark, darkHigh) = (r[.dark], r[.darkIncreasedContrast])
            if dark.elevated != nil || darkHigh.elevated != nil {
                // A background's elevated values (sheets, popovers), which an asset catalog cannot hold.
                func level(_ v: PaletteVariantResult) -> String {
                    v.elevated.map { "(elevated ? \(swiftComponents(components(of: $0), alpha: $0.alpha)) : \(uiColor(v)))" } ?? uiColor(v)
                }
                out += "            let elevated = traits.userInterfaceLevel == .elevated\n"
                out += "            return high ? \(level(darkHigh)) : \(level(dark))\n"
            } else {
                out += "            return high ? \(uiColor(darkHigh)) : \(uiColor(dark))\n"
            }
            out += "        }\n"
            out += "        return high ? \(uiColor(r[.lightIncreasedContrast])) : \(uiColor(r[.light]))\n"
            out += "    }\n"
        }
        out += "    static let \(swiftUI) = Color(uiColor: \(color))\n"
        return out
    }

    /// The variants of `r` that miss their target, by mode name (`dark, light-increased-contrast`).
    static func failingModes(_ r: PaletteEntryResult) -> String {
        r.variants.filter { !$0.passes }.map { modeName($0.variant) }.joined(separator: ", ")
    }

    /// The UIKit name of a color given as an Apple system color name whose every variant is
    /// Apple's (none given or generated), else nil: such a color is written as the system color.
    func systemName(of r: PaletteEntryResult) -> String? {
        guard let given = request.colors.first(where: { $0.name == r.entry.name }),
              let system = given.color.systemColor, given.systemVariants.count == PaletteVariant.allCases.count - 1 else { return nil }
        return system.name
    }

    /// `UIColor(red:green:blue:alpha:)` (or `displayP3Red:`) of a variant's color in the export's space.
    func uiColor(_ v: PaletteVariantResult) -> String {
        swiftComponents(components(v), alpha: v.color.alpha)
    }

    func swiftComponents(_ ch: SIMD3<Double>, alpha: Double) -> String {
        let a = alpha >= 1 ? "" : ", " + Self.fixed(min(max(alpha, 0), 1), decimals: 4)
        switch colorSpace {
        case .srgb:
            func byte(_ v: Double) -> String { "0x" + String(format: "%02X", EightBit.byte(v)) }
            return "rgb(\(byte(ch.x)), \(byte(ch.y)), \(byte(ch.z))\(a))"
        case .displayP3:
            func d(_ v: Double) -> String { Self.fixed(min(max(v, 0), 1), decimals: 4) }
            return "p3(\(d(ch.x)), \(d(ch.y)), \(d(ch.z))\(a))"
        }
    }

    /// Swift's reserved words that cannot be a member name without backquotes.
    static let swiftKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "as", "false", "is", "nil", "self", "super", "throws", "true", "try", "any", "some", "await", "consume",
    ]

    static func keyword(_ id: String) -> String { swiftKeywords.contains(id) ? "`\(id)`" : id }

    /// A lower camel case identifier: ASCII letters and digits of `s`, each run after a
    /// separator capitalized (`brand tint`, `brand-tint` and `brand_tint` are `brandTint`), the
    /// first letter lower case, `color` before a leading digit, `color` when nothing is left.
    static func swiftIdentifier(_ s: String) -> String {
        let words = swiftWords(s)
        guard !words.isEmpty else { return "color" }
        // Lower camel case: the first word's leading capitals lowered, an acronym as a whole
        // (`UIColor` is `uiColor`, `URLString` `urlString`: a new user's pass got `uIColor`).
        var first = Array(words[0])
        var k = 0
        while k < first.count, first[k].isUppercase { k += 1 }
        let lowered = k == first.count || k <= 1 ? k : k - 1
        for j in 0..<lowered { first[j] = Character(first[j].lowercased()) }
        var id = String(first) + words.dropFirst().map { w in w.prefix(1).uppercased() + w.dropFirst() }.joined()
        if let f = id.unicodeScalars.first, ("0"..."9").contains(f) { id = "color" + id }
        return id
    }

    /// The name's words: runs of letters (ASCII or `isSwiftLetter`) and digits, split at
    /// anything else.
    static func swiftWords(_ s: String) -> [String] {
        var out = "", words: [String] = []
        for ch in s.unicodeScalars {
            // Invisible characters are not separators (`i` + U+034F + `nk` had been `iNk`).
            if PaletteExport.isInvisible(ch) { continue }
            if (ch.isASCII && (ch.properties.isAlphabetic || ("0"..."9").contains(ch))) || isSwiftLetter(ch) {
                out.unicodeScalars.append(ch)
            } else if !out.isEmpty {
                words.append(out)
                out = ""
            }
        }
        if !out.isEmpty { words.append(out) }
        return words
    }

    /// A letter beyond ASCII a Swift identifier may hold anywhere (The Swift Programming
    /// Language, Lexical Structure, identifier-head: most of Latin-1's letters, U+0100–U+02FF,
    /// U+0370–U+167F, U+1E00–U+1FFF, U+3040–U+D7FF, U+F900–U+FD3D and beyond), so that
    /// `é accent` is `éAccent`, not `accent` (a new user's pass). Other letters are dropped.
    static func isSwiftLetter(_ c: Unicode.Scalar) -> Bool {
        guard !c.isASCII, c.properties.isAlphabetic, c.properties.generalCategory != .nonspacingMark,
              c.properties.generalCategory != .spacingMark, c.properties.generalCategory != .enclosingMark else { return false }
        let v = c.value
        let ranges: [ClosedRange<UInt32>] = [0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x167F, 0x1681...0x180D, 0x180F...0x1DBF,
                                             0x1E00...0x1FFF, 0x3040...0xD7FF, 0xF900...0xFD3D, 0xFD40...0xFDCF, 0xFE70...0xFEFE, 0x10000...0x1FFFD,
                                             0x20000...0x2FFFD]
        return ranges.contains { $0.contains(v) }
    }

    /// The enum's name: the palette name in upper camel case, ending in `Colors` or `Palette`
    /// (`Palette` by default, `BrandColors` for "Brand colors", `SelfColors` for "Self"): a name of
    /// its own can be no keyword (`Self`, `Any`) and shadow no type of the file or of the app's
    /// module (`CGFloat`, `UInt8`, `String`: a hostile pass compiled `enum String`, which broke
    /// every `String` of the app).
    static func swiftTypeName(_ s: String) -> String {
        // Upper camel case, acronyms kept (`CGFloat`, `UIKit`).
        var typeName = swiftWords(s).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if typeName.isEmpty { typeName = "Palette" }
        if let f = typeName.unicodeScalars.first, ("0"..."9").contains(f) { typeName = "Color" + typeName }
        return typeName.hasSuffix("Colors") || typeName.hasSuffix("Palette") ? typeName : typeName + "Colors"
    }

    /// Text safe in a `//` comment: one line, no control characters, and no format characters
    /// (bidi overrides and isolates, zero-width spaces: a hostile pass put U+202E in a doc
    /// comment, the "Trojan Source" reordering of what a reviewer sees).
    static func swiftComment(_ s: String) -> String {
        visible(s)
    }
}
