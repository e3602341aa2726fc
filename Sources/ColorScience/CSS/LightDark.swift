// light-dark() (CSS Color 5 §5): the first color under a light color scheme, the second under
// a dark one. Both must be valid colors whichever is used.

/// The color scheme `light-dark()` resolves by (CSS Color Adjust 1 `color-scheme`).
public enum CSSColorScheme: String, Sendable, CaseIterable {
    case light, dark
}

extension ColorSyntax {
    /// `light-dark(<color>, <color>)`: both parsed (an invalid one is a 400 either way), the one
    /// of `colorScheme` returned, and a note saying which.
    func lightDark(_ inner: [CSSToken]) throws(ColorParseError) -> Color {
        let groups = Self.splitAtCommas(inner)
        guard groups.count == 2 else {
            throw .invalid("light-dark() takes two colors separated by a comma (light, dark), got \(groups.count == 1 && Self.componentValues(groups[0]).isEmpty ? 0 : groups.count)")
        }
        let light = try parse(groups[0])
        let dark = try parse(groups[1])
        dependsOnColorScheme = true
        let used = colorScheme == .light ? groups[0] : groups[1]
        let note = "light-dark(): used the \(colorScheme.rawValue) color '\(text(used).trimmingCSSWhitespace)' (appearance \(colorScheme.rawValue))"
        if !notes.contains(note) { notes.append(note) }
        return colorScheme == .light ? light : dark
    }
}

extension String {
    /// The string without CSS whitespace (space, tab, LF, CR, FF) at either end.
    var trimmingCSSWhitespace: String {
        let scalars = Array(unicodeScalars)
        var a = 0, b = scalars.count
        while a < b, CSSTokenizer.isWhitespace(scalars[a]) { a += 1 }
        while b > a, CSSTokenizer.isWhitespace(scalars[b - 1]) { b -= 1 }
        var v = String.UnicodeScalarView()
        v.append(contentsOf: scalars[a..<b])
        return String(v)
    }
}
