/// Characters in a color string that look like whitespace, or cannot be seen at all, but are not
/// the whitespace CSS allows around a color (CSS Syntax 3 §4.2: space, tab, LF, CR and FF only):
/// U+00A0 pasted before `#fff`, U+000B before `red`, U+200B after it. The tokenizer takes them as
/// part of a name, or as a character no color starts with, so without this the message was about
/// something else ("unexpected text after the color: '#fff'" for U+00A0 before it). These say
/// which character, where it is, and what the text is without them.
public struct CSSStrayCharacters: Sendable, Equatable {
    /// Where the first stray character lies relative to the rest of the text.
    public enum Place: Sendable, Equatable {
        /// Only CSS whitespace and stray characters come before it.
        case before
        /// Only CSS whitespace and stray characters come after it.
        case after
        /// Between characters of the color.
        case inside
        /// The text holds nothing but CSS whitespace and stray characters.
        case alone
    }

    /// The first stray character.
    public var first: Unicode.Scalar
    /// Its position, counting Unicode scalars from 1.
    public var position: Int
    public var place: Place
    /// How many stray characters the text holds.
    public var count: Int
    /// The text without the stray characters and without the CSS whitespace around it: what the
    /// sender most likely meant (`#fff` for U+00A0 `#fff`).
    public var remainder: String

    /// The stray characters of `text`, or nil when it has none.
    public static func find(in text: String) -> CSSStrayCharacters? {
        guard text.unicodeScalars.contains(where: isStray) else { return nil }
        var first: (scalar: Unicode.Scalar, position: Int)?
        var count = 0
        var firstVisible: Int?
        var lastVisible = 0
        var kept = String.UnicodeScalarView()
        for (i, c) in text.unicodeScalars.enumerated() {
            if isStray(c) {
                count += 1
                if first == nil { first = (c, i + 1) }
                continue
            }
            kept.append(c)
            if !CSSTokenizer.isWhitespace(c) {
                if firstVisible == nil { firstVisible = i + 1 }
                lastVisible = i + 1
            }
        }
        guard let first else { return nil }
        let place: Place
        if let firstVisible {
            place = first.position < firstVisible ? .before : first.position > lastVisible ? .after : .inside
        } else {
            place = .alone
        }
        return CSSStrayCharacters(first: first.scalar, position: first.position, place: place, count: count,
                                  remainder: trimmingCSSWhitespace(String(kept)))
    }

    /// Whether `c` is a stray character: a control character other than tab, LF, CR and FF, a
    /// space or line separator other than U+0020, or an invisible format character (U+200B,
    /// U+FEFF, U+00AD, bidirectional marks).
    public static func isStray(_ c: Unicode.Scalar) -> Bool {
        if c.value < 0x80 {
            return (c.value < 0x20 || c.value == 0x7F) && !CSSTokenizer.isWhitespace(c)
        }
        switch c.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// `U+00A0 (no-break space)`: the code point and its Unicode name (or alias) in lower case.
    public static func describe(_ c: Unicode.Scalar) -> String {
        let hex = String(c.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        let name = c.properties.name ?? c.properties.nameAlias ?? controlNames[c.value]
        return name.map { "\(code) (\($0.lowercased()))" } ?? "\(code) (a control character)"
    }

    /// Names of control characters, which have none in the Unicode name property (their
    /// Unicode 1.0 names, as in NameAliases.txt).
    static let controlNames: [UInt32: String] = [
        0x00: "null", 0x01: "start of heading", 0x02: "start of text", 0x03: "end of text",
        0x04: "end of transmission", 0x05: "enquiry", 0x06: "acknowledge", 0x07: "bell",
        0x08: "backspace", 0x0B: "line tabulation", 0x0E: "shift out", 0x0F: "shift in",
        0x1B: "escape", 0x7F: "delete", 0x85: "next line",
    ]

    /// The first stray character and where it is: `U+00A0 (no-break space) at character 1`.
    public var firstLocated: String { "\(Self.describe(first)) at character \(position)" }

    /// How many more there are, for a message: ` (and 2 more such characters)`, or empty.
    public var others: String {
        count > 1 ? " (and \(count - 1) more such character\(count > 2 ? "s" : ""))" : ""
    }

    /// The stray characters for a message: `U+00A0 (no-break space) at character 1, before the
    /// color, is not whitespace CSS allows around a color (only space, tab, LF, CR and FF are)`.
    public var description: String {
        let (what, more) = (firstLocated, others)
        switch place {
        case .before, .after:
            return "\(what), \(place == .before ? "before" : "after") the color\(more), is not whitespace CSS allows around a color (only space, tab, LF, CR and FF are)"
        case .inside:
            return "\(what), inside the color\(more), is not part of any CSS color"
        case .alone:
            return "\(what)\(more) is not whitespace CSS allows, and there is no color besides"
        }
    }

    static func trimmingCSSWhitespace(_ s: String) -> String {
        let scalars = s.unicodeScalars
        guard let start = scalars.firstIndex(where: { !CSSTokenizer.isWhitespace($0) }),
              let end = scalars.lastIndex(where: { !CSSTokenizer.isWhitespace($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[start...end]))
    }
}
