// STUB — placeholder so the JSON readers' dispatch (TokenFormats) builds before the CSS reader
// lands. The real CSSThemeReader is written on branch tokens-css in this same file; on merge,
// take that branch's version of this file and drop this one entirely.

/// CSS custom properties and Tailwind v4 `@theme` (stub: detects non-JSON text, reads nothing).
public enum CSSThemeReader: TokenFormatReader {
    public static let format = TokenFormat.css

    /// Stub: every file is text that does not start like JSON.
    public static func detect(_ files: [TokenFile]) -> Bool {
        !files.isEmpty && files.allSatisfy { !JSONTokenDocument.looksLikeJSON($0) }
    }

    /// Stub: always throws.
    public static func read(_ files: [TokenFile]) throws(TokenError) -> TokenSet {
        throw TokenError(file: files.first?.name, reason: "CSS token files are not read yet (CSSThemeReader is a stub)")
    }
}
