import ColorScience
import DesignTokens

/// The plain-text table of a token audit (`report: text`), for a terminal: one line per pair,
/// failures first, then the summary per mode.
enum TokenAuditText {
    /// Client text (token paths, mode names, patterns) made safe for a terminal: C0 and C1
    /// controls and DEL as `\n`, `\r`, `\t` or `\u001B`, the line separators (U+2028, U+2029)
    /// and every format character (Unicode category Cf: the bidirectional controls U+200E,
    /// U+200F, U+202A–U+202E, U+2066–U+2069, zero-width spaces, joiners that join nothing, U+FEFF) as `\u202E`,
    /// and `\` as `\\`, so a name cannot end a line, forge a `PASS`, hide text with an escape
    /// sequence or carry an invisible character (a hostile pass: a CSS escape `\FEFF` in a token
    /// name reached the table raw).
    static func shown(_ s: String) -> String {
        func unsafe(_ u: Unicode.Scalar) -> Bool { u.value == 0x5C || ClientText.mayHide(u) }
        guard s.unicodeScalars.contains(where: unsafe) else { return s }
        var out = ""
        for (u, hidden) in zip(s.unicodeScalars, ClientText.hiddenFlags(s)) {
            guard u.value == 0x5C || hidden else { out.unicodeScalars.append(u); continue }
            switch u.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x5C: out += "\\\\"
            default: out += ClientText.escaped(u)
            }
        }
        return out
    }

    /// Whether the text suggestion `s` makes the pair's text darker than its background (it
    /// was lighter), by relative luminance as measured with the suggestion (WCAG 2.2).
    static func turnsDark(_ s: NearestPassingColor.Candidate) -> Bool {
        s.measurement.foregroundLuminance < s.measurement.backgroundLuminance
    }

    static func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }

    /// Notes printed (the JSON report has all of them), each cut to `maximumNoteLength` characters.
    static let maximumNotes = 12
    /// Long enough for the notes' advice (a front-end pass: at 240 the gamutMethod and rule-order
    /// advice was cut off; a CI log shows only this report).
    static let maximumNoteLength = 600
    static func brief(_ note: String) -> String {
        note.count > maximumNoteLength ? String(note.prefix(maximumNoteLength - 1)) + "…" : note
    }

    /// `failedOnWarnings`: the pairs pass but `failOn: "warning"` fails the audit on the warnings
    /// above (the last line then says so instead of PASS).
    static func document(_ report: TokenAuditReport, failedOnWarnings: Bool = false) -> String {
        var rows: [[String]] = [["MODE", "FOREGROUND", "BACKGROUND", "CONTRAST", "NEEDS", "RESULT"]]
        // Failures first, then the pairs not measured, then the passing (a CI user's pass: 44
        // unresolved rows of a Figma file came before its first failure, past a log's tail).
        let ordered = report.results.filter { !$0.passes && $0.unresolved == nil } + report.results.filter { $0.unresolved != nil }
            + report.results.filter { $0.passes && $0.unresolved == nil }
        // A suggestion's conflict (a few hundred characters, often the same on many rows) is a
        // numbered footnote below the table, each text once (a new user's pass: one sentence
        // repeated on every row made the table unreadable in a terminal).
        var footnotes: [String] = [], footnoteIndex: [String: Int] = [:]
        func footnote(_ text: String) -> String {
            if let i = footnoteIndex[text] { return "[\(i)]" }
            footnotes.append(text)
            footnoteIndex[text] = footnotes.count
            return "[\(footnotes.count)]"
        }
        for r in ordered {
            let got: String, need: String
            if let m = r.measurement, r.value != nil {
                got = r.target.measuredText(m)
                // An exempt pair needs nothing (its target of 1:1 or Lc 0 is the exemption, not a
                // minimum: a new user's pass read "NEEDS 1:1" as a requirement).
                need = TokenAuditJSON.isExempt(r, in: report) ? "–" : r.target.minimumText
            } else {
                (got, need) = ("–", "–")
            }
            // An unresolved pair's reason is a footnote too (a pass: 206 rows said UNRESOLVED and
            // nothing more, where JSON, JUnit and SARIF name the dangling alias).
            var result = r.unresolved.map { "UNRESOLVED (see \(footnote($0.message)))" }
                ?? (TokenAuditJSON.isExempt(r, in: report) ? "exempt (disabled)" : r.passes ? "pass" : "FAIL")
            // Where the failing foreground is written, as SARIF gives it: `file:line:column`, which
            // editors and terminals open (a front-end pass: a CI log of the text report had no
            // line to open; a new user's pass, stop 43: Figma's REST answer is one line, and
            // every row said `get-local-variables.json:1`).
            if r.unresolved == nil, !r.passes, !TokenAuditJSON.isExempt(r, in: report), let at = r.foreground?.tokenLocation {
                result += " at \(shown(at.file)):\(at.line):\(at.column)"
            }
            // A target no contrast meets (APCA's lookup has no Lc for 14 px at weight 400) says
            // why (a new user's pass: "NEEDS Lc ∞" and nothing more).
            // An APCA minimum depends on the text's size and weight: the size assumed is said once
            // (a new user's pass, stop 43: "NEEDS Lc 90" on every row, never "16 px at weight 400").
            if r.unresolved == nil, !r.target.minimum.isFinite || (r.target.metric == .apca && !TokenAuditJSON.isExempt(r, in: report)) {
                result += " (see \(footnote(r.target.basis)))"
            }
            if let note = TokenAuditJSON.hexVerdictNote(r) { result += " (see \(footnote(note)))" }
            let conflicts = [r.suggestionConflict, r.backgroundSuggestionConflict].compactMap { $0 }.map(footnote)
            // Where the value serves another mode too (a token a mode does not set, shown from
            // `:root`), that is the fix to read first (a new user's pass: a `--popover-foreground`
            // missing from `.dark` was offered a mid-gray popover first, the real fix only in the
            // footnote).
            let first = conflicts.isEmpty ? "" : "first see \(conflicts.joined(separator: " ")); or "
            if let s = r.suggestion, let b = r.backgroundSuggestion {
                // Both are given where the text's fix turns it from lighter than its background
                // to darker or back: the background leads, the text's fix says what it does (a
                // new user's pass: Spectrum's shared Palette.white was offered as #393939 first,
                // which breaks every other pair that white is text in).
                result += " (\(first)try background \(TokenAuditJSON.written(b.background, r.backgroundSuggestionText)), or text \(TokenAuditJSON.written(s.foreground, r.suggestionText)), which turns it \(Self.turnsDark(s) ? "dark" : "light"))"
            } else if let s = r.suggestion {
                result += " (\(first)try \(TokenAuditJSON.written(s.foreground, r.suggestionText)))"
            } else if let b = r.backgroundSuggestion {
                // No text color of its hue passes: the background alone (a hostile pass: JSON,
                // JUnit and SARIF gave it, the text row none).
                result += " (\(first)try background \(TokenAuditJSON.written(b.background, r.backgroundSuggestionText)))"
            }
            rows.append([shown(r.mode ?? TokenAuditJSON.singleMode), shown(r.foregroundPath), shown(r.backgroundPath), got, need, result])
        }
        let widths = (0..<6).map { c in min(rows.map { $0[c].count }.max() ?? 0, 48) }
        var out = rows.map { row in (0..<6).map { pad(row[$0], widths[$0]) }.joined(separator: "  ").trimmingTrailingSpaces }.joined(separator: "\n")
        out += "\n\n"
        for (i, text) in footnotes.enumerated() { out += "[\(i + 1)] \(shown(text))\n" }
        if !footnotes.isEmpty { out += "\n" }
        for s in report.summaries {
            out += "\(shown(s.mode ?? "default")): \(s.pairs) pair\(s.pairs == 1 ? "" : "s"), \(s.passing) pass, \(s.failing) fail\(s.unresolved > 0 ? ", \(s.unresolved) unresolved" : "")\n"
        }
        for i in report.warnedUnmatchedRules { out += "warning: \(TokenAuditJSON.unmatchedRuleWarning(report.rules[i], shown: shown))\n" }
        if let reason = report.nothingCheckedReason { out += "warning: \(reason)\n" }
        for w in report.unresolvedWarnings { out += "warning: \(shown(w))\n" }
        for w in report.coverageWarnings { out += "warning: \(shown(Self.brief(w)))\n" }
        // The readers' notes (triplets read as hsl(), @imports not fetched …), as the JSON has them.
        for note in report.notes.prefix(Self.maximumNotes) { out += "note: \(shown(Self.brief(note)))\n" }
        if report.notes.count > Self.maximumNotes {
            out += "note: \(report.notes.count - Self.maximumNotes) more notes in the JSON report\n"
        }
        // A pass that left pairs unmeasured says so on the verdict's own line (a plugin author's
        // pass: "PASS" with 14 of 42 pairs, every button text, never measured).
        let unresolved = report.summaries.reduce(0) { $0 + $1.unresolved }
        let partly = unresolved > 0 ? " (\(report.checkedPairs) pair\(report.checkedPairs == 1 ? "" : "s") measured; \(unresolved) unresolved, not measured)" : ""
        out += failedOnWarnings ? "FAIL (failOn=warning: the pairs pass; the warnings above fail the audit)\n" : report.passes ? "PASS\(partly)\n" : "FAIL\n"
        return out
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
