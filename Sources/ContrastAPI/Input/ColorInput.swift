import Foundation
import AppleDesign
import ColorScience
import DesignTokens
import JSONValue

/// A color from a request: what was sent, what it parsed to, and how a screen shows it.
struct ResolvedColor: Sendable {
    /// The string as sent.
    var input: String
    /// The parsed color in its own space.
    var color: Color
    /// Displayable sRGB (gamut-mapped when needed) with alpha.
    var display: DisplayColor
    /// What is rarely there, in one optional reference: copies of a plain hex color (the hot
    /// path of `/v1/contrast`) stay small, and nil costs no retain.
    private var details: Details?

    /// The rarely present parts of a resolved color.
    final class Details: Sendable {
        let systemColor: AppleColorResolution?
        let notes: [String]
        let dependsOnAppearance: Bool

        init(systemColor: AppleColorResolution?, notes: [String], dependsOnAppearance: Bool) {
            self.systemColor = systemColor
            self.notes = notes
            self.dependsOnAppearance = dependsOnAppearance
        }
    }

    /// This color with `display` clipped into sRGB channel by channel (CSS Color 4 §13.1), as
    /// Chromium 156 paints a color outside sRGB, when CSS Color 4 gamut mapping had changed it
    /// (`gamutMethod: "clip"`); itself otherwise.
    func clippedIntoSRGB() -> ResolvedColor {
        guard display.wasGamutMapped else { return self }
        var c = self
        c.display = DisplayColor(clipping: color)
        return c
    }

    /// `gamutMethod` of a request that reads colors: `css4` (CSS Color 4 §13.2, the default) or
    /// `clip` (§13.1).
    static func gamutMethod(_ f: Fields) throws(Problem) -> GamutMapping.Method {
        try f.choice("gamutMethod", GamutMapping.Method.self) ?? .css4
    }

    init(input: String, color: Color, display: DisplayColor, systemColor: AppleColorResolution? = nil,
         notes: [String] = [], dependsOnAppearance: Bool = false) {
        self.input = input
        self.color = color
        self.display = display
        if systemColor != nil || !notes.isEmpty || dependsOnAppearance {
            details = Details(systemColor: systemColor, notes: notes, dependsOnAppearance: dependsOnAppearance)
        }
    }

    /// What an Apple system color name resolved to (nil for CSS colors).
    var systemColor: AppleColorResolution? { details?.systemColor }
    /// How the string was read, when worth saying: a bare hex taken as `#…`, the `light-dark()`
    /// branch used, a `var()` substitution (empty for plain colors).
    var notes: [String] { details?.notes ?? [] }
    /// Whether a `light-dark()` made the color depend on the appearance.
    var dependsOnAppearance: Bool { details?.dependsOnAppearance ?? false }
    /// A translucent Apple system color (`systemFill`): as a background without a backdrop it is
    /// measured over the system backgrounds it is drawn on (`ContrastEndpoint.systemBackgrounds`),
    /// by `/v1/contrast`, `/v1/pick` and the matrix alike.
    var isTranslucentSystemColor: Bool { display.alpha < 1 && systemColor != nil }
}

/// Longest color string accepted; the longest valid CSS color of interest is far shorter.
let maxColorLength = 256

/// Parses one color string, mapping parser errors to 400 (invalid) or 422 (unsupported).
///
/// Besides CSS colors, Apple system color names are accepted: the exact, case-sensitive UIKit
/// names of the catalog (`systemBlue`, `secondaryLabel`, `systemBackground`, …), optionally with
/// the UIKit prefix `UIColor.`. They resolve in `context`, or when nil in the request's context
/// (`AppleRequestScope.context`: light, base, standard, newest generation unless the endpoint
/// binds another). Other prefixes (`NSColor.`, `Color.`, `.systemBlue`) are refused with a 400:
/// the catalog holds iOS values, and macOS `NSColor` values differ. With the request's
/// `variables`, a color read before is remembered, and reading is bounded by
/// `CSSRequestScope.maxReadingNanoseconds` (a 422 naming `path` past it).
func resolveColor(_ text: String, at path: FieldPath, hexOrder: HexOrder = .rgba,
                  context: AppleColorContext? = nil) throws(Problem) -> ResolvedColor {
    if text.utf8.count > maxColorLength {
        throw Problem.invalidColor(path, "\(path.display) is longer than \(maxColorLength) bytes")
    }
    if let system = try resolveSystemColor(text, at: path, context: context ?? AppleRequestScope.context) {
        return system
    }
    // `#rrggbb` and friends first: no context to read for them.
    if let color = CSSColorParser.parseHexColor(text, hexOrder: hexOrder) {
        if color.alpha == 0, let note = argbNote(text, hexOrder: hexOrder) {
            return ResolvedColor(input: text, color: color, display: DisplayColor(color), notes: [note])
        }
        return ResolvedColor(input: text, color: color, display: DisplayColor(color))
    }
    if CSSGradient.looksLikeGradient(text) {
        throw Problem.invalidColor(path, "\(path.display) is a CSS gradient, and a color is needed here (a gradient may be the background or a layer of /v1/contrast, the background of /v1/pick, or one of a matrix's gradients)")
    }
    let appearance = (context ?? AppleRequestScope.context).appearance
    try CSSRequestScope.checkInlineTime()
    // With variables, a color read before in this request is not read again (the slot's memory).
    let slot = CSSRequestScope.slotWithVariables
    if let slot, let known = slot.remembered(text, hexOrder: hexOrder, dark: appearance == .dark) { return known }
    // With variables, the reading is bounded (`CSSRequestScope.maxReadingNanoseconds`).
    let reading = try CSSRequestScope.beginReading(at: path)
    defer { CSSRequestScope.endReading(reading) }
    let css = CSSColorContext(colorScheme: appearance == .dark ? .dark : .light,
                              variables: CSSRequestScope.variables, acceptsBareHex: true)
    do {
        let parsed = try CSSColorParser.parse(text, hexOrder: hexOrder, context: css)
        var notes = parsed.notes
        if parsed.color.alpha == 0, let note = argbNote(text, hexOrder: hexOrder) { notes.append(note) }
        let resolved = ResolvedColor(input: text, color: parsed.color, display: DisplayColor(parsed.color),
                                     notes: notes, dependsOnAppearance: parsed.dependsOnColorScheme)
        slot?.remember(resolved, text: text, hexOrder: hexOrder, dark: appearance == .dark)
        return resolved
    } catch {
        switch error {
        case .invalid(let why):
            var text = text
            if let stray = CSSStrayCharacters.find(in: text) {
                // A character CSS does not take as whitespace, or an invisible one (U+00A0 before
                // `#fff`, U+000B before `red`, U+200B after it): the parser's message names it and
                // where it is; what to suggest is the text without it, which may be an Apple name
                // (hostile tests: U+00A0 `red` suggested systemRed, U+000B `red` was "'' is not a
                // CSS color").
                let rest = stray.remainder
                if !rest.isEmpty, (try? resolveSystemColor(rest, at: path, context: context ?? AppleRequestScope.context)) != nil {
                    let it = stray.count == 1 ? "it" : "them"
                    var problem = Problem.invalidColor(path, "\(path.display) is not a valid CSS color: \(stray.description); without \(it), \(ClientText.quoted(rest)) is a color")
                    problem.extra.append(("suggestions", .array([.string(rest)])))
                    throw problem
                }
                if !rest.isEmpty, (try? CSSColorParser.parse(rest, hexOrder: hexOrder)) != nil {
                    var problem = Problem.invalidColor(path, "\(path.display) is not a valid CSS color: \(why)")
                    problem.extra.append(("suggestions", .array([.string(rest)])))
                    throw problem
                }
                // Not a color without them either: the suggestions are for what is left.
                text = rest
            }
            // Misspelt names: Apple system colors and CSS named colors (`redd`), the closer first
            // (a new user's pass, stop 43: `blu` was offered only systemBlue, which merely
            // contains it, not `blue`, one letter away); a system color on a tie.
            var system = systemColorSuggestions(text)
            var css = CSSColorParser.namedColorSuggestions(for: text)
            let typed = Array(text.trimmingWhitespace().lowercased().unicodeScalars)
            func distance(_ name: String?) -> Int { name.map { NameSuggestions.distance(typed, Array($0.lowercased().unicodeScalars)) } ?? .max }
            let cssFirst = distance(css.first) < distance(system.first)
            if !cssFirst && !system.isEmpty { css = [] }
            if cssFirst { system = system.filter { distance($0) <= distance(css.first) + 1 } }
            var hint = cssFirst ? css.first.map { "; did you mean the CSS color '\($0)'?" } ?? ""
                : system.first.map { "; did you mean the Apple system color '\($0)'? (system color names are case-sensitive)" } ?? ""
            // A CSS declaration pasted whole (`background-image: linear-gradient(…)`, as the
            // scrim fixes write their `css`): its value is what is read (a new user's pass had
            // "unknown color name 'background-image'"). An image is another route.
            if let colon = text.firstIndex(of: ":") {
                let name = text[..<colon].trimmingCharacters(in: .whitespaces)
                if name.count >= 2 && name.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) {
                    hint += "; it starts with the CSS declaration name '\(name):': send only the value after it"
                }
            }
            if why.hasPrefix("unexpected text after the color"), let comma = text.firstIndex(of: ","),
               text.firstIndex(of: "(").map({ comma < $0 }) ?? true {
                // `#6366f1, #ec4899`: colors listed as a gradient's stops are.
                hint += "; colors with commas between them make a gradient: linear-gradient(\(text.trimmingCharacters(in: .whitespaces))), "
                    + "taken as /v1/contrast's background or a layer, or among a matrix's gradients"
            }
            if text.lowercased().hasPrefix("url(") {
                hint += "; an image behind text is measured by POST /v1/image/text-contrast (the image as the body)"
            }
            var suggestions: [String] = []
            if why.hasPrefix("unknown color name '"), case .success(let data) = AppleData.shared {
                // An Apple system color inside a CSS function (`color-mix(in oklab, systemRed 50%,
                // white)`: a hostile pass, the docs having said every color member takes the
                // names): only a whole member is one; its value in the request's context is offered.
                let name = String(why.dropFirst("unknown color name '".count).prefix { $0 != "'" })
                if let resolution = data.catalog.resolve(name, in: context ?? AppleRequestScope.context) {
                    let hex = DisplayColor(resolution.value.color).quantized.hex
                    hint = "; \(ClientText.quoted(name)) is an Apple system color, read as a whole color member only, not inside a CSS function: here it is \(hex)"
                    suggestions.append(text.replacingOccurrences(of: name, with: hex))
                }
            }
            if let variables = CSSRequestScope.variables, let undefined = CSSVariables.undefinedName(in: why),
               variables.values.count <= CSSVariables.maximumCount {
                // A misspelt custom property (`--color-grey-500`: a new user's pass, stop 43, had no
                // suggestion): the closest names the request's variables define.
                let close = NameSuggestions.suggestions(for: undefined, among: variables.values.keys.sorted(), limit: 3)
                if let first = close.first {
                    hint += "; did you mean '\(first)'?"
                    suggestions += close.map { text.replacingOccurrences(of: undefined, with: $0) }
                }
            }
            if let variables = CSSRequestScope.variables, let (name, written) = customPropertyNamed(text, in: variables) {
                // A custom property's or a utility's name where a color goes (`--color-blue-500`,
                // `blue-500`, `text-blue-500`: a new user's pass, stop 43, had "unknown color
                // name"): CSS reads a property through var().
                hint = "; \(ClientText.quoted(written)) names the custom property \(name) of \"variables\": CSS reads it as var(\(name))"
                suggestions.append("var(\(name))")
            }
            if text.contains("--alpha("), text.utf8.count <= CSSColorParser.maximumLength, let mixed = CSSThemeReader.tailwindAlpha(text) {
                // Tailwind v4's build-time function, copied from a theme (a new user's pass, stop
                // 43): what Tailwind compiles it to is CSS, suggested rather than read silently.
                hint = "; --alpha() is Tailwind v4's build-time function, which compiles to \(mixed): send that"
                suggestions.append(mixed)
            }
            if let written = hexWithOpacity(text) {
                // Figma's inspect panel writes a fill as `FFFFFF 50%` (a new user's pass: the
                // answer was "unknown color name 'FFFFFF'", though bare hex is read).
                hint = "; a hex color and an opacity, as Figma shows a fill, are one color in CSS: \(written)"
                suggestions.append(written)
            }
            if why.contains("is a hex number as code writes it") {
                // `0x336699`: the parser names the CSS hex it means (both readings of eight
                // digits), and those are the suggestions too (a new user's pass: only the detail
                // said '#336699').
                var rest = Substring(why)
                while let open = rest.range(of: "'#") {
                    let after = rest[open.upperBound...]
                    guard let close = after.firstIndex(of: "'") else { break }
                    suggestions.append("#" + after[..<close])
                    rest = after[after.index(after: close)...]
                }
            }
            if path.parameter != nil && text.isEmpty {
                // `?color=#777`: the `#` starts the URL's fragment, so the value arrives empty.
                hint += " (in a URL query write # as %23: a bare # starts the fragment, so ?color=#777 arrives empty)"
            }
            var problem = Problem.invalidColor(path, "\(path.display) is not a valid CSS color: \(why)\(hint)")
            suggestions += cssFirst ? css + system : system + css
            if !suggestions.isEmpty { problem.extra.append(("suggestions", .array(suggestions.map { .string($0) }))) }
            throw problem
        case .unsupported(let why):
            let hint = css.variables == nil && CSSVariables.mayReferToVariables(text) ? variablesHint(text, at: path) : ""
            throw Problem.unsupportedColor(path, "\(path.display) is not supported: \(why)\(hint)")
        }
    }
}

/// The custom property of `variables` that `text` names without `var()`: itself (`--brand`),
/// or a Tailwind color (`--color-<name>`) as its utilities write it (`blue-500`, `text-blue-500`,
/// `bg-blue-500`, `border-…`); with the text as written. Nil when none is defined.
func customPropertyNamed(_ text: String, in variables: CSSVariables) -> (name: String, written: String)? {
    let t = text.trimmingWhitespace()
    guard t.utf8.count <= 128, !t.isEmpty, t.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }) else { return nil }
    if t.hasPrefix("--") { return variables.values[t] != nil ? (t, t) : nil }
    var name = t
    for prefix in ["text-", "bg-", "border-", "fill-", "stroke-", "ring-", "outline-", "decoration-", "accent-", "caret-", "from-", "via-", "to-"] where name.hasPrefix(prefix) {
        name.removeFirst(prefix.count)
        break
    }
    let property = "--color-" + name
    return variables.values[property] != nil ? (property, t) : nil
}

/// How to send the custom properties a color's `var()` needs, with Tailwind v4's default value
/// where the name is one of its palette (a new user's pass, stop 38: `var(--color-blue-500)`; not
/// filled in silently, since a project's theme may redefine it). Kept out of `resolveColor`
/// (`@inline(never)`): a plain pair's path stays as it was (bench/profile post).
@inline(never)
func variablesHint(_ text: String, at path: FieldPath) -> String {
    let example = tailwindDefaults(in: text).first.map { "{\"variables\": {\"\($0.name)\": \"\($0.value)\"}}, Tailwind v4's default \($0.name), or {\"variables\": \"tailwind\"} for its whole default palette" }
        ?? "{\"variables\": {\"--brand\": \"#0066cc\"}}"
    return path.parameter == nil
        ? " (give the custom properties in the body's \"variables\" member, e.g. \(example))"
        : " (the routes that read a JSON body take custom properties in its \"variables\" member\(example.hasPrefix("{\"variables\": {\"--brand") ? "" : ", e.g. \(example)"))"
}

/// The custom properties `var()` names in `text` that Tailwind v4's default theme defines
/// (`--color-blue-500`), with their values (`TailwindPalette`), in order, at most 8 looked at.
func tailwindDefaults(in text: String) -> [(name: String, value: String)] {
    var found: [(name: String, value: String)] = []
    var rest = Substring(text)
    while found.count < 8, let r = rest.range(of: "var(", options: .caseInsensitive) {
        let after = rest[r.upperBound...].drop { $0 == " " }
        let name = after.prefix { $0 != "," && $0 != ")" && $0 != " " }
        if let value = TailwindPalette.colors[String(name)], !found.contains(where: { $0.name == name }) {
            found.append((String(name), value))
        }
        rest = rest[r.upperBound...]
    }
    return found
}

/// For a 4- or 8-digit hex color (`#` optional) that CSS reads as fully transparent but that
/// Android's `#AARRGGBB` would show: a note naming both readings (a new user's pass: Android's
/// `#80000000`, black at 50%, was measured as invisible text, 1.00:1, with nothing said).
func argbNote(_ text: String, hexOrder: HexOrder) -> String? {
    guard hexOrder == .rgba else { return nil }
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let digits = trimmed.hasPrefix("#") ? String(trimmed.dropFirst()) : trimmed
    guard digits.count == 8 || digits.count == 4, let argb = CSSColorParser.parseHexColor("#" + digits, hexOrder: .argb),
          argb.alpha > 0 else { return nil }
    let shown = Color.srgb(argb.coordinates.x, argb.coordinates.y, argb.coordinates.z).hex
    return "\(ClientText.quoted(trimmed)) is read as CSS #RRGGBBAA: its alpha is 0, fully transparent; if it is Android's #AARRGGBB, send hexOrder \"argb\" (then it is \(shown) at alpha \(ColorFormatting.number(argb.alpha, decimals: 3)))"
}

/// `FFFFFF 50%` or `#0066cc 80 %` (a hex color, then an opacity in percent, as Figma shows a
/// fill) written as one CSS color, `#ffffff80`; nil for other text.
func hexWithOpacity(_ text: String) -> String? {
    let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard parts.count == 2 || (parts.count == 3 && parts[2] == "%") else { return nil }
    let percent = parts.count == 3 ? Substring(parts[1]) : parts[1].hasSuffix("%") ? parts[1].dropLast() : nil
    guard let percent, let opacity = Double(percent), opacity.isFinite, (0...100).contains(opacity),
          let color = CSSColorParser.parseHexColor("#" + (parts[0].hasPrefix("#") ? parts[0].dropFirst() : parts[0])),
          color.alpha == 1 else { return nil }
    let alpha = Int((opacity / 100 * 255).rounded())
    let c = color.coordinates
    return Color.srgb(c.x, c.y, c.z, alpha: Double(alpha) / 255).hex
}

/// The longest Apple system color name with its `UIColor.` prefix is far below this.
let maxSystemColorNameLength = 64

/// Resolves an Apple system color name in `context`; nil when `text` is not one (then it is
/// parsed as CSS). A known name behind a prefix other than `UIColor.` is a 400.
func resolveSystemColor(_ text: String, at path: FieldPath, context: AppleColorContext) throws(Problem) -> ResolvedColor? {
    // Names start with an ASCII letter after any CSS whitespace (space, tab, LF, FF, CR: what
    // may surround a CSS color; U+000B and U+00A0 are not trimmed, as CSS does not trim them, and
    // get the same message as before a CSS color): `#…`, digits and the like are CSS, known
    // without making a trimmed copy.
    let isSpace = { (b: UInt8) in b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D }
    // A leading '.' too: SwiftUI's `.systemBlue` is refused with the explanation below.
    guard let first = text.utf8.first(where: { !isSpace($0) }),
          (first | 0x20) >= UInt8(ascii: "a") && (first | 0x20) <= UInt8(ascii: "z") || first == UInt8(ascii: ".") else { return nil }
    let bytes = Array(text.utf8)
    let start = bytes.firstIndex(where: { !isSpace($0) }) ?? bytes.count
    let end = (bytes.lastIndex(where: { !isSpace($0) }) ?? -1) + 1
    let trimmed = start < end ? String(decoding: bytes[start..<end], as: UTF8.self) : ""
    guard !trimmed.isEmpty, trimmed.utf8.count <= maxSystemColorNameLength else { return nil }
    guard trimmed.utf8.allSatisfy({ ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") })
    else {
        // Swift written as a color (`UIColor.systemBlue()`, `Color(.systemBlue)`, `Color(uiColor:
        // .systemBlue)`): the name to write (an iOS developer's pass: "unexpected '.' inside
        // color()", read as CSS's color()).
        if trimmed.utf8.contains(UInt8(ascii: "(")), let name = swiftColorExpressionName(trimmed),
           case .success(let data) = AppleData.shared {
            if let p = uikitOnlyName(name, written: trimmed, at: path) { throw p }
            if data.catalog.color(named: name) != nil {
                var p = Problem.invalidColor(path, "\(path.display): \(ClientText.quoted(trimmed)) is Swift; write the Apple system color as '\(name)'")
                p.extra.append(("suggestions", .array([.string(name)])))
                throw p
            }
        }
        return nil
    }
    guard case .success(let data) = AppleData.shared else {
        // Without the bundled reference data (a binary installed without its resource bundle)
        // an Apple name is the missing data's 500, not "unknown CSS color; did you mean
        // slateblue" (a new user's pass).
        let appleWords = AppleCompositing.labelNames + ["separator", "opaqueSeparator", "link", "lightText", "darkText"]
        if trimmed.hasPrefix("system") || trimmed.hasPrefix("UIColor.") || trimmed.hasPrefix(".system") || appleWords.contains(trimmed) {
            _ = try AppleData.get()
        }
        return nil
    }
    var name = trimmed
    // UIKit's names the catalog does not hold, bare or behind any prefix (`tintColor`,
    // `UIColor.lightText`, `.tintColor`, `Color.tint`).
    if let p = uikitOnlyName(name.lastIndex(of: ".").map { String(name[name.index(after: $0)...]) } ?? name, written: trimmed, at: path) {
        throw p
    }
    if name.hasPrefix("UIColor.") {
        name.removeFirst("UIColor.".count)
        // The UIKit prefix says an Apple system color is meant: an unknown one is named as such,
        // not handed to the CSS parser ("unexpected text after the color").
        guard data.catalog.color(named: name) != nil else {
            let close = data.catalog.suggestions(for: name)
            var p = Problem.invalidColor(path, "\(path.display): \(ClientText.quoted(name)) is not an Apple system color"
                + (close.first.map { "; did you mean 'UIColor.\($0)'?" } ?? ""))
            if !close.isEmpty { p.extra.append(("suggestions", .array(close.map { .string("UIColor.\($0)") }))) }
            throw p
        }
    } else if let dot = name.lastIndex(of: ".") {
        let rest = String(name[name.index(after: dot)...])
        if data.catalog.color(named: rest) != nil {
            var p = Problem.invalidColor(path, "\(path.display): \(ClientText.quoted(trimmed)) is not accepted; write the Apple system color as '\(rest)' or 'UIColor.\(rest)' (the catalog holds iOS UIKit values; macOS NSColor values differ)")
            p.extra.append(("suggestions", .array([.string(rest)])))
            throw p
        }
        let prefix = String(name[..<dot])
        // AppKit's names (`NSColor.labelColor`, `NSColor.systemBlue`): macOS values, which the
        // catalog does not hold; the iOS color of the same role is named (a hostile pass got
        // "unknown color name 'NSColor'").
        if prefix == "NSColor" {
            let role = rest.hasSuffix("Color") && rest.count > 5 ? String(rest.dropLast(5)) : rest
            let ios = data.catalog.color(named: role) != nil ? role : nil
            var p = Problem.invalidColor(path, "\(path.display): \(ClientText.quoted(trimmed)) is AppKit's (macOS) name; the catalog holds iOS UIKit values, and macOS values differ"
                + (ios.map { ": for the iOS color of that role write '\($0)'" } ?? ""))
            if let ios { p.extra.append(("suggestions", .array([.string(ios)]))) }
            throw p
        }
        // SwiftUI's own names (`Color.blue`, `.primary`, `Color.accentColor`): what they are on
        // iOS, named as the catalog names it (a new user's pass: "unknown color name 'Color'").
        if prefix == "Color" || prefix.isEmpty {
            let swiftUI: [String: String] = [
                "red": "systemRed", "orange": "systemOrange", "yellow": "systemYellow", "green": "systemGreen",
                "mint": "systemMint", "teal": "systemTeal", "cyan": "systemCyan", "blue": "systemBlue",
                "indigo": "systemIndigo", "purple": "systemPurple", "pink": "systemPink", "brown": "systemBrown",
                "gray": "systemGray", "primary": "label", "secondary": "secondaryLabel",
            ]
            if let system = swiftUI[rest], data.catalog.color(named: system) != nil {
                var p = Problem.invalidColor(path, "\(path.display): \(ClientText.quoted(trimmed)) is SwiftUI's name; on iOS it is the system color '\(system)': write that")
                p.extra.append(("suggestions", .array([.string(system)])))
                throw p
            }
            if let css = ["white": "white", "black": "black", "clear": "transparent"][rest] {
                var p = Problem.invalidColor(path, "\(path.display): \(ClientText.quoted(trimmed)) is SwiftUI's name; as a CSS color it is '\(css)': write that")
                p.extra.append(("suggestions", .array([.string(css)])))
                throw p
            }
            if rest == "accentColor" {
                throw Problem.invalidColor(path, "\(path.display): \(ClientText.quoted(trimmed)) is the app's own accent color (its asset catalog's AccentColor, systemBlue by default): give that color itself")
            }
        }
        return nil
    }
    guard let resolution = data.catalog.resolve(name, in: context) else { return nil }
    let color = resolution.value.color
    return ResolvedColor(input: text, color: color, display: DisplayColor(color), systemColor: resolution)
}

/// The color name in Swift that makes a UIKit or SwiftUI color of it: `UIColor.systemBlue()`,
/// `Color(.systemBlue)`, `Color(uiColor: .systemBlue)`, `Color(UIColor.systemBlue)`; nil for
/// other text.
func swiftColorExpressionName(_ text: String) -> String? {
    var t = Substring(text)
    func isName(_ s: Substring) -> Bool { !s.isEmpty && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } && s.first!.isLetter }
    if t.hasPrefix("UIColor."), t.hasSuffix("()") {
        t = t.dropFirst("UIColor.".count).dropLast(2)
        return isName(t) ? String(t) : nil
    }
    guard t.hasPrefix("Color("), t.hasSuffix(")") else { return nil }
    t = t.dropFirst("Color(".count).dropLast()
    for label in ["uiColor:", "nsColor:"] where t.hasPrefix(label) { t = t.dropFirst(label.count) }
    t = Substring(t.drop { $0 == " " })
    if t.hasPrefix("UIColor.") { t = t.dropFirst("UIColor.".count) } else if t.hasPrefix(".") { t = t.dropFirst() } else { return nil }
    return isName(t) ? String(t) : nil
}

/// The 400 for UIKit names that are no catalog color (`tintColor`, `lightText`, `darkText`,
/// with or without `UIColor.` or a leading `.`), saying what each is; nil for other names (an
/// iOS developer's pass: "unknown color name", and `systemTint` suggested `systemMint`).
func uikitOnlyName(_ name: String, written: String, at path: FieldPath) -> Problem? {
    switch name {
    case "tintColor", "tint", "systemTint":
        var p = Problem.invalidColor(path, "\(path.display): \(ClientText.quoted(written)) is a view's tint: the app's accent color unless a view sets its own (its asset catalog's AccentColor, systemBlue when none is set): give that color itself")
        p.extra.append(("suggestions", .array([.string("systemBlue")])))
        return p
    case "lightText", "darkText":
        var p = Problem.invalidColor(path, "\(path.display): \(ClientText.quoted(written)) is UIKit's older text color for \(name == "lightText" ? "dark" : "light") backgrounds, which does not adapt to dark mode; the catalog does not hold it: for text that adapts write 'label', or give the color itself")
        p.extra.append(("suggestions", .array([.string("label")])))
        return p
    default:
        return nil
    }
}

/// Close Apple system color names for a string that is not a valid color (identifiers only).
func systemColorSuggestions(_ text: String) -> [String] {
    var t = text.trimmingWhitespace()
    if t.hasPrefix("UIColor.") { t.removeFirst("UIColor.".count) }
    guard NameSuggestions.isPlainName(t, maxLength: maxSystemColorNameLength), case .success(let data) = AppleData.shared
    else { return [] }
    return data.catalog.suggestions(for: t)
}

extension Fields {
    /// A color member: a CSS color string or an Apple system color name (see `resolveColor`).
    func color(_ key: String, required: Bool = false, hexOrder: HexOrder = .rgba,
               context: AppleColorContext? = nil) throws(Problem) -> ResolvedColor? {
        guard let v = value(key) else {
            if required { throw Problem.invalidField(field(key), "\(field(key).display) is required: give a CSS color such as \"#1c1c1e\"") }
            return nil
        }
        guard case .string(let s) = v else { throw notAColorString(v, at: field(key)) }
        return try resolveColor(s, at: field(key), hexOrder: hexOrder, context: context)
    }
}

/// The 400 for a color member that is not a string; a Figma color object (`{"r", "g", "b",
/// "a"?}` of 0–1 numbers, as its plugin API and REST API give colors) is answered with the CSS
/// string that says the same (a plugin author's pass had only "not object").
func notAColorString(_ v: JSON, at path: FieldPath) -> Problem {
    var why = "\(path.display) must be a CSS color string, not \(v.typeName)"
    if case .object(let o) = v, o.storage.count <= 4 {
        var channels: [String] = []
        for key in ["r", "g", "b"] {
            guard case .number(let n)? = o[key], n >= 0, n <= 1 else { break }
            channels.append(Fields.format(n))
        }
        let alpha: String?
        switch o["a"] {
        case nil: alpha = nil
        case .number(let a)? where a >= 0 && a <= 1: alpha = Fields.format(a)
        default: alpha = "?"
        }
        if channels.count == 3, alpha != "?", o.storage.count == 3 + (alpha == nil ? 0 : 1) {
            let text = "color(srgb \(channels.joined(separator: " "))\(alpha.map { " / \($0)" } ?? ""))"
            why += "; a color of 0–1 channels such as Figma's {r, g, b, a} is written \(ClientText.quoted(text))"
        }
    }
    return Problem.invalidField(path, why)
}

/// The pair a contrast question is about: `foreground` and `background` (required), `backdrop`
/// (optional, opaque: what lies behind a translucent background), all read with `hexOrder`.
struct ColorPairInput {
    var foreground: ResolvedColor
    var background: ResolvedColor
    var backdrop: ResolvedColor?
    var hexOrder: HexOrder

    /// The pair with every color clipped into sRGB (`ResolvedColor.clippedIntoSRGB`).
    func clippedIntoSRGB() -> ColorPairInput {
        ColorPairInput(foreground: foreground.clippedIntoSRGB(), background: background.clippedIntoSRGB(),
                       backdrop: backdrop?.clippedIntoSRGB(), hexOrder: hexOrder)
    }
}

extension Fields {
    /// `hexOrder`, `foreground`, `background` and `backdrop` (400 when a color is missing or
    /// invalid, or the backdrop is translucent).
    func colorPair() throws(Problem) -> ColorPairInput {
        let hexOrder = try choice("hexOrder", HexOrder.self) ?? .rgba
        let fg = try color("foreground", required: true, hexOrder: hexOrder)!
        let bg = try color("background", required: true, hexOrder: hexOrder)!
        return ColorPairInput(foreground: fg, background: bg, backdrop: try opaqueBackdrop(hexOrder: hexOrder), hexOrder: hexOrder)
    }

    /// The optional `backdrop` color: what lies behind a translucent background, so it must be
    /// opaque (400 naming the member otherwise).
    func opaqueBackdrop(hexOrder: HexOrder) throws(Problem) -> ResolvedColor? {
        let backdrop = try color("backdrop", hexOrder: hexOrder)
        if let backdrop, backdrop.display.alpha < 1 {
            throw Problem.invalidField(field("backdrop"), "\(field("backdrop").display) must be opaque: it is what lies behind everything")
        }
        return backdrop
    }
}
