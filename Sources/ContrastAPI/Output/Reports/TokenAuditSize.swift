import DesignTokens

/// An upper estimate of a token audit report's size, made from the report before any text is
/// built, so an answer over `maximumBytes` is refused instead of built (a 7 KB CSS file whose
/// mode was named by a 1,000-selector list made a 128 MB answer; 140 tokens with 1,500-character
/// names 186 MB of JSON). Every client string is weighed as its format escapes it at worst (six
/// bytes for a control character in JSON, `\u001B` in text, `&amp;` in XML; a file name thrice, as a URI percent-encodes it)
/// and counted once for each place the format writes it.
enum TokenAuditSize {
    /// Largest report sent, as for /v1/contrast/matrix's answers.
    static let maximumBytes = MatrixEndpoint.maxAnswerBytes

    /// UTF-8 bytes of `s` once escaped, at worst: six for a control, quote, `&`, `<`, `>` or
    /// `\`; eight for a scalar of two or three bytes (`&#x202E;`, `\u202e`), twelve for one of
    /// four (a surrogate pair, `\udb40\udc01`), as hidden characters are written.
    static func weight(_ s: String) -> Int {
        var n = 0
        for b in s.utf8 {
            if b < 0x80 {
                n += b < 0x20 || b == 0x7F || b == 0x22 || b == 0x26 || b == 0x3C || b == 0x3E || b == 0x5C ? 6 : 1
            } else if b >= 0xC0 {
                n += b >= 0xF0 ? 12 : 8
            }
        }
        return n
    }

    /// An upper estimate of the report's bytes in `format`; once past `maximumBytes` the pairs
    /// left are not weighed (the answer is then only known to be over the limit).
    static func estimate(_ report: TokenAuditReport, format: TokenAuditRequest.Report) -> Int {
        var total = 4096 + report.notes.reduce(0) { $0 + 16 + weight($1) }
        for w in report.unresolvedWarnings + report.coverageWarnings + (report.nothingCheckedReason.map { [$0] } ?? []) { total += 200 + 2 * weight(w) }
        for r in report.rules {
            total += 600 + weight(r.source) + weight(r.foreground.text) + weight(r.background.text) + (r.backdrop.map { weight($0.text) } ?? 0)
        }
        for s in report.summaries { total += 200 + 2 * weight(s.mode ?? "default") }
        func token(_ t: ResolvedToken?) -> Int {
            guard let t else { return 0 }
            return 120 + t.chain.reduce(0) { $0 + 4 + weight($1) } + weight(t.css) + weight(t.tokenLocation.file)
                + (t.chain.count > 1 ? 70 + weight(t.location.file) : 0)  // an alias's valueLocation
        }
        for r in report.results {
            let names = weight(r.foregroundPath) + weight(r.backgroundPath) + weight(r.mode ?? "default")
            let reason = r.unresolved.map { weight($0.message) + weight($0.location?.file ?? "") } ?? 0
            // JSON writes an unresolved pair's reason twice (its `unresolved.reason` and its
            // `summary`) and the token met (a hostile pass: 19,900 pairs through one alias
            // chain of 500-character names, 2.2 KB each, made a 44.5 MB answer estimated under
            // 32 MiB).
            let reasonJSON = r.unresolved.map { 80 + 2 * weight($0.message) + weight($0.path ?? "") + weight($0.location?.file ?? "") } ?? 0
            let file = 3 * weight((r.foreground?.tokenLocation ?? r.unresolved?.location)?.file ?? "")  // percent-encoded in SARIF
            // The background alternative's line in JUnit, SARIF and text (its path, hex, words).
            let backgroundSuggestion = r.backgroundSuggestion == nil ? 0 : 100 + 2 * weight(r.backgroundPath)
            // The suggestions written as their tokens are (`css` in JSON, before the hex elsewhere).
            let written = (r.suggestionText.map { 16 + weight($0) } ?? 0) + (r.backgroundSuggestionText.map { 16 + weight($0) } ?? 0)
                + (r.suggestionConflict.map { 20 + weight($0) } ?? 0) + (r.backgroundSuggestionConflict.map { 20 + weight($0) } ?? 0)
            // A DTCG file's suggestion also carries its color object (`TokenAuditJSON.dtcgValue`).
            let dtcgValue = report.format == .dtcg ? 130 : 0
            switch format {
            case .json:
                // ~580 bytes of members and numbers; the paths in `token`, `chain` and `summary`,
                // the mode twice, a suggestion's token and definedBy.
                total += 640 + written + 2 * names + token(r.foreground) + token(r.background) + token(r.backdrop) + reasonJSON
                    + (r.suggestion == nil ? 0 : 160 + dtcgValue + weight(r.foregroundPath) + weight(r.foreground?.chain.last ?? ""))
                    + (r.backgroundSuggestion == nil ? 0 : 180 + dtcgValue + weight(r.backgroundPath) + weight(r.background?.chain.last ?? ""))
            case .junit:
                // The pair in the testcase's name, a failure's message and its text.
                total += 280 + written + 4 * names + file + reason + r.target.basis.utf8.count + backgroundSuggestion
            case .sarif:
                if !r.passes { total += 560 + written + 3 * names + file + reason + r.target.basis.utf8.count + backgroundSuggestion }
            case .text:
                // An unresolved pair's reason as a footnote.
                total += 120 + written + names + backgroundSuggestion + reason
            }
            // Past the limit the rest need not be weighed: the report is refused (a hostile pass:
            // 19,500 pairs each through 62 aliases of 400-character names weighed 480 MB of names).
            if total > maximumBytes { return total }
        }
        return total
    }
}
