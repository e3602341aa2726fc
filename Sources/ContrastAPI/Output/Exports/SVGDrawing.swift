import JSONValue
import ColorScience

/// The SVG pictures of the matrix and the palette sheet: the document opening, text escaping,
/// name shortening and the caption color of a tile.
enum SVGDrawing {
    /// `<svg …>` of `width` × `height` px with `title` (already escaped) and a white page.
    static func open(width: Int, height: Int, title: String) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="-apple-system, system-ui, sans-serif">
        <title>\(title)</title>
        <rect width="\(width)" height="\(height)" fill="#ffffff"/>

        """
    }

    /// Black or white, whichever has the higher contrast ratio on `background` (a caption on a tile).
    static func captionColor(on background: SIMD3<Double>) -> String {
        let luminance = WCAG.relativeLuminance(background)
        return WCAG.contrastRatio(luminance, 0) >= WCAG.contrastRatio(luminance, 1) ? "#000000" : "#ffffff"
    }

    /// A name cut to 16 characters (15 and "…") for a header.
    static func short(_ name: String, max: Int = 16) -> String {
        name.count > max ? String(name.prefix(max - 1)) + "…" : name
    }

    /// `text` escaped for XML content and attributes; the characters XML 1.0 forbids (C0 controls
    /// but tab, LF, CR; U+FFFE, U+FFFF) become U+FFFD.
    static func xml(_ text: String) -> String {
        var out = ""
        let hidden = text.unicodeScalars.contains(where: ClientText.mayHide) ? ClientText.hiddenFlags(text) : []
        for (i, ch) in text.unicodeScalars.enumerated() {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // XML 1.0 §2.2 Char: no C0 control but tab, LF, CR; no U+FFFE, U+FFFF.
                let forbidden = (ch.value < 0x20 && ch != "\t" && ch != "\n" && ch != "\r") || ch.value == 0xFFFE || ch.value == 0xFFFF
                // A character a reader would not see (a bidi override in a color's name reorders
                // the rest of the line where a renderer or terminal shows it) written `\u202E`, as
                // the text reports write it: a character reference (`&#x202E;`) is read back into
                // the character by every parser and renderer (a hostile pass).
                if forbidden {
                    out += "\u{FFFD}"
                } else if ch.value >= 0x7F && !hidden.isEmpty && hidden[i] {
                    out += ClientText.escaped(ch)
                } else {
                    out.unicodeScalars.append(ch)
                }
            }
        }
        return out
    }
}
